/* `wearwatch serve`: flags, signals and the timer loop. The main thread only
 * waits for signals and ticks the scheduler; HTTP has its own thread, device
 * reads run on the poller's workers. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/replay_drive.h"
#include "collect/smartctl_members.h"
#include "daemon/cli.h"
#include "daemon/http.h"
#include "daemon/log.h"
#include "daemon/poller.h"
#include "daemon/probe_daemon.h"
#include "daemon/endurance_opts.h"
#include "wearwatch/store.h"

#define WW_SERVE_DEFAULT_LISTEN ":9786"
#define WW_SERVE_MAX_INCLUDE 32

static void usage(FILE *f)
{
	fprintf(f,
		"usage: wearwatch serve [options]\n"
		"  --listen HOST:PORT              address to serve on (default all addresses, port 9786;\n"
		"                                  e.g. \"[::]:9786\", \":9786\", \"0.0.0.0:9786\", \"127.0.0.1:9786\")\n"
		"  --poll-interval SECONDS         read solid-state drives this often (default 60)\n"
		"  --poll-interval-rotational SECONDS\n"
		"                                  read rotational drives this often (default 600)\n"
		"  --rediscover SECONDS            look for new/removed drives this often (default: poll interval)\n"
		"  --missing-retention SECONDS     keep a removed drive listed this long (default 86400)\n"
		"  --hung-after SECONDS            mark a drive hung when a read is out this long (default 30)\n"
		"  --workers N                     device reader threads (default 4)\n"
		"  --include NAME                  also monitor block device NAME (dm-*, md*, loop*); repeatable\n"
		"  --replay DIR                    serve the drives captured in DIR (wearwatch capture) instead of live ones; repeatable\n"
		"  --smartctl DRIVE=TYPE           read DRIVE (id, sdX or /dev path) through smartctl -d TYPE; repeatable\n"
		"  --help                          this text\n");
	ww_probe_serve_usage(f);
	ww_endurance_serve_usage(f);
	fprintf(f,
		"Endpoints: /metrics /api/v1/drives /api/v1/drives/{drive} /api/v1/drives/{drive}/history /healthz /\n");
}

static int parse_uint(const char *opt, const char *s, unsigned min, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || errno || v < min || v > UINT_MAX / 2) {
		fprintf(stderr, "wearwatch serve: %s: invalid value '%s'\n", opt, s);
		return -EINVAL;
	}
	*out = (unsigned)v;
	return 0;
}

enum {
	OPT_LISTEN = 256,
	OPT_POLL,
	OPT_POLL_ROT,
	OPT_REDISCOVER,
	OPT_RETENTION,
	OPT_HUNG,
	OPT_WORKERS,
	OPT_INCLUDE,
	OPT_REPLAY,
	OPT_SMARTCTL,
	OPT_HELP,
};

int ww_serve_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "poll-interval", required_argument, NULL, OPT_POLL },
		{ "poll-interval-rotational", required_argument, NULL, OPT_POLL_ROT },
		{ "rediscover", required_argument, NULL, OPT_REDISCOVER },
		{ "missing-retention", required_argument, NULL, OPT_RETENTION },
		{ "hung-after", required_argument, NULL, OPT_HUNG },
		{ "workers", required_argument, NULL, OPT_WORKERS },
		{ "include", required_argument, NULL, OPT_INCLUDE },
		{ "replay", required_argument, NULL, OPT_REPLAY },
		{ "smartctl", required_argument, NULL, OPT_SMARTCTL },
		{ "help", no_argument, NULL, OPT_HELP },
		WW_PROBE_SERVE_OPTIONS,
		WW_ENDURANCE_SERVE_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	const char *listen = WW_SERVE_DEFAULT_LISTEN;
	const char *include[WW_SERVE_MAX_INCLUDE + 1] = { NULL };
	size_t n_include = 0;
	unsigned poll = 60, poll_rot = 600, rediscover = 0, retention = WW_STORE_DEFAULT_RETENTION_S;
	unsigned hung_after = 30, workers = 4;
	ww_poller_cfg_t cfg;
	ww_probe_sched_cfg_t probe_cfg = { .sysroot = "" };
	ww_probe_sched_t *probe = NULL;
	ww_endurance_opts_t end_opts = { 0 };
	ww_endurance_svc_t *endurance = NULL;
	ww_store_t *store;
	ww_poller_t *poller;
	ww_http_t *http;
	sigset_t sigs;
	int c, err = 0, sig;
	bool replay = false;

	ww_probe_policy_default(&probe_cfg.policy);
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_LISTEN:
			listen = optarg;
			break;
		case OPT_POLL:
			err |= parse_uint("--poll-interval", optarg, 1, &poll);
			break;
		case OPT_POLL_ROT:
			err |= parse_uint("--poll-interval-rotational", optarg, 1, &poll_rot);
			break;
		case OPT_REDISCOVER:
			err |= parse_uint("--rediscover", optarg, 1, &rediscover);
			break;
		case OPT_RETENTION:
			err |= parse_uint("--missing-retention", optarg, 1, &retention);
			break;
		case OPT_HUNG:
			err |= parse_uint("--hung-after", optarg, 1, &hung_after);
			break;
		case OPT_WORKERS:
			err |= parse_uint("--workers", optarg, 1, &workers);
			break;
		case OPT_INCLUDE:
			if (n_include >= WW_SERVE_MAX_INCLUDE) {
				fprintf(stderr, "wearwatch serve: too many --include\n");
				return 2;
			}
			include[n_include++] = optarg;
			break;
		case WW_OPT_END_FIRST ... WW_OPT_END_LAST:
			err |= ww_endurance_serve_opt(c, optarg, &end_opts);
			break;
		case OPT_REPLAY: /* recorded drives instead of live ones */
			if (ww_replay_add(optarg) <= 0) {
				fprintf(stderr, "wearwatch serve: no captures in %s\n", optarg);
				return 2;
			}
			replay = true;
			break;
		case OPT_SMARTCTL: { /* issue 7: per-drive smartctl backend */
			char *eq = strchr(optarg, '=');

			if (!eq || eq == optarg || !eq[1]) {
				fprintf(stderr, "wearwatch serve: --smartctl wants DRIVE=TYPE\n");
				return 2;
			}
			*eq = '\0';
			err |= ww_smartctl_force(optarg, eq + 1) < 0;
			break;
		}
		case WW_OPT_PROBE_FIRST ... WW_OPT_PROBE_LAST:
			err |= ww_probe_serve_opt(c, optarg, &probe_cfg.policy);
			break;
		case OPT_HELP:
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (err)
		return 2;
	if (optind < argc) {
		fprintf(stderr, "wearwatch serve: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (!rediscover)
		rediscover = poll;

	/* signals are taken synchronously by this thread; every thread created
	 * from here on inherits the mask */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);

	store = ww_store_new(retention);
	if (!store) {
		ww_log(WW_LOG_ERR, "out of memory");
		return 1;
	}
	http = ww_http_start(listen, store, &err);
	if (!http) {
		ww_log(WW_LOG_ERR, "cannot listen on %s: %s", listen, strerror(-err));
		ww_store_free(store);
		return 1;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.sysroot = "";
	cfg.include = n_include ? include : NULL;
	cfg.interval_s = poll;
	cfg.interval_rotational_s = poll_rot;
	cfg.rediscover_s = rediscover;
	cfg.workers = workers;
	cfg.hung_after_s = hung_after;
	if (replay) {
		cfg.discover = ww_replay_discover;
		cfg.collect = ww_replay_collect_fn;
	} else {
		cfg.discover = ww_discover_with_members; /* + RAID members (smartctl) */
	}
	endurance = ww_endurance_serve_start(&end_opts);
	if (!endurance) {
		ww_http_stop(http);
		ww_store_free(store);
		return 1;
	}
	cfg.after_collect = ww_endurance_after_collect;
	cfg.after_collect_arg = endurance;
	poller = ww_poller_start(&cfg, store);
	if (!poller) {
		ww_log(WW_LOG_ERR, "cannot start reader threads");
		ww_http_stop(http);
		ww_store_free(store);
		return 1;
	}
	probe_cfg.after_burst = ww_endurance_probe_burst; /* burst summaries into history */
	probe_cfg.after_burst_arg = endurance;
	probe = ww_probe_sched_start(&probe_cfg, store, &err);
	if (!probe && err)
		ww_log(WW_LOG_WARNING, "latency probes not started: %s", strerror(-err));
	ww_log(WW_LOG_INFO, "serving on %s (port %u); poll %u s, rotational %u s, rediscover %u s",
	       listen, ww_http_port(http), poll, poll_rot, rediscover);

	for (;;) {
		struct timespec tick = { 1, 0 };

		ww_poller_tick(poller);
		sig = sigtimedwait(&sigs, NULL, &tick);
		if (sig == SIGTERM || sig == SIGINT)
			break;
	}
	ww_log(WW_LOG_INFO, "%s: stopping", strsignal(sig));
	ww_http_stop(http);
	ww_probe_sched_stop(probe);
	if (ww_poller_stop(poller, 5)) {
		ww_store_free(store);
		ww_endurance_svc_free(endurance); /* closes the history database */
	} else
		ww_log(WW_LOG_WARNING, "a device read is still outstanding; exiting without waiting");
	return 0;
}
