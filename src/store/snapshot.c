/* Per-drive state and copy-on-write snapshots (see store.h).
 *
 * Writers change a private working copy (`work`): the first change after a
 * publication copies the published snapshot once, later ones change one
 * drive's state in place, so a collection costs O(1) instead of copying every
 * drive (at 300 drives that copy was a quarter of the service's CPU). The
 * working copy is published when a reader asks for a snapshot and something
 * changed, so a reader still sees every change made before its acquire.
 *
 * Two mutexes: `write_lock` serialises writers and publication, `swap_lock`
 * only covers reading or replacing the `cur` pointer. */
#include <errno.h>
#include <pthread.h>
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
};

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

static int cmp_state(const void *a, const void *b)
{
	return strcmp(((const ww_drive_state_t *)a)->drive.id,
		      ((const ww_drive_state_t *)b)->drive.id);
}

const ww_drive_state_t *ww_snapshot_find(const ww_snapshot_t *snap, const char *id)
{
	ww_drive_state_t key;

	if (!snap || !id || !snap->n)
		return NULL;
	snprintf(key.drive.id, sizeof(key.drive.id), "%s", id);
	/* cppcheck-suppress uninitvar ; cmp_state reads key.drive.id only */
	return bsearch(&key, snap->drives, snap->n, sizeof(*snap->drives), cmp_state);
}

bool ww_drive_state_expired(const ww_drive_state_t *st, uint64_t retention_s, time_t now)
{
	if (st->present || !st->missing_since)
		return false;
	return now > st->missing_since && (uint64_t)(now - st->missing_since) > retention_s;
}

int64_t ww_drive_state_values_age(const ww_drive_state_t *st, time_t now)
{
	if (!st->has_health || !st->values_time)
		return -1;
	return now > st->values_time ? (int64_t)(now - st->values_time) : 0;
}

int ww_store_get(ww_store_t *s, const char *id, ww_drive_state_t *out)
{
	const ww_drive_state_t *st;

	pthread_mutex_lock(&s->write_lock);
	st = ww_snapshot_find(s->work ? s->work : s->cur, id);
	if (st)
		*out = *st;
	pthread_mutex_unlock(&s->write_lock);
	return st ? 0 : -ENOENT;
}

static const ww_drive_t *find_listed(const ww_drive_t *drives, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(drives[i].id, id))
			return &drives[i];
	return NULL;
}

int ww_store_sync(ww_store_t *s, const ww_drive_t *drives, size_t n, time_t now)
{
	ww_snapshot_t *cur, *next;
	size_t k = 0;

	pthread_mutex_lock(&s->write_lock);
	cur = s->work ? s->work : s->cur;
	next = snap_alloc(cur->n + n);
	if (!next) {
		pthread_mutex_unlock(&s->write_lock);
		return -ENOMEM;
	}
	/* known drives: refresh, mark missing, or drop */
	for (size_t i = 0; i < cur->n; i++) {
		ww_drive_state_t *st = &next->drives[k];
		const ww_drive_t *d;

		*st = cur->drives[i];
		d = find_listed(drives, n, st->drive.id);
		if (d) {
			st->drive = *d;
			st->present = true;
			st->missing_since = 0;
		} else {
			if (st->present || !st->missing_since)
				st->missing_since = now;
			st->present = false;
			if (ww_drive_state_expired(st, s->retention_s, now))
				continue;
		}
		k++;
	}
	/* new drives (ids repeated in `drives` are added once) */
	for (size_t i = 0; i < n; i++) {
		bool known = false;

		for (size_t j = 0; j < k && !known; j++)
			known = !strcmp(next->drives[j].drive.id, drives[i].id);
		if (known)
			continue;
		memset(&next->drives[k], 0, sizeof(next->drives[k]));
		next->drives[k].drive = drives[i];
		next->drives[k].present = true;
		next->drives[k].first_seen = now;
		k++;
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
	return 0;
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
		if (strcmp(cur->drives[i].drive.id, id))
			next->drives[k++] = cur->drives[i];
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

/* Let `fn` change drive `id` in the working copy (made from the published
 * snapshot on the first change after a publication). */
static int modify_one(ww_store_t *s, const char *id, time_t now,
		      void (*fn)(ww_drive_state_t *st, const void *arg), const void *arg)
{
	ww_snapshot_t *work;
	const ww_drive_state_t *found;
	int ret = 0;

	pthread_mutex_lock(&s->write_lock);
	if (!ww_snapshot_find(s->work ? s->work : s->cur, id)) {
		ret = -ENOENT;
		goto out;
	}
	if (!s->work) {
		work = snap_alloc(s->cur->n);
		if (!work) {
			ret = -ENOMEM;
			goto out;
		}
		memcpy(work->drives, s->cur->drives, s->cur->n * sizeof(*work->drives));
		work->generation = s->cur->generation;
		__atomic_store_n(&s->work, work, __ATOMIC_RELEASE);
	}
	work = s->work;
	found = ww_snapshot_find(work, id);
	fn(&work->drives[found - work->drives], arg);
	work->generation++;
	work->built = now;
out:
	pthread_mutex_unlock(&s->write_lock);
	return ret;
}

struct update_arg {
	int rc;
	const ww_health_t *h;
	const ww_read_report_t *r;
	double duration_s;
	time_t now;
};

static void apply_update(ww_drive_state_t *st, const void *arg)
{
	const struct update_arg *u = arg;

	st->collections_total++;
	st->last_collect = u->now;
	st->last_rc = u->rc;
	st->last_duration_s = u->duration_s;
	st->hung = false;
	st->hung_since = 0;
	if (u->rc == 0 && u->h) {
		st->health = *u->h;
		if (u->r)
			st->report = *u->r;
		else
			memset(&st->report, 0, sizeof(st->report));
		st->has_health = true;
		st->values_time = u->now;
		st->standby = false;
		st->standby_since = 0;
		st->last_success = true;
		if (u->r)
			st->errors_total += u->r->n_errors + u->r->n_decode_errors;
	} else if (u->rc == 1) {
		/* a capture's standby is from when it was taken, which it
		 * does not record: not known, rather than this read's time */
		if (!st->standby)
			st->standby_since = st->drive.from_capture ? 0 : u->now;
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
	struct update_arg u = { rc, h, r, duration_s, now };

	if (rc == 0 && !h)
		u.rc = -EINVAL;
	return modify_one(s, id, now, apply_update, &u);
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
