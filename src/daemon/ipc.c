/* Unix-socket protocol between collector and web (see ipc.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "daemon/ipc.h"
#include "daemon/log.h"

struct ww_ipc_server {
	int fd, stop_pipe[2];
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	ww_store_t *store;
	pthread_t thread;
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* read until '\n' or max bytes, with a deadline; returns length without '\n' */
static int read_line(int fd, char *buf, size_t max, long long deadline)
{
	size_t n = 0;

	while (n < max - 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = deadline - now_ms();
		ssize_t r;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return -ETIMEDOUT;
		r = read(fd, buf + n, 1);
		if (r <= 0)
			return r < 0 ? -errno : -EPROTO;
		if (buf[n] == '\n') {
			buf[n] = 0;
			return (int)n;
		}
		n++;
	}
	return -EPROTO;
}

static int write_all(int fd, const char *b, size_t len, long long deadline)
{
	while (len) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		long long left = deadline - now_ms();
		ssize_t w;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return -ETIMEDOUT;
		w = send(fd, b, len, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		b += w;
		len -= (size_t)w;
	}
	return 0;
}

static void serve_one(ww_ipc_server_t *s, int c)
{
	char req[WW_IPC_MAX_REQUEST + 1], hdr[160];
	long long deadline = now_ms() + 5000;
	ww_route_reply_t r;
	int n = read_line(c, req, sizeof(req), deadline);

	if (n < 0)
		return;
	if (strncmp(req, "GET ", 4) || !ww_route_path_valid(req + 4)) {
		snprintf(hdr, sizeof(hdr), "WW1 400 0 text/plain\n");
		write_all(c, hdr, strlen(hdr), deadline);
		return;
	}
	if (ww_route_render(s->store, req + 4, time(NULL), &r) < 0) {
		snprintf(hdr, sizeof(hdr), "WW1 500 0 text/plain\n");
		write_all(c, hdr, strlen(hdr), deadline);
		return;
	}
	snprintf(hdr, sizeof(hdr), "WW1 %u %zu %s\n", r.status, r.len, r.type);
	if (!write_all(c, hdr, strlen(hdr), deadline))
		write_all(c, r.body, r.len, deadline);
	free(r.body);
}

static void *server_thread(void *arg)
{
	ww_ipc_server_t *s = arg;

	for (;;) {
		struct pollfd p[2] = { { .fd = s->fd, .events = POLLIN },
				       { .fd = s->stop_pipe[0], .events = POLLIN } };
		int c;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		c = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0)
			continue;
		/* one at a time: rendering is from a snapshot and fast, and the
		 * web side has its own timeout */
		serve_one(s, c);
		close(c);
	}
	return NULL;
}

ww_ipc_server_t *ww_ipc_server_start(const char *path, ww_store_t *store, int *err)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	ww_ipc_server_t *s;
	int rc;

	if (strlen(path) >= sizeof(a.sun_path)) {
		*err = -ENAMETOOLONG;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		*err = -ENOMEM;
		return NULL;
	}
	strcpy(a.sun_path, path);
	strcpy(s->path, path);
	s->store = store;
	s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->fd < 0 || pipe2(s->stop_pipe, O_CLOEXEC) < 0)
		goto fail;
	unlink(path);
	if (bind(s->fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s->fd, 32) < 0)
		goto fail;
	/* the web side runs as a dynamic user; what it can ask for is what
	 * /metrics publishes anyway */
	if (chmod(path, 0666) < 0)
		goto fail;
	if ((rc = pthread_create(&s->thread, NULL, server_thread, s))) {
		errno = rc;
		goto fail;
	}
	return s;
fail:
	*err = -errno;
	if (s->fd >= 0)
		close(s->fd);
	free(s);
	return NULL;
}

void ww_ipc_server_stop(ww_ipc_server_t *s)
{
	if (!s)
		return;
	if (write(s->stop_pipe[1], "x", 1) == 1)
		pthread_join(s->thread, NULL);
	close(s->stop_pipe[0]);
	close(s->stop_pipe[1]);
	close(s->fd);
	unlink(s->path);
	free(s);
}

int ww_ipc_parse_header(const char *line, unsigned *status, size_t *len, char *type, size_t tlen)
{
	unsigned long long l;
	int off = 0;

	if (sscanf(line, "WW1 %3u %llu %n", status, &l, &off) != 2 || !off ||
	    *status < 100 || *status > 599 || l > WW_IPC_MAX_BODY)
		return -EPROTO;
	if (strlen(line + off) >= tlen || strpbrk(line + off, "\r\n"))
		return -EPROTO;
	*len = (size_t)l;
	snprintf(type, tlen, "%s", line + off);
	return 0;
}

int ww_ipc_request(const char *path, const char *url, int timeout_ms, ww_route_reply_t *r)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	long long deadline = now_ms() + timeout_ms;
	char req[WW_IPC_MAX_REQUEST + 8], line[160];
	size_t got = 0;
	int fd, rc;

	memset(r, 0, sizeof(*r));
	if (!ww_route_path_valid(url))
		return -EINVAL;
	if (strlen(path) >= sizeof(a.sun_path))
		return -ENAMETOOLONG;
	strcpy(a.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		rc = -errno;
		goto out;
	}
	snprintf(req, sizeof(req), "GET %s\n", url);
	rc = write_all(fd, req, strlen(req), deadline);
	if (rc)
		goto out;
	rc = read_line(fd, line, sizeof(line), deadline);
	if (rc < 0)
		goto out;
	rc = ww_ipc_parse_header(line, &r->status, &r->len, r->type, sizeof(r->type));
	if (rc)
		goto out;
	r->body = malloc(r->len + 1);
	if (!r->body) {
		rc = -ENOMEM;
		goto out;
	}
	while (got < r->len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = deadline - now_ms();
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0) {
			rc = -ETIMEDOUT;
			goto out;
		}
		n = read(fd, r->body + got, r->len - got);
		if (n <= 0) {
			rc = n < 0 ? -errno : -EPROTO;
			goto out;
		}
		got += (size_t)n;
	}
	r->body[r->len] = 0;
	rc = 0;
out:
	if (rc) {
		free(r->body);
		r->body = NULL;
	}
	close(fd);
	return rc;
}
