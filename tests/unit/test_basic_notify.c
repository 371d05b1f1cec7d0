/* sd_notify datagrams (src/basic/sdnotify.c): the protocol's messages reach
 * $NOTIFY_SOCKET (a path, and an abstract "@name"), and a receiver that
 * stops reading never blocks the sender: the collector's main loop hung in
 * libsystemd's blocking sendmsg once the test's notify socket was full, and
 * then never answered SIGTERM. alarm() turns such a hang into a failure. */
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "wearwatch/basic.h"
#include "ww_test.h"

static void hung(int sig)
{
	(void)sig;
	static const char m[] = "test_basic_notify: a notification blocked (alarm)\n";

	(void)!write(2, m, sizeof(m) - 1);
	_exit(1);
}

/* a datagram socket bound at name ("/path" or "@abstract") */
static int listener(const char *name)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t n = strlen(name);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0), small = 4096;

	memcpy(sa.sun_path, name, n);
	if (sa.sun_path[0] == '@')
		sa.sun_path[0] = '\0';
	if (fd < 0 ||
	    bind(fd, (struct sockaddr *)&sa,
		 (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)) < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	return fd;
}

static void expect(int fd, const char *want)
{
	char buf[512];
	ssize_t n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);

	buf[n > 0 ? n : 0] = 0;
	if (strcmp(buf, want)) {
		fprintf(stderr, "got '%s', want '%s'\n", buf, want);
		CHECK(false);
	} else {
		CHECK(true);
	}
}

int main(void)
{
	char path[64];
	int fd;

	signal(SIGALRM, hung);
	snprintf(path, sizeof(path), "/tmp/ww-notify-%d.sock", (int)getpid());
	fd = listener(path);
	CHECK(fd >= 0);
	setenv("NOTIFY_SOCKET", path, 1);
	ww_notify_ready("3 drives");
	expect(fd, "READY=1\nSTATUS=3 drives");
	ww_notify_status("%d drives (%d present)", 4, 3);
	expect(fd, "STATUS=4 drives (3 present)");
	ww_notify_reloading(1);
	expect(fd, "RELOADING=1");
	ww_notify_reloading(0);
	expect(fd, "READY=1");
	/* nobody reads: far more than the queue holds, and every call returns */
	alarm(20);
	for (int i = 0; i < 20000; i++)
		ww_notify_watchdog();
	alarm(0);
	expect(fd, "WATCHDOG=1");
	close(fd);
	unlink(path);

	snprintf(path, sizeof(path), "@ww-notify-%d", (int)getpid());
	fd = listener(path);
	CHECK(fd >= 0);
	setenv("NOTIFY_SOCKET", path, 1);
	ww_notify_stopping();
	expect(fd, "STOPPING=1");
	close(fd);
	unsetenv("NOTIFY_SOCKET");
	ww_notify_stopping(); /* unset: nothing, no crash */
	return ww_test_done("test_basic_notify");
}
