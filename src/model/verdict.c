/* The health verdict (contract in model.h): the reason table, the drive's
 * state, and the order of what the signal files (verdict_*.c) add. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/verdict_int.h"

#define W WW_STATUS_WARNING
#define C WW_STATUS_CRITICAL
#define U WW_STATUS_UNKNOWN

_Static_assert(WW_R_MAX <= 64, "ww_health_cfg_t.silenced is a 64-bit set");

/* not formatted: a reason a row, its sentence below it */
/* clang-format off */
const ww_reason_info_t ww_reasons[WW_R_MAX] = {
	[WW_R_MISSING] = { "drive_missing", C, "the drive is no longer listed by discovery" },
	[WW_R_HUNG] = { "read_hung", W, "a read has been outstanding longer than hung_after" },
	[WW_R_READ_FAILING] = { "read_failing", W,
		"the latest read failed and the values shown are older than read_failing_after" },
	[WW_R_NO_HEALTH_INTERFACE] = { "no_health_interface", U,
		"not monitored: no health interface for this device (virtio, USB bridge)" },
	[WW_R_NO_SMART] = { "no_smart_data", U,
		"not monitored: the drive answers but reports no SMART or health data" },
	[WW_R_STANDBY_NEVER_READ] = { "standby_never_read", U,
		"in standby since the service started and never read (never woken)" },
	[WW_R_NEVER_READ] = { "never_read", U, "not read yet, or every read failed" },
	[WW_R_SMART_FAILED] = { "smart_failed", C, "SMART overall-health self-assessment FAILED" },
	[WW_R_SCSI_IE] = { "informational_exception", C,
		"SCSI Informational Exceptions log page 0x2F reports an ASC/ASCQ other than 0" },
	[WW_R_SPARE_LOW] = { "spare_below_threshold", C,
		"NVMe available spare below its threshold (critical warning bit 0)" },
	[WW_R_CW_TEMPERATURE] = { "critical_warning_temperature", C,
		"NVMe critical warning bit 1: temperature outside a threshold" },
	[WW_R_CW_RELIABILITY] = { "critical_warning_reliability", C,
		"NVMe critical warning bit 2: reliability degraded by media or internal errors" },
	[WW_R_CW_READ_ONLY] = { "critical_warning_read_only", C,
		"NVMe critical warning bit 3: media placed in read-only mode" },
	[WW_R_PLP_FAILED] = { "power_loss_protection_failed", C,
		"NVMe critical warning bit 4 (volatile memory backup failed) or OCP C0h capacitor health 0 %" },
	[WW_R_CW_PMR] = { "critical_warning_pmr", C,
		"NVMe critical warning bit 5: persistent memory region read-only or unreliable" },
	[WW_R_CW_OTHER] = { "critical_warning_other", C, "NVMe critical warning bits 6-7 (reserved) set" },
	[WW_R_EG_CRITICAL_WARNING] = { "endurance_group_critical_warning", C,
		"NVMe endurance group critical warning summary (log 02h byte 6) not 0" },
	[WW_R_MEDIA_ERRORS_INC] = { "media_errors_increased", W,
		"NVMe media and data integrity errors increased" },
	[WW_R_WARN_TEMP_TIME_INC] = { "warning_temperature_time_increased", W,
		"NVMe time above the warning composite temperature (WCTEMP) increased" },
	[WW_R_CRIT_TEMP_TIME_INC] = { "critical_temperature_time_increased", W,
		"NVMe time above the critical composite temperature (CCTEMP) increased" },
	[WW_R_TEMP_WARNING] = { "temperature_warning", W,
		"temperature at or above its warning limit (WCTEMP, SCSI reference, configured)" },
	[WW_R_TEMP_CRITICAL] = { "temperature_critical", C,
		"temperature at or above its critical limit (CCTEMP, configured)" },
	[WW_R_PCT_USED_HIGH] = { "percentage_used_high", W,
		"the drive's own percentage used at or above percentage_used_warning" },
	[WW_R_PCT_USED_EXHAUSTED] = { "percentage_used_exhausted", C,
		"the drive's own percentage used at or above percentage_used_critical" },
	[WW_R_ATA_PREFAIL] = { "ata_prefail_failing", C,
		"a pre-fail ATA attribute at or below its threshold (FAILING_NOW)" },
	[WW_R_ATA_OLDAGE] = { "ata_oldage_failing", W,
		"an old-age ATA attribute at or below its threshold" },
	[WW_R_REALLOCATED] = { "reallocated_sectors", W, "ATA 5 Reallocated_Sector_Ct not 0" },
	[WW_R_REALLOCATED_INC] = { "reallocated_sectors_increased", W,
		"ATA 5 Reallocated_Sector_Ct increased" },
	[WW_R_PENDING] = { "pending_sectors", W, "ATA 197 Current_Pending_Sector not 0" },
	[WW_R_PENDING_INC] = { "pending_sectors_increased", W, "ATA 197 Current_Pending_Sector increased" },
	[WW_R_OFFLINE_UNC] = { "offline_uncorrectable", W, "ATA 198 Offline_Uncorrectable not 0" },
	[WW_R_OFFLINE_UNC_INC] = { "offline_uncorrectable_increased", W,
		"ATA 198 Offline_Uncorrectable increased" },
	[WW_R_REPORTED_UNC] = { "reported_uncorrect", W, "ATA 187 Reported_Uncorrect not 0" },
	[WW_R_REPORTED_UNC_INC] = { "reported_uncorrect_increased", W,
		"ATA 187 Reported_Uncorrect increased" },
	[WW_R_SPIN_RETRY] = { "spin_retry", W, "ATA 10 Spin_Retry_Count not 0" },
	[WW_R_SPIN_RETRY_INC] = { "spin_retry_increased", W, "ATA 10 Spin_Retry_Count increased" },
	[WW_R_REALLOC_EVENTS] = { "reallocation_events", W, "ATA 196 Reallocated_Event_Count not 0" },
	[WW_R_REALLOC_EVENTS_INC] = { "reallocation_events_increased", W,
		"ATA 196 Reallocated_Event_Count increased" },
	[WW_R_ATTR_COUNT] = { "attribute_count_nonzero", C,
		"an ATA attribute listed in critical_attributes has a raw count other than 0" },
	[WW_R_ATTR_COUNT_INC] = { "attribute_count_increased", C,
		"an ATA attribute listed in critical_attributes increased" },
	[WW_R_SCSI_UNC_READ_INC] = { "uncorrected_read_errors_increased", W,
		"SCSI read error counter page 0x03: total uncorrected errors increased" },
	[WW_R_SCSI_UNC_WRITE_INC] = { "uncorrected_write_errors_increased", W,
		"SCSI write error counter page 0x02: total uncorrected errors increased" },
	[WW_R_SCSI_UNC_VERIFY_INC] = { "uncorrected_verify_errors_increased", W,
		"SCSI verify error counter page 0x05: total uncorrected errors increased" },
	[WW_R_RATED_HIGH] = { "rated_endurance_high", W,
		"host writes at or above rated_endurance_warning of the rated bytes written" },
	[WW_R_RATED_NEAR_END] = { "rated_endurance_near_end", C,
		"host writes at or above rated_endurance_critical of the rated bytes written" },
	[WW_R_RATED_EXHAUSTED] = { "rated_endurance_exhausted", C,
		"host writes at or above the rated bytes written" },
	[WW_R_WEAROUT_BEFORE_WARRANTY] = { "wearout_before_warranty_end", W,
		"projected wear-out before the warranty ends" },
	[WW_R_MEDIA_ERRORS] = { "media_errors", W,
		"NVMe media and data integrity errors at or above media_errors_warning" },
	[WW_R_COMMAND_TIMEOUT] = { "command_timeout", W,
		"ATA 188 Command_Timeout at or above command_timeout_warning" },
	[WW_R_COMMAND_TIMEOUT_INC] = { "command_timeout_increased", W,
		"ATA 188 Command_Timeout increased" },
	[WW_R_GROWN_DEFECTS] = { "grown_defects", W,
		"SCSI grown defect list entries at or above grown_defects_warning" },
	[WW_R_GROWN_DEFECTS_INC] = { "grown_defects_increased", W,
		"SCSI grown defect list entries increased" },
	[WW_R_SCSI_UNC_READ] = { "uncorrected_read_errors", W,
		"SCSI read error counter page 0x03: total uncorrected errors at or above "
		"uncorrected_errors_warning" },
	[WW_R_SCSI_UNC_WRITE] = { "uncorrected_write_errors", W,
		"SCSI write error counter page 0x02: total uncorrected errors at or above "
		"uncorrected_errors_warning" },
	[WW_R_SCSI_UNC_VERIFY] = { "uncorrected_verify_errors", W,
		"SCSI verify error counter page 0x05: total uncorrected errors at or above "
		"uncorrected_errors_warning" },
	[WW_R_SELF_TEST_FAILED] = { "self_test_failed", W,
		"a self-test failed and no later one of the same kind or longer passed "
		"(critical on a read failure or a failing LBA)" },
	[WW_R_SELF_TEST_STUCK] = { "self_test_not_completing", W,
		"a self-test has been running for over twice the time the drive gives "
		"plus an hour (48 h when it gives none)" },
	[WW_R_SELF_TEST_OVERDUE] = { "self_test_overdue", W,
		"self_test_schedule is set and no test of a scheduled kind ran over two "
		"of its scheduled hours" },
	[WW_R_LATENCY_DRIFT] = { "latency_drift", W,
		"the read latency p99 of the newest drift burst is above its baseline by more "
		"than latency_drift_percent" },
	[WW_R_IMPLAUSIBLE] = { "implausible_values", W,
		"values outside what their spec allows were left out (the drive may answer "
		"garbage: the values shown are not all it said)" },
};
/* clang-format on */

#undef W
#undef C
#undef U

const char *ww_status_name(ww_status_t s)
{
	static const char *const n[] = { "ok", "warning", "critical", "unknown" };

	return (unsigned)s <= WW_STATUS_UNKNOWN ? n[s] : "unknown";
}

int ww_status_rank(ww_status_t s)
{
	static const int rank[] = { 0, 2, 3, 1 };

	return (unsigned)s <= WW_STATUS_UNKNOWN ? rank[s] : 1;
}

const char *ww_reason_name(ww_reason_t r)
{
	return (unsigned)r < WW_R_MAX ? ww_reasons[r].code : "unknown";
}

int ww_reason_by_name(const char *code)
{
	for (int r = 0; code && r < WW_R_MAX; r++)
		if (!strcmp(ww_reasons[r].code, code))
			return r;
	return -1;
}

void ww_health_cfg_defaults(ww_health_cfg_t *c)
{
	memset(c, 0, sizeof(*c));
	c->pct_used_warning = 80;
	c->pct_used_critical = 100;
	c->rated_warning = 80;
	c->rated_critical = 95;
	c->increase_window_s = 86400;
	c->read_failing_after_s = 3600;
	c->self_test_concurrent = 1;
	c->self_test_spans = WW_SELFTEST_SPANS_DEFAULT;
	c->drift_percent = WW_DRIFT_PERCENT_DEFAULT;
	c->drift_bursts = WW_DRIFT_BURSTS_DEFAULT;
	/* any count above 0 is a warning: Backblaze, "What SMART Stats Tell Us
	 * About Hard Drives" (2016-10-06). The critical levels and their
	 * sources: docs/health.md "Levels" (Scrutiny's failure rates by raw
	 * value, from Backblaze's data; an analogy where no data exists). */
	for (int i = 0; i < WW_LV_MAX; i++)
		c->level[i].warning = 1;
	c->level[WW_LV_REALLOCATED].critical = 1100;
	c->level[WW_LV_REPORTED_UNC].critical = 35;
	c->level[WW_LV_PENDING].critical = 40;
	c->level[WW_LV_OFFLINE_UNC].critical = 2;
	c->level[WW_LV_MEDIA_ERRORS].critical = 35;
	c->level[WW_LV_GROWN_DEFECTS].critical = 1100;
	c->level[WW_LV_SCSI_UNCORRECTED].critical = 35;
}

ww_status_t ww_verdict_level(const struct vctx *x, ww_level_sig_t sig, uint64_t v, uint64_t *limit)
{
	const ww_level_t *l = &x->cfg->level[sig];

	if (l->critical && v >= l->critical) {
		*limit = l->critical;
		return WW_STATUS_CRITICAL;
	}
	*limit = l->warning;
	return l->warning && v >= l->warning ? WW_STATUS_WARNING : WW_STATUS_OK;
}

static int64_t clamp64(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
}

void ww_vreason_nums(ww_vreason_t *r, unsigned has, uint64_t value, uint64_t previous,
		     uint64_t limit, const char *unit)
{
	if (!r)
		return;
	r->has = has;
	r->value = clamp64(value);
	r->previous = clamp64(previous);
	r->limit = clamp64(limit);
	r->unit = unit ? unit : "";
}

void ww_vreason_snums(ww_vreason_t *r, int64_t value, int64_t limit, const char *unit)
{
	if (!r)
		return;
	r->has = WW_VN_VALUE | WW_VN_LIMIT;
	r->value = value;
	r->limit = limit;
	r->unit = unit;
}

void ww_verdict_fmt_time(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%SZ", &tm))
		snprintf(buf, len, "@%lld", (long long)t);
}

ww_vreason_t *ww_verdict_add(struct vctx *x, ww_reason_t code, ww_status_t sev, unsigned item,
			     const char *source, const char *fmt, ...)
{
	ww_verdict_t *o = x->out;
	ww_vreason_t *r;
	va_list ap;

	if ((x->cfg->silenced >> code) & 1) {
		o->silenced |= 1ull << code;
		x->unknown_silenced |= sev == WW_STATUS_UNKNOWN;
		return NULL;
	}
	if (o->n == WW_VERDICT_MAX) {
		o->n_dropped++;
		return NULL;
	}
	r = &o->r[o->n++];
	memset(r, 0, sizeof(*r));
	r->code = code;
	r->severity = sev;
	r->item = (uint16_t)item;
	r->source = source ? source : "";
	r->unit = "";
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
	return r;
}

/* Something of health in the record: an overall status, an attribute, a log
 * page value or a temperature. An ATA drive with SMART disabled has none
 * that counts (a temperature alone does not tell its health). */
static bool has_health_data(const ww_health_t *h)
{
	const ww_scsi_t *s = &h->scsi;

	if (h->no_smart)
		return false;
	if (h->protocol == WW_PROTO_ATA)
		return !(h->ata.smart_supported && !h->ata.smart_enabled) &&
		       (h->ata.n_attrs || h->smart_status != WW_SMART_UNKNOWN);
	return h->smart_status != WW_SMART_UNKNOWN || h->has_nvme_smart ||
	       WW_HAS(h->critical_warning) || h->ata.n_attrs || WW_HAS(h->temperature_celsius) ||
	       WW_HAS(h->endurance_used_percent) || WW_HAS(h->media_errors) || WW_HAS(s->ie_asc) ||
	       WW_HAS(s->read_errors.uncorrected) || WW_HAS(s->write_errors.uncorrected);
}

static void no_data(struct vctx *x)
{
	const ww_health_t *h = x->h;
	const char *t = x->in->smartctl_type;

	if (h->protocol == WW_PROTO_ATA && h->ata.smart_supported && !h->ata.smart_enabled &&
	    !h->no_smart)
		ww_verdict_add(x, WW_R_NO_SMART, WW_STATUS_UNKNOWN, 0,
			       "ATA IDENTIFY DEVICE word 85 bit 0",
			       "not monitored: SMART is supported but disabled on the drive");
	else if (t && *t)
		ww_verdict_add(
			x, WW_R_NO_SMART, WW_STATUS_UNKNOWN, 0, "smartctl",
			"not monitored: the drive answers through smartctl -d %s but reports no SMART "
			"or health data",
			t);
	else
		ww_verdict_add(
			x, WW_R_NO_SMART, WW_STATUS_UNKNOWN, 0, "health read",
			"not monitored: the drive answers but reports no SMART or health data");
}

/* Missing, hung, never read, no interface, failing reads. Returns true when
 * the record's own reasons are to be evaluated too. */
static bool state_reasons(struct vctx *x)
{
	const ww_verdict_in_t *in = x->in;
	char t[40];

	if (!in->present) {
		ww_verdict_fmt_time(in->missing_since, t, sizeof(t));
		ww_verdict_add(x, WW_R_MISSING, WW_STATUS_CRITICAL, 0, "discovery",
			       "no longer listed by discovery since %s",
			       in->missing_since ? t : "the last scan");
		return false;
	}
	if (in->hung) {
		ww_verdict_fmt_time(in->hung_since, t, sizeof(t));
		ww_verdict_add(x, WW_R_HUNG, WW_STATUS_WARNING, 0, "poller",
			       "a read has not returned since %s (%lld s)", t,
			       (long long)(x->now > in->hung_since ? x->now - in->hung_since : 0));
	}
	if (in->protocol == WW_PROTO_NONE && !x->h) {
		ww_verdict_add(x, WW_R_NO_HEALTH_INTERFACE, WW_STATUS_UNKNOWN, 0, "discovery",
			       "not monitored: %s",
			       in->no_health_reason ? in->no_health_reason
						    : "no health interface known for this device");
		return false;
	}
	if (!x->h) {
		ww_verdict_fmt_time(in->standby_since, t, sizeof(t));
		if (in->standby)
			ww_verdict_add(
				x, WW_R_STANDBY_NEVER_READ, WW_STATUS_UNKNOWN, 0, "poller",
				"not read: in standby %s%s, with no values read before (a drive "
				"in standby is not woken)",
				in->captured                ? "when captured"
					: in->standby_since ? "since "
							    : "",
				in->captured                ? ""
					: in->standby_since ? t
							    : "now");
		else if (in->last_failed)
			ww_verdict_add(x, WW_R_NEVER_READ, WW_STATUS_UNKNOWN, 0, "poller",
				       "not read: every read so far failed (%s)",
				       strerror(-in->last_rc));
		else
			ww_verdict_add(x, WW_R_NEVER_READ, WW_STATUS_UNKNOWN, 0, "poller",
				       "not read yet");
		return false;
	}
	if (in->last_failed && in->values_time &&
	    x->now - in->values_time >= (time_t)x->cfg->read_failing_after_s) {
		ww_verdict_fmt_time(in->values_time, t, sizeof(t));
		ww_verdict_add(x, WW_R_READ_FAILING, WW_STATUS_WARNING, 0, "poller",
			       "reads are failing (%s); the values shown were read at %s",
			       strerror(-in->last_rc), t);
	}
	if (!has_health_data(x->h)) {
		no_data(x);
		return false;
	}
	return true;
}

static int by_concern(const void *a, const void *b)
{
	const ww_vreason_t *x = a, *y = b;
	int d = ww_status_rank(y->severity) - ww_status_rank(x->severity);

	if (d)
		return d;
	if (x->code != y->code)
		return (int)x->code - (int)y->code;
	return (int)x->item - (int)y->item;
}

void ww_verdict(const ww_verdict_in_t *in, time_t now, ww_verdict_t *out)
{
	ww_health_cfg_t defaults;
	struct vctx x = { .in = in, .h = in->h, .now = now, .out = out };

	memset(out, 0, sizeof(*out));
	if (!in->cfg)
		ww_health_cfg_defaults(&defaults);
	/* cppcheck-suppress uninitvar ; defaults is used only when in->cfg is NULL, set then */
	x.cfg = in->cfg ? in->cfg : &defaults;
	if (state_reasons(&x)) {
		ww_verdict_sig_common(&x);
		ww_verdict_sig_nvme(&x);
		ww_verdict_sig_ata(&x);
		ww_verdict_sig_scsi(&x);
		ww_verdict_sig_self_test(&x);
		ww_verdict_sig_endurance(&x);
		ww_verdict_sig_drift(&x);
	}
	qsort(out->r, out->n, sizeof(out->r[0]), by_concern);
	out->status = WW_STATUS_OK;
	if (out->n)
		out->status = out->r[0].severity;
	/* silence drops the sentence, not the fact: a drive with no values is
	 * unknown, never ok */
	else if (x.unknown_silenced)
		out->status = WW_STATUS_UNKNOWN;
}
