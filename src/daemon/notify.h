/* systemd service manager notification (sd_notify(3), libsystemd): READY=1,
 * STATUS=, WATCHDOG=1, RELOADING=1, STOPPING=1. Every call is a no-op when
 * NOTIFY_SOCKET is unset (not started by systemd with Type=notify), so the
 * daemon calls them unconditionally. */
#ifndef WW_DAEMON_NOTIFY_H
#define WW_DAEMON_NOTIFY_H

#include <stdint.h>

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
 * WATCHDOG_USEC), in microseconds; 0 when no watchdog is configured for this
 * process. */
uint64_t ww_notify_watchdog_usec(void);

#endif
