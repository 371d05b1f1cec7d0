/* Daemon logging: one sink (stderr for now) and per-drive rate limiting. */
#ifndef WW_DAEMON_LOG_H
#define WW_DAEMON_LOG_H

#include <stdbool.h>
#include <time.h>

typedef enum ww_log_level {
	WW_LOG_ERR = 3,
	WW_LOG_WARNING = 4,
	WW_LOG_NOTICE = 5,
	WW_LOG_INFO = 6,
	WW_LOG_DEBUG = 7,
} ww_log_level_t;

/** The one sink: "wearwatch[<level>]: message" on stderr. Thread-safe. */
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

#endif
