/* Ratings table and per-drive overrides (contract in model.h). The table is
 * data (data/drive-ratings.tsv); this file only parses and matches it with
 * POSIX regex, like libatasmart's quirk table keyed by model regex. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
		if (t->rows[i].compiled)
			regfree(&t->rows[i].re);
	free(t->rows);
	t->rows = NULL;
	t->n = 0;
}

static int append(ww_ratings_t *t, ww_rating_row_t *row)
{
	ww_rating_row_t *nr = realloc(t->rows, (t->n + 1) * sizeof(*nr));

	if (!nr) {
		regfree(&row->re);
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
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || *s == '-')
		return -EINVAL;
	*out = v;
	return 0;
}

static int num_dbl(const char *s, double *out)
{
	char *end;

	*out = 0;
	if (!*s)
		return 0;
	errno = 0;
	*out = strtod(s, &end);
	if (errno || *end || !isfinite(*out) || *out < 0)
		return -EINVAL;
	return 0;
}

static int parse_row(char *line, ww_rating_row_t *row)
{
	char *col[7] = { 0 };
	size_t n = 0;
	char *p = line, *tab;
	uint64_t years;

	memset(row, 0, sizeof(*row));
	snprintf(row->line, sizeof(row->line), "%s", line);
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
	if (num_u64(col[2], &row->capacity_bytes) || num_dbl(col[3], &row->dwpd) ||
	    num_u64(col[4], &row->rated_bytes) || num_u64(col[5], &years) || years > 100)
		return -EINVAL;
	row->warranty_years = (unsigned)years;
	if (!row->dwpd && !row->rated_bytes)
		return -EINVAL;
	snprintf(row->source, sizeof(row->source), "%s", n == 7 ? col[6] : "");
	if (regcomp(&row->re, row->pattern, REG_EXTENDED | REG_NOSUB))
		return -EINVAL;
	row->compiled = true;
	return 0;
}

int ww_ratings_parse(ww_ratings_t *t, const char *text, const char *origin,
		     unsigned *bad_line)
{
	const char *p = text;
	unsigned lineno = 0;
	int added = 0, rc;

	(void)origin;
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[512];
		ww_rating_row_t row;

		lineno++;
		if (len >= sizeof(line)) {
			if (bad_line)
				*bad_line = lineno;
			return -EINVAL;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		p = nl ? nl + 1 : NULL;
		if (!line[0] || line[0] == '#')
			continue;
		if (parse_row(line, &row) < 0) {
			if (row.compiled)
				regfree(&row.re);
			if (bad_line)
				*bad_line = lineno;
			return -EINVAL;
		}
		rc = append(t, &row);
		if (rc < 0)
			return rc;
		added++;
	}
	return added;
}

int ww_ratings_load_file(ww_ratings_t *t, const char *path, unsigned *bad_line)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc;

	if (!f)
		return -errno;
	n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(buf);
		return 0; /* empty file */
	}
	rc = ww_ratings_parse(t, buf, path, bad_line);
	free(buf);
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
		if (r->compiled && regexec(&r->re, model, 0, NULL, 0) == 0)
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

		if (r->compiled && model && *model && regexec(&r->re, model, 0, NULL, 0) == 0)
			return r;
	}
	return NULL;
}

/* "2021-03-01" -> midnight UTC. */
static int parse_date(const char *s, time_t *out)
{
	struct tm tm = { 0 };
	char *end = strptime(s, "%Y-%m-%d", &tm);

	if (!end || *end)
		return -EINVAL;
	*out = timegm(&tm);
	return *out > 0 ? 0 : -EINVAL;
}

/* "21.9PB" / "5475TB" / "5475000000000000B" -> bytes. */
static int parse_bytes(const char *s, uint64_t *out)
{
	static const struct { const char *suf; double mul; } u[] = {
		{ "PB", 1e15 }, { "TB", 1e12 }, { "GB", 1e9 }, { "B", 1 },
	};
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v <= 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (!strcmp(end, u[i].suf)) {
			double b = v * u[i].mul;

			if (b >= 1.8e19)
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
		if (parse_date(at, &row.warranty_start)) {
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
		if (num_dbl(f[0], &row.dwpd) || row.dwpd <= 0 ||
		    (nf >= 3 && (num_u64(f[2], &row.capacity_bytes) || !row.capacity_bytes)) || nf > 3) {
			snprintf(err, errlen, "bad DWPD:YEARS[:CAPACITY_BYTES] '%s'", eq + 1);
			return -EINVAL;
		}
	}
	/* a pattern that is not a valid regex still matches ids and serials */
	row.compiled = regcomp(&row.re, row.pattern, REG_EXTENDED | REG_NOSUB) == 0;
	return append(t, &row);
}
