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
#include <sys/uio.h>
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

/* what a connection sends: the header line, then the body from where it
 * is (a shared body is sent from the render cache's own bytes) */
struct answer {
	char hdr[160];
	size_t hdr_len, off; /* off: bytes of hdr and body sent */
	ww_route_reply_t r;
};

struct ipc_conn {
	int fd;                /* -1: free slot */
	unsigned long long seq; /* accept order: lower is older */
	long long deadline;    /* closed when reached, ms; -1 while rendering */
	size_t got;            /* request bytes in req */
	char req[WW_IPC_MAX_REQUEST + 1];
	struct answer *out; /* NULL while reading the request */
};

/* a history query rendered on the pool; back to the server thread on the
 * done list (the slot is matched by seq: it may have been closed since) */
struct ipc_done {
	ww_job_t job;
	ww_ipc_server_t *s;
	int idx;
	unsigned long long seq;
	char req[WW_IPC_MAX_REQUEST + 1];
	struct answer *out;
	struct ipc_done *next;
};

static void answer_free(struct answer *a)
{
	if (a)
		ww_route_reply_free(&a->r);
	free(a);
}

static void conn_close(struct ipc_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	answer_free(c->out);
	c->fd = -1;
	c->out = NULL;
}

int ww_ipc_parse_request(const char *line, char *path, size_t plen, uint64_t *tag)
{
	const char *sp;
	size_t n;

	*tag = 0;
	if (strncmp(line, "GET ", 4))
		return -EINVAL;
	line += 4;
	sp = strchr(line, ' ');
	n = sp ? (size_t)(sp - line) : strlen(line);
	if (n >= plen)
		return -EINVAL;
	memcpy(path, line, n);
	path[n] = 0;
	if (!ww_route_path_valid(path))
		return -EINVAL;
	if (sp) {
		char *end;

		/* 1-20 digits, nothing after them */
		if (!sp[1] || strspn(sp + 1, "0123456789") != strlen(sp + 1) || strlen(sp + 1) > 20)
			return -EINVAL;
		errno = 0;
		*tag = strtoull(sp + 1, &end, 10);
		if (errno || *end)
			return -EINVAL;
	}
	return 0;
}

/* The answer to req (a complete line without '\n'): its header line and
 * body. A path of the render cache comes with the tag of its body; when
 * the request named that tag (the web side has those bytes), the answer is
 * a 304 without body. 0 or -errno. */
static int render_answer(const ww_route_src_t *src, const char *req, struct answer **out)
{
	struct answer *a = calloc(1, sizeof(*a));
	char path[WW_ROUTE_MAX_PATH + 1];
	uint64_t tag, have;
	int h;

	if (!a)
		return -ENOMEM;
	if (ww_ipc_parse_request(req, path, sizeof(path), &have) < 0) {
		h = snprintf(a->hdr, sizeof(a->hdr), "WW2 400 0 0 text/plain\n");
	} else if (ww_route_render_shared(src, path, ww_clock_wall(NULL), &a->r) < 0 ||
		   (a->r.len && !a->r.body)) {
		ww_route_reply_free(&a->r);
		h = snprintf(a->hdr, sizeof(a->hdr), "WW2 500 0 0 text/plain\n");
	} else {
		tag = a->r.shared ? a->r.shared->tag : 0;
		if (tag && tag == have) {
			h = snprintf(a->hdr, sizeof(a->hdr), "WW2 304 0 %llu %s\n",
				     (unsigned long long)tag, a->r.type);
			ww_route_reply_free(&a->r);
		} else {
			h = snprintf(a->hdr, sizeof(a->hdr), "WW2 %u %zu %llu %s\n", a->r.status,
				     a->r.len, (unsigned long long)tag, a->r.type);
		}
	}
	if (h < 0 || (size_t)h >= sizeof(a->hdr)) {
		answer_free(a);
		return -EPROTO;
	}
	a->hdr_len = (size_t)h;
	*out = a;
	return 0;
}

static struct answer *busy_answer(void)
{
	struct answer *a = calloc(1, sizeof(*a));

	if (a)
		a->hdr_len = (size_t)snprintf(a->hdr, sizeof(a->hdr), "WW2 503 0 0 text/plain\n");
	return a;
}

static void slow_job(ww_job_t *j, bool cancelled)
{
	struct ipc_done *d = (struct ipc_done *)j;
	ww_ipc_server_t *s = d->s;

	if (cancelled || render_answer(s->src, d->req, &d->out) < 0)
		d->out = busy_answer();
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

	if (strncmp(c->req, "GET ", 4) || !strstr(c->req, "/history"))
		return render_answer(s->src, c->req, &c->out);
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
		c->out = busy_answer();
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
			x->deadline = now_ms() + IPC_WRITE_MS;
		} else {
			answer_free(d->out);
			/* no answer at all (out of memory): its connection would
			 * wait for the pool forever, neither polled nor timed out */
			if (x->fd >= 0 && x->seq == d->seq && x->deadline < 0)
				conn_close(x);
		}
		free(d);
	}
}

/* one send of what is left of a's header and body */
static ssize_t send_answer(int fd, struct answer *a)
{
	struct iovec v[2];
	size_t off = a->off, n = 0;

	if (off < a->hdr_len) {
		v[n++] = (struct iovec){ a->hdr + off, a->hdr_len - off };
		off = 0;
	} else {
		off -= a->hdr_len;
	}
	if (a->r.len > off)
		v[n++] = (struct iovec){ a->r.body + off, a->r.len - off };
	return sendmsg(fd, &(struct msghdr){ .msg_iov = v, .msg_iovlen = n },
		       MSG_DONTWAIT | MSG_NOSIGNAL);
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
	n = send_answer(c->fd, c->out);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n < 0) {
		conn_close(c);
		return;
	}
	c->out->off += (size_t)n;
	if (c->out->off == c->out->hdr_len + c->out->r.len)
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

/* one decimal field of 1-20 digits ending in a space: its value, *p moved
 * past the space; -1 when malformed or out of range */
static int field(const char **p, unsigned long long *v)
{
	size_t n = strspn(*p, "0123456789");
	char *end;

	if (!n || n > 20 || (*p)[n] != ' ')
		return -1;
	errno = 0;
	*v = strtoull(*p, &end, 10);
	if (errno || end != *p + n)
		return -1;
	*p += n + 1;
	return 0;
}

int ww_ipc_parse_header(const char *line, unsigned *status, size_t *len, uint64_t *tag, char *type,
			size_t tlen)
{
	unsigned long long st, l, t;
	const char *p = line + 4;

	if (strncmp(line, "WW2 ", 4) || field(&p, &st) || field(&p, &l) || field(&p, &t) ||
	    st < 100 || st > 599 || l > WW_IPC_MAX_BODY || (st == 304 && l))
		return -EPROTO;
	if (strlen(p) >= tlen || strpbrk(p, "\r\n"))
		return -EPROTO;
	*status = (unsigned)st;
	*len = (size_t)l;
	*tag = (uint64_t)t;
	snprintf(type, tlen, "%s", p);
	return 0;
}

/* The web side's copy of the last body of each render-cache path, under
 * the cache's own index: asked for by its tag, the collector answers 304
 * and sends nothing. Beside each, the number of the exchange that brought
 * it: exchanges are numbered as they start, and one that ends after a
 * later-started one (a slow reader, a big body) does not put back the
 * older body it was answered, which would cost the next scrape the whole
 * body again instead of a 304. */
static ww_http_body_t *kept[WW_ROUTE_CACHED_PATHS];
static uint64_t kept_by[WW_ROUTE_CACHED_PATHS];
static uint64_t exchanges;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

/* a reference to url's kept body, or NULL: held across the exchange, so
 * a 304 is answered with the body whose tag was asked for even when
 * another request replaced it meanwhile; *seq: this exchange's number */
static ww_http_body_t *kept_get(const char *url, uint64_t *seq)
{
	int i = ww_route_cached_index(url);
	ww_http_body_t *b = NULL;

	*seq = 0;
	if (i < 0)
		return NULL;
	pthread_mutex_lock(&kept_lock);
	*seq = ++exchanges;
	b = ww_http_body_ref(kept[i]);
	pthread_mutex_unlock(&kept_lock);
	return b;
}

/* keep b as url's body (a reference of its own) unless an exchange that
 * started after seq's already kept its own */
static void kept_put(const char *url, ww_http_body_t *b, uint64_t seq)
{
	int i = ww_route_cached_index(url);

	if (i < 0)
		return;
	pthread_mutex_lock(&kept_lock);
	if (seq > kept_by[i]) {
		ww_http_body_unref(kept[i]);
		kept[i] = ww_http_body_ref(b);
		kept_by[i] = seq;
	}
	pthread_mutex_unlock(&kept_lock);
}

/* Read the header line into line (cap bytes, NUL instead of '\n') in as few
 * reads as it takes; what came after it (the body's first bytes) stays in
 * line after the NUL: *extra bytes. Returns the line's length or -errno. */
static int read_head(int fd, char *line, size_t cap, size_t *extra, long long deadline)
{
	size_t have = 0;

	while (have < cap) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = deadline - now_ms();
		char *nl;
		ssize_t r;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return -ETIMEDOUT;
		r = read(fd, line + have, cap - have);
		if (r <= 0)
			return r < 0 ? -errno : -EPROTO;
		have += (size_t)r;
		nl = memchr(line, '\n', have);
		if (nl) {
			*nl = 0;
			*extra = have - (size_t)(nl - line) - 1;
			return (int)(nl - line);
		}
	}
	return -EPROTO;
}

int ww_ipc_request(const char *path, const char *url, int timeout_ms, ww_route_reply_t *r)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	long long deadline = now_ms() + timeout_ms;
	char req[WW_IPC_MAX_REQUEST + 8], line[4096];
	size_t got = 0, extra = 0;
	uint64_t tag = 0, seq = 0;
	ww_http_body_t *mine = NULL;
	int fd, rc, hl;

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
	mine = kept_get(url, &seq);
	if (mine)
		snprintf(req, sizeof(req), "GET %s %llu\n", url, (unsigned long long)mine->tag);
	else
		snprintf(req, sizeof(req), "GET %s\n", url);
	rc = write_all(fd, req, strlen(req), deadline);
	if (rc)
		goto out;
	/* 160 bytes at most of header: the rest of line is the body's start */
	rc = hl = read_head(fd, line, sizeof(line), &extra, deadline);
	if (rc < 0)
		goto out;
	rc = hl > 160
		? -EPROTO
		: ww_ipc_parse_header(line, &r->status, &r->len, &tag, r->type, sizeof(r->type));
	if (rc)
		goto out;
	if (r->status == 304) {
		/* what we have: no body follows */
		if (extra || !mine || mine->tag != tag) {
			rc = -EPROTO;
			goto out;
		}
		r->shared = mine;
		mine = NULL;
		r->status = 200;
		r->body = r->shared->data;
		r->len = r->shared->len;
		goto out;
	}
	if (extra > r->len) {
		rc = -EPROTO;
		goto out;
	}
	r->body = malloc(r->len + 1);
	if (!r->body) {
		rc = -ENOMEM;
		goto out;
	}
	memcpy(r->body, line + hl + 1, extra);
	got = extra;
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
	if (tag && r->status == 200 && ww_route_cached(url)) {
		r->shared = ww_http_body_new(r->body, r->len, tag);
		if (!r->shared) {
			r->body = NULL;
			rc = -ENOMEM;
			goto out;
		}
		kept_put(url, r->shared, seq);
	}
	rc = 0;
out:
	if (rc)
		ww_route_reply_free(r);
	ww_http_body_unref(mine);
	close(fd);
	return rc;
}
