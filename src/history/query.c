/* History queries (contract in history.h), bounded in points and time:
 *
 * - Rows come from the coarsest tier that is no coarser than a bucket (a
 *   range of a year in 500 points reads daily rows where they exist), and a
 *   finer tier only where that one has no rows; every part is a range of the
 *   primary key (drive, tier, t).
 * - More rows than max_points are bucketed by SQLite (GROUP BY bucket), so at
 *   most max_points rows ever leave the database.
 * - Every query runs under a time budget (sqlite3_progress_handler): past
 *   WW_HISTORY_QUERY_BUDGET_MS it stops with -ETIME, which the API answers
 *   503 with the reason. Before: 600k samples of one drive took 1.0-1.5 s a
 *   query, holding the lock every poll's write needed.
 * - Queries run on their own read-only connection (WAL: readers and the
 *   writer do not wait for each other).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wearwatch/history.h"
#include "history/query.h"

/* probe_samples column of each WW_HM_PROBE_* metric */
static const char *const probe_cols[] = { "p50_seconds", "p99_seconds", "max_seconds" };

static bool is_probe(int m)
{
	return m >= WW_HM_PROBE_P50 && m <= WW_HM_PROBE_MAX;
}

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int over_budget(void *arg)
{
	return mono_ms() >= *(const long long *)arg;
}

/* 1 when the drive has rows in either table, 0 when none, or a SQLite code
 * (negated) */
static int drive_known(sqlite3 *db, const char *id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db, "SELECT 1 FROM samples WHERE drive=?1 UNION ALL"
				" SELECT 1 FROM probe_samples WHERE drive=?1 LIMIT 1", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return -rc;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -rc;
}

/* the time each tier's rows span for the drive (lo > hi: none) */
static int spans(sqlite3 *db, const char *table, const char *id, long long lo[3], long long hi[3])
{
	char sql[160];
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_OK;

	snprintf(sql, sizeof(sql), "SELECT min(t), max(t) FROM %s WHERE drive=?1 AND tier=?2",
		 table);
	for (int k = 0; k < 3 && rc == SQLITE_OK; k++) {
		lo[k] = LLONG_MAX;
		hi[k] = LLONG_MIN;
		if ((rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL)) != SQLITE_OK)
			break;
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, k);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
			lo[k] = sqlite3_column_int64(st, 0);
			hi[k] = sqlite3_column_int64(st, 1);
		}
		rc = rc == SQLITE_ROW ? SQLITE_OK : rc;
		sqlite3_finalize(st);
	}
	return rc;
}

/* [a, b] less [lo, hi] into at most two intervals of out; their number */
static int subtract(long long a, long long b, long long lo, long long hi, long long out[][2])
{
	int n = 0;

	if (lo > hi || hi < a || lo > b) {
		out[0][0] = a;
		out[0][1] = b;
		return 1;
	}
	if (lo > a) {
		out[n][0] = a;
		out[n++][1] = lo - 1;
	}
	if (hi < b) {
		out[n][0] = hi + 1;
		out[n++][1] = b;
	}
	return n;
}

/* The rows to read, as SQL: tiers in the order the query prefers them (the
 * coarsest no coarser than a bucket, then finer, then coarser), each only
 * in the parts of [from, to] where no preferred tier has rows. Each part is
 * one range of the primary key (drive, tier, t). Columns t, v, seg. */
static void rows_sql(char *sql, size_t len, const char *table, const char *col, bool probe,
		     long long from, long long to, long long width, const long long lo[3],
		     const long long hi[3])
{
	long long part[16][2], next[16][2];
	int order[3], n = 0, pref = 0, nparts = 1;
	size_t o = 0;

	while (pref < 2 && ww_history_tier_s[pref + 1] <= width)
		pref++;
	for (int k = pref; k >= 0; k--)
		order[n++] = k;
	for (int k = pref + 1; k < 3; k++)
		order[n++] = k;
	part[0][0] = from;
	part[0][1] = to;
	for (int i = 0; i < 3; i++) {
		int k = order[i], nn = 0;

		for (int p = 0; p < nparts; p++)
			o += (size_t)snprintf(sql + o, len - o, "%sSELECT t, %s AS v, %s AS seg FROM %s"
					      " WHERE drive=?1 AND tier=%d AND t>=%lld AND t<=%lld",
					      o ? " UNION ALL " : "", col, probe ? "0" : "segment",
					      table, k, part[p][0], part[p][1]);
		/* what is left for the next tier: less this tier's span */
		for (int p = 0; p < nparts; p++)
			nn += subtract(part[p][0], part[p][1], lo[k], hi[k], next + nn);
		memcpy(part, next, sizeof(part));
		nparts = nn;
	}
	if (!o)
		snprintf(sql, len, "SELECT 0 AS t, 0 AS v, 0 AS seg WHERE 0");
}

/* run a prepared query of (t, v, seg[, avg, max, count]) rows into pts,
 * at most cap of them; the count or -SQLite code */
static long run(sqlite3_stmt *st, ww_hmetric_t m, bool bucketed, ww_hpoint_t *pts, size_t cap)
{
	size_t n = 0;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < cap) {
		int vcol = !bucketed || ww_hmetrics[m].counter ? 1 :
			   ww_hmetrics[m].bucket_max ? 4 : 3;

		pts[n].t = (time_t)sqlite3_column_int64(st, 0);
		pts[n].has_value = sqlite3_column_type(st, vcol) != SQLITE_NULL;
		pts[n].value = !pts[n].has_value ? 0 : is_probe(m) || vcol == 3 ?
			       sqlite3_column_double(st, vcol) :
			       (double)sqlite3_column_int64(st, vcol);
		pts[n].segment = sqlite3_column_int64(st, 2);
		n++;
	}
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? (long)n : -rc;
}

/* every row when they are at most max_points, else one per bucket */
static long query_rows(sqlite3 *db, const char *id, ww_hmetric_t m, time_t from, time_t to,
		       unsigned max_points, ww_hpoint_t *pts)
{
	const char *table = is_probe(m) ? "probe_samples" : "samples";
	const char *col = is_probe(m) ? probe_cols[m - WW_HM_PROBE_P50] : ww_hmetrics[m].name;
	long long lo[3], hi[3], span = (long long)to - from + 1;
	char rows[2048], sql[2400];
	sqlite3_stmt *st = NULL;
	long n;
	int rc;

	if ((rc = spans(db, table, id, lo, hi)) != SQLITE_OK)
		return -rc;
	rows_sql(rows, sizeof(rows), table, col, is_probe(m), from, to, span / max_points, lo, hi);
	for (int pass = 0; pass < 2; pass++) {
		/* pass 0: the rows themselves, one more than fit; pass 1:
		 * buckets of (t - from) * max_points / span, the same as
		 * dividing by span / max_points. With max(t) the only min/max
		 * aggregate, SQLite takes v and seg from the row it picks (each
		 * bucket's last: a counter's value); a bucket_max gauge adds
		 * max(v) and then uses only that (its seg is 0) */
		if (pass == 0)
			snprintf(sql, sizeof(sql), "SELECT t, v, seg FROM (%s) ORDER BY t LIMIT %u",
				 rows, max_points + 1);
		else
			snprintf(sql, sizeof(sql), "SELECT max(t), v, seg, avg(v), %s FROM (%s)"
				 " GROUP BY (t - ?2) * %u / %lld ORDER BY 1",
				 ww_hmetrics[m].bucket_max ? "max(v)" : "NULL", rows, max_points, span);
		if ((rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL)) != SQLITE_OK)
			return -rc;
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, from);
		sqlite3_bind_int64(st, 3, to);
		n = run(st, m, pass == 1, pts, max_points + (pass == 0));
		sqlite3_finalize(st);
		if (n < 0 || (unsigned long)n <= max_points)
			return n;
	}
	return -SQLITE_INTERNAL;
}

long ww_history_query(ww_history_t *h, const char *id, ww_hmetric_t m, time_t from,
		      time_t to, unsigned max_points, ww_hpoint_t **out)
{
	long long deadline = mono_ms() + ww_history_query_budget_ms(h);
	ww_hpoint_t *pts;
	sqlite3 *db;
	long n;
	int known;

	*out = NULL;
	if (m < 0 || m >= WW_HM_MAX || to < from || !max_points ||
	    max_points > WW_HISTORY_MAX_POINTS)
		return -EINVAL;
	pts = calloc((size_t)max_points + 1, sizeof(*pts));
	if (!pts)
		return -ENOMEM;
	db = ww_history_reader_lock(h);
	if (!db) {
		ww_history_reader_unlock(h, SQLITE_OK);
		free(pts);
		return -EAGAIN;
	}
	sqlite3_progress_handler(db, 1000, over_budget, &deadline);
	known = drive_known(db, id);
	n = known < 0 ? known : !known ? 0 : query_rows(db, id, m, from, to, max_points, pts);
	sqlite3_progress_handler(db, 0, NULL, NULL);
	ww_history_reader_unlock(h, n < 0 ? (int)-n : SQLITE_OK);
	if (n < 0 || !known) {
		free(pts);
		if (!known)
			return -ENOENT;
		return n == -SQLITE_INTERRUPT ? -ETIME : -EIO;
	}
	*out = pts;
	return n;
}
