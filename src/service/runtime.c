/* Collecting half of the service (see runtime.h): what `collector` and
 * `serve` used to set up separately, in one place. */
#include <errno.h>
#include <malloc.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wearwatch/collect.h"
#include "wearwatch/service.h"
#include "wearwatch/basic.h"
#include "wearwatch/sched.h"
#include "wearwatch/conf.h"
#include "wearwatch/model.h"

/* free heap kept at its top by the trim after a round: what a round of a
 * few drives allocates again (about 130 KiB at 3 replayed drives) */
#define TRIM_PAD (256 * 1024)
/* and the least a trim must be able to give back to be made: below it, the
 * trim's walk and madvise calls, and the page faults of the next round that
 * takes the pages again, cost more than the few pages are worth (at 3
 * replayed drives a round left about 30 KiB free in the middle) */
#define TRIM_MIN_GAIN (128 * 1024)
/* and at most one trim (with its look at the heap, mallinfo2: a walk of
 * every free chunk, a fifth of the main thread's time at 3 drives when
 * made after every round) in this many seconds: what a round freed in the
 * middle of the heap is taken again by the next round meanwhile */
#define TRIM_EVERY_S 60.0

/* One configuration generation with what is derived from it (about 70 KiB).
 * Renders (HTTP threads), collections (reader threads) and the probe
 * thread's scans take the current one with gen_hold and give it back with
 * gen_drop; a reload retires the old one, freed once nobody holds it and
 * the reader threads do not run with its poll settings (poll_gen). They
 * were kept until stop: 68-77 KiB per SIGHUP. */
struct gen {
	ww_conf_t conf;             /* its own copy (ww_conf_copy) */
	const char **include;       /* n_include + block-name [drive]s, NULL-terminated */
	ww_probe_policy_t *policy;  /* per [drive] section */
	ww_health_cfg_t *health;    /* [health] + the [drive] section */
	ww_threshold_rule_t *rules; /* name -> health[i] */
	ww_thresholds_t thresholds; /* what renders and the verdict are handed */
	bool told_unmatched;        /* sections that match no drive: logged */
	unsigned users;             /* holds (gen_lock) */
	struct gen *older;
};

struct ww_runtime {
	struct gen *gen;            /* current; written on the main thread only */
	struct gen *poll_gen;       /* the one whose poll settings the poller runs */
	ww_runtime_opts_t opts;
	ww_store_t *store;
	ww_poller_t *poller;
	ww_probe_sched_t *probe;
	ww_selftests_t *selftests; /* self-test scheduling (only schedules set start any) */
	ww_store_endurance_t *endurance;
	ww_route_src_t src; /* store, endurance, the current gen's thresholds */
	ww_events_t *events;
	ww_snapshot_t *prev;
	bool trim_due;       /* the store changed since the last heap trim */
	uint64_t trims;      /* heap trims asked for (main thread) */
	uint64_t trims_made; /* ... and made (enough to give back) */
	double last_trim;    /* monotonic seconds of the last one asked for */
	/* the counts last told to systemd (STATUS=), sent again only when
	 * one changed (main thread) */
	size_t status_sent[5];
	bool status_known;
	bool woken;            /* a wake is pending for the next tick (atomic) */
	pthread_mutex_t gen_lock; /* rt->gen's swap, users, the retired list */
	uint64_t gens_made;
	size_t gens_live;
};

/* the current generation, held until gen_drop (any thread) */
static struct gen *gen_hold(ww_runtime_t *rt)
{
	struct gen *g;

	pthread_mutex_lock(&rt->gen_lock);
	g = rt->gen;
	g->users++;
	pthread_mutex_unlock(&rt->gen_lock);
	return g;
}

static void free_gen(struct gen *g);

/* retired generations nobody holds are freed (gen_lock held) */
static void gen_sweep_locked(ww_runtime_t *rt)
{
	for (struct gen **pp = &rt->gen->older; *pp;) {
		struct gen *g = *pp;

		if (!g->users && g != rt->poll_gen) {
			*pp = g->older;
			free_gen(g); /* its tables and configuration too */
			rt->gens_live--;
		} else {
			pp = &g->older;
		}
	}
}

static void gen_drop(ww_runtime_t *rt, struct gen *g)
{
	pthread_mutex_lock(&rt->gen_lock);
	if (!--g->users && g != rt->gen)
		gen_sweep_locked(rt);
	pthread_mutex_unlock(&rt->gen_lock);
}

/* the route source's hooks: a render holds the generation of the
 * thresholds it renders with */
static const ww_thresholds_t *thresholds_hold(void *arg)
{
	return &gen_hold(arg)->thresholds;
}

static void thresholds_drop(void *arg, const ww_thresholds_t *t)
{
	gen_drop(arg, (struct gen *)(void *)((const char *)t - offsetof(struct gen, thresholds)));
}

uint64_t ww_runtime_trims(const ww_runtime_t *rt)
{
	return rt->trims;
}

uint64_t ww_runtime_trims_made(const ww_runtime_t *rt)
{
	return rt->trims_made;
}

size_t ww_runtime_generations(ww_runtime_t *rt)
{
	size_t n;

	pthread_mutex_lock(&rt->gen_lock);
	n = rt->gens_live;
	pthread_mutex_unlock(&rt->gen_lock);
	return n;
}

int ww_runtime_check_conf(const ww_conf_t *c, char *err, size_t errlen)
{
	const char *path = c->path[0] ? c->path : "(flags)";

	/* a ratings file that is no ratings table (/etc/passwd) was taken at a
	 * reload, which said "reloaded", and the next start failed on it */
	for (size_t i = 0; i < c->n_ratings_files; i++) {
		ww_ratings_t t = { 0 };
		char e[400] = "";
		int rc = ww_ratings_load_file(&t, c->ratings_files[i], e, sizeof(e));

		ww_ratings_free(&t);
		if (rc < 0) {
			snprintf(err, errlen, "%s: [endurance] ratings_file %s: %s", path,
				 c->ratings_files[i], e[0] ? e : strerror(-rc));
			return -EINVAL;
		}
	}

	for (size_t i = 0; i < c->n_drives; i++) {
		const ww_conf_drive_t *d = &c->drives[i];
		char spec[512], e[200] = "";
		ww_probe_policy_t p;

		if (d->warranty_start[0] && !d->rating[0]) {
			snprintf(err, errlen, "%s: [drive %s]: warranty_start needs a rating in the "
				 "same section (the model takes them as one override)", path, d->name);
			return -EINVAL;
		}
		if (d->rating[0]) {
			ww_ratings_t t = { 0 };
			int rc = ww_conf_drive_rating_spec(d, spec, sizeof(spec));

			if (!rc)
				rc = ww_rating_override_parse(&t, spec, e, sizeof(e));
			ww_ratings_free(&t);
			if (rc) {
				snprintf(err, errlen, "%s: [drive %s]: rating: %s", path, d->name,
					 e[0] ? e : "too long");
				return -EINVAL;
			}
		}
		ww_probe_policy_default(&p);
		if (d->probe[0] && ww_probe_policy_parse(&p, d->probe, e, sizeof(e))) {
			snprintf(err, errlen, "%s: [drive %s]: %s", path, d->name, e);
			return -EINVAL;
		}
	}
	return 0;
}

static void free_gen(struct gen *g)
{
	ww_conf_free(&g->conf);
	free(g->include);
	free(g->policy);
	free(g->health);
	free(g->rules);
	free(g);
}

static struct gen *new_gen(const ww_conf_t *c)
{
	struct gen *g = calloc(1, sizeof(*g));
	size_t n = 0, nd = c->n_drives ? c->n_drives : 1;
	char e[200];

	if (!g)
		return NULL;
	g->include = calloc(c->n_include + c->n_drives + 1, sizeof(*g->include));
	g->policy = calloc(nd, sizeof(*g->policy));
	g->health = calloc(nd, sizeof(*g->health));
	g->rules = calloc(nd, sizeof(*g->rules));
	if (!g->include || !g->policy || !g->health || !g->rules || ww_conf_copy(&g->conf, c)) {
		free_gen(g);
		return NULL;
	}
	for (size_t i = 0; i < c->n_include; i++)
		g->include[n++] = g->conf.include[i];
	for (size_t i = 0; i < c->n_drives; i++) {
		const ww_conf_drive_t *d = &g->conf.drives[i];

		/* include = yes on a block name: monitored like [collector]
		 * include (dm-*, md*, loop* are skipped by default) */
		if (d->monitor == 1 && ww_conf_is_block_name(d->name))
			g->include[n++] = strncmp(d->name, "/dev/", 5) ? d->name : d->name + 5;
		g->policy[i] = g->conf.probe;
		if (d->probe[0])
			ww_probe_policy_parse(&g->policy[i], d->probe, e, sizeof(e));
		g->health[i] = g->conf.health;
		ww_conf_health_overlay(&g->health[i], &d->health);
		g->rules[i] = (ww_threshold_rule_t){ .name = d->name, .cfg = &g->health[i] };
	}
	g->include[n] = NULL;
	g->thresholds =
		(ww_thresholds_t){ .dflt = &g->conf.health, .rules = g->rules, .n = c->n_drives };
	return g;
}

/* [drive NAME] smartctl = TYPE: the smartctl backend for that drive */
static void apply_smartctl(const ww_runtime_opts_t *o, const ww_conf_t *c)
{
	ww_smartctl_force_clear();
	/* flags first: the first entry matching a drive is used */
	for (size_t i = 0; i < o->n_smartctl; i++) {
		char buf[256], *eq;

		snprintf(buf, sizeof(buf), "%s", o->smartctl[i]);
		eq = strchr(buf, '=');
		if (eq) {
			*eq = 0;
			ww_smartctl_force(buf, eq + 1);
		}
	}
	for (size_t i = 0; i < c->n_drives; i++)
		if (c->drives[i].smartctl[0] &&
		    ww_smartctl_force(c->drives[i].name, c->drives[i].smartctl) < 0)
			ww_log(WW_LOG_WARNING, "[drive %s]: smartctl table full; ignored",
			       c->drives[i].name);
}

/* poller discovery hook: [drive NAME] exclude = yes (include = no). Runs on
 * the main thread (ww_poller_tick), like every write of rt->gen. */
static ww_runtime_t *filter_rt;

/* A [drive NAME] section with keys for a drive (exclude/include, probe,
 * smartctl, health) that names no discovered drive by id or block name is
 * most likely a typo: said once per configuration. A section with only a
 * rating may name a serial or a model regex, which the model matches. */
static void tell_unmatched(struct gen *g, const ww_drive_t *d, int n)
{
	if (g->told_unmatched)
		return;
	g->told_unmatched = true;
	for (size_t i = 0; i < g->conf.n_drives; i++) {
		const ww_conf_drive_t *c = &g->conf.drives[i];
		bool found = false;

		if (c->monitor == 1 && ww_conf_is_block_name(c->name))
			continue; /* include = yes on a block device that is not there yet */
		if (c->monitor < 0 && !c->probe[0] && !c->smartctl[0] && !c->health.set)
			continue;
		for (int k = 0; k < n && !found; k++)
			found = ww_conf_drive_find(&g->conf, d[k].id, d[k].block) == c;
		if (!found)
			ww_log(WW_LOG_WARNING, "[drive %s] matches no drive found (a drive id as "
			       "`wearwatch scan` lists it, or a block device name): its keys "
			       "apply to nothing", c->name);
	}
}

static int discover_filtered(const char *sysroot, const char *const *include, ww_drive_t **out)
{
	int n = filter_rt && filter_rt->opts.replay ?
		ww_replay_discover(sysroot, include, out) :
		ww_discover_with_members(sysroot, include, out), k = 0;
	ww_drive_t *d;

	if (n < 0 || !filter_rt)
		return n;
	d = *out;
	tell_unmatched(filter_rt->gen, d, n);
	for (int i = 0; i < n; i++) {
		const ww_conf_drive_t *c = ww_conf_drive_find(&filter_rt->gen->conf, d[i].id,
							      d[i].block);

		if (c && c->monitor == 0)
			continue;
		if (k != i)
			d[k] = d[i];
		k++;
	}
	return k;
}

/* whether the default or a [drive] section probes */
static bool probes_wanted(const struct gen *g)
{
	bool any = g->conf.probe.enabled;

	for (size_t i = 0; i < g->conf.n_drives && !any; i++)
		any = g->policy[i].enabled;
	return any;
}

static bool policy_of(void *ctx, const ww_drive_t *drv, ww_probe_policy_t *out)
{
	ww_runtime_t *rt = ctx;
	struct gen *g = gen_hold(rt);
	const ww_conf_drive_t *d = ww_conf_drive_find(&g->conf, drv->id, drv->block);

	*out = d ? g->policy[d - g->conf.drives] : g->conf.probe;
	gen_drop(rt, g);
	return true;
}

/* [notify] for the events: run exec here, or queue for wearwatch-notify */
static void configure_events(ww_runtime_t *rt, const ww_conf_t *c)
{
	char spool[512] = "";

	if (rt->opts.notify_spool)
		snprintf(spool, sizeof(spool), "%s/notify", c->state_dir);
	ww_events_configure(rt->events, c->notify_exec, spool, c->notify_flap_limit,
			    c->notify_flap_window_s);
}

/* The poller's hook: history and endurance. The main loop sees the events
 * of this collection at its next tick: at most a second while reads are
 * out, at once after the round's last (wake_main). */
static void after_collect(void *arg, ww_store_t *store, const ww_drive_t *d, int rc,
			  time_t now)
{
	ww_runtime_t *rt = arg;

	if (rt->endurance) {
		struct gen *g = gen_hold(rt);

		ww_store_endurance_after_collect(rt->endurance, &g->thresholds, store, d, rc, now);
		gen_drop(rt, g);
	}
}

/* the round's reads are in, or a udev notice asks for the rediscovery: one
 * signal per tick (every signal wakes the main thread) */
static void wake_main(void *arg)
{
	ww_runtime_t *rt = arg;

	if (!__atomic_exchange_n(&rt->woken, true, __ATOMIC_ACQ_REL))
		ww_service_wake();
}

static ww_poller_t *start_poller(ww_runtime_t *rt)
{
	const ww_conf_t *c = &rt->gen->conf;
	ww_poller_cfg_t cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.sysroot = c->sysroot;
	cfg.include = rt->gen->include[0] ? rt->gen->include : NULL;
	cfg.interval_s = c->interval_s;
	cfg.interval_rotational_s = c->interval_rotational_s;
	/* 0: on udev's notices, with a slow safety net (ww_poller_cfg_t) */
	cfg.rediscover_s = c->rediscover_s;
	cfg.watch_uevents = !rt->opts.replay && !rt->opts.collect && !c->sysroot[0];
	/* replayed drives are the captures loaded at the start: none comes or
	 * goes, so no notice is missed by the safety net alone (without
	 * notices the default is every poll interval: a fifth of the main
	 * thread's round at 3 replayed drives, for the same list) */
	if (rt->opts.replay && !cfg.rediscover_s)
		cfg.rediscover_s = WW_POLLER_SAFETY_REDISCOVER_S;
	cfg.wake = wake_main;
	cfg.wake_arg = rt;
	cfg.workers = c->workers;
	cfg.hung_after_s = c->hung_after_s;
	cfg.discover = discover_filtered;
	if (rt->opts.replay)
		cfg.collect = ww_replay_collect_fn;
	if (rt->opts.collect)
		cfg.collect = rt->opts.collect;
	cfg.after_collect = after_collect;
	cfg.after_collect_arg = rt;
	cfg.clock = rt->opts.clock;
	cfg.clock_ctx = rt->opts.clock_ctx;
	cfg.selftests = rt->selftests;
	rt->poll_gen = rt->gen;
	return ww_poller_start(&cfg, rt->store);
}

/* The file's endurance and history settings under serve's flags: flags'
 * rating overrides and ratings files come first (the first match wins), a
 * flag's history tier length wins over the file's. c outlives the service
 * (a generation's copy): the file names are kept as pointers. */
static ww_store_endurance_t *start_endurance(const ww_conf_t *c, ww_conf_endurance_opts_t *o)
{
	char spec[512], e[200];

	for (size_t i = 0; i < c->n_drives; i++)
		if (c->drives[i].rating[0] && !ww_conf_drive_rating_spec(&c->drives[i], spec, sizeof(spec)))
			ww_rating_override_parse(&o->overrides, spec, e, sizeof(e));
	for (size_t i = 0; i < c->n_ratings_files && o->n_files < WW_ENDURANCE_MAX_FILES; i++)
		o->files[o->n_files++] = c->ratings_files[i];
	o->no_history |= c->history_off;
	if (!o->hist.raw_s)
		o->hist.raw_s = c->history_raw_s;
	if (!o->hist.hourly_s)
		o->hist.hourly_s = c->history_hourly_s;
	if (!o->hist.commit_s)
		o->hist.commit_s = c->history_commit_s;
	o->state_dir = c->state_dir;
	o->hist.keep_s = c->retention_s;
	return ww_service_endurance_start(o);
}

/* The probe thread's hooks: history (and, for drift bursts, the baseline
 * under the current thresholds) */
static void after_burst(void *arg, const char *id, const ww_hprobe_t *p, time_t now)
{
	ww_runtime_t *rt = arg;

	ww_store_endurance_probe_burst(rt->endurance, id, p, now);
}

static void after_drift(void *arg, const ww_drive_t *d, ww_hdrift_t *b)
{
	ww_runtime_t *rt = arg;

	ww_store_endurance_drift_burst(
		rt->endurance, __atomic_load_n(&rt->src.thresholds, __ATOMIC_ACQUIRE), d, b);
}

static int drift_latest(void *arg, const char *id, ww_hdrift_t *out)
{
	ww_runtime_t *rt = arg;

	return ww_store_endurance_drift_latest(rt->endurance, id, out);
}

/* The self-test scheduler's hooks: a drive's selective cursor in the
 * history database's meta table, so that the spans go on where they
 * stopped across a restart (without history: from LBA 0 again) */
#define SPAN_KEY "selftest_span:"

static int span_load(void *arg, const char *id, uint64_t *next)
{
	ww_runtime_t *rt = arg;
	char key[sizeof(SPAN_KEY) + 160];
	int64_t v;
	int rc;

	snprintf(key, sizeof(key), SPAN_KEY "%s", id);
	rc = ww_history_meta_get(ww_store_endurance_history(rt->endurance), key, &v);
	if (rc == 1)
		*next = (uint64_t)v;
	return rc;
}

static void span_save(void *arg, const char *id, uint64_t next)
{
	ww_runtime_t *rt = arg;
	char key[sizeof(SPAN_KEY) + 160];
	ww_history_t *h = ww_store_endurance_history(rt->endurance);
	int rc;

	if (!h)
		return;
	snprintf(key, sizeof(key), SPAN_KEY "%s", id);
	rc = ww_history_meta_set(h, key, (int64_t)next);
	if (rc < 0)
		ww_log(WW_LOG_WARNING, "%s: selective self-test cursor not kept: %s", id,
		       strerror(-rc));
}

/* The probe thread, when the default or a [drive] section probes (at
 * start, or at the reload that first asks for probes): without it an
 * unprobed service has no thread waking every few hundred milliseconds. */
static void start_probes(ww_runtime_t *rt)
{
	ww_probe_sched_cfg_t pcfg;
	int rc = 0;

	if (rt->probe || !probes_wanted(rt->gen))
		return;
	memset(&pcfg, 0, sizeof(pcfg));
	pcfg.sysroot = rt->gen->conf.sysroot;
	pcfg.policy = rt->gen->conf.probe;
	pcfg.lookup = policy_of;
	pcfg.lookup_ctx = rt;
	pcfg.after_burst = after_burst; /* burst summaries into history */
	pcfg.after_drift = after_drift;
	pcfg.drift_latest = drift_latest;
	pcfg.after_burst_arg = rt;
	rt->probe = ww_probe_sched_start(&pcfg, rt->store, &rc);
	if (!rt->probe && rc)
		ww_log(WW_LOG_WARNING, "latency probes not started: %s", strerror(-rc));
}

ww_runtime_t *ww_runtime_start(const ww_conf_t *c, ww_runtime_opts_t *o, char *err,
			       size_t errlen)
{
	ww_runtime_t *rt = calloc(1, sizeof(*rt));
	ww_conf_endurance_opts_t defaults = { 0 };
	if (!rt || ww_runtime_check_conf(c, err, errlen))
		goto fail;
	rt->opts = *o;
	if (!rt->opts.clock)
		rt->opts.clock = ww_clock_monotonic;
	pthread_mutex_init(&rt->gen_lock, NULL);
	rt->gen = new_gen(c);
	if (rt->gen) {
		rt->gen->thresholds.generation = ++rt->gens_made;
		rt->gens_live = 1;
	}
	rt->store = rt->gen ? ww_store_new(c->missing_retention_s) : NULL;
	if (!rt->store) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	apply_smartctl(&rt->opts, c);
	rt->endurance = start_endurance(&rt->gen->conf, o->endurance ? o->endurance : &defaults);
	if (!rt->endurance) {
		snprintf(err, errlen, "cannot start the endurance model (ratings file?)");
		goto fail;
	}
	rt->src = (ww_route_src_t){ .store = rt->store,
				    .endurance = rt->endurance,
				    .thresholds = &rt->gen->thresholds,
				    .hold = thresholds_hold,
				    .drop = thresholds_drop,
				    .hold_arg = rt };
	rt->events = ww_events_new();
	if (!rt->events) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	configure_events(rt, c);
	filter_rt = rt;
	rt->selftests = ww_selftests_new(&(ww_selftests_cfg_t){ .sysroot = c->sysroot,
								.span_load = span_load,
								.span_save = span_save,
								.span_arg = rt });
	if (!rt->selftests) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	ww_selftests_set_thresholds(rt->selftests, &rt->gen->thresholds);
	rt->poller = start_poller(rt);
	if (!rt->poller) {
		snprintf(err, errlen, "cannot start reader threads");
		goto fail;
	}
	start_probes(rt);
	ww_poller_tick(rt->poller, NULL); /* the first discovery and reads are queued */
	return rt;
fail:
	if (rt) {
		filter_rt = NULL;
		if (rt->store)
			ww_store_free(rt->store);
		ww_store_endurance_free(rt->endurance);
		ww_events_free(rt->events);
		ww_selftests_free(rt->selftests);
		free(rt->gen);
		pthread_mutex_destroy(&rt->gen_lock);
		free(rt);
	}
	return NULL;
}

ww_store_t *ww_runtime_store(ww_runtime_t *rt)
{
	return rt->store;
}

const ww_route_src_t *ww_runtime_route_src(ww_runtime_t *rt)
{
	return &rt->src;
}

/* systemd's status line from the snapshot the tick holds; formatted and
 * sent only when a count changed (a steady fleet's rounds change values,
 * not these) */
/* bytes malloc_trim(TRIM_PAD) could give back: the free chunks below the
 * top (their whole pages are madvised away) and the top beyond the pad */
static size_t trim_gain(void)
{
	struct mallinfo2 mi = mallinfo2();
	size_t middle = mi.fordblks > mi.keepcost ? mi.fordblks - mi.keepcost : 0;

	return middle + (mi.keepcost > TRIM_PAD ? mi.keepcost - TRIM_PAD : 0);
}

static void status(ww_runtime_t *rt, const ww_snapshot_t *s)
{
	size_t c[5] = { s->n, 0, 0, 0, 0 }; /* drives, present, standby, hung, failing */

	for (size_t i = 0; i < s->n; i++) {
		c[1] += s->drives[i]->present;
		c[2] += s->drives[i]->standby;
		c[3] += s->drives[i]->hung;
		c[4] += s->drives[i]->last_collect && !s->drives[i]->last_success;
	}
	if (rt->status_known && !memcmp(c, rt->status_sent, sizeof(c)))
		return;
	memcpy(rt->status_sent, c, sizeof(c));
	rt->status_known = true;
	ww_notify_status("%zu drives (%zu present, %zu standby, %zu hung, %zu failing)", c[0], c[1],
			 c[2], c[3], c[4]);
}

double ww_runtime_tick(ww_runtime_t *rt)
{
	ww_snapshot_t *cur;
	ww_render_ctx_t ctx;
	double mono, next;
	bool idle;

	__atomic_store_n(&rt->woken, false, __ATOMIC_RELEASE);
	/* reads out, asked before the snapshot is taken: what the reads that
	 * ended changed in the store (a self-test's state after the read too)
	 * is in it, so the trim below is not followed by one more for them */
	idle = !ww_poller_tick(rt->poller, &next);
	next += 0.01;
	cur = ww_store_acquire(rt->store);
	/* every tick: a drive whose state did not change costs a comparison,
	 * and a flapping drive's summary is due when its window ends */
	ctx = (ww_render_ctx_t){ .snap = cur,
				 .endurance = rt->endurance,
				 .thresholds = &rt->gen->thresholds,
				 .now = ww_clock_wall(NULL) };
	ww_events_update(rt->events, &ctx, rt->prev);
	if (!rt->prev || cur->generation != rt->prev->generation) {
		status(rt, cur);
		/* a drive came, went or changed state: the probe thread, asleep
		 * until its next due burst, looks again */
		ww_probe_sched_wake(rt->probe);
		rt->trim_due = true;
	}
	/* what the reads freed in the middle of the heap goes back to the
	 * kernel instead of staying resident until reused: once the reads
	 * are in (a trim between two reads of a round gave back pages the
	 * next read faulted in again), keeping TRIM_PAD at the top, which
	 * each round grew again (brk, page faults) when it was given back */
	mono = rt->opts.clock(rt->opts.clock_ctx);
	if (rt->trim_due && idle && (!rt->trims || mono - rt->last_trim >= TRIM_EVERY_S)) {
		rt->trim_due = false;
		rt->trims++;
		rt->last_trim = mono;
		if (trim_gain() >= TRIM_MIN_GAIN) {
			rt->trims_made++;
			malloc_trim(TRIM_PAD);
		}
	}
	ww_snapshot_release(rt->prev);
	rt->prev = cur;
	ww_events_reap(rt->gen->conf.notify_timeout_s);
	/* a notification program still running is reaped within a second,
	 * and the events of reads that ended while others are out wait at
	 * most that long (one tick for all of them, not one per read); else
	 * until the poller has work (just after: it compares with >), which
	 * while reads are out may be sooner: reads that wait for a reader */
	return (ww_events_running() || !idle) && next > 1.0 ? 1.0 : next;
}

static bool poll_differs(const ww_conf_t *a, const ww_conf_t *b)
{
	if (a->interval_s != b->interval_s || a->interval_rotational_s != b->interval_rotational_s ||
	    a->rediscover_s != b->rediscover_s || a->workers != b->workers ||
	    a->hung_after_s != b->hung_after_s || a->n_include != b->n_include ||
	    a->n_drives != b->n_drives || strcmp(a->sysroot, b->sysroot))
		return true;
	if (a->n_include && memcmp(a->include, b->include, a->n_include * sizeof(*a->include)))
		return true;
	for (size_t i = 0; i < a->n_drives; i++)
		if (a->drives[i].monitor != b->drives[i].monitor ||
		    strcmp(a->drives[i].name, b->drives[i].name))
			return true;
	return false;
}

static void note_restart_only(const ww_conf_t *old, const ww_conf_t *c)
{
	bool ratings = old->n_drives != c->n_drives;

	for (size_t i = 0; !ratings && i < c->n_drives; i++)
		ratings = strcmp(old->drives[i].rating, c->drives[i].rating) ||
			  strcmp(old->drives[i].warranty_start, c->drives[i].warranty_start) ||
			  strcmp(old->drives[i].name, c->drives[i].name);
	ratings = ratings || old->n_ratings_files != c->n_ratings_files ||
		  memcmp(old->ratings_files, c->ratings_files, sizeof(c->ratings_files));
	if (ratings || old->retention_s != c->retention_s || strcmp(old->state_dir, c->state_dir) ||
	    old->history_off != c->history_off || old->history_raw_s != c->history_raw_s ||
	    old->history_hourly_s != c->history_hourly_s)
		ww_log(WW_LOG_WARNING, "reload: rating, warranty_start, ratings_file, [history] "
		       "and state_directory changes take effect at the next restart");
}

/* drives now excluded by configuration leave the store (and the events)
 * at once: they are dropped, never "missing" */
static void drop_excluded(ww_runtime_t *rt, const ww_conf_t *c)
{
	ww_snapshot_t *s = ww_store_acquire(rt->store);
	time_t now = ww_clock_wall(NULL);

	for (size_t i = 0; i < s->n; i++) {
		const ww_drive_t *d = s->drives[i]->drive;
		const ww_conf_drive_t *cd = ww_conf_drive_find(c, d->id, d->block);

		if (!cd || cd->monitor != 0)
			continue;
		if (ww_store_drop(rt->store, d->id, now) == 0)
			ww_log(WW_LOG_INFO, "%s: excluded by configuration; no longer monitored",
			       d->id);
		ww_events_forget(rt->events, d->id);
	}
	ww_snapshot_release(s);
}

int ww_runtime_reload(ww_runtime_t *rt, const ww_conf_t *c)
{
	struct gen *g = new_gen(c), *old = rt->gen;
	bool restart = poll_differs(&rt->poll_gen->conf, c), kept = false;

	if (!g)
		return -ENOMEM;
	note_restart_only(&old->conf, c);
	/* a read still running (a slow SAS drive, scsi_debug's delay, an SG_IO
	 * stuck in the kernel) keeps the readers and their settings: ending
	 * the service over a poll interval would stop every drive's watch */
	if (restart && !ww_poller_try_stop(rt->poller, 5)) {
		ww_log(WW_LOG_WARNING,
		       "reload: a drive read is still running after 5 s: the "
		       "reader threads keep running with the poll settings they had (intervals, "
		       "rediscover, workers, hung_after, include); the new ones apply at the next "
		       "reload or restart; everything else is applied now");
		restart = false;
		kept = true;
	}
	pthread_mutex_lock(&rt->gen_lock);
	g->thresholds.generation = ++rt->gens_made;
	g->older = old;
	__atomic_store_n(&rt->gen, g, __ATOMIC_RELEASE);
	rt->gens_live++;
	/* the verdicts shown follow the new thresholds at once: the render
	 * cache keys on their generation (route.c); the events pass reads
	 * them at the next tick */
	__atomic_store_n(&rt->src.thresholds, &g->thresholds, __ATOMIC_RELEASE);
	/* under gen_lock: the old generation cannot be swept while the
	 * scheduler still points at its thresholds */
	ww_selftests_set_thresholds(rt->selftests, &g->thresholds);
	pthread_mutex_unlock(&rt->gen_lock);
	/* ratings.d is read again, so an administrator's new row applies now */
	ww_service_endurance_reload(rt->endurance, rt->opts.endurance);
	configure_events(rt, &g->conf);
	drop_excluded(rt, &g->conf);
	apply_smartctl(&rt->opts, c);
	ww_store_set_retention(rt->store, c->missing_retention_s);
	start_probes(rt);
	/* [probe] and [drive] policies may have changed: looked at now */
	ww_probe_sched_wake(rt->probe);
	if (restart) {
		/* the store (and history) stay; only the scheduler restarts */
		rt->poller = start_poller(rt);
		if (!rt->poller)
			return -ENOMEM;
		ww_poller_tick(rt->poller, NULL);
	}
	/* the old generations nobody holds any more (poll_gen moved on when
	 * the poller restarted) */
	pthread_mutex_lock(&rt->gen_lock);
	gen_sweep_locked(rt);
	pthread_mutex_unlock(&rt->gen_lock);
	return kept ? 1 : 0;
}

const ww_conf_t *ww_runtime_poll_conf(const ww_runtime_t *rt)
{
	return &rt->poll_gen->conf;
}

void ww_runtime_stop(ww_runtime_t *rt)
{
	if (!rt)
		return;
	ww_snapshot_release(rt->prev);
	ww_probe_sched_stop(rt->probe);
	/* the samples kept in memory go to the file now, even if a stuck read
	 * keeps the rest below from being freed */
	ww_history_flush(ww_store_endurance_history(rt->endurance));
	if (rt->poller && !ww_poller_stop(rt->poller, 5)) {
		ww_log(WW_LOG_WARNING, "a device read is still outstanding; exiting without waiting");
		return;
	}
	filter_rt = NULL;
	ww_selftests_free(rt->selftests);
	ww_store_free(rt->store);
	ww_store_endurance_free(rt->endurance); /* closes the history database */
	ww_events_free(rt->events);
	for (struct gen *g = rt->gen, *n; g; g = n) {
		n = g->older;
		free_gen(g);
	}
	pthread_mutex_destroy(&rt->gen_lock);
	free(rt);
}
