/* Verdict signals of the normalised record, NVMe, SCSI and the endurance
 * figures (contract in model.h, the table in docs/health.md). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <scsi/sg_lib.h>

#include "model/verdict_int.h"

/* SMART overall status: the drive's own FAILED. NVMe's is its critical
 * warning byte (one reason per bit below); a SCSI drive's is its IE page,
 * which has a reason of its own with the sense text. */
static void overall(struct vctx *x)
{
	const ww_health_t *h = x->h;

	if (h->smart_status != WW_SMART_FAILED || h->has_nvme_smart || WW_HAS(h->critical_warning))
		return;
	if (WW_HAS(h->scsi.ie_asc) && (h->scsi.ie_asc.value || h->scsi.ie_ascq.value))
		return;
	ww_verdict_add(x, WW_R_SMART_FAILED, WW_STATUS_CRITICAL, 0, h->smart_status_source,
		       "SMART overall-health self-assessment: FAILED (%s)",
		       h->smart_status_source ? h->smart_status_source : "the drive");
}

/* The limit a temperature is compared with: configured, else the drive's.
 * A drive's limit of 0 °C or below is none: 0 is how SCSI page 0x0D and
 * smartctl's drive_trip say "not reported", and no drive is rated to run
 * below freezing only. */
static bool limit(const ww_health_t *h, bool critical, const ww_health_cfg_t *c, int64_t *v,
		  const char **what)
{
	if (critical ? c->has_temp_critical : c->has_temp_warning) {
		*v = critical ? c->temp_critical_celsius : c->temp_warning_celsius;
		*what = "configured";
		return true;
	}
	if (critical && WW_HAS(h->temperature_critical_celsius) &&
	    h->temperature_critical_celsius.value > 0) {
		*v = h->temperature_critical_celsius.value;
		*what = h->protocol == WW_PROTO_NVME ? "CCTEMP" : "the drive's critical limit";
		return true;
	}
	if (!critical && WW_HAS(h->temperature_warning_celsius) &&
	    h->temperature_warning_celsius.value > 0) {
		*v = h->temperature_warning_celsius.value;
		*what = h->protocol == WW_PROTO_NVME ? "WCTEMP" : "the drive's warning limit";
		return true;
	}
	/* SCSI log page 0x0D parameter 1: the highest temperature the drive
	 * runs at continuously without degrading (smartctl's "Drive Trip
	 * Temperature") */
	if (!critical && WW_HAS(h->temperature_reference_celsius) &&
	    h->temperature_reference_celsius.value > 0) {
		*v = h->temperature_reference_celsius.value;
		*what = "the SCSI reference (trip) temperature";
		return true;
	}
	return false;
}

static void temperature(struct vctx *x)
{
	const ww_health_t *h = x->h;
	int64_t t, lim;
	const char *what;
	ww_vreason_t *r = NULL;

	if (!WW_HAS(h->temperature_celsius))
		return;
	t = h->temperature_celsius.value;
	if (limit(h, true, x->cfg, &lim, &what) && t >= lim)
		r = ww_verdict_add(x, WW_R_TEMP_CRITICAL, WW_STATUS_CRITICAL, 0,
				   h->temperature_celsius.source,
				   "temperature %" PRId64
				   " °C at or above its critical limit %" PRId64 " °C (%s)",
				   t, lim, what);
	else if (limit(h, false, x->cfg, &lim, &what) && t >= lim)
		r = ww_verdict_add(x, WW_R_TEMP_WARNING, WW_STATUS_WARNING, 0,
				   h->temperature_celsius.source,
				   "temperature %" PRId64
				   " °C at or above its warning limit %" PRId64 " °C (%s)",
				   t, lim, what);
	if (r)
		ww_vreason_snums(r, t, lim, "°C");
}

/* The drive's own estimate of its life used (NVMe byte 5, ATA Device
 * Statistics page 7, SCSI page 0x11), rated or not. */
static void percentage_used(struct vctx *x)
{
	const ww_u64 *p = &x->h->endurance_used_percent;
	ww_vreason_t *r = NULL;
	unsigned lim = 0;

	if (!WW_HAS(*p))
		return;
	if (p->value >= x->cfg->pct_used_critical)
		r = ww_verdict_add(x, WW_R_PCT_USED_EXHAUSTED, WW_STATUS_CRITICAL, 0, p->source,
				   "percentage used %" PRIu64
				   " %% (the drive's own estimate of its "
				   "life used) at or above %u %%",
				   p->value, lim = x->cfg->pct_used_critical);
	else if (p->value >= x->cfg->pct_used_warning)
		r = ww_verdict_add(x, WW_R_PCT_USED_HIGH, WW_STATUS_WARNING, 0, p->source,
				   "percentage used %" PRIu64
				   " %% (the drive's own estimate of its "
				   "life used) at or above %u %%",
				   p->value, lim = x->cfg->pct_used_warning);
	ww_vreason_nums(r, WW_VN_VALUE | WW_VN_LIMIT, p->value, 0, lim, "%");
}

/* Values a decoder left out as outside their spec (an NVMe temperature
 * above 490 K, a spare threshold above 100 %): garbage is not judged, but
 * a drive answering it is not ok either */
static void implausible(struct vctx *x)
{
	uint32_t n = x->h->implausible_values;

	if (!n)
		return;
	ww_vreason_nums(ww_verdict_add(x, WW_R_IMPLAUSIBLE, ww_reasons[WW_R_IMPLAUSIBLE].severity,
				       0, "decoders' plausibility bounds",
				       "%" PRIu32
				       " value%s outside what the spec allows left out: the "
				       "drive may be answering garbage",
				       n, n == 1 ? "" : "s"),
			WW_VN_VALUE, n, 0, 0, "");
}

void ww_verdict_sig_common(struct vctx *x)
{
	implausible(x);
	overall(x);
	temperature(x);
	percentage_used(x);
}

/* a counter that rose within the increase window */
static void rose(struct vctx *x, unsigned key, ww_reason_t code, const char *source,
		 const char *what, const char *unit)
{
	uint64_t from, to;
	time_t when;
	char t[40];
	ww_vreason_t *r;

	if (!ww_verdict_increased(x, key, &from, &to, &when))
		return;
	ww_verdict_fmt_time(when, t, sizeof(t));
	r = ww_verdict_add(x, code, ww_reasons[code].severity, 0, source,
			   "%s rose from %" PRIu64 " to %" PRIu64 "%s (+%" PRIu64 "), latest at %s",
			   what, from, to, unit, to - from, t);
	ww_vreason_nums(r, WW_VN_VALUE | WW_VN_PREVIOUS, to, from, 0, *unit ? unit + 1 : "");
}

static const struct {
	uint8_t bit;
	ww_reason_t code;
	const char *text;
} cw_bits[] = {
	{ 0x02, WW_R_CW_TEMPERATURE, "temperature above an over-temperature or below an "
				     "under-temperature threshold (critical warning bit 1)" },
	{ 0x04, WW_R_CW_RELIABILITY, "NVM subsystem reliability degraded by media or internal "
				     "errors (critical warning bit 2)" },
	{ 0x08, WW_R_CW_READ_ONLY, "media placed in read-only mode (critical warning bit 3)" },
	{ 0x10, WW_R_PLP_FAILED, "volatile memory backup device failed: power-loss protection "
				 "is gone (critical warning bit 4)" },
	{ 0x20, WW_R_CW_PMR, "persistent memory region read-only or unreliable (critical "
			     "warning bit 5)" },
};

static void nvme_bits(struct vctx *x, uint64_t cw, const char *src)
{
	for (size_t i = 0; i < sizeof(cw_bits) / sizeof(cw_bits[0]); i++)
		if (cw & cw_bits[i].bit)
			ww_verdict_add(x, cw_bits[i].code, WW_STATUS_CRITICAL, 0, src, "%s",
				       cw_bits[i].text);
	if (cw & 0xc0)
		ww_verdict_add(x, WW_R_CW_OTHER, WW_STATUS_CRITICAL, 0, src,
			       "reserved critical warning bits set (0x%02" PRIx64 ")", cw & 0xc0);
}

void ww_verdict_sig_nvme(struct vctx *x)
{
	const ww_health_t *h = x->h;
	uint64_t cw = WW_HAS(h->critical_warning) ? h->critical_warning.value : 0;
	bool spare = WW_HAS(h->available_spare_percent) &&
		     WW_HAS(h->available_spare_threshold_percent) &&
		     h->available_spare_percent.value < h->available_spare_threshold_percent.value;

	if (spare)
		ww_vreason_nums(ww_verdict_add(x, WW_R_SPARE_LOW, WW_STATUS_CRITICAL, 0,
					       h->available_spare_percent.source,
					       "available spare %" PRIu64
					       " %% below its threshold %" PRIu64 " %%",
					       h->available_spare_percent.value,
					       h->available_spare_threshold_percent.value),
				WW_VN_VALUE | WW_VN_LIMIT, h->available_spare_percent.value, 0,
				h->available_spare_threshold_percent.value, "%");
	else if (cw & 0x01)
		ww_verdict_add(x, WW_R_SPARE_LOW, WW_STATUS_CRITICAL, 0, h->critical_warning.source,
			       "available spare below its threshold (critical warning bit 0)");
	nvme_bits(x, cw, h->critical_warning.source);
	if (WW_HAS(h->capacitor_health_percent) && !h->capacitor_health_percent.value && !(cw & 0x10))
		ww_verdict_add(x, WW_R_PLP_FAILED, WW_STATUS_CRITICAL, 0,
			       h->capacitor_health_percent.source,
			       "capacitor health 0 %%: power-loss protection failed");
	if (!h->has_nvme_smart)
		return;
	if (h->nvme_smart.endurance_group_critical_warning)
		ww_verdict_add(
			x, WW_R_EG_CRITICAL_WARNING, WW_STATUS_CRITICAL, 0,
			"NVMe SMART/Health log 02h byte 6",
			"endurance group critical warning summary 0x%02x (spare, reliability or "
			"read-only in an endurance group)",
			h->nvme_smart.endurance_group_critical_warning);
	ww_verdict_sig_media(x);
	rose(x, WW_VC_NVME_MEDIA, WW_R_MEDIA_ERRORS_INC, h->media_errors.source,
	     "media and data integrity errors", "");
	rose(x, WW_VC_NVME_WARN_TIME, WW_R_WARN_TEMP_TIME_INC, "NVMe SMART/Health log 02h bytes 192-195",
	     "time above the warning composite temperature (WCTEMP)", " min");
	rose(x, WW_VC_NVME_CRIT_TIME, WW_R_CRIT_TEMP_TIME_INC, "NVMe SMART/Health log 02h bytes 196-199",
	     "time above the critical composite temperature (CCTEMP)", " min");
}

void ww_verdict_sig_scsi(struct vctx *x)
{
	const ww_scsi_t *s = &x->h->scsi;
	char sense[128];
	const char *txt = sense;

	if (WW_HAS(s->ie_asc) && (s->ie_asc.value || s->ie_ascq.value)) {
		/* sg3_utils' table of SPC additional sense codes */
		sg_get_asc_ascq_str((int)s->ie_asc.value, (int)s->ie_ascq.value, sizeof(sense), sense);
		if (!strncmp(txt, "Additional sense: ", 18))
			txt += 18;
		ww_verdict_add(x, WW_R_SCSI_IE, WW_STATUS_CRITICAL, 0, s->ie_asc.source,
			       "informational exception: %s (ASC 0x%02" PRIx64 ", ASCQ 0x%02" PRIx64
			       ")",
			       txt, s->ie_asc.value, s->ie_ascq.value);
	}
	ww_verdict_sig_scsi_damage(x);
	rose(x, WW_VC_SCSI_UNC_READ, WW_R_SCSI_UNC_READ_INC, s->read_errors.uncorrected.source,
	     "total uncorrected read errors", "");
	rose(x, WW_VC_SCSI_UNC_WRITE, WW_R_SCSI_UNC_WRITE_INC, s->write_errors.uncorrected.source,
	     "total uncorrected write errors", "");
	rose(x, WW_VC_SCSI_UNC_VERIFY, WW_R_SCSI_UNC_VERIFY_INC, s->verify_errors.uncorrected.source,
	     "total uncorrected verify errors", "");
}

static void rated(struct vctx *x, const ww_endurance_t *e)
{
	const ww_health_t *h = x->h;
	double r = e->rated_used_ratio;
	ww_reason_t code;
	char w[32], rb[32];

	if (r >= 1.0)
		code = WW_R_RATED_EXHAUSTED;
	else if (r * 100 >= x->cfg->rated_critical)
		code = WW_R_RATED_NEAR_END;
	else if (r * 100 >= x->cfg->rated_warning)
		code = WW_R_RATED_HIGH;
	else
		return;
	ww_bytes_human(h->host_written_bytes.value, w, sizeof(w));
	ww_bytes_human(e->rated_bytes, rb, sizeof(rb));
	ww_vreason_nums(ww_verdict_add(x, code, ww_reasons[code].severity, 0,
				       "endurance model (host bytes written / rated bytes)",
				       "host writes %s are %.1f %% of the rated %s (rating: %s)", w,
				       r * 100, rb,
				       /* a table row by its FILE:LINE: the document it
					* cites is in the API's rating, and a whole
					* citation cut the sentence off mid-word */
				       e->rating_ref[0] ? e->rating_ref
					       : e->rating_note[0]
					       ? e->rating_note
					       : ww_rating_source_name(e->rating_source)),
			WW_VN_VALUE | WW_VN_LIMIT, h->host_written_bytes.value, 0, e->rated_bytes,
			"bytes");
}

void ww_verdict_sig_endurance(struct vctx *x)
{
	const ww_endurance_t *e = x->in->e;
	time_t wo = 0;
	const char *basis = NULL;
	char a[40], b[40];

	if (!e)
		return;
	if (e->has_rated_used && WW_HAS(x->h->host_written_bytes))
		rated(x, e);
	if (!e->has_warranty_end)
		return;
	if (e->has_wearout_write_rate && e->wearout_write_rate < e->warranty_end) {
		wo = e->wearout_write_rate;
		basis = "at the 30-day write rate";
	}
	if (e->has_wearout_pct && e->wearout_pct < e->warranty_end && (!basis || e->wearout_pct < wo)) {
		wo = e->wearout_pct;
		basis = "at the drive's percentage-used rate";
	}
	if (!basis)
		return;
	ww_verdict_fmt_time(wo, a, sizeof(a));
	ww_verdict_fmt_time(e->warranty_end, b, sizeof(b));
	ww_verdict_add(x, WW_R_WEAROUT_BEFORE_WARRANTY, WW_STATUS_WARNING, 0, "endurance model",
		       "projected wear-out %.10s (%s) is before the warranty end %.10s", a, basis,
		       b);
}
