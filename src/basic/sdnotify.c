/* sd_notify wrappers (see notify.h). libsystemd implements the protocol
 * (datagram to $NOTIFY_SOCKET, abstract or path, credentials attached). */
#include <stdarg.h>
#include <stdio.h>

#include <systemd/sd-daemon.h>

#include "wearwatch/basic.h"

void ww_notify_ready(const char *status)
{
	sd_notifyf(0, "READY=1\nSTATUS=%s", status ? status : "running");
}

void ww_notify_status(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sd_notifyf(0, "STATUS=%s", buf);
}

void ww_notify_watchdog(void)
{
	sd_notify(0, "WATCHDOG=1");
}

void ww_notify_reloading(int reloading)
{
	sd_notify(0, reloading ? "RELOADING=1" : "READY=1");
}

void ww_notify_stopping(void)
{
	sd_notify(0, "STOPPING=1");
}

uint64_t ww_notify_watchdog_usec(void)
{
	uint64_t usec = 0;

	/* checks WATCHDOG_PID too: a child does not inherit the duty */
	if (sd_watchdog_enabled(0, &usec) <= 0)
		return 0;
	return usec;
}
