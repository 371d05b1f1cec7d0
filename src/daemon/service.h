/* Pieces shared by the long-running subcommands (collector, web): signal
 * mask, main-loop tick that fits the watchdog, --help. */
#ifndef WW_DAEMON_SERVICE_H
#define WW_DAEMON_SERVICE_H

#include <signal.h>
#include <stdbool.h>
#include <time.h>

/** Block SIGTERM, SIGINT and SIGHUP in this thread (and every thread created
 * after), ignore SIGPIPE, and return the set for sigtimedwait(). */
sigset_t ww_service_block_signals(void);

/** Main-loop period: 1 s, or half the systemd watchdog interval if shorter. */
struct timespec ww_service_tick_interval(void);

/** Prints the usage of `wearwatch <cmd>` when argv has --help/-h; true then. */
bool ww_service_wants_help(int argc, char **argv, const char *cmd);

/** `wearwatch collector` and `wearwatch web` (see wearwatch(8)). */
int ww_collector_main(int argc, char **argv);
int ww_web_main(int argc, char **argv);

#endif
