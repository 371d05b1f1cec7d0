/* Collector <-> web protocol on a Unix stream socket. One request per
 * connection, text header, then the body:
 *
 *   web -> collector:  "GET <path>\n"            (<= 512 bytes; path must
 *                                                  pass ww_route_path_valid)
 *   collector -> web:  "WW1 <status> <length> <content-type>\n" <length bytes>
 *
 * Why this and not shipping the snapshot: the web side then parses nothing
 * but this one header line and never sees device data structures, the
 * renderers stay in one place (the same code `serve` uses), and the collector
 * only ever receives a path it checks against a fixed list, so the one input
 * crossing the privilege boundary is a short string. */
#ifndef WW_DAEMON_IPC_H
#define WW_DAEMON_IPC_H

#include <stddef.h>

#include "daemon/route.h"
#include "wearwatch/store.h"

#define WW_IPC_MAX_REQUEST 512 /* "GET " + WW_ROUTE_MAX_PATH + "\n" fits */
#define WW_IPC_MAX_BODY (64u << 20)

typedef struct ww_ipc_server ww_ipc_server_t;

/** Bind `path` (an existing socket file is replaced), chmod 0666, and answer
 * requests from `store` on a thread of its own, up to 16 connections at once;
 * a connection has 1 s to send its request line and 5 s to take the answer,
 * and when all are busy a new one replaces the oldest still sending its
 * request (idle or slow local clients cannot keep others out, see ipc.c).
 * NULL with *err = -errno. */
ww_ipc_server_t *ww_ipc_server_start(const char *path, ww_store_t *store, int *err);

/** Stop the thread, close and unlink the socket. NULL is a no-op. */
void ww_ipc_server_stop(ww_ipc_server_t *s);

/** Web side: ask the collector at `path` for `url` (validated here too) with
 * a timeout in milliseconds for the whole exchange. Fills r (body malloc'd).
 * Returns 0, -EINVAL for an invalid url, -ETIMEDOUT, -EPROTO for a malformed
 * answer, or -errno of connect (collector down: -ENOENT, -ECONNREFUSED). */
int ww_ipc_request(const char *path, const char *url, int timeout_ms, ww_route_reply_t *r);

/** Parse a response header line (without the newline). Returns 0 or -EPROTO. */
int ww_ipc_parse_header(const char *line, unsigned *status, size_t *len, char *type, size_t tlen);

#endif
