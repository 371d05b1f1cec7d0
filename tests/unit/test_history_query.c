/* History queries bounded in points and time (src/history/query.c), on the
 * database size that stalled the service: 600 000 raw samples of one drive
 * (one per second over ~7 days; a query took 1.0-1.5 s and held the lock
 * every write needed). The rows are inserted with SQL into the service's own
 * schema (ww_history_open creates it), values a function of the time so
 * each expected point is computed here: host_written_bytes = 1000 x i,
 * temperature = 30 + i % 10 at t = T0 + i.
 *
 * Checks: a bucketed query returns max_points points whose values are each
 * bucket's last sample (counter) and mean (gauge); the rows come from the
 * coarsest tier no coarser than a bucket (hourly rows, written over the same
 * days with values of their own, answer a 7-day query in 100 points; raw rows
 * a 1-day query in 10000); max_points above WW_HISTORY_MAX_POINTS is -EINVAL;
 * a budget of 1 ms ends the query with -ETIME; the 7-day query in 100 points
 * reads no raw row (it takes about what the 150 hourly rows cost); and
 * queries of a small drive beside the big one, and its latest/baseline
 * lookups, take milliseconds (each uses an index: a scan of 600 000 rows
 * takes tens of ms). */
#include <sqlite3.h>
#include <time.h>
#include <unistd.h>

#include "wearwatch/history.h"
#include "ww_test.h"

#define T0 1700000000LL
#define N 600000

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void seed(const char *path)
{
	sqlite3 *db;
	char sql[1024];

	CHECK_EQ_I64(sqlite3_open(path, &db), SQLITE_OK);
	snprintf(sql, sizeof(sql),
		 "BEGIN; WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c"
		 " WHERE i < %d) INSERT INTO samples(drive, tier, t, segment,"
		 " host_written_bytes, temperature_celsius, present)"
		 " SELECT 'ata-BIG', 0, %lld + i, 0, 1000 * i, 30 + i %% 10, 1 FROM c;"
		 /* hourly rows over the first 150 hours, values marked: 7 x 10^12 +
		  * hour */
		 "WITH RECURSIVE h(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM h WHERE k < 149)"
		 " INSERT INTO samples(drive, tier, t, segment, host_written_bytes,"
		 " temperature_celsius, present) SELECT 'ata-BIG', 1, %lld + 3600 * k + 3599, 0,"
		 " 7000000000000 + k, 50, 1 FROM h; COMMIT;", N - 1, T0, T0);
	CHECK_EQ_I64(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void test_bucketed(ww_history_t *h)
{
	ww_hpoint_t *p = NULL;
	long n;
	double t;

	/* one day of raw rows in 1000 buckets of 86.4 s: tier 0 (a bucket is
	 * finer than an hour) */
	t = now_ms();
	n = ww_history_query(h, "ata-BIG", WW_HM_WRITTEN, T0, T0 + 86399, 1000, &p);
	printf("1 day in 1000 points: %ld points, %.1f ms\n", n, now_ms() - t);
	CHECK_EQ_I64(n, 1000);
	if (n == 1000) {
		/* bucket k is [86.4 k, 86.4 (k + 1)); its last second is
		 * floor(86.4 (k + 1) - 1e-9) */
		CHECK_EQ_I64(p[0].t, T0 + 86);
		CHECK_EQ_U64((uint64_t)p[0].value, 86000);
		CHECK_EQ_I64(p[999].t, T0 + 86399);
		CHECK_EQ_U64((uint64_t)p[999].value, 86399000);
	}
	free(p);
	/* gauges: the mean of the bucket; 10 buckets of 10 s = one 0..9 cycle */
	n = ww_history_query(h, "ata-BIG", WW_HM_TEMP, T0 + 100, T0 + 199, 10, &p);
	CHECK_EQ_I64(n, 10);
	if (n == 10)
		CHECK(p[3].value == 34.5 && p[3].t == T0 + 139);
	free(p);
	/* under max_points: every row as stored */
	n = ww_history_query(h, "ata-BIG", WW_HM_TEMP, T0 + 100, T0 + 199, 100, &p);
	CHECK_EQ_I64(n, 100);
	if (n == 100)
		CHECK(p[7].value == 37 && p[7].t == T0 + 107);
	free(p);
}

static void test_tiers(ww_history_t *h)
{
	ww_hpoint_t *p = NULL;
	long n;
	double t;

	/* 7 days in 100 points (buckets of 6048 s): the hourly rows answer,
	 * marked values 7 x 10^12 + hour, and no raw row is read */
	t = now_ms();
	n = ww_history_query(h, "ata-BIG", WW_HM_WRITTEN, T0, T0 + 7 * 86400 - 1, 100, &p);
	printf("7 days in 100 points (hourly tier): %ld points, %.1f ms\n", n, now_ms() - t);
	CHECK_EQ_I64(n, 100);
	if (n == 100) {
		CHECK(p[0].value >= 7e12 && p[0].value < 7e12 + 200);
		CHECK(p[50].value >= 7e12 && p[50].value < 7e12 + 200);
	}
	free(p);
	/* after the last hourly row (hour 149 ends at T0 + 539999) the raw
	 * rows fill in: the last point is the last raw sample */
	n = ww_history_query(h, "ata-BIG", WW_HM_WRITTEN, T0, T0 + N - 1, 100, &p);
	CHECK_EQ_I64(n, 100);
	if (n == 100)
		CHECK_EQ_U64((uint64_t)p[99].value, 1000ull * (N - 1));
	free(p);
	/* all 600 000 raw rows in 10 000 points (60 s buckets: raw tier) */
	t = now_ms();
	n = ww_history_query(h, "ata-BIG", WW_HM_WRITTEN, T0, T0 + N - 1, 10000, &p);
	printf("600000 raw rows in 10000 points: %ld points, %.1f ms\n", n, now_ms() - t);
	CHECK_EQ_I64(n, 10000);
	CHECK(now_ms() - t < WW_HISTORY_QUERY_BUDGET_MS);
	free(p);
	CHECK_EQ_I64(ww_history_query(h, "ata-BIG", WW_HM_WRITTEN, T0, T0 + N, 10001, &p), -EINVAL);
}

/* a drive with a few rows beside the big one: index lookups, not scans */
static void test_indexed(ww_history_t *h)
{
	static ww_health_t rec;
	ww_hpoint_t *p = NULL;
	ww_sample_t s;
	long counts[3];
	double t;

	WW_SET(rec.host_written_bytes, 5, "test");
	for (int i = 0; i < 10; i++)
		CHECK_EQ_I64(ww_history_append(h, "ata-SMALL", &rec, true, T0 + 60 * i, NULL), 0);
	t = now_ms();
	for (int i = 0; i < 20; i++) {
		CHECK_EQ_I64(ww_history_query(h, "ata-SMALL", WW_HM_WRITTEN, T0, T0 + N, 500, &p), 10);
		free(p);
		CHECK_EQ_I64(ww_history_query(h, "ata-SMALL", WW_HM_PROBE_P50, T0, T0 + N, 500, &p), 0);
		free(p);
		CHECK_EQ_I64(ww_history_latest(h, "ata-SMALL", &s), 1);
		CHECK_EQ_I64(ww_history_baseline(h, "ata-SMALL", 0, T0, &s), 1);
		CHECK_EQ_I64(ww_history_count(h, "ata-SMALL", counts), 0);
	}
	t = (now_ms() - t) / 20;
	printf("small drive beside 600000 rows: query x2 + latest + baseline + count %.2f ms\n", t);
	CHECK(t < 20);
}

int main(void)
{
	char dir[] = "/tmp/ww-hquery-XXXXXX", path[128], cmd[160];
	ww_history_cfg_t cfg = { 0 };
	ww_history_t *h = NULL;
	ww_hpoint_t *p = NULL;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/history.db", dir);
	CHECK_EQ_I64(ww_history_open(path, NULL, &h, NULL, 0), 0);
	ww_history_close(h); /* the schema is the service's */
	seed(path);
	CHECK_EQ_I64(ww_history_open(path, NULL, &h, NULL, 0), 0);
	test_bucketed(h);
	test_tiers(h);
	test_indexed(h);
	ww_history_close(h);
	/* a budget of 1 ms: the 600 000-row query stops with -ETIME */
	cfg.query_budget_ms = 1;
	CHECK_EQ_I64(ww_history_open(path, &cfg, &h, NULL, 0), 0);
	CHECK_EQ_I64(ww_history_query(h, "ata-BIG", WW_HM_TEMP, T0, T0 + N - 1, 10000, &p), -ETIME);
	CHECK(p == NULL);
	ww_history_close(h);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
	return ww_test_done("test_history_query");
}
