/* Probe histogram and rolling window against exact sorted data.
 *
 * Expected values are computed here from the same samples, exactly: nearest
 * rank quantile sorted[ceil(q*n) - 1], arithmetic mean and population
 * standard deviation. The histogram must match within 1 % relative error
 * (probe.h promises v/256). Seeds are printed; WW_SEED=<n> repeats a run. */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "wearwatch/probe.h"
#include "ww_test.h"

static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1Dull;
}

static double uniform(void)
{
	return (double)(next() >> 11) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool within(double got, double want, double rel)
{
	return fabs(got - want) <= rel * want + 1;  /* +1 ns: integer buckets */
}

/* Latency-like samples: log-normal around 80 us with a 1 % tail near 5 ms. */
static uint64_t sample(void)
{
	double u1 = uniform(), u2 = uniform();
	double z = sqrt(-2 * log(u1 > 0 ? u1 : 1e-300)) * cos(2 * M_PI * u2);
	double v = 80000 * exp(0.5 * z);

	if (uniform() < 0.01)
		v = 5e6 * (1 + uniform());
	return (uint64_t)v + 1;
}

static void check_quantiles(const uint64_t *sorted, size_t n, const ww_hist_t *h,
			    const char *what)
{
	static const double qs[] = { 0.001, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0 };
	int bad = 0;

	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		size_t rank = (size_t)ceil(qs[i] * (double)n);
		double want = (double)sorted[(rank ? rank : 1) - 1];
		double got = (double)ww_hist_quantile(h, qs[i]);

		if (!within(got, want, 0.01)) {
			fprintf(stderr, "%s q=%g: got %.0f want %.0f\n", what, qs[i], got, want);
			bad++;
		}
	}
	CHECK(bad == 0);
}

static void test_index_bounds(void)
{
	/* every value maps to a bucket containing it, width <= value/128 */
	uint64_t vals[] = { 0, 1, 127, 128, 129, 255, 256, 1000, 4096, 65535,
			    1000000, 123456789, (1ull << 37) - 1 };
	int bad = 0;

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		uint64_t w, lo = ww_hist_lowest(ww_hist_index(vals[i]), &w);

		if (vals[i] < lo || vals[i] >= lo + w || (vals[i] >= 128 && w * 128 > vals[i]))
			bad++;
	}
	CHECK(bad == 0);
	CHECK_EQ_U64(ww_hist_index(1ull << 40), WW_HIST_BUCKETS - 1);
	CHECK_EQ_U64(ww_hist_index(127), 127);
	CHECK_EQ_U64(ww_hist_index(128), 128);
	CHECK_EQ_U64(ww_hist_index(256), 256);
	CHECK_EQ_U64(ww_hist_value(ww_hist_index(1000)), 1001); /* [1000,1004) */
}

static void test_random(uint64_t seed, size_t n)
{
	uint64_t *v = malloc(n * sizeof(*v));
	ww_hist_t *h = malloc(sizeof(*h));
	double sum = 0, sq = 0, mean, sd, hm, hsd;

	printf("seed %llu, %zu samples\n", (unsigned long long)seed, n);
	rng = seed;
	ww_hist_reset(h);
	for (size_t i = 0; i < n; i++) {
		v[i] = sample();
		ww_hist_add_index(h, ww_hist_index(v[i]));
		sum += (double)v[i];
	}
	mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += ((double)v[i] - mean) * ((double)v[i] - mean);
	sd = sqrt(sq / (double)n);
	qsort(v, n, sizeof(*v), cmp_u64);
	check_quantiles(v, n, h, "random");
	ww_hist_mean_stddev(h, &hm, &hsd);
	CHECK(within(hm, mean, 0.01));
	CHECK(within(hsd, sd, 0.01));
	CHECK(within((double)ww_hist_min(h), (double)v[0], 0.01));
	CHECK(within((double)ww_hist_max(h), (double)v[n - 1], 0.01));
	free(v);
	free(h);
}

/* The window holds exactly the last `cap` reads; errors stay out of it. */
static void test_window(uint64_t seed)
{
	const size_t total = 25000, cap = 10000;
	uint64_t *all = malloc(total * sizeof(*all)), *last = malloc(cap * sizeof(*last));
	ww_probe_stats_t s;
	ww_probe_summary_t sum;
	uint64_t exp_le[WW_PROBE_N_BUCKETS] = { 0 }, exp_sum = 0;

	printf("window seed %llu\n", (unsigned long long)seed);
	rng = seed;
	CHECK(ww_probe_stats_init(&s, cap) == 0);
	for (size_t i = 0; i < total; i++) {
		all[i] = sample();
		ww_probe_stats_add(&s, true, all[i]);
		exp_sum += all[i];
		for (int b = 0; b < WW_PROBE_N_BUCKETS; b++)
			exp_le[b] += all[i] <= ww_probe_bucket_le_ns[b];
		if (i % 1000 == 0)
			ww_probe_stats_add(&s, false, 0);
		if (i == 999) {         /* 1000 reads: p99.9 not yet backed */
			ww_probe_stats_summary(&s, &sum);
			CHECK(!sum.has_p999);
			CHECK_EQ_U64(sum.window_reads, 1000);
		}
	}
	memcpy(last, all + total - cap, cap * sizeof(*last));
	qsort(last, cap, sizeof(*last), cmp_u64);
	check_quantiles(last, cap, &s.win, "window");
	ww_probe_stats_summary(&s, &sum);
	CHECK_EQ_U64(sum.window_reads, cap);
	CHECK_EQ_U64(sum.reads_total, total);
	CHECK_EQ_U64(sum.errors_total, total / 1000);
	CHECK(sum.has_p999);
	CHECK(within(sum.p999_s * 1e9, (double)last[(size_t)ceil(0.999 * cap) - 1], 0.01));
	CHECK(within(sum.p50_s * 1e9, (double)last[cap / 2 - 1], 0.01));
	CHECK(within(sum.max_s * 1e9, (double)last[cap - 1], 0.01));
	CHECK(fabs(sum.sum_s - (double)exp_sum / 1e9) < 1e-6);
	CHECK(memcmp(sum.bucket_le, exp_le, sizeof(exp_le)) == 0);
	CHECK_EQ_U64(sum.bucket_le[WW_PROBE_N_BUCKETS - 1], total); /* all <= 10 s */
	ww_probe_stats_free(&s);
	free(all);
	free(last);
}

int main(void)
{
	uint64_t seed = getenv("WW_SEED") ? strtoull(getenv("WW_SEED"), NULL, 0)
					  : (uint64_t)time(NULL) * 2654435761u | 1;

	test_index_bounds();
	test_random(seed, 100000);
	test_random(seed + 1, 7);      /* tiny: rank rounding at the edges */
	test_window(seed + 2);
	return ww_test_done("test_probe_hist");
}
