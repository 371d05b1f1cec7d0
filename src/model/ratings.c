/* Ratings table and per-drive overrides (contract in model.h). The table is
 * data (data/ratings/NAME.tsv); this file only parses it, lints it and matches model
 * patterns (bounded PCRE2, record.h), like libatasmart's quirk table keyed by
 * model regex. Numbers are plain decimals in their range: strtod() alone took
 * 1e308, 0x1p-1000 and "inf"-like spellings. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <strings.h>
#include <sys/stat.h>

#include "wearwatch/basic.h"
#include "wearwatch/model.h"

const char *ww_rating_source_name(ww_rating_source_t s)
{
	static const char *const n[WW_RATING_MAX] = {
		"none",         "config",    "nvme_endurance_group",    "ocp_c0", "table",
		"ratings_file", "ratings_d", "derived_percentage_used",
	};
	return s < WW_RATING_MAX ? n[s] : "none";
}

bool ww_rating_source_stated(ww_rating_source_t s)
{
	return s != WW_RATING_NONE && s != WW_RATING_DERIVED && s < WW_RATING_MAX;
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

static const char *const bases[] = { "jesd219", "random4k", "sequential", "not_stated" };

static bool known_basis(const char *b)
{
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
		if (!strcmp(b, bases[i]))
			return true;
	return false;
}

/* One table row; -EINVAL (err says why when a pattern is bad), -E2BIG
 * (pattern over the limits), -ENOMEM */
static int parse_row(char *line, ww_rating_row_t *row, char *err, size_t errlen)
{
	char *col[8] = { 0 };
	size_t n = 0;
	char *p = line, *tab;
	uint64_t years;

	memset(row, 0, sizeof(*row));
	snprintf(row->line, sizeof(row->line), "%.*s", (int)sizeof(row->line) - 1, line);
	while (n < 8) {
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
	snprintf(row->source, sizeof(row->source), "%s", n >= 7 ? col[6] : "");
	/* the basis column came later: a seven-column file stays valid */
	if (n == 8 && (strlen(col[7]) >= sizeof(row->basis) || !known_basis(col[7]))) {
		snprintf(err, errlen,
			 "unknown basis '%s' (jesd219, random4k, sequential, "
			 "not_stated)",
			 col[7]);
		return -EINVAL;
	}
	snprintf(row->basis, sizeof(row->basis), "%s", n == 8 ? col[7] : "");
	return ww_pattern_compile(row->pattern, 0, &row->re, err, errlen);
}

/* One line of text[0..len) at *p into line (NUL-terminated, CR dropped),
 * *p moved past it; -EINVAL with err when it cannot be a row */
static int next_line(const char **p, const char *end, char *line, size_t size, char *err,
		     size_t errlen)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	size_t n = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
	const char *s = *p;

	*p = nl ? nl + 1 : end;
	if (memchr(s, '\0', n)) {
		/* the rest of the file would be ignored silently */
		snprintf(err, errlen, "NUL byte in the line");
		return -EINVAL;
	}
	if (n >= size) {
		snprintf(err, errlen, "line longer than %zu bytes", size - 1);
		return -EINVAL;
	}
	memcpy(line, s, n);
	line[n] = '\0';
	if (n && line[n - 1] == '\r')
		line[n - 1] = '\0';
	return 0;
}

/* "#@ NAME": the lines after it are NAME's, counted from 1. Only in the
 * shipped table, which the build joins from data/ratings/NAME.tsv: in a
 * user's file it is a comment, or a row could pose as a shipped one and an
 * error name another file's line. */
static bool origin_marker(const char *text, const char *line, char *origin, size_t size,
			  unsigned *lineno)
{
	if (text != ww_builtin_ratings_tsv || strncmp(line, "#@ ", 3))
		return false;
	snprintf(origin, size, "%.*s", (int)size - 1, line + 3);
	*lineno = 0;
	return true;
}

/* rows of text[0..len) appended to t: how many, or -errno with *bad_line and
 * "what" in err (and the origin of that line in origin) */
static int parse_text(ww_ratings_t *t, const char *text, size_t len, char *origin, size_t osize,
		      unsigned *bad_line, char *err, size_t errlen)
{
	const char *p = text, *end = text + len;
	unsigned lineno = 0;
	int added = 0, rc;

	while (p < end) {
		char line[WW_RATINGS_MAX_LINE + 1];
		ww_rating_row_t row;

		lineno++;
		*bad_line = lineno;
		rc = next_line(&p, end, line, sizeof(line), err, errlen);
		if (rc < 0)
			return rc;
		if (origin_marker(text, line, origin, osize, &lineno) || !line[0] || line[0] == '#')
			continue;
		snprintf(err, errlen,
			 "expected the columns of data/ratings/README.md (model "
			 "regex, interface, capacity bytes, DWPD %g-%g, rated bytes, warranty "
			 "years 0-100, source, basis)",
			 WW_RATING_MIN_DWPD, WW_RATING_MAX_DWPD);
		rc = parse_row(line, &row, err, errlen);
		if (rc < 0) {
			ww_pattern_free(row.re);
			return rc;
		}
		snprintf(row.origin, sizeof(row.origin), "%s", origin);
		row.lineno = lineno;
		row.kind = WW_RATING_TABLE;
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
	char err[8], name[96];
	int rc;

	snprintf(name, sizeof(name), "%s", origin ? origin : "");
	rc = parse_text(t, text, strlen(text), name, sizeof(name), &line, err, sizeof(err));
	if (rc < 0 && bad_line)
		*bad_line = line;
	return rc;
}

/* path's text, NUL-terminated, in *out (free it); -errno with "path: what" */
static int read_table(const char *path, char **out, size_t *len, char *err, size_t errlen)
{
	FILE *f = ww_fopen_regular(path);
	struct stat sb;
	int rc;

	*out = NULL;
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
	*out = malloc((size_t)sb.st_size + 1);
	*len = *out ? fread(*out, 1, (size_t)sb.st_size, f) : 0;
	fclose(f);
	if (!*out)
		return -ENOMEM;
	(*out)[*len] = '\0';
	return 0;
}

int ww_ratings_load_file(ww_ratings_t *t, const char *path, char *err, size_t errlen)
{
	char *buf, what[256] = "", origin[96];
	size_t len = 0;
	unsigned line = 0;
	int rc = read_table(path, &buf, &len, err, errlen);

	if (rc < 0)
		return rc;
	snprintf(origin, sizeof(origin), "%s", path);
	rc = parse_text(t, buf, len, origin, sizeof(origin), &line, what, sizeof(what));
	free(buf);
	if (rc < 0)
		snprintf(err, errlen, "%s:%u: %s", origin, line, what);
	return rc;
}

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int tsv_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 4 && !strcmp(d->d_name + n - 4, ".tsv");
}

int ww_ratings_load_dir(ww_ratings_t *t, const char *dir, char *err, size_t errlen)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, tsv_name, name_cmp), added = 0, rc = 0;

	if (n < 0) {
		if (errno == ENOENT)
			return 0;
		rc = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-rc));
		return rc;
	}
	if (n > WW_RATINGS_MAX_DIR_FILES) {
		snprintf(err, errlen, "%s: more than %d *.tsv files", dir,
			 WW_RATINGS_MAX_DIR_FILES);
		rc = -E2BIG;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];

		if (rc >= 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			rc = ww_ratings_load_file(t, path, err, errlen);
			added += rc > 0 ? rc : 0;
		}
		free(names[i]);
	}
	free(names);
	return rc < 0 ? rc : added;
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
	row.kind = WW_RATING_CONFIG;
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

/* ------------------------------------------------------------- lint --- */

struct lint {
	ww_ratings_lint_fn fn;
	void *arg;
	int problems;
	ww_ratings_t rows; /* every row that parsed, for the set checks */
};

__attribute__((format(printf, 4, 5))) static void say(struct lint *l, const char *origin,
						      unsigned line, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	l->problems++;
	if (l->fn)
		l->fn(l->arg, origin, line, what);
}

/* what a maintainer must give besides a parsable row */
static void lint_row(struct lint *l, const ww_rating_row_t *r)
{
	const char *i = r->interface;

	if (*i && strcmp(i, "sas") && strcmp(i, "sata") && strcmp(i, "nvme"))
		say(l, r->origin, r->lineno, "interface '%s' (sas, sata, nvme or empty)", i);
	if (!r->source[0])
		say(l, r->origin, r->lineno, "no source (document, revision or date, where)");
	if (!r->basis[0])
		say(l, r->origin, r->lineno,
		    "no basis (8th column: jesd219, random4k, "
		    "sequential, not_stated)");
	if (r->dwpd && !r->warranty_years)
		say(l, r->origin, r->lineno, "DWPD without warranty years means no rated bytes");
	if (r->dwpd && r->rated_bytes && r->capacity_bytes && r->warranty_years) {
		uint64_t calc = ww_model_rated_bytes(r->dwpd, r->capacity_bytes, r->warranty_years);
		double off = fabs((double)calc - (double)r->rated_bytes) / (double)r->rated_bytes;

		if (off > WW_RATINGS_LINT_TOLERANCE)
			say(l, r->origin, r->lineno,
			    "DWPD %g x %" PRIu64 " B x 365 x %u years = %" PRIu64
			    " B, but rated bytes are %" PRIu64 " (%.1f %% apart, over %g %%)",
			    r->dwpd, r->capacity_bytes, r->warranty_years, calc, r->rated_bytes,
			    off * 100, WW_RATINGS_LINT_TOLERANCE * 100);
	}
}

static void lint_text(struct lint *l, const char *text, const char *name)
{
	const char *p = text, *end = text + strlen(text);
	char origin[96], err[256];
	unsigned lineno = 0;

	snprintf(origin, sizeof(origin), "%s", name);
	while (p < end) {
		char line[WW_RATINGS_MAX_LINE + 1];
		ww_rating_row_t row;
		int rc;

		lineno++;
		if (next_line(&p, end, line, sizeof(line), err, sizeof(err)) < 0) {
			say(l, origin, lineno, "%s", err);
			continue;
		}
		if (origin_marker(text, line, origin, sizeof(origin), &lineno) || !line[0] ||
		    line[0] == '#')
			continue;
		snprintf(err, sizeof(err),
			 "not a row: model regex, interface, capacity bytes, "
			 "DWPD %g-%g, rated bytes, years 0-100 (plain decimals; DWPD or bytes)",
			 WW_RATING_MIN_DWPD, WW_RATING_MAX_DWPD);
		rc = parse_row(line, &row, err, sizeof(err));
		snprintf(row.origin, sizeof(row.origin), "%s", origin);
		row.lineno = lineno;
		if (rc < 0) {
			ww_pattern_free(row.re);
			say(l, origin, lineno, "%s", err);
			continue;
		}
		lint_row(l, &row);
		if (append(&l->rows, &row) < 0)
			l->problems = -ENOMEM;
	}
}

/* the model a pattern names, when it is literal text with [classes]:
 * "^PX02SS[FU]010" -> "PX02SSF010"; false for anything looser */
static bool spell(const char *re, char *out, size_t size)
{
	size_t n = 0;

	re += *re == '^';
	while (*re && n + 1 < size) {
		if (*re == '\\' && re[1]) {
			out[n++] = re[1];
			re += 2;
		} else if (*re == '[' && re[1] && re[1] != '^' && re[1] != ']') {
			const char *close = strchr(re + 2, ']');

			if (!close)
				return false;
			out[n++] = re[1];
			re = close + 1;
		} else if (*re == '$' && !re[1]) {
			break;
		} else if (strchr(".()|*+?{}[]$", *re)) {
			return false;
		} else {
			out[n++] = *re++;
		}
	}
	out[n] = '\0';
	return n > 0 && !*re;
}

static bool same_figures(const ww_rating_row_t *a, const ww_rating_row_t *b)
{
	return a->dwpd == b->dwpd && a->rated_bytes == b->rated_bytes &&
		a->warranty_years == b->warranty_years && a->capacity_bytes == b->capacity_bytes;
}

static bool ifaces_meet(const ww_rating_row_t *a, const ww_rating_row_t *b)
{
	return !a->interface[0] || !b->interface[0] || !strcasecmp(a->interface, b->interface);
}

/* duplicates and rows another row's pattern shadows (first match wins) */
static void lint_set(struct lint *l)
{
	const ww_rating_row_t *r = l->rows.rows;

	for (size_t j = 0; j < l->rows.n; j++) {
		char model[sizeof(r[j].pattern)];
		bool spelt = spell(r[j].pattern, model, sizeof(model));

		for (size_t i = 0; i < j; i++) {
			if (!strcmp(r[i].pattern, r[j].pattern) &&
			    !strcasecmp(r[i].interface, r[j].interface) &&
			    r[i].capacity_bytes == r[j].capacity_bytes) {
				say(l, r[j].origin, r[j].lineno,
				    "duplicate of %s:%u (same pattern, "
				    "interface and capacity)",
				    r[i].origin, r[i].lineno);
				continue;
			}
			if (spelt && ifaces_meet(&r[i], &r[j]) && !same_figures(&r[i], &r[j]) &&
			    ww_pattern_match(r[i].re, model) == 1)
				say(l, r[j].origin, r[j].lineno,
				    "'%s' (this row's model) matches "
				    "%s:%u first, which has other figures",
				    model, r[i].origin, r[i].lineno);
		}
	}
}

int ww_ratings_lint(const char *const *texts, const char *const *origins, size_t n,
		    ww_ratings_lint_fn fn, void *arg)
{
	struct lint l = { .fn = fn, .arg = arg };

	for (size_t i = 0; i < n && l.problems >= 0; i++)
		lint_text(&l, texts[i] ? texts[i] : "", origins[i] ? origins[i] : "");
	if (l.problems >= 0)
		lint_set(&l);
	ww_ratings_free(&l.rows);
	return l.problems;
}

int ww_ratings_lint_files(const char *const *paths, size_t n, ww_ratings_lint_fn fn, void *arg)
{
	char **texts = calloc(n ? n : 1, sizeof(*texts)), err[512];
	int bad = 0, rc;

	if (!texts)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t len;

		if (read_table(paths[i], &texts[i], &len, err, sizeof(err)) < 0) {
			bad++;
			if (fn)
				fn(arg, paths[i], 0, err);
		} else if (memchr(texts[i], '\0', len)) {
			/* the text ends at the NUL: the lines after it go unchecked */
			bad++;
			if (fn)
				fn(arg, paths[i], 0,
				   "NUL byte: the rest of the file is not a table");
		}
	}
	rc = ww_ratings_lint((const char *const *)texts, paths, n, fn, arg);
	for (size_t i = 0; i < n; i++)
		free(texts[i]);
	free(texts);
	return rc < 0 ? rc : rc + bad;
}
