/* Latency drift (model.h ww_drift_*, reason latency_drift) on synthetic
 * series of daily drift bursts: the expected figures follow from the
 * documented rule (docs/health.md "Latency drift": the baseline is the mean
 * p99 of the last latency_drift_bursts bursts that entered it, a burst more
 * than latency_drift_percent above it is the reason and stays out of it),
 * worked out by hand below. The clock is the bursts' own times (one a day
 * from T0), passed as `now`. */
#include <math.h>

#include "wearwatch/model.h"
#include "ww_test.h"

#define T0 ((time_t)1700000000)
#define DAY 86400

static ww_health_t h;
static ww_verdict_t v;

/* what the service keeps: the p99s that entered the baseline, newest first */
static double kept[64];
static size_t n_kept;
static ww_drift_base_t last_base;

static void nvme_record(void)
{
	memset(&h, 0, sizeof(h));
	h.protocol = WW_PROTO_NVME;
	h.has_nvme_smart = true;
	h.critical_warning = (ww_u64){ .value = 0, .source = "NVMe log 02h byte 0" };
}

/* one burst of p99 `us` microseconds on day `day`: judged against the
 * baseline, kept or not, then the verdict at its time */
static const ww_vreason_t *burst(const ww_health_cfg_t *cfg, int day, double us)
{
	ww_health_cfg_t d;
	const ww_health_cfg_t *c = cfg;
	double p99 = us / 1e6;
	time_t t = T0 + (time_t)day * DAY;
	ww_verdict_in_t in = {
		.h = &h, .protocol = WW_PROTO_NVME, .present = true, .values_time = t, .cfg = cfg
	};

	if (!c) {
		ww_health_cfg_defaults(&d);
		c = &d;
	}
	ww_drift_baseline(kept, n_kept, c->drift_bursts, &last_base);
	if (ww_drift_enters(&last_base, c->drift_bursts, c->drift_percent, p99)) {
		memmove(kept + 1, kept, sizeof(kept) - sizeof(kept[0]));
		kept[0] = p99;
		n_kept += n_kept < 64;
	}
	in.has_drift = true;
	in.drift_time = t;
	in.drift_p99_s = p99;
	in.drift_base_p99_s = last_base.p99_s;
	in.drift_base_n = last_base.n;
	ww_verdict(&in, t, &v);
	for (size_t i = 0; i < v.n; i++)
		if (v.r[i].code == WW_R_LATENCY_DRIFT)
			return &v.r[i];
	return NULL;
}

static void reset(void)
{
	n_kept = 0;
	memset(kept, 0, sizeof(kept));
}

static void test_pure(void)
{
	const double p[] = { 0.003, 0.001, 0.002, 0.004, 0.005, 0.006 };
	ww_drift_base_t b;

	ww_drift_baseline(p, 6, 5, &b); /* the newest five: 3+1+2+4+5 = 15 ms / 5 */
	CHECK_EQ_U64(b.n, 5);
	CHECK(fabs(b.p99_s - 0.003) < 1e-12);
	ww_drift_baseline(p, 2, 5, &b);
	CHECK_EQ_U64(b.n, 2);
	CHECK(fabs(b.p99_s - 0.002) < 1e-12);
	ww_drift_baseline(p, 0, 5, &b);
	CHECK(b.n == 0 && b.p99_s == 0);
	CHECK(fabs(ww_drift_limit(0.001, 30) - 0.0013) < 1e-12);
	b = (ww_drift_base_t){ .n = 5, .p99_s = 0.001 };
	CHECK(!ww_drift_exceeds(&b, 5, 30, 0.0013)); /* at the limit: no drift */
	CHECK(ww_drift_exceeds(&b, 5, 30, 0.0013001));
	CHECK(!ww_drift_enters(&b, 5, 30, 0.0013001));
	b.n = 4; /* not full: nothing drifts, everything enters */
	CHECK(!ww_drift_exceeds(&b, 5, 30, 0.1));
	CHECK(ww_drift_enters(&b, 5, 30, 0.1));
}

/* defaults (5 bursts, +30 %): raised only once the baseline holds 5, kept
 * while the drive stays slow, cleared by the first burst back within */
static void test_series(void)
{
	/* days 0-4: the baseline fills; day 1's spike of 10x is no reason */
	const double fill[] = { 100, 1000, 96, 100, 100 };
	const ww_vreason_t *r;

	reset();
	for (int d = 0; d < 5; d++) {
		CHECK(burst(NULL, d, fill[d]) == NULL);
		CHECK_EQ_U64(last_base.n, (unsigned)d);
	}
	CHECK_EQ_U64(v.status, WW_STATUS_OK);
	/* day 5: baseline (100+1000+96+100+100)/5 = 279.2 us, limit 362.96:
	 * 300 is within and enters (the spike leaves at day 6 ...) */
	CHECK(burst(NULL, 5, 300) == NULL);
	CHECK_EQ_U64(last_base.n, 5);
	CHECK(fabs(last_base.p99_s - 279.2e-6) < 1e-12);
	/* day 6: (300+100+100+96+1000)/5 = 319.2; day 7: the spike is out:
	 * (120+300+100+100+96)/5 = 143.2 us */
	CHECK(burst(NULL, 6, 120) == NULL);
	CHECK(burst(NULL, 7, 150) == NULL);
	CHECK(fabs(last_base.p99_s - 143.2e-6) < 1e-12);
	/* baseline now (150+120+300+100+100)/5 = 154 us, limit 200.2 us */
	r = burst(NULL, 8, 250);
	CHECK(r != NULL);
	CHECK_EQ_U64(v.status, WW_STATUS_WARNING);
	if (r) {
		CHECK_EQ_U64(r->severity, WW_STATUS_WARNING);
		CHECK_EQ_I64(r->value, 250);
		CHECK_EQ_I64(r->baseline, 154);
		CHECK_EQ_I64(r->limit, 200); /* 200.2 to whole µs */
		CHECK_STR(r->unit, "µs");
		CHECK(r->has == (WW_VN_VALUE | WW_VN_BASELINE | WW_VN_LIMIT));
		CHECK(strstr(r->text, "250 µs") && strstr(r->text, "154 µs") &&
		      strstr(r->text, "+30 % = 200 µs") && strstr(r->text, "2023-11-22"));
		printf("%s\n", r->text);
	}
	/* days 9-12: still slow; the drifted bursts stay out of the baseline,
	 * so it does not creep up to them */
	for (int d = 9; d < 13; d++) {
		r = burst(NULL, d, 240);
		CHECK(r != NULL);
		CHECK(fabs(last_base.p99_s - 154e-6) < 1e-12);
	}
	/* day 13: back within the limit: cleared, and it enters */
	CHECK(burst(NULL, 13, 160) == NULL);
	CHECK_EQ_U64(v.status, WW_STATUS_OK);
	CHECK(fabs(kept[0] - 160e-6) < 1e-12);
}

/* [drive] overrides: a larger rise allowed, a shorter baseline */
static void test_overrides(void)
{
	ww_health_cfg_t c;

	ww_health_cfg_defaults(&c);
	CHECK_EQ_U64(c.drift_percent, 30);
	CHECK_EQ_U64(c.drift_bursts, 5);
	c.drift_percent = 100;
	reset();
	for (int d = 0; d < 5; d++)
		burst(&c, d, 100);
	CHECK(burst(&c, 5, 199) == NULL); /* within 2x */
	CHECK(burst(&c, 6, 250) != NULL); /* limit (199+400)/5*2 = 239.6 */

	ww_health_cfg_defaults(&c);
	c.drift_bursts = 2;
	reset();
	CHECK(burst(&c, 0, 100) == NULL);
	CHECK(burst(&c, 1, 100) == NULL);
	CHECK(burst(&c, 2, 140) != NULL); /* two kept: limit 130 */

	ww_health_cfg_defaults(&c);
	c.silenced = 1ull << WW_R_LATENCY_DRIFT;
	reset();
	for (int d = 0; d < 5; d++)
		burst(&c, d, 100);
	CHECK(burst(&c, 5, 1000) == NULL);
	CHECK((v.silenced >> WW_R_LATENCY_DRIFT) & 1);
}

/* a burst with no baseline (history off: base_n 0) is never the reason */
static void test_no_baseline(void)
{
	ww_verdict_in_t in = { .h = &h,
			       .protocol = WW_PROTO_NVME,
			       .present = true,
			       .values_time = T0,
			       .has_drift = true,
			       .drift_time = T0,
			       .drift_p99_s = 1.0 };

	ww_verdict(&in, T0, &v);
	CHECK_EQ_U64(v.status, WW_STATUS_OK);
	CHECK(ww_reason_by_name("latency_drift") == WW_R_LATENCY_DRIFT);
}

int main(void)
{
	nvme_record();
	test_pure();
	test_series();
	test_overrides();
	test_no_baseline();
	return ww_test_done("test_model_drift");
}
