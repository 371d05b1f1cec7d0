/* Log-linear histogram and the per-drive rolling window (see probe.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/probe.h"

unsigned ww_hist_index(uint64_t v)
{
	unsigned m, shift;

	if (v < WW_HIST_SUB)
		return (unsigned)v;
	m = 63u - (unsigned)__builtin_clzll(v);
	if (m >= WW_HIST_TOP_BITS)
		return WW_HIST_BUCKETS - 1;
	shift = m - WW_HIST_SUB_BITS;
	return WW_HIST_SUB + shift * WW_HIST_SUB +
	       (unsigned)((v >> shift) - WW_HIST_SUB);
}

uint64_t ww_hist_lowest(unsigned idx, uint64_t *width)
{
	unsigned g, sub;

	if (idx < WW_HIST_SUB) {
		if (width)
			*width = 1;
		return idx;
	}
	g = (idx - WW_HIST_SUB) / WW_HIST_SUB;
	sub = (idx - WW_HIST_SUB) % WW_HIST_SUB;
	if (width)
		*width = 1ull << g;
	return (uint64_t)(WW_HIST_SUB + sub) << g;
}

uint64_t ww_hist_value(unsigned idx)
{
	uint64_t w, lo = ww_hist_lowest(idx, &w);

	return lo + (w - 1) / 2;
}

void ww_hist_reset(ww_hist_t *h)
{
	memset(h, 0, sizeof(*h));
}

void ww_hist_add_index(ww_hist_t *h, unsigned idx)
{
	h->counts[idx]++;
	h->total++;
}

void ww_hist_remove_index(ww_hist_t *h, unsigned idx)
{
	if (h->counts[idx]) {
		h->counts[idx]--;
		h->total--;
	}
}

uint64_t ww_hist_quantile(const ww_hist_t *h, double q)
{
	uint64_t rank, cum = 0;

	if (!h->total)
		return 0;
	if (q > 1)
		q = 1;
	rank = (uint64_t)ceil(q * (double)h->total);
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < WW_HIST_BUCKETS; i++) {
		cum += h->counts[i];
		if (cum >= rank)
			return ww_hist_value(i);
	}
	return ww_hist_max(h);
}

void ww_hist_mean_stddev(const ww_hist_t *h, double *mean, double *stddev)
{
	double sum = 0, m, var = 0;

	*mean = *stddev = 0;
	if (!h->total)
		return;
	for (unsigned i = 0; i < WW_HIST_BUCKETS; i++)
		if (h->counts[i])
			sum += (double)h->counts[i] * (double)ww_hist_value(i);
	m = sum / (double)h->total;
	for (unsigned i = 0; i < WW_HIST_BUCKETS; i++) {
		double d;

		if (!h->counts[i])
			continue;
		d = (double)ww_hist_value(i) - m;
		var += (double)h->counts[i] * d * d;
	}
	*mean = m;
	*stddev = sqrt(var / (double)h->total);
}

uint64_t ww_hist_min(const ww_hist_t *h)
{
	for (unsigned i = 0; i < WW_HIST_BUCKETS && h->total; i++)
		if (h->counts[i])
			return ww_hist_value(i);
	return 0;
}

uint64_t ww_hist_max(const ww_hist_t *h)
{
	for (unsigned i = WW_HIST_BUCKETS; i-- > 0 && h->total;)
		if (h->counts[i])
			return ww_hist_value(i);
	return 0;
}

int ww_probe_stats_init(ww_probe_stats_t *s, uint32_t window)
{
	memset(s, 0, sizeof(*s));
	if (!window)
		window = WW_PROBE_WINDOW_DEFAULT;
	if (window < WW_PROBE_WINDOW_MIN)
		window = WW_PROBE_WINDOW_MIN;
	s->ring = calloc(window, sizeof(*s->ring));
	if (!s->ring)
		return -ENOMEM;
	s->cap = window;
	return 0;
}

void ww_probe_stats_free(ww_probe_stats_t *s)
{
	free(s->ring);
	s->ring = NULL;
	s->cap = s->n = s->head = 0;
}

void ww_probe_stats_add(ww_probe_stats_t *s, bool ok, uint64_t lat_ns)
{
	unsigned idx;

	if (!ok) {
		s->errors_total++;
		return;
	}
	s->reads_total++;
	s->sum_ns += lat_ns;
	for (unsigned i = 0; i < WW_PROBE_N_BUCKETS; i++)
		if (lat_ns <= ww_probe_bucket_le_ns[i])
			s->bucket_le[i]++;
	if (!s->cap)
		return;
	idx = ww_hist_index(lat_ns);
	if (s->n == s->cap) {        /* full: the oldest leaves */
		ww_hist_remove_index(&s->win, s->ring[s->head]);
		s->ring[s->head] = (uint16_t)idx;
		s->head = (s->head + 1) % s->cap;
	} else {
		s->ring[(s->head + s->n) % s->cap] = (uint16_t)idx;
		s->n++;
	}
	ww_hist_add_index(&s->win, idx);
}

void ww_probe_stats_summary(const ww_probe_stats_t *s, ww_probe_summary_t *out)
{
	double mean, sd;

	out->window_reads = s->win.total;
	ww_hist_mean_stddev(&s->win, &mean, &sd);
	out->mean_s = mean / 1e9;
	out->stddev_s = sd / 1e9;
	out->min_s = (double)ww_hist_min(&s->win) / 1e9;
	out->max_s = (double)ww_hist_max(&s->win) / 1e9;
	out->p50_s = (double)ww_hist_quantile(&s->win, 0.50) / 1e9;
	out->p90_s = (double)ww_hist_quantile(&s->win, 0.90) / 1e9;
	out->p99_s = (double)ww_hist_quantile(&s->win, 0.99) / 1e9;
	out->has_p999 = s->win.total >= WW_PROBE_P999_MIN_READS;
	out->p999_s = out->has_p999 ? (double)ww_hist_quantile(&s->win, 0.999) / 1e9 : 0;
	out->reads_total = s->reads_total;
	out->errors_total = s->errors_total;
	out->sum_s = (double)s->sum_ns / 1e9;
	memcpy(out->bucket_le, s->bucket_le, sizeof(out->bucket_le));
}
