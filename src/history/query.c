/* Reading history for the API and tests: queries, counts, baselines. Each
 * first writes what is pending, so it sees every sample appended before. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* 1 when drive n has rows in either table, 0 when none, -EIO */
static int drive_known(ww_history_t *h, int64_t n)
{
	sqlite3_stmt *st = ww_hist_stmt(h, HS_KNOWN);
	int rc;

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, n);
	rc = sqlite3_step(st);
	rc = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) != 0 : -EIO;
	return ww_hist_done(st, rc);
}

static bool is_probe(int m)
{
	return m >= WW_HM_PROBE_P50 && m <= WW_HM_PROBE_MAX;
}

/* every stored point of metric m in [from, to], oldest first, into *out
 * (malloc'd): their number or -errno */
static long query_points(ww_history_t *h, int64_t n, ww_hmetric_t m, time_t from,
			 time_t to, ww_hpoint_t **out)
{
	sqlite3_stmt *st = ww_hist_stmt(h, (enum hstmt)(HS_QUERY0 + m));
	ww_hpoint_t *raw = NULL;
	size_t k = 0, cap = 0;
	int rc;

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, n);
	sqlite3_bind_int64(st, 2, from);
	sqlite3_bind_int64(st, 3, to);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (k == cap) {
			void *nr = realloc(raw, (cap = cap ? cap * 2 : 256) * sizeof(*raw));

			if (!nr) {
				ww_hist_done(st, 0);
				free(raw);
				return -ENOMEM;
			}
			raw = nr;
		}
		raw[k].t = (time_t)sqlite3_column_int64(st, 0);
		raw[k].has_value = sqlite3_column_type(st, 1) != SQLITE_NULL;
		raw[k].value = !raw[k].has_value ? 0 : is_probe(m) ? sqlite3_column_double(st, 1)
				: (double)sqlite3_column_int64(st, 1);
		raw[k].segment = sqlite3_column_int64(st, 2);
		k++;
	}
	ww_hist_done(st, 0);
	if (rc != SQLITE_DONE) {
		free(raw);
		return -EIO;
	}
	*out = raw;
	return (long)k;
}

/* n points into max_points equal buckets over [from, to]: counters take the
 * bucket's last sample, gauges the mean of its samples that have a value,
 * bucket_max gauges the largest; returns the number of buckets written */
static size_t bucket(const ww_hpoint_t *raw, size_t n, ww_hmetric_t m, time_t from, time_t to,
		     unsigned max_points, ww_hpoint_t *pts)
{
	long double width = ((long double)(to - from) + 1) / max_points;
	size_t k = 0;

	for (size_t i = 0; i < n;) {
		size_t b = (size_t)((raw[i].t - from) / width), j = i;
		double sum = 0, top = 0;
		size_t cnt = 0;

		while (j < n && (size_t)((raw[j].t - from) / width) == b) {
			if (raw[j].has_value) {
				sum += raw[j].value;
				if (!cnt || raw[j].value > top)
					top = raw[j].value;
				cnt++;
			}
			j++;
		}
		pts[k] = raw[j - 1];
		if (ww_hmetrics[m].bucket_max) {
			pts[k].has_value = cnt > 0;
			pts[k].value = top;
		} else if (!ww_hmetrics[m].counter) {
			pts[k].has_value = cnt > 0;
			pts[k].value = cnt ? sum / cnt : 0;
		}
		k++;
		i = j;
	}
	return k;
}

long ww_history_query(ww_history_t *h, const char *id, ww_hmetric_t m, time_t from,
		      time_t to, unsigned max_points, ww_hpoint_t **out)
{
	ww_hpoint_t *raw = NULL, *pts;
	int64_t dn;
	long n;
	int known = 0;

	*out = NULL;
	if (m < 0 || m >= WW_HM_MAX || to < from || !max_points)
		return -EINVAL;
	pthread_mutex_lock(&h->lock);
	dn = drive_for_read(h, id);
	if (dn > 0)
		known = drive_known(h, dn);
	n = dn < 0 || known < 0 ? -EIO : !known ? -ENOENT : query_points(h, dn, m, from, to, &raw);
	pthread_mutex_unlock(&h->lock);
	if (n < 0 || (unsigned long)n <= max_points) {
		*out = raw;
		return n;
	}
	pts = calloc(max_points, sizeof(*pts));
	if (!pts) {
		free(raw);
		return -ENOMEM;
	}
	n = (long)bucket(raw, (size_t)n, m, from, to, max_points, pts);
	free(raw);
	*out = pts;
	return n;
}
