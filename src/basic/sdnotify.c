/* sd_notify (see basic.h). The datagram to $NOTIFY_SOCKET is sent here,
 * not by libsystemd's sd_notify(): libsystemd (252) sends on a blocking
 * socket, so when the receiver's queue is full (systemd busy or stuck, a
 * test's socket nobody reads) the call blocks, and with it the main loop
 * that also answers SIGTERM: the collector hung on its WATCHDOG=1 and never
 * stopped. Sent non-blocking, a datagram that does not fit is dropped; the
 * next watchdog ping or status replaces it. The kernel attaches the
 * sender's credentials for systemd (SO_PASSCRED on its socket), which is
 * all libsystemd adds for a process notifying for itself.
 *
 * The watchdog interval and socket activation's descriptors are read from
 * their documented environment variables (sd_watchdog_enabled(3),
 * sd_listen_fds(3)) here too, so no process links libsystemd: it maps five
 * compression and crypto libraries (libgcrypt, libgpg-error, liblzma,
 * libzstd, liblz4; ~0.95 MiB resident with itself) into the network-less
 * collector, for what is a datagram and two environment variables. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "wearwatch/basic.h"

/* one datagram to $NOTIFY_SOCKET ("/path" or "@abstract"), never blocking;
 * nothing when it is unset */
static void notify(const char *msg)
{
	const char *e = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t n = e ? strlen(e) : 0;
	int fd;

	if (!n || n >= sizeof(sa.sun_path) || (e[0] != '/' && e[0] != '@'))
		return;
	memcpy(sa.sun_path, e, n);
	if (sa.sun_path[0] == '@')
		sa.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return;
	(void)!sendto(fd, msg, strlen(msg), MSG_NOSIGNAL | MSG_DONTWAIT, (struct sockaddr *)&sa,
		      (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n));
	close(fd);
}

static void notifyf(const char *fmt, ...)
{
	char buf[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	notify(buf);
}

void ww_notify_ready(const char *status)
{
	notifyf("READY=1\nSTATUS=%s", status ? status : "running");
}

void ww_notify_status(const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	notifyf("STATUS=%s", buf);
}

void ww_notify_watchdog(void)
{
	notify("WATCHDOG=1");
}

void ww_notify_reloading(int reloading)
{
	notify(reloading ? "RELOADING=1" : "READY=1");
}

void ww_notify_stopping(void)
{
	notify("STOPPING=1");
}

/* a decimal count without sign, blanks or overflow (systemd's safe_atou64
 * takes no more for these variables); false otherwise */
static bool parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return true;
}

/* a process id variable: 1 it names this process, 0 another one, -EINVAL
 * malformed */
static int names_me(const char *s)
{
	uint64_t pid;

	if (!parse_u64(s, &pid) || pid < 1 || pid > INT_MAX)
		return -EINVAL;
	return (pid_t)pid == getpid();
}

uint64_t ww_notify_watchdog_usec(void)
{
	const char *pid = getenv("WATCHDOG_PID");
	uint64_t usec;

	/* 0 and UINT64_MAX (infinity) are no interval */
	if (!parse_u64(getenv("WATCHDOG_USEC"), &usec) || !usec || usec == UINT64_MAX)
		return 0;
	/* unset: the duty is this process's; set: only the one it names */
	if (pid && names_me(pid) != 1)
		return 0;
	return usec;
}

/* the names of n descriptors from LISTEN_FDNAMES (NULL: each "unknown"),
 * one allocation: the pointers, then the strings; NULL when the list does
 * not have n names (-EINVAL) or no memory (-ENOMEM) */
static char **listen_names(const char *list, int n, int *err)
{
	size_t len = list ? strlen(list) + 1 : (size_t)n * sizeof("unknown");
	char **v = malloc(((size_t)n + 1) * sizeof(char *) + len), *p;
	int i = 0;

	if (!v)
		return *err = -ENOMEM, NULL;
	p = (char *)(v + n + 1);
	if (!list) {
		for (; i < n; i++, p += sizeof("unknown"))
			v[i] = memcpy(p, "unknown", sizeof("unknown"));
	} else {
		memcpy(p, list, len);
		for (char *s = p; i < n; i++) {
			char *c = strchr(s, ':');

			v[i] = s;
			if (!c)
				break;
			*c = '\0';
			s = c + 1;
		}
		/* exactly n: the n-th name is the last one */
		if (i != n - 1)
			return free(v), *err = -EINVAL, NULL;
		i = n;
	}
	v[i] = NULL;
	return v;
}

int ww_listen_fds(bool unset_env, char ***names)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	uint64_t n = 0;
	int rc = pid && fds ? names_me(pid) : 0;

	if (names)
		*names = NULL;
	if (rc == 1) {
		/* as libsystemd: a count of 0 is malformed (systemd then sets none) */
		if (!parse_u64(fds, &n) || !n || n > (uint64_t)(INT_MAX - WW_LISTEN_FDS_START))
			rc = -EINVAL;
		else
			rc = (int)n;
	}
	/* systemd passes them without FD_CLOEXEC: none may reach a child */
	for (int fd = WW_LISTEN_FDS_START; rc > 0 && fd < WW_LISTEN_FDS_START + (int)n; fd++) {
		int fl = fcntl(fd, F_GETFD);

		if (fl < 0 || (!(fl & FD_CLOEXEC) && fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0))
			rc = -errno;
	}
	if (rc > 0 && names)
		*names = listen_names(getenv("LISTEN_FDNAMES"), rc, &rc);
	if (unset_env) {
		unsetenv("LISTEN_PID");
		unsetenv("LISTEN_FDS");
		unsetenv("LISTEN_FDNAMES");
	}
	return rc;
}
