/* `wearwatch show DEVICE`: one read of one drive, printed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "wearwatch/collect.h"
#include "wearwatch/expo.h"

static const char usage_show[] =
	"usage: wearwatch show DEVICE [--json] [--sysroot DIR] [--config FILE]\n"
	"\n"
	"Reads one drive once (read-only commands) and prints its health verdict\n"
	"(as the service gives it; thresholds from the [health] and [drive]\n"
	"sections of FILE, else the defaults), every value it reported, with units\n"
	"and where each came from, and the commands sent.\n"
	"DEVICE: /dev/sda, sda, /dev/sg0, /dev/nvme0, /dev/nvme0n1, or a stable id\n"
	"as `wearwatch scan` prints it.\n"
	"\n"
	"exit status: 0 read ok, 1 drive left alone (standby or runtime-suspended),\n"
	"             2 usage error or no such drive, 3 read failed,\n"
	"             4 no health interface (e.g. virtio, loop: nothing to read)\n";

int ww_cli_show(int argc, char **argv)
{
	ww_cli_opts_t o;
	ww_drive_t *d = NULL;
	const ww_drive_t *x;
	ww_health_t *h = NULL;
	ww_read_report_t *r = NULL;
	ww_verdict_t *v = NULL;
	ww_endurance_t *e = NULL;
	bool has_e = false;
	ww_selftest_plan_t plan = { 0 };
	int n, ret, code;

	if (ww_cli_wants_help(argc, argv)) {
		fputs(usage_show, stdout);
		return 0;
	}
	if (ww_cli_parse_opts(argc, argv, &o, usage_show))
		return WW_EXIT_USAGE;
	if (!o.arg) {
		fputs(usage_show, stderr);
		return WW_EXIT_USAGE;
	}
	x = ww_cli_lookup_drive(o.sysroot, o.arg, &d, &n);
	if (n < 0) {
		free(d);
		return WW_EXIT_READ_FAILED;
	}
	if (!x) {
		free(d);
		return WW_EXIT_USAGE;
	}

	h = calloc(1, sizeof(*h));
	r = calloc(1, sizeof(*r));
	v = calloc(1, sizeof(*v));
	e = calloc(1, sizeof(*e));
	if (!h || !r || !v || !e) {
		code = WW_EXIT_READ_FAILED;
		goto out;
	}
	ret = ww_collect_drive(o.sysroot, x, h, r);
	if (ww_cli_verdict_plan(o.config, x, h, ret, v, e, &has_e, &plan) == -EINVAL) {
		code = WW_EXIT_USAGE;
		goto out;
	}
	if (ret == 1)
		code = WW_EXIT_STANDBY;
	else if (ret < 0 && x->protocol == WW_PROTO_NONE)
		code = WW_EXIT_NO_HEALTH;
	else if (ret < 0)
		code = WW_EXIT_READ_FAILED;
	else
		code = WW_EXIT_READ_OK;

	if (o.json) {
		char *js = ww_json_render_health(x, h, r, v, has_e ? e : NULL);

		if (!js) {
			fprintf(stderr, "wearwatch: out of memory\n");
			code = WW_EXIT_READ_FAILED;
			goto out;
		}
		puts(js);
		free(js);
	} else {
		ww_text_render_health(stdout, x, h, r, v, has_e ? e : NULL);
		if (plan.on)
			ww_text_render_self_test_plan(stdout, &plan);
	}
	if (ret == 1)
		fprintf(stderr, "wearwatch: %s left alone: %s\n", x->id,
			r->standby ? "drive is in standby (not woken)"
				   : "device is runtime-suspended");
	else if (code == WW_EXIT_NO_HEALTH)
		ww_cli_say_no_health(x);
	else if (ret < 0)
		fprintf(stderr, "wearwatch: reading %s failed: %s\n", x->id, strerror(-ret));
out:
	free(h);
	free(r);
	free(v);
	free(e);
	free(d);
	return code;
}
