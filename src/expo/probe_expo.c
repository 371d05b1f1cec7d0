/* Prometheus families (rows of metrics_table.h) and the JSON object of the
 * per-drive probe summaries. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "expo/metrics_table.h"
#include "expo/probe_expo.h"

/* the histogram's le label values, "%.6g" of the bounds in seconds */
static char le_text[WW_PROBE_N_BUCKETS][16];
static pthread_once_t le_once = PTHREAD_ONCE_INIT;

static void le_init(void)
{
	for (int i = 0; i < WW_PROBE_N_BUCKETS; i++)
		snprintf(le_text[i], sizeof(le_text[i]), "%.6g",
			 (double)ww_probe_bucket_le_ns[i] / 1e9);
}

/* the probe families appear once a probe read or failed on some drive */
static bool any_probe(const ww_mdrive_t *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (d[i].p && (d[i].p->reads_total || d[i].p->errors_total))
			return true;
	return false;
}

static void g_histogram(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_probe_summary_t *p = d->p;
	const char *lv[1] = { "+Inf" };

	if (!p)
		return;
	pthread_once(&le_once, le_init);
	for (int i = 0; i < WW_PROBE_N_BUCKETS; i++) {
		const char *le[1] = { le_text[i] };

		ww_prom_sample(w, "_bucket", le, ww_pv_u64(p->bucket_le[i]));
	}
	ww_prom_sample(w, "_bucket", lv, ww_pv_u64(p->reads_total));
	ww_prom_sample(w, "_sum", NULL, ww_pv_double(p->sum_s, WW_DBL_G9));
	ww_prom_sample(w, "_count", NULL, ww_pv_u64(p->reads_total));
}

static void g_last_max(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->p && d->p->last_reads)
		ww_prom_sample(w, NULL, NULL, ww_pv_double(d->p->last_max_s, WW_DBL_G9));
}

static void g_window(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	static const char *const qn[4] = { "0.5", "0.9", "0.99", "0.999" };
	const ww_probe_summary_t *p = d->p;

	if (!p || !p->window_reads)
		return;
	const double v[4] = { p->p50_s, p->p90_s, p->p99_s, p->p999_s };

	for (int i = 0; i < (p->has_p999 ? 4 : 3); i++)
		ww_prom_sample(w, NULL, &qn[i], ww_pv_double(v[i], WW_DBL_G9));
	ww_prom_sample(w, "_sum", NULL, ww_pv_double(p->mean_s * (double)p->window_reads, WW_DBL_G9));
	ww_prom_sample(w, "_count", NULL, ww_pv_u64(p->window_reads));
}

/* the probe's latest news of a drive is a skip (st->probe, also before any
 * burst ran: a drive whose device cannot be opened never has one) */
static const char *skipped(const ww_mdrive_t *d)
{
	const ww_drive_state_t *st = d->st;

	return st->has_probe && st->present ? st->probe.skip_reason : NULL;
}

static bool any_skipped(const ww_mdrive_t *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (skipped(&d[i]))
			return true;
	return false;
}

static void g_skipped(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const char *why = skipped(d);

	if (why)
		ww_prom_sample(w, NULL, &why, ww_pv_u64(1));
}

static void g_errors(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->p)
		ww_prom_u64(w, NULL, d->p->errors_total);
}

/* latency-drift families: once some drive has had (or kept) a drift burst */
static bool any_drift(const ww_mdrive_t *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (d[i].p && d[i].p->has_drift)
			return true;
	return false;
}

static const ww_probe_summary_t *drift(const ww_mdrive_t *d)
{
	return d->p && d->p->has_drift ? d->p : NULL;
}

static void g_drift_p50(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (drift(d) && d->p->drift_reads)
		ww_prom_sample(w, NULL, NULL, ww_pv_double(d->p->drift_p50_s, WW_DBL_G9));
}

static void g_drift_p99(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (drift(d) && d->p->drift_reads)
		ww_prom_sample(w, NULL, NULL, ww_pv_double(d->p->drift_p99_s, WW_DBL_G9));
}

static void g_drift_mean(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (drift(d) && d->p->drift_reads)
		ww_prom_sample(w, NULL, NULL, ww_pv_double(d->p->drift_mean_s, WW_DBL_G9));
}

static void g_drift_reads(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (drift(d))
		ww_prom_u64(w, NULL, d->p->drift_reads);
}

static void g_drift_time(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (drift(d))
		ww_prom_u64(w, NULL, (uint64_t)d->p->drift_time);
}

static void g_drift_base(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (drift(d) && d->p->drift_base_n)
		ww_prom_sample(w, NULL, NULL, ww_pv_double(d->p->drift_base_p99_s, WW_DBL_G9));
}

static void g_drift_base_n(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (drift(d))
		ww_prom_u64(w, NULL, d->p->drift_base_n);
}

const ww_metric_t ww_metrics_probe[] = {
	{ .name = "wearwatch_probe_read_latency_seconds",
	  .type = "histogram",
	  .help = "Latency of the latency probe's random O_DIRECT reads (successful ones) since the service started.",
	  .labels = { "le" },
	  .get = g_histogram,
	  .when = any_probe },
	{ .name = "wearwatch_probe_read_latency_max_seconds",
	  .type = "gauge",
	  .help = "Slowest successful read of the last probe burst.",
	  .get = g_last_max,
	  .when = any_probe },
	{ .name = "wearwatch_probe_read_latency_window_seconds",
	  .type = "summary",
	  .help = "Latency quantiles over the rolling window of the last probe reads (at most 1 percent relative error; 0.999 once 10000 reads back it); _sum and _count cover the window.",
	  .labels = { "quantile" },
	  .get = g_window,
	  .when = any_probe,
	  /* quantiles cannot be aggregated across drives: the histogram above
	   * is the fleet's */
	  .full_only = true },
	{ .name = "wearwatch_probe_errors_total",
	  .type = "counter",
	  .help = "Probe reads that failed or returned fewer bytes than asked.",
	  .get = g_errors,
	  .when = any_probe },
	{ .name = "wearwatch_probe_skipped",
	  .type = "gauge",
	  .help = "1 while the latency probe's last due burst of the drive was not sent, with why (reason: open failed, standby, runtime-suspended, busy, rotational, ...); absent once a burst ran.",
	  .labels = { "reason" },
	  .get = g_skipped,
	  .when = any_skipped },
	{ .name = "wearwatch_probe_drift_latency_p50_seconds",
	  .type = "gauge",
	  .help = "Median latency of the newest latency-drift burst's successful reads (drift_seconds at drift_qd in flight, at idle; at most 1 percent relative error).",
	  .get = g_drift_p50,
	  .when = any_drift },
	{ .name = "wearwatch_probe_drift_latency_p99_seconds",
	  .type = "gauge",
	  .help = "99th percentile latency of the newest latency-drift burst: what latency_drift compares with the baseline.",
	  .get = g_drift_p99,
	  .when = any_drift },
	{ .name = "wearwatch_probe_drift_latency_mean_seconds",
	  .type = "gauge",
	  .help = "Mean latency of the newest latency-drift burst's successful reads.",
	  .get = g_drift_mean,
	  .when = any_drift },
	{ .name = "wearwatch_probe_drift_reads",
	  .type = "gauge",
	  .help = "Successful reads of the newest latency-drift burst.",
	  .get = g_drift_reads,
	  .when = any_drift },
	{ .name = "wearwatch_probe_drift_timestamp_seconds",
	  .type = "gauge",
	  .help = "When the newest latency-drift burst ended (Unix time).",
	  .get = g_drift_time,
	  .when = any_drift },
	{ .name = "wearwatch_probe_drift_baseline_latency_p99_seconds",
	  .type = "gauge",
	  .help = "The baseline the newest latency-drift burst was compared with: the mean p99 of the drive's last latency_drift_bursts bursts that entered it; absent while it holds none.",
	  .get = g_drift_base,
	  .when = any_drift },
	{ .name = "wearwatch_probe_drift_baseline_bursts",
	  .type = "gauge",
	  .help = "Bursts in that baseline (latency_drift needs latency_drift_bursts of them, default 5).",
	  .get = g_drift_base_n,
	  .when = any_drift },
	{ 0 }
};

static json_object *dbl(double v)
{
	return json_object_new_double(v);
}

void *ww_json_probe_object(const ww_drive_state_t *st)
{
	const ww_probe_summary_t *p = &st->probe;
	json_object *o, *w, *l;

	if (!st->has_probe)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "reads_total", json_object_new_int64((int64_t)p->reads_total));
	json_object_object_add(o, "errors_total", json_object_new_int64((int64_t)p->errors_total));
	json_object_object_add(o, "block_bytes", json_object_new_int64(p->block_bytes));
	json_object_object_add(o, "queue_depth", json_object_new_int64(p->queue_depth));
	if (p->window_reads) {
		w = json_object_new_object();
		json_object_object_add(w, "reads", json_object_new_int64((int64_t)p->window_reads));
		json_object_object_add(w, "min_seconds", dbl(p->min_s));
		json_object_object_add(w, "mean_seconds", dbl(p->mean_s));
		json_object_object_add(w, "max_seconds", dbl(p->max_s));
		json_object_object_add(w, "stddev_seconds", dbl(p->stddev_s));
		json_object_object_add(w, "p50_seconds", dbl(p->p50_s));
		json_object_object_add(w, "p90_seconds", dbl(p->p90_s));
		json_object_object_add(w, "p99_seconds", dbl(p->p99_s));
		if (p->has_p999)
			json_object_object_add(w, "p999_seconds", dbl(p->p999_s));
		json_object_object_add(o, "window", w);
	}
	if (p->has_last) {
		l = json_object_new_object();
		json_object_object_add(l, "timestamp", json_object_new_int64((int64_t)p->last_time));
		json_object_object_add(l, "reads", json_object_new_int64(p->last_reads));
		json_object_object_add(l, "errors", json_object_new_int64(p->last_errors));
		json_object_object_add(l, "max_seconds", dbl(p->last_max_s));
		if (p->last_error)
			json_object_object_add(l, "error", json_object_new_string(strerror(-p->last_error)));
		json_object_object_add(o, "last", l);
	}
	if (p->has_drift || p->drift_skip) {
		json_object *d = json_object_new_object();

		if (p->has_drift) {
			json_object_object_add(d, "timestamp",
					       json_object_new_int64((int64_t)p->drift_time));
			json_object_object_add(d, "reads", json_object_new_int64(p->drift_reads));
			json_object_object_add(d, "errors", json_object_new_int64(p->drift_errors));
			json_object_object_add(d, "queue_depth",
					       json_object_new_int64(p->drift_qd));
			if (p->drift_reads) {
				json_object_object_add(d, "p50_seconds", dbl(p->drift_p50_s));
				json_object_object_add(d, "p99_seconds", dbl(p->drift_p99_s));
				json_object_object_add(d, "mean_seconds", dbl(p->drift_mean_s));
			}
			json_object_object_add(d, "baseline_bursts",
					       json_object_new_int64(p->drift_base_n));
			if (p->drift_base_n)
				json_object_object_add(d, "baseline_p99_seconds",
						       dbl(p->drift_base_p99_s));
		}
		if (p->drift_skip)
			json_object_object_add(d, "skipped", json_object_new_string(p->drift_skip));
		json_object_object_add(o, "drift", d);
	}
	if (p->skip_reason) {
		json_object_object_add(o, "skipped", json_object_new_string(p->skip_reason));
		json_object_object_add(o, "skipped_timestamp", json_object_new_int64((int64_t)p->skip_time));
	}
	return o;
}
