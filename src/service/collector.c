/* `wearwatch collector`: the privileged half. The collecting part is
 * runtime.c (shared with `serve`); the web side is answered on a Unix socket
 * (src/http/). The main loop only ticks the scheduler, diffs snapshots, reaps
 * children and pings the watchdog: it never waits on a device. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/conf.h"
#include "wearwatch/service.h"
#include "wearwatch/http.h"
#include "wearwatch/basic.h"

struct collector {
	int argc;
	char **argv;
	ww_conf_t conf, next;
	ww_runtime_t *rt;
	ww_ipc_server_t *ipc;
};

static double collector_tick(void *ctx)
{
	struct collector *c = ctx;

	return ww_runtime_tick(c->rt);
}

/* a new socket path is bound before the old one is let go: a failure keeps
 * the old path */
static void move_socket(struct collector *c)
{
	ww_ipc_server_t *n;
	int rc;

	if (!strcmp(c->next.socket_path, c->conf.socket_path))
		return;
	n = ww_ipc_server_start(c->next.socket_path, ww_runtime_route_src(c->rt), &rc);
	if (n) {
		ww_ipc_server_stop(c->ipc);
		c->ipc = n;
		return;
	}
	ww_log(WW_LOG_ERR, "reload: cannot listen on %s: %s; keeping %s", c->next.socket_path,
	       strerror(-rc), c->conf.socket_path);
	snprintf(c->next.socket_path, sizeof(c->next.socket_path), "%s", c->conf.socket_path);
}

static int collector_reload(void *ctx)
{
	struct collector *c = ctx;
	char err[512];
	int rc;

	/* what a start would refuse, a reload refuses too (ratings files) */
	if ((rc = ww_conf_build(&c->next, c->argc, c->argv, err, sizeof(err))) ||
	    (rc = ww_runtime_check_conf(&c->next, err, sizeof(err)))) {
		ww_log(WW_LOG_ERR, "reload: %s; keeping the last good configuration", err);
		return rc;
	}
	move_socket(c);
	if ((rc = ww_runtime_reload(c->rt, &c->next)) < 0) {
		ww_log(WW_LOG_ERR, "reload: cannot restart reader threads: %s", strerror(-rc));
		return WW_SERVICE_STOP;
	}
	if (ww_conf_copy(&c->conf, &c->next)) {
		ww_log(WW_LOG_ERR, "reload: out of memory");
		return WW_SERVICE_STOP;
	}
	/* rc 1: the readers kept their poll settings (a read was running) */
	ww_log(WW_LOG_INFO, "reloaded %s: poll %u s, rotational %u s%s",
	       c->conf.path[0] ? c->conf.path : "(defaults)",
	       ww_runtime_poll_conf(c->rt)->interval_s,
	       ww_runtime_poll_conf(c->rt)->interval_rotational_s,
	       rc ? " (kept until the next reload)" : "");
	return 0;
}

int ww_collector_main(int argc, char **argv)
{
	struct collector *c = calloc(1, sizeof(*c));
	ww_runtime_opts_t opts = { 0 };
	ww_service_ops_t ops = { collector_tick, collector_reload, c };
	char err[512];
	sigset_t sigs;
	int rc;

	if (!c)
		return 1;
	c->argc = argc;
	c->argv = argv;
	if (ww_service_wants_help(argc, argv, "collector"))
		return free(c), 0;
	if ((rc = ww_conf_build(&c->conf, argc, argv, err, sizeof(err)))) {
		ww_log(WW_LOG_ERR, "%s", err);
		free(c);
		return rc == -EINVAL ? 2 : 1;
	}
	rc = ww_service_drop_caps(err, sizeof(err));
	if (rc < 0) {
		ww_log(WW_LOG_ERR, "%s", err);
		free(c);
		return 1;
	}
	if (rc > 0)
		ww_log(WW_LOG_INFO, "%s", err);
	ww_service_setup_memory();
	sigs = ww_service_block_signals();
	/* the collector has no network: wearwatch-notify.service runs [notify]
	 * exec on what it queues (docs/security.md) */
	opts.notify_spool = true;
	c->rt = ww_runtime_start(&c->conf, &opts, err, sizeof(err));
	if (!c->rt)
		return ww_log(WW_LOG_ERR, "%s", err), free(c), 1;
	c->ipc = ww_ipc_server_start(c->conf.socket_path, ww_runtime_route_src(c->rt), &rc);
	if (!c->ipc) {
		ww_log(WW_LOG_ERR, "cannot listen on %s: %s", c->conf.socket_path, strerror(-rc));
		ww_runtime_stop(c->rt);
		free(c);
		return 1;
	}
	ww_log(WW_LOG_INFO, "collector on %s%s%s; poll %u s, rotational %u s", c->conf.socket_path,
	       c->conf.path[0] ? ", config " : "", c->conf.path, c->conf.interval_s,
	       c->conf.interval_rotational_s);
	ww_notify_ready("polling");
	rc = ww_service_run(sigs, &ops);
	ww_ipc_server_stop(c->ipc);
	ww_runtime_stop(c->rt);
	free(c);
	return rc;
}
