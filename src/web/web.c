/* URL -> embedded dashboard file (see include/wearwatch/web.h). */
#include <string.h>

#include "wearwatch/web.h"

static const ww_web_asset_t *find(const char *path)
{
	for (size_t i = 0; i < ww_web_n_assets; i++)
		if (!strcmp(ww_web_assets[i].path, path))
			return &ww_web_assets[i];
	return NULL;
}

const ww_web_asset_t *ww_web_lookup(const char *url)
{
	if (!url)
		return NULL;
	if (!strcmp(url, "/") || !strcmp(url, "/index.html") || !strcmp(url, "/drives") ||
	    !strcmp(url, "/drives/") || !strcmp(url, "/fleet"))
		return find("/index.html");
	/* deep link to one drive: any non-empty id without a further slash */
	if (!strncmp(url, "/drives/", 8) && !strchr(url + 8, '/'))
		return find("/index.html");
	if (!strncmp(url, "/assets/", 8))
		return find(url);
	return NULL;
}

size_t ww_web_total_bytes(void)
{
	size_t n = 0;

	for (size_t i = 0; i < ww_web_n_assets; i++)
		n += ww_web_assets[i].len;
	return n;
}
