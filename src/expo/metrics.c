/* Prometheus text exposition 0.0.4 of a snapshot (see expo.h, docs/metrics.md).
 *
 * The families are rows of the tables in metrics_table.h; this file walks
 * them, one family at a time over every drive, so each family's samples are
 * contiguous under one HELP/TYPE, and holds the generic getters most rows
 * use. Each drive's view (shown values, endurance result, probe summary) is
 * built once per render; the endurance results are looked up once per drive
 * (ww_store_endurance_get: a binary search), and so is the health verdict
 * (ww_drive_verdict). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/expo.h"
#include "wearwatch/store.h"
#include "expo/metrics_table.h"

/* "ata_attribute_241" from a source like "ATA attribute 241", else NULL */
static const char *attr_label(const char *src, char *buf, size_t len)
{
	const char *p = src ? strstr(src, "attribute ") : NULL;
	unsigned id;

	if (!p || sscanf(p + 10, "%u", &id) != 1 || id > 255)
		return NULL;
	snprintf(buf, len, "ata_attribute_%u", id);
	return buf;
}

const char *ww_metrics_source_label(const ww_health_t *h, const ww_u64 *field,
				    char *buf, size_t len)
{
	const char *src = field->source;
	const char *a;

	if (!src)
		return NULL;
	/* the decoders name the counter a derived value came from */
	if (field->label)
		return field->label;
	a = attr_label(src, buf, len);
	if (a)
		return a;
	return ww_protocol_name(h->protocol);
}

/* ------------------------------------------------------ generic getters --- */

#define AT(base, off, type) ((const type *)((const char *)(base) + (off)))

/* the ww_u64 at m->off of the shown record, or NULL */
static const ww_u64 *health_u64(const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_u64 *v = d->h ? AT(d->h, m->off, ww_u64) : NULL;

	return v && WW_HAS(*v) ? v : NULL;
}

static void health_sample(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d,
			  const ww_u64 *v, ww_pval_t pv)
{
	char buf[48];
	const char *lv[1];

	lv[0] = m->labels[0] ? ww_metrics_source_label(d->h, v, buf, sizeof(buf)) : NULL;
	ww_prom_sample(w, NULL, m->labels[0] ? lv : NULL, pv);
}

void ww_metric_u64(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_u64 *v = health_u64(m, d);

	if (v)
		health_sample(w, m, d, v, ww_pv_u64(v->value));
}

void ww_metric_ratio(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_u64 *v = health_u64(m, d);

	if (v)
		health_sample(w, m, d, v, ww_pv_percent(v->value));
}

void ww_metric_i64(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_i64 *v = d->h ? AT(d->h, m->off, ww_i64) : NULL;

	if (v && WW_HAS(*v))
		ww_prom_i64(w, NULL, v->value);
}

void ww_metric_nvme_u128(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_u128 *v;

	if (!d->h || !d->h->has_nvme_smart || !ww_nvme_smart_present(&d->h->nvme_smart, m->off))
		return;
	v = AT(&d->h->nvme_smart, m->off, ww_u128);
	ww_prom_sample(w, NULL, NULL,
		       ww_pv_u128((((unsigned __int128)v->hi << 64) | v->lo) * m->arg));
}

void ww_metric_nvme_u32(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->h && d->h->has_nvme_smart && ww_nvme_smart_present(&d->h->nvme_smart, m->off))
		ww_prom_sample(w, NULL, NULL,
			       ww_pv_u128((unsigned __int128)*AT(&d->h->nvme_smart, m->off,
								  uint32_t) * m->arg));
}

void ww_metric_ata_raw(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_health_t *h = d->h;

	if (!h || h->protocol != WW_PROTO_ATA)
		return;
	/* a count only where the drive database's format makes the raw one
	 * number (Seagate's packed 188 "1 1 1" is not 4295032833 timeouts) */
	for (size_t i = 0; i < h->ata.n_attrs && i < WW_ATA_MAX_ATTRS; i++)
		if (h->ata.attrs[i].id == m->arg) {
			if (h->ata.attrs[i].raw_is_count && h->ata.attrs[i].default_meaning)
				ww_prom_u64(w, NULL, h->ata.attrs[i].count);
			return;
		}
}

void ww_metric_scsi_errcnt(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	static const char *const ops[3] = { "write", "read", "verify" };
	const ww_scsi_errcnt_t *e[3];

	if (!d->h || d->h->protocol != WW_PROTO_SCSI)
		return;
	e[0] = &d->h->scsi.write_errors;
	e[1] = &d->h->scsi.read_errors;
	e[2] = &d->h->scsi.verify_errors;
	for (int i = 0; i < 3; i++) {
		const ww_u64 *v = AT(e[i], m->off, ww_u64);

		if (WW_HAS(*v))
			ww_prom_u64(w, &ops[i], v->value);
	}
}

/* the endurance result when the row's has_ flag is set, else NULL */
static const ww_endurance_t *end_has(const ww_metric_t *m, const ww_mdrive_t *d)
{
	return d->e && *AT(d->e, m->has, bool) ? d->e : NULL;
}

static void end_sample(ww_prom_t *w, const ww_metric_t *m, const ww_endurance_t *e,
		       ww_pval_t pv)
{
	const char *lv[1] = { ww_rating_source_name(e->rating_source) };

	ww_prom_sample(w, NULL, m->labels[0] ? lv : NULL, pv);
}

void ww_metric_end_double(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_endurance_t *e = end_has(m, d);

	if (e)
		/* cppcheck-suppress invalidPointerCast ; m->off is the offset of a double member */
		end_sample(w, m, e, ww_pv_double(*AT(e, m->off, double), WW_DBL_G17));
}

void ww_metric_end_u64(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_endurance_t *e = end_has(m, d);

	if (e)
		end_sample(w, m, e, ww_pv_u64(*AT(e, m->off, uint64_t)));
}

void ww_metric_end_time(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_endurance_t *e = end_has(m, d);

	if (e)
		end_sample(w, m, e, ww_pv_i64((int64_t)*AT(e, m->off, time_t)));
}

/* ---------------------------------------------------------------- render --- */

static const ww_metric_t *const tables[] = {
	ww_metrics_drive, ww_metrics_signals, ww_metrics_endurance, ww_metrics_health,
	ww_metrics_probe, ww_metrics_backend, ww_metrics_process, ww_metrics_self,
};

#define N_TABLES (sizeof(tables) / sizeof(tables[0]))

bool ww_metrics_family(size_t i, const char **name, const char **type)
{
	for (size_t t = 0; t < N_TABLES; t++)
		for (const ww_metric_t *m = tables[t]; m->name; m++)
			if (!i--) {
				*name = m->name;
				*type = m->type;
				return true;
			}
	return false;
}

static void render_family(ww_prom_t *w, const ww_render_ctx_t *ctx, const ww_metric_t *m,
			  const ww_mdrive_t *d, size_t n)
{
	if (m->when && !m->when(d, n))
		return;
	if (m->full_only && ctx->fleet_profile)
		return;
	ww_prom_family(w, m->name, m->type, m->help, m->labels);
	if (m->no_drive) {
		ww_mdrive_t none = { .ctx = ctx };

		ww_prom_drive(w, NULL);
		m->get(w, m, &none);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		ww_prom_drive(w, d[i].st->drive->id);
		m->get(w, m, &d[i]);
	}
}

/* one drive's verdict, as the families need it */
static void mverdict(const ww_render_ctx_t *ctx, const ww_drive_state_t *st, ww_verdict_t *scratch,
		     ww_mverdict_t *mv)
{
	ww_drive_verdict(ctx, st, scratch);
	memset(mv, 0, sizeof(*mv));
	mv->status = scratch->status;
	for (size_t k = 0; k < scratch->n; k++) {
		const ww_vreason_t *r = &scratch->r[k];

		/* most severe first: the first of a code is the one kept */
		if (!mv->sev[r->code] && r->has && mv->n_num < WW_VERDICT_MAX) {
			mv->num[mv->n_num].code = (uint8_t)r->code;
			mv->num[mv->n_num].has = r->has;
			mv->num[mv->n_num].value = r->value;
			mv->num[mv->n_num].previous = r->previous;
			mv->num[mv->n_num].limit = r->limit;
			mv->num[mv->n_num].baseline = r->baseline;
			mv->num[mv->n_num].unit = r->unit ? r->unit : "";
			mv->n_num++;
		}
		if (!mv->sev[r->code] || ww_status_rank(r->severity) >
					      ww_status_rank((ww_status_t)mv->sev[r->code]))
			mv->sev[r->code] = (uint8_t)r->severity;
	}
}

/* each drive's view; endurance results copied into e, verdicts into v (n
 * entries each) */
static void drive_views(const ww_render_ctx_t *ctx, ww_mdrive_t *d, ww_endurance_t *e,
			ww_mverdict_t *v)
{
	ww_verdict_t *scratch = malloc(sizeof(*scratch));
	ww_store_endurance_t *svc = ctx->endurance;

	for (size_t i = 0; i < ctx->snap->n; i++) {
		const ww_drive_state_t *st = ctx->snap->drives[i];

		d[i].ctx = ctx;
		d[i].st = st;
		d[i].h = st->present ? st->health : NULL;
		d[i].p = st->has_probe && st->probe.has_last && st->present ? &st->probe : NULL;
		d[i].e = svc && ww_expo_endurance(svc, st->drive->id, &e[i]) ? &e[i] : NULL;
		if (scratch) {
			mverdict(ctx, st, scratch, &v[i]);
			d[i].v = &v[i];
		}
	}
	free(scratch);
}

char *ww_metrics_render(const ww_render_ctx_t *ctx, size_t *len)
{
	ww_store_endurance_t *svc = ctx ? ctx->endurance : NULL;
	size_t n = ctx && ctx->snap ? ctx->snap->n : 0;
	ww_mdrive_t *d = calloc(n ? n : 1, sizeof(*d));
	ww_endurance_t *e = n && svc ? malloc(n * sizeof(*e)) : NULL;
	ww_mverdict_t *v = calloc(n ? n : 1, sizeof(*v));
	ww_prom_t w;

	/* about 7 KB per drive with every family (bench_metrics) */
	if (!d || !v || (n && svc && !e) || ww_prom_init(&w, 16384 + n * 8192) < 0) {
		free(d);
		free(e);
		free(v);
		return NULL;
	}
	if (ctx && ctx->snap) {
		drive_views(ctx, d, e, v);
		for (size_t t = 0; t < N_TABLES; t++)
			for (const ww_metric_t *m = tables[t]; m->name; m++)
				render_family(&w, ctx, m, d, n);
	}
	free(d);
	free(e);
	free(v);
	return ww_prom_finish(&w, len);
}
