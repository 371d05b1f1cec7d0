/* `wearwatch serve`: both halves in one process, for development and simple
 * installs. The same configuration (wearwatch.conf, then flags), collecting
 * half (runtime.c) and HTTP(S) front end with web.config TLS and basic auth
 * (webfront.c) as `collector` + `web`, with the store read in-process
 * instead of over the Unix socket. The main thread only waits for signals
 * and ticks the scheduler; HTTP has its own thread, device reads run on the
 * poller's workers. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wearwatch/collect.h"
#include "wearwatch/conf.h"
#include "wearwatch/http.h"
#include "wearwatch/basic.h"
#include "wearwatch/service.h"
#include "wearwatch/sched.h"
#include "wearwatch/store.h"


static void usage(FILE *f)
{
	fprintf(f,
		"usage: wearwatch serve [options]\n"
		"  --config FILE                   configuration (default /etc/wearwatch/wearwatch.conf, may be absent;\n"
		"                                  see wearwatch.conf(5)); the flags below win over it; SIGHUP reloads\n"
		"  --web-config FILE               TLS and basic auth (Prometheus web.config format)\n"
		"  --notify-exec PROG              run PROG on health changes (WEARWATCH_* environment)\n"
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
		"  --replay DIR                    serve the drives captured in DIR and its subdirectories\n"
		"                                  (wearwatch capture) instead of live ones; repeatable\n"
		"  --smartctl DRIVE=TYPE           read DRIVE (id, sdX or /dev path) through smartctl -d TYPE; repeatable\n"
		"  --help                          this text\n");
	ww_probe_serve_usage(f);
	ww_endurance_serve_usage(f);
	fprintf(f,
		"Endpoints: /metrics /api/v1/drives /api/v1/drives/{drive} /api/v1/drives/{drive}/history /healthz /\n");
}

enum {
	OPT_REPLAY = 256,
	OPT_SMARTCTL,
	OPT_HELP,
};

#define MAX_OPTS 64

/* The configuration file's flags (config.c) followed by serve's own, so one
 * getopt pass sorts them: the former are collected for ww_conf_build(),
 * which every start and SIGHUP runs (defaults, file, then these flags). */
static size_t build_opts(struct option *o)
{
	static const struct option own[] = {
		{ "replay", required_argument, NULL, OPT_REPLAY },
		{ "smartctl", required_argument, NULL, OPT_SMARTCTL },
		{ "help", no_argument, NULL, OPT_HELP },
		WW_PROBE_SERVE_OPTIONS,
		WW_ENDURANCE_SERVE_OPTIONS, /* --state-dir: the config's entry comes first */
	};
	const struct option *c = ww_conf_options();
	size_t n = 0;

	for (; c[n].name && n < MAX_OPTS; n++)
		o[n] = c[n];
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]) && n < MAX_OPTS; i++)
		o[n++] = own[i];
	memset(&o[n], 0, sizeof(o[n]));
	return n;
}

static bool is_conf_opt(int val)
{
	for (const struct option *c = ww_conf_options(); c->name; c++)
		if (c->val == val)
			return true;
	return false;
}

static void log_web(const char *what, const ww_conf_t *c, ww_webfront_t *w)
{
	ww_log(WW_LOG_INFO, "%s on %s (port %u, %s%s)%s%s; poll %u s, rotational %u s", what,
	       c->listen, ww_webfront_port(w), ww_webfront_scheme(w),
	       ww_webfront_auth(w) ? ", basic auth" : "", c->path[0] ? ", config " : "", c->path,
	       c->interval_s, c->interval_rotational_s);
}

/* The body of ww_serve_main; the caller owns (and frees) cargv, owned (the
 * flag strings this function allocates into cargv), conf and next. */
static int serve(int argc, char **argv, char **cargv, char **owned, ww_conf_t *conf,
		 ww_conf_t *next)
{
	struct option opts[MAX_OPTS + 1];
	char err[512];
	int cargc = 1, nowned = 0, c, bad = 0, sig = 0, rc;
	ww_endurance_opts_t end_opts = { 0 };
	ww_runtime_opts_t ro = { .endurance = &end_opts };
	ww_runtime_t *rt = NULL;
	ww_webfront_t *web = NULL;
	struct timespec tick;
	sigset_t sigs;

	build_opts(opts);
	ww_probe_policy_default(&ro.probe);
	cargv[0] = argv[0];
	optind = 1;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (is_conf_opt(c)) {
			/* re-spelled as --name VALUE for ww_conf_build() */
			for (const struct option *o = ww_conf_options(); o->name; o++)
				if (o->val == c) {
					char *flag = malloc(strlen(o->name) + 3);

					if (!flag)
						return 1;
					owned[nowned++] = flag;
					sprintf(flag, "--%s", o->name);
					cargv[cargc++] = flag;
					if (o->has_arg)
						cargv[cargc++] = optarg;
					break;
				}
			continue;
		}
		switch (c) {
		case WW_OPT_END_FIRST ... WW_OPT_END_LAST:
			bad |= ww_endurance_serve_opt(c, optarg, &end_opts);
			break;
		case OPT_REPLAY: /* recorded drives instead of live ones */
			if ((rc = ww_replay_add(optarg)) <= 0) {
				if (rc == 0)
					fprintf(stderr, "wearwatch serve: --replay %s: no *.capture "
						"files in it or its subdirectories (`wearwatch capture "
						"DEVICE DIR` records them)\n", optarg);
				else if (rc == -EINVAL)
					fprintf(stderr, "wearwatch serve: --replay %s: not a capture "
						"(docs/capture-format.md)\n", optarg);
				else
					fprintf(stderr, "wearwatch serve: --replay %s: %s\n", optarg,
						strerror(-rc));
				return 2;
			}
			ro.replay = true;
			break;
		case OPT_SMARTCTL: { /* drives only smartctl reaches (RAID members, USB) */
			const char *eq = strchr(optarg, '=');

			if (!eq || eq == optarg || !eq[1] || ro.n_smartctl >= 16 ||
			    strlen(optarg) >= 256) {
				fprintf(stderr, "wearwatch serve: --smartctl wants DRIVE=TYPE (at most 16)\n");
				return 2;
			}
			ro.smartctl[ro.n_smartctl++] = optarg;
			break;
		}
		case WW_OPT_PROBE_FIRST ... WW_OPT_PROBE_LAST:
			bad |= ww_probe_serve_opt(c, optarg, &ro.probe);
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
	if (bad)
		return 2;
	if (optind < argc) {
		fprintf(stderr, "wearwatch serve: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (ww_conf_build(conf, cargc, cargv, err, sizeof(err))) {
		fprintf(stderr, "wearwatch serve: %s\n", err);
		return 2;
	}

	/* signals are taken synchronously by this thread; every thread created
	 * from here on inherits the mask */
	sigs = ww_service_block_signals();
	rt = ww_runtime_start(conf, &ro, err, sizeof(err));
	if (!rt) {
		ww_log(WW_LOG_ERR, "%s", err);
		return 1;
	}
	web = ww_webfront_open(conf, -1, ww_webfront_fetch_store, ww_runtime_store(rt), err,
			       sizeof(err));
	if (!web) {
		ww_log(WW_LOG_ERR, "%s", err);
		ww_runtime_stop(rt);
		return 1;
	}
	log_web("serving", conf, web);
	ww_notify_ready("serving");
	tick = ww_service_tick_interval();
	for (;;) {
		ww_runtime_tick(rt);
		ww_notify_watchdog();
		sig = sigtimedwait(&sigs, NULL, &tick);
		if (sig == SIGTERM || sig == SIGINT)
			break;
		if (sig != SIGHUP)
			continue;
		/* reload: file and flags again; nothing changes unless all of it
		 * is valid; the store and the history database stay open */
		ww_notify_reloading(1);
		if ((rc = ww_conf_build(next, cargc, cargv, err, sizeof(err)))) {
			ww_log(WW_LOG_ERR, "reload: %s; keeping the last good configuration", err);
		} else if ((rc = ww_webfront_reload(&web, next, err, sizeof(err)))) {
			ww_log(WW_LOG_ERR, "reload: %s; keeping the last good configuration", err);
			if (rc == -EIO)
				break;
		} else if ((rc = ww_runtime_reload(rt, next))) {
			ww_log(WW_LOG_ERR, "reload: cannot restart reader threads: %s", strerror(-rc));
			break;
		} else {
			*conf = *next;
			log_web("reloaded: serving", conf, web);
		}
		ww_notify_reloading(0);
	}
	ww_notify_stopping();
	ww_log(WW_LOG_INFO, "%s: stopping", sig > 0 ? strsignal(sig) : "error");
	ww_webfront_close(web);
	ww_runtime_stop(rt);
	return 0;
}

int ww_serve_main(int argc, char **argv)
{
	char **cargv = calloc((size_t)argc + 1, sizeof(char *));
	char **owned = calloc((size_t)argc + 1, sizeof(char *));
	ww_conf_t *conf = calloc(1, sizeof(*conf)), *next = calloc(1, sizeof(*next));
	int rc = 1;

	/* runtime and web front end copy the configuration: all of this can go */
	if (cargv && owned && conf && next)
		rc = serve(argc, argv, cargv, owned, conf, next);
	for (char **p = owned; owned && *p; p++)
		free(*p);
	free(owned);
	free(cargv);
	free(conf);
	free(next);
	return rc;
}
