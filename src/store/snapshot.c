/* Per-drive state and copy-on-write snapshots (see store.h).
 *
 * A snapshot is a sorted list of pointers to per-drive records; a record is
 * shared by every snapshot that lists it unchanged. Writers change a private
 * working copy (`work`): the first change after a publication copies the
 * published list of pointers (not the drives' states), and a change copies
 * only the record it changes, once per publication (copy-on-write). So a
 * tick with one changed drive copies that drive's record and N pointers,
 * where the whole snapshot was copied before. The working copy is published
 * when a reader asks for a snapshot and something changed, so a reader
 * still sees every change made before its acquire.
 *
 * A record holds its drive's discovery result, health record and read
 * report by pointer: immutable pieces with a count of their own, which a
 * copy of the record shares, and which a discovery or a read that returned
 * the same bytes keeps. So a record is its counters (~0.8 KB), the
 * discovery result (1.8 KB) and health (9.7 KB) are there once per drive
 * and value, and a report is as long as its notes (a copy of the whole
 * state was 15.4 KB, twice per drive while the working copy differed from
 * the published one).
 *
 * Two mutexes: `write_lock` serialises writers and publication, `swap_lock`
 * only covers reading or replacing the `cur` pointer. */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/store.h"

struct ww_store {
	pthread_mutex_t write_lock;
	pthread_mutex_t swap_lock;
	ww_snapshot_t *cur;
	ww_snapshot_t *work;    /* unpublished changes (write_lock), or NULL */
	uint64_t retention_s;
	uint64_t publications;  /* snapshots published (write_lock) */
	uint64_t copies;        /* drive records copied (write_lock) */
};

/* A drive's state, shared by every snapshot that lists it unchanged; a
 * record is changed in place only while one snapshot (the unpublished
 * working copy) holds it. */
struct rec {
	unsigned long refs; /* atomic */
	ww_drive_state_t st;
};

/* An immutable piece of a record (its health, its report), `len` bytes,
 * shared by every record that points to it. */
struct piece {
	unsigned long refs; /* atomic */
	size_t len;
	max_align_t data[];
};

static struct piece *piece_of(const void *data)
{
	return (struct piece *)((char *)data - offsetof(struct piece, data));
}

/* a new piece holding len bytes of src, or NULL */
static const void *piece_new(const void *src, size_t len)
{
	struct piece *p = malloc(sizeof(*p) + len);

	if (!p)
		return NULL;
	__atomic_store_n(&p->refs, 1, __ATOMIC_RELEASE);
	p->len = len;
	memcpy(p->data, src, len);
	return p->data;
}

static void piece_ref(const void *data)
{
	if (data)
		__atomic_add_fetch(&piece_of(data)->refs, 1, __ATOMIC_ACQ_REL);
}

static void piece_unref(const void *data)
{
	struct piece *p;

	if (!data)
		return;
	p = piece_of(data);
	if (__atomic_sub_fetch(&p->refs, 1, __ATOMIC_ACQ_REL) == 0)
		free(p);
}

/* the piece holds exactly these len bytes */
static bool piece_same(const void *data, const void *src, size_t len)
{
	return data && piece_of(data)->len == len && !memcmp(data, src, len);
}

static struct rec *rec_of(const ww_drive_state_t *st)
{
	return (struct rec *)((char *)st - offsetof(struct rec, st));
}

static ww_drive_state_t *rec_new(const ww_drive_state_t *from)
{
	struct rec *r = malloc(sizeof(*r));

	if (!r)
		return NULL;
	__atomic_store_n(&r->refs, 1, __ATOMIC_RELEASE);
	if (from) {
		r->st = *from;
		piece_ref(r->st.drive);
		piece_ref(r->st.health);
		piece_ref(r->st.report);
	} else {
		memset(&r->st, 0, sizeof(r->st));
	}
	return &r->st;
}

static const ww_drive_state_t *rec_ref(const ww_drive_state_t *st)
{
	__atomic_add_fetch(&rec_of(st)->refs, 1, __ATOMIC_ACQ_REL);
	return st;
}

static void rec_unref(const ww_drive_state_t *st)
{
	struct rec *r = rec_of(st);

	if (__atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		piece_unref(r->st.drive);
		piece_unref(r->st.health);
		piece_unref(r->st.report);
		free(r);
	}
}

static bool rec_shared(const ww_drive_state_t *st)
{
	return __atomic_load_n(&rec_of(st)->refs, __ATOMIC_ACQUIRE) > 1;
}

static ww_snapshot_t *snap_alloc(size_t n)
{
	ww_snapshot_t *snap = calloc(1, sizeof(*snap));

	if (!snap)
		return NULL;
	if (n) {
		snap->drives = calloc(n, sizeof(*snap->drives));
		if (!snap->drives) {
			free(snap);
			return NULL;
		}
	}
	snap->n = n;
	__atomic_store_n(&snap->refs_, 1, __ATOMIC_RELEASE);
	return snap;
}

void ww_snapshot_release(ww_snapshot_t *snap)
{
	if (!snap)
		return;
	if (__atomic_sub_fetch(&snap->refs_, 1, __ATOMIC_ACQ_REL) == 0) {
		for (size_t i = 0; i < snap->n; i++)
			if (snap->drives[i])
				rec_unref(snap->drives[i]);
		free(snap->drives);
		free(snap);
	}
}

ww_store_t *ww_store_new(uint64_t retention_s)
{
	ww_store_t *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->cur = snap_alloc(0);
	if (!s->cur) {
		free(s);
		return NULL;
	}
	pthread_mutex_init(&s->write_lock, NULL);
	pthread_mutex_init(&s->swap_lock, NULL);
	s->retention_s = retention_s ? retention_s : WW_STORE_DEFAULT_RETENTION_S;
	return s;
}

void ww_store_set_retention(ww_store_t *s, uint64_t retention_s)
{
	pthread_mutex_lock(&s->write_lock);
	s->retention_s = retention_s ? retention_s : WW_STORE_DEFAULT_RETENTION_S;
	pthread_mutex_unlock(&s->write_lock);
}

void ww_store_free(ww_store_t *s)
{
	if (!s)
		return;
	ww_snapshot_release(s->work);
	ww_snapshot_release(s->cur);
	pthread_mutex_destroy(&s->write_lock);
	pthread_mutex_destroy(&s->swap_lock);
	free(s);
}

static void swap_in(ww_store_t *s, ww_snapshot_t *next, time_t now);

ww_snapshot_t *ww_store_acquire(ww_store_t *s)
{
	ww_snapshot_t *snap;

	/* unlocked peek: a change made before this call holds write_lock until
	 * `work` is set, and is seen here or published by its own writer's
	 * next reader; taking the lock settles it */
	if (__atomic_load_n(&s->work, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&s->write_lock);
		if (s->work) {
			snap = s->work;
			__atomic_store_n(&s->work, NULL, __ATOMIC_RELEASE);
			swap_in(s, snap, snap->built);
		}
		pthread_mutex_unlock(&s->write_lock);
	}
	pthread_mutex_lock(&s->swap_lock);
	snap = s->cur;
	__atomic_add_fetch(&snap->refs_, 1, __ATOMIC_ACQ_REL);
	pthread_mutex_unlock(&s->swap_lock);
	return snap;
}

/* Caller holds write_lock; `next` carries its single reference to the store.
 * A published working copy keeps the generation its changes counted. */
static void swap_in(ww_store_t *s, ww_snapshot_t *next, time_t now)
{
	ww_snapshot_t *old;

	if (next->generation <= s->cur->generation)
		next->generation = s->cur->generation + 1;
	next->built = now;
	s->publications++;
	pthread_mutex_lock(&s->swap_lock);
	old = s->cur;
	s->cur = next;
	pthread_mutex_unlock(&s->swap_lock);
	ww_snapshot_release(old);
}

uint64_t ww_store_publications(ww_store_t *s)
{
	uint64_t n;

	pthread_mutex_lock(&s->write_lock);
	n = s->publications;
	pthread_mutex_unlock(&s->write_lock);
	return n;
}

uint64_t ww_store_record_copies(ww_store_t *s)
{
	uint64_t n;

	pthread_mutex_lock(&s->write_lock);
	n = s->copies;
	pthread_mutex_unlock(&s->write_lock);
	return n;
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (const void *const *)a,
		  y = (uintptr_t) * (const void *const *)b;

	return (x > y) - (x < y);
}

/* sorts the n pointers of p and returns how many differ */
static size_t distinct(const void **p, size_t n)
{
	size_t k = 0;

	qsort(p, n, sizeof(*p), cmp_ptr);
	for (size_t i = 0; i < n; i++)
		if (!i || p[i] != p[i - 1])
			p[k++] = p[i];
	return k;
}

void ww_store_bytes(ww_store_t *s, ww_store_bytes_t *out)
{
	const ww_snapshot_t *lists[2];
	const void **recs, **pieces;
	size_t nr = 0, np = 0, max;

	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&s->write_lock);
	lists[0] = s->cur;
	lists[1] = s->work;
	max = s->cur->n + (s->work ? s->work->n : 0) + 1;
	recs = malloc(max * sizeof(*recs));
	pieces = malloc(3 * max * sizeof(*pieces));
	for (int l = 0; recs && pieces && l < 2; l++)
		for (size_t i = 0; lists[l] && i < lists[l]->n; i++) {
			const ww_drive_state_t *st = lists[l]->drives[i];

			recs[nr++] = st;
			pieces[np++] = st->drive;
			if (st->health)
				pieces[np++] = st->health;
			if (st->report)
				pieces[np++] = st->report;
		}
	if (recs && pieces) {
		out->records = distinct(recs, nr);
		out->record_bytes = out->records * sizeof(ww_drive_state_t);
		out->pieces = distinct(pieces, np);
		for (size_t i = 0; i < out->pieces; i++)
			out->piece_bytes += piece_of(pieces[i])->len;
	}
	pthread_mutex_unlock(&s->write_lock);
	free(recs);
	free(pieces);
}

static int cmp_state(const void *a, const void *b)
{
	return strcmp((*(const ww_drive_state_t *const *)a)->drive->id,
		      (*(const ww_drive_state_t *const *)b)->drive->id);
}

static int cmp_id_state(const void *id, const void *b)
{
	return strcmp(id, (*(const ww_drive_state_t *const *)b)->drive->id);
}

static size_t find_index(const ww_snapshot_t *snap, const char *id)
{
	const ww_drive_state_t *const *p;

	if (!snap || !id || !snap->n)
		return SIZE_MAX;
	p = bsearch(id, snap->drives, snap->n, sizeof(*snap->drives), cmp_id_state);
	return p ? (size_t)(p - snap->drives) : SIZE_MAX;
}

const ww_drive_state_t *ww_snapshot_find(const ww_snapshot_t *snap, const char *id)
{
	size_t i = find_index(snap, id);

	return i == SIZE_MAX ? NULL : snap->drives[i];
}

bool ww_drive_state_expired(const ww_drive_state_t *st, uint64_t retention_s, time_t now)
{
	if (st->present || !st->missing_since)
		return false;
	return now > st->missing_since && (uint64_t)(now - st->missing_since) > retention_s;
}

int64_t ww_drive_state_values_age(const ww_drive_state_t *st, time_t now)
{
	if (!st->health || !st->values_time)
		return -1;
	return now > st->values_time ? (int64_t)(now - st->values_time) : 0;
}

int ww_store_get(ww_store_t *s, const char *id, ww_drive_state_t *out)
{
	const ww_drive_state_t *st;

	pthread_mutex_lock(&s->write_lock);
	st = ww_snapshot_find(s->work ? s->work : s->cur, id);
	if (st) {
		*out = *st;
		piece_ref(out->drive);
		piece_ref(out->health);
		piece_ref(out->report);
	}
	pthread_mutex_unlock(&s->write_lock);
	return st ? 0 : -ENOENT;
}

void ww_drive_state_put(ww_drive_state_t *copy)
{
	if (!copy)
		return;
	piece_unref(copy->drive);
	piece_unref(copy->health);
	piece_unref(copy->report);
	copy->drive = NULL;
	copy->health = NULL;
	copy->report = NULL;
}

static int cmp_drive_ptr(const void *a, const void *b)
{
	return strcmp((*(const ww_drive_t *const *)a)->id, (*(const ww_drive_t *const *)b)->id);
}

static int cmp_id_drive(const void *id, const void *b)
{
	return strcmp(id, (*(const ww_drive_t *const *)b)->id);
}

/* st, or a private copy of it when it is shared (counted) */
static ww_drive_state_t *writable(ww_store_t *s, const ww_drive_state_t *st)
{
	ww_drive_state_t *w;

	if (!rec_shared(st))
		return (ww_drive_state_t *)st; /* held by the working copy alone */
	w = rec_new(st);
	if (w) {
		s->copies++;
		rec_unref(st);
	}
	return w;
}

int ww_store_sync(ww_store_t *s, const ww_drive_t *drives, size_t n, time_t now)
{
	ww_snapshot_t *cur, *next;
	const ww_drive_t **sorted = n ? malloc(n * sizeof(*sorted)) : NULL;
	size_t k = 0;

	if (n && !sorted)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		sorted[i] = &drives[i];
	qsort(sorted, n, sizeof(*sorted), cmp_drive_ptr);
	pthread_mutex_lock(&s->write_lock);
	cur = s->work ? s->work : s->cur;
	next = snap_alloc(cur->n + n);
	if (!next) {
		pthread_mutex_unlock(&s->write_lock);
		free(sorted);
		return -ENOMEM;
	}
	/* known drives: refresh, mark missing, or drop; a record is copied
	 * only when this changes it */
	for (size_t i = 0; i < cur->n; i++) {
		const ww_drive_state_t *st = cur->drives[i];
		const ww_drive_t *const *f = n
			? bsearch(st->drive->id, sorted, n, sizeof(*sorted), cmp_id_drive)
			: NULL;
		ww_drive_state_t *w;

		if (f) {
			bool same = piece_same(st->drive, *f, sizeof(**f));

			if (st->present && !st->missing_since && same) {
				next->drives[k++] = rec_ref(st);
				continue;
			}
			w = rec_new(st);
			if (!w)
				goto nomem;
			s->copies++;
			if (!same) {
				const void *d = piece_new(*f, sizeof(**f));

				if (!d) {
					rec_unref(w);
					goto nomem;
				}
				piece_unref(w->drive);
				w->drive = d;
			}
			w->present = true;
			w->missing_since = 0;
		} else {
			ww_drive_state_t t;

			if (!st->present && st->missing_since) {
				if (ww_drive_state_expired(st, s->retention_s, now))
					continue;
				next->drives[k++] = rec_ref(st);
				continue;
			}
			t = *st;
			t.missing_since = now;
			t.present = false;
			if (ww_drive_state_expired(&t, s->retention_s, now))
				continue;
			w = rec_new(&t);
			if (!w)
				goto nomem;
			s->copies++;
		}
		next->drives[k++] = w;
	}
	/* new drives (ids repeated in `drives` are added once) */
	for (size_t i = 0; i < n; i++) {
		ww_drive_state_t *w;

		if ((i && !strcmp(sorted[i - 1]->id, sorted[i]->id)) ||
		    find_index(cur, sorted[i]->id) != SIZE_MAX)
			continue;
		w = rec_new(NULL);
		if (!w)
			goto nomem;
		w->drive = piece_new(sorted[i], sizeof(*sorted[i]));
		if (!w->drive) {
			rec_unref(w);
			goto nomem;
		}
		w->present = true;
		w->first_seen = now;
		next->drives[k++] = w;
	}
	next->n = k;
	qsort(next->drives, next->n, sizeof(*next->drives), cmp_state);
	if (s->work) { /* its changes are in `next` */
		next->generation = s->work->generation;
		ww_snapshot_release(s->work);
		__atomic_store_n(&s->work, NULL, __ATOMIC_RELEASE);
	}
	swap_in(s, next, now);
	pthread_mutex_unlock(&s->write_lock);
	free(sorted);
	return 0;
nomem:
	next->n = k;
	ww_snapshot_release(next);
	pthread_mutex_unlock(&s->write_lock);
	free(sorted);
	return -ENOMEM;
}

int ww_store_drop(ww_store_t *s, const char *id, time_t now)
{
	ww_snapshot_t *cur, *next;
	size_t k = 0;

	pthread_mutex_lock(&s->write_lock);
	cur = s->work ? s->work : s->cur;
	if (!ww_snapshot_find(cur, id)) {
		pthread_mutex_unlock(&s->write_lock);
		return -ENOENT;
	}
	next = snap_alloc(cur->n);
	if (!next) {
		pthread_mutex_unlock(&s->write_lock);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cur->n; i++)
		if (strcmp(cur->drives[i]->drive->id, id))
			next->drives[k++] = rec_ref(cur->drives[i]);
	next->n = k;
	next->generation = cur->generation;
	if (s->work) {
		ww_snapshot_release(s->work);
		__atomic_store_n(&s->work, NULL, __ATOMIC_RELEASE);
	}
	swap_in(s, next, now);
	pthread_mutex_unlock(&s->write_lock);
	return 0;
}

/* Let `fn` change drive `id` in the working copy. The first change after a
 * publication makes the working copy: the published snapshot's list of
 * records, each shared (no drive's state is copied); a change copies only
 * the record it changes, once per publication. */
static int modify_one(ww_store_t *s, const char *id, time_t now,
		      void (*fn)(ww_drive_state_t *st, const void *arg), const void *arg)
{
	ww_snapshot_t *work;
	ww_drive_state_t *w;
	size_t i;
	int ret = 0;

	pthread_mutex_lock(&s->write_lock);
	if (find_index(s->work ? s->work : s->cur, id) == SIZE_MAX) {
		ret = -ENOENT;
		goto out;
	}
	if (!s->work) {
		work = snap_alloc(s->cur->n);
		if (!work) {
			ret = -ENOMEM;
			goto out;
		}
		for (size_t j = 0; j < s->cur->n; j++)
			work->drives[j] = rec_ref(s->cur->drives[j]);
		work->generation = s->cur->generation;
		__atomic_store_n(&s->work, work, __ATOMIC_RELEASE);
	}
	work = s->work;
	i = find_index(work, id);
	w = writable(s, work->drives[i]);
	if (!w) {
		ret = -ENOMEM;
		goto out;
	}
	work->drives[i] = w;
	fn(w, arg);
	work->generation++;
	work->built = now;
out:
	pthread_mutex_unlock(&s->write_lock);
	return ret;
}

struct update_arg {
	int rc;
	const ww_health_t *h;
	const ww_read_report_t *r; /* never NULL with h */
	size_t r_len;
	double duration_s;
	time_t now;
	/* out: the pieces apply_update replaced, freed after the lock (when
	 * no snapshot holds them any more); nomem: a piece could not be made
	 * (the drive keeps its previous values) */
	const void *old_h, *old_r;
	bool nomem;
};

/* *held becomes a piece of src's len bytes; a piece of the same bytes is
 * kept (a read that changed nothing costs no memory). What it replaces
 * goes to *old. False when no piece could be made (*held unchanged). */
static bool take_piece(const void **held, const void **old, const void *src, size_t len)
{
	const void *p;

	if (piece_same(*held, src, len))
		return true;
	p = piece_new(src, len);
	if (!p)
		return false;
	*old = *held;
	*held = p;
	return true;
}

static void apply_update(ww_drive_state_t *st, const void *arg)
{
	struct update_arg *u = (struct update_arg *)arg; /* ww_store_update's own */

	st->collections_total++;
	st->last_collect = u->now;
	st->last_rc = u->rc;
	st->last_duration_s = u->duration_s;
	st->hung = false;
	st->hung_since = 0;
	if (u->rc == 0 && u->h) {
		const void *h = st->health, *r = st->report;

		if (!take_piece(&h, &u->old_h, u->h, sizeof(*u->h)) ||
		    !take_piece(&r, &u->old_r, u->r, u->r_len)) {
			/* both or neither: the report goes with its record */
			if (h != st->health) {
				piece_unref(h);
				u->old_h = NULL;
			}
			u->nomem = true;
			st->last_rc = -ENOMEM;
			st->last_success = false;
			st->errors_total++;
			return;
		}
		st->health = h;
		st->report = r;
		st->values_time = u->now;
		st->standby = false;
		st->standby_since = 0;
		st->last_success = true;
		st->errors_total += u->r->n_errors + u->r->n_decode_errors;
	} else if (u->rc == 1) {
		/* a capture's standby is from when it was taken, which it
		 * does not record: not known, rather than this read's time */
		if (!st->standby)
			st->standby_since = st->drive->from_capture ? 0 : u->now;
		st->standby = true;
		st->last_success = true;
	} else {
		st->last_success = false;
		st->errors_total++;
	}
}

int ww_store_update(ww_store_t *s, const char *id, int rc, const ww_health_t *h,
		    const ww_read_report_t *r, double duration_s, time_t now)
{
	static const ww_read_report_t no_report;
	struct update_arg u = {
		.rc = rc, .h = h, .r = r ? r : &no_report, .duration_s = duration_s, .now = now
	};
	int ret;

	if (rc == 0 && !h)
		u.rc = -EINVAL;
	u.r_len = ww_read_report_size(u.r);
	ret = modify_one(s, id, now, apply_update, &u);
	piece_unref(u.old_h);
	piece_unref(u.old_r);
	return ret ? ret : u.nomem ? -ENOMEM : 0;
}

struct hung_arg {
	bool hung;
	time_t now;
};

static void apply_hung(ww_drive_state_t *st, const void *arg)
{
	const struct hung_arg *a = arg;

	if (a->hung && !st->hung)
		st->hung_since = a->now;
	if (!a->hung)
		st->hung_since = 0;
	st->hung = a->hung;
}

int ww_store_set_hung(ww_store_t *s, const char *id, bool hung, time_t now)
{
	struct hung_arg a = { hung, now };

	return modify_one(s, id, now, apply_hung, &a);
}

static void apply_probe(ww_drive_state_t *st, const void *arg)
{
	st->probe = *(const ww_probe_summary_t *)arg;
	st->has_probe = true;
}

int ww_store_set_probe(ww_store_t *s, const char *id, const ww_probe_summary_t *p,
		       time_t now)
{
	return modify_one(s, id, now, apply_probe, p);
}

static void apply_self_test(ww_drive_state_t *st, const void *arg)
{
	st->has_self_test = arg != NULL;
	if (arg)
		st->self_test = *(const ww_selftest_state_t *)arg;
	else
		memset(&st->self_test, 0, sizeof(st->self_test));
}

int ww_store_set_self_test(ww_store_t *s, const char *id, const ww_selftest_state_t *st, time_t now)
{
	return modify_one(s, id, now, apply_self_test, st);
}
