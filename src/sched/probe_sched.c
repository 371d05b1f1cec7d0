/* Probe thread of `wearwatch serve`: one ww_probe engine (one io_uring ring)
 * for every drive. It reads drives from the store's snapshot, never from a
 * device command, and only sends bursts; a hung read only stops that drive's
 * probes. Results go to the store, which HTTP reads. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wearwatch/basic.h"
#include "wearwatch/sched.h"
#include "wearwatch/discover.h"

#define RING_ENTRIES 256
#define BUSY_RETRY_NS 5000000000ull
#define SCAN_NS 1000000000ull
/* the longest idle sleep with nothing due (a wake or stop ends it) */
#define IDLE_MAX_NS (3600ull * 1000000000ull)

/* A drive the thread has seen. Its statistics (two 16 KB histograms and a
 * ring of 20 KB at the default window) are allocated at its first burst:
 * drives that are never probed (no O_DIRECT, a replay, every burst
 * skipped) cost 52 KB less each, 3.3 MB at 64 drives. */
struct lazy_stats {
	ww_probe_stats_t stats;
	ww_hist_t burst_hist;       /* this burst's reads, for the history */
};

/* A latency-drift burst in progress (allocated at its start, freed at its
 * end: 16 KB for the one drive being measured, none for the others). */
struct drift_run {
	ww_hist_t hist;   /* successful reads of every slice so far */
	uint64_t left_ns; /* of drift_seconds */
	uint64_t sum_ns;
	uint32_t errors, qd;
	bool started; /* a slice ran: the drive is spinning */
};

struct entry {
	char id[160];
	struct lazy_stats *ls;      /* NULL until the first burst */
	uint32_t window;
	ww_probe_summary_t sum;
	ww_probe_burst_t burst;
	char block[32];
	const char *sysroot;
	uint64_t next_due, last_ios;
	bool active, hung;
	/* latency drift: when the next drift burst is due (0 = not planned
	 * yet), the one in progress, and whether the active burst is its slice */
	uint64_t drift_due;
	struct drift_run *drift;
	bool slice;
	struct entry *next;
};

struct ww_probe_sched {
	ww_probe_sched_cfg_t cfg; /* its sysroot is sysroot below */
	char *sysroot;            /* our copy: the caller's string may go (a reload frees it) */
	ww_store_t *store;
	ww_probe_engine_t *eng;
	struct entry *entries;
	struct entry *drifting; /* the drive whose drift burst is in progress */
	unsigned qd_active;
	pthread_t thr;
	atomic_bool stop;
	/* idle: the earliest due time the last scan saw (schedule's clock,
	 * UINT64_MAX none), and the wake (a store change, stop) */
	uint64_t due;
	pthread_mutex_t mu;
	pthread_cond_t cond;
	bool kicked;
	atomic_ulong rounds;
};

static uint64_t sched_now_ns(const ww_probe_sched_t *s);

/* the wall clock summaries and logs are stamped with (cfg.wall) */
static time_t wall(const ww_probe_sched_t *s)
{
	return s->cfg.wall(s->cfg.wall_ctx);
}

static struct entry *entry_get(ww_probe_sched_t *s, const char *id, uint32_t window)
{
	struct entry *e;

	for (e = s->entries; e; e = e->next)
		if (!strcmp(e->id, id))
			return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->window = window;
	snprintf(e->id, sizeof(e->id), "%s", id);
	e->sysroot = s->cfg.sysroot;
	e->burst.fd = -1;
	e->next = s->entries;
	s->entries = e;
	return e;
}

static void publish(ww_probe_sched_t *s, struct entry *e)
{
	ww_store_set_probe(s->store, e->id, &e->sum, wall(s));
}

static void skip(ww_probe_sched_t *s, struct entry *e, const char *why, uint64_t next)
{
	bool changed = e->sum.skip_reason != why;

	e->sum.skip_reason = why;
	e->sum.skip_time = wall(s);
	e->next_due = next;
	if (changed)
		publish(s, e);
}

static void on_read(void *ctx, const ww_probe_read_t *r)
{
	struct entry *e = ctx;

	if (e->slice) { /* a drift slice: its own histogram, not the window */
		if (r->res == (int)e->burst.bs) {
			ww_hist_add_index(&e->drift->hist, ww_hist_index(r->lat_ns));
			e->drift->sum_ns += r->lat_ns;
		} else {
			e->drift->errors++;
		}
		return;
	}
	ww_probe_stats_add(&e->ls->stats, r->res == (int)e->burst.bs, r->lat_ns);
	if (r->res == (int)e->burst.bs)
		ww_hist_add_index(&e->ls->burst_hist, ww_hist_index(r->lat_ns));
}

/* Before every read: the gate was passed at the burst's start, but the kernel
 * may runtime-suspend the drive since (or between paced reads); a read then
 * would resume it. */
static bool may_issue(void *ctx)
{
	struct entry *e = ctx;

	return ww_runtime_suspended(e->sysroot, e->block) != 1;
}

static void start(ww_probe_sched_t *s, struct entry *e, const ww_drive_state_t *st,
		  const ww_probe_policy_t *p, uint64_t now)
{
	ww_probe_burst_t *b = &e->burst;
	const char *why;
	ww_probe_burst_t plan;
	uint64_t bytes;
	uint32_t lbs = st->drive->logical_block_bytes;
	int fd, r;

	if (st->standby)
		return skip(s, e, "standby", now + p->interval_s * 1000000000ull);
	if (st->hung || e->hung)
		return skip(s, e, "hung", now + p->interval_s * 1000000000ull);
	why = ww_probe_gate(s->cfg.sysroot, st->drive->block, st->drive->rotational, p,
			    e->last_ios);
	if (why) {
		if (!strcmp(why, "rotational"))   /* baseline for "other I/O since" */
			ww_probe_sysfs_ios(s->cfg.sysroot, st->drive->block, &e->last_ios);
		return skip(s, e, why, now + (!strcmp(why, "busy") ? BUSY_RETRY_NS :
					      p->interval_s * 1000000000ull));
	}
	/* One burst at a time: the one thread submits and reaps for every
	 * drive, so a read of one drive would be timed with another drive's
	 * submissions and completions in it (in the VM the scsi_debug p50 read
	 * 0.63 ms beside NVMe bursts against 0.10 ms alone). The next due
	 * drive starts right after (see run()). */
	if (s->qd_active || s->qd_active + p->queue_depth > RING_ENTRIES)
		return;                          /* next scan */
	bytes = ww_probe_sysfs_bytes(s->cfg.sysroot, st->drive->block);
	if (ww_probe_plan_burst(p, bytes, lbs, now ^ (uintptr_t)e, &plan))
		return skip(s, e, "empty range", now + p->interval_s * 1000000000ull);
	fd = open(st->drive->dev_path, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		ww_log_drive_failure(e->id, wall(s), "probe: open %s O_DIRECT: %s",
				     st->drive->dev_path, strerror(errno));
		return skip(s, e, errno == EINVAL ? "no O_DIRECT" : "open failed",
			    now + 10ull * p->interval_s * 1000000000ull);
	}
	if (!e->ls) {
		e->ls = calloc(1, sizeof(*e->ls));
		if (!e->ls || ww_probe_stats_init(&e->ls->stats, e->window)) {
			free(e->ls);
			e->ls = NULL;
			close(fd);
			return skip(s, e, "out of memory", now + p->interval_s * 1000000000ull);
		}
	}
	*b = plan;
	b->fd = fd;
	b->on_read = on_read;
	b->may_issue = may_issue;
	b->ctx = e;
	snprintf(e->block, sizeof(e->block), "%s", st->drive->block);
	ww_hist_reset(&e->ls->burst_hist);
	r = ww_probe_burst_start(s->eng, b);
	if (r) {
		close(fd);
		b->fd = -1;
		return skip(s, e, "invalid policy", now + p->interval_s * 1000000000ull);
	}
	e->active = true;
	s->qd_active += b->qd;
	e->sum.block_bytes = b->bs;
	e->sum.queue_depth = b->qd;
	e->next_due = now + p->interval_s * 1000000000ull;
}

static void complete_slice(ww_probe_sched_t *s, struct entry *e, uint64_t now);

static void complete(ww_probe_sched_t *s, struct entry *e, uint64_t now)
{
	ww_probe_burst_t *b = &e->burst;

	close(b->fd);
	b->fd = -1;
	e->active = false;
	s->qd_active -= b->qd;
	if (e->slice)
		return complete_slice(s, e, now);
	ww_probe_stats_summary(&e->ls->stats, &e->sum);
	e->sum.has_last = true;
	e->sum.last_time = wall(s);
	e->sum.last_reads = b->completed - b->errors;
	e->sum.last_errors = b->errors;
	e->sum.last_max_s = (double)b->max_ns / 1e9;
	e->sum.last_error = b->hung ? -ETIMEDOUT : b->last_error;
	e->sum.skip_reason = NULL;
	if (b->stopped) {               /* suspended during the burst */
		e->sum.skip_reason = "runtime-suspended";
		e->sum.skip_time = e->sum.last_time;
	}
	if (b->hung) {
		/* its read stays in the kernel; send nothing more to it */
		e->hung = true;
		ww_log_drive_failure(e->id, wall(s),
				     "probe: read outstanding > %u s; probes stopped",
				     (unsigned)(b->timeout_ns / 1000000000ull));
	} else if (b->errors) {
		ww_log_drive_failure(e->id, wall(s), "probe: %u of %u reads failed: %s", b->errors,
				     b->completed, strerror(-b->last_error));
	}
	ww_probe_sysfs_ios(s->cfg.sysroot, e->block, &e->last_ios);
	publish(s, e);
	if (s->cfg.after_burst) {
		ww_hprobe_t hp = {
			.has_latency = e->ls->burst_hist.total > 0,
			.p50_s = (double)ww_hist_quantile(&e->ls->burst_hist, 0.50) / 1e9,
			.p99_s = (double)ww_hist_quantile(&e->ls->burst_hist, 0.99) / 1e9,
			.max_s = e->sum.last_max_s,
			.reads = e->sum.last_reads,
			.errors = e->sum.last_errors,
		};

		s->cfg.after_burst(s->cfg.after_burst_arg, e->id, &hp, e->sum.last_time);
	}
}

/* ------------------------------------------------------- latency drift --- */

static uint64_t drift_retry_ns(const ww_probe_policy_t *p)
{
	uint64_t r = WW_PROBE_DRIFT_RETRY_S;

	if (p->drift_interval_s && p->drift_interval_s < r)
		r = p->drift_interval_s;
	return r * 1000000000ull;
}

/* the drift burst in progress ends without a result (why: static) */
static void drift_abort(ww_probe_sched_t *s, struct entry *e, const char *why, uint64_t next)
{
	bool changed = e->sum.drift_skip != why;

	free(e->drift);
	e->drift = NULL;
	if (s->drifting == e)
		s->drifting = NULL;
	e->drift_due = next;
	e->sum.drift_skip = why;
	if (changed)
		publish(s, e);
}

/* the kept burst's figures into the summary */
static void drift_show(struct entry *e, const ww_hdrift_t *b)
{
	e->sum.has_drift = true;
	e->sum.drift_time = b->t;
	e->sum.drift_p50_s = b->has_latency ? b->p50_s : 0;
	e->sum.drift_p99_s = b->has_latency ? b->p99_s : 0;
	e->sum.drift_mean_s = b->has_latency ? b->mean_s : 0;
	e->sum.drift_reads = b->reads;
	e->sum.drift_errors = b->errors;
	e->sum.drift_base_n = b->base_n;
	e->sum.drift_base_p99_s = b->base_p99_s;
}

/* The first sight of a drive with drift bursts: its newest kept burst (the
 * verdict and /metrics go on across a restart) and when the next is due;
 * without one, one drift interval from now: a service that starts (or
 * restarts in a loop) sends no drift burst at once. */
static void drift_plan(ww_probe_sched_t *s, struct entry *e, const ww_drive_t *d,
		       const ww_probe_policy_t *p, uint64_t now)
{
	ww_hdrift_t last;
	uint64_t wait = (uint64_t)p->drift_interval_s;

	(void)d;
	if (s->cfg.drift_latest && s->cfg.drift_latest(s->cfg.after_burst_arg, e->id, &last) == 1) {
		time_t w = wall(s), due = last.t + (time_t)p->drift_interval_s;

		e->sum.drift_qd = p->drift_qd;
		drift_show(e, &last);
		wait = due > w ? (uint64_t)(due - w) : 0;
		publish(s, e);
	}
	e->drift_due = now + wait * 1000000000ull;
	if (!e->drift_due)
		e->drift_due = 1;
}

/* the drift burst's figures, to the hook and the summary */
static void drift_finish(ww_probe_sched_t *s, struct entry *e, const ww_drive_t *d, uint64_t next)
{
	struct drift_run *r = e->drift;
	ww_hdrift_t b = { .t = wall(s) };
	unsigned errors = r->errors; /* r is freed below */

	b.reads = (uint32_t)(r->hist.total > UINT32_MAX ? UINT32_MAX : r->hist.total);
	b.errors = r->errors;
	b.has_latency = r->hist.total > 0;
	if (b.has_latency) {
		b.p50_s = (double)ww_hist_quantile(&r->hist, 0.50) / 1e9;
		b.p99_s = (double)ww_hist_quantile(&r->hist, 0.99) / 1e9;
		b.mean_s = (double)r->sum_ns / (double)r->hist.total / 1e9;
	}
	if (s->cfg.after_drift)
		s->cfg.after_drift(s->cfg.after_burst_arg, d, &b);
	e->sum.drift_qd = r->qd;
	drift_show(e, &b);
	free(e->drift);
	e->drift = NULL;
	s->drifting = NULL;
	e->drift_due = next;
	e->sum.drift_skip = NULL;
	if (errors)
		ww_log_drive_failure(e->id, wall(s), "probe: drift burst: %u reads failed",
				     b.errors);
	publish(s, e);
}

/* One slice of the drive's drift burst (starting it when due), when no
 * light probe is due: false when nothing was started. */
static bool drift_slice(ww_probe_sched_t *s, struct entry *e, const ww_drive_state_t *st,
			const ww_probe_policy_t *p, uint64_t now)
{
	ww_probe_policy_t idle = *p;
	ww_probe_burst_t plan, *b = &e->burst;
	const char *why = NULL;
	uint64_t bytes, slice = WW_PROBE_DRIFT_SLICE_S * 1000000000ull;
	int fd;

	if (!e->drift) {
		if (s->drifting || now < e->drift_due)
			return false;
		e->drift = calloc(1, sizeof(*e->drift));
		if (!e->drift) {
			e->drift_due = now + drift_retry_ns(p);
			return false;
		}
		e->drift->left_ns = (uint64_t)p->drift_seconds * 1000000000ull;
		e->drift->qd = p->drift_qd ? p->drift_qd : 1;
		s->drifting = e;
	}
	/* at idle: the light probe's gates, with no other I/O in flight; after
	 * the first slice a rotational disk is spinning for our own reads, which
	 * are no "other I/O" the rotational gate would wait for */
	idle.busy_inflight = 0;
	if (e->drift->started && idle.rotational == WW_PROBE_ROT_AUTO)
		idle.rotational = WW_PROBE_ROT_ALWAYS;
	if (st->standby)
		why = "standby";
	else if (st->hung || e->hung)
		why = "hung";
	else
		why = ww_probe_gate(s->cfg.sysroot, st->drive->block, st->drive->rotational, &idle,
				    e->last_ios);
	if (why) {
		drift_abort(s, e, why, now + drift_retry_ns(p));
		return false;
	}
	bytes = ww_probe_sysfs_bytes(s->cfg.sysroot, st->drive->block);
	if (ww_probe_plan_burst(p, bytes, st->drive->logical_block_bytes, now ^ (uintptr_t)e,
				&plan)) {
		drift_abort(s, e, "empty range", now + drift_retry_ns(p));
		return false;
	}
	plan.count = 0;
	plan.runtime_ns = e->drift->left_ns < slice ? e->drift->left_ns : slice;
	plan.qd = e->drift->qd;
	plan.max_iops = 0;
	if (s->qd_active + plan.qd > RING_ENTRIES)
		return false;
	fd = open(st->drive->dev_path, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		drift_abort(s, e, errno == EINVAL ? "no O_DIRECT" : "open failed",
			    now + drift_retry_ns(p));
		return false;
	}
	*b = plan;
	b->fd = fd;
	b->on_read = on_read;
	b->may_issue = may_issue;
	b->ctx = e;
	snprintf(e->block, sizeof(e->block), "%s", st->drive->block);
	if (ww_probe_burst_start(s->eng, b)) {
		close(fd);
		b->fd = -1;
		drift_abort(s, e, "invalid policy", now + drift_retry_ns(p));
		return false;
	}
	e->slice = true;
	e->active = true;
	e->drift->started = true;
	s->qd_active += b->qd;
	return true;
}

/* A slice ended: the burst goes on at the next scan, ends with its result,
 * or ends without one (the drive was suspended, a read hung). */
static void complete_slice(ww_probe_sched_t *s, struct entry *e, uint64_t now)
{
	ww_probe_burst_t *b = &e->burst;
	struct drift_run *r = e->drift;
	uint64_t ran = b->runtime_ns;

	e->slice = false;
	if (b->hung) {
		e->hung = true;
		ww_log_drive_failure(e->id, wall(s),
				     "probe: drift read outstanding > %u s; probes stopped",
				     (unsigned)(b->timeout_ns / 1000000000ull));
		return drift_abort(s, e, "hung", UINT64_MAX);
	}
	if (b->stopped)
		return drift_abort(s, e, "runtime-suspended",
				   now + WW_PROBE_DRIFT_RETRY_S * 1000000000ull);
	ww_probe_sysfs_ios(s->cfg.sysroot, e->block, &e->last_ios);
	r->left_ns = r->left_ns > ran ? r->left_ns - ran : 0;
	/* finished at the next scan (drift_step), where the drive is known */
}

/* After the light probes of a scan: the drift burst in progress goes on,
 * or the first drive whose drift burst is due starts one. */
static void drift_step(ww_probe_sched_t *s, ww_snapshot_t *snap, uint64_t now)
{
	for (size_t i = 0; i < snap->n && !s->qd_active && !atomic_load(&s->stop); i++) {
		const ww_drive_state_t *st = snap->drives[i];
		const ww_probe_policy_t *p = &s->cfg.policy;
		ww_probe_policy_t own;
		struct entry *e;

		if (!st->present || !st->drive->block[0] || !st->drive->dev_path[0])
			continue;
		if (s->cfg.lookup && s->cfg.lookup(s->cfg.lookup_ctx, st->drive, &own))
			p = &own;
		if (!p->enabled || !p->drift_interval_s) {
			e = s->drifting;
			if (e && !e->active && !strcmp(e->id, st->drive->id)) /* turned off */
				drift_abort(s, e, NULL, 0);
			continue;
		}
		e = entry_get(s, st->drive->id, p->window_reads);
		if (!e || e->active)
			continue;
		if (s->drifting && s->drifting != e)
			continue;
		if (!e->drift_due)
			drift_plan(s, e, st->drive, p, now);
		if (e->drift && !e->drift->left_ns) {
			drift_finish(s, e, st->drive,
				     now + (uint64_t)p->drift_interval_s * 1000000000ull);
			continue;
		}
		drift_slice(s, e, st, p, now);
	}
	/* the drive being measured is gone (or excluded): its burst ends */
	if (s->drifting && !s->drifting->active) {
		const ww_drive_state_t *g = ww_snapshot_find(snap, s->drifting->id);

		if (!g || !g->present)
			drift_abort(s, s->drifting, "gone", 0);
	}
}

static void scan(ww_probe_sched_t *s, uint64_t now)
{
	ww_snapshot_t *snap = ww_store_acquire(s->store);
	bool light_due = false;

	s->due = UINT64_MAX;

	for (size_t i = 0; i < snap->n && !atomic_load(&s->stop); i++) {
		const ww_drive_state_t *st = snap->drives[i];
		const ww_probe_policy_t *p = &s->cfg.policy;
		ww_probe_policy_t own;
		struct entry *e;

		if (!st->present || !st->drive->block[0] || !st->drive->dev_path[0])
			continue;
		if (s->cfg.lookup && s->cfg.lookup(s->cfg.lookup_ctx, st->drive, &own))
			p = &own;
		if (!p->enabled)
			continue;
		e = entry_get(s, st->drive->id, p->window_reads);
		/* the drift schedule starts at the drive's first sight */
		if (e && !e->drift_due && p->drift_interval_s)
			drift_plan(s, e, st->drive, p, now);
		if (e && e->drift_due && p->drift_interval_s && e->drift_due < s->due)
			s->due = e->drift_due;
		if (!e || e->active)
			continue;
		if (now >= e->next_due)
			start(s, e, st, p, now);
		/* still due: it waits for the burst running (a drift slice) */
		light_due |= !e->active && now >= e->next_due;
		if (!e->active && e->next_due < s->due)
			s->due = e->next_due;
	}
	/* drift bursts yield to the light probes: a slice only when none is
	 * running or due */
	if (!light_due && !s->qd_active)
		drift_step(s, snap, now);
	ww_snapshot_release(snap);
}

/* the schedule's clock (cfg.clock) in nanoseconds */
static uint64_t sched_now_ns(const ww_probe_sched_t *s)
{
	double t = s->cfg.clock(s->cfg.clock_ctx);

	return t > 0 ? (uint64_t)(t * 1e9) : 0;
}

/* Nothing in flight and no drift burst going on: sleep until the earliest
 * due time of the last scan (on the schedule's clock: the wait is that
 * long), a wake (ww_probe_sched_wake: the store changed) or stop. A time
 * already due that the scan did not start is looked at again a scan
 * interval later, never in a loop. */
static void idle_wait(ww_probe_sched_t *s, uint64_t now)
{
	uint64_t ns = s->due == UINT64_MAX ? IDLE_MAX_NS : s->due > now ? s->due - now : SCAN_NS;
	struct timespec ts;

	if (ns > IDLE_MAX_NS)
		ns = IDLE_MAX_NS;
	ts = ww_clock_mono_deadline_ns(ns);
	pthread_mutex_lock(&s->mu);
	while (!s->kicked && !atomic_load(&s->stop))
		if (pthread_cond_timedwait(&s->cond, &s->mu, &ts))
			break;
	s->kicked = false;
	pthread_mutex_unlock(&s->mu);
}

static void *run(void *arg)
{
	ww_probe_sched_t *s = arg;
	uint64_t next_scan = 0;

	while (!atomic_load(&s->stop)) {
		uint64_t now = sched_now_ns(s);
		bool idle;
		int r;

		atomic_fetch_add(&s->rounds, 1);
		if (now >= next_scan) {
			scan(s, now);
			next_scan = now + SCAN_NS;
		}
		idle = !ww_probe_engine_active(s->eng) && !s->drifting;
		/* idle: reap what completed (a hung read's late end), no wait */
		r = ww_probe_engine_step(s->eng, idle ? 0 : 200);
		if (r < 0) {
			ww_log(WW_LOG_ERR, "probe engine: %s; probes stopped", strerror(-r));
			break;
		}
		for (struct entry *e = s->entries; r > 0 && e; e = e->next)
			if (e->active && e->burst.done)
				complete(s, e, sched_now_ns(s));
		if (r > 0) {
			next_scan = 0;           /* start the next due drive now */
		} else if (idle && !atomic_load(&s->stop)) {
			idle_wait(s, now);
			next_scan = 0;
		}
	}
	return NULL;
}

void ww_probe_sched_wake(ww_probe_sched_t *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->mu);
	s->kicked = true;
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->mu);
}

unsigned long ww_probe_sched_rounds(ww_probe_sched_t *s)
{
	return s ? atomic_load(&s->rounds) : 0;
}

ww_probe_sched_t *ww_probe_sched_start(const ww_probe_sched_cfg_t *cfg, ww_store_t *store,
				       int *err)
{
	ww_probe_sched_t *s;

	*err = 0;
	if (!cfg->policy.enabled && !cfg->lookup)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		*err = -ENOMEM;
		return NULL;
	}
	s->cfg = *cfg;
	s->sysroot = strdup(cfg->sysroot ? cfg->sysroot : "");
	if (!s->sysroot) {
		*err = -ENOMEM;
		free(s);
		return NULL;
	}
	s->cfg.sysroot = s->sysroot;
	if (!s->cfg.clock)
		s->cfg.clock = ww_clock_monotonic;
	if (!s->cfg.wall)
		s->cfg.wall = ww_clock_wall;
	s->store = store;
	s->due = UINT64_MAX;
	pthread_mutex_init(&s->mu, NULL);
	ww_cond_init_monotonic(&s->cond);
	s->eng = ww_probe_engine_new(RING_ENTRIES, err);
	if (!s->eng) {
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->mu);
		free(s->sysroot);
		free(s);
		return NULL;
	}
	*err = -pthread_create(&s->thr, NULL, run, s);
	if (*err) {
		ww_probe_engine_free(s->eng);
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->mu);
		free(s->sysroot);
		free(s);
		return NULL;
	}
	return s;
}

void ww_probe_sched_stop(ww_probe_sched_t *s)
{
	if (!s)
		return;
	atomic_store(&s->stop, true);
	ww_probe_sched_wake(s);
	pthread_join(s->thr, NULL);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->mu);
	for (struct entry *e = s->entries, *n; e; e = n) {
		n = e->next;
		if (e->burst.fd >= 0)
			close(e->burst.fd);
		if (e->ls)
			ww_probe_stats_free(&e->ls->stats);
		free(e->ls);
		free(e->drift);
		free(e);
	}
	ww_probe_engine_free(s->eng);
	free(s->sysroot);
	free(s);
}
