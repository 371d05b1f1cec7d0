/* What history keeps in memory per drive (see priv.h): its number in the
 * file, its latest sample and its window baselines. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "history/priv.h"

struct hdrive *ww_hist_drive_locked(ww_history_t *h, const char *id, bool create)
{
	return create ? ww_idmap_get(&h->drives, id, NULL) : ww_idmap_find(&h->drives, id);
}

/* forget what slot k of d read ahead */
static void drop_ahead(struct hdrive *d, int k)
{
	if (d->ahead[k])
		d->ahead[k]->n = d->ahead[k]->pos = 0;
}

static void drop_drive(void *elem)
{
	struct hdrive *d = elem;

	for (int k = 0; k < WW_HBASE; k++)
		free(d->ahead[k]);
}

void ww_hist_drives_init(ww_history_t *h)
{
	ww_idmap_init(&h->drives, WW_IDMAP_OF(struct hdrive, id), drop_drive);
}

void ww_hist_drives_free(ww_history_t *h)
{
	ww_idmap_free(&h->drives);
}

/* the drive's number in the file: > 0, 0 when it has none, -EIO */
int64_t ww_hist_drive_n_locked(ww_history_t *h, const char *id)
{
	sqlite3_stmt *st = ww_hist_stmt(h, HS_DRIVE_FIND);
	int64_t n = 0;
	int rc;

	if (!st)
		return -EIO;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	return ww_hist_done(st, rc == SQLITE_ROW || rc == SQLITE_DONE ? n : -EIO);
}

void ww_hist_row_to_sample(sqlite3_stmt *st, int c0, ww_sample_t *s)
{
	/* c0: t, segment, written, poh, media_errors */
	memset(s, 0, sizeof(*s));
	s->t = (time_t)sqlite3_column_int64(st, c0);
	s->segment = sqlite3_column_int64(st, c0 + 1);
	if ((s->has_written = sqlite3_column_type(st, c0 + 2) != SQLITE_NULL))
		s->written_bytes = (uint64_t)sqlite3_column_int64(st, c0 + 2);
	if ((s->has_poh = sqlite3_column_type(st, c0 + 3) != SQLITE_NULL))
		s->power_on_seconds = (uint64_t)sqlite3_column_int64(st, c0 + 3);
	if ((s->has_media_errors = sqlite3_column_type(st, c0 + 4) != SQLITE_NULL))
		s->media_errors = (uint64_t)sqlite3_column_int64(st, c0 + 4);
}

/* column indexes of a pending sample (ww_hmetrics order) */
enum { C_WRITTEN = 0, C_POH = 4, C_MEDIA = 6 };

static void pending_to_sample(const struct psample *p, ww_sample_t *s)
{
	memset(s, 0, sizeof(*s));
	s->t = p->t;
	s->segment = p->segment;
	if ((s->has_written = p->has & (1u << C_WRITTEN)))
		s->written_bytes = (uint64_t)p->v[C_WRITTEN];
	if ((s->has_poh = p->has & (1u << C_POH)))
		s->power_on_seconds = (uint64_t)p->v[C_POH];
	if ((s->has_media_errors = p->has & (1u << C_MEDIA)))
		s->media_errors = (uint64_t)p->v[C_MEDIA];
}

/* A new sample of d (already queued): it is the latest; it starts every
 * baseline of a new segment, and is the baseline of every window that had
 * none in its segment. */
void ww_hist_note_sample(struct hdrive *d, const struct psample *p)
{
	bool new_seg = !d->has_latest || d->latest.segment != p->segment;
	ww_sample_t s;

	pending_to_sample(p, &s);
	for (int k = 0; k < WW_HBASE; k++) {
		if (new_seg) {
			drop_ahead(d, k);
			d->base_state[k] = s.has_written ? BASE_FOUND : BASE_NONE;
		} else if (d->base_state[k] == BASE_NONE && s.has_written) {
			d->base_state[k] = BASE_FOUND;
		} else {
			continue;
		}
		d->base[k] = s;
	}
	d->latest = s;
	d->has_latest = true;
}

/* Read d's number and latest sample from the file, once; newer samples
 * still pending count. Returns 0 or -EIO. */
int ww_hist_load_locked(ww_history_t *h, struct hdrive *d)
{
	sqlite3_stmt *st;
	int rc;

	if (d->loaded)
		return 0;
	if (!d->n) {
		int64_t n = ww_hist_drive_n_locked(h, d->id);

		if (n < 0)
			return -EIO;
		d->n = n;
	}
	d->has_latest = false;
	if (d->n) {
		st = ww_hist_stmt(h, HS_LATEST);
		if (!st)
			return -EIO;
		sqlite3_bind_int64(st, 1, d->n);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			ww_hist_row_to_sample(st, 0, &d->latest);
		d->has_latest = rc == SQLITE_ROW;
		if (ww_hist_done(st, rc) != SQLITE_ROW && rc != SQLITE_DONE)
			return -EIO;
	}
	for (size_t i = 0; i < h->n_ps; i++)
		if (h->ps[i].d == d) {
			pending_to_sample(&h->ps[i], &d->latest);
			d->has_latest = true;
		}
	memset(d->base_state, 0, sizeof(d->base_state));
	for (int k = 0; k < WW_HBASE; k++)
		drop_ahead(d, k);
	d->loaded = true;
	return 0;
}

/* Thinning or retention removed rows older than `older_than` (all: another
 * connection changed the file): what may name them is read again. */
void ww_hist_forget_locked(ww_history_t *h, time_t older_than, bool all)
{
	for (size_t i = 0; i < ww_idmap_count(&h->drives); i++) {
		struct hdrive *d = ww_idmap_at(&h->drives, i);

		if (all || (d->has_latest && d->latest.t < older_than))
			d->loaded = false;
		for (int k = 0; k < WW_HBASE; k++) {
			if (all || (d->base_state[k] == BASE_FOUND && d->base[k].t < older_than))
				d->base_state[k] = BASE_UNKNOWN;
			/* rows read ahead may be among those thinned */
			drop_ahead(d, k);
		}
	}
	if (all)
		h->thin_lo[0] = h->thin_lo[1] = 0;
}

int ww_history_latest(ww_history_t *h, const char *id, ww_sample_t *out)
{
	struct hdrive *d;
	int rc;

	pthread_mutex_lock(&h->lock);
	d = ww_hist_drive_locked(h, id, true);
	rc = !d ? -ENOMEM : ww_hist_load_locked(h, d);
	if (!rc && d->has_latest)
		*out = d->latest;
	rc = rc < 0 ? rc : d->has_latest;
	pthread_mutex_unlock(&h->lock);
	return rc;
}

/* The next baseline of slot k from the rows read ahead with the last one:
 * 1 found (rows are consecutive in the file), 0 when they ran out. */
static int from_ahead(struct hdrive *d, int k, int64_t seg, time_t from, ww_sample_t *out)
{
	struct hahead *a = d->ahead[k];

	while (a && a->pos < a->n) {
		const ww_sample_t *s = &a->row[a->pos];

		if (s->t >= from && s->segment == seg) {
			*out = *s;
			return 1;
		}
		a->pos++;
	}
	return 0;
}

/* Oldest sample of d in segment seg with t >= from and bytes written: the
 * rows read ahead, the file (with the rows after it, for slot k), then the
 * pending rows (newer than the file's). 1, 0, -EIO. */
static int seek_base(ww_history_t *h, struct hdrive *d, int k, int64_t seg, time_t from,
		     ww_sample_t *out)
{
	sqlite3_stmt *st;
	int rc;

	if (from_ahead(d, k, seg, from, out))
		return 1;
	if (d->n) {
		struct hahead *a;
		bool found = false;

		st = ww_hist_stmt(h, HS_BASELINE_AHEAD);
		if (!st)
			return -EIO;
		if (!d->ahead[k])
			d->ahead[k] = calloc(1, sizeof(*d->ahead[k]));
		a = d->ahead[k];
		if (a)
			a->n = a->pos = 0;
		sqlite3_bind_int64(st, 1, d->n);
		sqlite3_bind_int64(st, 2, seg);
		sqlite3_bind_int64(st, 3, from);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			if (!found)
				ww_hist_row_to_sample(st, 0, out);
			else if (a && a->n < WW_HAHEAD - 1)
				ww_hist_row_to_sample(st, 0, &a->row[a->n++]);
			found = true;
		}
		ww_hist_done(st, 0);
		if (rc != SQLITE_DONE)
			return -EIO;
		if (found)
			return 1;
	}
	for (size_t i = 0; i < h->n_ps; i++) {
		const struct psample *p = &h->ps[i];

		if (p->d == d && p->t >= from && p->segment == seg && (p->has & (1u << C_WRITTEN))) {
			pending_to_sample(p, out);
			return 1;
		}
	}
	return 0;
}

/* window lengths of the cached baselines, seconds */
static time_t base_len(int k)
{
	return k < WW_WIN_MAX ? (time_t)ww_window_days[k] * WW_DAY_S : WW_DAY_S;
}

/* whether the -wal file beside the database differs (inode, size, change
 * time) from the last call: any commit, ours or another connection's, is
 * written there first. A file that cannot be looked at counts as moved, so
 * SQLite is asked as before. Looked at through a descriptor kept open: a
 * stat of the path walks each of its directories, on the cold cache of a
 * round's start about 11 us more than an fstat (tests/bench/
 * bench_cold_stat.c, docs/benchmarks.md). A file unlinked since (no links
 * left) counts as moved and is opened again by its path at the next look. Closing this descriptor drops no lock of
 * SQLite's: in WAL mode it locks the database and -shm files, never the
 * -wal. */
static bool wal_moved(ww_history_t *h)
{
	struct stat sb;
	bool moved;

	/* the name only when it is opened: asking SQLite for it each look
	 * (its schema lookup) was two fifths of the look in a profile */
	if (h->wal_fd < 0) {
		const char *db = h->db ? sqlite3_db_filename(h->db, "main") : NULL;
		char wal[4096];

		if (db && db[0] && snprintf(wal, sizeof(wal), "%s-wal", db) < (int)sizeof(wal))
			h->wal_fd = open(wal, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	}
	if (h->wal_fd < 0 || fstat(h->wal_fd, &sb) < 0 || sb.st_nlink == 0) {
		if (h->wal_fd >= 0)
			close(h->wal_fd); /* the next look opens the path again */
		h->wal_fd = -1;
		h->wal_known = false;
		return true;
	}
	moved = !h->wal_known || sb.st_ino != h->wal_ino || sb.st_size != h->wal_size ||
		sb.st_ctim.tv_sec != h->wal_ctime.tv_sec ||
		sb.st_ctim.tv_nsec != h->wal_ctime.tv_nsec;
	h->wal_known = true;
	h->wal_ino = sb.st_ino;
	h->wal_size = sb.st_size;
	h->wal_ctime = sb.st_ctim;
	return moved;
}

int ww_history_windows(ww_history_t *h, const char *id, time_t now,
		       ww_sample_t base[WW_WIN_MAX + 1], bool has[WW_WIN_MAX + 1])
{
	struct hdrive *d;
	int rc = 0;

	memset(has, 0, sizeof(bool) * WW_HBASE);
	pthread_mutex_lock(&h->lock);
	/* another writer (a restore, rows seeded by hand): what is kept in
	 * memory is read again. Looked at once per second of collection time
	 * (the reads of one second share the answer), and asked of SQLite
	 * (PRAGMA data_version: no I/O, but a read transaction's four locking
	 * calls and its statement, a seventh of a round's CPU at 3 replayed
	 * drives) only when the write-ahead log, where every commit to a WAL
	 * file lands, is not as it was at the last look: one stat a round */
	if (now != h->version_seen) {
		h->version_seen = now;
		if (wal_moved(h) && ww_hist_changed_locked(h))
			ww_hist_forget_locked(h, 0, true);
	}
	d = ww_hist_drive_locked(h, id, true);
	rc = !d ? -ENOMEM : ww_hist_load_locked(h, d);
	if (rc < 0 || !d->has_latest)
		goto out;
	for (int k = 0; k < WW_HBASE; k++) {
		time_t from = now - base_len(k);
		int *state = &d->base_state[k];
		int j;

		if (*state == BASE_FOUND && d->base[k].segment != d->latest.segment)
			*state = BASE_UNKNOWN;
		if (*state == BASE_UNKNOWN || (*state == BASE_FOUND && d->base[k].t < from)) {
			for (j = 0; j < k && base_len(j) != base_len(k); j++)
				;
			if (j < k) { /* same window as an earlier slot */
				*state = d->base_state[j];
				d->base[k] = d->base[j];
			} else {
				int f = seek_base(h, d, k, d->latest.segment, from, &d->base[k]);

				if (f < 0) {
					rc = -EIO;
					goto out;
				}
				*state = f ? BASE_FOUND : BASE_NONE;
			}
		}
		if ((has[k] = *state == BASE_FOUND))
			base[k] = d->base[k];
	}
out:
	pthread_mutex_unlock(&h->lock);
	return rc;
}
