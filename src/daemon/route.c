/* Routes rendered for the web side (see route.h); the same endpoints and
 * bodies as http.c's handler, which `wearwatch serve` keeps using. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "daemon/route.h"
#include "wearwatch/expo.h"

#define DRIVES "/api/v1/drives"

bool ww_route_path_valid(const char *p)
{
	static const char *const fixed[] = { "/metrics", "/healthz", "/", "/index.html",
					     DRIVES, DRIVES "/" };
	size_t n;

	if (!p)
		return false;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(p, fixed[i]))
			return true;
	if (strncmp(p, DRIVES "/", sizeof(DRIVES)))
		return false;
	p += sizeof(DRIVES);
	n = strlen(p);
	if (!n || n > 200 || !strcmp(p, ".") || !strcmp(p, ".."))
		return false;
	return strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:+@-") == n;
}

static void set(ww_route_reply_t *r, unsigned status, const char *type, char *body, size_t len)
{
	r->status = status;
	snprintf(r->type, sizeof(r->type), "%s", type);
	r->body = body;
	r->len = len;
}

int ww_route_render(ww_store_t *store, const char *path, time_t now, ww_route_reply_t *r)
{
	ww_snapshot_t *snap;
	char *b = NULL;
	size_t len = 0;

	memset(r, 0, sizeof(*r));
	if (!ww_route_path_valid(path)) {
		b = strdup("not found\n");
		set(r, 404, "text/plain; charset=utf-8", b, b ? strlen(b) : 0);
		return b ? 0 : -ENOMEM;
	}
	if (!strcmp(path, "/healthz")) {
		b = strdup("ok\n");
		set(r, 200, "text/plain; charset=utf-8", b, b ? strlen(b) : 0);
		return b ? 0 : -ENOMEM;
	}
	snap = ww_store_acquire(store);
	if (!strcmp(path, "/metrics")) {
		b = ww_metrics_render(snap, now, &len);
		set(r, 200, WW_METRICS_CONTENT_TYPE, b, len);
	} else if (!strcmp(path, DRIVES) || !strcmp(path, DRIVES "/")) {
		b = ww_json_render_drives(snap, now);
		set(r, 200, "application/json", b, b ? strlen(b) : 0);
	} else if (!strcmp(path, "/") || !strcmp(path, "/index.html")) {
		b = ww_html_render_index(snap, now);
		set(r, 200, "text/html; charset=utf-8", b, b ? strlen(b) : 0);
	} else {
		const char *id = path + sizeof(DRIVES);
		bool found = false;

		b = ww_json_render_drive(snap, id, now, &found);
		if (found) {
			set(r, 200, "application/json", b, b ? strlen(b) : 0);
		} else {
			json_object *o = json_object_new_object();

			free(b);
			json_object_object_add(o, "error", json_object_new_string("unknown drive"));
			json_object_object_add(o, "drive", json_object_new_string(id));
			b = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
			json_object_put(o);
			set(r, 404, "application/json", b, b ? strlen(b) : 0);
		}
	}
	ww_snapshot_release(snap);
	return r->body ? 0 : -ENOMEM;
}
