/* --compare (qualify.h): an earlier report read back, matched point by
 * point with this run, as rows that the text table, the JSON report's
 * "comparison" block and the HTML report all print. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "wearwatch/qualify.h"

/* not formatted: one row per compared figure, as the table prints them */
/* clang-format off */
static const struct {
	const char *key;   /* in a report's STATS */
	const char *label; /* the text table's column */
	double scale;      /* to the text table's unit */
	int decimals;
} figs[WW_QCMP_N] = {
	[WW_QCMP_IOPS] = { "iops",   "IOPS old/new",    1,   0 },
	[WW_QCMP_MEAN] = { "mean_s", "mean ms old/new", 1e3, 3 },
	[WW_QCMP_P99]  = { "p99_s",  "p99 ms old/new",  1e3, 3 },
	[WW_QCMP_MAX]  = { "max_s",  "max ms old/new",  1e3, 3 },
};
/* clang-format on */

const char *ww_qualify_compare_key(unsigned fig)
{
	return fig < WW_QCMP_N ? figs[fig].key : NULL;
}

json_object *ww_qualify_compare_parse(const char *text, size_t len, char *err, size_t errlen)
{
	json_tokener *tok = json_tokener_new_ex(64);
	json_object *o, *v;
	size_t n;

	if (!tok) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (len > (size_t)INT32_MAX) {
		json_tokener_free(tok);
		snprintf(err, errlen, "too large");
		return NULL;
	}
	o = json_tokener_parse_ex(tok, text, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) < len) {
		enum json_tokener_error e = json_tokener_get_error(tok);

		/* trailing whitespace after the object is fine */
		size_t end = json_tokener_get_parse_end(tok);

		while (o && e == json_tokener_success && end < len &&
		       (text[end] == ' ' || text[end] == '\n' || text[end] == '\t' ||
			text[end] == '\r'))
			end++;
		if (!o || e != json_tokener_success || end < len) {
			snprintf(err, errlen, "not JSON: %s",
				 e != json_tokener_success ? json_tokener_error_desc(e)
							   : "text after the object");
			json_object_put(o);
			json_tokener_free(tok);
			return NULL;
		}
	}
	json_tokener_free(tok);
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "schema", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), WW_QUALIFY_SCHEMA)) {
		snprintf(err, errlen, "not a wearwatch qualify report (\"schema\": \"%s\")",
			 WW_QUALIFY_SCHEMA);
		json_object_put(o);
		return NULL;
	}
	if (!json_object_object_get_ex(o, "points", &v) ||
	    !json_object_is_type(v, json_type_array)) {
		snprintf(err, errlen, "no \"points\" array");
		json_object_put(o);
		return NULL;
	}
	n = json_object_array_length(v);
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(v, i), *t, *d;

		if (!json_object_is_type(p, json_type_object) ||
		    !json_object_object_get_ex(p, "threads", &t) ||
		    !json_object_object_get_ex(p, "depth", &d) ||
		    !json_object_is_type(t, json_type_int) ||
		    !json_object_is_type(d, json_type_int)) {
			snprintf(err, errlen, "points[%zu]: no whole \"threads\" and \"depth\"", i);
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

/* a number of an old report's point, NaN when missing or not a number */
static double num(const json_object *p, const char *kind, const char *key)
{
	json_object *k, *v;

	if (!json_object_object_get_ex(p, kind, &k) || !json_object_is_type(k, json_type_object) ||
	    !json_object_object_get_ex(k, key, &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

/* the old report's point of that load (parse checked threads and depth) */
static json_object *old_point(const json_object *old, unsigned threads, unsigned depth)
{
	json_object *pts;

	if (!json_object_object_get_ex(old, "points", &pts))
		return NULL;
	for (size_t k = 0; k < json_object_array_length(pts); k++) {
		json_object *q = json_object_array_get_idx(pts, k), *t, *d;

		if (json_object_object_get_ex(q, "threads", &t) &&
		    json_object_object_get_ex(q, "depth", &d) &&
		    json_object_get_int64(t) == threads && json_object_get_int64(d) == depth)
			return q;
	}
	return NULL;
}

bool ww_qualify_compare_matched(const json_object *old, const ww_qualify_point_t *p)
{
	return old && old_point(old, p->threads, p->depth) != NULL;
}

size_t ww_qualify_compare_rows(const json_object *old, const ww_qualify_report_t *now,
			       ww_qualify_cmp_row_t *rows, size_t max)
{
	size_t n = 0;

	for (unsigned i = 0; old && i < now->n_points; i++) {
		const ww_qualify_point_t *p = &now->points[i];
		json_object *match = old_point(old, p->threads, p->depth);

		for (int w = 0; match && w < 2; w++) {
			const char *kind = w ? "write" : "read";
			ww_qualify_stats_t s;
			ww_qualify_cmp_row_t r = { .threads = p->threads,
						   .depth = p->depth,
						   .write = w };

			ww_qualify_acc_stats(w ? &p->wr : &p->rd, p->elapsed_s, &s);
			if (!s.ios && !(num(match, kind, "ios") > 0))
				continue; /* neither run did this kind */
			r.now[WW_QCMP_IOPS] = s.iops;
			r.now[WW_QCMP_MEAN] = s.mean_s;
			r.now[WW_QCMP_P99] = s.p99_s;
			r.now[WW_QCMP_MAX] = s.max_s;
			for (unsigned f = 0; f < WW_QCMP_N; f++)
				r.old[f] = num(match, kind, figs[f].key);
			if (n < max)
				rows[n] = r;
			n++;
		}
	}
	return n;
}

double ww_qualify_compare_change(const ww_qualify_cmp_row_t *r, unsigned fig)
{
	double o = r->old[fig];

	return isfinite(o) && o > 0 ? (r->now[fig] - o) / o * 100 : NAN;
}

/* the rows of the run against old, malloc'd (*n of them); NULL when none
 * or no memory */
static ww_qualify_cmp_row_t *all_rows(const json_object *old, const ww_qualify_report_t *now,
				      size_t *n)
{
	ww_qualify_cmp_row_t *rows;

	*n = ww_qualify_compare_rows(old, now, NULL, 0);
	rows = *n ? calloc(*n, sizeof(*rows)) : NULL;
	if (!rows)
		*n = 0;
	else
		ww_qualify_compare_rows(old, now, rows, *n);
	return rows;
}

static void cmp_cell(FILE *f, const ww_qualify_cmp_row_t *r, unsigned fig)
{
	char a[32], b[32];
	double c = ww_qualify_compare_change(r, fig);

	if (isnan(r->old[fig]))
		snprintf(a, sizeof(a), "-");
	else
		snprintf(a, sizeof(a), "%.*f", figs[fig].decimals, r->old[fig] * figs[fig].scale);
	snprintf(b, sizeof(b), "%.*f", figs[fig].decimals, r->now[fig] * figs[fig].scale);
	if (!isnan(c))
		fprintf(f, " %10s %10s %+6.1f%%", a, b, c);
	else
		fprintf(f, " %10s %10s %7s", a, b, "");
}

unsigned ww_qualify_compare_print(FILE *f, const json_object *old, const ww_qualify_report_t *now)
{
	size_t n;
	ww_qualify_cmp_row_t *rows = all_rows(old, now, &n);

	fprintf(f, "%-8s %-5s", "load", "kind");
	for (unsigned k = 0; k < WW_QCMP_N; k++)
		fprintf(f, " %29s", figs[k].label);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		char load[24];

		snprintf(load, sizeof(load), "%uT%uQ", rows[i].threads, rows[i].depth);
		fprintf(f, "%-8s %-5s", load, rows[i].write ? "write" : "read");
		for (unsigned k = 0; k < WW_QCMP_N; k++)
			cmp_cell(f, &rows[i], k);
		fputc('\n', f);
	}
	free(rows);
	return (unsigned)n;
}

/* a string of the old report at o.k1[.k2], NULL when missing or no string */
static const char *old_str(const json_object *o, const char *k1, const char *k2)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k1, &v))
		return NULL;
	if (k2 &&
	    (!json_object_is_type(v, json_type_object) || !json_object_object_get_ex(v, k2, &v)))
		return NULL;
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static json_object *str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *dbl_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *figs_json(const double *v)
{
	json_object *o = json_object_new_object();

	for (unsigned k = 0; k < WW_QCMP_N; k++)
		json_object_object_add(o, figs[k].key, dbl_or_null(v[k]));
	return o;
}

struct json_object *ww_qualify_compare_json(const ww_qualify_report_t *r)
{
	/* not formatted: the old report's fields the block repeats, by path */
	/* clang-format off */
	static const struct { const char *out, *k1, *k2; } meta[] = {
		{ "started", "started", NULL },       { "finished", "finished", NULL },
		{ "profile", "profile", "name" },     { "device_id", "device", "id" },
		{ "serial", "device", "serial" },     { "model", "device", "model" },
		{ "firmware", "device", "firmware" }, { "version", "tool", "version" },
	};
	/* clang-format on */
	json_object *o, *x, *a, *u;
	ww_qualify_cmp_row_t *rows;
	size_t n;

	if (!r->compare)
		return NULL;
	o = json_object_new_object();
	x = json_object_new_object();
	json_object_object_add(x, "path", str_or_null(r->compare_path));
	for (size_t i = 0; i < sizeof(meta) / sizeof(meta[0]); i++)
		json_object_object_add(x, meta[i].out,
				       str_or_null(old_str(r->compare, meta[i].k1, meta[i].k2)));
	json_object_object_add(o, "old", x);

	rows = all_rows(r->compare, r, &n);
	a = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *row = json_object_new_object();
		char load[24];
		double ch[WW_QCMP_N];

		snprintf(load, sizeof(load), "%uT%uQ", rows[i].threads, rows[i].depth);
		json_object_object_add(row, "load", json_object_new_string(load));
		json_object_object_add(row, "threads", json_object_new_int64(rows[i].threads));
		json_object_object_add(row, "depth", json_object_new_int64(rows[i].depth));
		json_object_object_add(row, "kind",
				       json_object_new_string(rows[i].write ? "write" : "read"));
		json_object_object_add(row, "old", figs_json(rows[i].old));
		json_object_object_add(row, "new", figs_json(rows[i].now));
		for (unsigned k = 0; k < WW_QCMP_N; k++)
			ch[k] = ww_qualify_compare_change(&rows[i], k);
		json_object_object_add(row, "change_percent", figs_json(ch));
		json_object_array_add(a, row);
	}
	free(rows);
	json_object_object_add(o, "rows", a);

	u = json_object_new_array();
	for (unsigned i = 0; i < r->n_points; i++)
		if (!ww_qualify_compare_matched(r->compare, &r->points[i])) {
			char load[24];

			snprintf(load, sizeof(load), "%uT%uQ", r->points[i].threads,
				 r->points[i].depth);
			json_object_array_add(u, json_object_new_string(load));
		}
	json_object_object_add(o, "unmatched", u);
	return o;
}
