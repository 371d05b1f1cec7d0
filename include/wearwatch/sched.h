/* sched: the threads that decide when a drive is touched: the poller (timer
 * step, rediscovery, a pool of reader threads that never lets a hung drive
 * delay the others) and the probe thread (latency bursts through one
 * io_uring engine). Time comes from a ww_mono_clock_fn so tests step it by
 * hand. Nothing here decodes or renders. */
#ifndef WEARWATCH_SCHED_H
#define WEARWATCH_SCHED_H

#include <stdbool.h>
#include <time.h>

#include "wearwatch/basic.h"
#include "wearwatch/collect.h"
#include "wearwatch/discover.h"
#include "wearwatch/store.h"
#include "wearwatch/history.h"
#include "wearwatch/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Polling scheduler of `wearwatch serve`: rediscovery on the timer thread,
 * device reads on a small pool of worker threads. A drive whose read has not
 * returned gets no new command; after hung_after_s it is marked hung in the
 * store and, if that leaves fewer than `workers` threads free, a replacement
 * worker is started, so a hung drive never delays the others. */

/** Every drive there is, into *out (malloc'd by the function, freed by the
 * caller): the number of drives, or -errno with *out untouched. No limit on
 * the number (ww_discover_all is the default). */
typedef int (*ww_discover_fn)(const char *sysroot, const char *const *include,
			      ww_drive_t **out);
typedef int (*ww_collect_fn)(const char *sysroot, const ww_drive_t *d,
			     ww_health_t *h, ww_read_report_t *r);

typedef struct ww_poller_cfg {
	const char *sysroot;            /* "" = live system */
	const char *const *include;     /* NULL-terminated block names, or NULL */
	unsigned interval_s;            /* solid-state drives */
	unsigned interval_rotational_s; /* rotational drives */
	/* seconds between rediscoveries; 0 = the default: with udev notices
	 * (watch_uevents) a safety net every WW_POLLER_SAFETY_REDISCOVER_S,
	 * without them every interval_s */
	unsigned rediscover_s;
	/* rediscover when udev says a block disk, NVMe controller or sg node
	 * came, went or changed (a thread blocked on its netlink socket); for
	 * the live system only (a test tree gets no notices) */
	bool watch_uevents;
	/* called (on the notice thread) when a notice asks for a rediscovery,
	 * and (on a reader thread) when the last read that was out ended, so
	 * that a caller sleeping on ww_poller_next_tick ticks; NULL = none */
	void (*wake)(void *arg);
	void *wake_arg;
	unsigned workers;               /* normal pool size (>= 1) */
	unsigned hung_after_s;          /* outstanding read -> hung */
	ww_discover_fn discover;        /* NULL = ww_discover_all */
	ww_collect_fn collect;          /* NULL = ww_collect_drive_kept: nodes kept
					   open while the drive is listed */
	/* called on the worker after each collection's ww_store_update(), so
	 * history and the endurance model see every read
	 * (ww_store_endurance_after_collect); NULL = none */
	void (*after_collect)(void *arg, ww_store_t *store, const ww_drive_t *d, int rc,
			      time_t now);
	void *after_collect_arg;
	/* time of every schedule decision: when a drive is due, when a read
	 * counts as hung, when to rediscover. NULL = ww_clock_monotonic. The
	 * read duration reported to the store is always measured on
	 * CLOCK_MONOTONIC. On ww_clock_monotonic a waiting reader wakes for
	 * the next due drive and starts its round itself (the caller's tick
	 * is the fallback, below); on another clock only ticks do. */
	ww_mono_clock_fn clock;
	void *clock_ctx;
	/* the wall clock the store, history and logs are stamped with (every
	 * `now` the poller hands on). NULL = ww_clock_wall. */
	ww_wall_clock_fn wall;
	void *wall_ctx;
	/* self-test scheduling after each read (below); NULL = none */
	struct ww_selftests *selftests;
} ww_poller_cfg_t;

#define WW_POLLER_MAX_EXTRA_WORKERS 16
#define WW_POLLER_SAFETY_REDISCOVER_S 600 /* with udev notices */

typedef struct ww_poller ww_poller_t;

/** Create the scheduler and start its workers. Returns NULL on failure. */
ww_poller_t *ww_poller_start(const ww_poller_cfg_t *cfg, ww_store_t *store);

/** Timer step (call about once a second from one thread): rediscover when due,
 * queue reads of drives that are due and not in flight, mark overdue reads
 * hung. Never issues a device command itself. Returns the reads queued or
 * running that are not marked hung (0 once a round's reads are in; cfg.wake
 * is called when that becomes 0), and puts in *next_s (when not NULL) what
 * ww_poller_next_tick would say: both taken under the lock the tick holds,
 * before it wakes the readers. */
unsigned ww_poller_tick(ww_poller_t *p, double *next_s);

/** Reads queued or running, hung ones included: 0 when no read is out. A
 * caller stepping its own clock (cfg.clock) waits for this to settle before
 * the next step, so that a read's next_due is taken at the time it
 * finished. */
unsigned ww_poller_busy(ww_poller_t *p);

/** Seconds (on the poller's clock) until ww_poller_tick has work: the
 * earliest due drive not being read (50 ms after it on ww_clock_monotonic,
 * where a reader starts the round and this tick only covers a round no
 * reader was free to start), the next rediscovery, while a read is
 * out the moment it would count as hung, and while reads wait in the queue
 * the moment the oldest has waited 50 ms (that tick wakes every reader; a
 * round first wakes one reader per 50 ms its reads took the last time). 0
 * when something is due now. A finished read makes its drive due one
 * interval after the tick that queued it (one interval after its end when
 * it ran longer than that), and a tick reads the drives due within a tenth
 * of their interval (at most 1 s), so a round's drives stay together: a
 * caller sleeping on this is woken by cfg.wake once the round's reads are
 * in. */
double ww_poller_next_tick(ww_poller_t *p);

/** A device notice (udev's action and kernel name, ww_uevent_fn): the next
 * tick rediscovers (ww_poller_next_tick says 0 until then; cfg.wake is
 * called on the first notice of a burst), and a drive one of whose nodes
 * has that name opens its nodes again at its next read. Any thread. */
void ww_poller_device_event(ww_poller_t *p, const char *action, const char *sysname);

/** Rediscoveries run so far (tests). */
unsigned ww_poller_discoveries(ww_poller_t *p);

/** Whether udev notices are being watched (cfg.watch_uevents and the
 * netlink socket could be had). */
bool ww_poller_watching(ww_poller_t *p);

/** Stop: no new reads, wait up to timeout_s for workers. Frees everything and
 * returns true when all workers exited; otherwise (a read is stuck in the
 * kernel) leaves the poller allocated for the exiting process and returns
 * false. */
bool ww_poller_stop(ww_poller_t *p, unsigned timeout_s);

/** Stop as ww_poller_stop does when every worker exits within timeout_s
 * (then true: p is freed). When a read is still running after it (a slow
 * SAS drive, an SG_IO stuck in the kernel), the stop is undone instead:
 * the running reads go on, the workers that were idle are started again,
 * the schedule and its settings stay, and false is returned with p still
 * the caller's, as if the call had not been made (reads were only delayed
 * by up to timeout_s). For a reload that must not end the service. */
bool ww_poller_try_stop(ww_poller_t *p, unsigned timeout_s);

/* Self-test scheduling: after each read of a drive whose [health] or
 * [drive] section sets self_test_schedule, on the worker that read it. A
 * due test (smartd's -s rules: every hour since the last look, L before S
 * before C before O) starts when the drive's latest read found it active
 * (or in standby with self_test_in_standby), no test runs on it, fewer
 * than [health] self_test_concurrent drives of the host are testing, and
 * none of them shares a set (ww_drive_sets: md array, LVM volume group,
 * ZFS pool) or, for drives read through smartctl, a controller
 * (ww_smartctl_controller_key: the MegaRAID /dev/bus/N, the SCSI host)
 * with it; else it waits for a later read. A test counts as
 * running while the drive says so, or, for a drive that does not say, for
 * the time it gives (30 min short, 24 h extended when it gives none) after
 * the start. A test that finds another running (-EBUSY) is skipped, as
 * smartd skips it: nothing is ever aborted. A selective test (type n, ATA
 * drives whose SMART READ DATA says they run them and whose capacity is
 * known) reads the drive's next span of self_test_spans
 * (ww_selftest_next_span), from the drive's cursor, which moves on at each
 * start and wraps to LBA 0 after the last span. The state per drive goes to
 * the store (ww_store_set_self_test) for the verdict and the renderers. */

typedef struct ww_selftests ww_selftests_t;

/** The start of one test: ww_collect_start_self_test's signature. */
typedef int (*ww_selftest_start_fn)(const char *sysroot, const ww_drive_t *d, ww_protocol_t proto,
				    unsigned kind, const ww_selftest_span_t *span, bool wake,
				    ww_cmd_status_t *st, const char **why);

typedef struct ww_selftests_cfg {
	const char *sysroot;        /* "" = live system (sets from its sysfs) */
	ww_selftest_start_fn start; /* NULL = ww_collect_start_self_test */
	/* where a drive's selective cursor (the first LBA of its next span)
	 * is kept across restarts: span_load at the first selective test of
	 * the drive since the start (1 found, *next set; 0 none: from LBA 0),
	 * span_save after each start of one, both with span_arg, on the
	 * worker that starts it. NULL = only in memory. */
	int (*span_load)(void *arg, const char *id, uint64_t *next);
	void (*span_save)(void *arg, const char *id, uint64_t next);
	void *span_arg;
} ww_selftests_cfg_t;

/** New scheduler with no thresholds (so nothing scheduled). NULL on ENOMEM. */
ww_selftests_t *ww_selftests_new(const ww_selftests_cfg_t *cfg);

/** The thresholds of the configuration generation now in force (the
 * schedules, self_test_in_standby, self_test_concurrent); valid until the
 * next call. NULL = none scheduled. */
void ww_selftests_set_thresholds(ww_selftests_t *s, const ww_thresholds_t *t);

/** One read of d finished at `now` (wall clock): rc and h as the poller's
 * collect returned them (h read only when rc == 0). May send the start
 * command (through cfg.start) on the calling thread. */
void ww_selftests_after_read(ww_selftests_t *s, ww_store_t *store, const ww_drive_t *d, int rc,
			     const ww_health_t *h, time_t now);

/** Drives counted as testing now. */
size_t ww_selftests_testing(ww_selftests_t *s);

void ww_selftests_free(ww_selftests_t *s);

/* The probe thread: one io_uring engine for every drive. */

typedef struct ww_probe_sched ww_probe_sched_t;

/** Per-drive policy lookup (the configuration file fills it later): copies
 * the drive's policy into *out and returns true, or false for the default
 * policy. A copy, so that no pointer into the configuration it came from
 * outlives the call (a reload may free that configuration). */
typedef bool (*ww_probe_policy_fn)(void *ctx, const ww_drive_t *d, ww_probe_policy_t *out);

typedef struct ww_probe_sched_cfg {
	const char *sysroot;             /* "" = live system */
	ww_probe_policy_t policy;        /* default for every drive */
	ww_probe_policy_fn lookup;
	void *lookup_ctx;
	/* called on the probe thread after each finished burst (NULL = none):
	 * that burst's own p50/p99/max and counts, for the history database */
	void (*after_burst)(void *arg, const char *id, const ww_hprobe_t *p, time_t now);
	void *after_burst_arg;
	/* latency-drift bursts (policy drift-*), NULL = none of these: after
	 * each finished drift burst, b holds its figures and time and the hook
	 * fills in the baseline it was compared with and keeps it
	 * (ww_store_endurance_drift_burst); at a drive's first sight,
	 * drift_latest gives its newest kept burst (1 found, 0 none), so the
	 * schedule and the verdict go on across a restart. Both on the probe
	 * thread, with after_burst_arg. */
	void (*after_drift)(void *arg, const ww_drive_t *d, ww_hdrift_t *b);
	int (*drift_latest)(void *arg, const char *id, ww_hdrift_t *out);
	/* time of the schedule: when a drive's next burst is due and when the
	 * snapshot is scanned again. NULL = ww_clock_monotonic. The pacing and
	 * the hung-read timeout inside a burst are the engine's, on
	 * CLOCK_MONOTONIC (ww_probe_now_ns). */
	ww_mono_clock_fn clock;
	void *clock_ctx;
	/* the wall clock summaries, history and logs are stamped with. NULL =
	 * ww_clock_wall. */
	ww_wall_clock_fn wall;
	void *wall_ctx;
} ww_probe_sched_cfg_t;

/** Start the probe thread: every second while bursts run (else when the next
 * drive is due or ww_probe_sched_wake() is called) it takes the store's snapshot, sends
 * bursts to drives that are due and pass ww_probe_gate() (and are not in
 * standby or hung per the store), and writes summaries with
 * ww_store_set_probe(). One burst runs at a time (the next due drive starts
 * when it ends), and the runtime power status is read again before each read
 * (a drive suspended meanwhile ends its burst, skip reason
 * "runtime-suspended").
 *
 * Latency-drift bursts (policy drift_interval_s) run when no light probe is
 * due, one drive at a time, in slices of WW_PROBE_DRIFT_SLICE_S: before each
 * slice the due light probes of every drive run first, and the gates are
 * asked again with no other I/O in flight allowed (at idle); a drive that is
 * busy, suspended, in standby or hung ends its drift burst (drift_skip says
 * why), which is tried again WW_PROBE_DRIFT_RETRY_S later. Drift reads do
 * not enter the light probes' window or totals. Returns NULL when disabled
 * or on failure (*err). */
ww_probe_sched_t *ww_probe_sched_start(const ww_probe_sched_cfg_t *cfg, ww_store_t *store,
				       int *err);
/** Stop and join the thread (reads hung in the kernel are left to it). */
void ww_probe_sched_stop(ww_probe_sched_t *s);
/** With nothing in flight the thread sleeps until the next drive is due
 * (on cfg.clock), not in ticks: call this when the store changed (a drive
 * came, went or changed state) or after stepping cfg.clock, so that it
 * scans again now. NULL ok. */
void ww_probe_sched_wake(ww_probe_sched_t *s);
/** Times the thread went round its loop (scan, step, sleep): flat while it
 * is idle (tests). 0 for NULL. */
unsigned long ww_probe_sched_rounds(ww_probe_sched_t *s);

#ifdef __cplusplus
}
#endif
#endif
