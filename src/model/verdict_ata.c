/* Verdict signals of the ATA SMART attributes (contract in model.h, the
 * table in docs/health.md): thresholds as smartctl judges them, and the raw
 * counts admins alert on. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/verdict_int.h"

/* Raw counts that must stay 0 (smartd's -C 197 / -U 198 and the counts the
 * smartctl_exporter mixin, Scrutiny and Backblaze's statistics watch), with
 * the levels that weigh them by size (lv; WW_LV_MAX: any count above 0 is a
 * warning, no critical level). 188 (Command_Timeout) counts only where the
 * drive database's format makes its raw value one number: Seagate packs
 * three counters into it (raw16). */
static const struct counted {
	uint8_t id;
	ww_reason_t nonzero, increased;
	ww_level_sig_t lv;
	const char *noun, *unit;
} counted[] = {
	{ 5, WW_R_REALLOCATED, WW_R_REALLOCATED_INC, WW_LV_REALLOCATED, "reallocated sectors",
	  "sectors" },
	{ 10, WW_R_SPIN_RETRY, WW_R_SPIN_RETRY_INC, WW_LV_MAX, "spin retries", "retries" },
	{ 187, WW_R_REPORTED_UNC, WW_R_REPORTED_UNC_INC, WW_LV_REPORTED_UNC,
	  "reported uncorrectable errors", "errors" },
	{ 188, WW_R_COMMAND_TIMEOUT, WW_R_COMMAND_TIMEOUT_INC, WW_LV_COMMAND_TIMEOUT,
	  "command timeouts", "timeouts" },
	{ 196, WW_R_REALLOC_EVENTS, WW_R_REALLOC_EVENTS_INC, WW_LV_REALLOC_EVENTS,
	  "reallocation events", "events" },
	{ 197, WW_R_PENDING, WW_R_PENDING_INC, WW_LV_PENDING, "current pending sectors",
	  "sectors" },
	{ 198, WW_R_OFFLINE_UNC, WW_R_OFFLINE_UNC_INC, WW_LV_OFFLINE_UNC,
	  "offline uncorrectable sectors", "sectors" },
};

static const struct counted *counted_of(unsigned id)
{
	for (size_t i = 0; i < sizeof(counted) / sizeof(counted[0]); i++)
		if (counted[i].id == id)
			return &counted[i];
	return NULL;
}

static const char *attr_source(const ww_health_t *h)
{
	return h->backend && !strcmp(h->backend, "smartctl") ?
		       "smartctl -j ata_smart_attributes" :
		       "ATA SMART READ DATA / READ THRESHOLDS";
}

/* smartmontools' rule (atacmds.cpp ata_get_attr_state): threshold 0 is
 * "always passing"; the current normalised value at or below a non-zero
 * threshold is FAILING_NOW. Pre-fail attributes (flags bit 0) predict
 * failure: critical; old-age ones mark the end of normal life: warning. */
static void threshold(struct vctx *x, const ww_ata_attr_t *a)
{
	bool prefail = a->flags & 0x0001;
	ww_vreason_t *r;

	if (!a->has_threshold || !a->threshold || a->value > a->threshold)
		return;
	r = ww_verdict_add(x, prefail ? WW_R_ATA_PREFAIL : WW_R_ATA_OLDAGE,
			   prefail ? WW_STATUS_CRITICAL : WW_STATUS_WARNING, a->id,
			   attr_source(x->h),
			   "attribute %u %s is failing now: normalised value %u at or below its "
			   "threshold %u (%s)",
			   a->id, a->name ? a->name : "", a->value, a->threshold,
			   prefail ? "pre-fail: the drive predicts its failure" : "old-age");
	ww_vreason_nums(r, WW_VN_VALUE | WW_VN_LIMIT, a->value, 0, a->threshold, "normalised");
}

/* Severity of count v of attribute c (NULL: one of critical_attributes)
 * and the level it reached, in words ("warning level 1; critical from
 * 40") for the sentence */
static ww_status_t count_level(struct vctx *x, const struct counted *c, bool crit, uint64_t v,
			       uint64_t *lim, char *words, size_t wlen)
{
	const ww_level_t *l;
	ww_status_t sev;

	*lim = 1;
	if (crit || !c || c->lv == WW_LV_MAX) {
		snprintf(words, wlen, crit ? "listed in critical_attributes" : "any is a warning");
		return v ? crit ? WW_STATUS_CRITICAL : WW_STATUS_WARNING : WW_STATUS_OK;
	}
	l = &x->cfg->level[c->lv];
	sev = ww_verdict_level(x, c->lv, v, lim);
	if (sev == WW_STATUS_WARNING && l->critical)
		snprintf(words, wlen, "warning level %" PRIu64 "; critical from %" PRIu64, *lim,
			 l->critical);
	else
		snprintf(words, wlen, "%s level %" PRIu64, ww_status_name(sev), *lim);
	return sev;
}

static void count(struct vctx *x, const ww_ata_attr_t *a)
{
	const struct counted *c = counted_of(a->id);
	bool crit = ww_attr_in(x->cfg->critical_attrs, a->id);
	const char *name = a->name ? a->name : "", *unit = c ? c->unit : "";
	uint64_t v, from, to, lim;
	ww_status_t sev;
	ww_vreason_t *r;
	time_t when;
	char t[40], words[64];

	if ((!c && !crit) || !ww_verdict_attr_count(a, x->cfg, &v))
		return;
	sev = count_level(x, c, crit, v, &lim, words, sizeof(words));
	if (sev != WW_STATUS_OK) {
		r = ww_verdict_add(x, c ? c->nonzero : WW_R_ATTR_COUNT, sev, a->id,
				   attr_source(x->h), "attribute %u %s: %" PRIu64 " %s (%s)", a->id,
				   name, v, c ? c->noun : "(raw count)", words);
		ww_vreason_nums(r, WW_VN_VALUE | WW_VN_LIMIT, v, 0, lim, unit);
	}
	if (!ww_verdict_increased(x, a->id, &from, &to, &when))
		return;
	/* a rise is a warning of its own, critical for critical_attributes */
	ww_verdict_fmt_time(when, t, sizeof(t));
	r = ww_verdict_add(x, c ? c->increased : WW_R_ATTR_COUNT_INC,
			   crit ? WW_STATUS_CRITICAL : WW_STATUS_WARNING, a->id, attr_source(x->h),
			   "attribute %u %s: %" PRIu64 " %s, up from %" PRIu64 " (+%" PRIu64 "), "
			   "latest rise at %s",
			   a->id, name, to, c ? c->noun : "(raw count)", from, to - from, t);
	ww_vreason_nums(r, WW_VN_VALUE | WW_VN_PREVIOUS, to, from, 0, unit);
}

/* Percentage used from a wear attribute, with the percentage used levels;
 * only for a drive that gives no percentage used of its own (ATA Device
 * Statistics page 7): that is the standard figure. */
static void wear(struct vctx *x, const ww_ata_attr_t *a)
{
	unsigned worn = 100u - a->value, lim;
	ww_reason_t code;
	ww_vreason_t *r;

	if (WW_HAS(x->h->endurance_used_percent) || !ww_model_wear_attr(a))
		return;
	if (worn >= x->cfg->pct_used_critical)
		code = WW_R_PCT_USED_EXHAUSTED, lim = x->cfg->pct_used_critical;
	else if (worn >= x->cfg->pct_used_warning)
		code = WW_R_PCT_USED_HIGH, lim = x->cfg->pct_used_warning;
	else
		return;
	r = ww_verdict_add(x, code, ww_reasons[code].severity, a->id, attr_source(x->h),
			   "attribute %u %s: normalised value %u, %u %% of the flash's life used, "
			   "at or above %u %%",
			   a->id, a->name, a->value, worn, lim);
	ww_vreason_nums(r, WW_VN_VALUE | WW_VN_LIMIT, worn, 0, lim, "%");
}

void ww_verdict_sig_ata(struct vctx *x)
{
	const ww_ata_t *ata = &x->h->ata;

	for (size_t i = 0; i < ata->n_attrs; i++) {
		const ww_ata_attr_t *a = &ata->attrs[i];

		if (!a->id || ww_attr_in(x->cfg->ignore_attrs, a->id))
			continue;
		threshold(x, a);
		count(x, a);
		wear(x, a);
	}
}
