/* Collector IPC server (src/http/ipc.c) against clients that misbehave:
 * idle connections, a request trickled in byte by byte, a client that never
 * reads its answer. A normal request must still be answered while they are
 * connected (the adversarial finding: 3 idle connections made the web side
 * answer 503, because the server served one connection at a time, waiting
 * for each to time out). The checks are orderings, not durations: the idle
 * clients are still connected when the answer comes, and are closed by the
 * server later, so a loaded machine changes nothing.
 *
 * History queries looped over the collector socket (src/http/ipc.c) must not
 * hold /metrics: before, the one server thread rendered each query itself
 * (web /metrics p50 1.07 s with one loop, 3.67 s with four). Four threads
 * loop history queries of a drive with 600 000 samples (inserted with SQL
 * into the service's schema, as test_history_query.c does) while /metrics is
 * asked 20 times; most answers must come between two history answers, not
 * after one (a query costs hundreds of /metrics renders, on any machine). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "wearwatch/history.h"
#include "wearwatch/http.h"
#include "wearwatch/store.h"
#include "ww_test.h"

#define N 600000

static char sock_path[108];
static volatile int stop_loops;
static int answered[4], busy[4];
static int asked, replies; /* history requests sent, answers of any status */

static int connect_raw(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	strcpy(a.sun_path, sock_path);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* GET /healthz answered "ok" (the budget only bounds a broken server) */
static bool healthz(void)
{
	ww_route_reply_t r;
	int rc = ww_ipc_request(sock_path, "/healthz", 30000, &r);
	bool ok = !rc && r.status == 200 && r.body && !strcmp(r.body, "ok\n");

	ww_route_reply_free(&r);
	return ok;
}

/* the server has not closed fd (nothing to read, no end of file) */
static bool still_open(int fd)
{
	char c;

	return fd >= 0 && recv(fd, &c, 1, MSG_DONTWAIT) < 0 && errno == EAGAIN;
}

static void *loop(void *arg)
{
	int k = (int)(long)arg;

	while (!stop_loops) {
		ww_route_reply_t r;

		__atomic_add_fetch(&asked, 1, __ATOMIC_SEQ_CST);
		if (ww_ipc_request(sock_path,
				   "/api/v1/drives/ata-BIG/history?metric="
				   "temperature_celsius&from=0&max_points=10000",
				   600000, &r) == 0) {
			answered[k] += r.status == 200;
			busy[k] += r.status == 503;
		}
		__atomic_add_fetch(&replies, 1, __ATOMIC_SEQ_CST);
		ww_route_reply_free(&r);
	}
	return NULL;
}

static void seed(const char *path, long long now)
{
	sqlite3 *db;
	char sql[512];

	CHECK_EQ_I64(sqlite3_open(path, &db), SQLITE_OK);
	snprintf(sql, sizeof(sql), "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1"
		 " FROM c WHERE i < %d) INSERT INTO samples(drive, tier, t, segment,"
		 " host_written_bytes, temperature_celsius, present) SELECT 'ata-BIG', 0,"
		 " %lld + i, 0, 1000 * i, 30 + i %% 10, 1 FROM c", N - 1, now - N);
	CHECK_EQ_I64(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* idle, trickling and deaf clients: /healthz answered while they are
 * still connected */
static void test_slow_clients(void)
{
	char dir[] = "/tmp/ww-ipc-XXXXXX";
	ww_store_t *st = ww_store_new(0);
	ww_ipc_server_t *srv;
	int idle[40], slow, deaf, err = 0;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(sock_path, sizeof(sock_path), "%s/c.sock", dir);
	srv = ww_ipc_server_start(sock_path, &(ww_route_src_t){ .store = st }, &err);
	CHECK(srv != NULL);
	if (!srv)
		return;

	CHECK(healthz()); /* baseline */

	/* 3 idle connections (the reproducer): answered before the server
	 * gave up on them, so not after waiting them out one by one */
	for (int i = 0; i < 3; i++)
		idle[i] = connect_raw();
	CHECK(healthz());
	for (int i = 0; i < 3; i++)
		CHECK(still_open(idle[i]));

	/* plus a client trickling "GET /metrics" one byte at a time, and one
	 * that sends a request and never reads: neither may hold the server */
	slow = connect_raw();
	CHECK(write(slow, "GE", 2) == 2);
	deaf = connect_raw();
	CHECK(write(deaf, "GET /api/v1/drives\n", 19) == 19);
	shutdown(deaf, SHUT_RD);
	CHECK(healthz());
	CHECK(still_open(slow));
	CHECK(write(slow, "T", 1) == 1);
	CHECK(healthz());

	/* more idle connections than the server keeps: the oldest are dropped,
	 * the newcomer is answered */
	for (int i = 3; i < 40; i++)
		idle[i] = connect_raw();
	CHECK(healthz());

	/* the newest idle connection was kept (the oldest were dropped) and is
	 * closed by the server at its request deadline (EOF on read), so idle
	 * clients cannot pin slots forever; 30 s only bounds a broken server */
	{
		struct pollfd pf = { .fd = idle[39], .events = POLLIN };
		char c;

		CHECK(still_open(idle[39]));
		CHECK(poll(&pf, 1, 30000) == 1);
		CHECK(read(idle[39], &c, 1) == 0);
	}

	for (int i = 0; i < 40; i++)
		if (idle[i] >= 0)
			close(idle[i]);
	close(slow);
	close(deaf);
	ww_ipc_server_stop(srv);
	ww_store_free(st);
	rmdir(dir);
}

/* four history loops: /metrics not held behind them */
static void test_history_loops(void)
{
	char dir[] = "/tmp/ww-hipc-XXXXXX", path[128], cmd[160];
	ww_store_t *st = ww_store_new(0);
	ww_history_t *h = NULL;
	ww_store_endurance_t *svc;
	ww_ipc_server_t *srv;
	/* no query budget to run out of on a slow machine: answered, not -ETIME */
	ww_history_cfg_t hc = { .query_budget_ms = 600000 };
	pthread_t th[4];
	int err = 0, total = 0, between = 0;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/history.db", dir);
	CHECK_EQ_I64(ww_history_open(path, &hc, &h, NULL, 0), 0);
	seed(path, (long long)time(NULL));
	svc = ww_store_endurance_new(NULL, NULL, h);
	snprintf(sock_path, sizeof(sock_path), "%s/c.sock", dir);
	srv = ww_ipc_server_start(sock_path, &(ww_route_src_t){ .store = st, .endurance = svc },
				  &err);
	CHECK(srv != NULL);
	for (long k = 0; k < 4; k++)
		pthread_create(&th[k], NULL, loop, (void *)k);
	/* every loop has a query out (bounded wait for the threads to start);
	 * history renders run at SCHED_IDLE (src/http/jobs.c), so on a busy
	 * machine they may only finish once it is idle: nothing here waits
	 * for one before the end, where the loops are joined */
	for (int i = 0; i < 6000 && __atomic_load_n(&asked, __ATOMIC_SEQ_CST) < 4; i++)
		usleep(10000);
	CHECK(__atomic_load_n(&asked, __ATOMIC_SEQ_CST) >= 4);
	usleep(100000); /* not a bound: the requests reach the server */
	for (int i = 0; i < 20; i++) {
		ww_route_reply_t r;
		int before = __atomic_load_n(&replies, __ATOMIC_SEQ_CST);
		int rc = ww_ipc_request(sock_path, "/metrics", 30000, &r);

		CHECK(rc == 0 && r.status == 200);
		ww_route_reply_free(&r);
		/* held behind a query, /metrics would come after its answer */
		between += __atomic_load_n(&replies, __ATOMIC_SEQ_CST) == before;
		usleep(20000);
	}
	stop_loops = 1;
	for (int k = 0; k < 4; k++) {
		pthread_join(th[k], NULL);
		total += answered[k];
	}
	printf("4 history loops over %d samples (%d answered): %d of 20 /metrics between two "
	       "history answers\n",
	       N, total, between);
	CHECK(total > 0);
	CHECK(between >= 10);
	ww_ipc_server_stop(srv);
	ww_store_endurance_free(svc);
	ww_store_free(st);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
}

/* the whole answer to a raw request line, NUL-terminated (malloc'd) */
static char *raw_answer(const char *line, size_t *len)
{
	int fd = connect_raw();
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	ssize_t r;

	CHECK(fd >= 0 && buf);
	CHECK(write(fd, line, strlen(line)) == (ssize_t)strlen(line));
	while ((r = read(fd, buf + n, cap - 1 - n)) > 0) {
		n += (size_t)r;
		if (n == cap - 1)
			buf = realloc(buf, cap *= 2);
	}
	close(fd);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* A render-cache body crosses the socket once: asked for again by its tag
 * (the web side keeps the last one), the collector answers 304 without a
 * body, until the store changes; then a new tag and the new bytes. What the
 * web side hands its front end is the collector's body byte for byte. */
static void test_tags(void)
{
	char dir[] = "/tmp/ww-ipct-XXXXXX", line[600], type[64], *ans;
	ww_store_t *st = ww_store_new(0);
	ww_route_src_t src = { .store = st };
	ww_route_reply_t a, b, direct;
	ww_ipc_server_t *srv;
	ww_drive_t d;
	ww_health_t h;
	uint64_t tag, t2;
	unsigned status;
	size_t len, alen;
	int err = 0;

	memset(&d, 0, sizeof(d));
	snprintf(d.id, sizeof(d.id), "nvme-tag-0");
	d.protocol = WW_PROTO_NVME;
	memset(&h, 0, sizeof(h));
	WW_SET(h.temperature_celsius, 40, "test");
	CHECK_EQ_I64(ww_store_sync(st, &d, 1, 1700000000), 0);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(sock_path, sizeof(sock_path), "%s/c.sock", dir);
	srv = ww_ipc_server_start(sock_path, &src, &err);
	CHECK(srv != NULL);
	if (!srv)
		return;

	CHECK_EQ_I64(ww_ipc_request(sock_path, "/metrics", 30000, &a), 0);
	CHECK(a.status == 200 && a.shared && a.shared->tag && a.len > 100);
	CHECK_EQ_I64(ww_route_render(&src, "/metrics", time(NULL), &direct), 0);
	CHECK(direct.len == a.len && !memcmp(direct.body, a.body, a.len));
	ww_route_reply_free(&direct);
	tag = a.shared->tag;

	/* the collector, asked with that tag: a header line and nothing else */
	snprintf(line, sizeof(line), "GET /metrics %llu\n", (unsigned long long)tag);
	ans = raw_answer(line, &alen);
	CHECK(alen == strlen(ans) && ans[alen - 1] == '\n');
	ans[alen - 1] = 0;
	CHECK_EQ_I64(ww_ipc_parse_header(ans, &status, &len, &t2, type, sizeof(type)), 0);
	CHECK(status == 304 && len == 0 && t2 == tag);
	free(ans);
	/* another tag (a web side that restarted, or a stale copy): the body */
	snprintf(line, sizeof(line), "GET /metrics %llu\n", (unsigned long long)(tag + 1));
	ans = raw_answer(line, &alen);
	CHECK(alen == strchr(ans, '\n') - ans + 1 + a.len);
	free(ans);

	/* the web side's next request: its kept copy, the same bytes */
	CHECK_EQ_I64(ww_ipc_request(sock_path, "/metrics", 30000, &b), 0);
	CHECK(b.status == 200 && b.shared == a.shared && b.body == a.body);
	ww_route_reply_free(&b);
	/* a collection: a new tag and body; the old one stays valid for the
	 * answer that holds it */
	CHECK_EQ_I64(ww_store_update(st, "nvme-tag-0", 0, &h, NULL, 0.01, 1700000010), 0);
	CHECK_EQ_I64(ww_ipc_request(sock_path, "/metrics", 30000, &b), 0);
	CHECK(b.status == 200 && b.shared && b.shared != a.shared && b.shared->tag != tag);
	CHECK(strstr(b.body, "wearwatch_drive_collections_total{drive=\"nvme-tag-0\"") != NULL);
	CHECK(a.len > 100 && strstr(a.body, "# HELP") != NULL);
	ww_route_reply_free(&a);
	ww_route_reply_free(&b);
	/* not of the render cache: no tag, a body of its own */
	CHECK_EQ_I64(ww_ipc_request(sock_path, "/api/v1/drives/nvme-tag-0", 30000, &a), 0);
	CHECK(a.status == 200 && !a.shared && a.body && strstr(a.body, "nvme-tag-0"));
	ww_route_reply_free(&a);

	ww_ipc_server_stop(srv);
	ww_store_free(st);
	rmdir(dir);
}

static void test_lines(void)
{
	static const struct {
		const char *line;
		int rc;
		const char *path;
		unsigned long long tag;
	} req[] = {
		{ "GET /metrics", 0, "/metrics", 0 },
		{ "GET /metrics 42", 0, "/metrics", 42 },
		{ "GET /metrics 18446744073709551615", 0, "/metrics", 18446744073709551615ull },
		{ "GET /metrics 18446744073709551616", -EINVAL, NULL, 0 },
		{ "GET /metrics ", -EINVAL, NULL, 0 },
		{ "GET /metrics -1", -EINVAL, NULL, 0 },
		{ "GET /metrics 1 2", -EINVAL, NULL, 0 },
		{ "GET /nope 1", -EINVAL, NULL, 0 },
		{ "PUT /metrics", -EINVAL, NULL, 0 },
	};
	static const struct {
		const char *line;
		int rc;
		unsigned status;
		size_t len;
		unsigned long long tag;
		const char *type;
	} hdr[] = {
		{ "WW2 200 12 7 text/plain; charset=utf-8", 0, 200, 12, 7,
		  "text/plain; charset=utf-8" },
		{ "WW2 304 0 7 application/json", 0, 304, 0, 7, "application/json" },
		{ "WW2 304 5 7 application/json", -EPROTO, 0, 0, 0, NULL },
		{ "WW2 200 -1 7 text/plain", -EPROTO, 0, 0, 0, NULL },
		{ "WW2 200 12 +7 text/plain", -EPROTO, 0, 0, 0, NULL },
		{ "WW1 200 12 text/plain", -EPROTO, 0, 0, 0, NULL },
		{ "WW2 200 99999999999 0 text/plain", -EPROTO, 0, 0, 0, NULL },
		{ "WW2 3040 7 x", -EPROTO, 0, 0, 0, NULL },
		{ "WW2 1000 5 7 text/plain", -EPROTO, 0, 0, 0, NULL },
		{ "WW2200 5 7 x", -EPROTO, 0, 0, 0, NULL },
		{ "WW2 200  5 7 x", -EPROTO, 0, 0, 0, NULL },
		{ "WW2 200 5 123456789012345678901 x", -EPROTO, 0, 0, 0, NULL },
		{ "WW2 200 5 18446744073709551616 x", -EPROTO, 0, 0, 0, NULL },
		{ "WW2 200 5 18446744073709551615 x", 0, 200, 5, 18446744073709551615ull, "x" },
	};

	for (size_t i = 0; i < sizeof(req) / sizeof(req[0]); i++) {
		char path[WW_ROUTE_MAX_PATH + 1];
		uint64_t tag = 99;
		int rc = ww_ipc_parse_request(req[i].line, path, sizeof(path), &tag);

		if (rc != req[i].rc)
			printf("request \"%s\": %d, want %d\n", req[i].line, rc, req[i].rc);
		CHECK(rc == req[i].rc);
		if (!rc)
			CHECK(!strcmp(path, req[i].path) && tag == req[i].tag);
	}
	for (size_t i = 0; i < sizeof(hdr) / sizeof(hdr[0]); i++) {
		unsigned status = 0;
		size_t len = 0;
		uint64_t tag = 0;
		char type[64];
		int rc = ww_ipc_parse_header(hdr[i].line, &status, &len, &tag, type, sizeof(type));

		if (rc != hdr[i].rc)
			printf("header \"%s\": %d, want %d\n", hdr[i].line, rc, hdr[i].rc);
		CHECK(rc == hdr[i].rc);
		if (!rc)
			CHECK(status == hdr[i].status && len == hdr[i].len && tag == hdr[i].tag &&
			      !strcmp(type, hdr[i].type));
	}
}

/* A fake collector for test_kept_order: the first exchange's answer is held
 * until the second has ended. */
static struct {
	int lfd;
	sem_t first_read, second_done;
	char third[160]; /* the third request line as it came */
} fake;

static int accept_line(char *line, size_t cap)
{
	int fd = accept(fake.lfd, NULL, NULL);
	size_t n = 0;

	while (fd >= 0 && n + 1 < cap && read(fd, line + n, 1) == 1 && line[n] != '\n')
		n++;
	line[n] = 0;
	return fd;
}

static void send_all(int fd, const char *s)
{
	size_t n = strlen(s), off = 0;
	ssize_t w;

	while (off < n && (w = write(fd, s + off, n - off)) > 0)
		off += (size_t)w;
	close(fd);
}

static void *fake_collector(void *arg)
{
	char line[160];
	int first, second;

	(void)arg;
	first = accept_line(line, sizeof(line));
	sem_post(&fake.first_read);
	second = accept_line(line, sizeof(line));
	send_all(second, "WW2 200 4 200 text/plain\nnew\n");
	sem_wait(&fake.second_done);
	send_all(first, "WW2 200 4 100 text/plain\nold\n");
	send_all(accept_line(fake.third, sizeof(fake.third)), "WW2 304 0 200 text/plain\n");
	return NULL;
}

static void *ask_metrics(void *arg)
{
	ww_route_reply_t *r = arg;

	if (ww_ipc_request(sock_path, "/metrics", 30000, r))
		r->status = 0; /* failed: nothing to free */
	return NULL;
}

/* Two exchanges for the same path that end out of order: the one that
 * started first ends last with the older body (tag 100), and the kept copy
 * stays the newer one (tag 200), so the next request asks by its tag and is
 * answered 304 with those bytes. */
static void test_kept_order(void)
{
	char dir[] = "/tmp/ww-ipco-XXXXXX";
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	ww_route_reply_t ra, rb, rc;
	pthread_t srv, ta, tb;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(sock_path, sizeof(sock_path), "%s/fake.sock", dir);
	strcpy(a.sun_path, sock_path);
	fake.lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	CHECK(fake.lfd >= 0 && !bind(fake.lfd, (struct sockaddr *)&a, sizeof(a)) &&
	      !listen(fake.lfd, 4));
	sem_init(&fake.first_read, 0, 0);
	sem_init(&fake.second_done, 0, 0);
	pthread_create(&srv, NULL, fake_collector, NULL);
	pthread_create(&ta, NULL, ask_metrics, &ra);
	sem_wait(&fake.first_read); /* the first exchange has started */
	pthread_create(&tb, NULL, ask_metrics, &rb);
	pthread_join(tb, NULL);
	sem_post(&fake.second_done);
	pthread_join(ta, NULL);
	CHECK(rb.status == 200 && rb.shared && rb.shared->tag == 200 && !strcmp(rb.body, "new\n"));
	CHECK(ra.status == 200 && ra.shared && ra.shared->tag == 100 && !strcmp(ra.body, "old\n"));
	ww_route_reply_free(&ra);
	ww_route_reply_free(&rb);
	ask_metrics(&rc);
	pthread_join(srv, NULL);
	CHECK(!strcmp(fake.third, "GET /metrics 200"));
	CHECK(rc.status == 200 && rc.body && !strcmp(rc.body, "new\n"));
	ww_route_reply_free(&rc);
	close(fake.lfd);
	unlink(sock_path);
	rmdir(dir);
}

int main(void)
{
	test_lines();
	test_tags();
	test_kept_order();
	test_slow_clients();
	test_history_loops();
	return ww_test_done("test_http_ipc");
}
