/* What the verdict remembers of earlier reads: counters whose rise is a
 * reason (contract in model.h). Pure. */
#include <string.h>

#include "model/verdict_int.h"

bool ww_verdict_attr_count(const ww_ata_attr_t *a, const ww_health_cfg_t *cfg, uint64_t *v)
{
	if (a->has_count) {
		*v = a->count;
		return true;
	}
	/* 188 is a count only where the drive database's format makes it one
	 * number with its default meaning (Seagate's raw16 triple is not), and
	 * only up to 65535: Seagate packs three 16-bit counters into it also on
	 * models whose drivedb.h entry gives no -v 188,raw16 (an Exos X16's
	 * 51540393996 is 0x000c00000000c) */
	if (a->id == 188 && a->raw_is_count && a->default_meaning && a->count <= 0xffff) {
		*v = a->count;
		return true;
	}
	if (cfg && ww_attr_in(cfg->critical_attrs, a->id)) {
		*v = a->raw & 0xffffffffffffull;
		return true;
	}
	return false;
}

static void fold(ww_vmemory_t *m, unsigned key, uint64_t v, time_t t, unsigned window_s)
{
	ww_vcounter_t *c = NULL;

	for (size_t i = 0; i < m->n && !c; i++)
		if (m->c[i].key == key)
			c = &m->c[i];
	if (!c) {
		if (m->n == WW_VMEM_MAX)
			return;
		c = &m->c[m->n++];
		memset(c, 0, sizeof(*c));
		c->key = (uint16_t)key;
		c->last = c->before = v;
		return;
	}
	if (v > c->last) {
		/* a rise inside the window keeps the value before the first one */
		if (!c->increased || t - c->increased >= (time_t)window_s)
			c->before = c->last;
		c->increased = t;
	} else if (v < c->last) {
		/* reset or another drive behind the id: a new baseline */
		c->before = v;
		c->increased = 0;
	}
	c->last = v;
}

static void fold_u64(ww_vmemory_t *m, unsigned key, const ww_u64 *f, time_t t, unsigned w)
{
	if (WW_HAS(*f))
		fold(m, key, f->value, t, w);
}

void ww_verdict_remember(ww_vmemory_t *m, const ww_health_t *h, time_t t, unsigned window_s)
{
	if (!h)
		return;
	if (!m->first_read)
		m->first_read = t;
	if (!h->self_test_now.running)
		m->test_running_since = 0;
	else if (!m->test_running_since)
		m->test_running_since = t;
	for (size_t i = 0; i < h->ata.n_attrs; i++) {
		const ww_ata_attr_t *a = &h->ata.attrs[i];

		/* every attribute, so a critical_attributes id added by a reload
		 * already has a baseline */
		uint64_t v;

		if (!ww_verdict_attr_count(a, NULL, &v))
			v = a->raw & 0xffffffffffffull;
		fold(m, a->id, v, t, window_s);
	}
	if (h->has_nvme_smart) {
		fold_u64(m, WW_VC_NVME_MEDIA, &h->media_errors, t, window_s);
		fold(m, WW_VC_NVME_WARN_TIME, h->nvme_smart.warning_temperature_time_minutes, t,
		     window_s);
		fold(m, WW_VC_NVME_CRIT_TIME, h->nvme_smart.critical_temperature_time_minutes, t,
		     window_s);
	}
	fold_u64(m, WW_VC_SCSI_UNC_READ, &h->scsi.read_errors.uncorrected, t, window_s);
	fold_u64(m, WW_VC_SCSI_UNC_WRITE, &h->scsi.write_errors.uncorrected, t, window_s);
	fold_u64(m, WW_VC_SCSI_UNC_VERIFY, &h->scsi.verify_errors.uncorrected, t, window_s);
	fold_u64(m, WW_VC_SCSI_GROWN, &h->scsi.grown_defects, t, window_s);
}

bool ww_verdict_increased(const struct vctx *x, unsigned key, uint64_t *from, uint64_t *to,
			  time_t *when)
{
	const ww_vmemory_t *m = x->in->mem;

	for (size_t i = 0; m && i < m->n; i++) {
		const ww_vcounter_t *c = &m->c[i];

		if (c->key != key)
			continue;
		if (!c->increased || c->last <= c->before ||
		    x->now - c->increased >= (time_t)x->cfg->increase_window_s)
			return false;
		*from = c->before;
		*to = c->last;
		*when = c->increased;
		return true;
	}
	return false;
}
