/* Routes rendered for the web side (see route.h); the same endpoints and
 * bodies as http.c's handler, which `wearwatch serve` keeps using. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "wearwatch/http.h"
#include "wearwatch/expo.h"

#define DRIVES "/api/v1/drives"

#define HISTORY "/history"

/* ID made of what drive ids are made of (/dev/disk/by-id names), n bytes */
static bool id_valid(const char *p, size_t n)
{
	if (!n || n > 200 || (n == 1 && p[0] == '.') || (n == 2 && !strncmp(p, "..", 2)))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:+@-", p[i]) ||
		    !p[i])
			return false;
	return true;
}

/* History query: "k=v" pairs joined by '&', k one of the names the history
 * endpoint reads (docs/api.md), each at most once, v 1-32 bytes of
 * [A-Za-z0-9_.:+-] (metric names, integers, RFC 3339 times such as
 * 2024-01-31T12:00:00+02:00). Empty is fine. */
static bool query_valid(const char *q)
{
	static const char *const names[] = { "metric", "from", "to", "max_points" };
	bool seen[4] = { false };

	while (*q) {
		const char *eq = strchr(q, '='), *amp;
		size_t k = 0, vn;

		if (!eq)
			return false;
		while (k < 4 && (strlen(names[k]) != (size_t)(eq - q) ||
				 strncmp(q, names[k], (size_t)(eq - q))))
			k++;
		if (k == 4 || seen[k])
			return false;
		seen[k] = true;
		amp = strchr(eq + 1, '&');
		vn = amp ? (size_t)(amp - eq - 1) : strlen(eq + 1);
		if (!vn || vn > 32 || strspn(eq + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					      "0123456789_.:+-") < vn)
			return false;
		if (!amp)
			break;
		q = amp + 1;
		if (!*q)
			return false;
	}
	return true;
}

bool ww_route_path_valid(const char *p)
{
	static const char *const fixed[] = { "/metrics",    "/metrics?profile=fleet",
					     "/healthz",    "/",
					     "/index.html", "/table",
					     DRIVES,        DRIVES "/" };
	const char *q;
	size_t n;

	if (!p || strlen(p) > WW_ROUTE_MAX_PATH)
		return false;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (!strcmp(p, fixed[i]))
			return true;
	if (strncmp(p, DRIVES "/", sizeof(DRIVES)))
		return false;
	p += sizeof(DRIVES);
	q = strchr(p, '?');
	n = q ? (size_t)(q - p) : strlen(p);
	/* /api/v1/drives/ID/history[?query] */
	if (n > sizeof(HISTORY) - 1 && !strncmp(p + n - (sizeof(HISTORY) - 1), HISTORY,
						sizeof(HISTORY) - 1))
		return id_valid(p, n - (sizeof(HISTORY) - 1)) && (!q || query_valid(q + 1));
	/* /api/v1/drives/ID */
	return !q && id_valid(p, n);
}

/* value of `key` in a query_valid() query, copied to buf; NULL when absent */
static const char *query_get(const char *q, const char *key, char *buf, size_t len)
{
	size_t kn = strlen(key);

	while (q && *q) {
		const char *amp = strchr(q, '&');
		size_t n = amp ? (size_t)(amp - q) : strlen(q);

		if (n > kn && q[kn] == '=' && !strncmp(q, key, kn)) {
			snprintf(buf, len, "%.*s", (int)(n - kn - 1), q + kn + 1);
			return buf;
		}
		q = amp ? amp + 1 : NULL;
	}
	return NULL;
}

static void set(ww_route_reply_t *r, unsigned status, const char *type, char *body, size_t len)
{
	r->status = status;
	snprintf(r->type, sizeof(r->type), "%s", type);
	r->body = body;
	r->len = len;
}

/* The bodies every scraper asks for, rendered once and shared by every
 * request (ww_route_render copies them) until what they show changes: the snapshot (its generation), an
 * endurance result, the history's write-error counter, and for the JSON
 * (values_age_seconds) the second. One lock: concurrent scrapes of a
 * changed snapshot render it once. */
static struct cached {
	const char *path;
	bool uses_now;
	uint64_t gen, egen, herr, hpend;
	/* the thresholds, and their generation: a freed generation's address
	 * may come back with the next one, its generation number never */
	const ww_thresholds_t *thresholds;
	uint64_t tgen;
	time_t now;
	ww_http_body_t *body; /* NULL until rendered */
} cache[] = {
	{ .path = "/metrics", .uses_now = false },
	{ .path = DRIVES, .uses_now = true },
	{ .path = "/metrics?profile=fleet", .uses_now = false },
};
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
_Static_assert(sizeof(cache) / sizeof(cache[0]) == WW_ROUTE_CACHED_PATHS,
	       "WW_ROUTE_CACHED_PATHS is the render cache's size");

int ww_route_cached_index(const char *path)
{
	if (!path)
		return -1;
	if (!strcmp(path, DRIVES "/"))
		path = DRIVES;
	for (int i = 0; i < WW_ROUTE_CACHED_PATHS; i++)
		if (!strcmp(path, cache[i].path))
			return i;
	return -1;
}

static struct cached *cached_route(const char *path)
{
	int i = ww_route_cached_index(path);

	return i < 0 ? NULL : &cache[i];
}

bool ww_route_cached(const char *path)
{
	return ww_route_cached_index(path) >= 0;
}

static char *render_uncached(const struct cached *c, const ww_render_ctx_t *ctx, size_t *len)
{
	char *b;

	if (c == &cache[0])
		return ww_metrics_render(ctx, len);
	if (c == &cache[2]) {
		ww_render_ctx_t lean = *ctx;

		lean.fleet_profile = true;
		return ww_metrics_render(&lean, len);
	}
	b = ww_json_render_drives(ctx);
	*len = b ? strlen(b) : 0;
	return b;
}

void ww_route_reply_free(ww_route_reply_t *r)
{
	if (r->shared)
		ww_http_body_unref(r->shared);
	else
		free(r->body);
	memset(r, 0, sizeof(*r));
}

/* c's body for ctx (rendered when stale), with a reference for the caller,
 * or NULL */
static ww_http_body_t *from_cache(struct cached *c, const ww_render_ctx_t *ctx)
{
	const ww_snapshot_t *snap = ctx->snap;
	ww_store_endurance_t *svc = ctx->endurance;
	time_t now = ctx->now;
	uint64_t egen = ww_store_endurance_generation(svc);
	ww_history_t *hist = svc ? ww_store_endurance_history(svc) : NULL;
	uint64_t herr = hist ? ww_history_write_errors(hist) : 0;
	uint64_t hpend = hist ? ww_history_pending(hist) : 0;
	uint64_t tgen = ctx->thresholds ? ctx->thresholds->generation : 0;
	ww_http_body_t *b = NULL;

	pthread_mutex_lock(&cache_lock);
	if (!c->body || c->gen != snap->generation || c->egen != egen || c->herr != herr ||
	    c->hpend != hpend || c->thresholds != ctx->thresholds || c->tgen != tgen ||
	    (c->uses_now && c->now != now)) {
		size_t len = 0;
		char *data = render_uncached(c, ctx, &len);
		ww_http_body_t *nb = ww_http_body_new(data, len, 0);

		if (nb) {
			ww_http_body_unref(c->body);
			c->body = nb;
			c->gen = snap->generation;
			c->egen = egen;
			c->herr = herr;
			c->hpend = hpend;
			c->thresholds = ctx->thresholds;
			c->tgen = tgen;
			c->now = now;
		}
	}
	if (c->body && c->gen == snap->generation)
		b = ww_http_body_ref(c->body);
	pthread_mutex_unlock(&cache_lock);
	return b;
}

/* the reply for a cached route: the cache's buffer, or a copy of it */
static void cached_reply(struct cached *c, const ww_render_ctx_t *ctx, bool shared,
			 ww_route_reply_t *r)
{
	ww_http_body_t *b = from_cache(c, ctx);
	char *copy = NULL;

	set(r, 200, c != &cache[1] ? WW_METRICS_CONTENT_TYPE : "application/json", NULL, 0);
	if (b && shared) {
		r->body = b->data;
		r->len = b->len;
		r->shared = b;
		return;
	}
	if (b && (copy = malloc(b->len + 1))) {
		memcpy(copy, b->data, b->len + 1);
		r->body = copy;
		r->len = b->len;
	}
	ww_http_body_unref(b);
}

static int render(const ww_route_src_t *src, const char *path, time_t now, bool shared,
		  ww_route_reply_t *r)
{
	struct cached *c;
	ww_snapshot_t *snap;
	ww_render_ctx_t ctx;
	char *b = NULL;

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
	snap = ww_store_acquire(src->store);
	ctx = (ww_render_ctx_t){ .snap = snap,
				 .endurance = src->endurance,
				 .now = now,
				 .thresholds = src->hold
					 ? src->hold(src->hold_arg)
					 : __atomic_load_n(&src->thresholds, __ATOMIC_ACQUIRE) };
	if ((c = cached_route(path))) {
		cached_reply(c, &ctx, shared, r);
	} else if (strchr(path, '?') || (strlen(path) > sizeof(HISTORY) - 1 &&
		   !strcmp(path + strlen(path) - (sizeof(HISTORY) - 1), HISTORY))) {
		/* GET /api/v1/drives/{drive}/history?metric=&from=&to=&max_points=
		 * (docs/api.md): the same renderer serve uses, so the split web
		 * process answers history exactly as serve does */
		const char *q = strchr(path, '?'), *idp = path + sizeof(DRIVES);
		size_t pn = q ? (size_t)(q - path) : strlen(path);
		char id[256], m[40], f[40], t[40], mp[40];
		unsigned status = 500;

		snprintf(id, sizeof(id), "%.*s", (int)(pn - (sizeof(HISTORY) - 1) - sizeof(DRIVES)),
			 idp);
		if (q)
			q++;
		b = ww_json_render_history(&ctx, id, query_get(q, "metric", m, sizeof(m)),
					   query_get(q, "from", f, sizeof(f)),
					   query_get(q, "to", t, sizeof(t)),
					   query_get(q, "max_points", mp, sizeof(mp)), &status);
		set(r, status, "application/json", b, b ? strlen(b) : 0);
	} else if (!strcmp(path, "/") || !strcmp(path, "/index.html") || !strcmp(path, "/table")) {
		b = ww_html_render_index(&ctx);
		set(r, 200, "text/html; charset=utf-8", b, b ? strlen(b) : 0);
	} else {
		const char *id = path + sizeof(DRIVES);
		bool found = false;

		b = ww_json_render_drive(&ctx, id, &found);
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
	if (src->drop)
		src->drop(src->hold_arg, ctx.thresholds);
	ww_snapshot_release(snap);
	return r->body ? 0 : -ENOMEM;
}

int ww_route_render(const ww_route_src_t *src, const char *path, time_t now, ww_route_reply_t *r)
{
	return render(src, path, now, false, r);
}

int ww_route_render_shared(const ww_route_src_t *src, const char *path, time_t now,
			   ww_route_reply_t *r)
{
	return render(src, path, now, true, r);
}
