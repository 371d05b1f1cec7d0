/* Failed history writes go to the log (see history_log.h). */
#include <stdio.h>
#include <string.h>

#include "wearwatch/service.h"
#include "wearwatch/basic.h"

#define KEY "history"

/* the database named in the messages: one history per process */
static char db_path[4096];

static void on_history_write(void *ctx, int err, const char *what, const char *id,
			     const char *msg, time_t now)
{
	(void)ctx;
	if (what && !strcmp(what, "database")) {
		/* a reopen: once each (history.c limits how often) */
		ww_log(err ? WW_LOG_WARNING : WW_LOG_NOTICE, "history: %s", msg);
		return;
	}
	if (!err)
		ww_log_failure_ok(KEY, now, "history writes work again");
	else
		ww_log_failure(KEY, now, "history write failed (%s of %s): %s: %s; samples wait "
			       "in memory (the newest 65536) until it works again "
			       "(wearwatch_history_write_errors_total)",
			       what, id ? id : "-", db_path, msg);
}

void ww_history_log_attach(ww_history_t *h, const char *path)
{
	if (!h)
		return;
	snprintf(db_path, sizeof(db_path), "%s", path ? path : "history");
	ww_history_set_error_hook(h, on_history_write, NULL);
}
