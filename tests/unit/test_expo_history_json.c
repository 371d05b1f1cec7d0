/* History API JSON (ww_json_render_history, src/expo/json_endurance.c) with
 * values outside the int64 range. A whole-number value is printed as an
 * integer; the test for "whole" cast the double to int64_t first, undefined
 * behaviour for 1e19 (above INT64_MAX = 9223372036854775807). Values here are
 * probe bursts whose largest latency is set to the value under test (the
 * renderer does not care about the unit); expected texts are C's "%.15g" of
 * the value, or the exact integer. With -DWW_SANITIZE=ON the sanitizer build
 * checks float-cast-overflow and this test halts on any UBSan report. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wearwatch/store.h"
#include "wearwatch/expo.h"
#include "wearwatch/history.h"
#include "ww_test.h"

/* UBSan reads this at start: make a report fail the test */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

#define T0 1700006400

static char *point_of(ww_store_endurance_t *svc, const char *id, double v)
{
	ww_hprobe_t b = { .has_latency = true, .p50_s = 1, .p99_s = 1, .max_s = v, .reads = 1 };
	unsigned status = 0;
	char *body;

	ww_store_endurance_probe_burst(svc, id, &b, T0 + 100);
	body = ww_json_render_history(&(ww_render_ctx_t){ .endurance = svc, .now = T0 + 200 }, id,
				      "probe_latency_max_seconds", "1700006400", "1700006600", NULL,
				      &status);
	CHECK_EQ_I64(status, 200);
	return body;
}

static void expect(ww_store_endurance_t *svc, const char *id, double v, const char *want)
{
	char *body = point_of(svc, id, v);

	CHECK(body && strstr(body, want));
	if (!body || !strstr(body, want))
		fprintf(stderr, "  %s: %s, want %s\n", id, body ? body : "(null)", want);
	free(body);
}

int main(void)
{
	char dir[] = "/tmp/ww-hjson-XXXXXX", path[256];
	ww_history_t *h = NULL;
	ww_store_endurance_t *svc;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/h.db", dir);
	CHECK_EQ_I64(ww_history_open(path, NULL, &h, NULL, 0), 0);
	svc = ww_store_endurance_new(NULL, NULL, h);
	CHECK(svc != NULL);
	if (!svc)
		return ww_test_done("test_expo_history_json");

	expect(svc, "d1", 1e19, "[1700006500,1e+19,0]");
	expect(svc, "d2", -1e19, "[1700006500,-1e+19,0]");
	/* 2^63: one above INT64_MAX, out of range */
	expect(svc, "d3", 9223372036854775808.0, "[1700006500,9.22337203685478e+18,0]");
	/* -2^63 = INT64_MIN and 2^62 are in range: integers */
	expect(svc, "d4", -9223372036854775808.0, "[1700006500,-9223372036854775808,0]");
	expect(svc, "d5", 4611686018427387904.0, "[1700006500,4611686018427387904,0]");
	expect(svc, "d6", 0.5, "[1700006500,0.5,0]");
	{	/* no metric, or an unknown one: said, with every name it takes */
		static const char *const ask[] = { NULL, "bogus" };
		static const char *const want[] = {
			"{\"error\":\"metric required (one of: host_written_bytes, ",
			"{\"error\":\"unknown metric 'bogus' (one of: host_written_bytes, " };
		unsigned status = 0;

		for (int k = 0; k < 2; k++) {
			char *body = ww_json_render_history(
				&(ww_render_ctx_t){ .endurance = svc, .now = T0 + 200 }, "d1",
				ask[k], NULL, NULL, NULL, &status);

			CHECK_EQ_I64(status, 400);
			CHECK(body && !strncmp(body, want[k], strlen(want[k])));
			for (int i = 0; body && i < WW_HM_MAX; i++)
				CHECK(strstr(body, ww_hmetrics[i].name) != NULL);
			CHECK(body && strstr(body, ")\"}"));
			if (body && strncmp(body, want[k], strlen(want[k])))
				fprintf(stderr, "  %s\n", body);
			free(body);
		}
	}

	ww_store_endurance_free(svc);
	unlink(path);
	{
		char wal[300];

		snprintf(wal, sizeof(wal), "%s-wal", path);
		unlink(wal);
		snprintf(wal, sizeof(wal), "%s-shm", path);
		unlink(wal);
	}
	rmdir(dir);
	return ww_test_done("test_expo_history_json");
}
