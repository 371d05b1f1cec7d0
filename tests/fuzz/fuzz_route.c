/* libFuzzer harness: what an HTTP client sends that reaches our code, past
 * libmicrohttpd: the path and query (http/route.c ww_route_path_valid), and
 * for a valid one its rendering (ww_route_render: the drive routes, the
 * history query's metric/from/to/max_points parsing in expo and the query
 * itself on a small history database); and the collector's answer header the
 * web side parses (ww_ipc_parse_header), and the request line the collector
 * parses (ww_ipc_parse_request). The first byte selects: 0 mod 4 a path
 * against a store with one drive, 2 mod 4 the same against an empty store
 * (no drive yet: its arrays are NULL), 1 mod 4 a header line, 3 mod 4 a
 * request line. Seeds:
 * tests/fuzz/regress/route-*. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wearwatch/http.h"
#include "wearwatch/store.h"
#include "wearwatch/history.h"
#include "fuzz_file.h"

static ww_route_src_t full, empty; /* one drive with history; none */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[] = "/tmp/ww-fuzz-route-XXXXXX", path[128];
	ww_history_t *h = NULL;
	ww_store_endurance_t *svc;
	ww_health_t rec;

	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/history.db", dir);
	if (ww_history_open(path, NULL, &h, NULL, 0))
		abort();
	memset(&rec, 0, sizeof(rec));
	for (int i = 0; i < 2000; i++) {
		WW_SET(rec.host_written_bytes, 1000000ull * (uint64_t)i, "fuzz");
		WW_SET(rec.temperature_celsius, 30 + i % 7, "fuzz");
		ww_history_append(h, "ata-X", &rec, true, 1700000000 + i * 60, NULL);
	}
	/* one drive with a record: the drive routes render it */
	empty.store = ww_store_new(0);
	{
		ww_drive_t d;
		ww_read_report_t r;

		memset(&d, 0, sizeof(d));
		memset(&r, 0, sizeof(r));
		snprintf(d.id, sizeof(d.id), "ata-X");
		snprintf(d.block, sizeof(d.block), "sda");
		d.protocol = WW_PROTO_ATA;
		snprintf(rec.model, sizeof(rec.model), "FUZZ DISK");
		full.store = ww_store_new(0);
		ww_store_sync(full.store, &d, 1, 1700000000);
		ww_store_update(full.store, "ata-X", 0, &rec, &r, 0.1, 1700000000);
	}
	svc = ww_store_endurance_new(NULL, NULL, h);
	full.endurance = empty.endurance = svc;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 1)
		return 0;
	s = ww_fuzz_str(data + 1, size - 1);
	if (data[0] % 2 == 0) {
		ww_route_reply_t r;

		if (ww_route_path_valid(s) &&
		    ww_route_render(data[0] % 4 ? &empty : &full, s, 1700100000, &r) == 0)
			ww_route_reply_free(&r);
	} else if (data[0] % 4 == 1) {
		unsigned status;
		size_t len;
		uint64_t tag;
		char type[64];

		ww_ipc_parse_header(s, &status, &len, &tag, type, sizeof(type));
	} else {
		char path[WW_ROUTE_MAX_PATH + 1];
		uint64_t tag;

		ww_ipc_parse_request(s, path, sizeof(path), &tag);
	}
	free(s);
	return 0;
}
