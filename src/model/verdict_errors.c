/* Verdict signals of damage a drive has already taken (contract in model.h,
 * the table and the levels' sources in docs/health.md): NVMe media errors,
 * the SCSI grown defect list and uncorrected errors at any level, by their
 * size, and the newest self-test's result. A count that stays the same is a
 * reason of its own; its rise is another (verdict_drive.c). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/verdict_int.h"

/* "7 media and data integrity errors (warning level 1; critical from 35)":
 * the count, and the level it reached with the next one */
static void level_reason(struct vctx *x, ww_reason_t code, ww_level_sig_t sig, uint64_t v,
			 const char *source, const char *noun, const char *unit)
{
	const ww_level_t *l = &x->cfg->level[sig];
	uint64_t lim;
	ww_status_t sev = ww_verdict_level(x, sig, v, &lim);
	char next[48] = "";
	ww_vreason_t *r;

	if (sev == WW_STATUS_OK)
		return;
	if (sev == WW_STATUS_WARNING && l->critical)
		snprintf(next, sizeof(next), "; critical from %" PRIu64, l->critical);
	r = ww_verdict_add(x, code, sev, 0, source, "%" PRIu64 " %s (%s level %" PRIu64 "%s)", v,
			   noun, ww_status_name(sev), lim, next);
	ww_vreason_nums(r, WW_VN_VALUE | WW_VN_LIMIT, v, 0, lim, unit);
}

void ww_verdict_sig_media(struct vctx *x)
{
	const ww_u64 *m = &x->h->media_errors;

	if (WW_HAS(*m))
		level_reason(x, WW_R_MEDIA_ERRORS, WW_LV_MEDIA_ERRORS, m->value, m->source,
			     "media and data integrity errors", "errors");
}

void ww_verdict_sig_scsi_damage(struct vctx *x)
{
	const ww_scsi_t *s = &x->h->scsi;
	uint64_t from, to;
	time_t when;
	char t[40];
	ww_vreason_t *r;

	if (WW_HAS(s->grown_defects))
		level_reason(x, WW_R_GROWN_DEFECTS, WW_LV_GROWN_DEFECTS, s->grown_defects.value,
			     s->grown_defects.source, "grown defect list entries", "blocks");
	if (ww_verdict_increased(x, WW_VC_SCSI_GROWN, &from, &to, &when)) {
		ww_verdict_fmt_time(when, t, sizeof(t));
		r = ww_verdict_add(x, WW_R_GROWN_DEFECTS_INC, WW_STATUS_WARNING, 0,
				   s->grown_defects.source,
				   "%" PRIu64 " grown defect list entries, up from %" PRIu64
				   " (+%" PRIu64 "), latest rise at %s",
				   to, from, to - from, t);
		ww_vreason_nums(r, WW_VN_VALUE | WW_VN_PREVIOUS, to, from, 0, "blocks");
	}
	if (WW_HAS(s->read_errors.uncorrected))
		level_reason(x, WW_R_SCSI_UNC_READ, WW_LV_SCSI_UNCORRECTED,
			     s->read_errors.uncorrected.value, s->read_errors.uncorrected.source,
			     "total uncorrected read errors", "errors");
	if (WW_HAS(s->write_errors.uncorrected))
		level_reason(x, WW_R_SCSI_UNC_WRITE, WW_LV_SCSI_UNCORRECTED,
			     s->write_errors.uncorrected.value, s->write_errors.uncorrected.source,
			     "total uncorrected write errors", "errors");
	if (WW_HAS(s->verify_errors.uncorrected))
		level_reason(x, WW_R_SCSI_UNC_VERIFY, WW_LV_SCSI_UNCORRECTED,
			     s->verify_errors.uncorrected.value,
			     s->verify_errors.uncorrected.source, "total uncorrected verify errors",
			     "errors");
}

/* What a failed test's status means, as the standards name it: ATA ACS-4
 * self-test execution status 3-8, SPC-5 SELF-TEST RESULTS 3-7, NVMe Base 2.0
 * Device Self-test Status results 5-7. */
static const char *failure_name(unsigned log, unsigned st)
{
	static const char *const ata[] = {
		[3] = "fatal or unknown error",        [4] = "an unknown element failed",
		[5] = "the electrical element failed", [6] = "the servo (seek) element failed",
		[7] = "the read element failed",       [8] = "handling damage suspected"
	};
	static const char *const scsi[] = { [3] = "unknown error",
					    [4] = "failed, segment unknown",
					    [5] = "the first segment failed",
					    [6] = "the second segment failed",
					    [7] = "another segment failed" };
	static const char *const nvme[] = { [5] = "fatal or unknown error",
					    [6] = "a segment failed, which unknown",
					    [7] = "one or more segments failed" };
	const char *n = NULL;

	if (log == WW_SELFTEST_SCSI && st < 8)
		n = scsi[st];
	else if (log == WW_SELFTEST_NVME && st < 8)
		n = nvme[st];
	else if (log <= WW_SELFTEST_ATA_EXTENDED && st < 9)
		n = ata[st];
	return n ? n : "failed";
}

/* The log whose newest test is the drive's newest: ATA keeps its tests in the
 * standard and the extended log (the later one by power-on hours, the
 * extended one on a tie), NVMe and SCSI in one each. -1 when none was read. */
static int newest_log(const ww_health_t *h)
{
	const ww_selftest_log_t *s = &h->self_tests[WW_SELFTEST_ATA_STANDARD],
				*e = &h->self_tests[WW_SELFTEST_ATA_EXTENDED];

	if (e->source && e->has_last && (!s->has_last || e->last_hours >= s->last_hours))
		return WW_SELFTEST_ATA_EXTENDED;
	if (s->source && s->has_last)
		return WW_SELFTEST_ATA_STANDARD;
	if (h->self_tests[WW_SELFTEST_NVME].source && h->self_tests[WW_SELFTEST_NVME].has_last)
		return WW_SELFTEST_NVME;
	if (h->self_tests[WW_SELFTEST_SCSI].source && h->self_tests[WW_SELFTEST_SCSI].has_last)
		return WW_SELFTEST_SCSI;
	return -1;
}

/* The newest self-test failed: a reason until a later test passes (the
 * record keeps the newest test of each log, so the newest passing one is
 * what clears it; an aborted or running newest test says nothing).
 * Critical when the read element failed (ATA status 7) or the drive names
 * a failing LBA: data there could not be read. */
void ww_verdict_sig_self_test(struct vctx *x)
{
	int li = newest_log(x->h);
	const ww_selftest_log_t *l;
	bool read_fail, crit;
	char lba[48] = "";
	ww_vreason_t *r;

	if (li < 0)
		return;
	l = &x->h->self_tests[li];
	if (l->last_passed != 0)
		return;
	read_fail = li <= WW_SELFTEST_ATA_EXTENDED && l->last_status == 7;
	crit = read_fail || l->has_failing_lba;
	if (l->has_failing_lba)
		snprintf(lba, sizeof(lba), ", first failing LBA %" PRIu64, l->failing_lba);
	r = ww_verdict_add(x, WW_R_SELF_TEST_FAILED, crit ? WW_STATUS_CRITICAL : WW_STATUS_WARNING,
			   0, l->source,
			   "the newest self-test (%s log) failed: %s (status %u)%s, at %" PRIu64
			   " power-on hours",
			   ww_selftest_names[li], failure_name((unsigned)li, l->last_status),
			   l->last_status, lba, l->last_hours);
	if (l->has_failing_lba)
		ww_vreason_nums(r, WW_VN_VALUE, l->failing_lba, 0, 0, "LBA");
	else
		ww_vreason_nums(r, WW_VN_VALUE, l->last_status, 0, 0, "status");
}
