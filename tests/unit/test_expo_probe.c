/* Probe summaries through the store into /metrics and the JSON API.
 * Input: 1000 constructed latencies (500 x 50 us, 400 x 150 us, 100 x 3 ms)
 * and 2 failed reads; the expected bucket counts, sum and quantiles below are
 * worked out by hand from those numbers (quantiles within the histogram's
 * 1 %). promtool checks the exposition when installed. */
#include <json-c/json.h>
#include <math.h>
#include <unistd.h>

#include "expo/probe_expo.h"
#include "wearwatch/expo.h"
#include "wearwatch/store.h"
#include "ww_test.h"

static bool has_line(const char *txt, const char *line)
{
	const char *p = strstr(txt, line);

	return p && (p == txt || p[-1] == '\n') && p[strlen(line)] == '\n';
}

static void promtool(const char *txt)
{
	char path[] = "/tmp/ww-probe-metrics-XXXXXX", cmd[128];
	int fd;

	if (access("/usr/bin/promtool", X_OK)) {
		printf("note: promtool not installed, lint skipped\n");
		return;
	}
	fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, txt, strlen(txt)) == (ssize_t)strlen(txt));
	close(fd);
	snprintf(cmd, sizeof(cmd), "/usr/bin/promtool check metrics < %s", path);
	CHECK(system(cmd) == 0);
	unlink(path);
}

int main(void)
{
	ww_store_t *st = ww_store_new(0);
	ww_drive_t d[2];
	ww_probe_stats_t ps;
	ww_probe_summary_t sum = { 0 };
	ww_snapshot_t *snap;
	json_object *j, *p, *w, *v;
	char *txt, *js;

	memset(d, 0, sizeof(d));
	snprintf(d[0].id, sizeof(d[0].id), "nvme-eui.0001");
	snprintf(d[0].block, sizeof(d[0].block), "nvme0n1");
	snprintf(d[1].id, sizeof(d[1].id), "ata-NEVER_PROBED");
	CHECK(ww_store_sync(st, d, 2, 1000) == 0);

	CHECK(ww_probe_stats_init(&ps, 1000) == 0);
	for (int i = 0; i < 1000; i++)
		ww_probe_stats_add(&ps, true, i < 500 ? 50000 : i < 900 ? 150000 : 3000000);
	ww_probe_stats_add(&ps, false, 0);
	ww_probe_stats_add(&ps, false, 0);
	ww_probe_stats_summary(&ps, &sum);
	sum.has_last = true;
	sum.last_time = 1000;
	sum.last_reads = 64;
	sum.last_max_s = 0.003;
	sum.block_bytes = 4096;
	sum.queue_depth = 1;
	CHECK(ww_store_set_probe(st, d[0].id, &sum, 1000) == 0);
	CHECK(ww_store_set_probe(st, "no-such-drive", &sum, 1000) == -ENOENT);

	snap = ww_store_acquire(st);
	txt = ww_metrics_render(&(ww_render_ctx_t){ .snap = snap, .now = 1000 }, NULL);
	CHECK(txt != NULL);
	if (txt) {
		CHECK(has_line(txt, "# TYPE wearwatch_probe_read_latency_seconds histogram"));
		CHECK(has_line(txt, "wearwatch_probe_read_latency_seconds_bucket{drive=\"nvme-eui.0001\",le=\"2e-05\"} 0"));
		CHECK(has_line(txt, "wearwatch_probe_read_latency_seconds_bucket{drive=\"nvme-eui.0001\",le=\"5e-05\"} 500"));
		CHECK(has_line(txt, "wearwatch_probe_read_latency_seconds_bucket{drive=\"nvme-eui.0001\",le=\"0.0002\"} 900"));
		CHECK(has_line(txt, "wearwatch_probe_read_latency_seconds_bucket{drive=\"nvme-eui.0001\",le=\"0.002\"} 900"));
		CHECK(has_line(txt, "wearwatch_probe_read_latency_seconds_bucket{drive=\"nvme-eui.0001\",le=\"0.005\"} 1000"));
		CHECK(has_line(txt, "wearwatch_probe_read_latency_seconds_bucket{drive=\"nvme-eui.0001\",le=\"+Inf\"} 1000"));
		CHECK(has_line(txt, "wearwatch_probe_read_latency_seconds_count{drive=\"nvme-eui.0001\"} 1000"));
		/* 500 x 50e-6 + 400 x 150e-6 + 100 x 3e-3 = 0.385 */
		CHECK(has_line(txt, "wearwatch_probe_read_latency_seconds_sum{drive=\"nvme-eui.0001\"} 0.385"));
		CHECK(has_line(txt, "wearwatch_probe_read_latency_max_seconds{drive=\"nvme-eui.0001\"} 0.003"));
		CHECK(has_line(txt, "wearwatch_probe_errors_total{drive=\"nvme-eui.0001\"} 2"));
		CHECK(strstr(txt, "quantile=\"0.999\"") == NULL);   /* 1000 < 10000 reads */
		CHECK(strstr(txt, "ata-NEVER_PROBED\",le") == NULL);
		CHECK(strstr(txt, "wearwatch_probe_errors_total{drive=\"ata-NEVER_PROBED\"}") == NULL);
		CHECK(strstr(txt, "wearwatch_probe_skipped") == NULL); /* nothing skipped */
		promtool(txt);
	}
	free(txt);
	ww_snapshot_release(snap);

	/* a drive whose device could not be opened: no burst ever, the skip
	 * and its reason in /metrics (as the scheduler publishes it) */
	{
		ww_probe_summary_t sk = { 0 };

		sk.skip_reason = "open failed";
		sk.skip_time = 1000;
		CHECK(ww_store_set_probe(st, d[1].id, &sk, 1000) == 0);
	}
	snap = ww_store_acquire(st);
	txt = ww_metrics_render(&(ww_render_ctx_t){ .snap = snap, .now = 1000 }, NULL);
	CHECK(txt && has_line(txt, "wearwatch_probe_skipped{drive=\"ata-NEVER_PROBED\",reason=\"open failed\"} 1"));
	CHECK(txt && !strstr(txt, "wearwatch_probe_skipped{drive=\"nvme-eui.0001\""));
	if (txt)
		promtool(txt);
	free(txt);

	js = ww_json_render_drive(&(ww_render_ctx_t){ .snap = snap, .now = 1000 }, d[0].id,
				  &(bool){ false });
	j = js ? json_tokener_parse(js) : NULL;
	CHECK(j && json_object_object_get_ex(j, "probe", &p));
	if (j && p && json_object_object_get_ex(p, "window", &w)) {
		CHECK(json_object_object_get_ex(p, "errors_total", &v) && json_object_get_int64(v) == 2);
		CHECK(json_object_object_get_ex(w, "reads", &v) && json_object_get_int64(v) == 1000);
		CHECK(json_object_object_get_ex(w, "p50_seconds", &v) &&
		      fabs(json_object_get_double(v) - 50e-6) <= 0.01 * 50e-6);
		CHECK(json_object_object_get_ex(w, "p90_seconds", &v) &&
		      fabs(json_object_get_double(v) - 150e-6) <= 0.01 * 150e-6);
		CHECK(json_object_object_get_ex(w, "p99_seconds", &v) &&
		      fabs(json_object_get_double(v) - 3e-3) <= 0.01 * 3e-3);
		/* mean = 0.385 / 1000 */
		CHECK(json_object_object_get_ex(w, "mean_seconds", &v) &&
		      fabs(json_object_get_double(v) - 385e-6) <= 0.01 * 385e-6);
		CHECK(!json_object_object_get_ex(w, "p999_seconds", NULL));
	} else {
		CHECK(!"probe.window in JSON");
	}
	json_object_put(j);
	free(js);
	ww_snapshot_release(snap);

	/* a latency-drift burst and its baseline: the families and the API's
	 * probe.drift, and the no-baseline case (the baseline gauge absent) */
	sum.has_drift = true;
	sum.drift_time = 990;
	sum.drift_p50_s = 0.0001;
	sum.drift_p99_s = 0.0009;
	sum.drift_mean_s = 0.00015;
	sum.drift_reads = 120000;
	sum.drift_qd = 8;
	sum.drift_base_n = 5;
	sum.drift_base_p99_s = 0.0004;
	CHECK(ww_store_set_probe(st, d[0].id, &sum, 1000) == 0);
	snap = ww_store_acquire(st);
	txt = ww_metrics_render(&(ww_render_ctx_t){ .snap = snap, .now = 1000 }, NULL);
	CHECK(txt != NULL);
	if (txt) {
		CHECK(has_line(
			txt,
			"wearwatch_probe_drift_latency_p99_seconds{drive=\"nvme-eui.0001\"} 0.0009"));
		CHECK(has_line(
			txt,
			"wearwatch_probe_drift_latency_p50_seconds{drive=\"nvme-eui.0001\"} 0.0001"));
		CHECK(has_line(
			txt,
			"wearwatch_probe_drift_latency_mean_seconds{drive=\"nvme-eui.0001\"} 0.00015"));
		CHECK(has_line(txt, "wearwatch_probe_drift_reads{drive=\"nvme-eui.0001\"} 120000"));
		CHECK(has_line(
			txt,
			"wearwatch_probe_drift_timestamp_seconds{drive=\"nvme-eui.0001\"} 990"));
		CHECK(has_line(
			txt,
			"wearwatch_probe_drift_baseline_latency_p99_seconds{drive=\"nvme-eui.0001\"} 0.0004"));
		CHECK(has_line(txt,
			       "wearwatch_probe_drift_baseline_bursts{drive=\"nvme-eui.0001\"} 5"));
		CHECK(!strstr(txt, "wearwatch_probe_drift_reads{drive=\"ata-NEVER_PROBED\""));
		promtool(txt);
	}
	free(txt);
	js = ww_json_render_drive(&(ww_render_ctx_t){ .snap = snap, .now = 1000 }, d[0].id,
				  &(bool){ false });
	j = js ? json_tokener_parse(js) : NULL;
	if (j && json_object_object_get_ex(j, "probe", &p) &&
	    json_object_object_get_ex(p, "drift", &w)) {
		CHECK(json_object_object_get_ex(w, "p99_seconds", &v) &&
		      json_object_get_double(v) == 0.0009);
		CHECK(json_object_object_get_ex(w, "baseline_p99_seconds", &v) &&
		      json_object_get_double(v) == 0.0004);
		CHECK(json_object_object_get_ex(w, "baseline_bursts", &v) &&
		      json_object_get_int64(v) == 5);
		CHECK(json_object_object_get_ex(w, "queue_depth", &v) &&
		      json_object_get_int64(v) == 8);
		CHECK(json_object_object_get_ex(w, "timestamp", &v) &&
		      json_object_get_int64(v) == 990);
	} else {
		CHECK(!"probe.drift in JSON");
	}
	json_object_put(j);
	free(js);
	ww_snapshot_release(snap);
	sum.drift_base_n = 0;
	CHECK(ww_store_set_probe(st, d[0].id, &sum, 1000) == 0);
	snap = ww_store_acquire(st);
	txt = ww_metrics_render(&(ww_render_ctx_t){ .snap = snap, .now = 1000 }, NULL);
	CHECK(txt && !strstr(txt, "wearwatch_probe_drift_baseline_latency_p99_seconds{"));
	CHECK(txt &&
	      has_line(txt, "wearwatch_probe_drift_baseline_bursts{drive=\"nvme-eui.0001\"} 0"));
	free(txt);
	ww_snapshot_release(snap);
	ww_probe_stats_free(&ps);
	ww_store_free(st);
	return ww_test_done("test_expo_probe");
}
