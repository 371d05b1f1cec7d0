/* HTTP server of `wearwatch serve` (libmicrohttpd, one internal polling
 * thread). Serves only from store snapshots: no request touches a device. */
#ifndef WW_DAEMON_HTTP_H
#define WW_DAEMON_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include "wearwatch/store.h"

#define WW_HTTP_DEFAULT_PORT 9786

typedef struct ww_http ww_http_t;

/** Split a listen address: "[::]:9786", ":9786", "0.0.0.0:9786",
 * "127.0.0.1:9786", "host:port" or a bare "9786". host receives "" for all
 * addresses (also for "[::]", which binds dual-stack), without brackets.
 * Returns 0 or -EINVAL. */
int ww_http_parse_listen(const char *spec, char *host, size_t hlen, uint16_t *port);

/** Bind `listen` (see above; port 0 = ephemeral) and start serving
 * /metrics, /api/v1/drives, /api/v1/drives/{id}, /healthz and / from the
 * store's snapshots. Returns NULL with *err = -errno on failure. */
ww_http_t *ww_http_start(const char *listen, ww_store_t *store, int *err);

/** Port actually bound (useful with port 0). */
uint16_t ww_http_port(const ww_http_t *h);

/** Stop the server thread, close the socket, free. NULL is a no-op. */
void ww_http_stop(ww_http_t *h);

#endif
