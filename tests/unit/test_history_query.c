/* History queries bounded in points and time (src/history/query.c), on the
 * database size that stalled the service: ~7 days of one drive, one sample a
 * second (a query took 1.0-1.5 s and held the lock every write needed). The
 * rows are inserted with SQL into the service's own schema (ww_history_open
 * creates it), as thinning leaves them: the first 100 hours one row an hour
 * (tier 1, values marked 7 x 10^12 + hour), then raw rows to T0 + 599 999
 * with values a function of the time, so each expected point is computed
 * here: host_written_bytes = 1000 x i, temperature = 30 + i % 10 at
 * t = T0 + i.
 *
 * Checks: a bucketed query returns max_points points whose values are each
 * bucket's last sample (counter) and mean (gauge), read by index searches
 * whose number does not grow with the rows in the range; an old range is answered
 * by its hourly rows; max_points above WW_HISTORY_MAX_POINTS is -EINVAL; a
 * budget of 1 ms ends the query with -ETIME; a small drive beside the big
 * one gets its own rows (its query plans: test_history_cost). */
#include <sqlite3.h>
#include <time.h>
#include <unistd.h>

#include "wearwatch/history.h"
#include "ww_test.h"

#define T0 1700000000LL
#define N 600000
#define RAW0 360000 /* the first raw row's i */

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
		 " SELECT 'ata-BIG', 0, %lld + i, 0, 1000 * i, 30 + i %% 10, 1 FROM c"
		 " WHERE i >= %d;"
		 /* the hourly rows of the first 100 hours, values marked */
		 "WITH RECURSIVE h(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM h WHERE k < 99)"
		 " INSERT INTO samples(drive, tier, t, segment, host_written_bytes,"
		 " temperature_celsius, present) SELECT 'ata-BIG', 1, %lld + 3600 * k + 3599, 0,"
		 " 7000000000000 + k, 50, 1 FROM h; COMMIT;", N - 1, T0, RAW0, T0);
	CHECK_EQ_I64(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void test_bucketed(ww_history_t *h)
{
	ww_hpoint_t *p = NULL;
	long n;
	double t;

	const long long d0 = T0 + RAW0; /* a day of raw rows from here */

	/* one day of raw rows in 1000 buckets of 86.4 s */
	t = now_ms();
	n = ww_history_query(h, "ata-BIG", WW_HM_WRITTEN, d0, d0 + 86399, 1000, &p);
	printf("1 day in 1000 points: %ld points, %.1f ms\n", n, now_ms() - t);
	CHECK_EQ_I64(n, 1000);
	if (n == 1000) {
		/* bucket k is [86.4 k, 86.4 (k + 1)); its last second is
		 * floor(86.4 (k + 1) - 1e-9) */
		CHECK_EQ_I64(p[0].t, d0 + 86);
		CHECK_EQ_U64((uint64_t)p[0].value, 1000ull * (RAW0 + 86));
		CHECK_EQ_I64(p[999].t, d0 + 86399);
		CHECK_EQ_U64((uint64_t)p[999].value, 1000ull * (RAW0 + 86399));
	}
	free(p);
	/* gauges: the mean of the bucket; 10 buckets of 10 s = one 0..9 cycle
	 * (RAW0 is a multiple of 10) */
	n = ww_history_query(h, "ata-BIG", WW_HM_TEMP, d0 + 100, d0 + 199, 10, &p);
	CHECK_EQ_I64(n, 10);
	if (n == 10)
		CHECK(p[3].value == 34.5 && p[3].t == d0 + 139);
	free(p);
	/* under max_points: every row as stored */
	n = ww_history_query(h, "ata-BIG", WW_HM_TEMP, d0 + 100, d0 + 199, 100, &p);
	CHECK_EQ_I64(n, 100);
	if (n == 100)
		CHECK(p[7].value == 37 && p[7].t == d0 + 107);
	free(p);
}

/* A bucketed query reads by index searches, a number bounded by max_points
 * and not by the rows in its range: one day and two days of one-second
 * rows (86 400 and 172 800) in 100 points cost the same searches, far
 * fewer than rows (a GROUP BY over every row ran past the time budget on a
 * week of them: 503 for every chart). */
static void test_seeks(ww_history_t *h)
{
	const long long d0 = T0 + RAW0;
	uint64_t s[3];
	ww_hpoint_t *p = NULL;

	for (int k = 0; k < 2; k++) {
		uint64_t before = ww_history_query_seeks(h);
		long n = ww_history_query(h, "ata-BIG", WW_HM_TEMP, d0, d0 + (k + 1) * 86400 - 1,
					  100, &p);

		CHECK_EQ_I64(n, 100);
		s[k] = ww_history_query_seeks(h) - before;
		/* bucket 50 of the first day is [d0 + 43200, d0 + 44064): 32
		 * slots of 27 s (history.h), each read at its first row,
		 * temperature 30 + t % 10 */
		if (n == 100 && k == 0) {
			double mean = 0;

			for (int j = 0; j < 32; j++)
				mean += (30 + (43200 + 27 * j) % 10) / 32.0;
			printf("bucket 50: %.4f, its slots' mean %.4f\n", p[50].value, mean);
			CHECK(p[50].value == mean && p[50].t == d0 + 44063);
		}
		free(p);
	}
	s[2] = ww_history_query_seeks(h);
	CHECK_EQ_I64(ww_history_query(h, "ata-BIG", WW_HM_WRITTEN, d0, d0 + 2 * 86400 - 1, 100, &p),
		     100);
	if (p)
		CHECK_EQ_U64((uint64_t)p[99].value, 1000ull * (RAW0 + 2 * 86400 - 1));
	free(p);
	s[2] = ww_history_query_seeks(h) - s[2];
	printf("searches of 100 points: 86400 rows %llu, 172800 rows %llu, a counter %llu\n",
	       (unsigned long long)s[0], (unsigned long long)s[1], (unsigned long long)s[2]);
	CHECK(s[0] == s[1]);
	CHECK(s[1] > 0 && s[1] <= 100 * 34);
	CHECK_EQ_U64(s[2], 100); /* a counter: the last row of each bucket */
}

static void test_tiers(ww_history_t *h)
{
	ww_hpoint_t *p = NULL;
	long n;
	double t;

	/* 7 days in 100 points (buckets of 6048 s): the old part is answered
	 * by the hourly rows, marked values 7 x 10^12 + hour */
	t = now_ms();
	n = ww_history_query(h, "ata-BIG", WW_HM_WRITTEN, T0, T0 + 7 * 86400 - 1, 100, &p);
	printf("7 days in 100 points (hourly tier): %ld points, %.1f ms\n", n, now_ms() - t);
	CHECK_EQ_I64(n, 100);
	if (n == 100) {
		CHECK(p[0].value >= 7e12 && p[0].value < 7e12 + 200);
		CHECK(p[50].value >= 7e12 && p[50].value < 7e12 + 200);
	}
	free(p);
	/* after the last hourly row (hour 99 ends at T0 + 359999) the raw
	 * rows fill in: the last point is the last raw sample */
	n = ww_history_query(h, "ata-BIG", WW_HM_WRITTEN, T0, T0 + N - 1, 100, &p);
	CHECK_EQ_I64(n, 100);
	if (n == 100)
		CHECK_EQ_U64((uint64_t)p[99].value, 1000ull * (N - 1));
	free(p);
	/* the whole range in 10 000 buckets of 60.0001 s: one point per hourly
	 * row (100), and per bucket of the raw part: buckets
	 * floor(i * 10000 / 600001) for i in [360000, 599999] are 5999 to
	 * 9999, and 5999 also holds hour 99's row (i = 359999): 100 + 4001 - 1
	 * points, within the time budget (no -ETIME) */
	t = now_ms();
	n = ww_history_query(h, "ata-BIG", WW_HM_WRITTEN, T0, T0 + N, 10000, &p);
	printf("%d rows in 10000 buckets: %ld points, %.1f ms\n", N - RAW0 + 100, n,
	       now_ms() - t);
	CHECK_EQ_I64(n, 4100);
	if (n == 4100)
		CHECK_EQ_U64((uint64_t)p[4099].value, 1000ull * (N - 1));
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

	WW_SET(rec.host_written_bytes, 5, "test");
	for (int i = 0; i < 10; i++)
		CHECK_EQ_I64(ww_history_append(h, "ata-SMALL", &rec, true, T0 + 60 * i, NULL), 0);
	for (int i = 0; i < 20; i++) {
		CHECK_EQ_I64(ww_history_query(h, "ata-SMALL", WW_HM_WRITTEN, T0, T0 + N, 500, &p), 10);
		free(p);
		CHECK_EQ_I64(ww_history_query(h, "ata-SMALL", WW_HM_PROBE_P50, T0, T0 + N, 500, &p), 0);
		free(p);
		CHECK_EQ_I64(ww_history_latest(h, "ata-SMALL", &s), 1);
		CHECK_EQ_I64(ww_history_baseline(h, "ata-SMALL", 0, T0, &s), 1);
		CHECK_EQ_I64(ww_history_count(h, "ata-SMALL", counts), 0);
	}
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
	test_seeks(h);
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
