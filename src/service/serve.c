/* `wearwatch serve`: both halves in one process, for development and simple
 * installs. The same configuration (wearwatch.conf, then flags), collecting
 * half (runtime.c) and HTTP(S) front end with web.config TLS and basic auth
 * (webfront.c) as `collector` + `web`, with the store read in-process
 * instead of over the Unix socket. The main thread only waits for signals
 * and ticks the scheduler; HTTP has its own thread, device reads run on the
 * poller's workers. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		"  --poll-interval D               read solid-state drives this often (default 60s; D: a\n"
		"                                  duration, 60, 60s, 10m, 2h)\n"
		"  --poll-interval-rotational D    read rotational drives this often (default 10m)\n"
		"  --rediscover D                  look for new/removed drives this often (default: poll interval)\n"
		"  --missing-retention D           keep a removed drive listed this long (default 1d)\n"
		"  --hung-after D                  mark a drive hung when a read is out this long (default 30s)\n"
		"  --workers N                     device reader threads (default 4)\n"
		"  --include NAME                  also monitor block device NAME (dm-*, md*, loop*); repeatable\n"
		"  --replay DIR                    serve the drives captured in DIR and its subdirectories\n"
		"                                  (wearwatch capture) instead of live ones; repeatable; keeps\n"
		"                                  no history unless --state-dir is given\n"
		"  --smartctl DRIVE=TYPE           read DRIVE (id, sdX or /dev path) through smartctl -d TYPE; repeatable\n"
		"  --help                          this text\n");
	ww_probe_serve_usage(f);
	ww_conf_endurance_usage(f);
	fprintf(f,
		"Endpoints (docs/api.md): /metrics /healthz /api/v1/drives /api/v1/drives/{drive}\n"
		"  /api/v1/drives/{drive}/history /api/v1/host /api/v1/fleet; pages: / /drives/{drive}\n"
		"  /fleet /table\n");
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
		WW_ENDURANCE_SERVE_OPTIONS, /* --state-dir: the config's entry comes first */
	};
	const struct option *c = ww_conf_options();
	size_t n = 0;

	for (; n < MAX_OPTS && c[n].name; n++)
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

/* poll: the configuration whose poll settings the readers run with */
static void log_web(const char *what, const ww_conf_t *c, const ww_conf_t *poll, ww_webfront_t *w)
{
	bool kept = poll->interval_s != c->interval_s ||
		poll->interval_rotational_s != c->interval_rotational_s;

	ww_log(WW_LOG_INFO, "%s on %s (port %u, %s%s)%s%s; poll %u s, rotational %u s%s", what,
	       c->listen, ww_webfront_port(w), ww_webfront_scheme(w),
	       ww_webfront_auth(w) ? ", basic auth" : "", c->path[0] ? ", config " : "", c->path,
	       poll->interval_s, poll->interval_rotational_s,
	       kept ? " (kept until the next reload)" : "");
}

/* Everything `serve` holds from start to exit. */
struct serve {
	int cargc;             /* cargv: argv[0] and the configuration flags, */
	char **cargv;          /* re-read at every reload */
	char **owned;          /* "--name" strings made for cargv */
	int nowned;
	ww_conf_t conf, next;
	ww_conf_endurance_opts_t end_opts;
	ww_runtime_opts_t ro;
	ww_runtime_t *rt;
	ww_webfront_t *web;
	bool state_dir_flag;   /* --state-dir given on the command line */
};

/* a configuration flag, re-spelled as --name VALUE for ww_conf_build() */
static int keep_conf_flag(struct serve *s, int c)
{
	for (const struct option *o = ww_conf_options(); o->name; o++) {
		char *flag;

		if (o->val != c)
			continue;
		if (!strcmp(o->name, "state-dir"))
			s->state_dir_flag = true;
		flag = malloc(strlen(o->name) + 3);
		if (!flag)
			return -ENOMEM;
		s->owned[s->nowned++] = flag;
		sprintf(flag, "--%s", o->name);
		s->cargv[s->cargc++] = flag;
		if (o->has_arg)
			s->cargv[s->cargc++] = optarg;
		return 0;
	}
	return -EINVAL;
}

/* every file --replay leaves out, once, with why (a directory of captures
 * is what users send: a file that is not one should not vanish silently) */
static void replay_skipped(const char *path, const char *why)
{
	ww_log(WW_LOG_WARNING, "--replay: %s skipped: %s", path, why);
}

static int add_replay(struct serve *s, const char *dir)
{
	int rc;

	ww_replay_set_skip_hook(replay_skipped);
	rc = ww_replay_add(dir);

	if (rc > 0) {
		s->ro.replay = true;
		return 0;
	}
	if (rc == 0)
		fprintf(stderr, "wearwatch serve: --replay %s: no *.capture files in it or its "
			"subdirectories (`wearwatch capture DEVICE DIR` records them)\n", dir);
	else if (rc == -EINVAL)
		fprintf(stderr, "wearwatch serve: --replay %s: not a capture "
			"(docs/capture-format.md)\n", dir);
	else
		fprintf(stderr, "wearwatch serve: --replay %s: %s\n", dir, strerror(-rc));
	return -EINVAL;
}

static int add_smartctl(struct serve *s, const char *spec)
{
	const char *eq = strchr(spec, '=');

	if (!eq || eq == spec || !eq[1] || s->ro.n_smartctl >= 16 || strlen(spec) >= 256) {
		fprintf(stderr, "wearwatch serve: --smartctl wants DRIVE=TYPE (at most 16)\n");
		return -EINVAL;
	}
	if (!ww_conf_smartctl_type_valid(eq + 1)) {
		fprintf(stderr,
			"wearwatch serve: --smartctl %s: '%s' is no type smartctl -d takes "
			"(sat, scsi, nvme, megaraid,N, cciss,N, ...: smartctl -h)\n",
			spec, eq + 1);
		return -EINVAL;
	}
	s->ro.smartctl[s->ro.n_smartctl++] = spec;
	return 0;
}

/* serve's flags: 0 to go on, else the exit status (0 after --help) + 1 */
static int parse_flags(struct serve *s, int argc, char **argv)
{
	struct option opts[MAX_OPTS + 1];
	int c, bad = 0;

	build_opts(opts);
	s->cargv[s->cargc++] = argv[0];
	optind = 1;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (is_conf_opt(c)) {
			bad |= keep_conf_flag(s, c);
			continue;
		}
		switch (c) {
		case WW_OPT_END_FIRST ... WW_OPT_END_LAST:
			bad |= ww_conf_endurance_opt(c, optarg, &s->end_opts);
			break;
		case OPT_REPLAY: /* recorded drives instead of live ones */
			bad |= add_replay(s, optarg);
			break;
		case OPT_SMARTCTL:
			bad |= add_smartctl(s, optarg);
			break;
		case OPT_HELP:
		case 'h':
			usage(stdout);
			return 0 + 1;
		default:
			usage(stderr);
			return 2 + 1;
		}
	}
	if (!bad && optind < argc) {
		fprintf(stderr, "wearwatch serve: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 2 + 1;
	}
	return bad ? 2 + 1 : 0;
}

static double serve_tick(void *ctx)
{
	struct serve *s = ctx;

	return ww_runtime_tick(s->rt);
}

/* file and flags again; nothing changes unless all of it is valid; the
 * store and the history database stay open */
static int serve_reload(void *ctx)
{
	struct serve *s = ctx;
	char err[512];
	int rc;

	/* what a start would refuse, a reload refuses too (ratings files) */
	if ((rc = ww_conf_build(&s->next, s->cargc, s->cargv, err, sizeof(err))) ||
	    (rc = ww_runtime_check_conf(&s->next, err, sizeof(err)))) {
		ww_log(WW_LOG_ERR, "reload: %s; keeping the last good configuration", err);
		return rc;
	}
	if ((rc = ww_webfront_reload(&s->web, &s->next, err, sizeof(err)))) {
		ww_log(WW_LOG_ERR, "reload: %s; keeping the last good configuration", err);
		return rc == -EIO ? WW_SERVICE_STOP : rc;
	}
	/* 1: applied but the poll settings (a read was running; logged) */
	if ((rc = ww_runtime_reload(s->rt, &s->next)) < 0) {
		ww_log(WW_LOG_ERR, "reload: cannot restart reader threads: %s", strerror(-rc));
		return WW_SERVICE_STOP;
	}
	if (ww_conf_copy(&s->conf, &s->next)) {
		ww_log(WW_LOG_ERR, "reload: out of memory");
		return WW_SERVICE_STOP;
	}
	log_web("reloaded: serving", &s->conf, ww_runtime_poll_conf(s->rt), s->web);
	return 0;
}

static int serve(struct serve *s, int argc, char **argv)
{
	ww_service_ops_t ops = { serve_tick, serve_reload, s };
	char err[512];
	sigset_t sigs;
	int rc;

	s->ro.endurance = &s->end_opts;
	if ((rc = parse_flags(s, argc, argv)))
		return rc - 1;
	/* recorded drives are no history of this machine's: without an
	 * explicit --state-dir they would go into the installed collector's
	 * database (state_directory, /var/lib/wearwatch by default) */
	if (s->ro.replay && !s->state_dir_flag && !s->end_opts.no_history) {
		s->end_opts.no_history = true;
		ww_log(WW_LOG_INFO, "replay: no history kept (--state-dir DIR keeps the replayed "
		       "drives' history in DIR/" WW_HISTORY_FILE ")");
	}
	if (ww_conf_build(&s->conf, s->cargc, s->cargv, err, sizeof(err))) {
		fprintf(stderr, "wearwatch serve: %s\n", err);
		return 2;
	}
	/* signals are taken synchronously by the main loop; every thread
	 * created from here on inherits the mask */
	ww_service_setup_memory();
	sigs = ww_service_block_signals();
	s->rt = ww_runtime_start(&s->conf, &s->ro, err, sizeof(err));
	if (!s->rt) {
		ww_log(WW_LOG_ERR, "%s", err);
		return 1;
	}
	s->web = ww_webfront_open(&s->conf, -1, ww_webfront_fetch_store,
				  (void *)ww_runtime_route_src(s->rt), err, sizeof(err));
	if (!s->web) {
		ww_log(WW_LOG_ERR, "%s", err);
		ww_runtime_stop(s->rt);
		return strstr(err, "cannot serve") ? 1 : 2; /* else web.config: as `web` */
	}
	log_web("serving", &s->conf, ww_runtime_poll_conf(s->rt), s->web);
	ww_notify_ready("serving");
	rc = ww_service_run(sigs, &ops);
	ww_webfront_close(s->web);
	ww_runtime_stop(s->rt);
	return rc;
}

int ww_serve_main(int argc, char **argv)
{
	struct serve *s = calloc(1, sizeof(*s));
	int rc = 1;

	/* runtime and web front end copy the configuration: all of this can go */
	if (s) {
		s->cargv = calloc((size_t)argc + 1, sizeof(char *));
		s->owned = calloc((size_t)argc + 1, sizeof(char *));
		if (s->cargv && s->owned)
			rc = serve(s, argc, argv);
		for (int i = 0; i < s->nowned; i++)
			free(s->owned[i]);
		free(s->owned);
		free(s->cargv);
	}
	free(s);
	return rc;
}
