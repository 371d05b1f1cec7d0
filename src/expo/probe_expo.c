/* Prometheus and JSON rendering of the per-drive probe summaries. */
#include <string.h>

#include <json-c/json.h>

#include "expo/probe_expo.h"

static void lbl_drive(FILE *f, const char *name, const ww_drive_state_t *st)
{
	fprintf(f, "%s{drive=\"", name);
	for (const char *v = st->drive.id; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

#define FOR_PROBED(st)                                                         \
	for (const ww_drive_state_t *st = snap->drives;                        \
	     st < snap->drives + snap->n; st++)                                \
		if (st->has_probe && st->probe.has_last && st->present)

static bool any(const ww_snapshot_t *snap, bool need_reads)
{
	FOR_PROBED(st)
		if (!need_reads || st->probe.reads_total || st->probe.errors_total)
			return true;
	return false;
}

void ww_metrics_render_probe(FILE *f, const ww_snapshot_t *snap)
{
	static const char *const qn[] = { "0.5", "0.9", "0.99", "0.999" };
	const char *h = "wearwatch_probe_read_latency_seconds";

	if (!any(snap, true))
		return;
	fprintf(f, "# HELP %s Latency of the latency probe's random O_DIRECT reads (successful ones) since the service started.\n"
		   "# TYPE %s histogram\n", h, h);
	FOR_PROBED(st) {
		const ww_probe_summary_t *p = &st->probe;

		for (int i = 0; i < WW_PROBE_N_BUCKETS; i++) {
			lbl_drive(f, "wearwatch_probe_read_latency_seconds_bucket", st);
			fprintf(f, ",le=\"%.6g\"} %llu\n", (double)ww_probe_bucket_le_ns[i] / 1e9,
				(unsigned long long)p->bucket_le[i]);
		}
		lbl_drive(f, "wearwatch_probe_read_latency_seconds_bucket", st);
		fprintf(f, ",le=\"+Inf\"} %llu\n", (unsigned long long)p->reads_total);
		lbl_drive(f, "wearwatch_probe_read_latency_seconds_sum", st);
		fprintf(f, "} %.9g\n", p->sum_s);
		lbl_drive(f, "wearwatch_probe_read_latency_seconds_count", st);
		fprintf(f, "} %llu\n", (unsigned long long)p->reads_total);
	}

	fputs("# HELP wearwatch_probe_read_latency_max_seconds Slowest successful read of the last probe burst.\n"
	      "# TYPE wearwatch_probe_read_latency_max_seconds gauge\n", f);
	FOR_PROBED(st) {
		if (!st->probe.has_last || !st->probe.last_reads)
			continue;
		lbl_drive(f, "wearwatch_probe_read_latency_max_seconds", st);
		fprintf(f, "} %.9g\n", st->probe.last_max_s);
	}

	fputs("# HELP wearwatch_probe_read_latency_window_seconds Latency quantiles over the rolling window of the last probe reads (at most 1 percent relative error; 0.999 once 10000 reads back it); _sum and _count cover the window.\n"
	      "# TYPE wearwatch_probe_read_latency_window_seconds summary\n", f);
	FOR_PROBED(st) {
		const ww_probe_summary_t *p = &st->probe;
		double v[] = { p->p50_s, p->p90_s, p->p99_s, p->p999_s };

		if (!p->window_reads)
			continue;
		for (int i = 0; i < 4; i++) {
			if (i == 3 && !p->has_p999)
				continue;
			lbl_drive(f, "wearwatch_probe_read_latency_window_seconds", st);
			fprintf(f, ",quantile=\"%s\"} %.9g\n", qn[i], v[i]);
		}
		lbl_drive(f, "wearwatch_probe_read_latency_window_seconds_sum", st);
		fprintf(f, "} %.9g\n", p->mean_s * (double)p->window_reads);
		lbl_drive(f, "wearwatch_probe_read_latency_window_seconds_count", st);
		fprintf(f, "} %llu\n", (unsigned long long)p->window_reads);
	}

	fputs("# HELP wearwatch_probe_errors_total Probe reads that failed or returned fewer bytes than asked.\n"
	      "# TYPE wearwatch_probe_errors_total counter\n", f);
	FOR_PROBED(st) {
		lbl_drive(f, "wearwatch_probe_errors_total", st);
		fprintf(f, "} %llu\n", (unsigned long long)st->probe.errors_total);
	}
}

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
	if (p->skip_reason) {
		json_object_object_add(o, "skipped", json_object_new_string(p->skip_reason));
		json_object_object_add(o, "skipped_timestamp", json_object_new_int64((int64_t)p->skip_time));
	}
	return o;
}
