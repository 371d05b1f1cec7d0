/* The one main loop of the long-running commands and what they share (see
 * service.h). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "wearwatch/basic.h"
#include "wearwatch/service.h"

sigset_t ww_service_block_signals(void)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	signal(SIGPIPE, SIG_IGN);
	return s;
}

/* 1 s, or half the systemd watchdog interval if shorter */
static struct timespec tick_interval(void)
{
	uint64_t wd = ww_notify_watchdog_usec();
	struct timespec t = { 1, 0 };

	if (wd && wd / 2 < 1000000) {
		t.tv_sec = 0;
		t.tv_nsec = (long)(wd / 2 * 1000);
	}
	return t;
}

int ww_service_run(sigset_t sigs, const ww_service_ops_t *ops)
{
	struct timespec tick = tick_interval();
	int sig, rc = 0;

	for (;;) {
		if (ops->tick)
			ops->tick(ops->ctx);
		ww_notify_watchdog();
		sig = sigtimedwait(&sigs, NULL, &tick);
		if (sig == SIGTERM || sig == SIGINT)
			break;
		if (sig != SIGHUP || !ops->reload)
			continue;
		ww_notify_reloading(1);
		if (ops->reload(ops->ctx) == WW_SERVICE_STOP) {
			rc = 1;
			break;
		}
		ww_notify_reloading(0);
	}
	ww_notify_stopping();
	ww_log(WW_LOG_INFO, "%s: stopping", rc ? "error" : strsignal(sig));
	return rc;
}

static const char common_opts[] =
	"  --config FILE          configuration (default /etc/wearwatch/wearwatch.conf)\n";

bool ww_service_wants_help(int argc, char **argv, const char *cmd)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") && strcmp(argv[i], "-h"))
			continue;
		if (!strcmp(cmd, "collector"))
			printf("usage: wearwatch collector [options]\n"
			       "Polls drives and answers `wearwatch web` on a Unix socket; no network.\n"
			       "Runs as wearwatch-collector.service (root, CAP_SYS_RAWIO, CAP_SYS_ADMIN).\n%s"
			       "  --socket PATH          Unix socket (default /run/wearwatch/collector.sock)\n"
			       "  --poll-interval D      --poll-interval-rotational D  --rediscover D\n"
			       "  --hung-after D         --missing-retention D         --workers N\n"
			       "  --include NAME         --notify-exec PROG            --state-dir DIR\n"
			       "  --probe-interval S     --probe-count N  --probe-bs SIZE  --probe-qd N\n"
			       "  --probe-max-iops N     --probe-busy-inflight N  --probe-window N\n"
			       "  --probe-rotational auto|always|never  --no-probe   (over [probe])\n"
			       "Ratings files, history tiers: [endurance], [history] in wearwatch.conf(5).\n"
			       "Durations: 60, 60s, 10m, 2h, 1d. SIGHUP reloads the configuration.\n",
			       common_opts);
		else
			printf("usage: wearwatch web [options]\n"
			       "Serves /metrics, /api/v1/drives[/ID], /healthz and / from the collector.\n"
			       "Runs as wearwatch-web.service (dynamic user, no capabilities).\n%s"
			       "  --listen HOST:PORT     (default :9786; ignored with socket activation)\n"
			       "  --web-config FILE      TLS and basic auth (Prometheus web.config format)\n"
			       "  --socket PATH          the collector's socket\n"
			       "SIGHUP reloads; the listener is rebound when the address changed.\n",
			       common_opts);
		return true;
	}
	return false;
}
