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
	return m >= WW_HM_PROBE_P50 && m <= WW_HM_DRIFT_BASE_P99; /* REAL columns */
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

/* rows of (t, value, segment) into pts, at most cap; the count or -SQLite
 * code */
static long run_points(sqlite3_stmt *st, ww_hmetric_t m, ww_hpoint_t *pts, size_t cap)
{
	size_t k = 0;
	int rc = SQLITE_DONE;

	while (k < cap && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		pts[k].t = (time_t)sqlite3_column_int64(st, 0);
		pts[k].has_value = sqlite3_column_type(st, 1) != SQLITE_NULL;
		pts[k].value = !pts[k].has_value ? 0
			: is_probe(m)            ? sqlite3_column_double(st, 1)
						 : (double)sqlite3_column_int64(st, 1);
		pts[k].segment = sqlite3_column_int64(st, 2);
		k++;
	}
	if (k == cap)
		return (long)k;
	return rc == SQLITE_DONE ? (long)k : -rc;
}

/* Rows a bucketed query reads, at most, whatever the number of rows in its
 * range (a drive polled every second for a week holds 604 800 raw rows;
 * reading each one took longer than the time budget): each bucket is read
 * by index searches, its last row and the first row of each of up to
 * WW_HSLOTS equal slots of its time span. A counter's point is its
 * bucket's last row, exact; a gauge's is the mean (or largest) of the rows
 * read, which are every row of the bucket when no two fall into one slot,
 * else one per slot: a mean over time. */
#define WW_HSEEKS 16384
#define WW_HSLOTS 32

struct bucketing {
	sqlite3_stmt *st[4]; /* first, last in the file; first, last pending */
	bool pending;        /* the drive has pending rows */
	int64_t n;
	ww_hmetric_t m;
	const long long *deadline;
	unsigned long seeks;
};

/* one search: the first (last: the last) row of [lo, hi), in the file and
 * among the pending rows; 1 found, 0 none, -SQLite code */
static int seek_row(struct bucketing *b, bool last, int64_t lo, int64_t hi, ww_hpoint_t *out)
{
	int found = 0;

	b->seeks++;
	for (int k = 0; k < (b->pending ? 2 : 1); k++) {
		sqlite3_stmt *st = b->st[2 * k + last];
		ww_hpoint_t r;
		long got;

		sqlite3_bind_int64(st, 1, b->n);
		sqlite3_bind_int64(st, 2, lo);
		sqlite3_bind_int64(st, 3, hi);
		got = run_points(st, b->m, &r, 1);
		sqlite3_reset(st);
		if (got < 0)
			return (int)got;
		if (got && (!found || (last ? r.t > out->t : r.t < out->t)))
			*out = r;
		found |= got > 0;
	}
	return found;
}

/* bucket [lo, hi) into *pt; 1 a point, 0 the bucket is empty, -SQLite code */
static int read_bucket(struct bucketing *b, int64_t lo, int64_t hi, unsigned slots, ww_hpoint_t *pt)
{
	ww_hpoint_t r;
	int64_t span = hi - lo, pos = lo;
	double sum = 0, top = 0;
	unsigned long vals = 0;
	int rc;

	rc = seek_row(b, true, lo, hi, pt);
	if (rc <= 0 || ww_hmetrics[b->m].counter)
		return rc;
	if ((int64_t)slots > span)
		slots = (unsigned)span;
	while (pos < hi) {
		int64_t j;

		rc = seek_row(b, false, pos, hi, &r);
		if (rc < 0)
			return rc;
		if (!rc)
			break;
		if (r.has_value) {
			sum += r.value;
			top = !vals || r.value > top ? r.value : top;
			vals++;
		}
		if (r.t >= pt->t)
			break;
		/* on to the slot after r's: slot j starts at lo + ceil(j span / slots) */
		j = (r.t - lo) * (int64_t)slots / span + 1;
		pos = lo + (j * span + (int64_t)slots - 1) / (int64_t)slots;
		if (pos <= r.t)
			pos = r.t + 1;
	}
	pt->has_value = vals > 0;
	pt->value = !vals ? 0 : ww_hmetrics[b->m].bucket_max ? top : sum / (double)vals;
	return 1;
}

/* [from, to] in max_points buckets: a row at t is in bucket
 * floor((t - from) max_points / (to - from + 1)); empty buckets give no
 * point. The count, or -SQLite code (SQLITE_INTERRUPT past the deadline). */
static long bucket_points(struct bucketing *b, time_t from, time_t to, unsigned max_points,
			  ww_hpoint_t *pts)
{
	const int64_t range = (int64_t)to - from + 1, p = max_points;
	unsigned slots = WW_HSEEKS / max_points;
	long k = 0;

	if (slots > WW_HSLOTS)
		slots = WW_HSLOTS;
	if (!slots)
		slots = 1;
	for (int64_t i = 0; i < p;) {
		/* bucket i is t - from in [ceil(i range / p), ceil((i + 1) range / p)) */
		int64_t lo = from + (i * range + p - 1) / p;
		int64_t hi = from + ((i + 1) * range + p - 1) / p;
		ww_hpoint_t next;
		int rc = 0;

		if (mono_ms() >= *b->deadline)
			return -SQLITE_INTERRUPT;
		if (hi > lo && (rc = read_bucket(b, lo, hi, slots, &pts[k])) < 0)
			return rc;
		k += rc;
		i++;
		if (rc || i >= p)
			continue;
		/* an empty bucket: on to the bucket of the next row (old ranges
		 * hold an hourly or daily row; no search per empty bucket) */
		rc = seek_row(b, false, hi, (int64_t)to + 1, &next);
		if (rc <= 0)
			return rc < 0 ? rc : k;
		i = ((int64_t)next.t - from) * p / range;
	}
	return k;
}

/* every row when they are at most max_points, else one point per bucket */
static long query_points(sqlite3 *db, int64_t n, ww_hmetric_t m, time_t from, time_t to,
			 unsigned max_points, ww_hpoint_t *pts, bool pending,
			 const long long *deadline, unsigned long *seeks)
{
	struct bucketing b = { .n = n, .m = m, .deadline = deadline, .pending = pending };
	sqlite3_stmt *st = NULL;
	long k;
	int rc = prepare(db, HS_QUERY0 + (int)m, &st);

	if (rc < 0)
		return rc;
	sqlite3_bind_int64(st, 1, n);
	sqlite3_bind_int64(st, 2, from);
	sqlite3_bind_int64(st, 3, to);
	/* one row more than fit says there are too many */
	sqlite3_bind_int64(st, 4, (sqlite3_int64)max_points + 1);
	k = run_points(st, m, pts, (size_t)max_points + 1);
	sqlite3_finalize(st);
	if (k < 0 || (unsigned long)k <= max_points)
		return k;
	for (int i = 0; i < 4 && rc == 0; i++)
		rc = prepare(db, HS_FIRST0 + i * WW_HM_MAX + (int)m, &b.st[i]);
	k = rc < 0 ? rc : bucket_points(&b, from, to, max_points, pts);
	for (int i = 0; i < 4; i++)
		sqlite3_finalize(b.st[i]);
	*seeks = b.seeks;
	return k;
}

long ww_history_query(ww_history_t *h, const char *id, ww_hmetric_t m, time_t from,
		      time_t to, unsigned max_points, ww_hpoint_t **out)
{
	long long deadline;
	ww_hpoint_t *pts;
	struct pend pd;
	bool known, unknown;
	unsigned long seeks = 0;
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
			n = query_points(db, dn > 0 ? dn : -1, m, from, to, max_points, pts,
					 m >= WW_HM_DRIFT_P99  ? false /* never pending */
						 : is_probe(m) ? pd.np > 0
							       : pd.ns > 0,
					 &deadline, &seeks);
	}
	sqlite3_progress_handler(db, 0, NULL, NULL);
	h->query_seeks += seeks; /* under qlock */
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

uint64_t ww_history_query_seeks(ww_history_t *h)
{
	uint64_t n;

	ww_hist_reader_lock(h);
	n = h->query_seeks;
	ww_hist_reader_unlock(h, SQLITE_OK);
	return n;
}
