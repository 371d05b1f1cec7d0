/* sd_notify (see basic.h). The datagram to $NOTIFY_SOCKET is sent here,
 * not by libsystemd's sd_notify(): libsystemd (252) sends on a blocking
 * socket, so when the receiver's queue is full (systemd busy or stuck, a
 * test's socket nobody reads) the call blocks, and with it the main loop
 * that also answers SIGTERM: the collector hung on its WATCHDOG=1 and never
 * stopped. Sent non-blocking, a datagram that does not fit is dropped; the
 * next watchdog ping or status replaces it. The kernel attaches the
 * sender's credentials for systemd (SO_PASSCRED on its socket), which is
 * all libsystemd adds for a process notifying for itself. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "wearwatch/basic.h"

/* one datagram to $NOTIFY_SOCKET ("/path" or "@abstract"), never blocking;
 * nothing when it is unset */
static void notify(const char *msg)
{
	const char *e = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t n = e ? strlen(e) : 0;
	int fd;

	if (!n || n >= sizeof(sa.sun_path) || (e[0] != '/' && e[0] != '@'))
		return;
	memcpy(sa.sun_path, e, n);
	if (sa.sun_path[0] == '@')
		sa.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return;
	(void)!sendto(fd, msg, strlen(msg), MSG_NOSIGNAL | MSG_DONTWAIT, (struct sockaddr *)&sa,
		      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n));
	close(fd);
}

static void notifyf(const char *fmt, ...)
{
	char buf[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	notify(buf);
}

void ww_notify_ready(const char *status)
{
	notifyf("READY=1\nSTATUS=%s", status ? status : "running");
}

void ww_notify_status(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	notifyf("STATUS=%s", buf);
}

void ww_notify_watchdog(void)
{
	notify("WATCHDOG=1");
}

void ww_notify_reloading(int reloading)
{
	notify(reloading ? "RELOADING=1" : "READY=1");
}

void ww_notify_stopping(void)
{
	notify("STOPPING=1");
}

uint64_t ww_notify_watchdog_usec(void)
{
	uint64_t usec = 0;

	/* checks WATCHDOG_PID too: a child does not inherit the duty */
	if (sd_watchdog_enabled(0, &usec) <= 0)
		return 0;
	return usec;
}
