/* Minimal HTML table of the drives in a snapshot (GET /table, and / without
 * the dashboard): one row per drive with the health verdict (status and the
 * reasons' sentences, from ww_drive_verdict like every output). Every string
 * from a drive is HTML-escaped. */
#include <stdio.h>
#include <stdlib.h>

#include "wearwatch/expo.h"
#include "wearwatch/store.h"
#include "expo/metrics_table.h"

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void td_time(FILE *f, time_t t, time_t now)
{
	struct tm tm;
	char buf[32];

	if (!t) {
		fputs("<td>never</td>", f);
		return;
	}
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%SZ", &tm);
	fprintf(f, "<td>%s (%llds ago)</td>", buf, (long long)(now > t ? now - t : 0));
}

/* status, then each reason's sentence */
static void td_verdict(FILE *f, const ww_render_ctx_t *ctx, const ww_drive_state_t *st,
		       ww_verdict_t *v)
{
	ww_drive_verdict(ctx, st, v);
	fprintf(f, "<td class=\"health %s\"><b>%s</b>", ww_status_name(v->status),
		ww_status_name(v->status));
	for (size_t k = 0; k < v->n; k++) {
		fprintf(f, "<br>%s: ", ww_status_name(v->r[k].severity));
		esc(f, v->r[k].text);
	}
	fputs("</td>", f);
}

/* host writes against the rating, with the rating's source on hover (the
 * endurance service's published result, as /metrics has it) */
static void td_rated(FILE *f, const ww_render_ctx_t *ctx, const ww_drive_state_t *st)
{
	ww_endurance_t *e = malloc(sizeof(*e));

	if (e && ww_expo_endurance(ctx->endurance, st->drive->id, e) && e->has_rated_used) {
		fprintf(f, "<td title=\"rating: %s, ", ww_rating_source_name(e->rating_source));
		esc(f, e->rating_row);
		fprintf(f, "\">%.1f %%</td>", e->rated_used_ratio * 100);
	} else if (e && e->rating_source == WW_RATING_DERIVED) {
		/* not compared (the rating is the used figure restated): say so */
		fprintf(f, "<td title=\"rating: %s, ", ww_rating_source_name(e->rating_source));
		esc(f, e->rating_note);
		fputs("\">not compared</td>", f);
	} else {
		fputs("<td></td>", f);
	}
	free(e);
}

char *ww_html_render_index(const ww_render_ctx_t *ctx)
{
	const ww_snapshot_t *snap = ctx->snap;
	time_t now = ctx->now;
	char *buf = NULL, hb[32];
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	ww_verdict_t *v = malloc(sizeof(*v));

	if (!f || !v) {
		if (f)
			fclose(f);
		free(buf);
		free(v);
		return NULL;
	}
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>wearwatch</title>"
	      "<style>body{font-family:sans-serif}table{border-collapse:collapse}"
	      "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}</style></head>\n"
	      "<body><h1>wearwatch</h1>\n<p><a href=\"/metrics\">/metrics</a> "
	      "<a href=\"/api/v1/drives\">/api/v1/drives</a></p>\n<table>\n"
	      "<tr><th>drive</th><th>health</th><th>model</th><th>transport</th><th>temperature</th>"
	      "<th>endurance used</th><th>rated endurance used</th><th>written</th><th>state</th>"
	      "<th>last collected</th></tr>\n",
	      f);
	for (size_t i = 0; snap && i < snap->n; i++) {
		const ww_drive_state_t *st = snap->drives[i];
		const ww_health_t *h = st->health;

		fputs("<tr><td><a href=\"/api/v1/drives/", f);
		esc(f, st->drive->id);
		fputs("\">", f);
		esc(f, st->drive->id);
		fputs("</a></td>", f);
		td_verdict(f, ctx, st, v);
		fputs("<td>", f);
		esc(f, h && h->model[0] ? h->model : st->drive->sysfs_model);
		fprintf(f, "</td><td>%s</td>", ww_transport_name(ww_drive_transport(st->drive, h)));
		if (h && WW_HAS(h->temperature_celsius))
			fprintf(f, "<td>%lld &deg;C</td>", (long long)h->temperature_celsius.value);
		else
			fputs("<td></td>", f);
		if (h && WW_HAS(h->endurance_used_percent))
			fprintf(f, "<td>%llu %%</td>", (unsigned long long)h->endurance_used_percent.value);
		else
			fputs("<td></td>", f);
		td_rated(f, ctx, st);
		if (h && WW_HAS(h->host_written_bytes))
			fprintf(f, "<td title=\"%llu bytes\">%s</td>",
				(unsigned long long)h->host_written_bytes.value,
				ww_bytes_human(h->host_written_bytes.value, hb, sizeof(hb)));
		else
			fputs("<td></td>", f);
		fprintf(f, "<td>%s%s%s</td>", st->present ? "present" : "missing",
			st->standby ? ", standby" : "", st->hung ? ", hung" : "");
		td_time(f, st->last_collect, now);
		fputs("</tr>\n", f);
	}
	fputs("</table></body></html>\n", f);
	free(v);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
