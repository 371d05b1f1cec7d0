/* The notification program: started with an event in its environment,
 * reaped, timed out (service.h). What the events are: events_diff.c; their
 * variables and the spool: event.c. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wearwatch/conf.h"
#include "wearwatch/service.h"
#include "wearwatch/basic.h"

extern char **environ;

#define MAX_CHILDREN 16
static struct {
	pid_t pid;
	time_t started;
	long long t0_ms;    /* CLOCK_MONOTONIC at start, for the timeout */
	bool killed;        /* SIGKILLed for running over the timeout */
} children[MAX_CHILDREN];

pid_t ww_events_exec(const char *prog, const ww_event_t *ev)
{
	char *envp[64 + WW_EVENT_MAX_VARS + 1], *argv[] = { (char *)prog, NULL };
	size_t n = 0;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	pid_t pid;
	int rc;

	/* keep PATH, LANG and the like; drop any inherited WEARWATCH_* */
	for (char **e = environ; *e && n < 64; e++)
		if (strncmp(*e, "WEARWATCH_", 10) && strncmp(*e, "NOTIFY_SOCKET=", 14) &&
		    strncmp(*e, "WATCHDOG_", 9) && strncmp(*e, "LISTEN_", 7))
			envp[n++] = *e;
	for (size_t i = 0; i < ev->n; i++)
		envp[n++] = ev->vars[i];
	envp[n] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	/* its own process group (pgid = its pid): the timeout kills the group,
	 * so what the program started (a shell's `sleep`, curl, sendmail) ends
	 * with it instead of running on, re-parented to init */
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	rc = posix_spawn(&pid, prog, &fa, &attr, argv, envp);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return -rc;
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (!children[i].pid) {
			children[i].pid = pid;
			children[i].started = ww_clock_wall(NULL);
			children[i].t0_ms = ww_clock_monotonic_ms();
			children[i].killed = false;
			break;
		}
	return pid;
}

void ww_events_status_text(int status, bool timed_out, unsigned timeout_s, char *buf,
			   size_t len)
{
	if (timed_out)
		snprintf(buf, len, "killed after the %u s timeout", timeout_s);
	else if (WIFEXITED(status))
		snprintf(buf, len, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "wait status %d", status);
}

/* One look at child slot i, for the service's reaping and notify-test alike:
 * reaps it when it has ended (1, *ok and desc set); SIGKILLs it once it has
 * run timeout_s seconds or more (0 = no limit) and returns 0 while it runs. */
static int reap_slot(int i, unsigned timeout_s, bool *ok, char *desc, size_t len)
{
	int status;
	long long ms;

	if (waitpid(children[i].pid, &status, WNOHANG) == children[i].pid) {
		*ok = WIFEXITED(status) && !WEXITSTATUS(status);
		ww_events_status_text(status, children[i].killed, timeout_s, desc, len);
		children[i].pid = 0;
		return 1;
	}
	ms = ww_clock_monotonic_ms() - children[i].t0_ms;
	if (timeout_s && !children[i].killed && ms >= (long long)timeout_s * 1000) {
		/* the whole group (ww_events_exec made one per program); the
		 * child itself too, should it have left the group */
		kill(-children[i].pid, SIGKILL);
		kill(children[i].pid, SIGKILL);
		children[i].killed = true;
	}
	return 0;
}

void ww_events_reap(unsigned timeout_s)
{
	for (int i = 0; i < MAX_CHILDREN; i++) {
		pid_t pid = children[i].pid;
		char desc[96];
		bool ok;

		if (pid && reap_slot(i, timeout_s, &ok, desc, sizeof(desc)) && !ok)
			ww_log(WW_LOG_WARNING, "notification program (pid %d) failed: %s",
			       (int)pid, desc);
	}
}

bool ww_events_running(void)
{
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (children[i].pid)
			return true;
	return false;
}

int ww_events_wait(pid_t pid, unsigned timeout_s, char *desc, size_t len)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	bool ok = false;

	for (int i = 0; i < MAX_CHILDREN; i++) {
		if (children[i].pid != pid)
			continue;
		while (!reap_slot(i, timeout_s, &ok, desc, len))
			nanosleep(&tick, NULL);
		return ok ? 0 : 1;
	}
	snprintf(desc, len, "not a running notification program");
	return -ECHILD;
}
