/* What a collection costs, counted rather than timed: with a fake clock and
 * the service's own hook (ww_store_endurance_after_collect), over two days of
 * collections at the default 60 s poll:
 *  - no collection publishes the store's snapshot (a publication copies
 *    every drive's state: ww_store_publications);
 *  - the check for another writer (PRAGMA data_version, a read transaction
 *    with its locking calls) runs only after the write-ahead log changed:
 *    at each commit and at the round after it, not once per round of
 *    collections (it was once per collection, then once per round), and
 *    a commit of another connection is looked at by the next round;
 *  - no SQL statement is compiled after the first day (every call to
 *    sqlite3_prepare_v2/v3 and sqlite3_exec is counted through the linker's
 *    --wrap, CMakeLists.txt), although the second day writes, thins and
 *    looks up window baselines again;
 *  - samples are committed together: another connection sees the file
 *    change once per WW_HISTORY_COMMIT_S, not once per collection, and an
 *    API history query reads the pending ones without committing them;
 *  - the query plan of every statement a collection (or the thinning it
 *    starts) runs searches an index and scans no table, and no history
 *    query of the API sorts its rows (EXPLAIN QUERY PLAN on the file the
 *    run left);
 *  - the window baselines kept in memory are what the database answers
 *    (ww_history_baseline), across thinning and a counter reset. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "wearwatch/store.h"
#include "wearwatch/history.h"
#include "ww_test.h"

#define T0 1700006400
#define DAY 86400
#define NDRIVES 4

static unsigned long compiled; /* statements compiled through SQLite's API */
static unsigned long versions; /* steps of PRAGMA data_version */

int __real_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st,
			      const char **tail);
int __real_sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n, unsigned flags,
			      sqlite3_stmt **st, const char **tail);
int __real_sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **),
			void *arg, char **err);

int __wrap_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **st,
			      const char **tail)
{
	compiled++;
	return __real_sqlite3_prepare_v2(db, sql, n, st, tail);
}

int __wrap_sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n, unsigned flags,
			      sqlite3_stmt **st, const char **tail)
{
	compiled++;
	return __real_sqlite3_prepare_v3(db, sql, n, flags, st, tail);
}

int __wrap_sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **),
			void *arg, char **err)
{
	compiled++; /* at least one statement */
	return __real_sqlite3_exec(db, sql, cb, arg, err);
}

int __real_sqlite3_step(sqlite3_stmt *st);

int __wrap_sqlite3_step(sqlite3_stmt *st)
{
	const char *sql = sqlite3_sql(st);

	versions += sql && !strcmp(sql, "PRAGMA data_version");
	return __real_sqlite3_step(st);
}

static char dir[] = "/tmp/ww_cost_XXXXXX";

static void rec(ww_health_t *h, uint64_t written, uint64_t poh)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->model, sizeof(h->model), "M");
	WW_SET(h->host_written_bytes, written, "test");
	WW_SET(h->power_on_seconds, poh, "test");
	WW_SET(h->temperature_celsius, 30, "test");
	WW_SET(h->media_errors, 0, "test");
}

static int64_t data_version(sqlite3 *db)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (__real_sqlite3_prepare_v2(db, "PRAGMA data_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (__real_sqlite3_step(st) == SQLITE_ROW) /* not one of ours: not counted */
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void collect_round(ww_store_t *store, ww_store_endurance_t *svc, ww_drive_t *d, long i,
			  time_t now)
{
	static ww_health_t h;

	for (int k = 0; k < NDRIVES; k++) {
		rec(&h, (uint64_t)i * (1u << 20) * (k + 1), 3600 + (uint64_t)i * 60);
		CHECK_EQ_I64(ww_store_update(store, d[k].id, 0, &h, NULL, 0.001, now), 0);
		ww_store_endurance_after_collect(svc, NULL, store, &d[k], 0, now);
	}
}

static void test_collections(const char *path)
{
	static ww_drive_t d[NDRIVES];
	ww_history_t *h;
	ww_store_t *store = ww_store_new(0);
	ww_store_endurance_t *svc;
	ww_snapshot_t *snap;
	ww_endurance_t e;
	sqlite3 *other;
	uint64_t pubs, ours;
	unsigned long before, versions0;
	int64_t v0;
	long changes = 0;
	const long per_day = DAY / 60;

	for (int k = 0; k < NDRIVES; k++) {
		snprintf(d[k].id, sizeof(d[k].id), "nvme-cost-%d", k);
		d[k].protocol = WW_PROTO_NVME;
		d[k].capacity_bytes = 1000000000000ull; /* windows are drive writes per day */
	}
	CHECK_EQ_I64(ww_history_open(path, NULL, &h, NULL, 0), 0);
	svc = ww_store_endurance_new(NULL, NULL, h);
	CHECK(svc && store);
	if (!svc || !store)
		return;
	CHECK_EQ_I64(ww_store_sync(store, d, NDRIVES, T0), 0);
	pubs = ww_store_publications(store);
	/* day 1: every statement meets its first use (the baselines of the 1-day
	 * window are looked up again from 24 h on) */
	for (long i = 0; i <= per_day + 60; i++)
		collect_round(store, svc, d, i, T0 + i * 60);
	CHECK(sqlite3_open(path, &other) == SQLITE_OK);
	before = compiled;
	ours = ww_history_prepares(h);
	v0 = data_version(other);
	versions0 = versions;
	/* day 2: the same work again, thinning included, compiles nothing */
	for (long i = per_day + 61; i <= 2 * per_day; i++) {
		int64_t v;

		collect_round(store, svc, d, i, T0 + i * 60);
		v = data_version(other);
		changes += v != v0;
		v0 = v;
	}
	printf("day 2: %ld rounds of %d collections, %lu statements compiled, %ld commits seen"
	       " by another connection, %llu snapshot publications\n", per_day - 61, NDRIVES,
	       compiled - before, changes, (unsigned long long)(ww_store_publications(store) - pubs));
	CHECK_EQ_U64(compiled - before, 0);
	CHECK_EQ_U64(ww_history_prepares(h), ours);
	/* each commit asks before it writes, and the round after it asks
	 * once, the log having moved: two per commit, none between */
	printf("day 2: %lu checks for another writer\n", versions - versions0);
	CHECK(versions - versions0 >= (unsigned long)changes);
	CHECK(versions - versions0 <= (unsigned long)(2 * changes + 2));
	/* one commit per WW_HISTORY_COMMIT_S (the hourly thinning within one) */
	CHECK(changes >= (DAY - 61 * 60) / WW_HISTORY_COMMIT_S - 1 &&
	      changes <= (DAY - 61 * 60) / WW_HISTORY_COMMIT_S + 1);
	CHECK_EQ_U64(ww_store_publications(store) - pubs, 0);
	/* an API query sees the samples still pending, without a commit of its
	 * own (a dashboard asking every 30 s made one commit per poll) */
	{
		time_t last = T0 + 2 * per_day * 60;
		ww_hpoint_t *pts = NULL;
		int64_t v1 = data_version(other);
		long n = ww_history_query(h, d[0].id, WW_HM_WRITTEN, last - 600, last, 100, &pts);

		CHECK_EQ_I64(n, 11);
		if (n == 11)
			CHECK_EQ_I64(pts[10].t, last);
		free(pts);
		CHECK_EQ_I64(data_version(other), v1);
	}
	/* the results are there all the same, and a reader still sees them */
	CHECK(ww_store_endurance_get(svc, d[1].id, &e));
	CHECK(e.has_window[WW_WIN_1D]);
	snap = ww_store_acquire(store);
	CHECK_EQ_U64(ww_store_publications(store) - pubs, 1);
	CHECK(snap->n == NDRIVES &&
	      snap->drives[0]->collections_total == (uint64_t)2 * per_day + 1);
	ww_snapshot_release(snap);
	/* rows written by hand through another connection: the next round
	 * asks (once), the one after it does not */
	{
		long i = 2 * per_day + 1;
		unsigned long v;

		collect_round(store, svc, d, i, T0 + i * 60);
		i++;
		collect_round(store, svc, d, i, T0 + i * 60);
		v = versions;
		CHECK(__real_sqlite3_exec(other,
					  "CREATE TABLE by_hand(x); INSERT INTO by_hand VALUES (1)",
					  NULL, NULL, NULL) == SQLITE_OK);
		i++;
		collect_round(store, svc, d, i, T0 + i * 60);
		CHECK_EQ_U64(versions - v, 1);
		i++;
		collect_round(store, svc, d, i, T0 + i * 60);
		CHECK_EQ_U64(versions - v, 1);
	}
	sqlite3_close(other);
	ww_store_endurance_free(svc); /* closes h */
	ww_store_free(store);
}

/* EXPLAIN QUERY PLAN of each per-collection statement on the file left by
 * test_collections: SEARCH ... USING PRIMARY KEY, never SCAN; and the API's
 * history queries (rows, buckets), counts and lookups never scan the rows
 * of every drive (the list of drives is the one table read whole). */
static void test_plans(const char *path)
{
	sqlite3 *db;
	int checked = 0;

	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	/* the queries read the reader connection's temp tables too */
	for (int i = 0; ww_history_sql(i); i++)
		if (strstr(ww_history_sql(i), "CREATE TEMP TABLE"))
			CHECK(sqlite3_exec(db, ww_history_sql(i), NULL, NULL, NULL) == SQLITE_OK);
	for (int i = 0; ww_history_sql(i); i++) {
		char sql[1200];
		sqlite3_stmt *st;

		bool per = ww_history_sql_per_collection(i);

		/* statements that read or write rows (not BEGIN, PRAGMA) */
		if (!strchr("SIUD", ww_history_sql(i)[0]))
			continue;
		snprintf(sql, sizeof(sql), "EXPLAIN QUERY PLAN %s", ww_history_sql(i));
		CHECK(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK);
		while (st && sqlite3_step(st) == SQLITE_ROW) {
			const char *detail = (const char *)sqlite3_column_text(st, 3);

			printf("  %-60.60s | %s\n", ww_history_sql(i), detail);
			if (per && !strncmp(detail, "SCAN ", 5)) {
				printf("    a table scan per collection\n");
				CHECK(strncmp(detail, "SCAN ", 5) != 0);
			}
			/* the API's history queries: searched ranges of (n, t),
			 * never a sort of the rows (GROUP BY over a week of
			 * one-second samples ran past the time budget) */
			if (!per && !strncmp(ww_history_sql(i), "SELECT t, ", 10) &&
			    strstr(detail, "TEMP B-TREE")) {
				printf("    a history query sorts its rows\n");
				CHECK(strstr(detail, "TEMP B-TREE") == NULL);
			}
			if (!per && (!strncmp(detail, "SCAN sample_rows", 16) ||
				     !strncmp(detail, "SCAN probe_rows", 15))) {
				printf("    every drive's rows read\n");
				CHECK(strncmp(detail, "SCAN ", 5) != 0);
			}
		}
		sqlite3_finalize(st);
		checked++;
	}
	CHECK(checked >= 10 + 5 * WW_HM_MAX);
	sqlite3_close(db);
}

/* windows from memory == the database's answer, over 40 days at 10 minutes
 * with a reset of the counters on day 20 */
static void test_windows_match(const char *path)
{
	static ww_health_t hr;
	ww_history_t *h;
	ww_sample_t base[WW_WIN_MAX + 1], s, latest;
	bool has[WW_WIN_MAX + 1];
	const time_t len[WW_WIN_MAX + 1] = { (time_t)ww_window_days[0] * DAY,
		(time_t)ww_window_days[1] * DAY, (time_t)ww_window_days[2] * DAY, DAY };
	int compared = 0;

	CHECK_EQ_I64(ww_history_open(path, NULL, &h, NULL, 0), 0);
	for (long i = 0; i <= 40 * 144; i++) {
		time_t now = T0 + i * 600;
		uint64_t w = i < 20 * 144 ? (uint64_t)i << 30 : (uint64_t)(i - 20 * 144) << 20;

		rec(&hr, w, 3600 + (uint64_t)i * 600);
		if (i % 97 == 5) /* a sample without bytes written now and then */
			memset(&hr.host_written_bytes, 0, sizeof(hr.host_written_bytes));
		CHECK_EQ_I64(ww_history_append(h, "sata-w", &hr, true, now, &latest), 0);
		if (i % 71)
			continue;
		CHECK_EQ_I64(ww_history_windows(h, "sata-w", now, base, has), 0);
		for (int k = 0; k <= WW_WIN_MAX; k++) {
			int f = ww_history_baseline(h, "sata-w", latest.segment, now - len[k], &s);

			CHECK_EQ_I64(has[k], f == 1);
			if (has[k] && f == 1 && (base[k].t != s.t || base[k].written_bytes != s.written_bytes)) {
				printf("day %.2f window %d: memory t=%lld, database t=%lld\n",
				       (double)(now - T0) / DAY, k, (long long)base[k].t, (long long)s.t);
				CHECK_EQ_I64(base[k].t, s.t);
			}
			compared++;
		}
	}
	CHECK_EQ_I64(latest.segment, 1);
	printf("window baselines compared with the database: %d\n", compared);
	ww_history_close(h);
}

int main(void)
{
	char path[300];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/history.db", dir);
	test_collections(path);
	test_plans(path);
	snprintf(path, sizeof(path), "%s/windows.db", dir);
	test_windows_match(path);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			printf("could not remove %s\n", dir);
	}
	return ww_test_done("test_history_cost");
}
