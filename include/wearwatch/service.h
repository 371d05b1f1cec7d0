/* service: process lifetimes. The collecting half shared by `collector` and
 * `serve` (store, history, poller, probes, reload), the three process mains
 * on one signal/tick loop with readiness, reload and watchdog, and the
 * events that a changed snapshot produces (journal entries and the
 * notification program). No business logic: verdicts come from the model,
 * answers from the renderers. */
#ifndef WEARWATCH_SERVICE_H
#define WEARWATCH_SERVICE_H

#include <signal.h>
#include <stdbool.h>
#include <time.h>
#include <stddef.h>
#include <sys/types.h>

#include "wearwatch/basic.h"
#include "wearwatch/conf.h"
#include "wearwatch/probe.h"
#include "wearwatch/store.h"
#include "wearwatch/history.h"
#include "wearwatch/http.h"
#include "wearwatch/sched.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pieces shared by the long-running subcommands (collector, web): signal
 * mask, main-loop tick that fits the watchdog, --help. */

/** Block SIGTERM, SIGINT, SIGHUP and the wake signal (SIGUSR1) in this
 * thread (and every thread created after), ignore SIGPIPE, and return the
 * set for sigtimedwait(). */
sigset_t ww_service_block_signals(void);

/** Before the first thread: malloc with one arena and a fixed mmap
 * threshold, so memory freed by any thread is reused or returned. */
void ww_service_setup_memory(void);

/** From any thread: the main loop should tick now (wakes that come before
 * it runs are one; a caller that wakes often folds its wakes itself, as the
 * runtime wakes once per round of reads). */
void ww_service_wake(void);

/** What a long-running process does in the one main loop (ww_service_run). */
typedef struct ww_service_ops {
	/** Called at each wake-up; returns the seconds until it needs to be
	 * called again (the loop wakes sooner for a signal, ww_service_wake()
	 * or the systemd watchdog). NULL = nothing to do. */
	double (*tick)(void *ctx);
	/** SIGHUP: re-read the configuration and apply it. Return 0 when it
	 * was applied, another negative value when the last good one was kept
	 * (already logged), WW_SERVICE_STOP when the process cannot go on. */
	int (*reload)(void *ctx);
	void *ctx;
} ww_service_ops_t;

#define WW_SERVICE_STOP (-10000)

/** The main loop of `collector`, `web` and `serve`, after READY=1: sleeps
 * until ops->tick asked to be called again, a signal (SIGTERM, SIGINT,
 * SIGHUP, blocked by ww_service_block_signals) or a wake, at most half the
 * systemd watchdog interval; runs ops->tick, pings the watchdog, and
 * brackets each reload with RELOADING=1 / READY=1. An idle service wakes a
 * few times a minute, not every second. Returns on SIGTERM/SIGINT (logged "...: stopping",
 * STOPPING=1 sent) with 0, or after a reload returned WW_SERVICE_STOP with 1. */
int ww_service_run(sigset_t sigs, const ww_service_ops_t *ops);

/** Prints the usage of `wearwatch <cmd>` when argv has --help/-h; true then. */
bool ww_service_wants_help(int argc, char **argv, const char *cmd);

/** Started as root outside systemd (no INVOCATION_ID), keep only the
 * capabilities the health commands need, CAP_SYS_RAWIO (SG_IO) and
 * CAP_SYS_ADMIN (NVMe admin): bounding, permitted and effective sets, and
 * no_new_privs, as wearwatch-collector.service's CapabilityBoundingSet and
 * NoNewPrivileges do. Returns 1 (dropped, msg says so), 0 (nothing to do:
 * not root, or under systemd whose unit limits it), or -errno with msg. */
int ww_service_drop_caps(char *msg, size_t len);

/** `wearwatch collector` and `wearwatch web` (see wearwatch(8)). */
int ww_collector_main(int argc, char **argv);
int ww_web_main(int argc, char **argv);

/** `wearwatch serve [--listen HOST:PORT] ...`: both halves in one process;
 * runs until SIGTERM/SIGINT. argv[0] is "serve". Returns the exit code. */
int ww_serve_main(int argc, char **argv);

/* The collecting half of the service, shared by `wearwatch collector` and
 * `wearwatch serve` so both start, reload and stop the same way: store,
 * poller (with the [drive] include/exclude filter), endurance model and
 * history (ratings and warranty starts from [drive] sections, [history]
 * retention, state directory), latency probes (per-drive policy from
 * [drive] probe =), smartctl forcing ([drive] smartctl =), and the main-loop
 * work: tick, snapshot diff -> events and notification program, STATUS=. */

/** What only `serve` sets from flags (the collector takes the file's
 * [endurance], [history] and [probe]; the probe flags are configuration
 * flags, conf.h). */
typedef struct ww_runtime_opts {
	bool replay;                   /* drives from --replay captures */
	const char *smartctl[16];      /* --smartctl DRIVE=TYPE (checked), before [drive] ones */
	size_t n_smartctl;
	ww_conf_endurance_opts_t *endurance; /* --rating, --ratings-file, --no-history, ...;
					  NULL = defaults. Its overrides are consumed. */
	bool notify_spool;             /* queue events in <state_directory>/notify for
					  wearwatch-notify.service instead of running
					  [notify] exec here (`collector`: no network) */
	ww_collect_fn collect;         /* reads a drive; NULL = the live or replay
					  readers (tests give fakes) */
	double (*clock)(void *ctx);    /* monotonic seconds of the read schedule and
					  of the heap trim's limit; NULL =
					  ww_clock_monotonic (tests give a fake) */
	void *clock_ctx;
} ww_runtime_opts_t;

typedef struct ww_runtime ww_runtime_t;

/** Parse the [drive] settings owned by other modules (rating +
 * warranty_start through ww_rating_override_parse, probe through
 * ww_probe_policy_parse) and report the first error as "path: [drive NAME]:
 * what". Pure apart from the parsers; used at start and before a reload is
 * accepted. */
int ww_runtime_check_conf(const ww_conf_t *c, char *err, size_t errlen);

/** Start everything (store, history, poller, probes). NULL with err set. */
ww_runtime_t *ww_runtime_start(const ww_conf_t *c, ww_runtime_opts_t *o, char *err,
			       size_t errlen);

ww_store_t *ww_runtime_store(ww_runtime_t *rt);

/** What the routes render from (store, endurance service, the current
 * thresholds; a reload replaces the thresholds in place): for the
 * collector's socket and serve's front end. Valid until ww_runtime_stop. */
const ww_route_src_t *ww_runtime_route_src(ww_runtime_t *rt);

/** One main-loop step: poller tick, events (journal and notification
 * program, ww_events_update), STATUS=, reap children. Returns the seconds
 * until the next step is needed: the next drive due, the next rediscovery,
 * or the hung-read check, and at most a second while reads are out (their
 * events wait that long at most); the end of the round's last read wakes the
 * loop at once (ww_service_wake). */
double ww_runtime_tick(ww_runtime_t *rt);

/** Apply a new configuration: the poller restarts when poll settings,
 * include lists or [drive] sections changed (the store and history stay),
 * probe policies and smartctl forcing are swapped, missing_retention is
 * applied to the store. Ratings, warranty starts, retention and the state
 * directory need a restart (logged). When a drive read is still running 5 s
 * after the poller was asked to stop, the poller goes on as it was, with the
 * poll settings it had (a warning says they apply at the next reload or
 * restart; the next reload compares with those) and the rest is applied:
 * then 1. Returns 0 (all applied), 1 (all but the poll settings) or -errno
 * (-ENOMEM: then the service cannot continue, the reader threads did not
 * restart). */
int ww_runtime_reload(ww_runtime_t *rt, const ww_conf_t *c);

/** The configuration whose poll settings (interval_s,
 * interval_rotational_s, rediscover_s, workers, hung_after_s, include) the
 * reader threads run with: the last one they were started with, older than
 * the current one after a reload that returned 1. Valid until
 * ww_runtime_stop. */
const ww_conf_t *ww_runtime_poll_conf(const ww_runtime_t *rt);

/** Stop and free (the store only when every reader thread exited). */
void ww_runtime_stop(ww_runtime_t *rt);

/** Configuration generations in memory: the current one, and older ones
 * still held by a render, a collection or a probe scan, or whose poll
 * settings the reader threads still run with (a reload that returned 1).
 * A count for tests: it must not grow with reloads. */
size_t ww_runtime_generations(ww_runtime_t *rt);

/** Heap trims the ticks asked for: one after the reads of a round are in,
 * none while one is out (a read that is marked hung aside) or nothing
 * changed, and at most one a minute (the first at once). A count for
 * tests. */
uint64_t ww_runtime_trims(const ww_runtime_t *rt);

/** Of those, the ones made (malloc_trim called): the heap could give back
 * at least 128 KiB (free chunks below its top, and its top beyond the
 * 256 KiB kept). A count for tests. */
uint64_t ww_runtime_trims_made(const ww_runtime_t *rt);

/* Drive events: each drive's health verdict (ww_drive_verdict, the one every
 * output prints) compared with the one last notified. Logged with their
 * MESSAGE_ID (basic.h, catalog/wearwatch.catalog); each also goes to the
 * notification program (like smartd -M exec), run directly (`serve`) or
 * queued in a spool directory for wearwatch-notify.service (`collector`,
 * whose sandbox has no network; docs/security.md). The program gets:
 *
 *   WEARWATCH_EVENT        status_change | reason_added | reason_cleared |
 *                          missing | back | flapping | test
 *   WEARWATCH_DRIVE        stable drive id
 *   WEARWATCH_DEVICE       /dev node
 *   WEARWATCH_MODEL, WEARWATCH_SERIAL, WEARWATCH_HOST
 *   WEARWATCH_OLD_STATE, WEARWATCH_NEW_STATE   ok | warning | critical | unknown
 *   WEARWATCH_REASONS      every current reason, one "severity: sentence" a line
 *   WEARWATCH_REASON_CODES the current reasons' codes, space-separated
 *   WEARWATCH_ADDED, WEARWATCH_CLEARED   reasons that appeared / cleared, as REASONS
 *   WEARWATCH_CHANGED      what changed, one line
 *   WEARWATCH_SUPPRESSED   changes not notified since the last notification (flapping)
 *   WEARWATCH_TIME         RFC 3339, UTC
 *   WEARWATCH_MESSAGE      one-line human summary
 *   WEARWATCH_MESSAGE_ID   the journal MESSAGE_ID of the event
 *   WEARWATCH_JSON         all of the above as one JSON object (webhooks)
 *
 * What is sent: a status change (except to unknown, and unknown -> ok at
 * start), a reason that appears or clears while the status stays (reasons of
 * severity unknown are not counted), a drive going missing or coming back.
 * The same state is never sent twice; a drive that changes more than
 * flap_limit times in flap_window gets one "flapping" summary at the end of
 * the window instead of the rest. Collection failures are logged where they
 * happen (poller.c, WW_EV_COLLECT_FAILURE). */

#define WW_EVENT_MAX_VARS 24

/** One event's WEARWATCH_* variables ("NAME=value", malloc'd). */
typedef struct ww_event {
	char *vars[WW_EVENT_MAX_VARS];
	size_t n;
} ww_event_t;

/** Identity of the drive an event is about. */
typedef struct ww_event_drive {
	const char *id, *device, *model, *serial;
} ww_event_drive_t;

/** What changed, for ww_event_build(). */
typedef struct ww_event_change {
	const char *kind;                 /* WEARWATCH_EVENT */
	ww_status_t old_status;
	const ww_verdict_t *now;          /* the current verdict */
	const ww_vreason_t *added, *cleared;
	size_t n_added, n_cleared;
	unsigned suppressed;
	const char *message;              /* WEARWATCH_MESSAGE */
	ww_event_kind_t log_kind;         /* for WEARWATCH_MESSAGE_ID */
} ww_event_change_t;

/** Fill e (emptied first) with every variable above. */
void ww_event_build(ww_event_t *e, const ww_event_drive_t *d, const ww_event_change_t *c,
		    time_t now);

/** Free the variables. */
void ww_event_clear(ww_event_t *e);

/** Start `prog` with the event's variables in its environment (stdin
 * /dev/null; PATH and the like kept, inherited WEARWATCH_* dropped), in a
 * process group of its own (pgid = pid) so the timeout kills everything it
 * started. Returns the pid or -errno. The caller reaps it (ww_events_reap or
 * ww_events_wait). */
pid_t ww_events_exec(const char *prog, const ww_event_t *ev);

/** Queue the event in dir (created 0700) as one NUL-separated
 * "NAME=value" file, written whole then renamed to NNN.event: what
 * `wearwatch notify-deliver` reads. Returns 0 or -errno. */
int ww_events_spool(const char *dir, const ww_event_t *ev);

/** Largest spooled event read back (ww_events_build's are a few KiB). */
#define WW_EVENT_SPOOL_MAX (1024 * 1024)

/** Read a spooled event file back: a regular file only (a FIFO is refused
 * at once, errno EINVAL, not waited on), at most WW_EVENT_SPOOL_MAX bytes
 * (-EFBIG), parsed by ww_events_spool_parse. Returns 0 or -errno. */
int ww_events_spool_read(const char *path, ww_event_t *ev);

/** Parse a spooled event: NUL-separated "WEARWATCH_NAME=value" strings (the
 * last NUL may be missing), 1 to WW_EVENT_MAX_VARS of them. Returns 0 with
 * ev->vars set, -EINVAL (anything else: an empty string, another name, no
 * '=', too many) or -ENOMEM; ev is cleared on failure. */
int ww_events_spool_parse(const char *buf, size_t len, ww_event_t *ev);

typedef struct ww_events ww_events_t;

ww_events_t *ww_events_new(void);
void ww_events_free(ww_events_t *ev);

/** Where events go: exec (the program, "" = none), spool ("" = run exec
 * here), flap limit and window. Safe to call again on reload. */
void ww_events_configure(ww_events_t *ev, const char *exec, const char *spool,
			 unsigned flap_limit, unsigned flap_window_s);

/** One pass at ctx->now over the current snapshot ctx->snap: verdicts
 * (ww_drive_verdict with ctx) compared with the last notified, events
 * logged and sent; prev (may be NULL) only for the standby journal entries.
 * Also sends the summaries of flapping drives whose window ended. Returns
 * the number of events logged. */
int ww_events_update(ww_events_t *ev, const ww_render_ctx_t *ctx, const ww_snapshot_t *prev);

/** Forget a drive (dropped by configuration): no event for it, and a fresh
 * start if it comes back. */
void ww_events_forget(ww_events_t *ev, const char *id);

/** Drives ww_events_update looked at (its state compared, the verdict
 * computed when it changed), over the handle's life. An update handed the
 * snapshot the last one looked at as prev skips the drives whose records
 * the two share, until one is due for its periodic second look. A count for
 * tests. */
unsigned long ww_events_looks(const ww_events_t *ev);

/** Reap finished notification programs; kill (SIGKILL to the process
 * group) those running longer than timeout_s. Call from the main loop. */
void ww_events_reap(unsigned timeout_s);

/** How a notification program ended, from its waitpid() status: "exit 5",
 * "killed by signal 9 (Killed)", or "killed after the N s timeout" when
 * timed_out (it was SIGKILLed for running timeout_s or longer). */
void ww_events_status_text(int status, bool timed_out, unsigned timeout_s, char *buf,
			   size_t len);

/** Whether a notification program is still running (not reaped yet). */
bool ww_events_running(void);

/** Wait for the notification program pid (started by ww_events_exec), killing
 * it after timeout_s seconds (0 = no limit); the same reaping and timeout as
 * ww_events_reap. desc gets ww_events_status_text's text. Returns 0 when it
 * exited 0, 1 otherwise, -ECHILD when pid is not one of ours. */
int ww_events_wait(pid_t pid, unsigned timeout_s, char *desc, size_t len);

/* Logging of failed history writes (a full disk under --state-dir, a
 * read-only file): the first failure is a warning, repeats are rate-limited
 * by the log sink (ww_log_failure, key "history": at most one line per
 * WW_LOG_REPEAT_S with the number left out), and the first write that works
 * again is a notice. Every failure is counted by the history itself
 * (ww_history_write_errors, metric wearwatch_history_write_errors_total). */

/** Install the logging hook on h; path (copied; NULL: "history") names the
 * database in the messages. One history per process. NULL h is a no-op. */
void ww_history_log_attach(ww_history_t *h, const char *path);

/* x */

/** The ratings table as the service uses it, in match order: the
 * --ratings-file / [endurance] ratings_file files of o (in their order),
 * then every o->ratings_dir (default WW_RATINGS_DIR) *.tsv in name order,
 * then the shipped rows; the first matching row wins, so an administrator's
 * row overrides a shipped one without a release. Each row's kind says which
 * of the three it came from (WW_RATING_FILE, WW_RATING_RATINGS_D,
 * WW_RATING_TABLE): the rating's source. o may be NULL (directory and
 * shipped rows only). Returns rows or -errno with "file:line: what" in err;
 * *out is then empty. */
int ww_service_ratings_build(const ww_conf_endurance_opts_t *o, ww_ratings_t *out, char *err,
			     size_t errlen);

/** Reload: build the table again (ww_service_ratings_build, same files and
 * directory as at start) and give it to s; on an error the table in use
 * stays and the reason is logged. s NULL is a no-op. */
void ww_service_endurance_reload(ww_store_endurance_t *s, const ww_conf_endurance_opts_t *o);

/** Load the ratings table (ww_service_ratings_build), open the history
 * database (creating the state directory, mode 0750), register the service
 * globally. A history that cannot be opened is logged and the service runs
 * without it (windows then stay absent). Returns NULL on a bad ratings file or
 * out of memory. Consumes o->overrides. */
ww_store_endurance_t *ww_service_endurance_start(ww_conf_endurance_opts_t *o);

#ifdef __cplusplus
}
#endif
#endif
