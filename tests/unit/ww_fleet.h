/* A fleet of replayed drives for exposition tests and the /metrics benchmark
 * (tests/bench/bench_metrics.c).
 *
 * Each drive is one of the VM captures in tests/fixtures/captures (QEMU nvme,
 * scsi_debug SAS, AHCI SATA, the SATA disk runtime-suspended; see the README
 * there) read once through the replay transport and the real readers and
 * decoders, then copied n times with the id made unique ("<id>-fleet<i>", as
 * scripts/bench-fleet.sh does). Optionally: endurance results published by
 * the endurance service the way the poller does (ww_store_endurance_after_collect,
 * rating overrides for the QEMU models so every rated family has a value),
 * probe summaries, drives marked as read through smartctl, and drives that
 * disappeared. Everything at fixed times from WW_FLEET_T0. */
#ifndef WW_FLEET_H
#define WW_FLEET_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/collect.h"
#include "wearwatch/probe.h"
#include "wearwatch/store.h"

#define WW_FLEET_T0 ((time_t)1700000000)

typedef struct ww_fleet_opts {
	const char *src_dir;        /* source tree (tests/fixtures/captures under it) */
	const char *const *kinds;   /* capture folders, NULL-terminated; NULL = all */
	size_t n;                   /* drives, kinds cycled */
	ww_store_endurance_t *svc;  /* publish endurance results into it (or NULL) */
	bool probe;                 /* a probe summary on every drive */
	size_t smartctl_every;      /* every k-th drive read "through smartctl" (0 = none) */
	size_t missing;             /* the last `missing` drives disappear */
} ww_fleet_opts_t;

struct ww_fleet_kind {
	ww_drive_t d;
	ww_health_t h;
	ww_read_report_t r;
	int rc;
};

/* the one *.capture file of src/tests/fixtures/captures/<kind>/ into path */
static inline int ww_fleet_capture_path(const char *src, const char *kind, char *path, size_t len)
{
	char dir[4096];
	struct dirent *e;
	DIR *dp;
	int rc = -1;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/captures/%s", src, kind);
	dp = opendir(dir);
	if (!dp)
		return -1;
	while ((e = readdir(dp)))
		if (strstr(e->d_name, ".capture")) {
			snprintf(path, len, "%s/%s", dir, e->d_name);
			rc = 0;
			break;
		}
	closedir(dp);
	return rc;
}

static inline int ww_fleet_read_kind(const char *src, const char *kind, struct ww_fleet_kind *k)
{
	char path[4400];

	memset(k, 0, sizeof(*k));
	if (ww_fleet_capture_path(src, kind, path, sizeof(path)) < 0 ||
	    ww_replay_load_drive(path, &k->d) < 0) {
		fprintf(stderr, "fleet: no capture in %s/tests/fixtures/captures/%s\n", src, kind);
		return -1;
	}
	k->rc = ww_replay_collect(path, &k->d, &k->h, &k->r);
	return k->rc < 0 ? -1 : 0;
}

/* 1000 reads (500 x 50 us, 400 x 150 us, 100 x 3 ms) and 2 failures, as
 * tests/unit/test_probe_expo.c, plus a finished burst */
static inline void ww_fleet_probe_summary(ww_probe_summary_t *sum)
{
	ww_probe_stats_t ps;

	memset(sum, 0, sizeof(*sum));
	if (ww_probe_stats_init(&ps, 1000) < 0)
		return;
	for (int i = 0; i < 1000; i++)
		ww_probe_stats_add(&ps, true, i < 500 ? 50000 : i < 900 ? 150000 : 3000000);
	ww_probe_stats_add(&ps, false, 0);
	ww_probe_stats_add(&ps, false, 0);
	ww_probe_stats_summary(&ps, sum);
	ww_probe_stats_free(&ps);
	sum->has_last = true;
	sum->last_time = WW_FLEET_T0 + 20;
	sum->last_reads = 64;
	sum->last_max_s = 0.003;
	sum->block_bytes = 4096;
	sum->queue_depth = 1;
}

/* Fill store s with the fleet. Returns 0, or -1 when a capture is missing or
 * a store call failed. */
static inline int ww_fleet_build(ww_store_t *s, const ww_fleet_opts_t *o)
{
	static const char *const all[] = { "nvme", "sas", "sata", "sata-suspended", NULL };
	const char *const *kinds = o->kinds ? o->kinds : all;
	struct ww_fleet_kind *k;
	ww_drive_t *d;
	ww_probe_summary_t sum;
	size_t nk = 0;
	int rc = 0;

	while (kinds[nk])
		nk++;
	k = calloc(nk, sizeof(*k));
	d = calloc(o->n ? o->n : 1, sizeof(*d));
	if (!k || !d)
		rc = -1;
	for (size_t i = 0; !rc && i < nk; i++)
		rc = ww_fleet_read_kind(o->src_dir, kinds[i], &k[i]);
	for (size_t i = 0; !rc && i < o->n; i++) {
		d[i] = k[i % nk].d;
		snprintf(d[i].id, sizeof(d[i].id), "%.120s-fleet%zu", k[i % nk].d.id, i);
		if (o->smartctl_every && i % o->smartctl_every == 0)
			snprintf(d[i].smartctl_type, sizeof(d[i].smartctl_type), "megaraid,%zu", i);
	}
	if (!rc)
		rc = ww_store_sync(s, d, o->n, WW_FLEET_T0);
	ww_fleet_probe_summary(&sum);
	for (size_t i = 0; !rc && i < o->n; i++) {
		const struct ww_fleet_kind *ki = &k[i % nk];

		rc = ww_store_update(s, d[i].id, ki->rc, ki->rc ? NULL : &ki->h,
				     ki->rc ? NULL : &ki->r, 0.25, WW_FLEET_T0 + 10);
		if (!rc && o->probe)
			rc = ww_store_set_probe(s, d[i].id, &sum, WW_FLEET_T0 + 20);
	}
	for (size_t i = 0; !rc && o->svc && i < o->n; i++)
		ww_store_endurance_after_collect(o->svc, NULL, s, &d[i], k[i % nk].rc,
						 WW_FLEET_T0 + 10);
	if (!rc && o->missing)
		rc = ww_store_sync(s, d, o->n - o->missing, WW_FLEET_T0 + 50);
	free(k);
	free(d);
	return rc ? -1 : 0;
}

/* An endurance service without history whose rating overrides cover the QEMU
 * models of the captures (so the rated families have values), for the
 * tests' render contexts. NULL on failure. */
static inline ww_store_endurance_t *ww_fleet_endurance(ww_history_t *hist)
{
	static const char *const ov[] = { "QEMU NVMe Ctrl=1:5", "WWSATA_DISK=0.3:3",
					  "scsi_debug=10:5:68157440" };
	ww_ratings_t o = { 0 };
	ww_store_endurance_t *svc;
	char err[256];

	for (size_t i = 0; i < sizeof(ov) / sizeof(ov[0]); i++)
		if (ww_rating_override_parse(&o, ov[i], err, sizeof(err)) < 0) {
			fprintf(stderr, "fleet: override %s: %s\n", ov[i], err);
			ww_ratings_free(&o);
			return NULL;
		}
	svc = ww_store_endurance_new(NULL, &o, hist);
	return svc;
}

#endif
