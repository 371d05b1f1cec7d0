/* Logging of failed history writes (a full disk under --state-dir, a
 * read-only file): the first failure is a warning, repeats are rate-limited
 * by the log sink (ww_log_failure, key "history": at most one line per
 * WW_LOG_REPEAT_S with the number left out), and the first write that works
 * again is a notice. Every failure is counted by the history itself
 * (ww_history_write_errors, metric wearwatch_history_write_errors_total). */
#ifndef WW_DAEMON_HISTORY_LOG_H
#define WW_DAEMON_HISTORY_LOG_H

#include "wearwatch/history.h"

/** Install the logging hook on h; path (copied; NULL: "history") names the
 * database in the messages. One history per process. NULL h is a no-op. */
void ww_history_log_attach(ww_history_t *h, const char *path);

#endif
