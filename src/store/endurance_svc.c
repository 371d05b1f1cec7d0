/* Endurance service (contract in endurance.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/store.h"

struct entry {
	char id[160];
	ww_endurance_t e;
};

struct ww_endurance_svc {
	ww_ratings_t table, overrides;
	ww_history_t *hist;
	pthread_mutex_t lock;
	struct entry *v;           /* sorted by id */
	size_t n;
	uint64_t generation;       /* results published */
};

static ww_endurance_svc_t *global_svc;

void ww_endurance_set_global(ww_endurance_svc_t *s)
{
	__atomic_store_n(&global_svc, s, __ATOMIC_RELEASE);
}

ww_endurance_svc_t *ww_endurance_global(void)
{
	return __atomic_load_n(&global_svc, __ATOMIC_ACQUIRE);
}

ww_endurance_svc_t *ww_endurance_svc_new(ww_ratings_t *table, ww_ratings_t *overrides,
					 ww_history_t *hist)
{
	ww_endurance_svc_t *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (table) {
		s->table = *table;
		memset(table, 0, sizeof(*table));
	}
	if (overrides) {
		s->overrides = *overrides;
		memset(overrides, 0, sizeof(*overrides));
	}
	s->hist = hist;
	pthread_mutex_init(&s->lock, NULL);
	return s;
}

void ww_endurance_svc_free(ww_endurance_svc_t *s)
{
	if (!s)
		return;
	if (ww_endurance_global() == s)
		ww_endurance_set_global(NULL);
	ww_ratings_free(&s->table);
	ww_ratings_free(&s->overrides);
	ww_history_close(s->hist);
	pthread_mutex_destroy(&s->lock);
	free(s->v);
	free(s);
}

ww_history_t *ww_endurance_history(ww_endurance_svc_t *s)
{
	return s ? s->hist : NULL;
}

static const char *iface_of(const ww_drive_state_t *st)
{
	switch (ww_drive_transport(&st->drive, st->has_health ? &st->health : NULL)) {
	case WW_TRANSPORT_NVME:
		return "nvme";
	case WW_TRANSPORT_SATA:
		return "sata";
	case WW_TRANSPORT_SAS:
		return "sas";
	default:
		return "";
	}
}

void ww_endurance_compute_state(ww_endurance_svc_t *s, const ww_drive_state_t *st,
				const ww_sample_t *latest, time_t now, ww_endurance_t *out)
{
	const ww_health_t *h = st->has_health ? &st->health : NULL;
	const char *model = h && h->model[0] ? h->model : st->drive.sysfs_model;
	const char *serial = h && h->serial[0] ? h->serial : st->drive.sysfs_serial;
	ww_sample_t base[WW_WIN_MAX + 1], last;
	bool has[WW_WIN_MAX + 1];
	ww_model_in_t in = { 0 };

	in.h = h;
	in.iface = iface_of(st);
	in.drive_capacity_bytes = h && WW_HAS(h->capacity_bytes) ? h->capacity_bytes.value
								  : st->drive.capacity_bytes;
	in.present = st->present;
	in.first_seen = st->first_seen;
	in.config = ww_ratings_match_override(&s->overrides, st->drive.id, serial, model);
	in.table = ww_ratings_match(&s->table, model, in.iface);
	if (!latest && s->hist && ww_history_latest(s->hist, st->drive.id, &last) == 1)
		latest = &last;
	in.latest = latest;
	/* baselines from the history's memory: no query per collection */
	if (latest && s->hist && ww_history_windows(s->hist, st->drive.id, now, base, has) == 0) {
		for (int w = 0; w < WW_WIN_MAX; w++)
			if (has[w])
				in.base[w] = &base[w];
		if (has[WW_WIN_MAX])
			in.base_24h = &base[WW_WIN_MAX];
	}
	ww_model_compute(&in, now, out);
}

/* index of id in the sorted entries, or where it would go (*found) */
static size_t find(const ww_endurance_svc_t *s, const char *id, bool *found)
{
	size_t lo = 0, hi = s->n;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(id, s->v[mid].id);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static void publish(ww_endurance_svc_t *s, const char *id, const ww_endurance_t *e)
{
	bool found;
	size_t at;

	pthread_mutex_lock(&s->lock);
	at = find(s, id, &found);
	if (!found) {
		struct entry *nv = realloc(s->v, (s->n + 1) * sizeof(*nv));

		if (!nv) {
			pthread_mutex_unlock(&s->lock);
			return;
		}
		s->v = nv;
		memmove(&s->v[at + 1], &s->v[at], (s->n - at) * sizeof(*nv));
		snprintf(s->v[at].id, sizeof(s->v[at].id), "%s", id);
		s->n++;
	}
	s->v[at].e = *e;
	s->generation++;
	pthread_mutex_unlock(&s->lock);
}

bool ww_endurance_get(ww_endurance_svc_t *s, const char *id, ww_endurance_t *out)
{
	bool found = false;
	size_t at;

	if (!s || !id)
		return false;
	pthread_mutex_lock(&s->lock);
	at = find(s, id, &found);
	if (found)
		*out = s->v[at].e;
	pthread_mutex_unlock(&s->lock);
	return found;
}

uint64_t ww_endurance_generation(ww_endurance_svc_t *s)
{
	uint64_t g;

	if (!s)
		return 0;
	pthread_mutex_lock(&s->lock);
	g = s->generation;
	pthread_mutex_unlock(&s->lock);
	return g;
}

void ww_endurance_after_collect(void *arg, ww_store_t *store, const ww_drive_t *d, int rc,
				time_t now)
{
	ww_endurance_svc_t *s = arg;
	ww_drive_state_t *st;
	ww_sample_t latest, *lp = NULL;
	ww_endurance_t *e;

	if (!s || !store || !d)
		return;
	/* this drive's state only: acquiring a snapshot here would publish the
	 * store's working copy, and the next update would copy every drive */
	st = malloc(sizeof(*st));
	e = malloc(sizeof(*e));
	if (st && e && ww_store_get(store, d->id, st) == 0) {
		if (rc == 0 && st->has_health && s->hist &&
		    ww_history_append(s->hist, d->id, &st->health, st->present, now, &latest) == 0)
			lp = &latest;
		ww_endurance_compute_state(s, st, lp, now, e);
		publish(s, d->id, e);
	}
	free(e);
	free(st);
}

void ww_endurance_probe_burst(void *svc, const char *id, const ww_hprobe_t *p, time_t now)
{
	ww_endurance_svc_t *s = svc;

	if (s && s->hist && id && p)
		ww_history_append_probe(s->hist, id, p, now);
}
