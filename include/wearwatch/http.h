/* http: the HTTP(S) front end (libmicrohttpd) shared by `web` and `serve`,
 * the fixed list of read-only routes rendered from a store snapshot, the
 * collector <-> web protocol on a Unix socket, listen addresses and the
 * embedded dashboard files. Nothing here touches a drive or decides a
 * verdict: every answer is a renderer's output. */
#ifndef WEARWATCH_HTTP_H
#define WEARWATCH_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <time.h>

#include "wearwatch/store.h"
#include "wearwatch/conf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Listen sockets of the HTTP front end (syntax: ww_conf_parse_listen). */

/** Bind and listen on `spec` (ww_conf_parse_listen syntax; port 0 = ephemeral). All
 * addresses ("" / "[::]") means one dual-stack IPv6 socket, or IPv4 only
 * where IPv6 is unavailable. Returns the socket or -errno. */
int ww_http_bind_listen(const char *spec);

/* The read-only routes both HTTP front ends serve, rendered from a store
 * snapshot: used by the collector to answer the web side (ipc.c). */

/** A response body shared by the requests that send it: the render
 * cache's /metrics and /api/v1/drives (in the collector and in `serve`),
 * and on the web side the last of each the collector sent. Its bytes never
 * change once made; each holder has a reference (ww_http_body_unref, also
 * libmicrohttpd's free callback of a response that sends it). `tag` names
 * the bytes: one tag, one content (src/http/gzip.c says how tags are made
 * unique across a collector's restarts). Its gzip form is made once, at the
 * first request that accepts gzip (ww_http_body_gzip). */
typedef struct ww_http_body {
	char *data; /* len bytes and a NUL */
	size_t len;
	uint64_t tag; /* never 0 */
	/* private: the count of references, and the gzip form (gzip.c) */
	unsigned long refs;
	char *gz;
	size_t gzlen;
} ww_http_body_t;

/** A body of len bytes at data (malloc'd, len + 1 bytes, taken: freed here
 * on failure) with one reference, the caller's. tag 0 = a new tag of this
 * process; the web side gives the collector's. NULL = out of memory. */
ww_http_body_t *ww_http_body_new(char *data, size_t len, uint64_t tag);

/** One more reference to b (NULL passes); returns b. */
ww_http_body_t *ww_http_body_ref(ww_http_body_t *b);

/** Drop one reference (b: a ww_http_body_t, NULL is a no-op); the last frees it. */
void ww_http_body_unref(void *b);

/** b's gzip form (RFC 1952, *gz valid while the caller holds b), made at
 * the first call. 0, or -ENOMEM / -EIO (the caller sends b as it is). */
int ww_http_body_gzip(ww_http_body_t *b, const char **gz, size_t *gzlen);

typedef struct ww_route_reply {
	unsigned status;       /* HTTP status: 200, 404 */
	char type[64];         /* Content-Type */
	char *body;            /* malloc'd, may contain no NUL; NULL = out of memory */
	size_t len;
	/* set for a shared body (ww_route_render_shared, ww_ipc_request of a
	 * cached path): body and len are shared's; give the reply back with
	 * ww_route_reply_free, never free(body) */
	ww_http_body_t *shared;
} ww_route_reply_t;

/** Free r's body (or drop its reference to the shared one) and clear r. */
void ww_route_reply_free(ww_route_reply_t *r);

#define WW_ROUTE_MAX_PATH 400

/** True for the paths wearwatch serves: /metrics, /healthz, /, /index.html,
 * /table, /api/v1/drives[/], /api/v1/drives/ID and
 * /api/v1/drives/ID/history[?QUERY], with ID made of [A-Za-z0-9._:+@-]
 * (what drive ids are made of: /dev/disk/by-id names), at most 200 bytes,
 * and QUERY "k=v&..." with k among metric, from, to, max_points (each once)
 * and v 1-32 bytes of [A-Za-z0-9_.:+-]; at most WW_ROUTE_MAX_PATH bytes in
 * all. Everything else (other queries, "..", encoded bytes) is false. */
bool ww_route_path_valid(const char *path);

/** Where the routes' answers come from, handed to every render: the store
 * (its current snapshot), the endurance service (NULL = no endurance
 * figures, no history) and the verdict's thresholds (NULL = defaults). The
 * service replaces `thresholds` at a reload with __atomic_store_n; a render
 * reads it once with __atomic_load_n. */
typedef struct ww_route_src {
	ww_store_t *store;
	ww_store_endurance_t *endurance;
	const ww_thresholds_t *thresholds;
	/* when set, a render takes its thresholds from hold (a reference the
	 * owner keeps them alive by: a reload retires the old ones only when
	 * no render holds them) and gives them back with drop */
	const ww_thresholds_t *(*hold)(void *arg);
	void (*drop)(void *arg, const ww_thresholds_t *t);
	void *hold_arg;
} ww_route_src_t;

/** Render `path` (must be valid) from src's current snapshot at `now` (wall
 * clock, seconds). Returns 0 or -ENOMEM; r->body is the caller's to free. */
int ww_route_render(const ww_route_src_t *src, const char *path, time_t now, ww_route_reply_t *r);

/** How many bodies the render cache keeps: the range of ww_route_cached_index. */
#define WW_ROUTE_CACHED_PATHS 3

/** The render cache's index of path (0 .. WW_ROUTE_CACHED_PATHS - 1;
 * "/api/v1/drives/" is "/api/v1/drives"), or -1 for a path it does not
 * keep. The web side keeps its copy of each cached body under this index. */
int ww_route_cached_index(const char *path);

/** True for the paths the render cache keeps (/metrics, its fleet profile,
 * /api/v1/drives): rendered once per change, shared by every request. */
bool ww_route_cached(const char *path);

/** ww_route_render(), except that /metrics and /api/v1/drives come as the
 * render cache's own body (r->shared set), not a copy: a scrape of an
 * unchanged snapshot allocates and copies nothing. */
int ww_route_render_shared(const ww_route_src_t *src, const char *path, time_t now,
			   ww_route_reply_t *r);

/* gzip of response bodies (RFC 1952 through zlib) for clients that send
 * Accept-Encoding: gzip (src/http/gzip.c). */

/** True when an Accept-Encoding value (NULL = absent) accepts gzip: a
 * "gzip" or "x-gzip" token (any case) whose q is not 0 (RFC 9110 12.5.3). */
bool ww_http_accepts_gzip(const char *accept_encoding);

/** body (len bytes) compressed into *out (malloc'd, *outlen bytes): for
 * the bodies that are not shared (a drive, a history query); a shared one
 * is compressed once, by ww_http_body_gzip. Returns 0, or -ENOMEM / -EIO
 * (the caller sends the body as it is). */
int ww_http_gzip(const char *body, size_t len, char **out, size_t *outlen);

/** Bodies compressed since start (a test's count: an unchanged /metrics
 * is compressed once). */
uint64_t ww_http_gzip_compressions(void);

/* Collector <-> web protocol on a Unix stream socket. One request per
 * connection, text header, then the body:
 *
 *   web -> collector:  "GET <path>[ <tag>]\n"    (<= 512 bytes; path must
 *                                                  pass ww_route_path_valid)
 *   collector -> web:  "WW2 <status> <length> <tag> <content-type>\n" <length bytes>
 *
 * <tag> (decimal) names the bytes of a render-cache body (/metrics,
 * /api/v1/drives; 0 for every other answer). A request that names the tag
 * of the body the collector would send gets "WW2 304 0 <tag> <type>" and no
 * body: the web side sends its own copy, and a scrape of an unchanged
 * snapshot moves a header line instead of megabytes. Both sides are the
 * same package; WW1 (no tag) is not spoken.
 *
 * Why this and not shipping the snapshot: the web side then parses nothing
 * but this one header line and never sees device data structures, the
 * renderers stay in one place (the same code `serve` uses), and the collector
 * only ever receives a path it checks against a fixed list, so the one input
 * crossing the privilege boundary is a short string. */

#define WW_IPC_MAX_REQUEST 512 /* "GET " + WW_ROUTE_MAX_PATH + "\n" fits */
#define WW_IPC_MAX_BODY (64u << 20)

typedef struct ww_ipc_server ww_ipc_server_t;

/** Bind `path` (an existing socket file is replaced), chmod 0666, and answer
 * requests from `src` (kept by the caller until ww_ipc_server_stop) on a
 * thread of its own, up to 32 connections at once;
 * a connection has 1 s to send its request line and 5 s to take the answer,
 * and when all are busy a new one replaces the oldest still sending its
 * request (idle or slow local clients cannot keep others out, see ipc.c).
 * History queries are rendered on a pool of 2 threads (8 waiting at most,
 * then "WW2 503"), so they never hold the other routes.
 * NULL with *err = -errno. */
ww_ipc_server_t *ww_ipc_server_start(const char *path, const ww_route_src_t *src, int *err);

/** Stop the thread, close and unlink the socket. NULL is a no-op. */
void ww_ipc_server_stop(ww_ipc_server_t *s);

/** Web side: ask the collector at `path` for `url` (validated here too) with
 * a timeout in milliseconds for the whole exchange. Fills r: a render-cache
 * path comes as a shared body (r->shared; the last one of each path is kept
 * here, and asked for by its tag), any other with its body malloc'd; give it
 * back with ww_route_reply_free.
 * Returns 0, -EINVAL for an invalid url, -ETIMEDOUT, -EPROTO for a malformed
 * answer, or -errno of connect (collector down: -ENOENT, -ECONNREFUSED). */
int ww_ipc_request(const char *path, const char *url, int timeout_ms, ww_route_reply_t *r);

/** Parse a response header line (without the newline): status 100-599,
 * length <= WW_IPC_MAX_BODY (0 for a 304), tag, content type (< tlen
 * bytes). Each number is 1-20 digits and one space. Returns 0 or -EPROTO. */
int ww_ipc_parse_header(const char *line, unsigned *status, size_t *len, uint64_t *tag, char *type,
			size_t tlen);

/** Parse a request line (without the newline): "GET <path>[ <tag>]" into
 * path (plen bytes; must pass ww_route_path_valid) and *tag (0 when
 * absent; 1-20 digits, at most 2^64 - 1). Returns 0 or -EINVAL. */
int ww_ipc_parse_request(const char *line, char *path, size_t plen, uint64_t *tag);

/* The HTTP(S) front end shared by `wearwatch web` and `wearwatch serve`:
 * libmicrohttpd with web.config TLS and bcrypt basic auth (webcfg.h), the
 * embedded dashboard files (assets.h), and every other path checked against
 * the route list and handed to a fetch function: over the Unix socket to the
 * collector for `web`, straight from the store for `serve`. One code path, so
 * both serve the same routes the same way.
 *
 * No client can stall the others (src/http/front.h, guard.h): requests are
 * served concurrently (a pool of polling threads; logins, fetches and
 * history queries on bounded job pools of their own, a full pool answers 503
 * at once), every request must arrive within 5 s and its answer be taken
 * within 30 s, at most 8 connections per address and 1024 in all, successful
 * logins are cached and failed ones limited per address (429), URIs longer
 * than any route or with more than 8 arguments get 414, and the dashboard's
 * files never wait for the collector. */

/** Answer one validated path (may carry a history query) within timeout_ms
 * (the request's time left). Returns 0 with r filled (body malloc'd) or
 * -errno (the client gets 503: -ETIMEDOUT "did not answer in time", else
 * "unavailable"). Called on job threads, several at once. */
typedef int (*ww_webfront_fetch_fn)(void *ctx, const ww_conf_t *conf, const char *path,
				    int timeout_ms, ww_route_reply_t *r);

typedef struct ww_webfront ww_webfront_t;

/** Load conf->web_config (if set), bind conf->listen (or serve on `fd` when
 * >= 0: socket activation) and start serving. NULL on failure with the
 * reason in err ("path:line: ..." for a bad web.config). */
ww_webfront_t *ww_webfront_open(const ww_conf_t *conf, int fd, ww_webfront_fetch_fn fetch,
				void *ctx, char *err, size_t errlen);

/** Apply a new configuration: web.config reloaded, the listener rebound
 * when conf->listen changed (kept for an activated socket). On any failure
 * the running front end is kept as it was and -errno returned with err set;
 * on success *w is replaced. A changed listen under socket activation is not
 * applied: logged as needing a change of the socket unit. */
int ww_webfront_reload(ww_webfront_t **w, const ww_conf_t *conf, char *err, size_t errlen);

/** The listen address in effect: the configured one, or after a reload
 * under socket activation the one before it (a changed listen cannot move
 * systemd's socket: the reload logs a warning and keeps it). */
const char *ww_webfront_listen(const ww_webfront_t *w);

/** Port bound (0 when unknown), "https"/"http", and whether auth is on. */
uint16_t ww_webfront_port(const ww_webfront_t *w);
const char *ww_webfront_scheme(const ww_webfront_t *w);
bool ww_webfront_auth(const ww_webfront_t *w);

/** Stop serving and close the listener. NULL is a no-op. */
void ww_webfront_close(ww_webfront_t *w);

/** The fleet page's data (GET /api/v1/fleet?page=N): the answers of
 * Prometheus' HTTP API (GET PROMETHEUS/api/v1/query, instant queries, and
 * /api/v1/label/instance/values for the host list) to a fixed set of queries
 * over wearwatch's series, with [fleet]'s basic auth or bearer token (read
 * from their files at each query), headers and CA file. The browser never
 * sends PromQL; `page` (1-based, clamped to the pages there are) picks the
 * page of hosts. Body (malloc'd, *len bytes), JSON:
 *   {"configured": false}                                when [fleet] prometheus is unset
 *   {"configured": true, "prometheus": URL without credentials, "time": UNIX,
 *    "queries": {"drives_total", "health_counts", "down", "down_total": result
 *                arrays; "problems": {FAMILY: array, ...}, "page": {FAMILY: ...}},
 *    "hosts_total": N or null, "page": N (0: no hosts), "pages": N,
 *    "page_hosts": [instance...], "limits": {problems, top, down,
 *    hosts_per_page}, "errors": [TEXT...]}
 * FAMILY: info, health, reasons, reason_values, rated_used, own_used,
 * wearout, warranty_end, temperature, present (docs/api.md). "problems" are
 * the drives whose verdict is warning or critical (at most 500, most severe
 * first) and the 50 first by endurance used (rated and own) and by projected
 * wear-out; "page" the drives of the page's hosts (50 a page): every answer
 * bounded whatever the fleet's size. Each array checked and cut to the
 * "metric" and "value" of each series, an answer over 8 MiB or not of that
 * shape is an error of its query (http/fleet_answer.h). *status is 200, or
 * 502 when no query was answered. Answers are shared for 10 s per page.
 * Blocks up to the configured timeout per query. Returns 0 or -ENOMEM. */
int ww_fleet_fetch(const ww_conf_fleet_t *f, unsigned page, char **body, size_t *len,
		   unsigned *status);

/** Fetch function for `serve`: ctx is the ww_route_src_t (timeout unused:
 * the history's own time budget bounds a query). */
int ww_webfront_fetch_store(void *ctx, const ww_conf_t *conf, const char *path,
			    int timeout_ms, ww_route_reply_t *r);

#ifdef __cplusplus
}
#endif
#endif
