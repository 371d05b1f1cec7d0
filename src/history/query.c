/* Reading history for the API and tests: queries, counts, baselines. Each
 * sees every sample appended before: counts and baselines (tests, the
 * windows' check) write what is pending first; the API's queries read it
 * from memory beside the file (no commit per query).
 *
 * The API's queries are bounded: at most max_points rows leave SQLite (more
 * are bucketed by it, GROUP BY), each query is a range of the primary key
 * (drive number, t) read on a read-only connection of its own (the writer
 * never waits for it), and it stops with -ETIME past the time budget
 * (sqlite3_progress_handler). Before, 600 000 samples of one drive were read
 * into memory and bucketed here: 1.0-1.5 s a query under the writer's lock.
 * Old ranges read few rows anyway: thinning leaves one per hour, then one
 * per day. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wearwatch/basic.h"
#include "history/priv.h"

/* the drive's number after writing what is pending: > 0, 0 unknown, -EIO */
static int64_t drive_for_read(ww_history_t *h, const char *id)
{
	struct hdrive *d = ww_hist_drive_locked(h, id, false);

	ww_hist_flush_locked(h);
	if (d && d->n)
		return d->n;
	return ww_hist_drive_n_locked(h, id);
}

int ww_history_baseline(ww_history_t *h, const char *id, int64_t segment, time_t from,
			ww_sample_t *out)
{
	sqlite3_stmt *st;
	int64_t n;
	int rc = SQLITE_DONE;

	pthread_mutex_lock(&h->lock);
	n = drive_for_read(h, id);
	st = n > 0 ? ww_hist_stmt(h, HS_BASELINE) : NULL;
	if (st) {
		sqlite3_bind_int64(st, 1, n);
		sqlite3_bind_int64(st, 2, segment);
		sqlite3_bind_int64(st, 3, from);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			ww_hist_row_to_sample(st, 0, out);
		ww_hist_done(st, 0);
	} else if (n) {
		rc = SQLITE_ERROR;
	}
	pthread_mutex_unlock(&h->lock);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -EIO;
}

static int count_rows(ww_history_t *h, enum hstmt which, const char *id, long counts[3])
{
	sqlite3_stmt *st;
	int64_t n;
	int rc = SQLITE_DONE;

	counts[0] = counts[1] = counts[2] = 0;
	pthread_mutex_lock(&h->lock);
	n = drive_for_read(h, id);
	st = n > 0 ? ww_hist_stmt(h, which) : NULL;
	if (st) {
		sqlite3_bind_int64(st, 1, n);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			int tier = sqlite3_column_int(st, 0);

			if (tier >= 0 && tier < 3)
				counts[tier] = sqlite3_column_int64(st, 1);
		}
		ww_hist_done(st, 0);
	} else if (n) {
		rc = SQLITE_ERROR;
	}
	pthread_mutex_unlock(&h->lock);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int ww_history_count(ww_history_t *h, const char *id, long counts[3])
{
	return count_rows(h, HS_COUNT, id, counts);
}

int ww_history_count_probe(ww_history_t *h, const char *id, long counts[3])
{
	return count_rows(h, HS_PCOUNT, id, counts);
}

static bool is_probe(int m)
{
	return m >= WW_HM_PROBE_P50 && m <= WW_HM_PROBE_MAX;
}

static long long mono_ms(void)
{
	return ww_clock_monotonic_ms();
}

static int over_budget(void *arg)
{
	return mono_ms() >= *(const long long *)arg;
}

/* statement `which` (ww_history_sql) prepared on the reader connection:
 * 0 or -SQLite code */
static int prepare(sqlite3 *db, int which, sqlite3_stmt **st)
{
	int rc = sqlite3_prepare_v2(db, ww_history_sql(which), -1, st, NULL);

	return rc == SQLITE_OK ? 0 : -rc;
}

/* the drive's number in the file (> 0), 0 when it is not there, or -SQLite
 * code; *known: it has rows in either table */
static int64_t reader_drive(sqlite3 *db, const char *id, bool *known)
{
	sqlite3_stmt *st = NULL;
	int64_t n = 0;
	int rc;

	*known = false;
	if ((rc = prepare(db, HS_DRIVE_FIND, &st)) < 0)
		return rc;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? 0 : -rc;
	if ((rc = prepare(db, HS_KNOWN, &st)) < 0)
		return rc;
	sqlite3_bind_int64(st, 1, n);
	rc = sqlite3_step(st);
	*known = rc == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? n : -rc;
}

/* One drive's rows still pending (written with the next commit), copied
 * under the writer's lock: a query sees them without committing them, so
 * a dashboard asking every 30 s costs no write (it made one commit per
 * poll instead of one an hour). */
struct pend {
	struct psample *s;
	struct pprobe *p;
	size_t ns, np;
};

static int copy_pending(ww_history_t *h, const char *id, struct pend *pd)
{
	struct hdrive *d;
	int rc = 0;

	memset(pd, 0, sizeof(*pd));
	pthread_mutex_lock(&h->lock);
	d = ww_hist_drive_locked(h, id, false);
	for (size_t i = 0; d && i < h->n_ps; i++)
		pd->ns += h->ps[i].d == d;
	for (size_t i = 0; d && i < h->n_pp; i++)
		pd->np += h->pp[i].d == d;
	pd->s = pd->ns ? malloc(pd->ns * sizeof(*pd->s)) : NULL;
	pd->p = pd->np ? malloc(pd->np * sizeof(*pd->p)) : NULL;
	if ((pd->ns && !pd->s) || (pd->np && !pd->p)) {
		rc = -ENOMEM;
	} else {
		size_t k = 0, q = 0;

		for (size_t i = 0; d && i < h->n_ps; i++)
			if (h->ps[i].d == d)
				pd->s[k++] = h->ps[i];
		for (size_t i = 0; d && i < h->n_pp; i++)
			if (h->pp[i].d == d)
				pd->p[q++] = h->pp[i];
	}
	pthread_mutex_unlock(&h->lock);
	return rc;
}

/* the pending rows into the reader's temp tables as drive n; 0 or -SQLite
 * code */
static int load_pending(sqlite3 *db, int64_t n, const struct pend *pd)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_exec(db, ww_history_sql(HS_PEND_SETUP), NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, ww_history_sql(HS_PEND_CLEAR), NULL, NULL, NULL);
	for (int t = 0; t < 2 && rc == SQLITE_OK; t++) {
		size_t cnt = t ? pd->np : pd->ns;

		if (!cnt)
			continue;
		if ((rc = -prepare(db, t ? HS_PEND_PROBE : HS_PEND_SAMPLE, &st)) != SQLITE_OK)
			break;
		for (size_t i = 0; i < cnt && rc == SQLITE_OK; i++) {
			if (t)
				ww_hist_bind_probe(st, n, &pd->p[i]);
			else
				ww_hist_bind_sample(st, n, &pd->s[i]);
			rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
			sqlite3_reset(st);
		}
		sqlite3_finalize(st);
	}
	return rc == SQLITE_OK ? 0 : -rc;
}

/* rows of (t, value, segment[, mean, largest]) into pts, at most cap; the
 * count or -SQLite code */
static long run_points(sqlite3_stmt *st, ww_hmetric_t m, bool bucketed, ww_hpoint_t *pts,
		       size_t cap)
{
	int vcol = !bucketed || ww_hmetrics[m].counter ? 1 : ww_hmetrics[m].bucket_max ? 4 : 3;
	size_t k = 0;
	int rc;

	while (k < cap && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		pts[k].t = (time_t)sqlite3_column_int64(st, 0);
		pts[k].has_value = sqlite3_column_type(st, vcol) != SQLITE_NULL;
		pts[k].value = !pts[k].has_value ? 0 : is_probe(m) || vcol == 3 ?
			       sqlite3_column_double(st, vcol) :
			       (double)sqlite3_column_int64(st, vcol);
		pts[k].segment = sqlite3_column_int64(st, 2);
		k++;
	}
	if (k == cap)
		return (long)k;
	return rc == SQLITE_DONE ? (long)k : -rc;
}

/* every row when they are at most max_points, else one per bucket */
static long query_points(sqlite3 *db, int64_t n, ww_hmetric_t m, time_t from, time_t to,
			 unsigned max_points, ww_hpoint_t *pts)
{
	for (int pass = 0; pass < 2; pass++) {
		sqlite3_stmt *st = NULL;
		long k;
		int rc = prepare(db, (pass ? HS_BUCKET0 : HS_QUERY0) + (int)m, &st);

		if (rc < 0)
			return rc;
		sqlite3_bind_int64(st, 1, n);
		sqlite3_bind_int64(st, 2, from);
		sqlite3_bind_int64(st, 3, to);
		/* pass 0: one row more than fit says there are too many */
		sqlite3_bind_int64(st, 4, (sqlite3_int64)max_points + (pass == 0));
		sqlite3_bind_int64(st, 5, (sqlite3_int64)to - from + 1);
		k = run_points(st, m, pass == 1, pts, (size_t)max_points + (pass == 0));
		sqlite3_finalize(st);
		if (k < 0 || (unsigned long)k <= max_points)
			return k;
	}
	return -SQLITE_INTERNAL;
}

long ww_history_query(ww_history_t *h, const char *id, ww_hmetric_t m, time_t from,
		      time_t to, unsigned max_points, ww_hpoint_t **out)
{
	long long deadline;
	ww_hpoint_t *pts;
	struct pend pd;
	bool known, unknown;
	int64_t dn;
	sqlite3 *db;
	long n;

	*out = NULL;
	if (m < 0 || m >= WW_HM_MAX || to < from || !max_points ||
	    max_points > WW_HISTORY_MAX_POINTS)
		return -EINVAL;
	pts = calloc((size_t)max_points + 1, sizeof(*pts));
	if (!pts || copy_pending(h, id, &pd)) {
		free(pts);
		return -ENOMEM;
	}
	deadline = mono_ms() + ww_hist_query_budget_ms(h);
	db = ww_hist_reader_lock(h);
	if (!db) {
		ww_hist_reader_unlock(h, SQLITE_OK);
		n = -EAGAIN;
		goto out;
	}
	sqlite3_progress_handler(db, 1000, over_budget, &deadline);
	dn = reader_drive(db, id, &known);
	unknown = dn >= 0 && !known && !pd.ns && !pd.np;
	n = dn < 0 ? (long)dn : 0;
	if (dn >= 0 && !unknown) {
		/* a drive not in the file yet has only pending rows: number -1 */
		n = load_pending(db, dn > 0 ? dn : -1, &pd);
		if (!n)
			n = query_points(db, dn > 0 ? dn : -1, m, from, to, max_points, pts);
	}
	sqlite3_progress_handler(db, 0, NULL, NULL);
	ww_hist_reader_unlock(h, n < 0 ? (int)-n : SQLITE_OK);
	if (n < 0) /* a SQLite code */
		n = n == -SQLITE_INTERRUPT ? -ETIME : -EIO;
	else if (unknown)
		n = -ENOENT;
out:
	free(pd.s);
	free(pd.p);
	if (n < 0) {
		free(pts);
		return n;
	}
	*out = pts;
	return n;
}
