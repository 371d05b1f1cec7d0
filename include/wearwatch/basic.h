/* basic: leaf helpers every other folder may use and that use nothing of
 * ours: the one log sink with per-key rate limiting, systemd readiness and
 * watchdog notification (sd_notify), and the clocks: the monotonic and the
 * wall clock the schedulers read through replaceable functions so tests
 * never sleep, and the one reader of the clocks outside latency timing.
 *
 * Logging: the sink is the systemd journal (its native protocol, structured
 * fields) when stderr is the journal stream systemd gave us
 * ($JOURNAL_STREAM), else plain stderr; an entry the journal does not take
 * at once (its queue full, no journal) is written to stderr instead. Library folders below the service
 * log nothing above debug; the service logs a failure once and rate-limits
 * repeats per drive (chrony's LOG_RateLimited).
 *
 * sd_notify: every call is a no-op when NOTIFY_SOCKET is unset (not started
 * by systemd with Type=notify), so callers make them unconditionally. The
 * watchdog interval and socket activation's descriptors are read from
 * systemd's environment variables here too (src/basic/sdnotify.c says why
 * not through libsystemd).
 *
 * ww_idmap: the per-drive table kept sorted by drive id that several folders
 * keep (events, history's cache, the endurance service). */
#ifndef WEARWATCH_BASIC_H
#define WEARWATCH_BASIC_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------- logging --- */
typedef enum ww_log_level {
	WW_LOG_ERR = 3,
	WW_LOG_WARNING = 4,
	WW_LOG_NOTICE = 5,
	WW_LOG_INFO = 6,
	WW_LOG_DEBUG = 7,
} ww_log_level_t;

/** The one sink: "wearwatch[<level>]: message" on stderr, or a journal entry
 * with PRIORITY= under systemd. Thread-safe. */
void ww_log(ww_log_level_t level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** How long repeats of a drive's failure stay quiet after it was logged. */
#define WW_LOG_REPEAT_S 3600

/** Log a failure of drive `id` the first time, then at most once per
 * WW_LOG_REPEAT_S with the number of repeats suppressed in between. `now` is
 * seconds since the epoch. Returns true when the message was written. */
bool ww_log_drive_failure(const char *id, time_t now, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** Note that drive `id` works again: logs "recovered" once if a failure had
 * been logged, and resets its rate limit. */
void ww_log_drive_ok(const char *id, time_t now);

/** The same rate limit for a failure that is not a drive read (a plain
 * warning, no MESSAGE_ID/DRIVE): `key` names what fails ("history"), kept
 * apart from drive ids. Returns true when the message was written. */
bool ww_log_failure(const char *key, time_t now, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** `key` works again: logs `what` (a notice, with the number of failures not
 * logged) once if a failure had been logged, and resets the rate limit. */
void ww_log_failure_ok(const char *key, time_t now, const char *what);

/** Event kinds with a fixed MESSAGE_ID each (catalog: catalog/wearwatch.catalog). */
typedef enum ww_event_kind {
	WW_EV_HEALTH_CHANGE,     /* verdict status changed (ok, warning, unknown) */
	WW_EV_CRITICAL_WARNING,  /* verdict status became critical */
	WW_EV_STANDBY,           /* drive left alone: standby / runtime-suspended */
	WW_EV_DRIVE_MISSING,     /* drive no longer listed by discovery */
	WW_EV_COLLECT_FAILURE,   /* a read of the drive failed */
	WW_EV_HEALTH_WORSE,      /* a reason appeared, status unchanged */
	WW_EV_HEALTH_BETTER,     /* a reason cleared, status unchanged */
	WW_EV_DRIVE_BACK,        /* a missing drive is listed again */
	WW_EV_NOTIFY_SUPPRESSED, /* a flapping drive's notifications held back */
	WW_EV_KIND_MAX,
} ww_event_kind_t;

/** 32 lowercase hex digits of the event kind's MESSAGE_ID, "" for invalid. */
const char *ww_log_message_id(ww_event_kind_t kind);

/** Log one drive event: journal entry with MESSAGE_ID=, DRIVE=<id>,
 * DEVICE=<dev path>, PRIORITY= and MESSAGE=, or
 * "wearwatch[<level>]: <drive>: message" on stderr. device may be NULL. */
void ww_log_event(ww_event_kind_t kind, ww_log_level_t level, const char *drive,
		  const char *device, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/** Force the sink: 1 journal, 0 stderr, -1 decide from $JOURNAL_STREAM
 * (default). For tests and `--log-target`. */
void ww_log_set_journal(int mode);

/** True when entries go to the journal. */
bool ww_log_to_journal(void);

/** The journal's native socket entries are sent to: NULL restores
 * /run/systemd/journal/socket (the default). For tests, which bind their
 * own datagram socket and read the entries. */
void ww_log_set_journal_socket(const char *path);

/* ----------------------------------------------------------- sd_notify --- */
/** READY=1 together with STATUS=<status>. Call once the listener is bound and
 * the first poll is scheduled. */
void ww_notify_ready(const char *status);

/** STATUS=<printf text> (shown by `systemctl status`). */
void ww_notify_status(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** WATCHDOG=1. Call from the main loop only: it never runs device I/O, so a
 * missing ping means the loop itself is stuck. */
void ww_notify_watchdog(void);

/** RELOADING=1 before and READY=1 after a SIGHUP reload (reload = false). */
void ww_notify_reloading(int reloading);

/** STOPPING=1. */
void ww_notify_stopping(void);

/** Watchdog interval systemd expects pings within (WatchdogSec=, from
 * WATCHDOG_USEC, sd_watchdog_enabled(3)'s protocol), in microseconds; 0 when
 * no watchdog is configured for this process: WATCHDOG_USEC unset, not a
 * decimal count above 0, or WATCHDOG_PID set to another process (a child
 * does not inherit the duty). */
uint64_t ww_notify_watchdog_usec(void);

/** The first descriptor socket activation passes (SD_LISTEN_FDS_START). */
#define WW_LISTEN_FDS_START 3

/** Socket activation (sd_listen_fds(3)'s protocol): how many descriptors
 * systemd passed, from WW_LISTEN_FDS_START on, when LISTEN_PID is this
 * process and LISTEN_FDS a count; 0 when none are (LISTEN_PID or LISTEN_FDS
 * unset, or LISTEN_PID another process); -EINVAL when a variable is
 * malformed or LISTEN_FDNAMES does not name each descriptor; -errno when a
 * passed descriptor is not open. Each passed descriptor gets FD_CLOEXEC.
 * unset_env: LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES are removed, so no
 * child takes them for its own. names (may be NULL): on a count > 0, a
 * NULL-terminated array of the descriptors' names (LISTEN_FDNAMES split at
 * ':', each "unknown" when it is unset), one allocation for free(). */
int ww_listen_fds(bool unset_env, char ***names);

/* --------------------------------------------------------------- clock --- */

/** A monotonic clock in seconds (any origin). Schedulers take one of these
 * so tests drive time by hand instead of sleeping. */
typedef double (*ww_mono_clock_fn)(void *ctx);

/** CLOCK_MONOTONIC in seconds: the default ww_mono_clock_fn (ctx unused). */
double ww_clock_monotonic(void *ctx);

/** The wall clock in seconds since the epoch: the time values, history
 * samples, events and renders are stamped with. Schedulers take one beside
 * the monotonic clock, so tests stamp with a date of their choosing. */
typedef time_t (*ww_wall_clock_fn)(void *ctx);

/** time(2): the default ww_wall_clock_fn (ctx unused). Outside latency
 * timing (the probe engine, command durations), this file is the one reader
 * of the clocks. */
time_t ww_clock_wall(void *ctx);

/** CLOCK_MONOTONIC in milliseconds: deadlines and timeouts. */
long long ww_clock_monotonic_ms(void);

/** The wall clock with nanoseconds (CLOCK_REALTIME): names that sort in
 * the order things happened. */
struct timespec ww_clock_wall_ts(void);

/** CLOCK_REALTIME `ms` milliseconds from now (0 when ms <= 0): the absolute
 * time pthread_cond_timedwait() takes for a condition variable of the
 * default clock. */
struct timespec ww_clock_deadline_ms(long long ms);

/** CLOCK_MONOTONIC `ns` nanoseconds from now: the deadline for a condition
 * variable made by ww_cond_init_monotonic(), which a change of the wall
 * clock does not move. */
struct timespec ww_clock_mono_deadline_ns(uint64_t ns);

/** pthread_cond_init() of a condition variable that times out on
 * CLOCK_MONOTONIC; its return. */
int ww_cond_init_monotonic(pthread_cond_t *c);

/** The wall time the machine booted at, in seconds since the epoch
 * (CLOCK_REALTIME less CLOCK_BOOTTIME), or -1. */
long long ww_clock_boot_time(void);

/* ---------------------------------------------------------------- files --- */

/** Open a file someone else wrote (configuration, credentials, ratings,
 * captures) for reading, without blocking on what is not a file: open() of
 * a FIFO waits for a writer forever, /dev/zero never ends. Only a regular
 * file, or /dev/null (the usual "no file"), is opened; links are followed.
 * Returns a FILE (close-on-exec) or NULL with errno: EISDIR for a
 * directory, EINVAL for anything else that is no regular file, or open's. */
FILE *ww_fopen_regular(const char *path);

/** The same test without opening (for files another library opens, like
 * SQLite's): 0 for a regular file, -ENOENT when absent, -EISDIR, -EINVAL
 * for anything else. */
int ww_check_regular(const char *path);

/* --------------------------------------------------------------- idmap --- */

/** A map from a drive id string to one fixed-size element the map owns,
 * kept sorted by id (strcmp order). The id is a char array inside the
 * element, at id_off, of id_size bytes (NUL included): usually the first
 * member, `struct entry { char id[160]; ... }`.
 *
 * Elements are allocated one by one, so a pointer the map returns stays
 * valid (and keeps its address) until that id is removed or the map is
 * freed; inserting or removing other ids does not move it. Not thread-safe:
 * the owner holds its lock around every call.
 *
 * Cost with n ids: find O(log n); insert and remove O(log n) compares plus
 * O(n) pointer moves and one allocation or free; the table of pointers
 * doubles when full (no fixed limit). Fields are private: use the calls. */
typedef struct ww_idmap {
	void **v; /* elements, sorted by id */
	size_t n, cap;
	size_t elem_size, id_off, id_size;
	void (*drop)(void *elem); /* frees what an element owns, or NULL */
} ww_idmap_t;

/** ww_idmap_init's shape arguments for `type` keyed by its char array
 * `member`: WW_IDMAP_OF(struct entry, id). */
#define WW_IDMAP_OF(type, member) sizeof(type), offsetof(type, member), sizeof(((type *)0)->member)

/** An empty map of elements of elem_size bytes with the id at id_off
 * (id_size bytes, > 0). drop, when not NULL, is called on an element before
 * the map frees it (remove, free) so the element's own allocations go with
 * it; it must not free the element itself. Allocates nothing. */
void ww_idmap_init(ww_idmap_t *m, size_t elem_size, size_t id_off, size_t id_size,
		   void (*drop)(void *elem));

/** The element of id, or NULL when absent (an id of id_size bytes or more is
 * never present). */
void *ww_idmap_find(const ww_idmap_t *m, const char *id);

/** The element of id; when absent, a new one is inserted, all zero bytes
 * except its id, and *created (when not NULL) is set to true (else false).
 * NULL with errno ENOMEM when out of memory, ENAMETOOLONG when id does not
 * fit in id_size bytes with its NUL; the map is unchanged then. */
void *ww_idmap_get(ww_idmap_t *m, const char *id, bool *created);

/** Remove id's element (drop, then free). Returns false when id was absent.
 * Pointers to other elements stay valid; indexes of ww_idmap_at past it
 * shift down by one. */
bool ww_idmap_remove(ww_idmap_t *m, const char *id);

/** Number of ids in the map. */
size_t ww_idmap_count(const ww_idmap_t *m);

/** The i-th element in id order, NULL when i >= ww_idmap_count(). To visit
 * all: for (i = 0; i < ww_idmap_count(m); i++) e = ww_idmap_at(m, i). An
 * insert or remove during the walk changes which element an index names. */
void *ww_idmap_at(const ww_idmap_t *m, size_t i);

/** Drop and free every element and the table. The map stays initialised
 * (same shape and drop) and empty, ready for reuse. */
void ww_idmap_free(ww_idmap_t *m);

#ifdef __cplusplus
}
#endif
#endif
