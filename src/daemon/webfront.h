/* The HTTP(S) front end shared by `wearwatch web` and `wearwatch serve`:
 * libmicrohttpd with web.config TLS and bcrypt basic auth (webcfg.h), the
 * embedded dashboard files (http_assets.h), and every other path checked
 * against the route list (route.h) and handed to a fetch function: over the
 * Unix socket to the collector for `web`, straight from the store for
 * `serve`. One code path, so both serve the same routes the same way. */
#ifndef WW_DAEMON_WEBFRONT_H
#define WW_DAEMON_WEBFRONT_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/config.h"
#include "daemon/route.h"
#include "wearwatch/store.h"

/** Answer one validated path (may carry a history query). Returns 0 with r
 * filled (body malloc'd) or -errno (the client gets 503). */
typedef int (*ww_webfront_fetch_fn)(void *ctx, const ww_conf_t *conf, const char *path,
				    ww_route_reply_t *r);

typedef struct ww_webfront ww_webfront_t;

/** Load conf->web_config (if set), bind conf->listen (or serve on `fd` when
 * >= 0: socket activation) and start serving. NULL on failure with the
 * reason in err ("path:line: ..." for a bad web.config). */
ww_webfront_t *ww_webfront_open(const ww_conf_t *conf, int fd, ww_webfront_fetch_fn fetch,
				void *ctx, char *err, size_t errlen);

/** Apply a new configuration: web.config reloaded, the listener rebound
 * when conf->listen changed (kept for an activated socket). On any failure
 * the running front end is kept as it was and -errno returned with err set;
 * on success *w is replaced. */
int ww_webfront_reload(ww_webfront_t **w, const ww_conf_t *conf, char *err, size_t errlen);

/** Port bound (0 when unknown), "https"/"http", and whether auth is on. */
uint16_t ww_webfront_port(const ww_webfront_t *w);
const char *ww_webfront_scheme(const ww_webfront_t *w);
bool ww_webfront_auth(const ww_webfront_t *w);

/** Stop serving and close the listener. NULL is a no-op. */
void ww_webfront_close(ww_webfront_t *w);

/** Fetch function for `serve`: ctx is the ww_store_t. */
int ww_webfront_fetch_store(void *ctx, const ww_conf_t *conf, const char *path,
			    ww_route_reply_t *r);

#endif
