/* Probe-burst history (ww_history_append_probe) with a fake clock: the
 * schema migration of a database written before probe history (version 0:
 * samples only; its rows stay readable, the file gains probe_samples and
 * user_version 1), thinning of bursts into hourly and daily rows (mean
 * p50/p99, largest max, summed reads/errors), query downsampling, a burst
 * with no successful read, drive identity, the endurance service's hook, and
 * the history API's JSON for probe_latency_*_seconds.
 *
 * Expected values are computed from the synthetic bursts written here: burst
 * i at T0 + 30 min x i has p50 = 100 us (i even) or 200 us (i odd), p99 =
 * 1 ms, max = 2 ms except 7 ms when i % 48 == 5 (one spike a day), 64 reads,
 * and one error when i % 10 == 0. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>
#include <sqlite3.h>

#include "wearwatch/store.h"
#include "wearwatch/expo.h"
#include "wearwatch/history.h"
#include "ww_test.h"

#define T0 1700006400 /* a whole day: 19675 x 86400 */
#define DAY 86400

static char dir[] = "/tmp/ww_hprobe_XXXXXX";

static bool near(double got, double want)
{
	return fabs(got - want) <= 1e-12 + 1e-9 * fabs(want);
}

static ww_hprobe_t burst(long i)
{
	ww_hprobe_t p = {
		.has_latency = true,
		.p50_s = i % 2 ? 200e-6 : 100e-6,
		.p99_s = 1e-3,
		.max_s = i % 48 == 5 ? 7e-3 : 2e-3,
		.reads = 64,
		.errors = i % 10 == 0,
	};
	return p;
}

/* The samples table exactly as history.c created it before probe history
 * (commit 1a3a1b8), with one sample, and user_version 0. */
static void write_v0_db(const char *path)
{
	sqlite3 *db;

	CHECK_EQ_I64(sqlite3_open(path, &db), SQLITE_OK);
	CHECK_EQ_I64(sqlite3_exec(db,
		"PRAGMA journal_mode=WAL;"
		"CREATE TABLE samples("
		" drive TEXT NOT NULL, tier INTEGER NOT NULL, t INTEGER NOT NULL,"
		" segment INTEGER NOT NULL,"
		" host_written_bytes INTEGER, host_read_bytes INTEGER,"
		" endurance_used_percent INTEGER, temperature_celsius INTEGER,"
		" power_on_seconds INTEGER, unsafe_shutdowns INTEGER, media_errors INTEGER,"
		" available_spare_percent INTEGER, present INTEGER,"
		" PRIMARY KEY(drive, tier, t)) WITHOUT ROWID;"
		"CREATE INDEX samples_t ON samples(drive, t);"
		"INSERT INTO samples VALUES('old-drive', 0, 1700000000, 0, 123456789000, NULL,"
		" 4, 38, 3600000, 7, 0, 100, 1);", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static long sql_long(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long v = -1;

	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return v;
}

static void test_migration(void)
{
	char path[256];
	ww_history_t *h;
	ww_hpoint_t *p;
	ww_sample_t s;
	ww_hprobe_t b = burst(1);

	snprintf(path, sizeof(path), "%s/v0.db", dir);
	write_v0_db(path);
	CHECK_EQ_I64(sql_long(path, "PRAGMA user_version"), 0);
	CHECK_EQ_I64(ww_history_open(path, NULL, &h, NULL, 0), 0);
	CHECK_EQ_I64(sql_long(path, "PRAGMA user_version"), WW_HISTORY_SCHEMA_VERSION);
	/* the old sample is still there and still served */
	CHECK_EQ_I64(ww_history_latest(h, "old-drive", &s), 1);
	CHECK_EQ_U64(s.written_bytes, 123456789000ull);
	CHECK_EQ_I64(ww_history_query(h, "old-drive", WW_HM_TEMP, 1699999000, 1700001000, 10, &p), 1);
	CHECK(p && p[0].t == 1700000000 && p[0].has_value && p[0].value == 38);
	free(p);
	/* a drive with samples but no probe rows: 0 points, not unknown */
	CHECK_EQ_I64(ww_history_query(h, "old-drive", WW_HM_PROBE_P50, 1699999000, 1700001000, 10, &p), 0);
	free(p);
	CHECK_EQ_I64(ww_history_append_probe(h, "old-drive", &b, 1700000060), 0);
	ww_history_close(h);
	/* reopening an up-to-date file changes nothing */
	CHECK_EQ_I64(ww_history_open(path, NULL, &h, NULL, 0), 0);
	CHECK_EQ_I64(sql_long(path, "PRAGMA user_version"), WW_HISTORY_SCHEMA_VERSION);
	CHECK_EQ_I64(ww_history_query(h, "old-drive", WW_HM_PROBE_P50, 1699999000, 1700001000, 10, &p), 1);
	CHECK(p && p[0].t == 1700000060 && near(p[0].value, 200e-6));
	free(p);
	CHECK_EQ_I64(sql_long(path, "SELECT count(*) FROM samples"), 1);
	CHECK_EQ_I64(sql_long(path, "SELECT count(*) FROM pragma_integrity_check WHERE integrity_check='ok'"), 1);
	ww_history_close(h);
}

static void test_thinning_and_query(void)
{
	char path[256], sql[256];
	ww_history_t *h;
	ww_hpoint_t *p;
	long cnt[3], n, total_reads = 0, total_errors = 0;
	const long N = 100 * 48; /* 100 days, a burst every 30 minutes */
	ww_hprobe_t none = { .has_latency = false, .reads = 0, .errors = 64 };

	snprintf(path, sizeof(path), "%s/p.db", dir);
	CHECK_EQ_I64(ww_history_open(path, NULL, &h, NULL, 0), 0);
	for (long i = 0; i < N; i++) {
		ww_hprobe_t b = burst(i);

		total_reads += b.reads;
		total_errors += b.errors;
		CHECK_EQ_I64(ww_history_append_probe(h, "drive-p", &b, T0 + i * 1800), 0);
	}
	CHECK_EQ_I64(ww_history_maintain(h, T0 + 100 * DAY), 0);
	CHECK_EQ_I64(ww_history_count_probe(h, "drive-p", cnt), 0);
	printf("probe rows raw %ld hourly %ld daily %ld\n", cnt[0], cnt[1], cnt[2]);
	/* raw: bursts of the last 7 days (t >= T0 + 93 d): 7 x 48 = 336;
	 * hourly: days 10..93 = 83 x 24 hours; daily: days 0..9 = 10 */
	CHECK_EQ_I64(cnt[0], 7 * 48);
	CHECK_EQ_I64(cnt[1], 83 * 24);
	CHECK_EQ_I64(cnt[2], 10);
	/* nothing is lost in the sums: every burst's reads and errors are in
	 * exactly one row */
	snprintf(sql, sizeof(sql), "SELECT sum(reads) FROM probe_samples WHERE drive='drive-p'");
	CHECK_EQ_I64(sql_long(path, sql), total_reads);
	snprintf(sql, sizeof(sql), "SELECT sum(errors) FROM probe_samples WHERE drive='drive-p'");
	CHECK_EQ_I64(sql_long(path, sql), total_errors);
	/* a daily row: 48 bursts, 3072 reads, errors at i % 10 == 0 in day 0
	 * (i = 0, 10, ..., 40: 5) */
	CHECK_EQ_I64(sql_long(path, "SELECT reads FROM probe_samples WHERE tier=2 ORDER BY t LIMIT 1"), 3072);
	CHECK_EQ_I64(sql_long(path, "SELECT errors FROM probe_samples WHERE tier=2 ORDER BY t LIMIT 1"), 5);
	CHECK_EQ_I64(sql_long(path, "SELECT t FROM probe_samples WHERE tier=2 ORDER BY t LIMIT 1"), T0 + 47 * 1800);

	/* the daily tier through the API query: p50 the mean 150 us, max the
	 * day's spike 7 ms (not the mean of the maxima) */
	n = ww_history_query(h, "drive-p", WW_HM_PROBE_P50, T0, T0 + 10 * DAY - 1, 100, &p);
	CHECK_EQ_I64(n, 10);
	for (long i = 0; i < n; i++)
		CHECK(p[i].has_value && near(p[i].value, 150e-6) && p[i].segment == 0);
	free(p);
	n = ww_history_query(h, "drive-p", WW_HM_PROBE_MAX, T0, T0 + 10 * DAY - 1, 100, &p);
	CHECK_EQ_I64(n, 10);
	for (long i = 0; i < n; i++)
		CHECK(near(p[i].value, 7e-3));
	free(p);
	n = ww_history_query(h, "drive-p", WW_HM_PROBE_P99, T0, T0 + 10 * DAY - 1, 100, &p);
	CHECK_EQ_I64(n, 10);
	CHECK(n == 10 && near(p[3].value, 1e-3));
	free(p);

	/* raw tier, last day: 48 bursts -> 24 buckets of 2 (one hour each):
	 * p50 mean 150 us, max the largest of the two (7 ms in the spike's hour) */
	n = ww_history_query(h, "drive-p", WW_HM_PROBE_P50, T0 + 99 * DAY, T0 + 100 * DAY - 1, 24, &p);
	CHECK_EQ_I64(n, 24);
	for (long i = 0; i < n; i++)
		CHECK(near(p[i].value, 150e-6));
	free(p);
	n = ww_history_query(h, "drive-p", WW_HM_PROBE_MAX, T0 + 99 * DAY, T0 + 100 * DAY - 1, 24, &p);
	CHECK_EQ_I64(n, 24);
	for (long i = 0; i < n; i++)
		CHECK(near(p[i].value, i == 2 ? 7e-3 : 2e-3)); /* burst 5 of the day: hour 2 */
	free(p);
	/* without downsampling the raw values come back exactly */
	n = ww_history_query(h, "drive-p", WW_HM_PROBE_P50, T0 + 99 * DAY, T0 + 99 * DAY + 1800, 10, &p);
	CHECK_EQ_I64(n, 2);
	CHECK(n == 2 && near(p[0].value, 100e-6) && near(p[1].value, 200e-6));
	free(p);

	/* a burst where every read failed: a point without a value */
	CHECK_EQ_I64(ww_history_append_probe(h, "drive-p", &none, T0 + 100 * DAY + 60), 0);
	n = ww_history_query(h, "drive-p", WW_HM_PROBE_P99, T0 + 100 * DAY + 1, T0 + 100 * DAY + 120, 10, &p);
	CHECK_EQ_I64(n, 1);
	CHECK(n == 1 && !p[0].has_value);
	free(p);

	/* identity: another drive has no probe history, an unknown one is 404 */
	CHECK_EQ_I64(ww_history_query(h, "drive-q", WW_HM_PROBE_P50, T0, T0 + 200 * DAY, 10, &p), -ENOENT);
	CHECK_EQ_I64(ww_history_append_probe(h, NULL, &none, T0), -EINVAL);
	ww_history_close(h);
}

/* [history] retention (keep_s) drops probe bursts too */
static void test_keep(void)
{
	char path[256];
	ww_history_cfg_t cfg = { .keep_s = 30 * DAY };
	ww_history_t *h;
	long cnt[3];

	snprintf(path, sizeof(path), "%s/k.db", dir);
	CHECK_EQ_I64(ww_history_open(path, &cfg, &h, NULL, 0), 0);
	for (long i = 0; i < 60; i++) {
		ww_hprobe_t b = burst(i);

		CHECK_EQ_I64(ww_history_append_probe(h, "drive-k", &b, T0 + i * DAY), 0);
	}
	CHECK_EQ_I64(ww_history_maintain(h, T0 + 60 * DAY), 0);
	CHECK_EQ_I64(ww_history_count_probe(h, "drive-k", cnt), 0);
	/* bursts at days 30..59 stay (t >= now - 30 d) */
	CHECK_EQ_I64(cnt[0] + cnt[1] + cnt[2], 30);
	ww_history_close(h);
}

/* The service hook and GET .../history?metric=probe_latency_p99_seconds. */
static void test_service_and_api(void)
{
	char path[256];
	ww_history_t *h;
	ww_store_endurance_t *svc;
	ww_hprobe_t b = burst(3);
	unsigned status = 0;
	char *body;
	json_object *o, *pts, *pt;

	snprintf(path, sizeof(path), "%s/s.db", dir);
	CHECK_EQ_I64(ww_history_open(path, NULL, &h, NULL, 0), 0);
	svc = ww_store_endurance_new(NULL, NULL, h);
	CHECK(svc != NULL);
	if (!svc)
		return;
	ww_store_endurance_probe_burst(svc, "nvme-X", &b, T0 + 100);
	b = burst(5);
	ww_store_endurance_probe_burst(svc, "nvme-X", &b, T0 + 160);

	body = ww_json_render_history(&(ww_render_ctx_t){ .endurance = svc, .now = T0 + 200 },
				      "nvme-X", "probe_latency_max_seconds", "1700006400",
				      "1700006600", NULL, &status);
	CHECK_EQ_I64(status, 200);
	o = body ? json_tokener_parse(body) : NULL;
	CHECK(o != NULL);
	if (o) {
		CHECK_STR(json_object_get_string(json_object_object_get(o, "metric")),
			  "probe_latency_max_seconds");
		CHECK_STR(json_object_get_string(json_object_object_get(o, "unit")), "seconds");
		pts = json_object_object_get(o, "points");
		CHECK_EQ_I64(json_object_array_length(pts), 2);
		pt = json_object_array_get_idx(pts, 1);
		CHECK_EQ_I64(json_object_get_int64(json_object_array_get_idx(pt, 0)), T0 + 160);
		CHECK(near(json_object_get_double(json_object_array_get_idx(pt, 1)), 7e-3));
		json_object_put(o);
	}
	free(body);
	body = ww_json_render_history(&(ww_render_ctx_t){ .endurance = svc, .now = T0 + 200 },
				      "nvme-X", "probe_latency_p50_seconds", "1700006400",
				      "1700006600", NULL, &status);
	CHECK_EQ_I64(status, 200);
	CHECK(body && strstr(body, "[1700006500,0.0002,0]"));
	free(body);
	body = ww_json_render_history(&(ww_render_ctx_t){ .endurance = svc, .now = T0 + 200 },
				      "nvme-X", "probe_latency_p75_seconds", NULL, NULL, NULL,
				      &status);
	CHECK_EQ_I64(status, 400);
	free(body);
	/* times outside years 1-9999 are refused, not wrapped (to - 7 days and
	 * the buckets' to - from overflowed time_t) */
	body = ww_json_render_history(&(ww_render_ctx_t){ .endurance = svc, .now = T0 + 200 },
				      "nvme-X", "present", NULL, "-9223372036854775808", NULL,
				      &status);
	CHECK_EQ_I64(status, 400);
	CHECK(body && strstr(body, "bad to"));
	free(body);
	body = ww_json_render_history(&(ww_render_ctx_t){ .endurance = svc, .now = T0 + 200 },
				      "nvme-X", "present", "-9223372036854775808", NULL, "1",
				      &status);
	CHECK_EQ_I64(status, 400);
	CHECK(body && strstr(body, "bad from"));
	free(body);
	body = ww_json_render_history(&(ww_render_ctx_t){ .endurance = svc, .now = T0 + 200 },
				      "nvme-X", "probe_latency_max_seconds", "2023-11-14T22:13:20Z",
				      "2023-11-15T00:13:20+02:00", NULL, &status);
	CHECK_EQ_I64(status, 200);
	free(body);
	ww_store_endurance_free(svc); /* closes h, clears the global */
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_migration();
	test_thinning_and_query();
	test_keep();
	test_service_and_api();
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			printf("could not remove %s\n", dir);
	}
	return ww_test_done("test_history_probe");
}
