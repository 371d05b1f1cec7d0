/* Latency drift (contract in model.h): a drift burst's p99 against the
 * drive's baseline of earlier bursts, and the reason it gives. */
#include <math.h>
#include <stdint.h>

#include "model/verdict_int.h"

void ww_drift_baseline(const double *p99_s, size_t n, unsigned want, ww_drift_base_t *out)
{
	double sum = 0;
	size_t k = n < want ? n : want;

	for (size_t i = 0; i < k; i++)
		sum += p99_s[i];
	out->n = (unsigned)k;
	out->p99_s = k ? sum / (double)k : 0;
}

double ww_drift_limit(double base_p99_s, unsigned percent)
{
	return base_p99_s * (100.0 + percent) / 100.0;
}

bool ww_drift_exceeds(const ww_drift_base_t *b, unsigned want, unsigned percent, double p99_s)
{
	return want && b->n >= want && b->p99_s > 0 && p99_s > ww_drift_limit(b->p99_s, percent);
}

bool ww_drift_enters(const ww_drift_base_t *b, unsigned want, unsigned percent, double p99_s)
{
	return b->n < want || !ww_drift_exceeds(b, want, percent, p99_s);
}

/* seconds as whole microseconds, the reason's unit */
static int64_t us(double s)
{
	double v = llround(s * 1e6);

	return v > (double)INT64_MAX ? INT64_MAX : v < 0 ? 0 : (int64_t)v;
}

void ww_verdict_sig_drift(struct vctx *x)
{
	const ww_verdict_in_t *in = x->in;
	ww_drift_base_t b = { .n = in->drift_base_n, .p99_s = in->drift_base_p99_s };
	unsigned pct = x->cfg->drift_percent;
	double lim = ww_drift_limit(b.p99_s, pct);
	ww_vreason_t *r;
	char t[40];

	if (!in->has_drift || !ww_drift_exceeds(&b, x->cfg->drift_bursts, pct, in->drift_p99_s))
		return;
	ww_verdict_fmt_time(in->drift_time, t, sizeof(t));
	r = ww_verdict_add(x, WW_R_LATENCY_DRIFT, WW_STATUS_WARNING, 0, "latency drift burst",
			   "read latency p99 %lld µs in the drift burst of %s, %.2fx the "
			   "baseline of %u bursts (%lld µs; limit +%u %% = %lld µs)",
			   (long long)us(in->drift_p99_s), t, in->drift_p99_s / b.p99_s, b.n,
			   (long long)us(b.p99_s), pct, (long long)us(lim));
	if (r) {
		ww_vreason_snums(r, us(in->drift_p99_s), us(lim), "µs");
		r->has |= WW_VN_BASELINE;
		r->baseline = us(b.p99_s);
	}
}
