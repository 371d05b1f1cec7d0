/* `wearwatch verify DEVICE`: the native read and the smartctl backend on the
 * same drive, side by side, with differences flagged and, where the cause is
 * known, explained. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/collect.h"
#include "cli/cli.h"

static unsigned n_diff, n_unexplained;

static void row(const char *name, bool a_has, long long a, bool b_has, long long b, const char *why)
{
	char x[32] = "-", y[32] = "-";
	bool diff = a_has != b_has || (a_has && a != b);

	if (a_has)
		snprintf(x, sizeof(x), "%lld", a);
	if (b_has)
		snprintf(y, sizeof(y), "%lld", b);
	printf("%-22s %-22s %-22s %s\n", name, x, y, diff ? "DIFF" : "same");
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

	printf("%-22s %-22s %-22s %s\n", name, *a ? a : "-", *b ? b : "-", diff ? "DIFF" : "same");
	if (diff) {
		n_diff++;
		n_unexplained++;
	}
}

#define U(f) WW_HAS(n->f), (long long)n->f.value, WW_HAS(s->f), (long long)s->f.value

/* A counter that other I/O keeps moving (bytes read/written) may differ only
 * because time passed between the two reads: explained when smartctl's value
 * lies between the native read before it and the native read after it. */
static const char *moved(const ww_u64 *before, const ww_u64 *smartctl, const ww_u64 *after)
{
	if (WW_HAS(*before) && WW_HAS(*smartctl) && WW_HAS(*after) &&
	    before->value <= smartctl->value && smartctl->value <= after->value &&
	    before->value != after->value)
		return "the counter moved between the reads (other I/O on the drive): "
		       "smartctl's value lies between a native read before and one after it";
	return NULL;
}

static const char usage_verify[] =
	"usage: wearwatch verify DEVICE [-d TYPE] [--sysroot DIR]\n"
	"\n"
	"Reads DEVICE natively and through smartctl (`smartctl -j -x -d TYPE`) and\n"
	"prints both side by side; each difference is flagged DIFF and explained\n"
	"(\"why:\") where its cause is known. DEVICE as for `wearwatch show`.\n"
	"\n"
	"exit status: 0 no unexplained difference,\n"
	"             1 drive left alone (standby or runtime-suspended; nothing woken),\n"
	"             2 usage error or no such drive, 3 smartctl not installed,\n"
	"             4 unexplained differences,\n"
	"             5 no health interface (e.g. virtio, loop: nothing to compare)\n";

/* read result as a word: "ok", "standby", or the errno's name */
static const char *result_name(int ret)
{
	const char *name;

	if (ret == 0)
		return "ok";
	if (ret == 1)
		return "standby";
	name = ret < 0 ? strerrorname_np(-ret) : NULL;
	return name ? name : "error";
}

/* The three reads verify compares: native, smartctl, native again. */
struct reads {
	ww_health_t n, s, n2;
	ww_read_report_t rn, rs, rn2;
};

/* DEVICE [-d TYPE] [--sysroot DIR]: 0, or 2 after a usage message */
static int parse_args(int argc, char **argv, const char **dev, const char **type,
		      const char **sysroot)
{
	for (int i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "-d") || !strcmp(argv[i], "--type")) && i + 1 < argc)
			*type = argv[++i];
		else if (!strcmp(argv[i], "--sysroot") && i + 1 < argc)
			*sysroot = argv[++i];
		else if (argv[i][0] != '-' && !*dev)
			*dev = argv[i];
		else {
			fprintf(stderr, "wearwatch: unexpected argument '%s'\n", argv[i]);
			fputs(usage_verify, stderr);
			return 2;
		}
	}
	if (!*dev) {
		fputs(usage_verify, stderr);
		return 2;
	}
	return 0;
}

/* smartctl's model_name of a SCSI device is INQUIRY vendor + " " + product;
 * native keeps the product (vendor apart) */
static void compare_model(const ww_health_t *n, const ww_health_t *s)
{
	char joined[sizeof(n->vendor) + sizeof(n->model) + 1];

	snprintf(joined, sizeof(joined), "%s %s", n->vendor, n->model);
	if (n->protocol == WW_PROTO_SCSI && strcmp(n->model, s->model) &&
	    !strcmp(joined, s->model)) {
		printf("%-22s %-22s %-22s DIFF\n", "model", n->model, s->model);
		printf("%-22s   why: %s\n", "",
		       "smartctl's model_name for SCSI is "
		       "INQUIRY vendor + product; native reports the product, vendor apart");
		n_diff++;
	} else {
		srow("model", n->model, s->model);
	}
}

static const char *smart_status_word(ww_smart_status_t st)
{
	return st == WW_SMART_PASSED ? "PASSED" : st == WW_SMART_FAILED ? "FAILED" : "unknown";
}

/* every field both sides have, side by side; returns the exit status */
static int compare(const struct reads *x)
{
	const ww_health_t *n = &x->n, *s = &x->s, *n2 = &x->n2;

	compare_model(n, s);
	srow("serial", n->serial, s->serial);
	srow("firmware", n->firmware, s->firmware);
	row("capacity_bytes", U(capacity_bytes), NULL);
	/* SCSI: both take the environmental subpage first (smartctl 7.3) */
	row("temperature_celsius", n->temperature_celsius.source != NULL,
	    n->temperature_celsius.value, s->temperature_celsius.source != NULL,
	    s->temperature_celsius.value, NULL);
	row("power_on_seconds", U(power_on_seconds),
	    "smartctl rounds power-on time to minutes/hours; native keeps the unit the log has");
	row("power_cycles", U(power_cycles),
	    n->protocol == WW_PROTO_SCSI
		    ? "SCSI has no power-cycle counter; smartctl reports none either"
		    : NULL);
	row("unsafe_shutdowns", U(unsafe_shutdowns), NULL);
	row("media_errors", U(media_errors), NULL);
	row("endurance_used_pct", U(endurance_used_percent), NULL);
	row("host_written_bytes", U(host_written_bytes),
	    n->protocol == WW_PROTO_SCSI
		    ? "smartctl prints bytes processed as GB with 3 decimals (10^6-byte resolution); "
		      "native prefers the General Statistics page 0x19 when present"
		    : moved(&n->host_written_bytes, &s->host_written_bytes,
			    &n2->host_written_bytes));
	row("host_read_bytes", U(host_read_bytes),
	    moved(&n->host_read_bytes, &s->host_read_bytes, &n2->host_read_bytes));
	srow("smart_status", smart_status_word(n->smart_status),
	     smart_status_word(s->smart_status));
	printf("verify: %u differences, %u unexplained\n", n_diff, n_unexplained);
	return n_unexplained ? 4 : 0;
}

/* native, smartctl, native again; the exit status when nothing is to be
 * compared, else -1 */
static int read_both(const char *sysroot, const ww_drive_t *d, const char *type, struct reads *x)
{
	int ret_n, ret_s;

	ret_n = ww_collect_drive(sysroot, d, &x->n, &x->rn);
	/* a drive native reads left alone is not handed to smartctl either */
	ret_s = ret_n == 1 ? 1 : ww_collect_smartctl(d, type, 60, &x->s, &x->rs);
	/* a second native read bounds the counters that moved meanwhile */
	if (ret_n == 0 && ret_s == 0 && ww_collect_drive(sysroot, d, &x->n2, &x->rn2) != 0)
		memset(&x->n2, 0, sizeof(x->n2));
	printf("%-22s %-22s %-22s\n", "field", "native", "smartctl");
	printf("%-22s %-22s %-22s\n", "read result", result_name(ret_n), result_name(ret_s));
	if (ret_n < 0 || (ret_s < 0 && ret_s != -ENOENT))
		printf("%-22s   native: %s; smartctl: %s\n", "",
		       ret_n < 0 ? strerror(-ret_n) : "ok",
		       ret_s < 0            ? strerror(-ret_s)
			       : ret_s == 1 ? "standby"
					    : "ok");
	if (ret_n == 1 || ret_s == 1) {
		printf("standby or suspended: nothing compared (no drive was woken)\n");
		return 1;
	}
	if (ret_s == -ENOENT) {
		printf("smartctl not installed: nothing to compare\n");
		return 3;
	}
	return -1;
}

int ww_cli_verify(int argc, char **argv)
{
	const char *type = NULL, *dev = NULL, *sysroot = "";
	ww_drive_t *all = NULL;
	const ww_drive_t *d;
	struct reads *x;
	int err, code;

	if (ww_cli_wants_help(argc, argv)) {
		fputs(usage_verify, stdout);
		return 0;
	}
	if ((code = parse_args(argc, argv, &dev, &type, &sysroot)))
		return code;
	d = ww_cli_lookup_drive(sysroot, dev, &all, &err);
	if (!d) {
		free(all);
		return 2;
	}
	printf("drive %s (%s)\n", d->id, d->dev_path);
	if (d->protocol == WW_PROTO_NONE) {
		printf("no health interface, nothing to compare (%s)\n",
		       d->no_health_reason ? d->no_health_reason : "none known for this device");
		free(all);
		return 5;
	}
	x = calloc(1, sizeof(*x));
	code = !x ? 2 : read_both(sysroot, d, type, x);
	if (code < 0)
		code = compare(x);
	free(x);
	free(all);
	return code;
}
