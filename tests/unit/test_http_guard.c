/* What keeps one HTTP client from stalling or locking out the others
 * (src/http/guard.c), without a server: the whole-request deadline shuts a
 * socket down whatever it sends (a socketpair stands for the connection),
 * failed logins are limited per address (IPv4 address, IPv6 /64) and refill
 * with time, and the login cache holds a salted hash of user:password. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "http/guard.h"
#include "ww_test.h"

#define REFILL_MS 2000 /* shorter than the default (WW_HTTP_AUTH_REFILL_MS) */

static struct sockaddr_in v4(const char *a)
{
	struct sockaddr_in s = { .sin_family = AF_INET };

	inet_pton(AF_INET, a, &s.sin_addr);
	return s;
}

static struct sockaddr_in6 v6(const char *a)
{
	struct sockaddr_in6 s = { .sin6_family = AF_INET6 };

	inet_pton(AF_INET6, a, &s.sin6_addr);
	return s;
}

static void test_deadline(ww_guard_t *g)
{
	int sv[2];
	char b;
	ww_gconn_t *c;

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	c = ww_guard_conn_open(g, sv[0], NULL);
	/* a byte every 100 ms does not extend it: shut down at the deadline
	 * (5 s) all the same; 60 s only bounds a guard that never does. The
	 * check is that it happens, and not at once, whatever this machine's
	 * speed. */
	CHECK(send(sv[1], "x", 1, MSG_NOSIGNAL) == 1);
	CHECK_EQ_U64(ww_guard_reaped(g), 0);
	for (int i = 0; i < 600 && !ww_guard_reaped(g); i++) {
		send(sv[1], "x", 1, MSG_NOSIGNAL); /* fails once shut down */
		usleep(100000);
	}
	CHECK_EQ_U64(ww_guard_reaped(g), 1);
	while (read(sv[0], &b, 1) == 1)
		;
	CHECK(read(sv[0], &b, 1) == 0); /* end of file: what the server sees */
	/* in WORK no deadline; SEND has 30 s */
	ww_guard_conn_phase(g, c, WW_GC_WORK);
	ww_guard_conn_close(g, c);
	close(sv[0]);
	close(sv[1]);
}

static void test_limits(ww_guard_t *g)
{
	struct sockaddr_in a = v4("127.0.0.50"), b = v4("127.0.0.51");
	struct sockaddr_in6 c = v6("2001:db8::1"), d = v6("2001:db8::2"), e = v6("2001:db8:0:1::1");
	unsigned retry = 0;

	/* WW_HTTP_AUTH_BURST failures, then refused for ~2 s */
	for (int i = 0; i < WW_HTTP_AUTH_BURST; i++) {
		CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&a, &retry), 0);
		ww_guard_auth_done(g, (struct sockaddr *)&a, false);
	}
	CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&a, &retry), -EAGAIN);
	CHECK(retry >= 1 && retry <= REFILL_MS / 1000 + 1);
	/* asked first, before any hashing: blocked, another address not */
	CHECK(ww_guard_auth_blocked(g, (struct sockaddr *)&a, &retry));
	CHECK(!ww_guard_auth_blocked(g, (struct sockaddr *)&b, &retry));
	/* another address is not concerned */
	CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&b, &retry), 0);
	ww_guard_auth_done(g, (struct sockaddr *)&b, true);
	/* WW_HTTP_AUTH_PENDING checks running per address at most, then busy */
	for (int i = 0; i < WW_HTTP_AUTH_PENDING; i++)
		CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&b, &retry), 0);
	CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&b, &retry), -EBUSY);
	for (int i = 0; i < WW_HTTP_AUTH_PENDING; i++)
		ww_guard_auth_done(g, (struct sockaddr *)&b, true);
	CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&b, &retry), 0);
	ww_guard_auth_done(g, (struct sockaddr *)&b, true);
	/* IPv6: one /64 shares one budget */
	for (int i = 0; i < WW_HTTP_AUTH_BURST; i++) {
		CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)(i % 2 ? &c : &d), &retry), 0);
		ww_guard_auth_done(g, (struct sockaddr *)(i % 2 ? &c : &d), false);
	}
	CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&d, &retry), -EAGAIN);
	CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&e, &retry), 0);
	ww_guard_auth_done(g, (struct sockaddr *)&e, true);
	/* a token comes back after the refill period: one, not the burst
	 * (waited for, bounded, rather than slept: a loaded machine oversleeps) */
	CHECK_EQ_U64(ww_guard_refill_ms(g), REFILL_MS);
	for (int i = 0; i < 600 && ww_guard_auth_blocked(g, (struct sockaddr *)&a, &retry); i++)
		usleep(50000);
	CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&a, &retry), 0);
	ww_guard_auth_done(g, (struct sockaddr *)&a, false);
	CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&a, &retry), -EAGAIN);
}

static void test_cache(ww_guard_t *g)
{
	char k1[WW_HTTP_AUTH_KEY_LEN], k2[WW_HTTP_AUTH_KEY_LEN];

	CHECK_EQ_I64(ww_guard_auth_key(g, "alice", "U*U", k1), 0);
	CHECK_EQ_I64(ww_guard_auth_key(g, "alice", "U*V", k2), 0);
	/* 64 hex digits of HMAC-SHA256, the same for the same login, another
	 * for another password, another in another process (its own key) */
	CHECK_EQ_U64(strlen(k1), 64);
	CHECK_EQ_U64(strspn(k1, "0123456789abcdef"), 64);
	CHECK(strcmp(k1, k2) != 0);
	{
		char k3[WW_HTTP_AUTH_KEY_LEN], big[WW_HTTP_AUTH_INPUT_MAX + 1];
		ww_guard_t *other = ww_guard_start(0, 0);

		CHECK_EQ_I64(ww_guard_auth_key(g, "alice", "U*U", k3), 0);
		CHECK_STR(k3, k1);
		CHECK(other != NULL);
		if (other) {
			CHECK_EQ_I64(ww_guard_auth_key(other, "alice", "U*U", k3), 0);
			CHECK(strcmp(k3, k1) != 0);
			ww_guard_stop(other);
		}
		/* "alice:" + 506 bytes is the longest login checked */
		memset(big, 'x', sizeof(big) - 1);
		big[WW_HTTP_AUTH_INPUT_MAX - 6] = '\0';
		CHECK_EQ_I64(ww_guard_auth_key(g, "alice", big, k3), 0);
		big[WW_HTTP_AUTH_INPUT_MAX - 6] = 'x';
		big[WW_HTTP_AUTH_INPUT_MAX - 5] = '\0';
		CHECK_EQ_I64(ww_guard_auth_key(g, "alice", big, k3), -EINVAL);
	}
	CHECK(!ww_guard_cache_has(g, k1));
	ww_guard_cache_put(g, k1, NULL);
	CHECK(ww_guard_cache_has(g, k1));
	CHECK(!ww_guard_cache_has(g, k2));
	/* least recently used out: 64 others push k1 out */
	for (int i = 0; i < WW_HTTP_AUTH_CACHE; i++) {
		char pw[16];

		snprintf(pw, sizeof(pw), "pw%d", i);
		CHECK_EQ_I64(ww_guard_auth_key(g, "bob", pw, k2), 0);
		ww_guard_cache_put(g, k2, NULL);
	}
	CHECK(!ww_guard_cache_has(g, k1));
	CHECK(ww_guard_cache_has(g, k2));
}

/* No connection, no wake-up: the reaper makes one pass at start and then
 * sleeps until a connection gives it a deadline (a count, not a time: a
 * slow machine makes fewer passes, never more). */
static void test_idle(void)
{
	ww_guard_t *g = ww_guard_start(REFILL_MS, 0);
	uint64_t w0, w1;
	ww_gconn_t *c;
	int sv[2];

	CHECK(g != NULL);
	if (!g)
		return;
	for (int i = 0; i < 100 && !ww_guard_wakeups(g); i++)
		usleep(10000);
	w0 = ww_guard_wakeups(g);
	CHECK_EQ_U64(w0, 1);
	usleep(1000000);
	CHECK_EQ_U64(ww_guard_wakeups(g), w0); /* the 200 ms tick made 5 */
	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	c = ww_guard_conn_open(g, sv[0], NULL);
	for (int i = 0; i < 100 && ww_guard_wakeups(g) == w0; i++)
		usleep(10000);
	w1 = ww_guard_wakeups(g);
	CHECK(w1 > w0); /* woken for the new deadline */
	ww_guard_conn_close(g, c);
	usleep(300000);
	/* the pass at the closed connection's deadline (5 s away) is all that
	 * is left: nothing meanwhile */
	CHECK_EQ_U64(ww_guard_wakeups(g), w1);
	close(sv[0]);
	close(sv[1]);
	ww_guard_stop(g);
}

/* Wrong passwords rotated over more addresses than the guard has slots
 * (600 > 512: each new address took over an old slot with a full budget)
 * were never limited. The budget all addresses share stops them after
 * WW_HTTP_AUTH_GLOBAL_BURST failures; successes spend nothing. */
static void test_global_budget(void)
{
	ww_guard_t *g = ww_guard_start(600000, 0); /* no refill within the test */
	unsigned retry = 0, admitted = 0;

	CHECK(g != NULL);
	if (!g)
		return;
	for (int i = 0; i < 600; i++) {
		char a[32];
		struct sockaddr_in s;

		snprintf(a, sizeof(a), "10.%d.%d.1", i / 250, i % 250);
		s = v4(a);
		if (ww_guard_auth_admit(g, (struct sockaddr *)&s, &retry) == 0) {
			admitted++;
			ww_guard_auth_done(g, (struct sockaddr *)&s, false);
		}
	}
	printf("600 addresses, one wrong password each: %u checked, %llu refused by the shared "
	       "budget\n",
	       admitted, (unsigned long long)ww_guard_auth_global_refused(g));
	CHECK_EQ_U64(admitted, WW_HTTP_AUTH_GLOBAL_BURST);
	CHECK_EQ_U64(ww_guard_auth_global_refused(g), 600 - WW_HTTP_AUTH_GLOBAL_BURST);
	/* while it is spent: an address a login passed from before is still
	 * checked (a Prometheus whose cached login was pushed out, or whose
	 * password changed), a new one is not; only a success enters */
	{
		struct sockaddr_in prom = v4("192.0.2.7"), fresh = v4("192.0.2.8");
		char k[WW_HTTP_AUTH_KEY_LEN];

		CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&prom, &retry), -EAGAIN);
		CHECK_EQ_I64(ww_guard_auth_key(g, "prom", "right", k), 0);
		ww_guard_cache_put(g, k, (struct sockaddr *)&prom);
		for (int i = 0; i < 3; i++) {
			CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&prom, &retry), 0);
			ww_guard_auth_done(g, (struct sockaddr *)&prom, true);
		}
		CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&fresh, &retry), -EAGAIN);
		/* its own failures are still limited by its per-address budget */
		for (int i = 0; i < WW_HTTP_AUTH_BURST; i++) {
			CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&prom, &retry), 0);
			ww_guard_auth_done(g, (struct sockaddr *)&prom, false);
		}
		CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&prom, &retry), -EAGAIN);
	}
	ww_guard_stop(g);
	/* checks admitted and not yet done count against it: slow checks do
	 * not let a queue of guesses in behind them */
	g = ww_guard_start(600000, 0);
	for (int i = 0; g && i <= WW_HTTP_AUTH_GLOBAL_BURST; i++) {
		char a[32];
		struct sockaddr_in s;

		snprintf(a, sizeof(a), "10.9.%d.1", i);
		s = v4(a);
		CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&s, &retry),
			     i < WW_HTTP_AUTH_GLOBAL_BURST ? 0 : -EAGAIN);
	}
	if (g) {
		struct sockaddr_in s0 = v4("10.9.0.1"), s1 = v4("10.9.77.1");

		ww_guard_auth_done(g, (struct sockaddr *)&s0, true); /* one passed */
		CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&s1, &retry), 0);
		ww_guard_stop(g);
	}
	/* a good login spends nothing of it */
	g = ww_guard_start(600000, 0);
	for (int i = 0; g && i < 2 * WW_HTTP_AUTH_GLOBAL_BURST; i++) {
		struct sockaddr_in s = v4("127.0.0.9");

		CHECK_EQ_I64(ww_guard_auth_admit(g, (struct sockaddr *)&s, &retry), 0);
		ww_guard_auth_done(g, (struct sockaddr *)&s, true);
	}
	ww_guard_stop(g);
}

/* Past seven eighths of the connection limit a new connection closes the
 * oldest kept-alive one waiting for its next request, else the oldest
 * still receiving; never one being worked on or answered (a socketpair
 * stands for each; the peer reads end of file when it is closed). */
static void test_eviction(void)
{
	ww_guard_t *g = ww_guard_start(REFILL_MS, 16); /* room for 14 */
	ww_gconn_t *c[16];
	int sv[16][2], closed[16] = { 0 };
	char b;

	CHECK(g != NULL);
	if (!g)
		return;
	for (int i = 0; i < 14; i++) {
		CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv[i]) == 0);
		c[i] = ww_guard_conn_open(g, sv[i][0], NULL);
		/* 0-3 work, 4-7 answer, 8-13 answered and kept alive (8 first) */
		ww_guard_conn_phase(g, c[i], WW_GC_WORK);
		if (i >= 4)
			ww_guard_conn_phase(g, c[i], WW_GC_SEND);
		if (i >= 8)
			ww_guard_conn_phase(g, c[i], WW_GC_RECV);
		usleep(2000); /* distinct ages: the order is the test */
	}
	/* 9's next request began: it is no longer idle */
	ww_guard_conn_begun(g, c[9]);
	CHECK_EQ_U64(ww_guard_evicted(g), 0);
	/* two more: 8 and 10 closed, the oldest idle ones */
	for (int i = 14; i < 16; i++) {
		CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv[i]) == 0);
		c[i] = ww_guard_conn_open(g, sv[i][0], NULL);
	}
	for (int i = 0; i < 16; i++) {
		fcntl(sv[i][1], F_SETFL, O_NONBLOCK);
		closed[i] = read(sv[i][1], &b, 1) == 0;
	}
	CHECK_EQ_U64(ww_guard_evicted(g), 2);
	CHECK(closed[8] && closed[10]);
	for (int i = 0; i < 16; i++)
		if (i != 8 && i != 10)
			CHECK(!closed[i]);
	/* three more close 11, 12, 13; then no idle one is left: the fourth
	 * closes the oldest receiving, 9 (14 and 15 came later) */
	for (int k = 0; k < 4; k++) {
		int sp[2];

		CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0);
		ww_guard_conn_close(g, ww_guard_conn_open(g, sp[0], NULL));
		close(sp[0]);
		close(sp[1]);
	}
	for (int i = 0; i < 16; i++)
		closed[i] = read(sv[i][1], &b, 1) == 0;
	CHECK_EQ_U64(ww_guard_evicted(g), 6);
	CHECK(closed[11] && closed[12] && closed[13] && closed[9]);
	CHECK(!closed[14] && !closed[15]);
	for (int i = 0; i < 8; i++)
		CHECK(!closed[i]); /* being worked on or answered */
	for (int i = 0; i < 16; i++) {
		ww_guard_conn_close(g, c[i]);
		close(sv[i][0]);
		close(sv[i][1]);
	}
	ww_guard_stop(g);
}

int main(void)
{
	ww_guard_t *g = ww_guard_start(REFILL_MS, 0);

	CHECK(g != NULL);
	if (!g)
		return ww_test_done("test_http_guard");
	test_limits(g);
	test_cache(g);
	test_deadline(g);
	ww_guard_stop(g);
	test_idle();
	test_global_budget();
	test_eviction();
	return ww_test_done("test_http_guard");
}
