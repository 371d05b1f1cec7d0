/* The read-only routes both HTTP front ends serve, rendered from a store
 * snapshot: used by the collector to answer the web side (ipc.c). */
#ifndef WW_DAEMON_ROUTE_H
#define WW_DAEMON_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "wearwatch/store.h"

typedef struct ww_route_reply {
	unsigned status;       /* HTTP status: 200, 404 */
	char type[64];         /* Content-Type */
	char *body;            /* malloc'd, may contain no NUL; NULL = out of memory */
	size_t len;
} ww_route_reply_t;

#define WW_ROUTE_MAX_PATH 400

/** True for the paths wearwatch serves: /metrics, /healthz, /, /index.html,
 * /table, /api/v1/drives[/], /api/v1/drives/ID and
 * /api/v1/drives/ID/history[?QUERY], with ID made of [A-Za-z0-9._:+@-]
 * (what drive ids are made of: /dev/disk/by-id names), at most 200 bytes,
 * and QUERY "k=v&..." with k among metric, from, to, max_points (each once)
 * and v 1-32 bytes of [A-Za-z0-9_.:+-]; at most WW_ROUTE_MAX_PATH bytes in
 * all. Everything else (other queries, "..", encoded bytes) is false. */
bool ww_route_path_valid(const char *path);

/** Render `path` (must be valid) from the store's current snapshot at `now`.
 * Returns 0 or -ENOMEM; r->body is the caller's to free. */
int ww_route_render(ww_store_t *store, const char *path, time_t now, ww_route_reply_t *r);

#endif
