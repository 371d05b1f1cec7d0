/* Health verdict families of /metrics (docs/metrics.md "Health verdict"):
 * the status and the active reasons of ww_drive_verdict(), the one verdict
 * every output prints; the sentences are in the JSON API. */
#include <stddef.h>

#include "expo/metrics_table.h"

static void g_status(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->v)
		ww_prom_u64(w, NULL, d->v->status);
}

static void g_reasons(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	for (int k = 0; d->v && k < WW_R_MAX; k++) {
		const char *lv[2] = { ww_reason_name(k), ww_status_name(d->v->sev[k]) };

		if (d->v->sev[k])
			ww_prom_u64(w, lv, 1);
	}
}

const ww_metric_t ww_metrics_health[] = {
	{ .name = "wearwatch_drive_health_status", .type = "gauge",
	  .help = "wearwatch's health verdict: 0 ok, 1 warning, 2 critical, 3 unknown (not monitored or not read; never ok); reasons in wearwatch_drive_health_reason.",
	  .get = g_status },
	{ .name = "wearwatch_drive_health_reason", .type = "gauge",
	  .help = "One series per active reason of the health verdict (reason: stable code, docs/health.md; severity: warning, critical or unknown); value is always 1. The sentences are in the JSON API.",
	  .labels = { "reason", "severity" }, .get = g_reasons },
	{ 0 }
};
