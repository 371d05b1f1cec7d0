/* Latency-drift bursts in the history (ww_history_append_drift) on a fake
 * clock of one burst a day: the rows per drive stay bounded however long
 * the file lives (WW_HISTORY_DRIFT_KEEP plus the baseline's), the baseline
 * rows survive a drift longer than that bound, the newest burst reads back
 * whole, the history query serves burst p99 and baseline, and the endurance
 * service's hook judges a series against the baseline it keeps (a burst
 * above +30 % stays out of it). Figures are the synthetic bursts' own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wearwatch/history.h"
#include "wearwatch/store.h"
#include "ww_test.h"

#define T0 1700006400
#define DAY 86400

static char dir[] = "/tmp/ww_hdrift_XXXXXX";

static ww_hdrift_t row(long i, double p99, bool in_base)
{
	ww_hdrift_t b = {
		.t = T0 + i * DAY,
		.has_latency = true,
		.p50_s = p99 / 4,
		.p99_s = p99,
		.mean_s = p99 / 3,
		.reads = 1000 + (uint32_t)i,
		.errors = (uint32_t)(i % 3),
		.base_p99_s = 1e-3,
		.base_n = 5,
		.in_baseline = in_base,
	};
	return b;
}

static void test_bound(ww_history_t *h)
{
	double p[8];
	ww_hdrift_t last;
	long n;

	/* 100 days within the baseline (p99 1 ms + i us), then 200 days of
	 * drift (10 ms, never entering it): 300 rows written */
	for (long i = 0; i < 300; i++) {
		ww_hdrift_t b = i < 100 ? row(i, 1e-3 + (double)i * 1e-6, true)
					: row(i, 1e-2, false);

		CHECK_EQ_I64(ww_history_append_drift(h, "drive-d", &b, 5), 0);
		n = ww_history_count_drift(h, "drive-d");
		CHECK(n > 0 && n <= WW_HISTORY_DRIFT_KEEP + 5);
	}
	n = ww_history_count_drift(h, "drive-d");
	printf("rows after 300 daily bursts: %ld (bound %d + 5)\n", n, WW_HISTORY_DRIFT_KEEP);
	CHECK_EQ_I64(n, WW_HISTORY_DRIFT_KEEP + 5);
	/* the baseline is still the last five that entered it: days 99..95 */
	n = ww_history_drift_baseline(h, "drive-d", p, 5);
	CHECK_EQ_I64(n, 5);
	for (long k = 0; k < n; k++)
		CHECK(fabs(p[k] - (1e-3 + (double)(99 - k) * 1e-6)) < 1e-15);
	CHECK_EQ_I64(ww_history_drift_latest(h, "drive-d", &last), 1);
	CHECK_EQ_I64(last.t, T0 + 299L * DAY);
	CHECK(last.has_latency && fabs(last.p99_s - 1e-2) < 1e-15);
	CHECK(fabs(last.p50_s - 2.5e-3) < 1e-15 && fabs(last.mean_s - 1e-2 / 3) < 1e-15);
	CHECK_EQ_U64(last.reads, 1299);
	CHECK_EQ_U64(last.errors, 299 % 3);
	CHECK_EQ_U64(last.base_n, 5);
	CHECK(!last.in_baseline);
	/* another drive and an unknown one are apart */
	CHECK_EQ_I64(ww_history_count_drift(h, "drive-x"), 0);
	CHECK_EQ_I64(ww_history_drift_baseline(h, "drive-x", p, 5), 0);
	CHECK_EQ_I64(ww_history_drift_latest(h, "drive-x", &last), 0);
}

static void test_query(ww_history_t *h)
{
	ww_hpoint_t *pts = NULL;
	long n;

	CHECK(ww_hmetric_find("latency_drift_p99_seconds") == WW_HM_DRIFT_P99);
	CHECK(ww_hmetric_find("latency_drift_baseline_p99_seconds") == WW_HM_DRIFT_BASE_P99);
	n = ww_history_query(h, "drive-d", WW_HM_DRIFT_P99, T0, T0 + 400L * DAY, 1000, &pts);
	CHECK_EQ_I64(n, WW_HISTORY_DRIFT_KEEP + 5);
	if (n > 0) {
		CHECK_EQ_I64(pts[0].t, T0 + 95L * DAY); /* the oldest kept: the baseline's */
		CHECK(fabs(pts[n - 1].value - 1e-2) < 1e-15);
	}
	free(pts);
	pts = NULL;
	n = ww_history_query(h, "drive-d", WW_HM_DRIFT_BASE_P99, T0 + 299L * DAY, T0 + 299L * DAY,
			     10, &pts);
	CHECK_EQ_I64(n, 1);
	if (n == 1)
		CHECK(pts[0].has_value && fabs(pts[0].value - 1e-3) < 1e-15);
	free(pts);
}

/* the service's hook: the baseline is the history's, under the defaults */
static void test_hook(const char *path)
{
	ww_history_t *h;
	ww_ratings_t t = { 0 }, o = { 0 };
	ww_store_endurance_t *svc;
	ww_drive_t d = { .id = "drive-s", .block = "sdz" };
	const double us[] = { 100, 110, 90, 100, 100, 125, 200, 120 };
	const bool want_in[] = { 1, 1, 1, 1, 1, 1, 0, 1 };
	const unsigned want_n[] = { 0, 1, 2, 3, 4, 5, 5, 5 };

	CHECK_EQ_I64(ww_history_open(path, NULL, &h, NULL, 0), 0);
	svc = ww_store_endurance_new(&t, &o, h);
	CHECK(svc != NULL);
	for (int i = 0; svc && i < 8; i++) {
		ww_hdrift_t b = {
			.t = T0 + i * DAY, .has_latency = true, .p99_s = us[i] / 1e6, .reads = 100
		};

		ww_store_endurance_drift_burst(svc, NULL, &d, &b);
		CHECK_EQ_U64(b.base_n, want_n[i]);
		CHECK(b.in_baseline == want_in[i]);
	}
	/* day 6: baseline (100+110+90+100+100)/5 = 100 us, 200 > 130: out;
	 * day 7: still against (125+100+100+90+110)/5 = 105 us */
	if (svc) {
		ww_hdrift_t last;

		CHECK_EQ_I64(ww_store_endurance_drift_latest(svc, "drive-s", &last), 1);
		CHECK(fabs(last.base_p99_s - 105e-6) < 1e-12);
		CHECK(last.in_baseline);
	}
	ww_store_endurance_free(svc);
}

int main(void)
{
	char path[256], path2[256];
	ww_history_t *h;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/history.db", dir);
	snprintf(path2, sizeof(path2), "%s/hook.db", dir);
	CHECK_EQ_I64(ww_history_open(path, NULL, &h, NULL, 0), 0);
	test_bound(h);
	test_query(h);
	ww_history_close(h);
	test_hook(path2);
	unlink(path);
	unlink(path2);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CHECK(system(cmd) == 0);
	}
	return ww_test_done("test_history_drift");
}
