/* What keeps one client from stalling or locking out the others (private to
 * src/http/): a whole-request deadline per connection, a rate limit on
 * failed logins per source address, and a cache of successful logins.
 *
 * Why each:
 * - libmicrohttpd's timeout counts only silence: a client trickling a header
 *   byte every few seconds held its connection for ever, and 300 such
 *   connections from 30 addresses kept every other client out for 60 s.
 *   Here a request has WW_HTTP_RECV_DEADLINE_MS from the connection (or the
 *   end of the previous request) to be received, and an answer
 *   WW_HTTP_SEND_DEADLINE_MS to be taken; past either, the socket is shut
 *   down (libmicrohttpd then closes it as a client that went away).
 * - A bcrypt check costs 2^cost rounds (50 ms at cost 10, 3.7 s at 16) on
 *   every request with basic auth: 16 clients sending wrong passwords took a
 *   scrape from 65 ms to 1 s. A successful check is cached (as Prometheus'
 *   exporter-toolkit does: its key is a fast salted hash of user and
 *   password, never the password), so a known client costs one HMAC-SHA256
 *   with a key drawn at start (a few microseconds; a SHA-512 crypt of 1000
 *   rounds before cost 0.36 ms of CPU per request, and a guesser's flood
 *   of 2 100 refused requests a second took a core); failures are limited per source
 *   address (IPv4 address, IPv6 /64): WW_HTTP_AUTH_BURST, then one per
 *   WW_HTTP_AUTH_REFILL_MS, at most WW_HTTP_AUTH_PENDING checks waiting
 *   (16 guessing addresses then cost 1.6 bcrypt checks a second, not 16).
 *   The slots of addresses are few (least recently used ones reused), so
 *   an attacker rotating over more addresses got a full budget at each:
 *   failed checks of all addresses share a budget too,
 *   WW_HTTP_AUTH_GLOBAL_BURST refilled over WW_HTTP_AUTH_GLOBAL_REFILLS
 *   refill periods (2 a second by default), checks still running counted
 *   against it (a check queued behind slow ones let every later guess in:
 *   8 guessers then waited ~3 s each in the queue); when it is spent, logins not in
 *   the cache get 429, cached ones are still let in, and so are checks from
 *   the WW_HTTP_AUTH_GOOD addresses a login passed from before (only a
 *   success enters that table: a Prometheus whose cached login was pushed
 *   out, or that changed its password, is not locked out by the flood).
 * - Connection slots: libmicrohttpd turns a connection away when its limit
 *   is reached, so valid clients keeping connections alive from 16
 *   addresses kept a scraper out. Past seven eighths of the limit each new
 *   connection closes the oldest kept-alive one waiting for a request (else
 *   the oldest still receiving its first): its client reconnects. */
#ifndef WW_HTTP_GUARD_H
#define WW_HTTP_GUARD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#define WW_HTTP_RECV_DEADLINE_MS 5000   /* request line, headers and body */
#define WW_HTTP_SEND_DEADLINE_MS 30000  /* the whole answer taken */
#define WW_HTTP_AUTH_BURST 5            /* failed logins at once, per address */
#define WW_HTTP_AUTH_REFILL_MS 10000    /* then one per this (default) */
#define WW_HTTP_AUTH_PENDING 4          /* checks queued per address */
#define WW_HTTP_AUTH_GLOBAL_BURST 20    /* failed logins at once, all addresses */
#define WW_HTTP_AUTH_GLOBAL_REFILLS 1   /* refilled in this many refill periods */
#define WW_HTTP_AUTH_CACHE 64           /* successful logins remembered */
#define WW_HTTP_AUTH_GOOD 64            /* addresses a login passed from */
#define WW_HTTP_AUTH_KEY_LEN 128
#define WW_HTTP_AUTH_INPUT_MAX 512 /* longest user:password checked */

typedef struct ww_guard ww_guard_t;
typedef struct ww_gconn ww_gconn_t;

/** Connection phases: receiving a request (deadline), working on it (the
 * job's own timeout bounds it), sending the answer (deadline). */
typedef enum { WW_GC_RECV, WW_GC_WORK, WW_GC_SEND } ww_gc_phase_t;

/** Start the deadline thread; failed logins refill one per refill_ms (0:
 * WW_HTTP_AUTH_REFILL_MS; tests shorter), the shared budget
 * WW_HTTP_AUTH_GLOBAL_BURST per WW_HTTP_AUTH_GLOBAL_REFILLS x refill_ms;
 * conn_limit: libmicrohttpd's connection limit (0: no eviction). NULL on
 * failure. */
ww_guard_t *ww_guard_start(unsigned refill_ms, unsigned conn_limit);

/** The refill period in use, ms. */
unsigned ww_guard_refill_ms(const ww_guard_t *g);

/** Stop the thread and free (no connection may be open any more). */
void ww_guard_stop(ww_guard_t *g);

/** A new connection on socket fd from sa: tracked, phase RECV from now.
 * NULL when out of memory (then it has no deadline). */
ww_gconn_t *ww_guard_conn_open(ww_guard_t *g, int fd, const struct sockaddr *sa);

/** The connection is closed (before libmicrohttpd closes fd). NULL ok. */
void ww_guard_conn_close(ww_guard_t *g, ww_gconn_t *c);

/** Enter a phase; its deadline counts from now. RECV after another phase
 * (an answer was sent, the connection is kept alive) marks it idle until
 * ww_guard_conn_begun. NULL ok. */
void ww_guard_conn_phase(ww_guard_t *g, ww_gconn_t *c, ww_gc_phase_t p);

/** A request began on c (its request line is in): no longer idle. NULL ok. */
void ww_guard_conn_begun(ww_guard_t *g, ww_gconn_t *c);

/** Connections closed to make room for new ones so far. */
uint64_t ww_guard_evicted(ww_guard_t *g);

/** Login checks refused because the shared budget was spent, so far. */
uint64_t ww_guard_auth_global_refused(ww_guard_t *g);

/** Passes the reaper made over the connections so far: one at start, then
 * one at each connection's deadline or first change, none while there is no
 * connection (a test's count that an idle service does not wake). */
uint64_t ww_guard_wakeups(ww_guard_t *g);

/** Connections shut down at a deadline so far. */
uint64_t ww_guard_reaped(ww_guard_t *g);

/** Has sa no failed-login token left? (*retry_s: seconds to the next one.)
 * Asked before anything else, so a client spending its failures costs no
 * hashing at all. */
bool ww_guard_auth_blocked(ww_guard_t *g, const struct sockaddr *sa, unsigned *retry_s);

/** May a login from sa be checked now? 0 (a check is pending for it until
 * ww_guard_auth_done), -EAGAIN (no failed-login token left: *retry_s
 * seconds to the next) or -EBUSY (WW_HTTP_AUTH_PENDING checks of it are
 * running: a client opening several connections at once before its login
 * is cached; *retry_s 1). */
int ww_guard_auth_admit(ww_guard_t *g, const struct sockaddr *sa, unsigned *retry_s);

/** The check admitted for sa is over; a failure spends one of its tokens. */
void ww_guard_auth_done(ww_guard_t *g, const struct sockaddr *sa, bool ok);

/** The cache key of user:password: HMAC-SHA256 (GnuTLS, mhd.h) with a key drawn
 * at start, as 64 hex digits. -EINVAL when user:password is longer than
 * WW_HTTP_AUTH_INPUT_MAX bytes (no login) or the HMAC fails, else 0. */
int ww_guard_auth_key(ww_guard_t *g, const char *user, const char *password,
		      char key[WW_HTTP_AUTH_KEY_LEN]);

/** Is the key of a successful login cached? (constant-time compare) */
bool ww_guard_cache_has(ww_guard_t *g, const char *key);

/** Remember a successful login (least recently used one out when full)
 * and the address sa it came from (NULL: none): logins not yet cached from
 * that address are checked even while the shared budget is spent. */
void ww_guard_cache_put(ww_guard_t *g, const char *key, const struct sockaddr *sa);

#endif
