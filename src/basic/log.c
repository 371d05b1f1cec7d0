/* One log sink and chrony-style per-drive rate limiting (see log.h). Under
 * systemd the sink is the journal's native socket, so DRIVE=, DEVICE= and
 * MESSAGE_ID= stay machine-readable; elsewhere it is stderr. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "wearwatch/basic.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int journal_mode = -1; /* -1 undecided, 0 stderr, 1 journal */
/* the journal's socket (tests bind their own) and the one descriptor that
 * sends to it, opened at the first entry */
static char journal_path[sizeof(((struct sockaddr_un *)0)->sun_path)] =
	"/run/systemd/journal/socket";
static int journal_fd = -1;

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

void ww_log_set_journal_socket(const char *path)
{
	pthread_mutex_lock(&log_lock);
	snprintf(journal_path, sizeof(journal_path), "%s",
		 path ? path : "/run/systemd/journal/socket");
	pthread_mutex_unlock(&log_lock);
}

/* One field of the native protocol: "KEY=value\n", or, for a value with a
 * newline, "KEY\n", its length as 64-bit little-endian, the value, "\n".
 * Returns the new length; the caller's buffer always has room (below). */
static size_t put_field(char *buf, size_t at, const char *key, const char *val)
{
	size_t k = strlen(key), v = strlen(val);

	memcpy(buf + at, key, k);
	at += k;
	if (!memchr(val, '\n', v)) {
		buf[at++] = '=';
	} else {
		buf[at++] = '\n';
		for (int i = 0; i < 8; i++)
			buf[at++] = (char)(((uint64_t)v >> (8 * i)) & 0xff);
	}
	memcpy(buf + at, val, v);
	at += v;
	buf[at++] = '\n';
	return at;
}

/* One journal entry as one datagram of the journal's native protocol
 * (systemd's "Native Journal Protocol") to its socket; false when it was
 * not taken (no journal, its queue full), and the caller writes stderr.
 * Not libsystemd's sd_journal_send(): libsystemd maps five compression and
 * crypto libraries (libgcrypt, libgpg-error, liblzma, libzstd, liblz4;
 * ~0.95 MiB resident with itself) into the network-less collector for this
 * one datagram, and it sends blocking, so a journal that stops reading
 * stalls every thread that logs (sdnotify.c has the same reason). Every
 * value is bounded (the message at 1279 bytes, the drive id at 191, the
 * device at 95; the text is cut at 1023 where it is formatted, for stderr
 * too), so an entry is under 1.7 KiB, below the largest datagram a Unix
 * socket sends even with the smallest send buffer the kernel allows
 * (~4.5 KiB): the protocol's memfd for large entries is never needed.
 * libsystemd's CODE_FILE=, CODE_LINE= and CODE_FUNC= are left out: they
 * named this function, whoever logged. */
static bool journal_send_locked(ww_log_level_t level, int kind, const char *drive,
				const char *device, const char *msg)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char text[1280], drv[192], dev[96], prio[4], buf[2048];
	size_t n = 0, plen = strlen(journal_path);

	if (journal_fd < 0)
		journal_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (journal_fd < 0 || !plen)
		return false;
	if (drive)
		snprintf(text, sizeof(text), "%s: %s", drive, msg);
	else
		snprintf(text, sizeof(text), "%s", msg);
	snprintf(prio, sizeof(prio), "%d", (int)level & 7);
	n = put_field(buf, n, "MESSAGE", text);
	n = put_field(buf, n, "PRIORITY", prio);
	n = put_field(buf, n, "SYSLOG_IDENTIFIER", "wearwatch");
	if (kind >= 0)
		n = put_field(buf, n, "MESSAGE_ID", message_ids[kind]);
	if (drive) {
		snprintf(drv, sizeof(drv), "%s", drive);
		n = put_field(buf, n, "DRIVE", drv);
	}
	if (device && *device) {
		snprintf(dev, sizeof(dev), "%s", device);
		n = put_field(buf, n, "DEVICE", dev);
	}
	memcpy(sa.sun_path, journal_path, plen);
	return sendto(journal_fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT, (struct sockaddr *)&sa,
		      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + plen)) == (ssize_t)n;
}

/* The sink. kind < 0: plain message; drive/device may be NULL. */
static void emit_locked(ww_log_level_t level, int kind, const char *drive, const char *device,
			const char *msg)
{
	if (journal_locked() && journal_send_locked(level, kind, drive, device, msg))
		return;
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
