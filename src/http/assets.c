/* Dashboard files over libmicrohttpd (see http_assets.h). */
#include <string.h>

#include "http/assets.h"
#include "wearwatch/web.h"

#define WW_CSP "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " \
	       "connect-src 'self'; frame-ancestors 'none'"

static bool etag_matches(const char *inm, const char *etag)
{
	if (!inm)
		return false;
	if (!strcmp(inm, "*"))
		return true;
	/* a list of (possibly weak) tags: "a", W/"b"; ours are quoted hex */
	return strstr(inm, etag) != NULL;
}

bool ww_http_assets_reply(struct MHD_Connection *c, const char *url, int *ret)
{
	const ww_web_asset_t *a = ww_web_lookup(url);
	struct MHD_Response *r;
	unsigned status = MHD_HTTP_OK;

	if (!a)
		return false;
	if (etag_matches(ww_mhd.lookup_connection_value(c, MHD_HEADER_KIND,
							MHD_HTTP_HEADER_IF_NONE_MATCH),
			 a->etag)) {
		status = MHD_HTTP_NOT_MODIFIED;
		r = ww_mhd.create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
	} else {
		/* the bytes live in the binary: no copy */
		r = ww_mhd.create_response_from_buffer(a->len, (void *)a->data,
						       MHD_RESPMEM_PERSISTENT);
	}
	if (!r) {
		*ret = MHD_NO;
		return true;
	}
	if (status == MHD_HTTP_OK)
		ww_mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, a->type);
	ww_mhd.add_response_header(r, MHD_HTTP_HEADER_ETAG, a->etag);
	ww_mhd.add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
	ww_mhd.add_response_header(r, "X-Content-Type-Options", "nosniff");
	if (!strcmp(a->path, "/index.html"))
		ww_mhd.add_response_header(r, "Content-Security-Policy", WW_CSP);
	*ret = ww_mhd.queue_response(c, status, r);
	ww_mhd.destroy_response(r);
	return true;
}
