/* `wearwatch notify-test`: the notification program run once, as the
 * service runs it on an event (see cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wearwatch/basic.h"
#include "cli/cli.h"
#include "wearwatch/conf.h"
#include "wearwatch/service.h"

static const char usage_notify_test[] =
	"usage: wearwatch notify-test [--config FILE] [--notify-exec PROG]\n"
	"\n"
	"Runs the notification program ([notify] exec of the configuration file, or\n"
	"PROG, an absolute path as [notify] exec takes it) once, here (with this\n"
	"shell's network), as the service does on a health change, with\n"
	"WEARWATCH_EVENT=test and the other WEARWATCH_* variables set, and waits for\n"
	"it; a program still running after [notify] timeout (default 30 s) is killed\n"
	"with what it started.\n"
	"Prints how it ended: \"exit N\", \"killed by signal N\" or \"killed after the\n"
	"N s timeout\".\n"
	"\n"
	"exit status: 0 the program exited 0, 1 it failed, timed out or could not\n"
	"             be started, 2 usage or configuration error\n";

int ww_cli_notify_test(int argc, char **argv)
{
	ww_conf_t *c;
	char err[512], desc[96];
	int rc = 1;
	pid_t pid;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_notify_test, stdout);
			return 0;
		}
	c = malloc(sizeof(*c));
	if (!c)
		return 1;
	if (ww_conf_build(c, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "wearwatch notify-test: %s\n%s", err, usage_notify_test);
		free(c);
		return 2;
	}
	if (!c->notify_exec[0]) {
		fprintf(stderr,
			"wearwatch notify-test: no [notify] exec configured (or --notify-exec)\n");
		free(c);
		return 2;
	}
	/* the service runs [notify] exec by its absolute path (wearwatch.conf(5));
	 * a relative one would depend on the directory the test ran from */
	if (c->notify_exec[0] != '/') {
		fprintf(stderr,
			"wearwatch notify-test: --notify-exec %s: expected an absolute path "
			"(as [notify] exec)\n",
			c->notify_exec);
		free(c);
		return 2;
	}
	/* the variables of a real event, about no drive */
	ww_verdict_t *v = calloc(1, sizeof(*v));
	ww_event_t ev = { 0 };

	if (!v) {
		free(c);
		return 1;
	}
	v->status = WW_STATUS_WARNING;
	v->n = 1;
	v->r[0].code = WW_R_NEVER_READ;
	v->r[0].severity = WW_STATUS_WARNING;
	v->r[0].source = "wearwatch notify-test";
	snprintf(v->r[0].text, sizeof(v->r[0].text), "notification test");
	ww_event_drive_t who = { "test-drive", "/dev/null", "wearwatch test", "0" };
	ww_event_change_t ch = {
		.kind = "test",
		.old_status = WW_STATUS_OK,
		.now = v,
		.added = v->r,
		.n_added = 1,
		.message = "wearwatch notify-test: this is a test notification",
		.log_kind = WW_EV_HEALTH_CHANGE,
	};
	ww_event_build(&ev, &who, &ch, ww_clock_wall(NULL));
	pid = ww_events_exec(c->notify_exec, &ev);
	if (pid < 0) {
		fprintf(stderr, "wearwatch notify-test: cannot run %s: %s\n", c->notify_exec,
			strerror((int)-pid));
	} else {
		rc = ww_events_wait(pid, c->notify_timeout_s, desc, sizeof(desc)) ? 1 : 0;
		fprintf(rc ? stderr : stdout, "%s: %s\n", c->notify_exec, desc);
	}
	ww_event_clear(&ev);
	free(v);
	free(c);
	return rc;
}
