/* Private to src/model/: the pieces of ww_verdict() (verdict.c) shared by
 * its signal files (verdict_drive.c, verdict_ata.c, verdict_memory.c). */
#ifndef WW_MODEL_VERDICT_INT_H
#define WW_MODEL_VERDICT_INT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "wearwatch/model.h"

/** One evaluation in progress. */
struct vctx {
	const ww_verdict_in_t *in;
	const ww_health_t *h;        /* in->h */
	const ww_health_cfg_t *cfg;  /* never NULL */
	time_t now;
	ww_verdict_t *out;
	bool unknown_silenced;       /* a silenced reason said "no data" */
};

/** Add a reason (severity sev, ATA attribute item or 0) with its sentence
 * and return it for its numbers (ww_vreason_nums); a silenced code is only
 * noted in out->silenced, and NULL is returned then and past
 * WW_VERDICT_MAX. */
ww_vreason_t *ww_verdict_add(struct vctx *x, ww_reason_t code, ww_status_t sev, unsigned item,
			     const char *source, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/** Set the numbers of r (NULL: nothing): `has` WW_VN_* bits, unsigned
 * figures clamped to INT64_MAX, unit static ("" or NULL: a plain count). */
void ww_vreason_nums(ww_vreason_t *r, unsigned has, uint64_t value, uint64_t previous,
		     uint64_t limit, const char *unit);

/** The same for a signed figure and its limit (temperatures). */
void ww_vreason_snums(ww_vreason_t *r, int64_t value, int64_t limit, const char *unit);

/** Severity of count v under the levels of sig (critical, warning or ok)
 * and, in *limit, the level it reached (the warning level when ok). */
ww_status_t ww_verdict_level(const struct vctx *x, ww_level_sig_t sig, uint64_t v, uint64_t *limit);

/** The counter `key` rose within the increase window before now: *from is
 * the value before the rise, *to the latest, *when the latest rise. */
bool ww_verdict_increased(const struct vctx *x, unsigned key, uint64_t *from, uint64_t *to,
			  time_t *when);

/** "2024-05-01 12:00:00Z" */
void ww_verdict_fmt_time(time_t t, char *buf, size_t len);

/** Decimal bytes for people: "209.92 MB". */

/* The signal groups, each adding its reasons (docs/health.md). */
void ww_verdict_sig_nvme(struct vctx *x);
void ww_verdict_sig_scsi(struct vctx *x);
void ww_verdict_sig_ata(struct vctx *x);
void ww_verdict_sig_common(struct vctx *x);      /* overall status, temperature, percentage used */
void ww_verdict_sig_endurance(struct vctx *x);   /* rated endurance, wear-out before warranty */
void ww_verdict_sig_self_test(struct vctx *x);   /* the newest self-test (verdict_errors.c) */
void ww_verdict_sig_media(struct vctx *x);       /* NVMe media errors (verdict_errors.c) */
void ww_verdict_sig_scsi_damage(struct vctx *x); /* grown defects, uncorrected errors */
void ww_verdict_sig_drift(struct vctx *x);       /* latency drift (drift.c) */

#endif
