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

/* the numbers of each active reason that has any: kind value, previous
 * (before a rise), limit (the level or limit reached) and baseline (what
 * the value is compared with), in the reason's unit */
static void g_reason_values(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	static const struct {
		unsigned bit;
		const char *kind;
	} kinds[] = { { WW_VN_VALUE, "value" },
		      { WW_VN_PREVIOUS, "previous" },
		      { WW_VN_LIMIT, "limit" },
		      { WW_VN_BASELINE, "baseline" } };

	for (size_t i = 0; d->v && i < d->v->n_num; i++)
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			const char *lv[3] = { ww_reason_name(d->v->num[i].code), kinds[k].kind,
					      d->v->num[i].unit };
			int64_t x = k == 0 ? d->v->num[i].value
				: k == 1   ? d->v->num[i].previous
				: k == 2   ? d->v->num[i].limit
					   : d->v->num[i].baseline;

			if (d->v->num[i].has & kinds[k].bit)
				ww_prom_i64(w, lv, x);
		}
}

const ww_metric_t ww_metrics_health[] = {
	{ .name = "wearwatch_drive_health_status",
	  .type = "gauge",
	  .help = "wearwatch's health verdict: 0 ok, 1 warning, 2 critical, 3 unknown (not monitored or not read; never ok); reasons in wearwatch_drive_health_reason.",
	  .get = g_status },
	{ .name = "wearwatch_drive_health_reason",
	  .type = "gauge",
	  .help = "One series per active reason of the health verdict (reason: stable code, docs/health.md; severity: warning, critical or unknown); value is always 1. The sentences are in the JSON API.",
	  .labels = { "reason", "severity" },
	  .get = g_reasons },
	{ .name = "wearwatch_drive_health_reason_value",
	  .type = "gauge",
	  .help = "The numbers of an active reason of the health verdict, as its sentence in the JSON API gives them (reason: the code; kind: value now, previous before a rise, limit reached, baseline compared with; unit: the reason's, empty for a plain count).",
	  .labels = { "reason", "kind", "unit" },
	  .get = g_reason_values },
	{ 0 }
};
