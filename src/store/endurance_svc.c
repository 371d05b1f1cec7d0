/* Endurance service (contract in store.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/basic.h"
#include "wearwatch/store.h"

struct entry {
	char id[160];
	bool has_e;
	ww_endurance_t e;
	ww_vmemory_t mem;          /* the verdict's memory of earlier reads */
	/* the ratings row the drive's model matched (-1: none) under table
	 * generation rated_gen (0: not yet): the table's patterns were
	 * matched at every collection, a few hundred regexes */
	uint64_t rated_gen;
	char rated_model[64];
	const char *rated_iface;
	long rated_row;
};

struct ww_store_endurance {
	ww_ratings_t table, overrides;
	ww_history_t *hist;
	pthread_mutex_t lock;
	ww_idmap_t v;              /* struct entry by id: a lookup is a binary search */
	uint64_t generation;       /* results published */
	uint64_t table_gen;        /* ratings tables set (>= 1) */
};

ww_store_endurance_t *ww_store_endurance_new(ww_ratings_t *table, ww_ratings_t *overrides,
					     ww_history_t *hist)
{
	ww_store_endurance_t *s = calloc(1, sizeof(*s));

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
	s->table_gen = 1;
	pthread_mutex_init(&s->lock, NULL);
	ww_idmap_init(&s->v, WW_IDMAP_OF(struct entry, id), NULL);
	return s;
}

void ww_store_endurance_free(ww_store_endurance_t *s)
{
	if (!s)
		return;
	ww_ratings_free(&s->table);
	ww_ratings_free(&s->overrides);
	ww_history_close(s->hist);
	pthread_mutex_destroy(&s->lock);
	ww_idmap_free(&s->v);
	free(s);
}

void ww_store_endurance_set_table(ww_store_endurance_t *s, ww_ratings_t *table)
{
	ww_ratings_t old;

	if (!s || !table)
		return;
	pthread_mutex_lock(&s->lock);
	old = s->table;
	s->table = *table;
	s->table_gen++;
	pthread_mutex_unlock(&s->lock);
	memset(table, 0, sizeof(*table));
	ww_ratings_free(&old);
}

ww_history_t *ww_store_endurance_history(ww_store_endurance_t *s)
{
	return s ? s->hist : NULL;
}

static const char *iface_of(const ww_drive_state_t *st)
{
	switch (ww_drive_transport(st->drive, st->health)) {
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

void ww_store_endurance_compute(ww_store_endurance_t *s, const ww_drive_state_t *st,
				const ww_sample_t *latest, time_t now, ww_endurance_t *out)
{
	const ww_health_t *h = st->health;
	const char *model = h && h->model[0] ? h->model : st->drive->sysfs_model;
	const char *serial = h && h->serial[0] ? h->serial : st->drive->sysfs_serial;
	/* the windows and, last, the 24 h baseline ww_history_windows gives */
	ww_sample_t base[WW_WIN_MAX + 1], last;
	bool has[WW_WIN_MAX + 1];
	ww_model_in_t in = { 0 };
	ww_rating_row_t row;
	const ww_rating_row_t *match;
	struct entry *x;

	in.h = h;
	in.iface = iface_of(st);
	in.drive_capacity_bytes = h && WW_HAS(h->capacity_bytes) ? h->capacity_bytes.value
								 : st->drive->capacity_bytes;
	in.present = st->present;
	in.first_seen = st->first_seen;
	in.config = ww_ratings_match_override(&s->overrides, st->drive->id, serial, model);
	/* a copy: a reload may replace the table while the model runs */
	pthread_mutex_lock(&s->lock);
	x = ww_idmap_find(&s->v, st->drive->id);
	if (x && x->rated_gen == s->table_gen && x->rated_iface == in.iface &&
	    !strcmp(x->rated_model, model)) {
		match = x->rated_row < 0 ? NULL : &s->table.rows[x->rated_row];
	} else {
		match = ww_ratings_match(&s->table, model, in.iface);
		if (x && strlen(model) < sizeof(x->rated_model)) {
			x->rated_gen = s->table_gen;
			x->rated_iface = in.iface;
			snprintf(x->rated_model, sizeof(x->rated_model), "%s", model);
			x->rated_row = match ? (long)(match - s->table.rows) : -1;
		}
	}
	if (match)
		row = *match;
	pthread_mutex_unlock(&s->lock);
	in.table = match ? &row : NULL;
	if (!latest && s->hist && ww_history_latest(s->hist, st->drive->id, &last) == 1)
		latest = &last;
	in.latest = latest;
	/* baselines from the history's memory: no query per collection */
	if (latest && s->hist && ww_history_windows(s->hist, st->drive->id, now, base, has) == 0) {
		for (int w = 0; w < WW_WIN_MAX; w++)
			if (has[w])
				in.base[w] = &base[w];
	}
	ww_model_compute(&in, now, out);
}

/* publish e; with h (a read that returned data at t) fold it into the
 * verdict's memory too */
static void publish(ww_store_endurance_t *s, const ww_health_cfg_t *cfg, const ww_drive_t *d,
		    const ww_endurance_t *e, const ww_health_t *h, time_t t)
{
	struct entry *x;

	pthread_mutex_lock(&s->lock);
	x = ww_idmap_get(&s->v, d->id, NULL);
	if (x) {
		x->e = *e;
		x->has_e = true;
		if (h)
			ww_verdict_remember(&x->mem, h, t, cfg ? cfg->increase_window_s : 86400);
	}
	s->generation++;
	pthread_mutex_unlock(&s->lock);
}

bool ww_store_endurance_get(ww_store_endurance_t *s, const char *id, ww_endurance_t *out)
{
	const struct entry *x;
	bool found;

	if (!s || !id)
		return false;
	pthread_mutex_lock(&s->lock);
	x = ww_idmap_find(&s->v, id);
	found = x && x->has_e;
	if (found)
		*out = x->e;
	pthread_mutex_unlock(&s->lock);
	return found;
}

uint64_t ww_store_endurance_generation(ww_store_endurance_t *s)
{
	uint64_t g;

	if (!s)
		return 0;
	pthread_mutex_lock(&s->lock);
	g = s->generation;
	pthread_mutex_unlock(&s->lock);
	return g;
}

void ww_store_endurance_after_collect(ww_store_endurance_t *s, const ww_thresholds_t *t,
				      ww_store_t *store, const ww_drive_t *d, int rc, time_t now)
{
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
		if (rc == 0 && st->health && s->hist &&
		    ww_history_append(s->hist, d->id, st->health, st->present, now, &latest) == 0)
			lp = &latest;
		ww_store_endurance_compute(s, st, lp, now, e);
		publish(s, ww_thresholds_for(t, d->id, d->block), st->drive, e,
			rc == 0 ? st->health : NULL, now);
		ww_drive_state_put(st);
	}
	free(e);
	free(st);
}

void ww_store_endurance_probe_burst(void *svc, const char *id, const ww_hprobe_t *p, time_t now)
{
	ww_store_endurance_t *s = svc;

	if (s && s->hist && id && p)
		ww_history_append_probe(s->hist, id, p, now);
}

void ww_store_endurance_drift_burst(ww_store_endurance_t *s, const ww_thresholds_t *t,
				    const ww_drive_t *d, ww_hdrift_t *b)
{
	const ww_health_cfg_t *cfg;
	ww_health_cfg_t dflt;
	double p99[100];
	ww_drift_base_t base = { 0 };
	long n;

	if (!s || !s->hist || !d || !b)
		return;
	cfg = ww_thresholds_for(t, d->id, d->block);
	if (!cfg) {
		ww_health_cfg_defaults(&dflt);
		cfg = &dflt;
	}
	n = ww_history_drift_baseline(s->hist, d->id, p99,
				      cfg->drift_bursts < 100 ? cfg->drift_bursts : 100);
	if (n > 0)
		ww_drift_baseline(p99, (size_t)n, cfg->drift_bursts, &base);
	b->base_n = base.n;
	b->base_p99_s = base.p99_s;
	/* a burst without a successful read says nothing of latency */
	b->in_baseline = b->has_latency &&
		ww_drift_enters(&base, cfg->drift_bursts, cfg->drift_percent, b->p99_s);
	ww_history_append_drift(s->hist, d->id, b, cfg->drift_bursts);
}

int ww_store_endurance_drift_latest(ww_store_endurance_t *s, const char *id, ww_hdrift_t *out)
{
	if (!s || !s->hist)
		return 0;
	return ww_history_drift_latest(s->hist, id, out);
}

/* the drive's endurance result and memory, copied under the lock */
static bool lookup(ww_store_endurance_t *s, const char *id, ww_endurance_t *e, bool *has_e,
		   ww_vmemory_t *mem)
{
	const struct entry *x;

	*has_e = false;
	if (!s)
		return false;
	pthread_mutex_lock(&s->lock);
	x = ww_idmap_find(&s->v, id);
	if (x) {
		*has_e = x->has_e;
		*e = x->e;
		*mem = x->mem;
	}
	pthread_mutex_unlock(&s->lock);
	return x != NULL;
}

void ww_drive_verdict(const ww_render_ctx_t *ctx, const ww_drive_state_t *st, ww_verdict_t *out)
{
	ww_store_endurance_t *s = ctx ? ctx->endurance : NULL;
	struct { ww_endurance_t e; ww_vmemory_t mem; } *x = malloc(sizeof(*x));
	ww_verdict_in_t in = { 0 };
	bool has_e = false, has_mem = x && lookup(s, st->drive->id, &x->e, &has_e, &x->mem);

	in.h = st->health;
	in.e = has_e ? &x->e : NULL;
	in.mem = has_mem ? &x->mem : NULL;
	in.cfg = ww_thresholds_for(ctx ? ctx->thresholds : NULL, st->drive->id, st->drive->block);
	in.protocol = st->drive->protocol;
	in.no_health_reason = st->drive->no_health_reason;
	in.smartctl_type = st->drive->smartctl_type;
	in.present = st->present;
	in.missing_since = st->missing_since;
	in.standby = st->standby;
	in.standby_since = st->standby_since;
	in.captured = st->drive->from_capture;
	in.hung = st->hung;
	in.hung_since = st->hung_since;
	in.last_failed = st->collections_total && !st->last_success;
	in.last_rc = st->last_rc;
	in.values_time = st->values_time;
	if (st->has_probe && st->probe.has_drift) {
		in.has_drift = true;
		in.drift_time = st->probe.drift_time;
		in.drift_p99_s = st->probe.drift_p99_s;
		in.drift_base_p99_s = st->probe.drift_base_p99_s;
		in.drift_base_n = st->probe.drift_base_n;
	}
	in.plan = st->has_self_test ? &st->self_test.plan : NULL;
	ww_verdict(&in, ctx ? ctx->now : 0, out);
	free(x);
}
