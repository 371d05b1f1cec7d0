/* Journal entries in the native protocol (src/basic/log.c): the datagram
 * that reaches a socket bound where the journal's would be, byte for byte
 * (the fields, their order, the binary form of a value with a newline), and
 * a journal that stops reading: every call returns, and each entry went
 * either to the socket or to stderr, never neither, never both. */
#include <fcntl.h>
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
	static const char m[] = "test_basic_journal: a journal entry blocked (alarm)\n";

	(void)!write(2, m, sizeof(m) - 1);
	_exit(1);
}

static int listener(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	unlink(path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -1;
	return fd;
}

/* the next datagram equals want (n bytes) */
static void expect(int fd, const char *want, size_t n, const char *what)
{
	char buf[4096];
	ssize_t got = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

	if (got == (ssize_t)n && !memcmp(buf, want, n)) {
		CHECK(true);
		return;
	}
	fprintf(stderr, "%s: got %zd bytes '%.*s'\n     want %zu bytes '%.*s'\n", what, got,
		got > 0 ? (int)got : 0, buf, n, (int)n, want);
	CHECK(false);
}

#define EXPECT(fd, lit, what) expect(fd, lit, sizeof(lit) - 1, what)

/* stderr into a file for the duration; returns the saved descriptor */
static int stderr_to(const char *path)
{
	int saved = dup(2), f = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	dup2(f, 2);
	close(f);
	return saved;
}

static size_t stderr_back(int saved, const char *path, char *buf, size_t len)
{
	FILE *f;
	size_t n;

	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fopen(path, "r");
	n = f ? fread(buf, 1, len - 1, f) : 0;
	buf[n] = 0;
	if (f)
		fclose(f);
	unlink(path);
	return n;
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

int main(void)
{
	char path[96], errpath[96], out[65536];
	int fd, saved;

	signal(SIGALRM, hung);
	snprintf(path, sizeof(path), "/tmp/ww-journal-%d.sock", (int)getpid());
	snprintf(errpath, sizeof(errpath), "/tmp/ww-journal-%d.err", (int)getpid());
	fd = listener(path);
	CHECK(fd >= 0);
	ww_log_set_journal_socket(path);
	ww_log_set_journal(1);
	CHECK(ww_log_to_journal());

	/* a drive event: every field, in libsystemd's order before */
	ww_log_event(WW_EV_CRITICAL_WARNING, WW_LOG_ERR, "nvme-eui.0025388b91b3a2c1", "/dev/nvme0",
		     "critical warning 0x%02x (%s)", 4, "reliability degraded");
	EXPECT(fd,
	       "MESSAGE=nvme-eui.0025388b91b3a2c1: critical warning 0x04 (reliability degraded)\n"
	       "PRIORITY=3\n"
	       "SYSLOG_IDENTIFIER=wearwatch\n"
	       "MESSAGE_ID=8b28107f9849479e8d6b9a3b23d6de85\n"
	       "DRIVE=nvme-eui.0025388b91b3a2c1\n"
	       "DEVICE=/dev/nvme0\n",
	       "drive event");
	CHECK_STR(ww_log_message_id(WW_EV_CRITICAL_WARNING), "8b28107f9849479e8d6b9a3b23d6de85");

	/* no device: no DEVICE= field (an empty one neither) */
	ww_log_event(WW_EV_DRIVE_MISSING, WW_LOG_WARNING, "ata-X_1", "", "gone");
	EXPECT(fd,
	       "MESSAGE=ata-X_1: gone\nPRIORITY=4\nSYSLOG_IDENTIFIER=wearwatch\n"
	       "MESSAGE_ID=ffbb87394eec48c494f28abffbca981d\nDRIVE=ata-X_1\n",
	       "event without a device");

	/* a plain message: no MESSAGE_ID, DRIVE, DEVICE */
	ww_log(WW_LOG_INFO, "collector on %s", "/run/wearwatch/collector.sock");
	EXPECT(fd,
	       "MESSAGE=collector on /run/wearwatch/collector.sock\nPRIORITY=6\n"
	       "SYSLOG_IDENTIFIER=wearwatch\n",
	       "plain message");

	/* a drive failure: the collect-failure id, and the repeat is held */
	CHECK(ww_log_drive_failure("scsi-35000c500a1b2c3d4", 1000, "read: %s", "EIO"));
	EXPECT(fd,
	       "MESSAGE=scsi-35000c500a1b2c3d4: read: EIO\nPRIORITY=4\n"
	       "SYSLOG_IDENTIFIER=wearwatch\nMESSAGE_ID=54d2b236027b41208d13c88982bf63fc\n"
	       "DRIVE=scsi-35000c500a1b2c3d4\n",
	       "drive failure");
	CHECK(!ww_log_drive_failure("scsi-35000c500a1b2c3d4", 1001, "read: %s", "EIO"));
	ww_log_drive_ok("scsi-35000c500a1b2c3d4", 1002);
	EXPECT(fd,
	       "MESSAGE=scsi-35000c500a1b2c3d4: reads work again (1 failures not logged)\n"
	       "PRIORITY=5\nSYSLOG_IDENTIFIER=wearwatch\nDRIVE=scsi-35000c500a1b2c3d4\n",
	       "drive ok");

	/* a value with a newline: "KEY\n", 64-bit little-endian length, value, "\n" */
	ww_log(WW_LOG_WARNING, "smartctl said:\n%s", "bad");
	EXPECT(fd,
	       "MESSAGE\n\x12\0\0\0\0\0\0\0smartctl said:\nbad\nPRIORITY=4\n"
	       "SYSLOG_IDENTIFIER=wearwatch\n",
	       "binary form");

	/* the longest message: cut at the bound, one datagram still */
	{
		char big[3000], want[2048];
		int n;

		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = 0;
		ww_log_event(WW_EV_COLLECT_FAILURE, WW_LOG_WARNING, "d", NULL, "%s", big);
		n = snprintf(want, sizeof(want),
			     "MESSAGE=d: %.1023s\nPRIORITY=4\nSYSLOG_IDENTIFIER=wearwatch\n"
			     "MESSAGE_ID=54d2b236027b41208d13c88982bf63fc\nDRIVE=d\n",
			     big);
		expect(fd, want, (size_t)n, "long message");
	}

	/* nobody reads: far more than the queue holds, every call returns, and
	 * what the socket did not take is on stderr */
	saved = stderr_to(errpath);
	alarm(20);
	for (int i = 0; i < 2000; i++)
		ww_log(WW_LOG_INFO, "entry %d", i);
	alarm(0);
	stderr_back(saved, errpath, out, sizeof(out));
	{
		unsigned queued = 0, on_stderr = count_lines(out);
		char buf[256];

		while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
			queued++;
		fprintf(stderr, "full journal: %u entries queued, %u on stderr\n", queued,
			on_stderr);
		CHECK(queued > 0 && on_stderr > 0);
		CHECK_EQ_U64(queued + on_stderr, 2000);
		CHECK(strstr(out, "wearwatch[info]: entry 1999\n") != NULL);
	}
	close(fd);
	unlink(path);

	/* no journal at all (nothing bound there): stderr */
	saved = stderr_to(errpath);
	ww_log_event(WW_EV_STANDBY, WW_LOG_NOTICE, "ata-Y_2", "/dev/sdb", "in standby");
	stderr_back(saved, errpath, out, sizeof(out));
	CHECK_STR(out, "wearwatch[notice]: ata-Y_2: in standby\n");

	ww_log_set_journal_socket(NULL);
	ww_log_set_journal(0);
	CHECK(!ww_log_to_journal());
	return ww_test_done("test_basic_journal");
}
