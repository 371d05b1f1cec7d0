/* /metrics render time for a fleet of replayed drives (tests/unit/ww_fleet.h):
 * every VM capture copied round-robin to N drives, with endurance results
 * (history in a temporary directory), probe summaries, every 7th drive read
 * "through smartctl" and the last 5 missing, so every family has values.
 * Renders the snapshot ITERS times and prints the time per render.
 *
 *   build/bench_metrics [-n DRIVES] [-i ITERS] [-o FILE] [-s SOURCE_DIR]
 *
 * -o writes one render to FILE (to compare two builds byte for byte).
 * Defaults: 256 drives, 200 renders, source dir $WW_SOURCE_DIR or ".". */
#include <getopt.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "wearwatch/expo.h"
#include "wearwatch/history.h"
#include "../unit/ww_fleet.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int write_file(const char *path, const char *txt, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(txt, 1, len, f) != len) {
		perror(path);
		if (f)
			fclose(f);
		return -1;
	}
	return fclose(f);
}

int main(int argc, char **argv)
{
	ww_fleet_opts_t o = { .n = 256, .probe = true, .smartctl_every = 7, .missing = 5 };
	const char *out = NULL;
	char dir[] = "/tmp/ww-bench-metrics-XXXXXX", db[64];
	unsigned iters = 200;
	double best = 1e9, total = 0;
	ww_history_t *hist = NULL;
	ww_store_t *s;
	ww_snapshot_t *snap;
	size_t len = 0;
	int c;

	o.src_dir = getenv("WW_SOURCE_DIR") ? getenv("WW_SOURCE_DIR") : ".";
	while ((c = getopt(argc, argv, "n:i:o:s:")) != -1) {
		switch (c) {
		case 'n': o.n = strtoul(optarg, NULL, 10); break;
		case 'i': iters = (unsigned)strtoul(optarg, NULL, 10); break;
		case 'o': out = optarg; break;
		case 's': o.src_dir = optarg; break;
		default:
			fprintf(stderr, "usage: %s [-n DRIVES] [-i ITERS] [-o FILE] [-s SOURCE_DIR]\n",
				argv[0]);
			return 2;
		}
	}
	if (o.missing > o.n)
		o.missing = 0;
	if (!mkdtemp(dir))
		return 1;
	snprintf(db, sizeof(db), "%s/history.db", dir);
	if (ww_history_open(db, NULL, &hist, NULL, 0) < 0)
		return 1;
	o.svc = ww_fleet_endurance(hist);
	s = ww_store_new(0);
	if (!o.svc || !s || ww_fleet_build(s, &o) < 0)
		return 1;
	snap = ww_store_acquire(s);
	for (unsigned i = 0; i < iters; i++) {
		double t0 = now_s(), dt;
		char *txt = ww_metrics_render(&(ww_render_ctx_t){ .snap = snap,
								  .endurance = o.svc,
								  .now = WW_FLEET_T0 + 60 },
					      &len);

		dt = now_s() - t0;
		if (!txt)
			return 1;
		total += dt;
		best = dt < best ? dt : best;
		if (out && i == 0 && write_file(out, txt, len) < 0)
			return 1;
		free(txt);
	}
	printf("drives %zu, %zu bytes, %u renders: mean %.3f ms, best %.3f ms\n", snap->n, len,
	       iters, iters ? total * 1e3 / iters : 0, best * 1e3);
	ww_snapshot_release(snap);
	ww_store_free(s);
	ww_store_endurance_free(o.svc);
	unlink(db);
	snprintf(db, sizeof(db), "%s/history.db-wal", dir);
	unlink(db);
	snprintf(db, sizeof(db), "%s/history.db-shm", dir);
	unlink(db);
	rmdir(dir);
	return 0;
}
