/* The one main loop of the long-running commands and what they share (see
 * service.h). */
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wearwatch/basic.h"
#include "wearwatch/service.h"

#define WAKE_SIGNAL SIGUSR1
/* the longest sleep without a watchdog (a tick that wants no call) */
#define MAX_SLEEP_S 3600.0

sigset_t ww_service_block_signals(void)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGHUP);
	sigaddset(&s, WAKE_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	signal(SIGPIPE, SIG_IGN);
	return s;
}

void ww_service_setup_memory(void)
{
	/* one malloc arena for every thread: with one per worker, each kept
	 * the snapshot copies it had freed (10 MiB at 64 drives) */
	mallopt(M_ARENA_MAX, 1);
	/* a fixed threshold: blocks of 128 KiB and more (a snapshot of a few
	 * dozen drives, a rendered /metrics) are mapped and given back when
	 * freed; glibc otherwise raises it to the largest block freed and
	 * keeps those in the heap */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
}

/* set while ww_service_run waits: the wake signal is blocked then */
static bool loop_running;

void ww_service_wake(void)
{
	/* blocked in every thread: stays pending for the main loop's
	 * sigtimedwait; several before it runs are one. Without the loop (a
	 * test, a one-shot command) nobody waits, and the signal would kill. */
	if (__atomic_load_n(&loop_running, __ATOMIC_ACQUIRE))
		kill(getpid(), WAKE_SIGNAL);
}

static struct timespec span(double s)
{
	struct timespec t;

	if (s < 0)
		s = 0;
	t.tv_sec = (time_t)s;
	t.tv_nsec = (long)((s - (double)t.tv_sec) * 1e9);
	return t;
}

/* Sleep until `deadline` (monotonic seconds), a wake or another signal.
 * Returns the signal, or 0 when the deadline came or a wake. */
static int sleep_until(const sigset_t *sigs, double deadline)
{
	struct timespec t = span(deadline - ww_clock_monotonic(NULL));
	int sig = sigtimedwait(sigs, NULL, &t);

	return sig < 0 || sig == WAKE_SIGNAL ? 0 : sig;
}

int ww_service_run(sigset_t sigs, const ww_service_ops_t *ops)
{
	uint64_t wd = ww_notify_watchdog_usec();
	int sig = 0, rc = 0;

	__atomic_store_n(&loop_running, sigismember(&sigs, WAKE_SIGNAL) == 1, __ATOMIC_RELEASE);
	for (;;) {
		double now, wait = ops->tick ? ops->tick(ops->ctx) : MAX_SLEEP_S;

		ww_notify_watchdog();
		if (wait > MAX_SLEEP_S)
			wait = MAX_SLEEP_S;
		if (wd && wait > wd / 2e6)
			wait = wd / 2e6;
		now = ww_clock_monotonic(NULL);
		sig = sleep_until(&sigs, now + wait);
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
	__atomic_store_n(&loop_running, false, __ATOMIC_RELEASE);
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
