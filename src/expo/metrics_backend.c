/* /metrics families of the smartctl backend and of drives that answer without
 * SMART (docs/metrics.md "smartctl backend"). Drives never read are left out. */
#include "expo/metrics_table.h"

/* present drives read through smartctl (a RAID member from `smartctl --scan`,
 * or configured with serve --smartctl): type = the -d TYPE */
static void g_smartctl_info(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const char *lv[1] = { d->st->drive->smartctl_type };

	if (d->st->present && d->st->drive->smartctl_type[0])
		ww_prom_u64(w, lv, 1);
}

/* 0 = "reached, no SMART" (ww_health_t.no_smart) */
static void g_smart_available(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->st->present && d->st->health)
		ww_prom_u64(w, NULL, !d->st->health->no_smart);
}

const ww_metric_t ww_metrics_backend[] = {
	{ .name = "wearwatch_drive_smartctl_info", .type = "gauge",
	  .help = "Drive read through smartctl (RAID member or configured); type is smartctl's -d TYPE.",
	  .labels = { "type" }, .get = g_smartctl_info },
	{ .name = "wearwatch_drive_smart_available", .type = "gauge",
	  .help = "1 when the last read returned health data, 0 when the drive answered but reports no SMART (reached, no SMART).",
	  .get = g_smart_available },
	{ 0 }
};
