/* Collector IPC server (src/http/ipc.c) against clients that misbehave:
 * idle connections, a request trickled in byte by byte, a client that never
 * reads its answer. A normal request must still be answered within 1 s
 * (the adversarial finding: 3 idle connections made the web side answer 503,
 * because the server served one connection at a time, waiting 5 s each). */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "wearwatch/http.h"
#include "ww_test.h"

static char sock_path[108];

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

int main(void)
{
	char dir[] = "/tmp/ww-ipc-XXXXXX";
	ww_store_t *st = ww_store_new(0);
	ww_ipc_server_t *srv;
	int idle[40], slow, deaf, err = 0;
	long long t;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(sock_path, sizeof(sock_path), "%s/c.sock", dir);
	srv = ww_ipc_server_start(sock_path, st, &err);
	CHECK(srv != NULL);
	if (!srv)
		return ww_test_done("test_http_ipc");

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
	return ww_test_done("test_http_ipc");
}
