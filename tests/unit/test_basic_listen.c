/* systemd's environment protocols read without libsystemd
 * (src/basic/sdnotify.c): socket activation's LISTEN_PID, LISTEN_FDS and
 * LISTEN_FDNAMES (sd_listen_fds(3): for this process only, descriptors from
 * 3, FD_CLOEXEC set, the names), and the watchdog's WATCHDOG_USEC and
 * WATCHDOG_PID (sd_watchdog_enabled(3)). The passed descriptors are real
 * sockets: bytes written at the other end are read from fd 3 and 4. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wearwatch/basic.h"
#include "ww_test.h"

static void env(const char *pid, const char *fds, const char *names)
{
	if (pid)
		setenv("LISTEN_PID", pid, 1);
	else
		unsetenv("LISTEN_PID");
	if (fds)
		setenv("LISTEN_FDS", fds, 1);
	else
		unsetenv("LISTEN_FDS");
	if (names)
		setenv("LISTEN_FDNAMES", names, 1);
	else
		unsetenv("LISTEN_FDNAMES");
}

static bool cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	return fl >= 0 && (fl & FD_CLOEXEC);
}

/* fd 3 and 4 as systemd leaves them: open, without FD_CLOEXEC; the other
 * ends in peer[] */
static void pass_two(int peer[2])
{
	for (int i = 0; i < 2; i++) {
		int sv[2];

		CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
		/* both ends above 3..5 first, wherever socketpair put them */
		int a = fcntl(sv[0], F_DUPFD, 10), b = fcntl(sv[1], F_DUPFD, 10);

		close(sv[0]);
		close(sv[1]);
		CHECK(dup2(a, WW_LISTEN_FDS_START + i) == WW_LISTEN_FDS_START + i);
		close(a);
		peer[i] = b;
		CHECK(!cloexec(WW_LISTEN_FDS_START + i));
	}
}

static void listen_cases(void)
{
	char me[32], other[32], **names = (char **)1;
	int peer[2];

	snprintf(me, sizeof(me), "%d", (int)getpid());
	snprintf(other, sizeof(other), "%d", (int)getpid() + 1);

	/* none passed */
	env(NULL, NULL, NULL);
	CHECK_EQ_I64(ww_listen_fds(false, &names), 0);
	CHECK(names == NULL);
	env(me, NULL, NULL);
	CHECK_EQ_I64(ww_listen_fds(false, NULL), 0);

	/* another process's (a parent's left over): none, and unset on request */
	env(other, "1", "web");
	CHECK_EQ_I64(ww_listen_fds(false, NULL), 0);
	CHECK(getenv("LISTEN_PID") != NULL);
	CHECK_EQ_I64(ww_listen_fds(true, NULL), 0);
	CHECK(!getenv("LISTEN_PID") && !getenv("LISTEN_FDS") && !getenv("LISTEN_FDNAMES"));

	/* malformed */
	env("12ab", "1", NULL);
	CHECK_EQ_I64(ww_listen_fds(false, NULL), -EINVAL);
	env("0", "1", NULL);
	CHECK_EQ_I64(ww_listen_fds(false, NULL), -EINVAL);
	env(me, "0", NULL);
	CHECK_EQ_I64(ww_listen_fds(false, NULL), -EINVAL);
	env(me, "-1", NULL);
	CHECK_EQ_I64(ww_listen_fds(false, NULL), -EINVAL);
	env(me, " 1", NULL);
	CHECK_EQ_I64(ww_listen_fds(false, NULL), -EINVAL);
	env(me, "99999999999999999999", NULL);
	CHECK_EQ_I64(ww_listen_fds(false, NULL), -EINVAL);

	/* two sockets with names: counted, named, FD_CLOEXEC, readable */
	pass_two(peer);
	env(me, "2", "web:metrics");
	names = NULL;
	CHECK_EQ_I64(ww_listen_fds(true, &names), 2);
	CHECK(names != NULL);
	if (names) {
		CHECK_STR(names[0], "web");
		CHECK_STR(names[1], "metrics");
		CHECK(names[2] == NULL);
	}
	free(names);
	CHECK(cloexec(3) && cloexec(4));
	CHECK(!getenv("LISTEN_PID") && !getenv("LISTEN_FDS") && !getenv("LISTEN_FDNAMES"));
	for (int i = 0; i < 2; i++) {
		char buf[8] = "";

		CHECK(write(peer[i], i ? "four" : "three", i ? 4 : 5) == (i ? 4 : 5));
		CHECK(read(WW_LISTEN_FDS_START + i, buf, sizeof(buf) - 1) == (i ? 4 : 5));
		CHECK_STR(buf, i ? "four" : "three");
	}

	/* no names given: each "unknown"; the variables kept without unset */
	env(me, "2", NULL);
	names = NULL;
	CHECK_EQ_I64(ww_listen_fds(false, &names), 2);
	if (names) {
		CHECK_STR(names[0], "unknown");
		CHECK_STR(names[1], "unknown");
		CHECK(names[2] == NULL);
	}
	free(names);
	CHECK_STR(getenv("LISTEN_FDS"), "2");

	/* names that do not match the count */
	env(me, "2", "web");
	CHECK_EQ_I64(ww_listen_fds(false, &names), -EINVAL);
	CHECK(names == NULL);
	env(me, "2", "web:metrics:extra");
	CHECK_EQ_I64(ww_listen_fds(false, &names), -EINVAL);
	/* the names are only read when asked for */
	CHECK_EQ_I64(ww_listen_fds(false, NULL), 2);
	/* an empty name is a name */
	env(me, "2", ":metrics");
	CHECK_EQ_I64(ww_listen_fds(false, &names), 2);
	if (names)
		CHECK_STR(names[0], "");
	free(names);

	/* a passed descriptor that is not open */
	close(peer[0]);
	close(peer[1]);
	close(5);
	env(me, "3", NULL);
	CHECK_EQ_I64(ww_listen_fds(true, NULL), -EBADF);
	close(3);
	close(4);
}

static void watchdog_cases(void)
{
	char me[32], other[32];

	snprintf(me, sizeof(me), "%d", (int)getpid());
	snprintf(other, sizeof(other), "%d", (int)getpid() + 1);
	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
	CHECK_EQ_U64(ww_notify_watchdog_usec(), 0);
	setenv("WATCHDOG_USEC", "30000000", 1); /* WatchdogSec=30s */
	CHECK_EQ_U64(ww_notify_watchdog_usec(), 30000000);
	setenv("WATCHDOG_PID", me, 1);
	CHECK_EQ_U64(ww_notify_watchdog_usec(), 30000000);
	setenv("WATCHDOG_PID", other, 1); /* a child: not its duty */
	CHECK_EQ_U64(ww_notify_watchdog_usec(), 0);
	setenv("WATCHDOG_PID", "x", 1);
	CHECK_EQ_U64(ww_notify_watchdog_usec(), 0);
	unsetenv("WATCHDOG_PID");
	static const char *const bad[] = { "0",
					   "-30000000",
					   "30s",
					   "",
					   " 30000000",
					   "18446744073709551615",
					   "18446744073709551616" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		setenv("WATCHDOG_USEC", bad[i], 1);
		if (ww_notify_watchdog_usec()) {
			fprintf(stderr, "WATCHDOG_USEC=\"%s\" taken\n", bad[i]);
			CHECK(false);
		} else {
			CHECK(true);
		}
	}
	setenv("WATCHDOG_USEC", "18446744073709551614", 1);
	CHECK_EQ_U64(ww_notify_watchdog_usec(), 18446744073709551614ull);
	unsetenv("WATCHDOG_USEC");
}

int main(void)
{
	listen_cases();
	watchdog_cases();
	return ww_test_done("test_basic_listen");
}
