/* One log sink and chrony-style per-drive rate limiting (see log.h). Under
 * systemd the sink is sd_journal_send() so DRIVE=, DEVICE= and MESSAGE_ID=
 * stay machine-readable; elsewhere it is stderr. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <systemd/sd-journal.h>

#include "wearwatch/basic.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int journal_mode = -1; /* -1 undecided, 0 stderr, 1 journal */

/* Fixed ids, one per event kind; generated once with `systemd-id128 new` and
 * never to be changed (catalog/wearwatch.catalog documents each). */
static const char *const message_ids[WW_EV_KIND_MAX] = {
	[WW_EV_HEALTH_CHANGE] = "4943aef8bf1d48ee9cd023768583368e",
	[WW_EV_CRITICAL_WARNING] = "8b28107f9849479e8d6b9a3b23d6de85",
	[WW_EV_STANDBY] = "9046a741b9504b7a9f79c4c053669470",
	[WW_EV_DRIVE_MISSING] = "ffbb87394eec48c494f28abffbca981d",
	[WW_EV_COLLECT_FAILURE] = "54d2b236027b41208d13c88982bf63fc",
	[WW_EV_HEALTH_WORSE] = "8ae570a0458a48c79cdaf16d93f1f2a2",
	[WW_EV_HEALTH_BETTER] = "209e693c7265480bb0ca47c39d015e31",
	[WW_EV_DRIVE_BACK] = "f0e1274f10d2488e9b736fc9c4bbdb4a",
	[WW_EV_NOTIFY_SUPPRESSED] = "9bed3dfc9f21406e8b929bf57e4b2c0a",
};

const char *ww_log_message_id(ww_event_kind_t kind)
{
	return (unsigned)kind < WW_EV_KIND_MAX ? message_ids[kind] : "";
}

struct rl_entry {
	struct rl_entry *next;
	char id[160];
	time_t last_logged;
	unsigned long suppressed;
	bool failing;
};

static struct rl_entry *rl_head;
static struct rl_entry *rl_other; /* ww_log_failure keys (not drive ids) */

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

/* systemd.exec(5): $JOURNAL_STREAM is "dev:ino" of the stream connected to
 * stderr/stdout; it only counts when stderr is still that stream. */
static bool stderr_is_journal(void)
{
	const char *e = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (!e || sscanf(e, "%llu:%llu", &dev, &ino) != 2 || fstat(2, &st))
		return false;
	return st.st_dev == (dev_t)dev && st.st_ino == (ino_t)ino;
}

void ww_log_set_journal(int mode)
{
	pthread_mutex_lock(&log_lock);
	journal_mode = mode < 0 ? (stderr_is_journal() ? 1 : 0) : !!mode;
	pthread_mutex_unlock(&log_lock);
}

static bool journal_locked(void)
{
	if (journal_mode < 0)
		journal_mode = stderr_is_journal();
	return journal_mode;
}

bool ww_log_to_journal(void)
{
	bool j;

	pthread_mutex_lock(&log_lock);
	j = journal_locked();
	pthread_mutex_unlock(&log_lock);
	return j;
}

/* The sink. kind < 0: plain message; drive/device may be NULL. */
static void emit_locked(ww_log_level_t level, int kind, const char *drive, const char *device,
			const char *msg)
{
	if (journal_locked()) {
		char mid[48] = "", drv[200] = "", dev[96] = "";

		if (kind >= 0)
			snprintf(mid, sizeof(mid), "MESSAGE_ID=%s", message_ids[kind]);
		if (drive)
			snprintf(drv, sizeof(drv), "DRIVE=%s", drive);
		if (device && *device)
			snprintf(dev, sizeof(dev), "DEVICE=%s", device);
		/* empty strings end the field list early: order the optional ones last */
		const char *opt[3] = { mid, drv, dev };
		const char *f[3] = { NULL, NULL, NULL };
		int n = 0;

		for (int i = 0; i < 3; i++)
			if (opt[i][0])
				f[n++] = opt[i];
		if (drive)
			sd_journal_send("MESSAGE=%s: %s", drive, msg, "PRIORITY=%d", (int)level,
					"SYSLOG_IDENTIFIER=wearwatch", f[0], f[1], f[2], NULL);
		else
			sd_journal_send("MESSAGE=%s", msg, "PRIORITY=%d", (int)level,
					"SYSLOG_IDENTIFIER=wearwatch", f[0], f[1], f[2], NULL);
		return;
	}
	if (drive)
		fprintf(stderr, "wearwatch[%s]: %s: %s\n", level_name(level), drive, msg);
	else
		fprintf(stderr, "wearwatch[%s]: %s\n", level_name(level), msg);
	fflush(stderr);
}

static void vemit_locked(ww_log_level_t level, int kind, const char *drive, const char *device,
			 const char *prefix, const char *fmt, va_list ap)
{
	char msg[1024];
	size_t n = (size_t)snprintf(msg, sizeof(msg), "%s", prefix ? prefix : "");

	if (n < sizeof(msg))
		vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	emit_locked(level, kind, drive, device, msg);
}

void ww_log(ww_log_level_t level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pthread_mutex_lock(&log_lock);
	vemit_locked(level, -1, NULL, NULL, NULL, fmt, ap);
	pthread_mutex_unlock(&log_lock);
	va_end(ap);
}

void ww_log_event(ww_event_kind_t kind, ww_log_level_t level, const char *drive,
		  const char *device, const char *fmt, ...)
{
	va_list ap;

	if ((unsigned)kind >= WW_EV_KIND_MAX)
		return;
	va_start(ap, fmt);
	pthread_mutex_lock(&log_lock);
	vemit_locked(level, (int)kind, drive ? drive : "-", device, NULL, fmt, ap);
	pthread_mutex_unlock(&log_lock);
	va_end(ap);
}

static struct rl_entry *rl_get(struct rl_entry **head, const char *id, bool create)
{
	struct rl_entry *e;

	for (e = *head; e; e = e->next)
		if (!strcmp(e->id, id))
			return e;
	if (!create || !(e = calloc(1, sizeof(*e))))
		return NULL;
	snprintf(e->id, sizeof(e->id), "%s", id);
	e->next = *head;
	*head = e;
	return e;
}

/* the rate limit of ww_log_drive_failure (drive set: a drive event) and
 * ww_log_failure (drive NULL: a plain warning keyed by `key`) */
static bool vfailure(struct rl_entry **head, const char *key, const char *drive, time_t now,
		     const char *fmt, va_list ap)
{
	struct rl_entry *e;
	bool wrote = false;

	pthread_mutex_lock(&log_lock);
	e = rl_get(head, key, true);
	if (!e || !e->failing || now - e->last_logged >= WW_LOG_REPEAT_S) {
		char prefix[64] = "";

		if (e && e->suppressed)
			snprintf(prefix, sizeof(prefix), "(%lu similar failures not logged) ",
				 e->suppressed);
		vemit_locked(WW_LOG_WARNING, drive ? WW_EV_COLLECT_FAILURE : -1, drive, NULL,
			     prefix, fmt, ap);
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

bool ww_log_drive_failure(const char *id, time_t now, const char *fmt, ...)
{
	va_list ap;
	bool wrote;

	va_start(ap, fmt);
	wrote = vfailure(&rl_head, id, id, now, fmt, ap);
	va_end(ap);
	return wrote;
}

bool ww_log_failure(const char *key, time_t now, const char *fmt, ...)
{
	va_list ap;
	bool wrote;

	va_start(ap, fmt);
	wrote = vfailure(&rl_other, key, NULL, now, fmt, ap);
	va_end(ap);
	return wrote;
}

void ww_log_failure_ok(const char *key, time_t now, const char *what)
{
	struct rl_entry *e;

	pthread_mutex_lock(&log_lock);
	e = rl_get(&rl_other, key, false);
	if (e && e->failing) {
		char msg[256];

		if (e->suppressed)
			snprintf(msg, sizeof(msg), "%s (%lu failures not logged)", what,
				 e->suppressed);
		else
			snprintf(msg, sizeof(msg), "%s", what);
		emit_locked(WW_LOG_NOTICE, -1, NULL, NULL, msg);
		e->failing = false;
		e->suppressed = 0;
		e->last_logged = now;
	}
	pthread_mutex_unlock(&log_lock);
}

void ww_log_drive_ok(const char *id, time_t now)
{
	struct rl_entry *e;

	pthread_mutex_lock(&log_lock);
	e = rl_get(&rl_head, id, false);
	if (e && e->failing) {
		char msg[96];

		if (e->suppressed)
			snprintf(msg, sizeof(msg), "reads work again (%lu failures not logged)",
				 e->suppressed);
		else
			snprintf(msg, sizeof(msg), "reads work again");
		emit_locked(WW_LOG_NOTICE, -1, id, NULL, msg);
		e->failing = false;
		e->suppressed = 0;
		e->last_logged = now;
	}
	pthread_mutex_unlock(&log_lock);
}
