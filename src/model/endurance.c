/* Endurance arithmetic (contract in model.h; the verdict is verdict.c). Pure:
 * `now` is a parameter, nothing here reads a clock or a device. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/model.h"

const unsigned ww_window_days[WW_WIN_MAX] = { 1, 7, 30 };
const char *const ww_window_name[WW_WIN_MAX] = { "1d", "7d", "30d" };

const char *ww_capacity_basis_name(ww_capacity_basis_t b)
{
	static const char *const n[] = { "none", "table_nominal", "config", "drive" };
	return b <= WW_CAP_DRIVE ? n[b] : "none";
}

const char *ww_wstart_basis_name(ww_wstart_basis_t b)
{
	static const char *const n[] = { "none", "config", "manufacture_date", "power_on_time",
					 "first_seen" };
	return b <= WW_WS_FIRST_SEEN ? n[b] : "none";
}

uint64_t ww_model_rated_bytes(double dwpd, uint64_t capacity_bytes, unsigned years)
{
	/* exact in long double for every realistic figure (30 x 8e11 x 1825) */
	long double b = (long double)dwpd * capacity_bytes * WW_YEAR_DAYS * years;

	if (b <= 0)
		return 0;
	if (b >= 18446744073709551615.0L)
		return UINT64_MAX;
	return (uint64_t)llroundl(b);
}

long ww_model_pick_base(const ww_sample_t *s, size_t n, time_t now, unsigned window_days)
{
	time_t from = now - (time_t)window_days * WW_DAY_S;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (s[i].t >= from && s[i].segment == s[n - 1].segment && s[i].has_written)
			return (long)i;
	return -1;
}

bool ww_model_window_dwpd(const ww_sample_t *base, const ww_sample_t *latest,
			  unsigned window_days, uint64_t capacity_bytes, double *dwpd)
{
	double span, days;

	if (!base || !latest || !capacity_bytes || !base->has_written || !latest->has_written ||
	    base->segment != latest->segment || latest->written_bytes < base->written_bytes)
		return false;
	span = (double)(latest->t - base->t);
	if (span < WW_WINDOW_COVERAGE * window_days * WW_DAY_S || span <= 0)
		return false;
	days = span / WW_DAY_S;
	*dwpd = (double)(latest->written_bytes - base->written_bytes) / capacity_bytes / days;
	return true;
}

/* Monday of ISO week `week` of `year`, 00:00 UTC. */
static time_t iso_week_start(int year, int week)
{
	struct tm jan4 = { .tm_year = year - 1900, .tm_mon = 0, .tm_mday = 4 };
	time_t t = timegm(&jan4);
	int wday;

	gmtime_r(&t, &jan4);
	wday = jan4.tm_wday ? jan4.tm_wday : 7; /* Monday = 1 .. Sunday = 7 */
	return t - (time_t)(wday - 1) * WW_DAY_S + (time_t)(week - 1) * 7 * WW_DAY_S;
}

ww_wstart_basis_t ww_model_warranty_start(const ww_rating_row_t *config, const ww_health_t *h,
					  time_t first_seen, time_t now, time_t *start)
{
	*start = 0;
	if (config && config->warranty_start) {
		*start = config->warranty_start;
		return WW_WS_CONFIG;
	}
	if (h && h->scsi.manufacture_year[0] && h->scsi.manufacture_week[0]) {
		int y = atoi(h->scsi.manufacture_year), w = atoi(h->scsi.manufacture_week);

		if (y >= 1990 && y <= 2200 && w >= 1 && w <= 53) {
			*start = iso_week_start(y, w);
			return WW_WS_MANUFACTURE;
		}
	}
	if (h && WW_HAS(h->power_on_seconds) && h->power_on_seconds.value < (uint64_t)now) {
		*start = now - (time_t)h->power_on_seconds.value;
		return WW_WS_POWER_ON;
	}
	if (first_seen) {
		*start = first_seen;
		return WW_WS_FIRST_SEEN;
	}
	return WW_WS_NONE;
}

/* Vendor wear attributes whose normalised value counts down from 100 as the
 * flash wears (worn = 100 - value), by the names smartmontools' drive
 * database gives them: an id means other things on other drives (202 is
 * Data_Address_Mark_Errs on disks, 231 a temperature, 233 NAND writes on
 * some SSDs), so the name decides. */
static const char *const wear_names[] = {
	"Wear_Leveling_Count",    "Percent_Lifetime_Remain", "SSD_Life_Left",
	"SSD_Life_Left_Perc",     "Media_Wearout_Indicator", "Remaining_Lifetime_Perc",
	"Perc_Rated_Life_Remain", "Lifetime_Left",           "Lifetime_Remaining",
	"DriveLife_Remaining",
};

bool ww_model_wear_attr(const ww_ata_attr_t *a)
{
	if (a->id != 177 && a->id != 202 && a->id != 231 && a->id != 233)
		return false;
	/* above 100 it is no percentage; 0 with worst 0 is an unused slot */
	if (!a->name || a->value > 100 || (!a->value && !a->worst))
		return false;
	for (size_t i = 0; i < sizeof(wear_names) / sizeof(wear_names[0]); i++)
		if (!strcmp(a->name, wear_names[i]))
			return true;
	return false;
}

bool ww_model_wear_used(const ww_health_t *h, unsigned *percent, const ww_ata_attr_t **attr)
{
	*attr = NULL;
	if (!h)
		return false;
	if (WW_HAS(h->endurance_used_percent)) {
		uint64_t v = h->endurance_used_percent.value;

		*percent = v > UINT32_MAX ? UINT32_MAX : (unsigned)v;
		return true;
	}
	for (size_t i = 0; i < h->ata.n_attrs && i < WW_ATA_MAX_ATTRS; i++)
		if (h->ata.attrs[i].id && ww_model_wear_attr(&h->ata.attrs[i])) {
			*attr = &h->ata.attrs[i];
			*percent = 100u - h->ata.attrs[i].value;
			return true;
		}
	return false;
}

bool ww_model_derive_rating(uint64_t written, unsigned used_percent, uint64_t *rated, uint64_t *low,
			    uint64_t *high)
{
	long double w = written;

	if (!written || used_percent < WW_DERIVED_MIN_USED_PERCENT || used_percent >= 255)
		return false;
	/* written <= 2^64 and used >= 4: every quotient fits in 64 bits */
	*rated = (uint64_t)llroundl(w * 100 / used_percent);
	*low = (uint64_t)llroundl(w * 100 / (used_percent + WW_DERIVED_SLACK_PERCENT));
	*high = (uint64_t)llroundl(w * 100 / (used_percent - WW_DERIVED_SLACK_PERCENT));
	return true;
}

/* No rating known: the one the drive's own wear implies, if it gives it. */
static void derive(const ww_model_in_t *in, ww_endurance_t *o)
{
	const ww_health_t *h = in->h;
	const ww_ata_attr_t *a;
	unsigned pct;

	if (!h || !WW_HAS(h->host_written_bytes) || !ww_model_wear_used(h, &pct, &a) ||
	    !ww_model_derive_rating(h->host_written_bytes.value, pct, &o->rated_bytes,
				    &o->rated_bytes_low, &o->rated_bytes_high))
		return;
	o->rating_source = WW_RATING_DERIVED;
	o->has_rated_bytes = o->has_rated_range = true;
	o->derived_used_percent = pct;
	if (a) {
		snprintf(o->derived_used_source, sizeof(o->derived_used_source),
			 "ATA attribute %u %s (100 - normalised value %u)", a->id, a->name,
			 a->value);
		snprintf(o->derived_used_label, sizeof(o->derived_used_label), "ata_attribute_%u",
			 a->id);
	} else {
		snprintf(o->derived_used_source, sizeof(o->derived_used_source), "%s",
			 h->endurance_used_percent.source ? h->endurance_used_percent.source : "");
		snprintf(o->derived_used_label, sizeof(o->derived_used_label), "%s",
			 h->endurance_used_percent.label ? h->endurance_used_percent.label : "");
	}
	snprintf(o->rating_note, sizeof(o->rating_note),
		 "estimated from the drive's own wear (host bytes written / %u %% used), "
		 "not a datasheet figure",
		 pct);
}

/* Choose the rating: config, drive's own 09h / C0h estimate, table, the
 * drive's own wear, none. */
static void pick_rating(const ww_model_in_t *in, ww_endurance_t *o)
{
	const ww_health_t *h = in->h;
	const ww_rating_row_t *r = NULL;

	o->capacity_bytes = in->drive_capacity_bytes;
	o->capacity_basis = in->drive_capacity_bytes ? WW_CAP_DRIVE : WW_CAP_NONE;
	if (in->config) {
		r = in->config;
		o->rating_source = WW_RATING_CONFIG;
		if (r->capacity_bytes) {
			o->capacity_bytes = r->capacity_bytes;
			o->capacity_basis = WW_CAP_CONFIG;
		}
	} else if (h && WW_HAS(h->endurance_estimate_bytes) && h->endurance_estimate_bytes.value) {
		bool ocp = h->endurance_estimate_bytes.label &&
			   !strcmp(h->endurance_estimate_bytes.label, "ocp_c0");

		o->rating_source = ocp ? WW_RATING_OCP_C0 : WW_RATING_NVME_EG;
		o->has_rated_bytes = true;
		o->rated_bytes = h->endurance_estimate_bytes.value;
		snprintf(o->rating_row, sizeof(o->rating_row), "%s", h->endurance_estimate_bytes.source);
		snprintf(o->rating_note, sizeof(o->rating_note), "the drive's own endurance estimate");
		/* warranty years unknown: a table row may still give them */
		if (in->table)
			o->warranty_years = in->table->warranty_years;
		if (o->capacity_bytes) {
			o->has_rated_dwpd = o->warranty_years > 0;
			if (o->has_rated_dwpd)
				o->rated_dwpd = (double)o->rated_bytes / o->capacity_bytes /
						WW_YEAR_DAYS / o->warranty_years;
		}
		return;
	} else if (in->table) {
		r = in->table;
		/* a row says which kind of table it came from */
		o->rating_source = r->kind == WW_RATING_FILE || r->kind == WW_RATING_RATINGS_D
			? r->kind
			: WW_RATING_TABLE;
		if (r->capacity_bytes) {
			o->capacity_bytes = r->capacity_bytes;
			o->capacity_basis = WW_CAP_TABLE;
		}
	}
	if (!r) {
		o->rating_source = WW_RATING_NONE;
		snprintf(o->rating_note, sizeof(o->rating_note), "no rating known");
		derive(in, o);
		return;
	}
	snprintf(o->rating_row, sizeof(o->rating_row), "%s", r->line);
	snprintf(o->rating_note, sizeof(o->rating_note), "%s", r->source);
	snprintf(o->rating_basis, sizeof(o->rating_basis), "%s", r->basis);
	if (r->origin[0] && r->lineno)
		snprintf(o->rating_ref, sizeof(o->rating_ref), "%s:%u", r->origin, r->lineno);
	o->warranty_years = r->warranty_years;
	if (r->rated_bytes) {
		o->has_rated_bytes = true;
		o->rated_bytes = r->rated_bytes;
	} else if (r->dwpd && o->capacity_bytes && r->warranty_years) {
		o->has_rated_bytes = true;
		o->rated_bytes = ww_model_rated_bytes(r->dwpd, o->capacity_bytes, r->warranty_years);
	}
	if (r->dwpd) {
		o->has_rated_dwpd = true;
		o->rated_dwpd = r->dwpd;
	} else if (o->has_rated_bytes && o->capacity_bytes && r->warranty_years) {
		o->has_rated_dwpd = true;
		o->rated_dwpd = (double)o->rated_bytes / o->capacity_bytes / WW_YEAR_DAYS /
				r->warranty_years;
	}
}

void ww_model_compute(const ww_model_in_t *in, time_t now, ww_endurance_t *o)
{
	const ww_health_t *h = in->h;

	memset(o, 0, sizeof(*o));
	o->computed = now;
	pick_rating(in, o);

	if (h && WW_HAS(h->endurance_used_percent)) {
		o->has_drive_used = true;
		o->drive_used_ratio = h->endurance_used_percent.value / 100.0;
	}
	/* a derived rating is host written / used: host written against it is
	 * the used fraction again, so it is not compared (no rated used, no
	 * rated_endurance_* reason: percentage_used_* judge that figure) */
	if (h && o->has_rated_bytes && o->rated_bytes && WW_HAS(h->host_written_bytes) &&
	    o->rating_source != WW_RATING_DERIVED) {
		o->has_rated_used = true;
		o->rated_used_ratio = (double)h->host_written_bytes.value / o->rated_bytes;
		if (o->has_drive_used) {
			double a = o->rated_used_ratio, b = o->drive_used_ratio;
			double hi = a > b ? a : b, lo = a > b ? b : a;

			o->used_disagree = hi - lo > 0.2 && hi > 2 * lo;
		}
	}

	/* windows: baselines chosen by the history query, 90 % coverage rule */
	for (int w = 0; w < WW_WIN_MAX; w++)
		o->has_window[w] = ww_model_window_dwpd(in->base[w], in->latest, ww_window_days[w],
							o->capacity_bytes, &o->window_dwpd[w]);
	/* lifetime: host written per capacity per power-on day, from the first poll */
	if (h && o->capacity_bytes && WW_HAS(h->host_written_bytes) && WW_HAS(h->power_on_seconds) &&
	    h->power_on_seconds.value >= 3600) {
		o->has_lifetime_dwpd = true;
		o->lifetime_dwpd = (double)h->host_written_bytes.value / o->capacity_bytes /
				   ((double)h->power_on_seconds.value / WW_DAY_S);
	}

	o->warranty_start_basis = ww_model_warranty_start(in->config, h, in->first_seen, now,
							  &o->warranty_start);
	if (o->warranty_start_basis != WW_WS_NONE && o->warranty_years) {
		o->has_warranty_end = true;
		o->warranty_end = o->warranty_start + (time_t)o->warranty_years * WW_YEAR_DAYS * WW_DAY_S;
	}

	/* wear-out at the 30-day write rate: remaining rated bytes / bytes per
	 * second; omitted when the rate is zero (never +Inf) */
	if (o->has_window[WW_WIN_30D] && o->window_dwpd[WW_WIN_30D] > 0 && o->has_rated_bytes &&
	    o->rated_bytes && h && WW_HAS(h->host_written_bytes)) {
		double bps = o->window_dwpd[WW_WIN_30D] * o->capacity_bytes / WW_DAY_S;
		double left = (double)o->rated_bytes - (double)h->host_written_bytes.value;
		double dt = left > 0 ? left / bps : 0;

		if (dt < 1e11) {
			o->has_wearout_write_rate = true;
			o->wearout_write_rate = now + (time_t)llround(dt);
		}
	}
	/* at the drive's own percentage-used lifetime rate: used% per power-on second */
	if (o->has_drive_used && o->drive_used_ratio > 0 && WW_HAS(h->power_on_seconds) &&
	    h->power_on_seconds.value > 0) {
		double rate = o->drive_used_ratio / h->power_on_seconds.value;
		double left = 1.0 - o->drive_used_ratio;
		double dt = left > 0 ? left / rate : 0;

		if (dt < 1e11) {
			o->has_wearout_pct = true;
			o->wearout_pct = now + (time_t)llround(dt);
		}
	}

	if (h && WW_HAS(h->media_written_bytes) && WW_HAS(h->host_written_bytes) &&
	    h->host_written_bytes.value > 0) {
		o->has_waf = true;
		o->write_amplification = (double)h->media_written_bytes.value / h->host_written_bytes.value;
	}
	if (h && WW_HAS(h->workload_utilization_centipercent)) {
		o->has_utilization = true;
		o->utilization_ratio = h->workload_utilization_centipercent.value / 10000.0;
	}
}
