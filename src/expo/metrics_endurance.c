/* Endurance families of /metrics, from the endurance service's latest results
 * (never from the database or a device); see docs/metrics.md "Endurance".
 * Rows in the order they are written; metrics.c looks each drive's result up
 * once per render. */
#include <stddef.h>

#include "expo/metrics_table.h"

#define EOFF(field) offsetof(ww_endurance_t, field)

bool ww_expo_endurance(ww_store_endurance_t *svc, const char *id, ww_endurance_t *e)
{
	return svc && ww_store_endurance_get(svc, id, e);
}

/* codes only: the sentences (the document, the note) are the API's */
static void g_rating_info(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const char *lv[4];

	if (!d->e)
		return;
	lv[0] = ww_rating_source_name(d->e->rating_source);
	lv[1] = ww_capacity_basis_name(d->e->capacity_basis);
	lv[2] = d->e->rating_ref;
	lv[3] = d->e->rating_basis;
	ww_prom_u64(w, lv, 1);
}

static void g_rated_range(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const char *lv[2];

	if (!d->e || !d->e->has_rated_range)
		return;
	lv[0] = ww_rating_source_name(d->e->rating_source);
	lv[1] = "low";
	ww_prom_u64(w, lv, d->e->rated_bytes_low);
	lv[1] = "high";
	ww_prom_u64(w, lv, d->e->rated_bytes_high);
}

static void g_disagreement(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->e && d->e->has_rated_used && d->e->has_drive_used)
		ww_prom_u64(w, NULL, d->e->used_disagree);
}

static void g_writes_per_day(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const char *lv[1] = { "lifetime" };

	if (!d->e)
		return;
	for (int i = 0; i < WW_WIN_MAX; i++)
		if (d->e->has_window[i])
			ww_prom_sample(w, NULL, &ww_window_name[i],
				       ww_pv_double(d->e->window_dwpd[i], WW_DBL_G17));
	if (d->e->has_lifetime_dwpd)
		ww_prom_sample(w, NULL, lv, ww_pv_double(d->e->lifetime_dwpd, WW_DBL_G17));
}

static void g_warranty_start(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const char *lv[1];

	if (!d->e || d->e->warranty_start_basis == WW_WS_NONE)
		return;
	lv[0] = ww_wstart_basis_name(d->e->warranty_start_basis);
	ww_prom_i64(w, lv, d->e->warranty_start);
}

static void g_wearout(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	static const char *const basis[2] = { "write_rate_30d", "percentage_used" };

	if (d->e && d->e->has_wearout_write_rate)
		ww_prom_i64(w, &basis[0], d->e->wearout_write_rate);
	if (d->e && d->e->has_wearout_pct)
		ww_prom_i64(w, &basis[1], d->e->wearout_pct);
}

/* not formatted: one family a row, name and type first */
/* clang-format off */
const ww_metric_t ww_metrics_endurance[] = {
	{ .name = "wearwatch_drive_rating_info", .type = "gauge",
	  .help = "Rating used for the drive's endurance figures; value is always 1. source: config, nvme_endurance_group, ocp_c0, table, ratings_file, ratings_d, derived_percentage_used (estimated from the drive's own wear, no datasheet figure), none; row: the table row FILE:LINE.",
	  .labels = { "source", "capacity_basis", "row", "workload_basis" }, .get = g_rating_info },
	{ .name = "wearwatch_drive_rated_written_bytes", .type = "gauge",
	  .help = "Rated bytes written over the warranty (DWPD x capacity x 365 x years, or the drive's own estimate; source=derived_percentage_used: host bytes written / the drive's own used fraction).",
	  .labels = { "source" }, .get = ww_metric_end_u64,
	  .off = EOFF(rated_bytes), .has = EOFF(has_rated_bytes) },
	{ .name = "wearwatch_drive_rated_written_bytes_range", .type = "gauge",
	  .help = "Range of a derived rating (source=derived_percentage_used): rated bytes for the integer used percent plus (bound=low) and minus (bound=high) one.",
	  .labels = { "source", "bound" }, .get = g_rated_range },
	{ .name = "wearwatch_drive_rated_writes_per_day", .type = "gauge",
	  .help = "Rated drive writes per day.",
	  .labels = { "source" }, .get = ww_metric_end_double,
	  .off = EOFF(rated_dwpd), .has = EOFF(has_rated_dwpd) },
	{ .name = "wearwatch_drive_rated_endurance_used_ratio", .type = "gauge",
	  .help = "Host bytes written / rated bytes written (0-1, may exceed 1).",
	  .labels = { "source" }, .get = ww_metric_end_double,
	  .off = EOFF(rated_used_ratio), .has = EOFF(has_rated_used) },
	{ .name = "wearwatch_drive_endurance_used_disagreement", .type = "gauge",
	  .help = "1 when the rated endurance used (host writes) and the drive's own endurance used (NAND writes) differ a lot (> 0.2 and 2x); informational.",
	  .get = g_disagreement },
	{ .name = "wearwatch_drive_writes_per_day", .type = "gauge",
	  .help = "Drive writes per day (host bytes written / capacity / day) over a window; a window appears once history covers 90 % of it; lifetime = per power-on day.",
	  .labels = { "window" }, .get = g_writes_per_day },
	{ .name = "wearwatch_drive_warranty_start_timestamp_seconds", .type = "gauge",
	  .help = "Warranty start used (basis: config, manufacture_date, power_on_time, first_seen).",
	  .labels = { "basis" }, .get = g_warranty_start },
	{ .name = "wearwatch_drive_warranty_end_timestamp_seconds", .type = "gauge",
	  .help = "Warranty end: start + warranty years x 365 days.",
	  .get = ww_metric_end_time, .off = EOFF(warranty_end), .has = EOFF(has_warranty_end) },
	{ .name = "wearwatch_drive_wearout_timestamp_seconds", .type = "gauge",
	  .help = "Projected wear-out time (basis: write_rate_30d = rated bytes at the 30-day write rate, percentage_used = the drive's own lifetime rate); absent when the rate is 0.",
	  .labels = { "basis" }, .get = g_wearout },
	{ .name = "wearwatch_drive_write_amplification_ratio", .type = "gauge",
	  .help = "Media bytes written / host bytes written (NVMe log 09h Media Units Written or OCP C0h Physical Media Units Written).",
	  .get = ww_metric_end_double, .off = EOFF(write_amplification), .has = EOFF(has_waf) },
	{ .name = "wearwatch_drive_workload_utilization_ratio", .type = "gauge",
	  .help = "SAS Utilization log page 0x0E/0x01: fraction of the vendor's annual workload rating used (reads and writes; not a write-endurance rating).",
	  .get = ww_metric_end_double, .off = EOFF(utilization_ratio), .has = EOFF(has_utilization) },
	{ 0 }
};
/* clang-format on */
