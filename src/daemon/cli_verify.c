/* `wearwatch verify DEVICE`: the native read and the smartctl backend on the
 * same drive, side by side, with differences flagged and, where the cause is
 * known, explained. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/smartctl.h"
#include "daemon/cli_tools.h"
#include "wearwatch/collect.h"

static unsigned n_diff, n_unexplained;

static void row(const char *name, bool a_has, long long a, bool b_has, long long b,
		const char *why)
{
	char x[32] = "-", y[32] = "-";
	bool diff = a_has != b_has || (a_has && a != b);

	if (a_has)
		snprintf(x, sizeof(x), "%lld", a);
	if (b_has)
		snprintf(y, sizeof(y), "%lld", b);
	printf("%-22s %-22s %-22s %s%s\n", name, x, y, diff ? "DIFF" : "same",
	       diff && why ? "" : "");
	if (diff) {
		n_diff++;
		if (why)
			printf("%-22s   why: %s\n", "", why);
		else
			n_unexplained++;
	}
}

static void srow(const char *name, const char *a, const char *b)
{
	bool diff = strcmp(a, b) != 0;

	printf("%-22s %-22s %-22s %s\n", name, *a ? a : "-", *b ? b : "-",
	       diff ? "DIFF" : "same");
	if (diff) {
		n_diff++;
		n_unexplained++;
	}
}

#define U(f) WW_HAS(n->f), (long long)n->f.value, WW_HAS(s->f), (long long)s->f.value

int ww_cli_verify(int argc, char **argv)
{
	ww_drive_t *all = calloc(256, sizeof(*all));
	const ww_drive_t *d = NULL;
	ww_health_t *n = calloc(1, sizeof(*n)), *s = calloc(1, sizeof(*s));
	ww_read_report_t *rn = calloc(1, sizeof(*rn)), *rs = calloc(1, sizeof(*rs));
	const char *type = NULL, *why;
	int k, ret_n, ret_s, code = 0;

	for (int i = 3; i + 1 < argc; i++)
		if (!strcmp(argv[i], "-d") || !strcmp(argv[i], "--type"))
			type = argv[i + 1];
	if (argc < 3 || !all || !n || !s || !rn || !rs) {
		fputs("usage: wearwatch verify DEVICE [-d TYPE]\n"
		      "  reads DEVICE natively and through smartctl, prints both side by side\n", stderr);
		code = 2;
		goto out;
	}
	k = ww_discover("", NULL, all, 256);
	for (int i = 0; i < k && !d; i++)
		if (!strcmp(argv[2], all[i].id) || !strcmp(argv[2], all[i].block) ||
		    !strcmp(argv[2], all[i].dev_path) || !strcmp(argv[2], all[i].cmd_path))
			d = &all[i];
	if (!d) {
		fprintf(stderr, "wearwatch: no drive matches '%s'\n", argv[2]);
		code = 2;
		goto out;
	}
	ret_n = ww_collect_drive("", d, n, rn);
	ret_s = ww_collect_smartctl(d, type, 60, s, rs);
	printf("drive %s (%s)\n", d->id, d->dev_path);
	printf("%-22s %-22s %-22s\n", "field", "native", "smartctl");
	printf("%-22s %-22d %-22d\n", "read result", ret_n, ret_s);
	if (ret_n == 1 || ret_s == 1) {
		printf("standby or suspended: nothing compared (no drive was woken)\n");
		goto out;
	}
	if (ret_s == -ENOENT) {
		printf("smartctl not installed: nothing to compare\n");
		code = 3;
		goto out;
	}
	{
		/* smartctl's model_name of a SCSI device is INQUIRY vendor + " " +
		 * product; native keeps the product (vendor apart) */
		char joined[sizeof(n->vendor) + sizeof(n->model) + 1];

		snprintf(joined, sizeof(joined), "%s %s", n->vendor, n->model);
		if (n->protocol == WW_PROTO_SCSI && strcmp(n->model, s->model) &&
		    !strcmp(joined, s->model)) {
			printf("%-22s %-22s %-22s DIFF\n", "model", n->model, s->model);
			printf("%-22s   why: %s\n", "", "smartctl's model_name for SCSI is "
			       "INQUIRY vendor + product; native reports the product, vendor apart");
			n_diff++;
		} else {
			srow("model", n->model, s->model);
		}
	}
	srow("serial", n->serial, s->serial);
	srow("firmware", n->firmware, s->firmware);
	row("capacity_bytes", U(capacity_bytes), NULL);
	why = NULL;
	if (n->protocol == WW_PROTO_SCSI && n->scsi.env_temperature_celsius.source &&
	    s->temperature_celsius.source &&
	    s->temperature_celsius.value == n->scsi.env_temperature_celsius.value)
		why = "native reads log page 0x0D parameter 0; smartctl (7.3+) shows the "
		      "Environmental Reporting subpage 0x0D/0x01, which this drive fills differently";
	row("temperature_celsius", n->temperature_celsius.source != NULL,
	    n->temperature_celsius.value, s->temperature_celsius.source != NULL,
	    s->temperature_celsius.value, why);
	row("power_on_seconds", U(power_on_seconds),
	    "smartctl rounds power-on time to minutes/hours; native keeps the unit the log has");
	row("power_cycles", U(power_cycles),
	    n->protocol == WW_PROTO_SCSI ? "SCSI has no power-cycle counter; smartctl reports none either" : NULL);
	row("unsafe_shutdowns", U(unsafe_shutdowns), NULL);
	row("media_errors", U(media_errors), NULL);
	row("endurance_used_pct", U(endurance_used_percent), NULL);
	row("host_written_bytes", U(host_written_bytes),
	    n->protocol == WW_PROTO_SCSI ?
		    "smartctl prints bytes processed as GB with 3 decimals (10^6-byte resolution); "
		    "native prefers the General Statistics page 0x19 when present" : NULL);
	row("host_read_bytes", U(host_read_bytes), NULL);
	srow("smart_status", n->smart_status == WW_SMART_PASSED ? "PASSED" :
			     n->smart_status == WW_SMART_FAILED ? "FAILED" : "unknown",
	     s->smart_status == WW_SMART_PASSED ? "PASSED" :
	     s->smart_status == WW_SMART_FAILED ? "FAILED" : "unknown");
	printf("verify: %u differences, %u unexplained\n", n_diff, n_unexplained);
	code = n_unexplained ? 4 : 0;
out:
	free(all);
	free(n);
	free(s);
	free(rn);
	free(rs);
	return code;
}
