/* gzip of response bodies (RFC 1952 through zlib) for clients that say
 * Accept-Encoding: gzip. */
#ifndef WW_HTTP_GZIP_H
#define WW_HTTP_GZIP_H

#include <stdbool.h>
#include <stddef.h>

/** True when an Accept-Encoding value (NULL = absent) accepts gzip: a
 * "gzip" or "x-gzip" token (any case) whose q is not 0 (RFC 9110 12.5.3). */
bool ww_http_accepts_gzip(const char *accept_encoding);

/** body (len bytes) of `path` compressed into *out (malloc'd, *outlen
 * bytes). The last body of each path and its compressed form are kept, so
 * scrapes of an unchanged body compress nothing (a compare instead).
 * Returns 0, or -ENOMEM / -EIO (the caller sends the body as it is). */
int ww_http_gzip(const char *path, const char *body, size_t len, char **out, size_t *outlen);

#endif
