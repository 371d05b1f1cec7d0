/* Series per drive of /metrics in both profiles (docs/metrics.md,
 * Profiles), for smartctl JSON files (`smartctl -j` of one drive, as the
 * smartctl backend reads it): each file parsed into the record, one drive
 * in a store, rendered full and fleet; the series with that drive's label
 * counted. Without endurance results or probes (the endurance families are
 * about 10 series more in both, a probe histogram 29 in both, its summary 7
 * in the full profile only). Not a test: the figures of docs/metrics.md.
 *
 *   build/bench_series FILE.json...
 *
 * Prints one line per file: protocol, full, fleet, file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/collect.h"
#include "wearwatch/expo.h"
#include "wearwatch/store.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *b = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (b = malloc((size_t)n + 1)) && fread(b, 1, (size_t)n, f) == (size_t)n) {
		b[n] = 0;
		*len = (size_t)n;
	} else {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

static size_t count(const char *txt)
{
	size_t n = 0;

	for (const char *p = txt; (p = strstr(p, "{drive=\"bench\"")); p++)
		n++;
	return n;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		size_t len = 0, n[2] = { 0, 0 };
		char *json = slurp(argv[i], &len);
		ww_health_t *h = calloc(1, sizeof(*h));
		ww_store_t *s = ww_store_new(0);
		ww_drive_t d;

		if (!json || !h || !s || ww_smartctl_parse(json, len, h, NULL) < 0) {
			fprintf(stderr, "%s: not read\n", argv[i]);
			goto next;
		}
		memset(&d, 0, sizeof(d));
		snprintf(d.id, sizeof(d.id), "bench");
		snprintf(d.block, sizeof(d.block), "sda");
		d.protocol = h->protocol;
		ww_store_sync(s, &d, 1, 1700000000);
		ww_store_update(s, d.id, 0, h, NULL, 0.1, 1700000010);
		for (int fleet = 0; fleet < 2; fleet++) {
			ww_snapshot_t *snap = ww_store_acquire(s);
			size_t l = 0;
			char *txt = ww_metrics_render(&(ww_render_ctx_t){ .snap = snap,
									  .now = 1700000100,
									  .fleet_profile = fleet },
						      &l);

			n[fleet] = txt ? count(txt) : 0;
			free(txt);
			ww_snapshot_release(snap);
		}
		printf("%s\t%zu\t%zu\t%s\n", ww_protocol_name(h->protocol), n[0], n[1], argv[i]);
	next:
		free(json);
		free(h);
		ww_store_free(s);
	}
	return 0;
}
