/* Thinning and retention (see history.h): per drive, one range of the
 * primary key (drive number, t) from the previous cut to this one, so an
 * hourly pass costs what arrived in that hour, not the table's size. */
#include <errno.h>
#include <stdlib.h>

#include "history/priv.h"

/* tier k -> k + 1: bucket length and how long tier k is kept */
static const int64_t bucket_s[2] = { 3600, 86400 };

static int step_range(ww_history_t *h, enum hstmt which, int64_t n, time_t lo, time_t cut,
		      int tier)
{
	sqlite3_stmt *st = ww_hist_stmt(h, which);

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, n);
	sqlite3_bind_int64(st, 2, lo);
	sqlite3_bind_int64(st, 3, cut);
	sqlite3_bind_int64(st, 4, tier);
	if (which == HS_THIN_KEEP || which == HS_PTHIN_ADD) {
		sqlite3_bind_int64(st, 5, tier + 1);
		sqlite3_bind_int64(st, 6, bucket_s[tier]);
	}
	return ww_hist_done(st, sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO);
}

static int expire(ww_history_t *h, enum hstmt which, int64_t n, time_t cut)
{
	sqlite3_stmt *st = ww_hist_stmt(h, which);

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, n);
	sqlite3_bind_int64(st, 2, cut);
	return ww_hist_done(st, sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO);
}

static int thin_drive(ww_history_t *h, int64_t n, const time_t cut[2], time_t keep_cut)
{
	int rc = 0;

	for (int k = 0; k < 2 && !rc; k++) {
		if (h->thin_lo[k] >= cut[k])
			continue;
		/* samples: the bucket's last row moves up; bursts: one row per
		 * bucket with their mean, largest and sums */
		rc = step_range(h, HS_THIN_KEEP, n, h->thin_lo[k], cut[k], k);
		if (!rc)
			rc = step_range(h, HS_THIN_DROP, n, h->thin_lo[k], cut[k], k);
		if (!rc)
			rc = step_range(h, HS_PTHIN_ADD, n, h->thin_lo[k], cut[k], k);
		if (!rc)
			rc = step_range(h, HS_PTHIN_DROP, n, h->thin_lo[k], cut[k], k);
	}
	if (!rc && keep_cut)
		rc = expire(h, HS_EXPIRE, n, keep_cut);
	if (!rc && keep_cut)
		rc = expire(h, HS_PEXPIRE, n, keep_cut);
	return rc;
}

static int meta_set(ww_history_t *h, const char *k, time_t v)
{
	sqlite3_stmt *st = ww_hist_stmt(h, HS_META_SET);

	if (!st)
		return -EIO;
	sqlite3_bind_text(st, 1, k, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, v);
	return ww_hist_done(st, sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO);
}

/* numbers of every drive in the file (malloc'd), or NULL with *n = 0 */
static int64_t *all_drives(ww_history_t *h, size_t *n)
{
	sqlite3_stmt *st = ww_hist_stmt(h, HS_DRIVES);
	int64_t *v = NULL;
	size_t cap = 0;
	int rc = SQLITE_DONE;

	*n = 0;
	while (st && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			int64_t *nv = realloc(v, (cap = cap ? cap * 2 : 64) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
		}
		v[(*n)++] = sqlite3_column_int64(st, 0);
	}
	ww_hist_done(st, 0);
	if (!st || rc != SQLITE_DONE) {
		free(v);
		*n = 0;
		return NULL;
	}
	return v;
}

/* Inside the caller's transaction. On success the new cuts are in
 * h->thin_lo (the caller restores them when the transaction fails).
 *
 * Only whole buckets are promoted, so each is promoted once. The periodic
 * pass (exact false) moves the raw tier's cut a whole day at a time: raw
 * samples stay 7 to 8 days instead of 7 (more detail, never less), and a
 * day of a drive's raw rows goes at once, emptying whole pages (freed
 * without being written) where an hour at a time rewrote the partly emptied
 * pages every hour: that was half of all bytes written on a 90-day file. */
int ww_hist_thin_locked(ww_history_t *h, time_t now, bool exact)
{
	time_t cut[2], keep_cut = h->cfg.keep_s ? now - (time_t)h->cfg.keep_s : 0;
	int64_t raw_step = exact ? bucket_s[0] : bucket_s[1];
	size_t n = 0;
	int64_t *drives = all_drives(h, &n);
	int rc = drives || !n ? 0 : -EIO;

	cut[0] = (now - (time_t)h->cfg.raw_s) / raw_step * raw_step;
	cut[1] = (now - (time_t)h->cfg.hourly_s) / bucket_s[1] * bucket_s[1];
	for (size_t i = 0; i < n && !rc; i++)
		rc = thin_drive(h, drives[i], cut, keep_cut);
	free(drives);
	/* the cuts are kept in the file once a day (when the daily one moves):
	 * a page less per hourly commit; after a restart the first pass looks
	 * at up to a day of rows again, which is harmless */
	if (!rc && h->thin_lo[1] < cut[1])
		rc = meta_set(h, "thin1", cut[1]);
	if (!rc && h->thin_lo[1] < cut[1])
		rc = meta_set(h, "thin0", cut[0]);
	for (int k = 0; k < 2 && !rc; k++)
		if (h->thin_lo[k] < cut[k])
			h->thin_lo[k] = cut[k];
	if (!rc) /* rows older than the cuts changed tier or went */
		ww_hist_forget_locked(h, cut[0] > keep_cut ? cut[0] : keep_cut, false);
	return rc;
}
