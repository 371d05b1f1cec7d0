/* `wearwatch notify-deliver`: runs the notification program for the events
 * the collector queued (the collector has no network; see docs/security.md
 * and units/wearwatch-notify.service). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "wearwatch/basic.h"
#include "wearwatch/conf.h"
#include "wearwatch/service.h"

static const char usage_notify_deliver[] =
	"usage: wearwatch notify-deliver [--config FILE] [--spool DIR]\n"
	"\n"
	"Runs the notification program ([notify] exec) once for every event the\n"
	"collector queued in DIR (default: <state_directory>/notify), oldest first,\n"
	"with the event's WEARWATCH_* variables, as `serve` runs it directly. A\n"
	"delivered event is removed; one whose program failed or timed out is kept\n"
	"as NAME.failed and tried again on the next run, as are all events while\n"
	"no [notify] exec is configured. A file that is no event (unreadable,\n"
	"not a regular file, malformed) is moved to NAME.bad and never tried again.\n"
	"No run leaves a NAME.event behind: wearwatch-notify.service runs this when\n"
	"wearwatch-notify.path sees one (a file left there would start it again\n"
	"and again), and wearwatch-notify.timer every 15 minutes for the failed ones.\n"
	"\n"
	"exit status: 0 every event delivered (or none queued), 1 a program failed,\n"
	"             2 usage or configuration error\n";

static int queued(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return (n > 6 && !strcmp(e->d_name + n - 6, ".event")) ||
		(n > 7 && !strcmp(e->d_name + n - 7, ".failed"));
}

/* path renamed from its suffix (".event", ".failed") to `to`: what the
 * path unit watches (*.event) must not stay, or it starts the service
 * again at once, until systemd's start limit fails it for every later
 * event. 0 or -errno (logged). */
static int move_to(const char *path, const char *to, char *out, size_t len)
{
	const char *dot = strrchr(path, '.');

	snprintf(out, len, "%.*s%s", (int)(dot ? dot - path : (long)strlen(path)), path, to);
	if (rename(path, out) == 0)
		return 0;
	ww_log(WW_LOG_ERR, "%s: cannot rename it to %s: %s", path, out, strerror(errno));
	return -errno;
}

/* one queued event: 0 delivered (removed), 1 the program failed (kept) */
static int deliver(const ww_conf_t *c, const char *dir, const char *name)
{
	char path[1024], failed[1100], desc[96];
	ww_event_t ev = { 0 };
	pid_t pid;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((rc = ww_events_spool_read(path, &ev)) < 0) {
		int reg = ww_check_regular(path);

		if (!move_to(path, ".bad", failed, sizeof(failed)))
			ww_log(WW_LOG_ERR,
			       "%s: not a queued event (%s); moved to %s, not tried again", path,
			       reg                     ? "not a regular file"
				       : rc == -EINVAL ? "malformed"
						       : strerror(-rc),
			       failed);
		return 1;
	}
	pid = ww_events_exec(c->notify_exec, &ev);
	ww_event_clear(&ev);
	if (pid < 0) {
		snprintf(desc, sizeof(desc), "cannot run it: %s", strerror((int)-pid));
		rc = 1;
	} else {
		rc = ww_events_wait(pid, c->notify_timeout_s, desc, sizeof(desc)) ? 1 : 0;
	}
	if (!rc) {
		unlink(path);
		return 0;
	}
	ww_log(WW_LOG_ERR, "notification %s: %s: %s; kept for the next run", name, c->notify_exec,
	       desc);
	if (strstr(name, ".event"))
		move_to(path, ".failed", failed, sizeof(failed));
	return 1;
}

/* argv without --spool DIR (the rest are the configuration flags) */
static const char *take_spool(int *argc, char **argv)
{
	const char *spool = NULL;
	int k = 1;

	for (int i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--spool") && i + 1 < *argc)
			spool = argv[++i];
		else
			argv[k++] = argv[i];
	}
	*argc = k;
	argv[k] = NULL;
	return spool;
}

int ww_cli_notify_deliver(int argc, char **argv)
{
	ww_conf_t *c;
	struct dirent **ents = NULL;
	const char *spool;
	char dir[512], err[512];
	int n, failed = 0, scan_errno;

	if (ww_cli_wants_help(argc, argv)) {
		fputs(usage_notify_deliver, stdout);
		return 0;
	}
	spool = take_spool(&argc, argv);
	c = malloc(sizeof(*c));
	if (!c || ww_conf_build(c, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "wearwatch notify-deliver: %s\n%s", c ? err : "out of memory",
			usage_notify_deliver);
		free(c);
		return 2;
	}
	if (spool)
		snprintf(dir, sizeof(dir), "%s", spool);
	else
		snprintf(dir, sizeof(dir), "%s/notify", c->state_dir);
	n = scandir(dir, &ents, queued, alphasort);
	scan_errno = n < 0 ? errno : 0;
	if (n > 0 && !c->notify_exec[0]) {
		ww_log(WW_LOG_WARNING,
		       "%d notifications queued in %s but no [notify] exec is "
		       "configured; kept as NAME.failed, delivered by the first run "
		       "after one is",
		       n, dir);
		failed = 1;
	}
	for (int i = 0; i < n; i++) {
		char held[1100], path[1024];

		if (c->notify_exec[0]) {
			failed |= deliver(c, dir, ents[i]->d_name);
		} else if (strstr(ents[i]->d_name, ".event")) {
			snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
			move_to(path, ".failed", held, sizeof(held));
		}
		free(ents[i]);
	}
	free(ents);
	free(c);
	if (n < 0 && scan_errno != ENOENT) {
		fprintf(stderr, "wearwatch notify-deliver: %s: %s\n", dir, strerror(scan_errno));
		return 2;
	}
	return failed;
}
