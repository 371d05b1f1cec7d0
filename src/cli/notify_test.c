/* `wearwatch notify-test`: the notification program run once, as the
 * service runs it on an event (see cli.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/basic.h"
#include "cli/cli.h"
#include "wearwatch/conf.h"
#include "wearwatch/service.h"

static const char usage_notify_test[] =
	"usage: wearwatch notify-test [--config FILE] [--notify-exec PROG]\n"
	"\n"
	"Runs the notification program ([notify] exec of the configuration file, or\n"
	"PROG, an absolute path) once, as the service does on a health change, with\n"
	"WEARWATCH_EVENT=test and the other WEARWATCH_* variables set, and waits for\n"
	"it; a program still running after [notify] timeout (default 30 s) is killed.\n"
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
		fprintf(stderr, "wearwatch notify-test: no [notify] exec configured (or --notify-exec)\n");
		free(c);
		return 2;
	}
	ww_event_env_t ev = {
		.event = "test", .drive = "test-drive", .device = "/dev/null",
		.model = "wearwatch test", .serial = "0", .old_state = "ok",
		.new_state = "warning", .reasons = "notification test",
		.message = "wearwatch notify-test: this is a test notification",
		.message_id = ww_log_message_id(WW_EV_HEALTH_CHANGE),
	};
	pid = ww_events_exec(c->notify_exec, &ev);
	if (pid < 0) {
		fprintf(stderr, "wearwatch notify-test: cannot run %s: %s\n", c->notify_exec,
			strerror((int)-pid));
	} else {
		rc = ww_events_wait(pid, c->notify_timeout_s, desc, sizeof(desc)) ? 1 : 0;
		fprintf(rc ? stderr : stdout, "%s: %s\n", c->notify_exec, desc);
	}
	free(c);
	return rc;
}
