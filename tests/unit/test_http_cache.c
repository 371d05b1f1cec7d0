/* The render cache of /metrics and /api/v1/drives (src/http/route.c) and the
 * gzip layer (src/http/gzip.c): a cached body is served until the store
 * changes (or the thresholds do: a reload) and never after; a shared body stays valid for the request that
 * holds it while a newer one replaces it; the JSON follows the clock
 * (values_age_seconds); gzip output inflates (zlib) back to the body, and
 * Accept-Encoding is read as RFC 9110 12.5.3 says (q=0 refuses). */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "wearwatch/http.h"
#include "wearwatch/store.h"
#include "ww_test.h"

#define T0 1700006400
#define ID "nvme-cache-0"

/* value of the sample line starting with `prefix`, or -1 */
static double value_of(const char *body, const char *prefix)
{
	const char *p = body ? strstr(body, prefix) : NULL;

	p = p ? strstr(p, "} ") : NULL;
	return p ? strtod(p + 2, NULL) : -1;
}

static void test_metrics_follow_the_store(void)
{
	ww_store_t *s = ww_store_new(0);
	ww_drive_t d;
	ww_health_t h;
	ww_route_reply_t a, b, c;
	const char *line = "wearwatch_drive_collections_total{drive=\"" ID "\"";

	memset(&d, 0, sizeof(d));
	snprintf(d.id, sizeof(d.id), ID);
	d.protocol = WW_PROTO_NVME;
	memset(&h, 0, sizeof(h));
	WW_SET(h.temperature_celsius, 40, "test");
	CHECK_EQ_I64(ww_store_sync(s, &d, 1, T0), 0);

	CHECK_EQ_I64(ww_route_render_shared(&(ww_route_src_t){ .store = s }, "/metrics", T0, &a),
		     0);
	CHECK(a.shared != NULL && a.shared->data == a.body);
	CHECK(value_of(a.body, line) == 0);
	/* unchanged store: the same buffer */
	CHECK_EQ_I64(
		ww_route_render_shared(&(ww_route_src_t){ .store = s }, "/metrics", T0 + 5, &b), 0);
	CHECK(b.body == a.body && b.len == a.len);
	ww_route_reply_free(&b);
	/* a collection: a new body, while the old one stays readable */
	CHECK_EQ_I64(ww_store_update(s, ID, 0, &h, NULL, 0.01, T0 + 10), 0);
	CHECK_EQ_I64(
		ww_route_render_shared(&(ww_route_src_t){ .store = s }, "/metrics", T0 + 10, &b),
		0);
	CHECK(b.body != a.body);
	CHECK(value_of(b.body, line) == 1);
	CHECK(value_of(a.body, line) == 0);
	ww_route_reply_free(&a);
	/* the copying form gives the same bytes, the caller's to free */
	CHECK_EQ_I64(ww_route_render(&(ww_route_src_t){ .store = s }, "/metrics", T0 + 10, &c), 0);
	CHECK(c.shared == NULL && c.len == b.len && !memcmp(c.body, b.body, b.len));
	free(c.body);
	ww_route_reply_free(&b);

	/* the JSON list: values_age_seconds moves with the clock */
	CHECK_EQ_I64(
		ww_route_render(&(ww_route_src_t){ .store = s }, "/api/v1/drives", T0 + 20, &a), 0);
	CHECK_EQ_I64(
		ww_route_render(&(ww_route_src_t){ .store = s }, "/api/v1/drives/", T0 + 21, &b),
		0);
	CHECK(a.body && strstr(a.body, "\"values_age_seconds\":10"));
	CHECK(b.body && strstr(b.body, "\"values_age_seconds\":11"));
	free(a.body);
	free(b.body);
	ww_store_free(s);
}

/* new thresholds (a reload) show at the next render, not the next
 * collection: the thresholds pointer is part of what the cache compares */
static void test_metrics_follow_the_thresholds(void)
{
	ww_store_t *s = ww_store_new(0);
	ww_store_endurance_t *svc = ww_store_endurance_new(NULL, NULL, NULL);
	ww_health_cfg_t cfg, hot;
	ww_thresholds_t t_cfg = { .dflt = &cfg }, t_hot = { .dflt = &hot };
	ww_route_src_t src = { .store = s, .endurance = svc, .thresholds = &t_cfg };
	ww_drive_t d;
	ww_health_t h;
	ww_route_reply_t a, b;
	const char *line = "wearwatch_drive_health_status{drive=\"" ID "\"";

	ww_health_cfg_defaults(&cfg);
	memset(&d, 0, sizeof(d));
	snprintf(d.id, sizeof(d.id), ID);
	d.protocol = WW_PROTO_NVME;
	memset(&h, 0, sizeof(h));
	h.protocol = WW_PROTO_NVME;
	WW_SET(h.temperature_celsius, 40, "test");
	CHECK_EQ_I64(ww_store_sync(s, &d, 1, T0), 0);
	CHECK_EQ_I64(ww_store_update(s, ID, 0, &h, NULL, 0.01, T0), 0);
	CHECK_EQ_I64(ww_route_render_shared(&src, "/metrics", T0, &a), 0);
	CHECK(value_of(a.body, line) == WW_STATUS_OK);
	/* a reload: the service hands the renders the new generation's thresholds */
	hot = cfg;
	hot.has_temp_warning = true;
	hot.temp_warning_celsius = 35;
	__atomic_store_n(&src.thresholds, &t_hot, __ATOMIC_RELEASE);
	CHECK_EQ_I64(ww_route_render_shared(&src, "/metrics", T0 + 1, &b), 0);
	CHECK(b.body != a.body);
	CHECK(value_of(b.body, line) == WW_STATUS_WARNING);
	ww_route_reply_free(&a);
	ww_route_reply_free(&b);
	ww_store_endurance_free(svc);
	ww_store_free(s);
}

static void test_accept_encoding(void)
{
	static const struct {
		const char *v;
		bool want;
	} cases[] = {
		{ NULL, false }, { "", false }, { "identity", false }, { "gzip", true },
		{ "GZip", true }, { "x-gzip", true }, { "deflate, gzip", true },
		{ "gzip;q=0", false }, { "gzip; q=0.000", false }, { "gzip;q=0.5", true },
		{ "br;q=1, gzip;q=0, deflate", false }, { "gzip;q=0.001", true },
		{ "gzipped", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool got = ww_http_accepts_gzip(cases[i].v);

		if (got != cases[i].want)
			printf("Accept-Encoding \"%s\": %d, want %d\n", cases[i].v ? cases[i].v : "(none)",
			       got, cases[i].want);
		CHECK(got == cases[i].want);
	}
}

/* inflate z (zl bytes) and compare with want (n bytes) */
static bool inflates_to(const char *z, size_t zl, const char *want, size_t n)
{
	char *back = malloc(n + 1);
	z_stream s;
	bool ok;

	memset(&s, 0, sizeof(s));
	CHECK(back && inflateInit2(&s, 15 + 16) == Z_OK);
	s.next_in = (Bytef *)z;
	s.avail_in = (uInt)zl;
	s.next_out = (Bytef *)back;
	s.avail_out = (uInt)n + 1;
	ok = inflate(&s, Z_FINISH) == Z_STREAM_END && s.total_out == n && !memcmp(back, want, n);
	inflateEnd(&s);
	free(back);
	return ok;
}

/* a shared body is compressed once, whoever asks; one not shared each time */
static void test_gzip_round_trip(void)
{
	static const char line[] = "wearwatch_drive_info{drive=\"x\"} 1\n";
	size_t n = 300000, zl = 0, zl2 = 0;
	char *body = malloc(n + 1), *z = NULL;
	const char *g1, *g2;
	ww_http_body_t *b, *b2;
	uint64_t before;

	for (size_t i = 0; i < n; i++)
		body[i] = line[i % (sizeof(line) - 1)];
	body[n] = 0;
	CHECK_EQ_I64(ww_http_gzip(body, n, &z, &zl), 0);
	CHECK(zl > 18 && zl < n / 10 && (unsigned char)z[0] == 0x1f && (unsigned char)z[1] == 0x8b);
	CHECK(inflates_to(z, zl, body, n));
	/* the paths kept as shared bodies are the render cache's */
	CHECK(ww_route_cached("/metrics") && ww_route_cached("/api/v1/drives") &&
	      ww_route_cached("/api/v1/drives/"));
	CHECK(!ww_route_cached("/api/v1/drives/d0") && !ww_route_cached("/healthz"));
	/* one index per kept body: the list and its "/" form are one */
	CHECK(ww_route_cached_index("/api/v1/drives/") == ww_route_cached_index("/api/v1/drives"));
	CHECK(ww_route_cached_index("/metrics") != ww_route_cached_index("/api/v1/drives"));
	CHECK(ww_route_cached_index("/metrics?profile=fleet") >= 0 &&
	      ww_route_cached_index("/metrics?profile=fleet") < WW_ROUTE_CACHED_PATHS);
	CHECK(ww_route_cached_index("/healthz") == -1 && ww_route_cached_index(NULL) == -1);

	b = ww_http_body_new(body, n, 0);
	CHECK(b != NULL && b->tag != 0 && b->data == body);
	before = ww_http_gzip_compressions();
	CHECK_EQ_I64(ww_http_body_gzip(b, &g1, &zl2), 0);
	CHECK_EQ_U64(ww_http_gzip_compressions(), before + 1);
	CHECK(inflates_to(g1, zl2, body, n));
	/* a second request: the same compressed bytes, nothing compressed */
	CHECK_EQ_I64(ww_http_body_gzip(ww_http_body_ref(b), &g2, &zl2), 0);
	CHECK(g2 == g1);
	CHECK_EQ_U64(ww_http_gzip_compressions(), before + 1);
	ww_http_body_unref(b);
	/* a body not shared is compressed at each call */
	free(z);
	CHECK_EQ_I64(ww_http_gzip(body, n, &z, &zl), 0);
	CHECK_EQ_U64(ww_http_gzip_compressions(), before + 2);
	/* a new body has a tag of its own; the web side's copy keeps the
	 * collector's */
	b2 = ww_http_body_new(strdup("x"), 1, 0);
	CHECK(b2 && b2->tag != b->tag);
	ww_http_body_unref(b2);
	b2 = ww_http_body_new(strdup("x"), 1, 12345);
	CHECK(b2 && b2->tag == 12345);
	ww_http_body_unref(b2);
	ww_http_body_unref(b); /* the last reference: body freed with it */
	free(z);
}

int main(void)
{
	test_metrics_follow_the_store();
	test_metrics_follow_the_thresholds();
	test_accept_encoding();
	test_gzip_round_trip();
	return ww_test_done("test_http_cache");
}
