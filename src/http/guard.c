/* Deadlines, failed-login limits and the login cache (see guard.h). */
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>

#include "wearwatch/basic.h"
#include "http/guard.h"
#include "http/jobs.h"
#include "http/mhd.h"

#define ADDR_SLOTS 512

struct ww_gconn {
	int fd;
	ww_gc_phase_t phase;
	long long since_ms;
	bool idle; /* kept alive after an answer, no request begun */
	ww_gconn_t *prev, *next;
};

/* a source address (IPv4, or the /64 of IPv6) and its login tokens */
struct addr_slot {
	uint8_t key[16];
	bool used;
	double tokens;
	long long last_ms;     /* last refill, and last use for eviction */
	unsigned pending;
};

struct ww_guard {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t reaper;
	bool stop;
	ww_gconn_t *conns;
	uint64_t reaped;
	uint64_t wakeups;  /* passes of the reaper over the connections */
	long long next_ms; /* the reaper's next pass (monotonic ms), -1 none */
	unsigned refill_ms;
	unsigned conn_soft; /* connections before the oldest is closed */
	unsigned nconns;
	uint64_t evicted;
	uint64_t global_refused;
	double gtokens;    /* failed logins of every address together */
	unsigned gpending; /* checks admitted and not done: each may fail */
	long long glast_ms;
	struct addr_slot addrs[ADDR_SLOTS];
	/* the cache keys' HMAC key: random bytes drawn at start (this process
	 * only) */
	uint8_t mac_key[32];
	struct { char key[WW_HTTP_AUTH_KEY_LEN]; long long used_ms; } cache[WW_HTTP_AUTH_CACHE];
	/* addresses a login passed from (only a success puts one here, so a
	 * rotating guesser cannot push them out): the shared budget does not
	 * hold them back */
	struct {
		uint8_t key[16];
		long long used_ms;
		bool used;
	} good[WW_HTTP_AUTH_GOOD];
};

static long long deadline_of(const ww_gconn_t *c)
{
	switch (c->phase) {
	case WW_GC_RECV:
		return c->since_ms + WW_HTTP_RECV_DEADLINE_MS;
	case WW_GC_SEND:
		return c->since_ms + WW_HTTP_SEND_DEADLINE_MS;
	default:
		return -1; /* the job's own timeout bounds it */
	}
}

/* The reaper sleeps until the earliest deadline of a connection, and
 * without any until a connection is opened or changes phase: an idle
 * service has no periodic wake-up (a 200 ms tick cost 5 wakeups a second
 * for nothing). */
static void *reaper(void *arg)
{
	ww_guard_t *g = arg;

	pthread_mutex_lock(&g->lock);
	while (!g->stop) {
		long long now = ww_http_now_ms(), next = -1;
		struct timespec ts;

		g->wakeups++;
		for (ww_gconn_t *c = g->conns; c; c = c->next) {
			long long d = deadline_of(c);

			if (d < 0 || c->fd < 0)
				continue;
			/* shutdown, not close: the fd stays libmicrohttpd's, which
			 * sees end of file and closes it; the lock keeps it from
			 * being closed (and reused) meanwhile (conn_close) */
			if (now >= d) {
				shutdown(c->fd, SHUT_RDWR);
				c->fd = -1;
				g->reaped++;
			} else if (next < 0 || d < next) {
				next = d;
			}
		}
		g->next_ms = next;
		if (next < 0) {
			pthread_cond_wait(&g->cond, &g->lock);
		} else {
			ts = ww_clock_deadline_ms(next - now);
			pthread_cond_timedwait(&g->cond, &g->lock, &ts);
		}
	}
	pthread_mutex_unlock(&g->lock);
	return NULL;
}

ww_guard_t *ww_guard_start(unsigned refill_ms, unsigned conn_limit)
{
	ww_guard_t *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->refill_ms = refill_ms ? refill_ms : WW_HTTP_AUTH_REFILL_MS;
	/* room kept free below libmicrohttpd's limit, which turns a new
	 * connection away unanswered: an eighth, at least one */
	g->conn_soft = conn_limit ? conn_limit - (conn_limit / 8 ? conn_limit / 8 : 1) : 0;
	g->gtokens = WW_HTTP_AUTH_GLOBAL_BURST;
	g->glast_ms = ww_http_now_ms();
	/* HMAC-SHA256 through GnuTLS (mhd.h: mapped already where a front
	 * runs), keyed with 32 random bytes */
	if (ww_gnutls_load(NULL, 0) ||
	    getrandom(g->mac_key, sizeof(g->mac_key), 0) != (ssize_t)sizeof(g->mac_key)) {
		free(g);
		return NULL;
	}
	g->next_ms = -1;
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	if (pthread_create(&g->reaper, NULL, reaper, g)) {
		pthread_mutex_destroy(&g->lock);
		pthread_cond_destroy(&g->cond);
		explicit_bzero(g->mac_key, sizeof(g->mac_key));
		free(g);
		return NULL;
	}
	pthread_setname_np(g->reaper, "ww-deadlines");
	return g;
}

unsigned ww_guard_refill_ms(const ww_guard_t *g)
{
	return g->refill_ms;
}

void ww_guard_stop(ww_guard_t *g)
{
	if (!g)
		return;
	pthread_mutex_lock(&g->lock);
	g->stop = true;
	pthread_cond_signal(&g->cond);
	pthread_mutex_unlock(&g->lock);
	pthread_join(g->reaper, NULL);
	while (g->conns)
		ww_guard_conn_close(g, g->conns);
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->cond);
	explicit_bzero(g->cache, sizeof(g->cache));
	explicit_bzero(g->mac_key, sizeof(g->mac_key));
	free(g);
}

/* c's deadline is new: wake the reaper when it comes before the reaper's
 * next pass (lock held) */
static void wake_for(ww_guard_t *g, const ww_gconn_t *c)
{
	long long d = deadline_of(c);

	if (d >= 0 && (g->next_ms < 0 || d < g->next_ms)) {
		g->next_ms = d;
		pthread_cond_signal(&g->cond);
	}
}

/* Over the soft limit: the oldest connection kept alive with no request
 * begun is shut down (libmicrohttpd then closes it), else the oldest still
 * receiving its first request; never one being worked on or answered.
 * Kept-alive clients of 16 addresses held all 1024 slots and a scraper's
 * new connection was turned away; a client whose idle connection is closed
 * reconnects at its next request. Lock held. */
static void evict_locked(ww_guard_t *g, const ww_gconn_t *except)
{
	ww_gconn_t *idle = NULL, *recv = NULL;

	for (ww_gconn_t *c = g->conns; c; c = c->next) {
		if (c == except || c->fd < 0 || c->phase != WW_GC_RECV)
			continue;
		if (c->idle && (!idle || c->since_ms < idle->since_ms))
			idle = c;
		else if (!c->idle && (!recv || c->since_ms < recv->since_ms))
			recv = c;
	}
	if (!idle)
		idle = recv;
	if (idle) {
		shutdown(idle->fd, SHUT_RDWR);
		idle->fd = -1;
		g->evicted++;
	}
}

ww_gconn_t *ww_guard_conn_open(ww_guard_t *g, int fd, const struct sockaddr *sa)
{
	ww_gconn_t *c = calloc(1, sizeof(*c));

	(void)sa;
	if (!c)
		return NULL;
	c->fd = fd;
	c->phase = WW_GC_RECV;
	c->since_ms = ww_http_now_ms();
	pthread_mutex_lock(&g->lock);
	c->next = g->conns;
	if (g->conns)
		g->conns->prev = c;
	g->conns = c;
	if (++g->nconns > g->conn_soft && g->conn_soft)
		evict_locked(g, c);
	wake_for(g, c);
	pthread_mutex_unlock(&g->lock);
	return c;
}

void ww_guard_conn_close(ww_guard_t *g, ww_gconn_t *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&g->lock);
	if (c->prev)
		c->prev->next = c->next;
	else
		g->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	g->nconns--;
	pthread_mutex_unlock(&g->lock);
	free(c);
}

void ww_guard_conn_phase(ww_guard_t *g, ww_gconn_t *c, ww_gc_phase_t p)
{
	if (!c)
		return;
	pthread_mutex_lock(&g->lock);
	/* RECV again after an answer: kept alive, idle until a request begins */
	c->idle = p == WW_GC_RECV && (c->phase != WW_GC_RECV || c->idle);
	c->phase = p;
	c->since_ms = ww_http_now_ms();
	wake_for(g, c);
	pthread_mutex_unlock(&g->lock);
}

void ww_guard_conn_begun(ww_guard_t *g, ww_gconn_t *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&g->lock);
	c->idle = false;
	pthread_mutex_unlock(&g->lock);
}

/* one counter of g read under its lock */
static uint64_t counter(ww_guard_t *g, const uint64_t *c)
{
	uint64_t n;

	pthread_mutex_lock(&g->lock);
	n = *c;
	pthread_mutex_unlock(&g->lock);
	return n;
}

uint64_t ww_guard_auth_global_refused(ww_guard_t *g)
{
	return counter(g, &g->global_refused);
}

uint64_t ww_guard_evicted(ww_guard_t *g)
{
	return counter(g, &g->evicted);
}

uint64_t ww_guard_wakeups(ww_guard_t *g)
{
	return counter(g, &g->wakeups);
}

uint64_t ww_guard_reaped(ww_guard_t *g)
{
	return counter(g, &g->reaped);
}

/* IPv4 (also v4-mapped) as its 4 bytes, IPv6 as its /64: one host holds a
 * /64, and counting its addresses one by one would give it 2^64 budgets */
static void addr_key(const struct sockaddr *sa, uint8_t key[16])
{
	memset(key, 0, 16);
	if (sa && sa->sa_family == AF_INET) {
		memcpy(key, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (sa && sa->sa_family == AF_INET6) {
		const uint8_t *a = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
		static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

		if (!memcmp(a, mapped, 12)) {
			memcpy(key, a + 12, 4);
		} else {
			key[4] = 6; /* not an IPv4 key */
			memcpy(key + 8, a, 8);
		}
	}
}

/* the slot of sa (refilled up to now), a new one, or the least recently
 * used one taken over; under the lock */
static struct addr_slot *slot_locked(ww_guard_t *g, const struct sockaddr *sa, long long now)
{
	struct addr_slot *free_s = NULL, *old = NULL, *s = NULL;
	uint8_t key[16];

	addr_key(sa, key);
	for (int i = 0; i < ADDR_SLOTS && !s; i++) {
		struct addr_slot *x = &g->addrs[i];

		if (x->used && !memcmp(x->key, key, 16))
			s = x;
		else if (!x->used && !free_s)
			free_s = x;
		else if (x->used && !x->pending && (!old || x->last_ms < old->last_ms))
			old = x;
	}
	if (!s) {
		s = free_s ? free_s : old;
		if (!s)
			return NULL;
		memset(s, 0, sizeof(*s));
		memcpy(s->key, key, 16);
		s->used = true;
		s->tokens = WW_HTTP_AUTH_BURST;
		s->last_ms = now;
	}
	s->tokens += (double)(now - s->last_ms) / g->refill_ms;
	if (s->tokens > WW_HTTP_AUTH_BURST)
		s->tokens = WW_HTTP_AUTH_BURST;
	s->last_ms = now;
	return s;
}

/* the budget of failed checks all addresses share, refilled up to now: an
 * attacker rotating over more addresses than there are slots (each new one
 * has a full per-address budget) is limited by this one. Lock held. */
static void global_refill_locked(ww_guard_t *g, long long now)
{
	g->gtokens += (double)(now - g->glast_ms) * WW_HTTP_AUTH_GLOBAL_BURST /
		((double)g->refill_ms * WW_HTTP_AUTH_GLOBAL_REFILLS);
	if (g->gtokens > WW_HTTP_AUTH_GLOBAL_BURST)
		g->gtokens = WW_HTTP_AUTH_GLOBAL_BURST;
	g->glast_ms = now;
}

/* Is sa in the table of addresses a login passed from? With put, it is
 * now (the least recently used one out when full). Lock held. */
static bool good_locked(ww_guard_t *g, const struct sockaddr *sa, bool put)
{
	uint8_t key[16];
	int victim = 0;

	addr_key(sa, key);
	for (int i = 0; i < WW_HTTP_AUTH_GOOD; i++) {
		if (g->good[i].used && !memcmp(g->good[i].key, key, 16)) {
			if (put)
				g->good[i].used_ms = ww_http_now_ms();
			return true;
		}
		if (!g->good[i].used ||
		    (g->good[victim].used && g->good[i].used_ms < g->good[victim].used_ms))
			victim = i;
	}
	if (put) {
		memcpy(g->good[victim].key, key, 16);
		g->good[victim].used = true;
		g->good[victim].used_ms = ww_http_now_ms();
	}
	return false;
}

static unsigned retry_of(const ww_guard_t *g, const struct addr_slot *s)
{
	return s && s->tokens < 1 ? (unsigned)((1 - s->tokens) * g->refill_ms / 1000) + 1 : 1;
}

bool ww_guard_auth_blocked(ww_guard_t *g, const struct sockaddr *sa, unsigned *retry_s)
{
	struct addr_slot *s;
	bool blocked;

	pthread_mutex_lock(&g->lock);
	s = slot_locked(g, sa, ww_http_now_ms());
	blocked = s && s->tokens < 1;
	*retry_s = retry_of(g, s);
	pthread_mutex_unlock(&g->lock);
	return blocked;
}

int ww_guard_auth_admit(ww_guard_t *g, const struct sockaddr *sa, unsigned *retry_s)
{
	long long now = ww_http_now_ms();
	struct addr_slot *s;
	int rc = 0;

	pthread_mutex_lock(&g->lock);
	s = slot_locked(g, sa, now);
	global_refill_locked(g, now);
	if (!s || s->tokens < 1) {
		*retry_s = retry_of(g, s);
		rc = -EAGAIN;
	} else if (g->gtokens - g->gpending < 1 && !good_locked(g, sa, false)) {
		*retry_s = 1;
		g->global_refused++;
		rc = -EAGAIN;
	} else if (s->pending >= WW_HTTP_AUTH_PENDING) {
		*retry_s = 1;
		rc = -EBUSY;
	} else {
		s->pending++;
		g->gpending++;
	}
	pthread_mutex_unlock(&g->lock);
	return rc;
}

void ww_guard_auth_done(ww_guard_t *g, const struct sockaddr *sa, bool ok)
{
	struct addr_slot *s;

	pthread_mutex_lock(&g->lock);
	s = slot_locked(g, sa, ww_http_now_ms());
	if (s) {
		if (s->pending)
			s->pending--;
		if (!ok)
			s->tokens -= 1;
	}
	if (g->gpending)
		g->gpending--;
	if (!ok) {
		global_refill_locked(g, ww_http_now_ms());
		g->gtokens -= 1;
	}
	pthread_mutex_unlock(&g->lock);
}

int ww_guard_auth_key(ww_guard_t *g, const char *user, const char *password,
		      char key[WW_HTTP_AUTH_KEY_LEN])
{
	static const char hex[] = "0123456789abcdef";
	char up[WW_HTTP_AUTH_INPUT_MAX + 1];
	uint8_t mac[32];
	bool ok;
	int len;

	/* user names hold no ':' (webcfg.c), so user:password is one string
	 * per pair; longer than the longest login checked is none */
	len = snprintf(up, sizeof(up), "%s:%s", user, password);
	if (len < 0 || (size_t)len > WW_HTTP_AUTH_INPUT_MAX) {
		explicit_bzero(up, sizeof(up));
		return -EINVAL;
	}
	/* one call, its own state: thread-safe */
	ok = ww_gnutls.hmac_fast(GNUTLS_MAC_SHA256, g->mac_key, sizeof(g->mac_key), up, (size_t)len,
				 mac) == 0;
	explicit_bzero(up, sizeof(up));
	if (!ok)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(mac); i++) {
		key[2 * i] = hex[mac[i] >> 4];
		key[2 * i + 1] = hex[mac[i] & 15];
	}
	key[2 * sizeof(mac)] = '\0';
	explicit_bzero(mac, sizeof(mac));
	return 0;
}

static bool same(const char *a, const char *b)
{
	unsigned char diff = 0;

	for (size_t i = 0; i < WW_HTTP_AUTH_KEY_LEN; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

bool ww_guard_cache_has(ww_guard_t *g, const char *key)
{
	char k[WW_HTTP_AUTH_KEY_LEN] = { 0 };
	bool hit = false;

	snprintf(k, sizeof(k), "%s", key);
	pthread_mutex_lock(&g->lock);
	for (int i = 0; i < WW_HTTP_AUTH_CACHE; i++)
		if (g->cache[i].key[0] && same(g->cache[i].key, k)) {
			g->cache[i].used_ms = ww_http_now_ms();
			hit = true;
		}
	pthread_mutex_unlock(&g->lock);
	return hit;
}

void ww_guard_cache_put(ww_guard_t *g, const char *key, const struct sockaddr *sa)
{
	int victim = 0;

	pthread_mutex_lock(&g->lock);
	if (sa)
		good_locked(g, sa, true);
	for (int i = 0; i < WW_HTTP_AUTH_CACHE; i++) {
		if (!strcmp(g->cache[i].key, key)) {
			victim = i;
			break;
		}
		if (g->cache[i].used_ms < g->cache[victim].used_ms)
			victim = i;
	}
	memset(g->cache[victim].key, 0, WW_HTTP_AUTH_KEY_LEN);
	snprintf(g->cache[victim].key, WW_HTTP_AUTH_KEY_LEN, "%s", key);
	g->cache[victim].used_ms = ww_http_now_ms();
	pthread_mutex_unlock(&g->lock);
}
