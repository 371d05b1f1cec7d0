/* `wearwatch capture DEVICE DIR`: a drive's answers recorded (read-only) into
 * a capture file users can attach to a bug report (src/collect/replay_drive.c,
 * docs/capture-format.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wearwatch/collect.h"
#include "cli/cli.h"

static const char usage_capture[] =
	"usage: wearwatch capture DEVICE DIR [--redact] [--sysroot DIR]\n"
	"\n"
	"Records, read-only, every command a normal read sends and what came back\n"
	"into DIR/<drive-id>.capture (docs/capture-format.md). DEVICE as for\n"
	"`wearwatch show`. --redact replaces the serial number everywhere.\n"
	"\n"
	"exit status: 0 recorded (also when the drive was left alone in standby),\n"
	"             2 usage error or no such drive, 3 read failed or the capture\n"
	"             file could not be written, 4 no health interface (only the\n"
	"             drive's facts recorded)\n";

int ww_cli_capture(int argc, char **argv)
{
	const char *dev = NULL, *dir = NULL, *sysroot = "";
	bool redact = false;
	ww_drive_t *all = NULL;
	const ww_drive_t *d;
	ww_health_t *h;
	ww_read_report_t *r;
	char path[512];
	int ret, err, werr, code;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_capture, stdout);
			return 0;
		}
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--redact")) {
			redact = true;
		} else if (!strcmp(argv[i], "--sysroot") && i + 1 < argc) {
			sysroot = argv[++i];
		} else if (argv[i][0] != '-' && !dev) {
			dev = argv[i];
		} else if (argv[i][0] != '-' && !dir) {
			dir = argv[i];
		} else {
			fprintf(stderr, "wearwatch: unexpected argument '%s'\n%s", argv[i],
				usage_capture);
			return 2;
		}
	}
	if (!dev || !dir) {
		fputs(usage_capture, stderr);
		return 2;
	}
	d = ww_cli_lookup_drive(sysroot, dev, &all, &err);
	if (!d) {
		free(all);
		return err ? 3 : 2;
	}
	h = calloc(1, sizeof(*h));
	r = calloc(1, sizeof(*r));
	if (!h || !r) {
		free(all);
		free(h);
		free(r);
		return 3;
	}
	ret = ww_capture_drive(sysroot, d, dir, redact, path, &werr, h, r);
	if (werr) {
		fprintf(stderr, "wearwatch: cannot write %s: %s\n", path, strerror(-werr));
		code = WW_EXIT_READ_FAILED;
		goto out;
	}
	printf("%s: %zu commands recorded in %s%s\n", d->id, r->n_cmds, path,
	       ret == 1 ? " (drive left alone: standby/suspended)" : "");
	code = ret < 0 ? 3 : 0;
	if (ret < 0 && d->protocol == WW_PROTO_NONE) {
		fprintf(stderr, "wearwatch: %s: %s; only its facts were recorded\n", d->id,
			d->no_health_reason ? d->no_health_reason : "no health interface");
		code = 4;
	} else if (ret < 0) {
		fprintf(stderr, "wearwatch: reading %s: %s\n", d->id, strerror(-ret));
	}
out:
	free(all);
	free(h);
	free(r);
	return code;
}
