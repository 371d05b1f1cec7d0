/* `wearwatch collector`: the privileged half. Polls drives (poller.c), keeps
 * the store, answers the web side on a Unix socket (ipc.c), logs events and
 * runs the notification program (events.c), talks to systemd (notify.c).
 * The main loop only ticks the scheduler, diffs snapshots, reaps children and
 * pings the watchdog: it never waits on a device. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/smartctl_members.h"
#include "daemon/cli.h"
#include "daemon/config.h"
#include "daemon/events.h"
#include "daemon/ipc.h"
#include "daemon/log.h"
#include "daemon/notify.h"
#include "daemon/poller.h"
#include "daemon/service.h"

/* discovery filter: [drive NAME] exclude = yes. Called on the main thread
 * (ww_poller_tick), the only writer of this pointer. */
static const ww_conf_t *filter_conf;

static int discover_filtered(const char *sysroot, const char *const *include,
			     ww_drive_t *out, size_t max)
{
	int n = ww_discover_with_members(sysroot, include, out, max), k = 0;

	if (n <= 0 || !filter_conf)
		return n;
	for (int i = 0; i < n; i++) {
		const ww_conf_drive_t *d = ww_conf_drive_find(filter_conf, out[i].id, out[i].block);

		if (d && d->monitor == 0)
			continue;
		if (k != i)
			out[k] = out[i];
		k++;
	}
	return k;
}

struct running {
	ww_conf_t conf;
	const char *include[WW_CONF_MAX_INCLUDE + 1];
	ww_poller_t *poller;
};

static ww_poller_t *start_poller(struct running *r, ww_store_t *store)
{
	ww_poller_cfg_t cfg;

	memset(&cfg, 0, sizeof(cfg));
	for (size_t i = 0; i < r->conf.n_include; i++)
		r->include[i] = r->conf.include[i];
	r->include[r->conf.n_include] = NULL;
	cfg.sysroot = r->conf.sysroot;
	cfg.include = r->conf.n_include ? r->include : NULL;
	cfg.interval_s = r->conf.interval_s;
	cfg.interval_rotational_s = r->conf.interval_rotational_s;
	cfg.rediscover_s = r->conf.rediscover_s ? r->conf.rediscover_s : r->conf.interval_s;
	cfg.workers = r->conf.workers;
	cfg.hung_after_s = r->conf.hung_after_s;
	cfg.discover = discover_filtered;
	return ww_poller_start(&cfg, store);
}

static bool poll_settings_differ(const ww_conf_t *a, const ww_conf_t *b)
{
	if (a->interval_s != b->interval_s || a->interval_rotational_s != b->interval_rotational_s ||
	    a->rediscover_s != b->rediscover_s || a->workers != b->workers ||
	    a->hung_after_s != b->hung_after_s || a->n_include != b->n_include ||
	    strcmp(a->sysroot, b->sysroot))
		return true;
	return memcmp(a->include, b->include, sizeof(a->include)) != 0;
}

static void status(ww_store_t *store)
{
	ww_snapshot_t *s = ww_store_acquire(store);
	size_t present = 0, standby = 0, hung = 0, failing = 0;

	for (size_t i = 0; i < s->n; i++) {
		present += s->drives[i].present;
		standby += s->drives[i].standby;
		hung += s->drives[i].hung;
		failing += s->drives[i].last_collect && !s->drives[i].last_success;
	}
	ww_notify_status("%zu drives (%zu present, %zu standby, %zu hung, %zu failing)",
			 s->n, present, standby, hung, failing);
	ww_snapshot_release(s);
}

int ww_collector_main(int argc, char **argv)
{
	struct running *r = calloc(1, sizeof(*r)), *next;
	ww_store_t *store = NULL;
	ww_ipc_server_t *ipc = NULL;
	ww_snapshot_t *prev = NULL;
	char err[512];
	sigset_t sigs;
	int rc, sig = 0;
	struct timespec tick;

	if (!r)
		return 1;
	if (ww_service_wants_help(argc, argv, "collector"))
		return free(r), 0;
	if ((rc = ww_conf_build(&r->conf, argc, argv, err, sizeof(err)))) {
		ww_log(WW_LOG_ERR, "%s", err);
		free(r);
		return rc == -EINVAL ? 2 : 1;
	}
	sigs = ww_service_block_signals();
	filter_conf = &r->conf;
	store = ww_store_new(r->conf.missing_retention_s);
	if (!store)
		return ww_log(WW_LOG_ERR, "out of memory"), 1;
	ipc = ww_ipc_server_start(r->conf.socket_path, store, &rc);
	if (!ipc) {
		ww_log(WW_LOG_ERR, "cannot listen on %s: %s", r->conf.socket_path, strerror(-rc));
		return 1;
	}
	r->poller = start_poller(r, store);
	if (!r->poller) {
		ww_log(WW_LOG_ERR, "cannot start reader threads");
		ww_ipc_server_stop(ipc);
		return 1;
	}
	ww_poller_tick(r->poller); /* the first discovery and reads are queued */
	ww_log(WW_LOG_INFO, "collector on %s%s%s; poll %u s, rotational %u s", r->conf.socket_path,
	       r->conf.path[0] ? ", config " : "", r->conf.path, r->conf.interval_s,
	       r->conf.interval_rotational_s);
	ww_notify_ready("polling");
	status(store);
	tick = ww_service_tick_interval();
	for (;;) {
		ww_snapshot_t *cur;

		sig = sigtimedwait(&sigs, NULL, &tick);
		if (sig == SIGTERM || sig == SIGINT)
			break;
		if (sig == SIGHUP) {
			ww_notify_reloading(1);
			next = calloc(1, sizeof(*next));
			if (!next || (rc = ww_conf_build(&next->conf, argc, argv, err, sizeof(err)))) {
				ww_log(WW_LOG_ERR, "reload: %s; keeping the last good configuration",
				       next ? err : "out of memory");
				free(next);
			} else {
				if (strcmp(next->conf.socket_path, r->conf.socket_path)) {
					ww_ipc_server_t *n2 = ww_ipc_server_start(next->conf.socket_path,
										store, &rc);

					if (n2) {
						ww_ipc_server_stop(ipc);
						ipc = n2;
					} else {
						ww_log(WW_LOG_ERR, "reload: cannot listen on %s: %s; keeping %s",
						       next->conf.socket_path, strerror(-rc), r->conf.socket_path);
						snprintf(next->conf.socket_path, sizeof(next->conf.socket_path),
							 "%s", r->conf.socket_path);
					}
				}
				if (poll_settings_differ(&next->conf, &r->conf)) {
					/* the store (history) stays; only the scheduler restarts */
					if (ww_poller_stop(r->poller, 5))
						next->poller = start_poller(next, store);
					else
						next->poller = NULL;
					if (!next->poller) {
						ww_log(WW_LOG_ERR, "reload: cannot restart reader threads");
						break;
					}
				} else {
					next->poller = r->poller;
				}
				filter_conf = &next->conf;
				free(r);
				r = next;
				ww_log(WW_LOG_INFO, "reloaded %s: poll %u s, rotational %u s",
				       r->conf.path[0] ? r->conf.path : "(defaults)", r->conf.interval_s,
				       r->conf.interval_rotational_s);
			}
			ww_notify_reloading(0);
		}
		ww_poller_tick(r->poller);
		cur = ww_store_acquire(store);
		if (!prev || cur->generation != prev->generation) {
			ww_events_diff(prev, cur, r->conf.notify_exec);
			status(store);
		}
		ww_snapshot_release(prev);
		prev = cur;
		ww_events_reap(r->conf.notify_timeout_s);
		ww_notify_watchdog();
	}
	ww_notify_stopping();
	ww_log(WW_LOG_INFO, "%s: stopping", strsignal(sig));
	ww_snapshot_release(prev);
	ww_ipc_server_stop(ipc);
	if (ww_poller_stop(r->poller, 5))
		ww_store_free(store);
	else
		ww_log(WW_LOG_WARNING, "a device read is still outstanding; exiting without waiting");
	free(r);
	return 0;
}
