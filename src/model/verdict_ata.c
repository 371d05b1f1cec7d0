/* Verdict signals of the ATA SMART attributes (contract in model.h, the
 * table in docs/health.md): thresholds as smartctl judges them, and the raw
 * counts admins alert on. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/verdict_int.h"

/* Raw counts that must stay 0 (smartd's -C 197 / -U 198 and the counts the
 * smartctl_exporter mixin, Scrutiny and Backblaze's statistics watch). 188
 * (Command_Timeout) is left out: Seagate packs three counters into it. */
static const struct counted {
	uint8_t id;
	ww_reason_t nonzero, increased;
	const char *noun;
} counted[] = {
	{ 5, WW_R_REALLOCATED, WW_R_REALLOCATED_INC, "reallocated sectors" },
	{ 10, WW_R_SPIN_RETRY, WW_R_SPIN_RETRY_INC, "spin retries" },
	{ 187, WW_R_REPORTED_UNC, WW_R_REPORTED_UNC_INC, "reported uncorrectable errors" },
	{ 196, WW_R_REALLOC_EVENTS, WW_R_REALLOC_EVENTS_INC, "reallocation events" },
	{ 197, WW_R_PENDING, WW_R_PENDING_INC, "current pending sectors" },
	{ 198, WW_R_OFFLINE_UNC, WW_R_OFFLINE_UNC_INC, "offline uncorrectable sectors" },
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

	if (!a->has_threshold || !a->threshold || a->value > a->threshold)
		return;
	ww_verdict_add(x, prefail ? WW_R_ATA_PREFAIL : WW_R_ATA_OLDAGE,
		       prefail ? WW_STATUS_CRITICAL : WW_STATUS_WARNING, a->id, attr_source(x->h),
		       "attribute %u %s is failing now: normalised value %u at or below its threshold %u "
		       "(%s)", a->id, a->name ? a->name : "", a->value, a->threshold,
		       prefail ? "pre-fail: the drive predicts its failure" : "old-age");
}

static void count(struct vctx *x, const ww_ata_attr_t *a)
{
	const struct counted *c = counted_of(a->id);
	bool crit = ww_attr_in(x->cfg->critical_attrs, a->id);
	ww_status_t sev = crit ? WW_STATUS_CRITICAL : WW_STATUS_WARNING;
	uint64_t v, from, to;
	time_t when;
	char t[40];

	if ((!c && !crit) || !ww_verdict_attr_count(a, x->cfg, &v))
		return;
	if (v)
		ww_verdict_add(x, c ? c->nonzero : WW_R_ATTR_COUNT, sev, a->id, attr_source(x->h),
			       "attribute %u %s: %" PRIu64 " %s%s", a->id, a->name ? a->name : "", v,
			       c ? c->noun : "(raw count)", crit ? " (listed in critical_attributes)" : "");
	if (!ww_verdict_increased(x, a->id, &from, &to, &when))
		return;
	ww_verdict_fmt_time(when, t, sizeof(t));
	ww_verdict_add(x, c ? c->increased : WW_R_ATTR_COUNT_INC, sev, a->id, attr_source(x->h),
		       "attribute %u %s rose from %" PRIu64 " to %" PRIu64 " (+%" PRIu64 "), latest at %s",
		       a->id, a->name ? a->name : "", from, to, to - from, t);
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
	}
}
