/* libFuzzer harness: capture files (docs/capture-format.md), the files users
 * attach to bug reports, through what `wearwatch decode FILE` and `serve
 * --replay` run: the facts (collect/replay_drive.c), the command blocks
 * (transport/replay.c) and every reader and decoder the replayed answers
 * reach. Seeds: tests/fixtures/captures and tests/fuzz/regress/capture-*. */
#include <string.h>

#include "wearwatch/collect.h"
#include "wearwatch/transport.h"
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ww_health_t h;
	const char *path = ww_fuzz_file(data, size);
	ww_read_report_t r;
	ww_xport_t x;
	ww_drive_t d;
	int line = 0;

	ww_replay_load_drive(path, &d);
	if (ww_xport_open_replay(path, &x, &line) == 0) {
		uint8_t cdb[6] = { 0x12, 0, 0, 0, 96, 0 }, buf[96];
		ww_cmd_status_t st;

		x.ops->scsi_in(&x, cdb, sizeof(cdb), buf, sizeof(buf), 1, &st);
		ww_xport_close(&x);
	}
	ww_replay_collect(path, NULL, &h, &r);
	return 0;
}
