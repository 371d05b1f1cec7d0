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

	free(r.body);
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
		free(r.body);
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
		free(r.body);
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

int main(void)
{
	test_slow_clients();
	test_history_loops();
	return ww_test_done("test_http_ipc");
}
