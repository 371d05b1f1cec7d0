/* Latency accumulators and the PTS steady-state rule (qualify.h). */
#include <math.h>
#include <string.h>

#include "wearwatch/qualify.h"

void ww_qualify_acc_reset(ww_qualify_acc_t *a)
{
	memset(a, 0, sizeof(*a));
}

void ww_qualify_acc_add(ww_qualify_acc_t *a, bool ok, uint32_t bytes, uint64_t lat_ns)
{
	if (!ok) {
		a->errors++;
		return;
	}
	if (!a->ios || lat_ns < a->min_ns)
		a->min_ns = lat_ns;
	if (lat_ns > a->max_ns)
		a->max_ns = lat_ns;
	a->ios++;
	a->bytes += bytes;
	a->sum_ns += (long double)lat_ns;
	a->sumsq_ns += (long double)lat_ns * (long double)lat_ns;
	ww_hist_add_index(&a->hist, ww_hist_index(lat_ns));
}

void ww_qualify_acc_merge(ww_qualify_acc_t *a, const ww_qualify_acc_t *b)
{
	if (b->ios) {
		if (!a->ios || b->min_ns < a->min_ns)
			a->min_ns = b->min_ns;
		if (b->max_ns > a->max_ns)
			a->max_ns = b->max_ns;
	}
	a->ios += b->ios;
	a->errors += b->errors;
	a->bytes += b->bytes;
	a->sum_ns += b->sum_ns;
	a->sumsq_ns += b->sumsq_ns;
	if (b->hist.total) {
		for (unsigned i = 0; i < WW_HIST_BUCKETS; i++)
			a->hist.counts[i] += b->hist.counts[i];
		a->hist.total += b->hist.total;
	}
}

void ww_qualify_acc_stats(const ww_qualify_acc_t *a, double seconds, ww_qualify_stats_t *o)
{
	memset(o, 0, sizeof(*o));
	o->ios = a->ios;
	o->errors = a->errors;
	o->bytes = a->bytes;
	if (seconds > 0) {
		o->iops = (double)a->ios / seconds;
		o->mb_per_s = (double)a->bytes / seconds / 1e6;
	}
	if (!a->ios)
		return;
	long double mean = a->sum_ns / (long double)a->ios;
	long double var = a->sumsq_ns / (long double)a->ios - mean * mean;

	o->min_s = (double)a->min_ns / 1e9;
	o->max_s = (double)a->max_ns / 1e9;
	o->mean_s = (double)(mean / 1e9L);
	o->stddev_s = var > 0 ? sqrt((double)var) / 1e9 : 0;
	/* a histogram value is its bucket's midpoint; it never reports past the
	 * exact extremes */
	double q[3] = { 0.50, 0.99, 0.999 }, *dst[3] = { &o->p50_s, &o->p99_s, &o->p999_s };

	for (int i = 0; i < 3; i++) {
		double v = (double)ww_hist_quantile(&a->hist, q[i]) / 1e9;

		if (v > o->max_s)
			v = o->max_s;
		if (v < o->min_s)
			v = o->min_s;
		*dst[i] = v;
	}
}

void ww_qualify_steady_check(const double *y, unsigned n, ww_qualify_steady_t *out)
{
	const unsigned w = WW_PTS_WINDOW_ROUNDS;
	double sum = 0, mn, mx, sx = 0, sxx = 0, sxy = 0, slope;

	memset(out, 0, sizeof(*out));
	if (n < w)
		return;
	out->first = n - w;
	out->last = n - 1;
	mn = mx = y[n - w];
	for (unsigned i = 0; i < w; i++) {
		double v = y[n - w + i];

		sum += v;
		mn = v < mn ? v : mn;
		mx = v > mx ? v : mx;
		sx += i;
		sxx += (double)i * i;
		sxy += (double)i * v;
	}
	out->average = sum / w;
	out->range = mx - mn;
	/* least squares: slope = (n Sxy - Sx Sy) / (n Sxx - Sx^2) */
	slope = (w * sxy - sx * sum) / (w * sxx - sx * sx);
	out->slope_excursion = fabs(slope * (double)(w - 1));
	if (!(out->average > 0))
		return;
	out->range_ratio = out->range / out->average;
	out->slope_ratio = out->slope_excursion / out->average;
	/* "no more than 20 %", "within 10 %": the limits themselves pass */
	out->reached = out->range_ratio <= WW_PTS_RANGE_LIMIT + 1e-12 &&
		out->slope_ratio <= WW_PTS_SLOPE_LIMIT + 1e-12;
}
