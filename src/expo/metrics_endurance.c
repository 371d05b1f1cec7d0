/* Endurance families of /metrics (issue 3), from the endurance service's
 * latest results (never from the database or a device). Called by
 * metrics.c; see docs/metrics.md "Endurance". */
#include <stdio.h>
#include <string.h>

#include "wearwatch/store.h"
#include "wearwatch/expo.h"

struct fam {
	FILE *f;
	const char *name;
	bool hdr;
};

static void esc(FILE *f, const char *v)
{
	for (; v && *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

static void open_s(struct fam *m, const char *type, const char *help, const char *id)
{
	if (!m->hdr) {
		fprintf(m->f, "# HELP %s %s\n# TYPE %s %s\n", m->name, help, m->name, type);
		m->hdr = true;
	}
	fprintf(m->f, "%s{drive=\"", m->name);
	esc(m->f, id);
	fputc('"', m->f);
}

static void lbl(struct fam *m, const char *k, const char *v)
{
	fprintf(m->f, ",%s=\"", k);
	esc(m->f, v);
	fputc('"', m->f);
}

static void val(struct fam *m, double v)
{
	fprintf(m->f, "} %.17g\n", v);
}

/* One ww_endurance_t per drive state, or none. */
struct row {
	const ww_drive_state_t *st;
	ww_endurance_t e;
};

#define EACH(r) for (size_t i_ = 0; i_ < n && ((r) = &rows[i_]); i_++)

void ww_metrics_render_endurance(FILE *f, const ww_snapshot_t *snap, time_t now)
{
	ww_endurance_svc_t *svc = ww_endurance_global();
	static __thread struct row rows[256];
	struct row *r;
	size_t n = 0;

	(void)now;
	if (!svc || !snap)
		return;
	for (size_t i = 0; i < snap->n && n < 256; i++) {
		if (!ww_endurance_get(svc, snap->drives[i].drive.id, &rows[n].e))
			continue;
		rows[n].st = &snap->drives[i];
		/* a drive that disappeared is not collected any more: say so */
		if (!rows[n].st->present) {
			rows[n].e.reason[WW_R_MISSING] = true;
			rows[n].e.status = WW_HS_CRITICAL;
		}
		n++;
	}
#define FAM(nm) struct fam m_##nm = { f, #nm, false }; struct fam *m = &m_##nm
	{
		FAM(wearwatch_drive_rating_info);
		EACH(r) {
			open_s(m, "gauge", "Rating used for the drive's endurance figures; value is always 1. source: config, nvme_endurance_group, ocp_c0, table, none.", r->st->drive.id);
			lbl(m, "source", ww_rating_source_name(r->e.rating_source));
			lbl(m, "capacity_basis", ww_capacity_basis_name(r->e.capacity_basis));
			lbl(m, "note", r->e.rating_note);
			val(m, 1);
		}
	}
	{
		FAM(wearwatch_drive_rated_written_bytes);
		EACH(r) if (r->e.has_rated_bytes) {
			open_s(m, "gauge", "Rated bytes written over the warranty (DWPD x capacity x 365 x years, or the drive's own estimate).", r->st->drive.id);
			lbl(m, "source", ww_rating_source_name(r->e.rating_source));
			val(m, (double)r->e.rated_bytes);
		}
	}
	{
		FAM(wearwatch_drive_rated_writes_per_day);
		EACH(r) if (r->e.has_rated_dwpd) {
			open_s(m, "gauge", "Rated drive writes per day.", r->st->drive.id);
			lbl(m, "source", ww_rating_source_name(r->e.rating_source));
			val(m, r->e.rated_dwpd);
		}
	}
	{
		FAM(wearwatch_drive_rated_endurance_used_ratio);
		EACH(r) if (r->e.has_rated_used) {
			open_s(m, "gauge", "Host bytes written / rated bytes written (0-1, may exceed 1).", r->st->drive.id);
			lbl(m, "source", ww_rating_source_name(r->e.rating_source));
			val(m, r->e.rated_used_ratio);
		}
	}
	{
		FAM(wearwatch_drive_endurance_used_disagreement);
		EACH(r) if (r->e.has_rated_used && r->e.has_drive_used) {
			open_s(m, "gauge", "1 when the rated endurance used (host writes) and the drive's own endurance used (NAND writes) differ a lot (> 0.2 and 2x); informational.", r->st->drive.id);
			val(m, r->e.used_disagree);
		}
	}
	{
		FAM(wearwatch_drive_writes_per_day);
		EACH(r) {
			for (int w = 0; w < WW_WIN_MAX; w++) {
				if (!r->e.has_window[w])
					continue;
				open_s(m, "gauge", "Drive writes per day (host bytes written / capacity / day) over a window; a window appears once history covers 90 % of it; lifetime = per power-on day.", r->st->drive.id);
				lbl(m, "window", ww_window_name[w]);
				val(m, r->e.window_dwpd[w]);
			}
			if (r->e.has_lifetime_dwpd) {
				open_s(m, "gauge", "Drive writes per day (host bytes written / capacity / day) over a window; a window appears once history covers 90 % of it; lifetime = per power-on day.", r->st->drive.id);
				lbl(m, "window", "lifetime");
				val(m, r->e.lifetime_dwpd);
			}
		}
	}
	{
		FAM(wearwatch_drive_warranty_start_timestamp_seconds);
		EACH(r) if (r->e.warranty_start_basis != WW_WS_NONE) {
			open_s(m, "gauge", "Warranty start used (basis: config, manufacture_date, power_on_time, first_seen).", r->st->drive.id);
			lbl(m, "basis", ww_wstart_basis_name(r->e.warranty_start_basis));
			val(m, (double)r->e.warranty_start);
		}
	}
	{
		FAM(wearwatch_drive_warranty_end_timestamp_seconds);
		EACH(r) if (r->e.has_warranty_end) {
			open_s(m, "gauge", "Warranty end: start + warranty years x 365 days.", r->st->drive.id);
			val(m, (double)r->e.warranty_end);
		}
	}
	{
		FAM(wearwatch_drive_wearout_timestamp_seconds);
		EACH(r) {
			if (r->e.has_wearout_write_rate) {
				open_s(m, "gauge", "Projected wear-out time (basis: write_rate_30d = rated bytes at the 30-day write rate, percentage_used = the drive's own lifetime rate); absent when the rate is 0.", r->st->drive.id);
				lbl(m, "basis", "write_rate_30d");
				val(m, (double)r->e.wearout_write_rate);
			}
			if (r->e.has_wearout_pct) {
				open_s(m, "gauge", "Projected wear-out time (basis: write_rate_30d = rated bytes at the 30-day write rate, percentage_used = the drive's own lifetime rate); absent when the rate is 0.", r->st->drive.id);
				lbl(m, "basis", "percentage_used");
				val(m, (double)r->e.wearout_pct);
			}
		}
	}
	{
		FAM(wearwatch_drive_write_amplification_ratio);
		EACH(r) if (r->e.has_waf) {
			open_s(m, "gauge", "Media bytes written / host bytes written (NVMe log 09h Media Units Written or OCP C0h Physical Media Units Written).", r->st->drive.id);
			val(m, r->e.write_amplification);
		}
	}
	{
		FAM(wearwatch_drive_workload_utilization_ratio);
		EACH(r) if (r->e.has_utilization) {
			open_s(m, "gauge", "SAS Utilization log page 0x0E/0x01: fraction of the vendor's annual workload rating used (reads and writes; not a write-endurance rating).", r->st->drive.id);
			val(m, r->e.utilization_ratio);
		}
	}
	{
		FAM(wearwatch_drive_health_status);
		EACH(r) {
			open_s(m, "gauge", "wearwatch's verdict: 0 ok, 1 warning, 2 critical (reasons in wearwatch_drive_health_reason).", r->st->drive.id);
			val(m, r->e.status);
		}
	}
	{
		FAM(wearwatch_drive_health_reason);
		EACH(r) {
			for (int k = 0; k < WW_R_MAX; k++) {
				if (!r->e.reason[k])
					continue;
				open_s(m, "gauge", "One series per active reason of the health verdict; value is always 1.", r->st->drive.id);
				lbl(m, "reason", ww_reason_name(k));
				val(m, 1);
			}
		}
	}
}
