/* Process-wide /metrics families (no drive label), written last: the history
 * database's write errors and rows not committed yet, and the build. */
#include "expo/metrics_table.h"
#include "wearwatch/history.h"

#ifndef WW_VERSION_STRING
#define WW_VERSION_STRING "0.1.0"
#endif

/* sample and probe-burst writes that failed since start
 * (ww_history_write_errors); nothing when history is disabled or the
 * endurance service is not running */
static void g_history_errors(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	ww_history_t *h = ww_store_endurance_history(d->ctx->endurance);

	if (h)
		ww_prom_u64(w, NULL, ww_history_write_errors(h));
}

/* samples and probe bursts not committed yet (ww_history_pending) */
static void g_history_pending(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	ww_history_t *h = ww_store_endurance_history(d->ctx->endurance);

	if (h)
		ww_prom_u64(w, NULL, ww_history_pending(h));
}

static void g_build(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	static const char *const lv[1] = { WW_VERSION_STRING };

	ww_prom_u64(w, lv, 1);
}

/* not formatted: one family a row, name and type first */
/* clang-format off */
const ww_metric_t ww_metrics_process[] = {
	{ .name = "wearwatch_history_write_errors_total", .type = "counter",
	  .help = "History samples and probe bursts that could not be written (disk full, read-only database); see the log.",
	  .get = g_history_errors, .no_drive = true },
	{ .name = "wearwatch_history_pending_rows", .type = "gauge",
	  .help = "History samples and probe bursts in memory, not committed yet (a kill -9 loses them; committed every 5 minutes).",
	  .get = g_history_pending, .no_drive = true },
	{ .name = "wearwatch_build_info", .type = "gauge", .help = "wearwatch build; value is always 1.",
	  .labels = { "version" }, .get = g_build, .no_drive = true },
	{ 0 }
};
/* clang-format on */
