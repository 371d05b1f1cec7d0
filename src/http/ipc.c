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

#include "wearwatch/http.h"
#include "wearwatch/basic.h"
#include "http/jobs.h"

struct ipc_done;

struct ww_ipc_server {
	int fd, stop_pipe[2], wake_pipe[2];
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	const ww_route_src_t *src;
	pthread_t thread;
	unsigned long long accepted; /* connections so far (server thread only) */
	ww_jobq_t *slow;             /* history queries */
	pthread_mutex_t lock;        /* done list */
	struct ipc_done *done;
};

static long long now_ms(void)
{
	return ww_clock_monotonic_ms();
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

/*
 * Server: one thread multiplexing up to IPC_MAX_CONN non-blocking connections
 * with poll(), each with its own request buffer and deadline; history
 * queries are rendered on a pool of IPC_SLOW_THREADS (jobs.h).
 *
 * Why this shape: answering is rendering from an immutable snapshot (fast,
 * no device access), so the only thing that can be slow is the peer, and a
 * history query (the database, bounded by its time budget in history.h).
 * The socket is reachable by every local user (see ww_ipc_server_start),
 * and a server that waited on one peer at a time let three idle connections
 * keep the web side out. Here a peer costs one slot and at most IPC_READ_MS
 * to send its request line, then IPC_WRITE_MS to take the answer; when all
 * slots are taken, a new connection replaces the oldest one still sending
 * its request (the web side sends its line right after connect, so that is
 * the idle one), or else the oldest one not being rendered. A history query
 * rendered on this thread held every /metrics behind it (web /metrics p50
 * 1.07 s with one history loop, 3.67 s with four); on the pool it holds
 * only its own connection, and a full pool answers 503 at once.
 */
#define IPC_MAX_CONN 32
#define IPC_READ_MS 1000
#define IPC_WRITE_MS 5000
#define IPC_SLOW_THREADS 2
#define IPC_SLOW_QUEUE 8

struct ipc_conn {
	int fd;                /* -1: free slot */
	unsigned long long seq; /* accept order: lower is older */
	long long deadline;    /* closed when reached, ms; -1 while rendering */
	size_t got;            /* request bytes in req */
	char req[WW_IPC_MAX_REQUEST + 1];
	char *out;             /* header + body; NULL while reading the request */
	size_t out_len, out_off;
};

/* a history query rendered on the pool; back to the server thread on the
 * done list (the slot is matched by seq: it may have been closed since) */
struct ipc_done {
	ww_job_t job;
	ww_ipc_server_t *s;
	int idx;
	unsigned long long seq;
	char req[WW_IPC_MAX_REQUEST + 1];
	char *out;
	size_t out_len;
	struct ipc_done *next;
};

static void conn_close(struct ipc_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->out);
	c->fd = -1;
	c->out = NULL;
}

/* the header and body answering req (a complete line without '\n') into
 * *out (malloc'd); 0 or -errno */
static int render_answer(const ww_route_src_t *src, const char *req, char **out, size_t *out_len)
{
	ww_route_reply_t r = { 0 };
	char hdr[160];
	int h;

	if (strncmp(req, "GET ", 4) || !ww_route_path_valid(req + 4)) {
		h = snprintf(hdr, sizeof(hdr), "WW1 400 0 text/plain\n");
	} else if (ww_route_render(src, req + 4, ww_clock_wall(NULL), &r) < 0) {
		free(r.body);
		memset(&r, 0, sizeof(r));
		h = snprintf(hdr, sizeof(hdr), "WW1 500 0 text/plain\n");
	} else {
		h = snprintf(hdr, sizeof(hdr), "WW1 %u %zu %s\n", r.status, r.len, r.type);
	}
	if (h < 0 || (size_t)h >= sizeof(hdr) || (r.len && !r.body)) {
		free(r.body);
		return -EPROTO;
	}
	*out = malloc((size_t)h + r.len);
	if (*out) {
		memcpy(*out, hdr, (size_t)h);
		if (r.len)
			memcpy(*out + h, r.body, r.len);
		*out_len = (size_t)h + r.len;
	}
	free(r.body);
	return *out ? 0 : -ENOMEM;
}

static void slow_job(ww_job_t *j, bool cancelled)
{
	struct ipc_done *d = (struct ipc_done *)j;
	ww_ipc_server_t *s = d->s;
	static const char busy[] = "WW1 503 0 text/plain\n";

	if (cancelled || render_answer(s->src, d->req, &d->out, &d->out_len) < 0) {
		d->out = strdup(busy);
		d->out_len = d->out ? strlen(busy) : 0;
	}
	pthread_mutex_lock(&s->lock);
	d->next = s->done;
	s->done = d;
	pthread_mutex_unlock(&s->lock);
	if (write(s->wake_pipe[1], "x", 1) < 0) {
		/* the pipe is full: the server is being woken anyway */
	}
}

/* c->req is complete: answer it here, or hand a history query to the pool */
static int conn_answer(ww_ipc_server_t *s, struct ipc_conn *c, int idx)
{
	struct ipc_done *d;

	if (strncmp(c->req, "GET ", 4) || !strstr(c->req, "/history")) {
		c->out_off = 0;
		return render_answer(s->src, c->req, &c->out, &c->out_len);
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->job.run = slow_job;
	d->s = s;
	d->idx = idx;
	d->seq = c->seq;
	memcpy(d->req, c->req, sizeof(d->req));
	if (ww_jobq_submit(s->slow, &d->job)) {
		free(d);
		c->out = strdup("WW1 503 0 text/plain\n");
		c->out_len = c->out ? strlen(c->out) : 0;
		c->out_off = 0;
		return c->out ? 0 : -ENOMEM;
	}
	c->deadline = -1; /* rendering: no deadline, no poll */
	return 0;
}

/* finished history queries onto their connections (server thread) */
static void take_done(ww_ipc_server_t *s, struct ipc_conn *c)
{
	struct ipc_done *d, *next;
	char drain[64];

	while (read(s->wake_pipe[0], drain, sizeof(drain)) > 0)
		;
	pthread_mutex_lock(&s->lock);
	d = s->done;
	s->done = NULL;
	pthread_mutex_unlock(&s->lock);
	for (; d; d = next) {
		struct ipc_conn *x = &c[d->idx];

		next = d->next;
		if (x->fd >= 0 && x->seq == d->seq && x->deadline < 0 && d->out) {
			x->out = d->out;
			x->out_len = d->out_len;
			x->out_off = 0;
			x->deadline = now_ms() + IPC_WRITE_MS;
		} else {
			free(d->out);
		}
		free(d);
	}
}

/* the connection is ready: read more of the request, or write more answer */
static void conn_step(ww_ipc_server_t *s, struct ipc_conn *c, int idx)
{
	ssize_t n;

	if (!c->out) {
		char *nl;

		n = recv(c->fd, c->req + c->got, sizeof(c->req) - 1 - c->got, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			conn_close(c);
			return;
		}
		c->got += (size_t)n;
		nl = memchr(c->req, '\n', c->got);
		if (!nl) {
			if (c->got == sizeof(c->req) - 1) /* line too long */
				conn_close(c);
			return;
		}
		*nl = 0;
		if (conn_answer(s, c, idx) < 0) {
			conn_close(c);
			return;
		}
		if (!c->out)
			return; /* on the pool */
		c->deadline = now_ms() + IPC_WRITE_MS;
	}
	n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n < 0) {
		conn_close(c);
		return;
	}
	c->out_off += (size_t)n;
	if (c->out_off == c->out_len)
		conn_close(c);
}

/* a free slot, or the one to drop: oldest still reading, else the oldest
 * not being rendered; NULL when every slot waits for the pool */
static struct ipc_conn *slot_for_new(struct ipc_conn *c)
{
	struct ipc_conn *reading = NULL, *any = NULL;

	for (int i = 0; i < IPC_MAX_CONN; i++) {
		if (c[i].fd < 0)
			return &c[i];
		if (c[i].deadline < 0)
			continue;
		if (!c[i].out && (!reading || c[i].seq < reading->seq))
			reading = &c[i];
		if (!any || c[i].seq < any->seq)
			any = &c[i];
	}
	any = reading ? reading : any;
	if (any)
		conn_close(any);
	return any;
}

static void accept_new(ww_ipc_server_t *s, struct ipc_conn *c)
{
	for (int k = 0; k < IPC_MAX_CONN; k++) {
		int fd = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		struct ipc_conn *slot;

		if (fd < 0)
			return;
		slot = slot_for_new(c);
		if (!slot) {
			close(fd);
			continue;
		}
		slot->fd = fd;
		slot->seq = ++s->accepted;
		slot->deadline = now_ms() + IPC_READ_MS;
		slot->got = 0;
	}
}

/* the poll set: listener, stop and wake pipes, then every connection not
 * being rendered; closes those past their deadline; returns the count and
 * the nearest deadline in *next (-1: none) */
static int poll_set(struct ipc_conn *c, struct pollfd *p, int *idx, long long now,
		    long long *next)
{
	int n = 3;

	*next = -1;
	for (int i = 0; i < IPC_MAX_CONN; i++) {
		if (c[i].fd < 0 || c[i].deadline < 0)
			continue;
		if (now >= c[i].deadline) {
			conn_close(&c[i]);
			continue;
		}
		p[n] = (struct pollfd){ .fd = c[i].fd, .events = c[i].out ? POLLOUT : POLLIN };
		idx[n - 3] = i;
		n++;
		if (*next < 0 || c[i].deadline < *next)
			*next = c[i].deadline;
	}
	return n;
}

static void *server_thread(void *arg)
{
	ww_ipc_server_t *s = arg;
	struct ipc_conn c[IPC_MAX_CONN];
	struct pollfd p[IPC_MAX_CONN + 3];
	int idx[IPC_MAX_CONN];

	for (int i = 0; i < IPC_MAX_CONN; i++) {
		c[i].fd = -1;
		c[i].out = NULL;
	}
	for (;;) {
		long long now = now_ms(), next;
		int n;

		p[0] = (struct pollfd){ .fd = s->fd, .events = POLLIN };
		p[1] = (struct pollfd){ .fd = s->stop_pipe[0], .events = POLLIN };
		p[2] = (struct pollfd){ .fd = s->wake_pipe[0], .events = POLLIN };
		n = poll_set(c, p, idx, now, &next);
		if (poll(p, (nfds_t)n, next < 0 ? -1 : (int)(next - now)) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		for (int k = 3; k < n; k++)
			if (p[k].revents)
				conn_step(s, &c[idx[k - 3]], idx[k - 3]);
		if (p[2].revents)
			take_done(s, c);
		if (p[0].revents & POLLIN)
			accept_new(s, c);
	}
	/* the pool's last answers land on the done list: freed below */
	ww_jobq_stop(s->slow);
	s->slow = NULL;
	take_done(s, c);
	for (int i = 0; i < IPC_MAX_CONN; i++)
		conn_close(&c[i]);
	return NULL;
}

static void server_free(ww_ipc_server_t *s)
{
	for (int i = 0; i < 2; i++) {
		if (s->stop_pipe[i] >= 0)
			close(s->stop_pipe[i]);
		if (s->wake_pipe[i] >= 0)
			close(s->wake_pipe[i]);
	}
	if (s->fd >= 0)
		close(s->fd);
	ww_jobq_stop(s->slow);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

ww_ipc_server_t *ww_ipc_server_start(const char *path, const ww_route_src_t *src, int *err)
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
	s->stop_pipe[0] = s->stop_pipe[1] = s->wake_pipe[0] = s->wake_pipe[1] = -1;
	pthread_mutex_init(&s->lock, NULL);
	strcpy(a.sun_path, path);
	strcpy(s->path, path);
	s->src = src;
	s->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->fd < 0 || pipe2(s->stop_pipe, O_CLOEXEC) < 0 ||
	    pipe2(s->wake_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		goto fail;
	/* in the background as the web side's history threads (jobs.h):
	 * /metrics renders first; the history's time budget bounds the wait */
	s->slow = ww_jobq_start(IPC_SLOW_THREADS, IPC_SLOW_QUEUE, true, "ipc-history");
	if (!s->slow) {
		errno = ENOMEM;
		goto fail;
	}
	unlink(path);
	if (bind(s->fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s->fd, 64) < 0)
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
	server_free(s);
	return NULL;
}

void ww_ipc_server_stop(ww_ipc_server_t *s)
{
	if (!s)
		return;
	if (write(s->stop_pipe[1], "x", 1) == 1)
		pthread_join(s->thread, NULL);
	unlink(s->path);
	server_free(s);
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
