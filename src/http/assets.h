/* Embedded dashboard files over libmicrohttpd (private to src/http/). */
#ifndef WW_HTTP_ASSETS_H
#define WW_HTTP_ASSETS_H

#include <stdbool.h>

#include "http/mhd.h"

/** When `url` is a dashboard route, queue its response on `c` (200 with the
 * file, or 304 when If-None-Match carries its ETag), store the libmicrohttpd
 * result in *ret and return true. Headers: Content-Type, ETag,
 * Cache-Control "no-cache" (always revalidate: one binary's files never
 * change, the next binary's may), X-Content-Type-Options nosniff and a
 * same-origin Content-Security-Policy. Returns false (nothing queued) for
 * any other url. */
bool ww_http_assets_reply(struct MHD_Connection *c, const char *url, int *ret);

#endif
