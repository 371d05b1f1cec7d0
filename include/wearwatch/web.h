/* The dashboard's static files (web/ files, Debian's Chart.js), embedded into the
 * binary at build time by cmake/embed_assets.cmake. Pure lookups: no I/O. */
#ifndef WEARWATCH_WEB_H
#define WEARWATCH_WEB_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One embedded file. `path` is its URL path ("/index.html",
 * "/assets/app.js"), `type` the Content-Type, `etag` a quoted strong ETag
 * (first 16 hex digits of the SHA-256 of the bytes), `data` the `len` bytes
 * (followed by a NUL that is not part of the file). */
typedef struct ww_web_asset {
	const char *path;
	const char *type;
	const char *etag;
	const unsigned char *data;
	size_t len;
} ww_web_asset_t;

/** Generated table, terminated by an entry with path NULL. */
extern const ww_web_asset_t ww_web_assets[];
extern const size_t ww_web_n_assets;

/** The asset a GET of `url` (already percent-decoded, no query) serves:
 * "/assets/NAME" -> that file; the app's page routes "/", "/index.html",
 * "/drives" and "/drives/{drive}" -> /index.html (the page reads the path and
 * asks the JSON API). NULL when url is none of these. */
const ww_web_asset_t *ww_web_lookup(const char *url);

/** Total bytes of all embedded files (what the dashboard adds to the binary,
 * not counting the table itself). */
size_t ww_web_total_bytes(void);

#ifdef __cplusplus
}
#endif
#endif
