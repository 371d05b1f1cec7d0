/* The command table and what the subcommands share (see cli.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "wearwatch/cli.h"
#include "wearwatch/service.h"

#ifndef WW_VERSION_STRING
#define WW_VERSION_STRING "unknown"
#endif

/* One row per subcommand, in the order `wearwatch --help` lists them. */
static const struct command {
	const char *name, *synopsis, *what;
	int (*main)(int argc, char **argv); /* argv[0] is the name */
} commands[] = {
	{ "scan", "scan [--json]", "list drives and how their health is read", ww_cli_scan },
	{ "show", "show DEVICE [--json]", "read one drive once and print everything", ww_cli_show },
	{ "serve", "serve [--listen HOST:PORT]", "run the monitoring service", ww_serve_main },
	{ "probe", "probe DEVICE [--json]", "measure read latency (random O_DIRECT reads)",
	  ww_cli_probe },
	{ "qualify", "qualify DEVICE --profile NAME",
	  "the reviews' load tests: per-second IOPS and latency (writes guarded)", ww_cli_qualify },
	{ "capture", "capture DEVICE DIR [--redact]", "record every command and answer (read-only)",
	  ww_cli_capture },
	{ "decode", "decode FILE|DIR [--json] [--type T]",
	  "health record of a capture, blob, trace, JSON or page", ww_cli_decode },
	{ "verify", "verify DEVICE [-d TYPE]", "native read and smartctl side by side",
	  ww_cli_verify },
	{ "ratings", "ratings check FILE... | lookup MODEL",
	  "lint ratings tables; say which row and source rate a model", ww_cli_ratings },
	{ "collector", "collector", "privileged half of the service (drives, no network)",
	  ww_collector_main },
	{ "web", "web", "unprivileged half (HTTP/TLS, asks the collector)", ww_web_main },
	{ "notify-test", "notify-test [--notify-exec PROG]", "run the notification program once",
	  ww_cli_notify_test },
	{ "notify-deliver", "notify-deliver [--spool DIR]",
	  "run the notification program for queued events (wearwatch-notify.service)",
	  ww_cli_notify_deliver },
};

static void usage(FILE *f)
{
	fputs("usage: wearwatch COMMAND [OPTIONS]\n\ncommands:\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-33s %s\n", commands[i].synopsis, commands[i].what);
	fputs("\n`wearwatch COMMAND --help` describes a command; `wearwatch --version`.\n", f);
}

bool ww_cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

void ww_cli_say_no_health(const ww_drive_t *d)
{
	fprintf(stderr, "wearwatch: %s: not monitored: %s\n", d->id,
		d->no_health_reason ? d->no_health_reason : "no health interface known for this device");
}

int ww_cli_parse_opts(int argc, char **argv, ww_cli_opts_t *o, const char *usage_text)
{
	memset(o, 0, sizeof(*o));
	o->sysroot = "";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			o->json = true;
		} else if (!strcmp(argv[i], "--sysroot") && i + 1 < argc) {
			o->sysroot = argv[++i];
		} else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
			o->config = argv[++i];
		} else if (argv[i][0] != '-' && !o->arg) {
			o->arg = argv[i];
		} else {
			fprintf(stderr, "wearwatch: unexpected argument '%s'\n%s", argv[i], usage_text);
			return -EINVAL;
		}
	}
	return 0;
}

int ww_cli_main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return WW_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("wearwatch %s\n", WW_VERSION_STRING);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].main(argc - 1, argv + 1);
	fprintf(stderr, "wearwatch: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return WW_EXIT_USAGE;
}
