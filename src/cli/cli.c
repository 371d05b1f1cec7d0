/* Subcommand dispatch: scan, show, serve. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "wearwatch/cli.h"
#include "wearwatch/service.h"
#include "wearwatch/sched.h"
#include "wearwatch/conf.h"
#include "wearwatch/collect.h"
#include "wearwatch/discover.h"
#include "wearwatch/expo.h"

#define MAX_DRIVES 1024 /* as the service (WW_POLLER_MAX_DRIVES) */

enum { EXIT_READ_OK = 0, EXIT_STANDBY = 1, EXIT_USAGE = 2, EXIT_READ_FAILED = 3,
       EXIT_NO_HEALTH = 4 };

#ifndef WW_VERSION_STRING
#define WW_VERSION_STRING "unknown"
#endif

static const char usage_main[] =
	"usage: wearwatch COMMAND [OPTIONS]\n"
	"\n"
	"commands:\n"
	"  scan [--json]               list drives and how their health is read\n"
	"  show DEVICE [--json]        read one drive once and print everything\n"
	"  serve [--listen HOST:PORT]  run the monitoring service\n"
	"  probe DEVICE [--json]       measure read latency (random O_DIRECT reads)\n"
	"  capture DEVICE DIR [--redact]  record every command and answer (read-only)\n"
	"  decode FILE [--json] [--type T]  health record of a capture, blob, trace, JSON or page\n"
	"  verify DEVICE [-d TYPE]     native read and smartctl side by side\n"
	"  collector                   privileged half of the service (drives, no network)\n"
	"  web                         unprivileged half (HTTP/TLS, asks the collector)\n"
	"  notify-test [--notify-exec PROG]  run the notification program once\n"
	"\n"
	"\n"
	"`wearwatch COMMAND --help` describes a command; `wearwatch --version`.\n";

static const char usage_scan[] =
	"usage: wearwatch scan [--json] [--sysroot DIR]\n"
	"\n"
	"Lists every drive found in sysfs (partitions, loop, ram, zram, dm, md,\n"
	"optical and nbd devices are left out): stable id, device, transport,\n"
	"how health is read, model, serial, capacity, slot and the block devices\n"
	"(dual-ported paths, NVMe namespaces) that belong to it. Sends no command.\n"
	"\n"
	"  --json          one JSON array\n"
	"  --sysroot DIR   read sys/ and dev/disk/ under DIR (test trees)\n";

static const char usage_show[] =
	"usage: wearwatch show DEVICE [--json] [--sysroot DIR]\n"
	"\n"
	"Reads one drive once (read-only commands) and prints every value it\n"
	"reported, with units and where each came from, and the commands sent.\n"
	"DEVICE: /dev/sda, sda, /dev/sg0, /dev/nvme0, /dev/nvme0n1, or a stable id\n"
	"as `wearwatch scan` prints it.\n"
	"\n"
	"exit status: 0 read ok, 1 drive left alone (standby or runtime-suspended),\n"
	"             2 usage error or no such drive, 3 read failed,\n"
	"             4 no health interface (e.g. virtio, loop: nothing to read)\n";

static bool want_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

struct opts {
	bool json;
	const char *sysroot;
	const char *arg;
};

/* Parses [--json] [--sysroot DIR] and at most one positional argument. */
static int parse_opts(int argc, char **argv, struct opts *o, const char *usage)
{
	memset(o, 0, sizeof(*o));
	o->sysroot = "";
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			o->json = true;
		} else if (!strcmp(argv[i], "--sysroot") && i + 1 < argc) {
			o->sysroot = argv[++i];
		} else if (argv[i][0] != '-' && !o->arg) {
			o->arg = argv[i];
		} else {
			fprintf(stderr, "wearwatch: unexpected argument '%s'\n%s", argv[i], usage);
			return -EINVAL;
		}
	}
	return 0;
}

static void human_capacity(uint64_t b, char *buf, size_t len)
{
	static const char *const u[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
	double v = (double)b;
	int i = 0;

	while (v >= 1000 && i < 6) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.1f %s", v, u[i]);
}

static void join_names(char *buf, size_t len, const char (*names)[32], size_t n)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? "," : "", names[i]);
}

/* Block devices of a drive: namespaces for NVMe, paths otherwise. */
static void drive_members(const ww_drive_t *d, char *buf, size_t len)
{
	if (d->n_namespaces)
		join_names(buf, len, d->namespaces, d->n_namespaces);
	else
		join_names(buf, len, d->paths, d->n_paths);
}

static int discover_all(const char *sysroot, const char *const *inc, ww_drive_t **out)
{
	ww_drive_t *d = calloc(MAX_DRIVES, sizeof(*d));
	int n;

	if (!d)
		return -ENOMEM;
	n = ww_discover(sysroot, inc, d, MAX_DRIVES);
	if (n < 0) {
		free(d);
		return n;
	}
	*out = d;
	return n;
}

static json_object *drive_json(const ww_drive_t *d)
{
	json_object *o = json_object_new_object(), *a;
	char lbl[160];

	json_object_object_add(o, "id", json_object_new_string(d->id));
	json_object_object_add(o, "device", json_object_new_string(d->dev_path));
	json_object_object_add(o, "command_node", json_object_new_string(d->cmd_path));
	json_object_object_add(o, "transport",
			       json_object_new_string(ww_transport_name(d->transport)));
	json_object_object_add(o, "protocol",
			       json_object_new_string(ww_protocol_name(d->protocol)));
	json_object_object_add(o, "health_read_with",
			       json_object_new_string(ww_drive_protocol_label(d, lbl, sizeof(lbl))));
	if (d->protocol == WW_PROTO_NONE && d->no_health_reason)
		json_object_object_add(o, "no_health_reason",
				       json_object_new_string(d->no_health_reason));
	json_object_object_add(o, "model", json_object_new_string(d->sysfs_model));
	json_object_object_add(o, "serial", json_object_new_string(d->sysfs_serial));
	json_object_object_add(o, "firmware", json_object_new_string(d->sysfs_firmware));
	json_object_object_add(o, "wwid", json_object_new_string(d->sysfs_wwn));
	json_object_object_add(o, "capacity_bytes",
			       json_object_new_uint64(d->capacity_bytes));
	json_object_object_add(o, "logical_block_bytes",
			       json_object_new_int64(d->logical_block_bytes));
	json_object_object_add(o, "physical_block_bytes",
			       json_object_new_int64(d->physical_block_bytes));
	json_object_object_add(o, "rotational", json_object_new_boolean(d->rotational));
	json_object_object_add(o, "slot", json_object_new_string(d->slot));
	if (*d->ctrl)
		json_object_object_add(o, "controller", json_object_new_string(d->ctrl));
	a = json_object_new_array();
	for (size_t i = 0; i < d->n_paths; i++)
		json_object_array_add(a, json_object_new_string(d->paths[i]));
	json_object_object_add(o, "paths", a);
	a = json_object_new_array();
	for (size_t i = 0; i < d->n_namespaces; i++)
		json_object_array_add(a, json_object_new_string(d->namespaces[i]));
	json_object_object_add(o, "namespaces", a);
	return o;
}

static int cmd_scan(int argc, char **argv)
{
	struct opts o;
	ww_drive_t *d;
	int n;

	if (want_help(argc, argv)) {
		fputs(usage_scan, stdout);
		return 0;
	}
	if (parse_opts(argc, argv, &o, usage_scan) || o.arg) {
		if (o.arg)
			fputs(usage_scan, stderr);
		return EXIT_USAGE;
	}
	n = discover_all(o.sysroot, NULL, &d);
	if (n < 0) {
		fprintf(stderr, "wearwatch: cannot list drives under %s/sys/block: %s\n",
			o.sysroot, strerror(-n));
		return EXIT_READ_FAILED;
	}

	if (o.json) {
		json_object *arr = json_object_new_array();

		for (int i = 0; i < n; i++)
			json_object_array_add(arr, drive_json(&d[i]));
		puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
		free(d);
		return 0;
	}

	/* columns sized to their contents */
	enum { C_ID, C_DEV, C_TR, C_PROTO, C_MODEL, C_SERIAL, C_CAP, C_SLOT, C_MEMB, C_N };
	static const char *const head[C_N] = { "ID", "DEVICE", "TRANSPORT", "PROTOCOL",
					       "MODEL", "SERIAL", "CAPACITY", "SLOT",
					       "PATHS/NAMESPACES" };
	char (*cell)[C_N][192] = calloc((size_t)n + 1, sizeof(*cell));
	int w[C_N];

	if (!cell) {
		free(d);
		return EXIT_READ_FAILED;
	}
	for (int c = 0; c < C_N; c++) {
		snprintf(cell[0][c], sizeof(cell[0][c]), "%s", head[c]);
		w[c] = (int)strlen(head[c]);
	}
	for (int i = 0; i < n; i++) {
		char (*r)[192] = cell[i + 1];

		snprintf(r[C_ID], 192, "%s", d[i].id);
		snprintf(r[C_DEV], 192, "%s", d[i].dev_path);
		snprintf(r[C_TR], 192, "%s", ww_transport_name(d[i].transport));
		ww_drive_protocol_label(&d[i], r[C_PROTO], 192);
		snprintf(r[C_MODEL], 192, "%s", *d[i].sysfs_model ? d[i].sysfs_model : "-");
		snprintf(r[C_SERIAL], 192, "%s", *d[i].sysfs_serial ? d[i].sysfs_serial : "-");
		human_capacity(d[i].capacity_bytes, r[C_CAP], 192);
		snprintf(r[C_SLOT], 192, "%s", *d[i].slot ? d[i].slot : "-");
		drive_members(&d[i], r[C_MEMB], 192);
		for (int c = 0; c < C_N; c++)
			if ((int)strlen(r[c]) > w[c])
				w[c] = (int)strlen(r[c]);
	}
	for (int i = 0; i <= n; i++)
		for (int c = 0; c < C_N; c++)
			if (c == C_N - 1)
				printf("%s\n", cell[i][c]);
			else
				printf("%-*s  ", w[c], cell[i][c]);
	if (!n)
		printf("(no drives found)\n");
	free(cell);
	free(d);
	return 0;
}

static int cmd_show(int argc, char **argv)
{
	struct opts o;
	ww_drive_t *d = NULL;
	const ww_drive_t *x;
	ww_health_t *h = NULL;
	ww_read_report_t *r = NULL;
	int n, ret, code;

	if (want_help(argc, argv)) {
		fputs(usage_show, stdout);
		return 0;
	}
	if (parse_opts(argc, argv, &o, usage_show))
		return EXIT_USAGE;
	if (!o.arg) {
		fputs(usage_show, stderr);
		return EXIT_USAGE;
	}
	x = ww_cli_lookup_drive(o.sysroot, o.arg, &d, &n);
	if (n < 0) {
		fprintf(stderr, "wearwatch: cannot list drives: %s\n", strerror(-n));
		free(d);
		return EXIT_READ_FAILED;
	}
	if (!x) {
		fprintf(stderr, "wearwatch: no drive matches '%s' (see `wearwatch scan`)\n", o.arg);
		free(d);
		return EXIT_USAGE;
	}

	h = calloc(1, sizeof(*h));
	r = calloc(1, sizeof(*r));
	if (!h || !r) {
		code = EXIT_READ_FAILED;
		goto out;
	}
	ret = ww_collect_drive(o.sysroot, x, h, r);
	if (ret == 1)
		code = EXIT_STANDBY;
	else if (ret < 0 && x->protocol == WW_PROTO_NONE)
		code = EXIT_NO_HEALTH;
	else if (ret < 0)
		code = EXIT_READ_FAILED;
	else
		code = EXIT_READ_OK;

	if (o.json) {
		char *js = ww_json_render_health(x, h, r);

		if (!js) {
			fprintf(stderr, "wearwatch: out of memory\n");
			code = EXIT_READ_FAILED;
			goto out;
		}
		puts(js);
		free(js);
	} else {
		ww_text_render_health(stdout, x, h, r);
	}
	if (ret == 1)
		fprintf(stderr, "wearwatch: %s left alone: %s\n", x->id,
			r->standby ? "drive is in standby (not woken)" : "device is runtime-suspended");
	else if (ret < 0)
		fprintf(stderr, "wearwatch: reading %s failed: %s%s%s\n", x->id, strerror(-ret),
			x->protocol == WW_PROTO_NONE ? " - " : "",
			x->protocol == WW_PROTO_NONE && x->no_health_reason ? x->no_health_reason : "");
out:
	free(h);
	free(r);
	free(d);
	return code;
}

int ww_cli_main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage_main, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		fputs(usage_main, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("wearwatch %s\n", WW_VERSION_STRING);
		return 0;
	}
	if (!strcmp(argv[1], "scan"))
		return cmd_scan(argc, argv);
	if (!strcmp(argv[1], "show"))
		return cmd_show(argc, argv);
	if (!strcmp(argv[1], "collector"))
		return ww_collector_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "web"))
		return ww_web_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "notify-test"))
		return ww_notify_test_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "serve"))
		return ww_serve_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "probe"))
		return ww_probe_cli_main(argc, argv);
	if (!strcmp(argv[1], "capture"))
		return ww_cli_capture(argc, argv);
	if (!strcmp(argv[1], "decode"))
		return ww_cli_decode(argc, argv);
	if (!strcmp(argv[1], "verify"))
		return ww_cli_verify(argc, argv);
	fprintf(stderr, "wearwatch: unknown command '%s'\n%s", argv[1], usage_main);
	return EXIT_USAGE;
}
