/* Ratings table and per-drive overrides (contract in model.h). The table is
 * data (data/drive-ratings.tsv); this file only parses it and matches model
 * patterns (bounded PCRE2, record.h), like libatasmart's quirk table keyed by
 * model regex. Numbers are plain decimals in their range: strtod() alone took
 * 1e308, 0x1p-1000 and "inf"-like spellings. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "wearwatch/basic.h"
#include "wearwatch/model.h"

const char *ww_rating_source_name(ww_rating_source_t s)
{
	static const char *const n[WW_RATING_MAX] = {
		"none", "config", "nvme_endurance_group", "ocp_c0", "table",
	};
	return s < WW_RATING_MAX ? n[s] : "none";
}

void ww_ratings_free(ww_ratings_t *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		ww_pattern_free(t->rows[i].re);
	free(t->rows);
	t->rows = NULL;
	t->n = 0;
}

static int append(ww_ratings_t *t, ww_rating_row_t *row)
{
	ww_rating_row_t *nr = realloc(t->rows, (t->n + 1) * sizeof(*nr));

	if (!nr) {
		ww_pattern_free(row->re);
		row->re = NULL;
		return -ENOMEM;
	}
	t->rows = nr;
	t->rows[t->n++] = *row;
	return 0;
}

/* Empty -> 0; otherwise a non-negative decimal number. */
static int num_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	*out = 0;
	if (!*s)
		return 0;
	if (strspn(s, "0123456789") != strlen(s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* A plain decimal ("10", "0.3", empty -> 0) within [min, max]: no sign,
 * exponent, hex or inf/nan spelling. */
static int num_dbl(const char *s, double min, double max, double *out)
{
	char *end;
	size_t digits = strspn(s, "0123456789");

	*out = 0;
	if (!*s)
		return 0;
	if (!digits || (s[digits] && (s[digits] != '.' ||
				      strspn(s + digits + 1, "0123456789") != strlen(s + digits + 1) ||
				      !s[digits + 1])))
		return -EINVAL;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || *out < min || *out > max)
		return -EINVAL;
	return 0;
}

/* One table row; -EINVAL (err says why when a pattern is bad), -E2BIG
 * (pattern over the limits), -ENOMEM */
static int parse_row(char *line, ww_rating_row_t *row, char *err, size_t errlen)
{
	char *col[7] = { 0 };
	size_t n = 0;
	char *p = line, *tab;
	uint64_t years;

	memset(row, 0, sizeof(*row));
	snprintf(row->line, sizeof(row->line), "%.*s", (int)sizeof(row->line) - 1, line);
	while (n < 7) {
		col[n++] = p;
		tab = strchr(p, '\t');
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	if (n < 6 || !*col[0] || strlen(col[0]) >= sizeof(row->pattern))
		return -EINVAL;
	snprintf(row->pattern, sizeof(row->pattern), "%s", col[0]);
	snprintf(row->interface, sizeof(row->interface), "%s", col[1]);
	if (num_u64(col[2], &row->capacity_bytes) ||
	    num_dbl(col[3], WW_RATING_MIN_DWPD, WW_RATING_MAX_DWPD, &row->dwpd) ||
	    num_u64(col[4], &row->rated_bytes) || num_u64(col[5], &years) || years > 100)
		return -EINVAL;
	row->warranty_years = (unsigned)years;
	if (!row->dwpd && !row->rated_bytes)
		return -EINVAL;
	snprintf(row->source, sizeof(row->source), "%s", n == 7 ? col[6] : "");
	return ww_pattern_compile(row->pattern, 0, &row->re, err, errlen);
}

/* rows of text[0..len) appended to t: how many, or -errno with *bad_line and
 * "what" in err */
static int parse_text(ww_ratings_t *t, const char *text, size_t len, unsigned *bad_line,
		      char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	unsigned lineno = 0;
	int added = 0, rc;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[512];
		ww_rating_row_t row;

		lineno++;
		*bad_line = lineno;
		if (memchr(p, '\0', n)) {
			/* the rest of the file would be ignored silently */
			snprintf(err, errlen, "NUL byte in the line");
			return -EINVAL;
		}
		if (n >= sizeof(line)) {
			snprintf(err, errlen, "line longer than %zu bytes", sizeof(line) - 1);
			return -EINVAL;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		if (n && line[n - 1] == '\r')
			line[n - 1] = '\0';
		p = nl ? nl + 1 : end;
		if (!line[0] || line[0] == '#')
			continue;
		snprintf(err, errlen, "expected the columns of data/drive-ratings.tsv (model regex, "
			 "interface, capacity bytes, DWPD %g-%g, rated bytes, warranty years "
			 "1-100, source)", WW_RATING_MIN_DWPD, WW_RATING_MAX_DWPD);
		rc = parse_row(line, &row, err, errlen);
		if (rc < 0) {
			ww_pattern_free(row.re);
			return rc;
		}
		rc = append(t, &row);
		if (rc < 0)
			return rc;
		added++;
	}
	*bad_line = 0;
	return added;
}

int ww_ratings_parse(ww_ratings_t *t, const char *text, const char *origin,
		     unsigned *bad_line)
{
	unsigned line = 0;
	char err[8];
	int rc;

	(void)origin;
	rc = parse_text(t, text, strlen(text), &line, err, sizeof(err));
	if (rc < 0 && bad_line)
		*bad_line = line;
	return rc;
}

int ww_ratings_load_file(ww_ratings_t *t, const char *path, char *err, size_t errlen)
{
	FILE *f = ww_fopen_regular(path);
	char *buf = NULL, what[256] = "";
	size_t len = 0;
	unsigned line = 0;
	struct stat sb;
	int rc;

	if (!f || fstat(fileno(f), &sb) || !S_ISREG(sb.st_mode)) {
		rc = !f ? -errno : S_ISDIR(sb.st_mode) ? -EISDIR : -EINVAL;
		snprintf(err, errlen, "%s: %s", path, rc == -EINVAL ? "not a regular file" :
			 strerror(-rc));
		if (f)
			fclose(f);
		return rc;
	}
	if (sb.st_size > WW_RATINGS_MAX_FILE) {
		fclose(f);
		snprintf(err, errlen, "%s: larger than %d bytes", path, WW_RATINGS_MAX_FILE);
		return -EFBIG;
	}
	buf = malloc((size_t)sb.st_size + 1);
	if (buf)
		len = fread(buf, 1, (size_t)sb.st_size, f);
	fclose(f);
	if (!buf)
		return -ENOMEM;
	buf[len] = '\0';
	rc = parse_text(t, buf, len, &line, what, sizeof(what));
	free(buf);
	if (rc < 0)
		snprintf(err, errlen, "%s:%u: %s", path, line, what);
	return rc;
}

const ww_rating_row_t *ww_ratings_match(const ww_ratings_t *t, const char *model,
					const char *iface)
{
	if (!t || !model || !*model)
		return NULL;
	for (size_t i = 0; i < t->n; i++) {
		const ww_rating_row_t *r = &t->rows[i];

		if (r->interface[0] && iface && *iface && strcasecmp(r->interface, iface))
			continue;
		if (ww_pattern_match(r->re, model) == 1)
			return r;
	}
	return NULL;
}

const ww_rating_row_t *ww_ratings_match_override(const ww_ratings_t *t, const char *id,
						 const char *serial, const char *model)
{
	if (!t)
		return NULL;
	for (size_t i = 0; i < t->n; i++) {
		const ww_rating_row_t *r = &t->rows[i];

		if ((id && !strcmp(r->pattern, id)) || (serial && *serial && !strcmp(r->pattern, serial)))
			return r;
	}
	for (size_t i = 0; i < t->n; i++) {
		const ww_rating_row_t *r = &t->rows[i];

		if (model && *model && ww_pattern_match(r->re, model) == 1)
			return r;
	}
	return NULL;
}

int ww_date_parse(const char *s, time_t *out)
{
	static const unsigned mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	struct tm tm = { 0 };
	unsigned y, m, d;
	int n = 0;

	/* strptime() alone took 2021-02-30 and timegm() made it 2021-03-02 */
	if (!s || strlen(s) != 10 || strspn(s, "0123456789-") != 10 || s[4] != '-' ||
	    s[7] != '-' || sscanf(s, "%4u-%2u-%2u%n", &y, &m, &d, &n) != 3 || n != 10)
		return -EINVAL;
	if (y < WW_DATE_MIN_YEAR || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] ||
	    (m == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400))))
		return -EINVAL;
	tm.tm_year = (int)y - 1900;
	tm.tm_mon = (int)m - 1;
	tm.tm_mday = (int)d;
	*out = timegm(&tm);
	return 0;
}

/* "21.9PB" / "5475TB" / "5475000000000000B" -> bytes: a plain decimal and
 * a unit, at least one byte, below 2^64 (tiny ratings are for tests that
 * replay a drive with little written) */
static int parse_bytes(const char *s, uint64_t *out)
{
	static const struct { const char *suf; double mul; } u[] = {
		{ "PB", 1e15 }, { "TB", 1e12 }, { "GB", 1e9 }, { "B", 1 },
	};
	size_t n = strspn(s, "0123456789.");
	char num[64];
	double v;

	if (!n || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	if (num_dbl(num, 0, 1.8e19, &v))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (!strcmp(s + n, u[i].suf)) {
			double b = v * u[i].mul;

			if (b < 1 || b >= 1.8e19)
				return -EINVAL;
			*out = (uint64_t)llround(b);
			return 0;
		}
	}
	return -EINVAL;
}

int ww_rating_override_parse(ww_ratings_t *t, const char *spec, char *err, size_t errlen)
{
	ww_rating_row_t row;
	const char *eq = spec ? strrchr(spec, '=') : NULL;
	char val[128], *at, *f[4] = { 0 };
	size_t nf = 0;
	uint64_t v;

	memset(&row, 0, sizeof(row));
	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(row.pattern) ||
	    strlen(eq + 1) >= sizeof(val)) {
		snprintf(err, errlen, "expected PATTERN=DWPD:YEARS[:CAPACITY] or PATTERN=BYTES{B,TB,PB}:YEARS");
		return -EINVAL;
	}
	memcpy(row.pattern, spec, (size_t)(eq - spec));
	snprintf(val, sizeof(val), "%s", eq + 1);
	snprintf(row.line, sizeof(row.line), "--rating %s", spec);
	snprintf(row.source, sizeof(row.source), "configured");
	at = strchr(val, '@');
	if (at) {
		*at++ = '\0';
		if (ww_date_parse(at, &row.warranty_start)) {
			snprintf(err, errlen, "bad warranty start '%s' (YYYY-MM-DD)", at);
			return -EINVAL;
		}
	}
	for (char *p = val, *c; nf < 4; p = c + 1) {
		f[nf++] = p;
		c = strchr(p, ':');
		if (!c)
			break;
		*c = '\0';
	}
	if (nf < 2 || num_u64(f[1], &v) || v == 0 || v > 100) {
		snprintf(err, errlen, "need :YEARS (1-100) after the rating");
		return -EINVAL;
	}
	row.warranty_years = (unsigned)v;
	if (strpbrk(f[0], "B")) {
		if (nf != 2 || parse_bytes(f[0], &row.rated_bytes)) {
			snprintf(err, errlen, "bad rated bytes '%s' (e.g. 21.9PB, 5475TB)", f[0]);
			return -EINVAL;
		}
	} else {
		if (num_dbl(f[0], WW_RATING_MIN_DWPD, WW_RATING_MAX_DWPD, &row.dwpd) || !*f[0] ||
		    (nf >= 3 && (num_u64(f[2], &row.capacity_bytes) || !row.capacity_bytes)) || nf > 3) {
			snprintf(err, errlen, "bad DWPD:YEARS[:CAPACITY_BYTES] '%s' (DWPD a decimal "
				 "%g-%g)", eq + 1, WW_RATING_MIN_DWPD, WW_RATING_MAX_DWPD);
			return -EINVAL;
		}
	}
	/* a pattern that is not a valid regex still matches ids and serials;
	 * one over the limits is refused */
	if (ww_pattern_compile(row.pattern, 0, &row.re, err, errlen) == -E2BIG)
		return -E2BIG;
	return append(t, &row);
}
