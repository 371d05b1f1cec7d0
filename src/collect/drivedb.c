/* Drive database: smartmontools' drivedb.h + data/attribute-quirks.tsv
 * (see drivedb.h). */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "wearwatch/basic.h"
#include "collect/drivedb.h"

extern const char ww_builtin_attribute_quirks_tsv[];

#define WW_DB_FIELDS 5
#define WW_DB_CACHE 64

struct db_entry {
	char *f[WW_DB_FIELDS]; /* family, model, firmware, warning, presets */
};

struct cached {
	char model[64], fw[32];
	int found;
	ww_ata_presets_t p;
};

static pthread_mutex_t db_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *db_path;
static struct db_entry *db;
static size_t db_n;
static bool db_loaded;
static struct cached cache[WW_DB_CACHE];
static size_t cache_n, cache_next;

void ww_drivedb_set_path(const char *path)
{
	pthread_mutex_lock(&db_lock);
	db_path = path;
	db_loaded = false;
	/* sources are interned copies (see intern()), nothing points here */
	for (size_t i = 0; i < db_n; i++)
		for (int k = 0; k < WW_DB_FIELDS; k++)
			free(db[i].f[k]);
	free(db);
	db = NULL;
	db_n = 0;
	cache_n = cache_next = 0;
	pthread_mutex_unlock(&db_lock);
}

/* ---------------------------------------------------------- parsing --- */

static void append(char **dst, size_t *len, const char *s, size_t n)
{
	char *x = realloc(*dst, *len + n + 1);

	if (!x)
		return;
	memcpy(x + *len, s, n);
	*len += n;
	x[*len] = '\0';
	*dst = x;
}

/* The C source: entries are top-level brace blocks (the including file opens
 * the array) holding string literals
 * separated by commas; adjacent literals concatenate; comments skipped. */
static void parse(const char *s)
{
	int depth = 0, field = 0;
	struct db_entry cur;
	size_t flen[WW_DB_FIELDS];
	size_t cap = 0;

	memset(&cur, 0, sizeof(cur));
	memset(flen, 0, sizeof(flen));
	while (*s) {
		if (s[0] == '/' && s[1] == '/') {
			s = strchrnul(s, '\n');
			continue;
		}
		if (s[0] == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");

			s = e ? e + 2 : s + strlen(s);
			continue;
		}
		if (*s == '"') {
			const char *p = ++s;
			char buf[512];
			size_t n = 0;

			while (*p && *p != '"') {
				if (*p == '\\' && p[1])
					p++;
				if (n < sizeof(buf))
					buf[n++] = *p;
				p++;
			}
			if (depth == 1 && field < WW_DB_FIELDS)
				append(&cur.f[field], &flen[field], buf, n);
			s = *p ? p + 1 : p;
			continue;
		}
		if (*s == '{') {
			depth++;
			if (depth == 1) {
				memset(&cur, 0, sizeof(cur));
				memset(flen, 0, sizeof(flen));
				field = 0;
			}
		} else if (*s == '}') {
			if (depth == 1 && field == WW_DB_FIELDS - 1) {
				if (db_n == cap) {
					size_t nc = cap ? 2 * cap : 1024;
					struct db_entry *x = realloc(db, nc * sizeof(*x));

					if (!x)
						break;
					db = x;
					cap = nc;
				}
				for (int i = 0; i < WW_DB_FIELDS; i++)
					if (!cur.f[i])
						cur.f[i] = strdup("");
				db[db_n++] = cur;
			} else if (depth == 1) {
				for (int i = 0; i < WW_DB_FIELDS; i++)
					free(cur.f[i]);
			}
			if (depth == 1)
				memset(&cur, 0, sizeof(cur));
			if (depth > 0) /* a stray '}' does not shift the entries after it */
				depth--;
		} else if (*s == ',' && depth == 1) {
			field++;
		}
		s++;
	}
	/* an entry still open at the end of the file (or after a failed
	 * allocation) is not an entry: its strings were leaked before */
	for (int i = 0; i < WW_DB_FIELDS; i++)
		free(cur.f[i]);
}

static void load(void)
{
	static const char *const paths[] = {
		"/var/lib/smartmontools/drivedb/drivedb.h", /* update-smart-drivedb */
		"/usr/share/smartmontools/drivedb.h",
	};
	FILE *f = NULL;
	char *text;
	long n;

	db_loaded = true;
	if (db_path)
		f = ww_fopen_regular(db_path);
	for (size_t i = 0; !db_path && !f && i < sizeof(paths) / sizeof(*paths); i++)
		f = ww_fopen_regular(paths[i]);
	if (!f)
		return;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
	    !(text = calloc(1, (size_t)n + 1))) {
		fclose(f);
		return;
	}
	if (fread(text, 1, (size_t)n, f) == (size_t)n)
		parse(text);
	free(text);
	fclose(f);
}

/* ---------------------------------------------------------- presets --- */

/* Source strings ("drivedb.h \"FAMILY\": -v 9,minutes") and attribute names
 * are interned: one copy of each distinct text for the process lifetime,
 * because health records and snapshots point to them. They are built from
 * database entries and quirk rows, and from the attribute names smartctl
 * prints (its own database's), never from what a drive reports, so the
 * table is bounded by the databases; WW_INTERN_MAX keeps it bounded even if a
 * smartctl printed endless names (then a name is not kept: the default
 * applies). Own lock: ww_drivedb_apply_presets() is called without
 * db_lock. */
#define WW_INTERN_MAX 16384
static pthread_mutex_t intern_lock = PTHREAD_MUTEX_INITIALIZER;
static char **interned;
static size_t interned_n, interned_cap;

static const char *intern(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *intern(const char *fmt, ...)
{
	char buf[1024], *dup, **x;
	const char *ret = NULL;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&intern_lock);
	for (size_t i = 0; i < interned_n && !ret; i++)
		if (!strcmp(interned[i], buf))
			ret = interned[i];
	if (!ret && interned_n == interned_cap && interned_n < WW_INTERN_MAX) {
		size_t nc = interned_cap ? 2 * interned_cap : 64;

		x = realloc(interned, nc * sizeof(*x));
		if (x) {
			interned = x;
			interned_cap = nc;
		}
	}
	if (!ret && interned_n < interned_cap && (dup = strdup(buf)))
		ret = interned[interned_n++] = dup;
	pthread_mutex_unlock(&intern_lock);
	return ret;
}

const char *ww_drivedb_intern_name(const char *name)
{
	if (!name || !*name || strlen(name) > 32)
		return NULL;
	return intern("%s", name);
}

/* "WHERE \"A\":" */
static const char *dupf(const char *where, const char *a)
{
	return intern("%s \"%s\":", where, a);
}

/* Unit of a host read/write attribute by the name the database gives it;
 * 0 when the name states none ("Host_Writes", "Nand_Sectors_Written"). The
 * database spells binary units GiB/MiB and keeps the vendors' "GB" apart
 * (Seagate IronWolf 110 / Nytro "Lifetime_Wts_Frm_Hst_GB"): GB is 10^9
 * bytes. */
static uint64_t name_unit(const char *name)
{
	static const struct {
		const char *suffix;
		uint64_t unit;
	} units[] = {
		{ "_32MiB", 32ull << 20 }, { "_GiB", 1ull << 30 }, { "_MiB", 1ull << 20 },
		{ "_GB", 1000000000ull },
	};
	size_t n = strlen(name);

	if (!strcmp(name, "Total_LBAs_Written") || !strcmp(name, "Total_LBAs_Read"))
		return WW_ATA_UNIT_LBA;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t k = strlen(units[i].suffix);

		if (n > k && !strcmp(name + n - k, units[i].suffix))
			return units[i].unit;
	}
	return 0;
}

/* What one parsed preset says about the normalised values: attribute 9's
 * unit, the host read/write attributes' units, an unsafe-shutdown count.
 * Returns 1 when it said something. */
static int derive(unsigned id, const ww_ata_attr_def_t *d, const char *one, ww_ata_presets_t *p)
{
	const char *name = d->name ? d->name : "";
	uint64_t u;

	if (id == 9) {
		static const ww_ata_poh_unit_t unit[WW_RAWFMT_MAX] = {
			[WW_RAWFMT_MIN2HOUR] = WW_ATA_POH_MINUTES,
			[WW_RAWFMT_HALFMIN2HOUR] = WW_ATA_POH_HALFMINUTES,
			[WW_RAWFMT_SEC2HOUR] = WW_ATA_POH_SECONDS,
		};

		if (!unit[d->format])
			return 0;
		p->poh_unit = unit[d->format];
		p->poh_source = one;
		return 1;
	}
	if ((id == 241 || id == 242 || (id == 246 && !strcmp(name, "Total_LBAs_Written"))) &&
	    d->format == WW_RAWFMT_RAW48 && (u = name_unit(name))) {
		if (id == 242) {
			p->read_unit_bytes = u;
			p->read_source = one;
		} else {
			p->written_unit_bytes = u;
			p->written_id = (uint8_t)id;
			p->written_source = one;
		}
		return 1;
	}
	if ((id == 174 || id == 192 || id == 235) &&
	    (strcasestr(name, "Unsafe_Shutdown") || strcasestr(name, "Unexpect") ||
	     strcasestr(name, "POR_Recovery") || strcasestr(name, "Unplanned"))) {
		/* in the database's order (Intel names 174 and 192) */
		for (int i = 0; i < 3; i++)
			if (!p->unsafe_shutdown_id[i] || p->unsafe_shutdown_id[i] == id) {
				p->unsafe_shutdown_id[i] = (uint8_t)id;
				p->unsafe_source[i] = one;
				break;
			}
		return 1;
	}
	return 0;
}

int ww_drivedb_apply_presets(const char *presets, const char *src, ww_ata_presets_t *p)
{
	const char *s = presets;
	int n = 0;

	if (!presets || !p)
		return 0;
	while ((s = strstr(s, "-v "))) {
		char arg[96], name[33];
		ww_ata_attr_def_t d;
		size_t k = strcspn(s + 3, " \t");
		int id;

		if (k >= sizeof(arg)) {
			s += 3;
			continue;
		}
		memcpy(arg, s + 3, k);
		arg[k] = '\0';
		s += 3 + k;
		if ((id = ww_ata_parse_attr_def(arg, &d, name)) <= 0)
			continue; /* does not parse, or "N,..." (every id: not in drivedb.h) */
		/* records point at these: interned, one copy per distinct text */
		d.source = intern("%s -v %s", src ? src : "", arg);
		if (d.name)
			d.name = intern("%s", d.name);
		/* a unit comes with the preset that names it */
		n += derive((unsigned)id, &d, d.source, p);
		if (!d.name && p->attr[id].name)
			d.name = p->attr[id].name; /* "-v 9,raw48" keeps the name given before */
		p->attr[id] = d;
	}
	return n;
}

/* Whole-string match of a drivedb.h or quirk-table regex, bounded (record.h):
 * drivedb.h is fetched from the network by update-smart-drivedb, and glibc's
 * regcomp() has no memory limit. A pattern that does not compile, or a match
 * that hits a limit, matches nothing (as smartctl skips a bad entry). */
static bool full_match(const char *re, const char *s)
{
	ww_pattern_t *p;
	bool ok;

	if (!*re)
		return true;
	if (ww_pattern_compile(re, WW_PATTERN_WHOLE, &p, NULL, 0))
		return false;
	ok = ww_pattern_match(p, s) == 1;
	ww_pattern_free(p);
	return ok;
}

/* One data/attribute-quirks.tsv row: model \t firmware \t id \t meaning \t why */
static int quirk_row(const char *line, size_t k, const char *model, const char *fw,
		     ww_ata_presets_t *p)
{
	char row[1024], pre[64], *col[5] = { 0 }, *t = row;
	const char *src;
	size_t c = 0;
	long id;
	int n;

	if (*line == '#' || k == 0 || k >= sizeof(row))
		return 0;
	memcpy(row, line, k);
	row[k] = '\0';
	while (t && c < 5)
		col[c++] = strsep(&t, "\t"); /* keeps the empty firmware column */
	if (c < 4 || !full_match(col[0], model) || !full_match(col[1], fw))
		return 0;
	src = dupf("attribute-quirks.tsv", col[0]);
	if (!strcmp(col[3], "hours")) {
		/* the id's default format (raw24(raw8): hours), whatever drivedb.h said */
		ww_drivedb_apply_presets("-v 9,raw24(raw8)", src, p);
		p->poh_unit = WW_ATA_POH_HOURS;
		p->poh_source = src;
		return 1;
	}
	if (!strcmp(col[3], "unsafe_shutdowns"))
		snprintf(pre, sizeof(pre), "-v %s,raw48,Unsafe_Shutdown_Count", col[2]);
	else if (!strcmp(col[3], "written_lba"))
		snprintf(pre, sizeof(pre), "-v %s,raw48,Total_LBAs_Written", col[2]);
	else if (!strncmp(col[3], "written_", 8))
		snprintf(pre, sizeof(pre), "-v %s,raw48,Host_Writes_%s", col[2], col[3] + 8);
	else if (!strcmp(col[3], "read_lba"))
		snprintf(pre, sizeof(pre), "-v %s,raw48,Total_LBAs_Read", col[2]);
	else if (!strncmp(col[3], "read_", 5))
		snprintf(pre, sizeof(pre), "-v %s,raw48,Host_Reads_%s", col[2], col[3] + 5);
	else
		snprintf(pre, sizeof(pre), "-v %s,%s", col[2], col[3]);
	/* the count is of units derived; a row that sets a format only (a
	 * newer drivedb.h's "-v 188,raw16") has applied too, so the presets
	 * are used for a model Debian's drivedb.h has no entry for */
	n = ww_drivedb_apply_presets(pre, src, p);
	id = strtol(col[2], NULL, 10);
	return n > 0 || (id > 0 && id < 256 && p->attr[id].source) ? 1 : 0;
}

static int quirks(const char *model, const char *fw, ww_ata_presets_t *p)
{
	const char *line = ww_builtin_attribute_quirks_tsv;
	int n = 0;

	while (*line) {
		const char *nl = strchrnul(line, '\n');

		n += quirk_row(line, (size_t)(nl - line), model, fw, p);
		line = *nl ? nl + 1 : nl;
	}
	return n;
}

static int lookup_locked(const char *model, const char *fw, ww_ata_presets_t *p)
{
	const struct db_entry *def = NULL;
	int found = 0;

	if (!db_loaded)
		load();
	for (size_t i = 0; i < db_n && !found; i++) {
		const struct db_entry *e = &db[i];

		if (!strcmp(e->f[0], "DEFAULT"))
			def = e;
		if (!strcmp(e->f[0], "DEFAULT") || !strncmp(e->f[0], "VERSION:", 8) ||
		    !strncmp(e->f[0], "USB:", 4))
			continue;
		if (!full_match(e->f[1], model) || !full_match(e->f[2], fw))
			continue;
		found = 1;
		/* a known drive: the DEFAULT entry's meanings first, as smartctl
		 * applies them, so that an entry leaving 241/242 at their default
		 * (Samsung: Total_LBAs_Written, commented out in its entry) has
		 * them; then the entry's own */
		if (def)
			ww_drivedb_apply_presets(def->f[4],
						 intern("drivedb.h \"DEFAULT\" for \"%s\":", e->f[0]), p);
		ww_drivedb_apply_presets(e->f[4], dupf("drivedb.h", e->f[0]), p);
	}
	if (quirks(model, fw, p) > 0)
		found = 1;
	return found;
}

int ww_drivedb_lookup(const char *model, const char *firmware, ww_ata_presets_t *p)
{
	int found;

	if (!model || !p)
		return -EINVAL;
	if (!firmware)
		firmware = "";
	memset(p, 0, sizeof(*p));
	pthread_mutex_lock(&db_lock);
	for (size_t i = 0; i < cache_n; i++)
		if (!strcmp(cache[i].model, model) && !strcmp(cache[i].fw, firmware)) {
			*p = cache[i].p;
			found = cache[i].found;
			pthread_mutex_unlock(&db_lock);
			return found;
		}
	found = lookup_locked(model, firmware, p);
	{
		struct cached *c = &cache[cache_n < WW_DB_CACHE ? cache_n++ : (cache_next++ % WW_DB_CACHE)];

		snprintf(c->model, sizeof(c->model), "%s", model);
		snprintf(c->fw, sizeof(c->fw), "%s", firmware);
		c->found = found;
		c->p = *p;
	}
	pthread_mutex_unlock(&db_lock);
	return found;
}

void ww_ata_finish_db(ww_health_t *h)
{
	ww_ata_presets_t p;

	if (!h)
		return;
	if (*h->model && ww_drivedb_lookup(h->model, h->firmware, &p) > 0)
		ww_ata_finish_presets(h, &p);
	else
		ww_ata_finish(h);
}
