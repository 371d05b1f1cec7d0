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

/* The log whose open failure is the newest: ATA keeps its tests in the
 * standard and the extended log (the later one by power-on hours, the
 * extended one on a tie), NVMe and SCSI in one each. -1 when none has one. */
static int open_failure_log(const ww_health_t *h)
{
	int best = -1;

	for (int i = WW_SELFTEST_MAX - 1; i >= 0; i--) {
		const ww_selftest_log_t *l = &h->self_tests[i];

		if (!l->source || !l->has_open_failure)
			continue;
		if (best < 0 || l->open_hours > h->self_tests[best].open_hours)
			best = i;
	}
	return best;
}

/* A failed self-test no later test of the same kind or a longer one passed
 * (the decoders' open failure: a short test passing after an extended one
 * failed clears nothing). Critical when the read element failed (ATA
 * status 7) or the drive names a failing LBA: data there could not be
 * read. */
static void sig_failed(struct vctx *x)
{
	int li = open_failure_log(x->h);
	const ww_selftest_log_t *l;
	const char *kind;
	bool read_fail, crit;
	char lba[48] = "";
	ww_vreason_t *r;

	if (li < 0)
		return;
	l = &x->h->self_tests[li];
	kind = ww_selftest_kind_names[l->open_kind < WW_STK_MAX ? l->open_kind : 0];
	read_fail = li <= WW_SELFTEST_ATA_EXTENDED && l->open_status == 7;
	crit = read_fail || l->open_has_lba;
	if (l->open_has_lba)
		snprintf(lba, sizeof(lba), ", first failing LBA %" PRIu64, l->open_lba);
	r = ww_verdict_add(x, WW_R_SELF_TEST_FAILED, crit ? WW_STATUS_CRITICAL : WW_STATUS_WARNING,
			   0, l->source,
			   "the %s self-test at %" PRIu64 " power-on hours (%s log) failed: %s "
			   "(status %u)%s; no later %s test passed",
			   kind, l->open_hours, ww_selftest_names[li],
			   failure_name((unsigned)li, l->open_status), l->open_status, lba,
			   l->open_kind == WW_STK_EXTENDED || l->open_kind == WW_STK_NONE
				   ? "extended"
				   : "test of that kind or extended");
	if (l->open_has_lba)
		ww_vreason_nums(r, WW_VN_VALUE, l->open_lba, 0, 0, "LBA");
	else
		ww_vreason_nums(r, WW_VN_VALUE, l->open_status, 0, 0, "status");
}

/* How long a test of this kind may run before it counts as not completing:
 * twice what the drive gives plus an hour; the longest it gives when it
 * does not say which test runs (ATA); 48 h when it gives nothing. */
static uint32_t stuck_after_s(const ww_selftest_now_t *n)
{
	uint32_t e = n->kind == WW_STK_SHORT   ? n->expected_short_s
		: n->kind == WW_STK_EXTENDED   ? n->expected_extended_s
		: n->kind == WW_STK_CONVEYANCE ? n->expected_conveyance_s
					       : 0;

	if (!e && n->kind == WW_STK_NONE) {
		e = n->expected_extended_s;
		if (n->expected_short_s > e)
			e = n->expected_short_s;
		if (n->expected_conveyance_s > e)
			e = n->expected_conveyance_s;
	}
	return e ? 2 * e + 3600 : 48 * 3600;
}

static void sig_stuck(struct vctx *x)
{
	const ww_selftest_now_t *n = &x->h->self_test_now;
	time_t since = x->in->mem ? x->in->mem->test_running_since : 0;
	uint32_t lim = stuck_after_s(n);
	int64_t mins;
	ww_vreason_t *r;

	if (!n->source || !n->running || !since || x->now - since <= (time_t)lim)
		return;
	mins = (int64_t)(x->now - since) / 60;
	r = ww_verdict_add(x, WW_R_SELF_TEST_STUCK, WW_STATUS_WARNING, 0, n->source,
			   "a%s self-test has been running for %" PRId64 " h %02" PRId64
			   " min (%s), more than the %u min it may take",
			   n->kind == WW_STK_EXTENDED        ? "n extended"
				   : n->kind == WW_STK_SHORT ? " short"
							     : "",
			   mins / 60, mins % 60,
			   n->remaining_percent >= 0 ? "remaining given" : "no progress given",
			   lim / 60);
	ww_vreason_nums(r, WW_VN_VALUE | WW_VN_LIMIT, mins, 0, lim / 60, "min");
}

/* The estimated time the newest test covering `kind` ran (the power-on hours
 * of its log entry against the drive's now; ATA's wrap at 65536): 0 when no
 * log holds one or the power-on time is not known. Only the newest test of
 * each log is kept, so an older covering test behind a newer one of another
 * kind is not seen (the overdue reason then waits for the next). *undated
 * is set when a covering test's hours cannot be this drive's: an ATA entry
 * later than the drive's own power-on hours while those have not wrapped
 * (QEMU writes a fixed 4660 h into every entry), so no age can be told. */
static time_t covering_test_time(const struct vctx *x, unsigned kind, bool *undated)
{
	const ww_health_t *h = x->h;
	time_t best = 0;

	*undated = false;
	if (!WW_HAS(h->power_on_seconds))
		return 0;
	for (int i = 0; i < WW_SELFTEST_MAX; i++) {
		const ww_selftest_log_t *l = &h->self_tests[i];
		uint64_t now_h = h->power_on_seconds.value / 3600, age;
		time_t t;

		if (!l->source || !l->has_last || l->last_passed < 0 ||
		    !ww_selftest_covers(l->last_kind, kind))
			continue;
		if (i <= WW_SELFTEST_ATA_EXTENDED && now_h < 0x10000 && l->last_hours > now_h) {
			*undated = true;
			continue;
		}
		if (i <= WW_SELFTEST_ATA_EXTENDED)
			age = (now_h - l->last_hours) & 0xffff;
		else
			age = now_h >= l->last_hours ? now_h - l->last_hours : 0;
		t = x->now - (time_t)(age * 3600);
		if (t > best)
			best = t;
	}
	return best;
}

/* Scheduling on, and a kind the schedule names was due twice (its two
 * latest hours) with no test of it or a longer one since the earlier: a
 * whole period went by untested. A drive whose logs hold no such test is
 * judged only once it was read before the earlier hour (first_read): a
 * schedule just set is not overdue at once. */
static void sig_overdue(struct vctx *x)
{
	const ww_selftest_plan_t *p = x->in->plan;
	const ww_vmemory_t *m = x->in->mem;
	char t[40];
	ww_vreason_t *r;

	if (!p || !p->on || !x->h || !WW_HAS(x->h->power_on_seconds))
		return;
	static const unsigned order[] = { WW_STK_EXTENDED, WW_STK_SHORT, WW_STK_CONVEYANCE,
					  WW_STK_OFFLINE };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		unsigned k = order[i];
		time_t due = p->before_last[k], ran;
		bool undated;
		int64_t days;

		if (!due)
			continue;
		ran = covering_test_time(x, k, &undated);
		if (!ran && undated)
			continue; /* a test is logged, when is not known: no alarm */
		if (!ran && m && m->first_read > due)
			continue; /* never tested, but not watched for a period yet */
		/* the log's hours are whole: an hour of slack */
		if (ran && ran + 3600 >= due)
			continue;
		ww_verdict_fmt_time(due, t, sizeof(t));
		days = ran ? (int64_t)(x->now - ran) / 86400 : -1;
		if (ran)
			r = ww_verdict_add(x, WW_R_SELF_TEST_OVERDUE, WW_STATUS_WARNING, 0,
					   "the self-test logs and the schedule",
					   "no %s self-test since the one scheduled at %s; the "
					   "newest one covering it ran about %" PRId64 " days ago",
					   ww_selftest_kind_names[k], t, days);
		else
			r = ww_verdict_add(x, WW_R_SELF_TEST_OVERDUE, WW_STATUS_WARNING, 0,
					   "the self-test logs and the schedule",
					   "no %s self-test since the one scheduled at %s; the "
					   "logs hold none that covers it",
					   ww_selftest_kind_names[k], t);
		if (ran)
			ww_vreason_nums(r, WW_VN_VALUE, days, 0, 0, "days");
		return; /* one reason: the highest-priority kind that is late */
	}
}

void ww_verdict_sig_self_test(struct vctx *x)
{
	sig_failed(x);
	sig_stuck(x);
	sig_overdue(x);
}
