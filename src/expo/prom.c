/* Prometheus text exposition writer (see prom.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expo/prom.h"

/* room for n more bytes and the NUL; false (oom set) when it cannot grow */
static bool room(ww_prom_t *w, size_t n)
{
	size_t cap;
	char *b;

	if (w->oom)
		return false;
	if (w->len + n + 1 <= w->cap)
		return true;
	cap = w->cap ? w->cap : 4096;
	while (cap < w->len + n + 1)
		cap *= 2;
	b = realloc(w->buf, cap);
	if (!b) {
		w->oom = true;
		return false;
	}
	w->buf = b;
	w->cap = cap;
	return true;
}

void ww_prom_put(ww_prom_t *w, const char *s, size_t n)
{
	if (!room(w, n))
		return;
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len] = 0;
}

static void put_s(ww_prom_t *w, const char *s)
{
	ww_prom_put(w, s, strlen(s));
}

int ww_prom_init(ww_prom_t *w, size_t hint)
{
	memset(w, 0, sizeof(*w));
	if (!room(w, hint))
		return -ENOMEM;
	w->buf[0] = 0;
	return 0;
}

char *ww_prom_finish(ww_prom_t *w, size_t *len)
{
	char *b = w->oom ? NULL : w->buf;

	if (!b)
		free(w->buf);
	else if (len)
		*len = w->len;
	memset(w, 0, sizeof(*w));
	return b;
}

/* the characters a label value escapes (backslash, double quote, line
 * feed) and what each becomes */
static const char to_escape[] = "\\\"\n";

static const char *escape_of(char c)
{
	switch (c) {
	case '\\': return "\\\\";
	case '"': return "\\\"";
	case '\n': return "\\n";
	default: return NULL;
	}
}

void ww_prom_escape(ww_prom_t *w, const char *s)
{
	if (!s)
		return;
	for (;;) {
		size_t run = strcspn(s, to_escape);

		ww_prom_put(w, s, run);
		s += run;
		if (!*s)
			return;
		ww_prom_put(w, escape_of(*s), 2);
		s++;
	}
}

void ww_prom_family(ww_prom_t *w, const char *name, const char *type, const char *help,
		    const char *const *labels)
{
	w->name = name;
	w->type = type;
	w->help = help;
	w->labels = labels;
	w->hdr = false;
}

void ww_prom_drive(ww_prom_t *w, const char *id)
{
	w->drive = id;
	w->drive_len = id ? strlen(id) : 0;
	/* ids rarely hold a character to escape: look once per drive, not per sample */
	w->drive_plain = !id || strcspn(id, to_escape) == w->drive_len;
}

/* decimal digits of v, right-aligned in tmp[40]; returns the first */
static char *digits(unsigned __int128 v, char *end)
{
	uint64_t lo;

	/* 128-bit division only for the part above 10^19 */
	while (v > UINT64_MAX) {
		lo = (uint64_t)(v % 10000000000000000000ull);
		v /= 10000000000000000000ull;
		for (int i = 0; i < 19; i++, lo /= 10)
			*--end = (char)('0' + lo % 10);
	}
	lo = (uint64_t)v;
	do {
		*--end = (char)('0' + lo % 10);
		lo /= 10;
	} while (lo);
	return end;
}

static void put_uint(ww_prom_t *w, unsigned __int128 v)
{
	char tmp[48], *end = tmp + sizeof(tmp), *p = digits(v, end);

	ww_prom_put(w, p, (size_t)(end - p));
}

static void put_percent(ww_prom_t *w, uint64_t percent)
{
	uint64_t fp = percent % 100;
	char f[3] = { (char)('0' + fp / 10), (char)('0' + fp % 10), 0 };

	put_uint(w, percent / 100);
	if (!fp)
		return;
	ww_prom_put(w, ".", 1);
	ww_prom_put(w, f, fp % 10 ? 2 : 1);
}

static int fmt_double(char *b, size_t len, double v, ww_dbl_fmt_t f)
{
	switch (f) {
	case WW_DBL_G9: return snprintf(b, len, "%.9g", v);
	case WW_DBL_F6: return snprintf(b, len, "%.6f", v);
	case WW_DBL_G15: return snprintf(b, len, "%.15g", v);
	default: return snprintf(b, len, "%.17g", v);
	}
}

static void put_double(ww_prom_t *w, double v, ww_dbl_fmt_t f)
{
	int n;

	if (!room(w, 32))
		return;
	n = fmt_double(w->buf + w->len, w->cap - w->len, v, f);
	/* only "%.6f" of a huge value needs more than 32 bytes */
	if (n > 0 && (size_t)n >= w->cap - w->len && room(w, (size_t)n))
		n = fmt_double(w->buf + w->len, w->cap - w->len, v, f);
	if (n > 0 && (size_t)n < w->cap - w->len)
		w->len += (size_t)n;
}

static void put_value(ww_prom_t *w, ww_pval_t v)
{
	switch (v.kind) {
	case WW_PV_U64:
		put_uint(w, v.u);
		break;
	case WW_PV_I64:
		if (v.i < 0)
			ww_prom_put(w, "-", 1);
		put_uint(w, v.i < 0 ? -(unsigned __int128)v.i : (unsigned __int128)v.i);
		break;
	case WW_PV_U128:
		put_uint(w, v.x);
		break;
	case WW_PV_PERCENT:
		put_percent(w, v.u);
		break;
	case WW_PV_DOUBLE:
		put_double(w, v.d, v.fmt);
		break;
	}
}

static void header(ww_prom_t *w)
{
	put_s(w, "# HELP ");
	put_s(w, w->name);
	ww_prom_put(w, " ", 1);
	put_s(w, w->help);
	put_s(w, "\n# TYPE ");
	put_s(w, w->name);
	ww_prom_put(w, " ", 1);
	put_s(w, w->type);
	ww_prom_put(w, "\n", 1);
	w->hdr = true;
}

void ww_prom_sample(ww_prom_t *w, const char *suffix, const char *const *lv, ww_pval_t v)
{
	bool any = w->drive != NULL;

	if (!w->hdr)
		header(w);
	put_s(w, w->name);
	if (suffix)
		put_s(w, suffix);
	if (w->drive) {
		ww_prom_put(w, "{drive=\"", 8);
		if (w->drive_plain)
			ww_prom_put(w, w->drive, w->drive_len);
		else
			ww_prom_escape(w, w->drive);
		ww_prom_put(w, "\"", 1);
	}
	for (size_t i = 0; lv && w->labels && w->labels[i]; i++) {
		ww_prom_put(w, any ? ",": "{", 1);
		put_s(w, w->labels[i]);
		ww_prom_put(w, "=\"", 2);
		ww_prom_escape(w, lv[i]);
		ww_prom_put(w, "\"", 1);
		any = true;
	}
	ww_prom_put(w, any ? "} " : " ", any ? 2 : 1);
	put_value(w, v);
	ww_prom_put(w, "\n", 1);
}
