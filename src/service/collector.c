/* `wearwatch collector`: the privileged half. Polls drives (poller.c), keeps
 * the store, answers the web side on a Unix socket (ipc.c), logs events and
 * runs the notification program (events.c), talks to systemd (notify.c).
 * The collecting part is runtime.c (shared with `serve`). The main loop only
 * ticks the scheduler, diffs snapshots, reaps children and pings the
 * watchdog: it never waits on a device. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wearwatch/collect.h"
#include "wearwatch/conf.h"
#include "wearwatch/service.h"
#include "wearwatch/http.h"
#include "wearwatch/basic.h"
#include "wearwatch/sched.h"

int ww_collector_main(int argc, char **argv)
{
	ww_conf_t *conf = calloc(1, sizeof(*conf)), *next = calloc(1, sizeof(*next));
	ww_runtime_opts_t opts = { 0 };
	ww_runtime_t *rt;
	ww_ipc_server_t *ipc = NULL;
	char err[512];
	sigset_t sigs;
	int rc, sig = 0;
	struct timespec tick;

	if (!conf || !next)
		return free(conf), free(next), 1;
	if (ww_service_wants_help(argc, argv, "collector"))
		return free(conf), free(next), 0;
	if ((rc = ww_conf_build(conf, argc, argv, err, sizeof(err)))) {
		ww_log(WW_LOG_ERR, "%s", err);
		free(conf);
		free(next);
		return rc == -EINVAL ? 2 : 1;
	}
	sigs = ww_service_block_signals();
	ww_probe_policy_default(&opts.probe);
	rt = ww_runtime_start(conf, &opts, err, sizeof(err));
	if (!rt)
		return ww_log(WW_LOG_ERR, "%s", err), 1;
	ipc = ww_ipc_server_start(conf->socket_path, ww_runtime_store(rt), &rc);
	if (!ipc) {
		ww_log(WW_LOG_ERR, "cannot listen on %s: %s", conf->socket_path, strerror(-rc));
		ww_runtime_stop(rt);
		return 1;
	}
	ww_log(WW_LOG_INFO, "collector on %s%s%s; poll %u s, rotational %u s", conf->socket_path,
	       conf->path[0] ? ", config " : "", conf->path, conf->interval_s,
	       conf->interval_rotational_s);
	ww_notify_ready("polling");
	tick = ww_service_tick_interval();
	for (;;) {
		sig = sigtimedwait(&sigs, NULL, &tick);
		if (sig == SIGTERM || sig == SIGINT)
			break;
		if (sig == SIGHUP) {
			ww_notify_reloading(1);
			if ((rc = ww_conf_build(next, argc, argv, err, sizeof(err)))) {
				ww_log(WW_LOG_ERR, "reload: %s; keeping the last good configuration", err);
			} else {
				if (strcmp(next->socket_path, conf->socket_path)) {
					ww_ipc_server_t *n2 = ww_ipc_server_start(next->socket_path,
										ww_runtime_store(rt), &rc);

					if (n2) {
						ww_ipc_server_stop(ipc);
						ipc = n2;
					} else {
						ww_log(WW_LOG_ERR, "reload: cannot listen on %s: %s; keeping %s",
						       next->socket_path, strerror(-rc), conf->socket_path);
						snprintf(next->socket_path, sizeof(next->socket_path), "%s",
							 conf->socket_path);
					}
				}
				if ((rc = ww_runtime_reload(rt, next))) {
					ww_log(WW_LOG_ERR, "reload: cannot restart reader threads: %s",
					       strerror(-rc));
					break;
				}
				*conf = *next;
				ww_log(WW_LOG_INFO, "reloaded %s: poll %u s, rotational %u s",
				       conf->path[0] ? conf->path : "(defaults)", conf->interval_s,
				       conf->interval_rotational_s);
			}
			ww_notify_reloading(0);
		}
		ww_runtime_tick(rt);
		ww_notify_watchdog();
	}
	ww_notify_stopping();
	ww_log(WW_LOG_INFO, "%s: stopping", strsignal(sig));
	ww_ipc_server_stop(ipc);
	ww_runtime_stop(rt);
	free(conf);
	free(next);
	return 0;
}
