/* Running smartctl as a child (see smartctl.h): bounded concurrency, a
 * deadline on every run, SIGKILL on timeout and reaping without blocking. A
 * child stuck in uninterruptible sleep (a hung drive behind a RAID controller)
 * cannot be killed; it keeps its slot until waitpid(WNOHANG) collects it, so
 * hung drives can never pile up unbounded processes. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wearwatch/basic.h"
#include "wearwatch/collect.h"

#define WW_SMARTCTL_MAX_OUT (4u << 20)
#define WW_SMARTCTL_MAX_STUCK 32

extern char **environ;

static pthread_mutex_t ww_sc_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ww_sc_cond = PTHREAD_COND_INITIALIZER;
static unsigned ww_sc_max = 3, ww_sc_active;
static pid_t ww_sc_stuck[WW_SMARTCTL_MAX_STUCK];
static unsigned ww_sc_n_stuck;
static char ww_sc_prog[256] = "smartctl";

void ww_smartctl_set_program(const char *path)
{
	snprintf(ww_sc_prog, sizeof(ww_sc_prog), "%s", path && *path ? path : "smartctl");
}

void ww_smartctl_set_max_children(unsigned n)
{
	pthread_mutex_lock(&ww_sc_lock);
	ww_sc_max = n ? n : 1;
	pthread_cond_broadcast(&ww_sc_cond);
	pthread_mutex_unlock(&ww_sc_lock);
}

static uint64_t now_ms(void)
{
	return (uint64_t)ww_clock_monotonic_ms();
}

/* caller holds ww_sc_lock */
static unsigned reap_locked(void)
{
	for (unsigned i = 0; i < ww_sc_n_stuck;) {
		pid_t r = waitpid(ww_sc_stuck[i], NULL, WNOHANG);

		if (r == ww_sc_stuck[i] || (r < 0 && errno == ECHILD)) {
			ww_sc_stuck[i] = ww_sc_stuck[--ww_sc_n_stuck];
			ww_sc_active--;
			pthread_cond_broadcast(&ww_sc_cond);
		} else {
			i++;
		}
	}
	return ww_sc_n_stuck;
}

unsigned ww_smartctl_reap(void)
{
	unsigned n;

	pthread_mutex_lock(&ww_sc_lock);
	n = reap_locked();
	pthread_mutex_unlock(&ww_sc_lock);
	return n;
}

static int slot_acquire(uint64_t deadline)
{
	struct timespec ts;
	int ret = 0;

	pthread_mutex_lock(&ww_sc_lock);
	reap_locked();
	while (ww_sc_active >= ww_sc_max) {
		uint64_t now = now_ms();

		if (now >= deadline) {
			ret = -EBUSY;
			break;
		}
		/* stuck children are only noticed by polling waitpid */
		ts = ww_clock_deadline_ms(100);
		pthread_cond_timedwait(&ww_sc_cond, &ww_sc_lock, &ts);
		reap_locked();
	}
	if (!ret)
		ww_sc_active++;
	pthread_mutex_unlock(&ww_sc_lock);
	return ret;
}

static void slot_release(pid_t stuck)
{
	pthread_mutex_lock(&ww_sc_lock);
	if (stuck > 0 && ww_sc_n_stuck < WW_SMARTCTL_MAX_STUCK) {
		ww_sc_stuck[ww_sc_n_stuck++] = stuck; /* slot stays taken */
	} else {
		ww_sc_active--;
		pthread_cond_broadcast(&ww_sc_cond);
	}
	pthread_mutex_unlock(&ww_sc_lock);
}

/* Wait for pid until deadline without blocking in waitpid. Returns the raw
 * wait status, or -1 when it did not exit in time. */
static int wait_until(pid_t pid, uint64_t deadline)
{
	int st;

	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return st;
		if (r < 0)
			return errno == ECHILD ? 0 : -1;
		if (now_ms() >= deadline)
			return -1;
		usleep(5000);
	}
}

static int spawn(char *const argv[], int *out_fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	int p[2], ret;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	ret = posix_spawnp(pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (ret) {
		close(p[0]);
		return -ret;
	}
	*out_fd = p[0];
	return 0;
}

/* smartctl's argument vector: argv's arguments (after argv[0]) or the read
 * of one drive, never waking it (-n standby) */
static void build_args(char **args, size_t max, char *standby, size_t slen, const char *dev,
		       const char *type, const char *const *argv)
{
	size_t n = 0;

	args[n++] = ww_sc_prog;
	if (argv) {
		for (size_t i = 1; argv[i] && n < max - 1; i++)
			args[n++] = (char *)argv[i];
	} else {
		snprintf(standby, slen, "standby,%d", WW_SMARTCTL_STANDBY_EXIT);
		args[n++] = "-j";
		args[n++] = "-x";
		args[n++] = "-n";
		args[n++] = standby;
		args[n++] = "-d";
		args[n++] = (char *)type;
		args[n++] = (char *)dev;
	}
	args[n] = NULL;
}

/* everything the child writes until EOF or the deadline, into *buf (grown;
 * room for a NUL kept); 0 at EOF or -errno (-ETIMEDOUT, -EFBIG, -ENOMEM) */
static int read_all(int fd, uint64_t deadline, char **buf, size_t *len)
{
	size_t cap = 0;

	for (;;) {
		int64_t left = (int64_t)(deadline - now_ms());
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -ETIMEDOUT;
		if (cap - *len < 4096) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			if (cap > WW_SMARTCTL_MAX_OUT + 4096)
				return -EFBIG;
			nb = realloc(*buf, cap);
			if (!nb)
				return -ENOMEM;
			*buf = nb;
		}
		r = read(fd, *buf + *len, cap - *len - 1);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return 0; /* EOF (or error: the exit status tells) */
		*len += (size_t)r;
	}
}

/* the child's wait status after a read that ended with ret: killed when it
 * is late or the read failed; -1 when it is stuck in the kernel (left to be
 * reaped later) */
static int finish_child(pid_t pid, uint64_t deadline, int *ret)
{
	int st = *ret ? -1 : wait_until(pid, deadline);

	if (st != -1) {
		slot_release(0);
		return st;
	}
	kill(pid, SIGKILL);
	st = wait_until(pid, now_ms() + 200);
	if (!*ret)
		*ret = -ETIMEDOUT;
	slot_release(st == -1 ? pid : 0);
	return st;
}

int ww_smartctl_run(const char *dev, const char *type, const char *const *argv,
		    int timeout_s, char **out, size_t *out_len, int *exit_status)
{
	char standby[32], *args[32], *buf = NULL;
	size_t len = 0;
	uint64_t deadline;
	pid_t pid = -1;
	int fd = -1, ret, st;

	if (!out || !exit_status || (!argv && (!dev || !type)))
		return -EINVAL;
	*out = NULL;
	*exit_status = -1;
	if (out_len)
		*out_len = 0;
	deadline = now_ms() + (uint64_t)(timeout_s > 0 ? timeout_s : 30) * 1000;
	build_args(args, sizeof(args) / sizeof(args[0]), standby, sizeof(standby), dev, type,
		   argv);
	ret = slot_acquire(deadline);
	if (ret < 0)
		return ret;
	ret = spawn(args, &fd, &pid);
	if (ret < 0) {
		slot_release(0);
		return ret;
	}
	ret = read_all(fd, deadline, &buf, &len);
	close(fd);
	st = finish_child(pid, deadline, &ret);
	if (ret) {
		free(buf);
		return ret;
	}
	if (WIFEXITED(st))
		*exit_status = WEXITSTATUS(st);
	/* posix_spawnp reports a missing program itself; a shell wrapper
	 * saying 127 means the same */
	if (*exit_status == 127 && !len) {
		free(buf);
		return -ENOENT;
	}
	if (!buf && !(buf = malloc(1)))
		return -ENOMEM;
	buf[len] = '\0';
	*out = buf;
	if (out_len)
		*out_len = len;
	return 0;
}
