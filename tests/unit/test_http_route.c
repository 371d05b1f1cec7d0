/* The HTTP routes' path check (ww_route_path_valid, src/http/route.c) on the
 * history API's query: the names docs/api.md lists, each once, values of
 * plain bytes, RFC 3339 times for from/to. */
#include <stdio.h>
#include <string.h>

#include "wearwatch/http.h"
#include "ww_test.h"

static void test_history_route(void)
{
	const char *h = "/api/v1/drives/nvme-QEMU_NVMe_Ctrl_deadbeef/history";
	char p[512];

	CHECK(ww_route_path_valid(h));
	snprintf(p, sizeof(p), "%s?metric=host_written_bytes&from=1&to=1700000000&max_points=400", h);
	CHECK(ww_route_path_valid(p));
	snprintf(p, sizeof(p), "%s?metric=x&metric=y", h);  /* repeated name */
	CHECK(!ww_route_path_valid(p));
	snprintf(p, sizeof(p), "%s?step=1", h);             /* unknown name */
	CHECK(!ww_route_path_valid(p));
	snprintf(p, sizeof(p), "%s?metric=a%%2fb", h);      /* '%' not a value byte */
	CHECK(!ww_route_path_valid(p));
	snprintf(p, sizeof(p), "%s?metric=", h);            /* empty value */
	CHECK(!ww_route_path_valid(p));
	CHECK(!ww_route_path_valid("/api/v1/drives/x?metric=a")); /* query on a drive */
	/* /metrics' one query: the fleet profile (docs/metrics.md, Profiles) */
	CHECK(ww_route_path_valid("/metrics?profile=fleet"));
	CHECK(ww_route_cached("/metrics?profile=fleet"));
	CHECK(!ww_route_path_valid("/metrics?profile=other"));
	CHECK(!ww_route_path_valid("/metrics?profile=fleet&x=1"));
	CHECK(!ww_route_path_valid("/api/v1/drives/../history"));
	CHECK(ww_route_path_valid("/table"));
	/* RFC 3339 times, as docs/api.md lets from/to be */
	snprintf(p, sizeof(p), "%s?metric=present&from=2024-01-31T12:00:00Z", h);
	CHECK(ww_route_path_valid(p));
	snprintf(p, sizeof(p), "%s?metric=present&to=2024-01-31T12:00:00.5+02:00", h);
	CHECK(ww_route_path_valid(p));
	snprintf(p, sizeof(p), "%s?metric=present&to=2024-01-31 12:00:00", h); /* no space */
	CHECK(!ww_route_path_valid(p));
}

int main(void)
{
	test_history_route();
	return ww_test_done("test_http_route");
}
