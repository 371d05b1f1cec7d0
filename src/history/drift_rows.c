/* Latency-drift bursts in the history file (contract in history.h): one
 * row per burst, written in its own transaction (one a day per drive, so
 * nothing waits in memory for the hourly commit), bounded per drive by the
 * append. */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <sqlite3.h>

#include "history/priv.h"

static int step_done(ww_history_t *h, enum hstmt which)
{
	sqlite3_stmt *st = ww_hist_stmt(h, which);

	return st && ww_hist_done(st, sqlite3_step(st)) == SQLITE_DONE ? 0 : -EIO;
}

static void bind_drift(sqlite3_stmt *st, int64_t n, const ww_hdrift_t *b)
{
	const double q[3] = { b->p50_s, b->p99_s, b->mean_s };

	sqlite3_bind_int64(st, 1, n);
	sqlite3_bind_int64(st, 2, b->t);
	for (int k = 0; k < 3; k++)
		if (b->has_latency)
			sqlite3_bind_double(st, 3 + k, q[k]);
		else
			sqlite3_bind_null(st, 3 + k);
	sqlite3_bind_int64(st, 6, b->reads);
	sqlite3_bind_int64(st, 7, b->errors);
	if (b->base_n)
		sqlite3_bind_double(st, 8, b->base_p99_s);
	else
		sqlite3_bind_null(st, 8);
	sqlite3_bind_int64(st, 9, b->base_n);
	sqlite3_bind_int(st, 10, b->in_baseline);
}

/* the drive's number in the file, added when new; 0 on failure */
static int64_t drive_n_add(ww_history_t *h, const char *id)
{
	sqlite3_stmt *st = ww_hist_stmt(h, HS_DRIVE_ADD);

	if (!st)
		return 0;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	if (ww_hist_done(st, sqlite3_step(st)) != SQLITE_DONE)
		return 0;
	return ww_hist_drive_n_locked(h, id);
}

static int insert_locked(ww_history_t *h, const char *id, const ww_hdrift_t *b, unsigned keep_base)
{
	sqlite3_stmt *st;
	int64_t n;
	int ret = step_done(h, HS_BEGIN);

	if (ret)
		return ret;
	n = drive_n_add(h, id);
	st = n > 0 ? ww_hist_stmt(h, HS_DINSERT) : NULL;
	if (st) {
		bind_drift(st, n, b);
		ret = ww_hist_done(st, sqlite3_step(st)) == SQLITE_DONE ? 0 : -EIO;
	} else {
		ret = -EIO;
	}
	st = ret ? NULL : ww_hist_stmt(h, HS_DBOUND);
	if (st) {
		sqlite3_bind_int64(st, 1, n);
		sqlite3_bind_int64(st, 2, WW_HISTORY_DRIFT_KEEP - 1);
		sqlite3_bind_int64(st, 3, keep_base ? keep_base - 1 : 0);
		ret = ww_hist_done(st, sqlite3_step(st)) == SQLITE_DONE ? 0 : -EIO;
	} else if (!ret) {
		ret = -EIO;
	}
	if (!ret)
		ret = step_done(h, HS_COMMIT);
	if (ret) {
		int code = sqlite3_errcode(h->db);

		/* bad pages: the file is moved aside at the next write */
		if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
			h->corrupt = true;
		step_done(h, HS_ROLLBACK);
	}
	return ret;
}

int ww_history_append_drift(ww_history_t *h, const char *id, const ww_hdrift_t *b,
			    unsigned keep_base)
{
	int ret;

	if (!h || !id || !b)
		return -EINVAL;
	pthread_mutex_lock(&h->lock);
	ret = ww_hist_writable_locked(h, b->t) ? insert_locked(h, id, b, keep_base) : -EIO;
	/* the drive numbers a rollback took back are asked for again */
	if (ret) {
		struct hdrive *d = ww_hist_drive_locked(h, id, false);

		if (d && d->n && ww_hist_drive_n_locked(h, id) <= 0)
			d->n = 0;
	}
	ww_hist_write_result_unlock(h, ret, "drift burst", id, b->t);
	return ret;
}

/* the drive's number (> 0), 0 when not in the file, under the lock */
static int64_t drive_n(ww_history_t *h, const char *id)
{
	if (!h->db)
		return -1;
	return ww_hist_drive_n_locked(h, id);
}

long ww_history_drift_baseline(ww_history_t *h, const char *id, double *p99_s, unsigned max)
{
	sqlite3_stmt *st;
	long k = 0;
	int64_t n;
	int rc = SQLITE_DONE;

	if (!h || !id || !p99_s)
		return -EIO;
	pthread_mutex_lock(&h->lock);
	n = drive_n(h, id);
	st = n > 0 && max ? ww_hist_stmt(h, HS_DBASE) : NULL;
	if (st) {
		sqlite3_bind_int64(st, 1, n);
		sqlite3_bind_int64(st, 2, max);
		while (k < (long)max && (rc = sqlite3_step(st)) == SQLITE_ROW)
			p99_s[k++] = sqlite3_column_double(st, 0);
		ww_hist_done(st, 0);
	}
	pthread_mutex_unlock(&h->lock);
	if (n < 0 || (n > 0 && max && !st) || (rc != SQLITE_DONE && rc != SQLITE_ROW))
		return -EIO;
	return k;
}

int ww_history_drift_latest(ww_history_t *h, const char *id, ww_hdrift_t *out)
{
	sqlite3_stmt *st;
	int64_t n;
	int ret = 0, rc;

	if (!h || !id || !out)
		return -EIO;
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&h->lock);
	n = drive_n(h, id);
	st = n > 0 ? ww_hist_stmt(h, HS_DLATEST) : NULL;
	if (n < 0 || (n > 0 && !st)) {
		ret = -EIO;
	} else if (st) {
		sqlite3_bind_int64(st, 1, n);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			out->t = (time_t)sqlite3_column_int64(st, 0);
			out->has_latency = sqlite3_column_type(st, 2) != SQLITE_NULL;
			out->p50_s = sqlite3_column_double(st, 1);
			out->p99_s = sqlite3_column_double(st, 2);
			out->mean_s = sqlite3_column_double(st, 3);
			out->reads = (uint32_t)sqlite3_column_int64(st, 4);
			out->errors = (uint32_t)sqlite3_column_int64(st, 5);
			out->base_p99_s = sqlite3_column_double(st, 6);
			out->base_n = (uint32_t)sqlite3_column_int64(st, 7);
			out->in_baseline = sqlite3_column_int(st, 8) != 0;
			ret = 1;
		} else if (rc != SQLITE_DONE) {
			ret = -EIO;
		}
		ww_hist_done(st, 0);
	}
	pthread_mutex_unlock(&h->lock);
	return ret;
}

long ww_history_count_drift(ww_history_t *h, const char *id)
{
	sqlite3_stmt *st;
	int64_t n;
	long k = -EIO;

	if (!h || !id)
		return -EIO;
	pthread_mutex_lock(&h->lock);
	n = drive_n(h, id);
	if (n == 0)
		k = 0;
	st = n > 0 ? ww_hist_stmt(h, HS_DCOUNT) : NULL;
	if (st) {
		sqlite3_bind_int64(st, 1, n);
		if (sqlite3_step(st) == SQLITE_ROW)
			k = (long)sqlite3_column_int64(st, 0);
		ww_hist_done(st, 0);
	}
	pthread_mutex_unlock(&h->lock);
	return k;
}
