/* Self-test scheduling (sched.h ww_selftests_*): after each read of a drive
 * with a self_test_schedule, on the poller's worker that read it, decide
 * whether its due test starts now. One mutex guards the table; it is never
 * held across a device command (a start reserves its slot first, so two
 * workers cannot both take the last one). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/basic.h"
#include "wearwatch/sched.h"

#define MAX_SETS 16

/* a test is taken to run this long after its start when the drive never
 * says whether one runs (scsi_debug, drives without page 0x10) and gives no
 * duration: our figure, no published one exists */
#define UNKNOWN_SHORT_S (30 * 60)
#define UNKNOWN_LONG_S (24 * 3600)

struct sdrive {
	char id[160];
	char text[WW_SELFTEST_SCHED_MAX]; /* the schedule the state is for */
	ww_selftest_sched_t *sched;
	time_t next_check;      /* the first hour not looked at yet */
	time_t planned;         /* hour the plan was made for */
	unsigned planned_kinds; /* and the kinds it was made with */
	time_t hold_until;      /* the drive says nothing of running tests:
				   busy until then after a start */
	unsigned kinds;         /* what the drive can run */
	char sets[MAX_SETS][WW_SET_KEY];
	size_t n_sets;
	bool standby;
	ww_protocol_t proto;     /* as the latest read found it */
	ww_selftest_now_t times; /* its test durations */
	uint64_t sectors;        /* logical sectors, 0 not known */
	bool span_loaded;        /* st.span_next came from cfg.span_load */
	ww_selftest_state_t st;
};

struct ww_selftests {
	ww_selftests_cfg_t cfg; /* its sysroot is sysroot below */
	char *sysroot;          /* our copy: the caller's may go (a reload frees it) */
	pthread_mutex_t lock;
	const ww_thresholds_t *th;
	struct sdrive *d;
	size_t n, cap;
};

ww_selftests_t *ww_selftests_new(const ww_selftests_cfg_t *cfg)
{
	ww_selftests_t *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->cfg = *cfg;
	s->sysroot = strdup(cfg->sysroot ? cfg->sysroot : "");
	if (!s->sysroot) {
		free(s);
		return NULL;
	}
	s->cfg.sysroot = s->sysroot;
	if (!s->cfg.start)
		s->cfg.start = ww_collect_start_self_test;
	pthread_mutex_init(&s->lock, NULL);
	return s;
}

void ww_selftests_free(ww_selftests_t *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		ww_selftest_sched_free(s->d[i].sched);
	free(s->d);
	pthread_mutex_destroy(&s->lock);
	free(s->sysroot);
	free(s);
}

void ww_selftests_set_thresholds(ww_selftests_t *s, const ww_thresholds_t *t)
{
	pthread_mutex_lock(&s->lock);
	s->th = t;
	pthread_mutex_unlock(&s->lock);
}

/* caller holds the lock */
static struct sdrive *find(ww_selftests_t *s, const char *id, bool add)
{
	struct sdrive *n;

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->d[i].id, id))
			return &s->d[i];
	if (!add)
		return NULL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;

		n = realloc(s->d, cap * sizeof(*n));
		if (!n)
			return NULL;
		s->d = n;
		s->cap = cap;
	}
	n = &s->d[s->n++];
	memset(n, 0, sizeof(*n));
	snprintf(n->id, sizeof(n->id), "%s", id);
	return n;
}

/* smartd's order: L, n, S, C, O (0 = nothing) */
static int rank(unsigned kind)
{
	switch (kind) {
	case WW_STK_EXTENDED:
		return 5;
	case WW_STK_SELECTIVE:
		return 4;
	case WW_STK_SHORT:
		return 3;
	case WW_STK_CONVEYANCE:
		return 2;
	case WW_STK_OFFLINE:
		return 1;
	default:
		return 0;
	}
}

static time_t hour_of(time_t t)
{
	struct tm tm;

	if (!localtime_r(&t, &tm))
		return t - t % 3600;
	return t - tm.tm_min * 60 - tm.tm_sec;
}

static uint32_t hold_for(const ww_selftest_now_t *n, unsigned kind)
{
	uint32_t e = kind == WW_STK_SHORT   ? n->expected_short_s
		: kind == WW_STK_EXTENDED   ? n->expected_extended_s
		: kind == WW_STK_CONVEYANCE ? n->expected_conveyance_s
					    : 0;

	if (e)
		return e;
	return kind == WW_STK_EXTENDED ? UNKNOWN_LONG_S : UNKNOWN_SHORT_S;
}

/* the drive's self_test_spans (never 0: the configuration refuses it) */
static unsigned limit_spans(const ww_health_cfg_t *cfg)
{
	return cfg->self_test_spans ? cfg->self_test_spans : WW_SELFTEST_SPANS_DEFAULT;
}

/* a set key of ww_smartctl_controller_key, not of ww_drive_sets */
static bool is_controller(const char *key)
{
	return !strncmp(key, "host:", 5) || !strncmp(key, "ctl:", 4);
}

/* caller holds the lock: may drive x start now? */
static const char *blocked(const ww_selftests_t *s, const struct sdrive *x, unsigned limit)
{
	unsigned testing = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct sdrive *o = &s->d[i];

		if (o == x || !o->st.testing)
			continue;
		testing++;
		for (size_t a = 0; a < x->n_sets; a++)
			for (size_t b = 0; b < o->n_sets; b++)
				if (!strcmp(x->sets[a], o->sets[b]))
					return is_controller(x->sets[a])
						? "a drive behind the same controller is testing"
						: "a drive of the same set is testing";
	}
	return testing >= limit ? "as many drives as self_test_concurrent are testing" : NULL;
}

void ww_selftests_after_read(ww_selftests_t *s, ww_store_t *store, const ww_drive_t *d, int rc,
			     const ww_health_t *h, time_t now)
{
	const ww_health_cfg_t *cfg;
	struct sdrive *x;
	ww_selftest_state_t pub;
	ww_cmd_status_t cst;
	const char *why = NULL, *stop;
	unsigned kind = 0, limit, nspans;
	bool wake, publish, known, load, save = false;
	ww_selftest_span_t span = { 0, 0 };
	uint64_t sectors, next;
	ww_protocol_t proto;
	int src;

	if (!s || !d)
		return;
	pthread_mutex_lock(&s->lock);
	cfg = ww_thresholds_for(s->th, d->id, d->block);
	limit = ww_thresholds_for(s->th, NULL, NULL)
		? ww_thresholds_for(s->th, NULL, NULL)->self_test_concurrent
		: 1;
	x = find(s, d->id, cfg && cfg->self_test_schedule[0]);
	if (!x) {
		pthread_mutex_unlock(&s->lock);
		return;
	}
	if (!cfg || !cfg->self_test_schedule[0]) {
		/* the schedule was taken away (a reload): forget the drive */
		bool had = x->text[0];

		ww_selftest_sched_free(x->sched);
		*x = s->d[--s->n];
		pthread_mutex_unlock(&s->lock);
		if (had && store)
			ww_store_set_self_test(store, d->id, NULL, now);
		return;
	}
	if (strcmp(x->text, cfg->self_test_schedule)) {
		ww_selftest_sched_t *c = NULL;

		if (ww_selftest_sched_compile(cfg->self_test_schedule, &c, NULL, 0) < 0) {
			pthread_mutex_unlock(&s->lock);
			return; /* conf refused it already; nothing to run */
		}
		ww_selftest_sched_free(x->sched);
		x->sched = c;
		snprintf(x->text, sizeof(x->text), "%s", cfg->self_test_schedule);
		x->next_check = hour_of(now);
		x->planned = 0;
		x->st.pending = 0;
	}
	wake = cfg->self_test_in_standby;

	/* what this read says */
	x->standby = rc == 1;
	if (rc == 0 && h) {
		known = h->self_test_now.source != NULL;
		x->kinds = ww_selftest_kinds(h);
		x->st.drive_kinds_known = true;
		x->proto = h->protocol;
		x->times = h->self_test_now;
		if (known && h->self_test_now.running)
			x->st.testing = true;
		else if (known && x->st.testing && now > x->st.started)
			x->st.testing = false; /* read after the start: it ended */
		else if (!known && x->st.testing && now >= x->hold_until)
			x->st.testing = false;
		x->n_sets = ww_drive_sets(s->cfg.sysroot, d, x->sets, MAX_SETS);
		/* a drive read through smartctl: its controller is a set too,
		 * so two members behind one RAID controller never test at once */
		if (x->n_sets < MAX_SETS &&
		    ww_smartctl_controller_key(d, x->sets[x->n_sets], WW_SET_KEY))
			x->n_sets++;
		x->sectors = WW_HAS(h->capacity_bytes) && WW_HAS(h->logical_block_bytes) &&
				h->logical_block_bytes.value
			? h->capacity_bytes.value / h->logical_block_bytes.value
			: 0;
	}

	/* the schedule: every hour since the last look, smartd's priority;
	 * not before a read has said what the drive runs (one found in
	 * standby when its schedule was first seen): those hours wait for
	 * that read rather than pass with nothing due */
	if (x->st.drive_kinds_known && now >= x->next_check) {
		kind = ww_selftest_sched_since(x->sched, x->next_check, now, x->kinds);
		if (rank(kind) > rank(x->st.pending))
			x->st.pending = kind;
		x->next_check = hour_of(now) + 3600;
	}
	if (hour_of(now) != x->planned || x->kinds != x->planned_kinds) {
		ww_selftest_plan(x->sched, now, x->kinds, &x->st.plan);
		x->planned = hour_of(now);
		x->planned_kinds = x->kinds;
	}

	kind = x->st.pending;
	stop = NULL;
	if (!kind || x->st.testing || rc < 0 || (rc == 1 && !wake) || !x->proto)
		kind = 0;
	else if ((stop = blocked(s, x, limit)))
		kind = 0;
	if (kind)
		x->st.testing = true; /* the slot is ours while the start runs */
	proto = x->proto;
	load = kind == WW_STK_SELECTIVE && !x->span_loaded;
	nspans = limit_spans(cfg);
	sectors = x->sectors;
	next = x->st.span_next;
	pthread_mutex_unlock(&s->lock);

	src = 0;
	if (load && s->cfg.span_load && s->cfg.span_load(s->cfg.span_arg, d->id, &next) != 1)
		next = 0;
	if (kind == WW_STK_SELECTIVE)
		next = ww_selftest_next_span(sectors, nspans, next, &span);
	if (kind) {
		src = s->cfg.start(s->cfg.sysroot, d, proto, kind,
				   kind == WW_STK_SELECTIVE ? &span : NULL, wake, &cst, &why);
		ww_log(src == 0 ? WW_LOG_NOTICE : WW_LOG_INFO, "%s: scheduled %s self-test: %s%s%s",
		       d->id, ww_selftest_kind_names[kind], why, src < 0 ? ": " : "",
		       src < 0 ? strerror(-src) : "");
	}

	pthread_mutex_lock(&s->lock);
	x = find(s, d->id, false);
	if (x && kind) {
		x->st.last_attempt = now;
		x->st.last_outcome = why;
		x->st.last_rc = src;
		if (load) {
			/* the cursor as loaded, whatever the start did */
			x->span_loaded = true;
			x->st.span_next = span.first_lba;
		}
		if (src == 0) {
			x->st.started = now;
			x->st.started_kind = kind;
			x->st.started_total[kind]++;
			x->st.pending = 0;
			x->hold_until = now + (time_t)hold_for(&x->times, kind);
			if (kind == WW_STK_SELECTIVE) {
				x->st.has_span = true;
				x->st.span = span;
				x->st.span_next = next;
				save = true;
			}
		} else if (src == 1) {
			x->st.testing = false; /* standby since the read: later */
		} else if (src == -EBUSY) {
			x->st.pending = 0; /* smartd's rule: skipped, never aborted */
		} else if (src == -ENOTSUP || src == -EPERM) {
			x->st.testing = false; /* refused before anything was sent */
			x->st.pending = 0;
			if (src == -ENOTSUP)
				x->kinds &= ~(1u << kind);
		} else {
			/* a timeout, an answer cut short or garbled: the drive
			 * may have taken the start, so its slot stays taken, as
			 * after a start, until a read says no test runs */
			x->st.pending = 0;
			x->hold_until = now + (time_t)hold_for(&x->times, kind);
		}
	} else if (x && stop && x->st.pending) {
		x->st.last_outcome = stop;
	}
	publish = x != NULL;
	if (x) {
		x->st.drive_kinds = x->kinds;
		pub = x->st;
	}
	pthread_mutex_unlock(&s->lock);
	if (save && s->cfg.span_save)
		s->cfg.span_save(s->cfg.span_arg, d->id, next);
	if (publish && store)
		ww_store_set_self_test(store, d->id, &pub, now);
}

size_t ww_selftests_testing(ww_selftests_t *s)
{
	size_t n = 0;

	pthread_mutex_lock(&s->lock);
	for (size_t i = 0; i < s->n; i++)
		n += s->d[i].st.testing;
	pthread_mutex_unlock(&s->lock);
	return n;
}
