/* `wearwatch scan`: the drives discovery finds, sending no command. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/cli.h"
#include "wearwatch/discover.h"

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
	json_object_object_add(
		o, "health_read_with",
		json_object_new_string(ww_drive_protocol_label(d, lbl, sizeof(lbl))));
	if (d->protocol == WW_PROTO_NONE && d->no_health_reason)
		json_object_object_add(o, "no_health_reason",
				       json_object_new_string(d->no_health_reason));
	json_object_object_add(o, "model", json_object_new_string(d->sysfs_model));
	json_object_object_add(o, "serial", json_object_new_string(d->sysfs_serial));
	json_object_object_add(o, "firmware", json_object_new_string(d->sysfs_firmware));
	json_object_object_add(o, "wwid", json_object_new_string(d->sysfs_wwn));
	json_object_object_add(o, "capacity_bytes", json_object_new_uint64(d->capacity_bytes));
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

int ww_cli_scan(int argc, char **argv)
{
	ww_cli_opts_t o;
	ww_drive_t *d;
	int n;

	if (ww_cli_wants_help(argc, argv)) {
		fputs(usage_scan, stdout);
		return 0;
	}
	if (ww_cli_parse_opts(argc, argv, &o, usage_scan) || o.arg) {
		if (o.arg)
			fputs(usage_scan, stderr);
		return WW_EXIT_USAGE;
	}
	n = ww_discover_all(o.sysroot, NULL, &d);
	if (n < 0) {
		fprintf(stderr, "wearwatch: cannot list drives under %s/sys/block: %s\n", o.sysroot,
			strerror(-n));
		return WW_EXIT_READ_FAILED;
	}

	if (o.json) {
		json_object *arr = json_object_new_array();

		for (int i = 0; i < n; i++)
			json_object_array_add(arr, drive_json(&d[i]));
		puts(json_object_to_json_string_ext(
			arr, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
		free(d);
		return 0;
	}

	/* columns sized to their contents */
	enum {
		C_ID,
		C_DEV,
		C_TR,
		C_PROTO,
		C_MODEL,
		C_SERIAL,
		C_CAP,
		C_SLOT,
		C_MEMB,
		C_N
	};
	static const char *const head[C_N] = { "ID",       "DEVICE", "TRANSPORT",
					       "PROTOCOL", "MODEL",  "SERIAL",
					       "CAPACITY", "SLOT",   "PATHS/NAMESPACES" };
	char(*cell)[C_N][192] = calloc((size_t)n + 1, sizeof(*cell));
	int w[C_N];

	if (!cell) {
		free(d);
		return WW_EXIT_READ_FAILED;
	}
	for (int c = 0; c < C_N; c++) {
		snprintf(cell[0][c], sizeof(cell[0][c]), "%s", head[c]);
		w[c] = (int)strlen(head[c]);
	}
	for (int i = 0; i < n; i++) {
		char(*r)[192] = cell[i + 1];

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
