/* Private to src/model/: the pieces of ww_verdict() (verdict.c) shared by
 * its signal files (verdict_drive.c, verdict_ata.c, verdict_memory.c). */
#ifndef WW_MODEL_VERDICT_INT_H
#define WW_MODEL_VERDICT_INT_H

#include <stdarg.h>
#include <stddef.h>
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

/** Add a reason (severity sev, ATA attribute item or 0) with its sentence;
 * a silenced code is only noted in out->silenced. */
void ww_verdict_add(struct vctx *x, ww_reason_t code, ww_status_t sev, unsigned item,
		    const char *source, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

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
void ww_verdict_sig_common(struct vctx *x);     /* overall status, temperature, percentage used */
void ww_verdict_sig_endurance(struct vctx *x);  /* rated endurance, wear-out before warranty */

#endif
