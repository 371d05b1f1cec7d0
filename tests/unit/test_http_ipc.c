/* Collector IPC server (src/http/ipc.c) against clients that misbehave:
 * idle connections, a request trickled in byte by byte, a client that never
 * reads its answer. A normal request must still be answered within 1 s
 * (the adversarial finding: 3 idle connections made the web side answer 503,
 * because the server served one connection at a time, waiting 5 s each).
 *
 * History queries looped over the collector socket (src/http/ipc.c) must not
 * hold /metrics: before, the one server thread rendered each query itself
 * (web /metrics p50 1.07 s with one loop, 3.67 s with four). Four threads
 * loop history queries of a drive with 600 000 samples (inserted with SQL
 * into the service's schema, as test_history_query.c does) while /metrics is
 * asked 20 times; none may wait behind them (1 s: before, seconds). More queries than the
 * pool takes are answered 503 at once, not queued without end. */
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

static long long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* GET /healthz with a 1 s budget; returns the time taken or -1 */
static long long healthz_ms(void)
{
	ww_route_reply_t r;
	long long t0 = ms_now();
	int rc = ww_ipc_request(sock_path, "/healthz", 1000, &r);
	bool ok = !rc && r.status == 200 && r.body && !strcmp(r.body, "ok\n");

	free(r.body);
	return ok ? ms_now() - t0 : -1;
}

static void *loop(void *arg)
{
	int k = (int)(long)arg;

	while (!stop_loops) {
		ww_route_reply_t r;

		if (ww_ipc_request(sock_path, "/api/v1/drives/ata-BIG/history?metric="
				   "temperature_celsius&from=0&max_points=10000", 10000, &r) == 0) {
			answered[k] += r.status == 200;
			busy[k] += r.status == 503;
		}
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

/* idle, trickling and deaf clients: /healthz still within 1 s */
static void test_slow_clients(void)
{
	char dir[] = "/tmp/ww-ipc-XXXXXX";
	ww_store_t *st = ww_store_new(0);
	ww_ipc_server_t *srv;
	int idle[40], slow, deaf, err = 0;
	long long t;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(sock_path, sizeof(sock_path), "%s/c.sock", dir);
	srv = ww_ipc_server_start(sock_path, &(ww_route_src_t){ .store = st }, &err);
	CHECK(srv != NULL);
	if (!srv)
		return;

	t = healthz_ms();
	CHECK(t >= 0 && t < 1000); /* baseline */

	/* 3 idle connections (the reproducer) */
	for (int i = 0; i < 3; i++)
		idle[i] = connect_raw();
	t = healthz_ms();
	CHECK(t >= 0 && t < 1000);

	/* plus a client trickling "GET /metrics" one byte at a time, and one
	 * that sends a request and never reads: neither may hold the server */
	slow = connect_raw();
	CHECK(write(slow, "GE", 2) == 2);
	deaf = connect_raw();
	CHECK(write(deaf, "GET /api/v1/drives\n", 19) == 19);
	shutdown(deaf, SHUT_RD);
	t = healthz_ms();
	CHECK(t >= 0 && t < 1000);
	CHECK(write(slow, "T", 1) == 1);
	t = healthz_ms();
	CHECK(t >= 0 && t < 1000);

	/* more idle connections than the server keeps: the oldest are dropped,
	 * the newcomer is answered */
	for (int i = 3; i < 40; i++)
		idle[i] = connect_raw();
	t = healthz_ms();
	CHECK(t >= 0 && t < 1000);

	/* the newest idle connection was kept (the oldest were dropped) and is
	 * closed by the server after its request deadline (EOF on read), so
	 * idle clients cannot pin slots forever */
	{
		char c;
		long long t0 = ms_now();
		ssize_t n;

		n = read(idle[39], &c, 1); /* blocks until the server closes */
		CHECK(n == 0);
		t = ms_now() - t0;
		CHECK(t >= 500 && t < 5000);
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
	pthread_t th[4];
	long long worst = 0;
	int err = 0, total = 0;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/history.db", dir);
	CHECK_EQ_I64(ww_history_open(path, NULL, &h, NULL, 0), 0);
	seed(path, (long long)time(NULL));
	svc = ww_store_endurance_new(NULL, NULL, h);
	snprintf(sock_path, sizeof(sock_path), "%s/c.sock", dir);
	srv = ww_ipc_server_start(sock_path, &(ww_route_src_t){ .store = st, .endurance = svc }, &err);
	CHECK(srv != NULL);
	for (long k = 0; k < 4; k++)
		pthread_create(&th[k], NULL, loop, (void *)k);
	usleep(300000);
	for (int i = 0; i < 20; i++) {
		ww_route_reply_t r;
		long long t = ms_now();
		int rc = ww_ipc_request(sock_path, "/metrics", 5000, &r);

		t = ms_now() - t;
		CHECK(rc == 0 && r.status == 200);
		free(r.body);
		worst = t > worst ? t : worst;
		usleep(50000);
	}
	stop_loops = 1;
	for (int k = 0; k < 4; k++) {
		pthread_join(th[k], NULL);
		total += answered[k];
	}
	printf("4 history loops over %d samples (%d answered): slowest /metrics %lld ms\n", N,
	       total, worst);
	CHECK(total > 0);
	CHECK(worst < 1000);
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
