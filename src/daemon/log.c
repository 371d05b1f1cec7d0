/* One log sink and chrony-style per-drive rate limiting (see log.h). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/log.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

struct rl_entry {
	struct rl_entry *next;
	char id[160];
	time_t last_logged;
	unsigned long suppressed;
	bool failing;
};

static struct rl_entry *rl_head;

static const char *level_name(ww_log_level_t l)
{
	switch (l) {
	case WW_LOG_ERR: return "error";
	case WW_LOG_WARNING: return "warning";
	case WW_LOG_NOTICE: return "notice";
	case WW_LOG_INFO: return "info";
	default: return "debug";
	}
}

static void vlog_locked(ww_log_level_t level, const char *fmt, va_list ap)
{
	fprintf(stderr, "wearwatch[%s]: ", level_name(level));
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fflush(stderr);
}

void ww_log(ww_log_level_t level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pthread_mutex_lock(&log_lock);
	vlog_locked(level, fmt, ap);
	pthread_mutex_unlock(&log_lock);
	va_end(ap);
}

static struct rl_entry *rl_get(const char *id, bool create)
{
	struct rl_entry *e;

	for (e = rl_head; e; e = e->next)
		if (!strcmp(e->id, id))
			return e;
	if (!create || !(e = calloc(1, sizeof(*e))))
		return NULL;
	snprintf(e->id, sizeof(e->id), "%s", id);
	e->next = rl_head;
	rl_head = e;
	return e;
}

bool ww_log_drive_failure(const char *id, time_t now, const char *fmt, ...)
{
	struct rl_entry *e;
	bool wrote = false;
	va_list ap;

	pthread_mutex_lock(&log_lock);
	e = rl_get(id, true);
	if (!e || !e->failing || now - e->last_logged >= WW_LOG_REPEAT_S) {
		va_start(ap, fmt);
		if (e && e->suppressed) {
			fprintf(stderr, "wearwatch[%s]: %s: (%lu similar failures not logged) ",
				level_name(WW_LOG_WARNING), id, e->suppressed);
			vfprintf(stderr, fmt, ap);
			fputc('\n', stderr);
			fflush(stderr);
		} else {
			fprintf(stderr, "wearwatch[%s]: %s: ", level_name(WW_LOG_WARNING), id);
			vfprintf(stderr, fmt, ap);
			fputc('\n', stderr);
			fflush(stderr);
		}
		va_end(ap);
		if (e) {
			e->failing = true;
			e->last_logged = now;
			e->suppressed = 0;
		}
		wrote = true;
	} else {
		e->suppressed++;
	}
	pthread_mutex_unlock(&log_lock);
	return wrote;
}

void ww_log_drive_ok(const char *id, time_t now)
{
	struct rl_entry *e;

	pthread_mutex_lock(&log_lock);
	e = rl_get(id, false);
	if (e && e->failing) {
		fprintf(stderr, "wearwatch[%s]: %s: reads work again", level_name(WW_LOG_NOTICE), id);
		if (e->suppressed)
			fprintf(stderr, " (%lu failures not logged)", e->suppressed);
		fputc('\n', stderr);
		fflush(stderr);
		e->failing = false;
		e->suppressed = 0;
		e->last_logged = now;
	}
	pthread_mutex_unlock(&log_lock);
}
