/* Conformance: every real-drive file in ../shared/fixtures through wearwatch,
 * compared with the source's own decoding.
 *
 * Expected values come from the sources, never from wearwatch, and live in
 * tests/conformance/<group>.tsv (file, field, expected value, source of the
 * value), one file per group below:
 *  - smartctl-json: smartctl JSON files, the values of smartctl's own keys
 *    (model, health, temp, POH, cycles, percentage used, data units written x
 *    512000 or devstat Logical Sectors Written x LBA size, unsafe shutdowns,
 *    media errors, SCSI uncorrected errors) as SOURCES.md states them;
 *  - libatasmart-blobs: model/fw/serial and skdump's own summary line
 *    (Powered On printed the way libatasmart prints durations, Power Cycles,
 *    Temperature), SMST as SMART status;
 *  - ioctl-trace: the WD80EFPX `-r ioctl,2` trace against smartctl's
 *    attribute table in the same log (VALUE, WORST, THRESH, RAW_VALUE);
 *  - sas-log-sense: LOG SENSE pages against sg_logs' decoding;
 *  - nvme-identify: the Toshiba XG3 Identify Controller, SOURCES.md pair #5.
 * Each group reads its files with wearwatch's loader and has a getter that
 * prints a field the way the source prints it; a field name the getter does
 * not know is a failure, so a row cannot be skipped silently. A mismatch is a
 * failure unless it is listed in `known[]` with the reason the source is
 * wrong (or, for our own gaps, what is missing). The tables were generated
 * once from what this test used to parse out of SOURCES.md; JSON files with
 * no rows are still parsed, and every blob must have rows.
 * `test_decode_conformance --markdown FILE` also writes the summary as markdown
 * (docs/conformance.md is generated that way). */
#include <ctype.h>
#include <dirent.h>

#include "ww_test.h"
#include "wearwatch/collect.h"
#include "wearwatch/decode.h"

struct known { const char *file, *field, *reason; };
/* attribute 9 in minutes (Fujitsu MHY2xx0BH fw 0085000B, Maxtor 96147H8) now comes
 * from the drive database (src/collect/drivedb.c): those blobs match */
static const struct known known[] = {
	{ "smart-raid.json", "temperature",
	  "smartctl prints temperature.current 0 for an Intel RAID volume that has no temperature log page; 0 is not a reading" },
	/* "#* ..." stands for every attribute id */
	{ "smart-ata-date2.json", "#* raw string",
	  "the file was edited by its source (SOURCES.md: EDITED): raw.value was changed, raw.string was not, so they disagree" },
	{ NULL, NULL, NULL }
};

/* One expected value: a row of tests/conformance/<group>.tsv. */
struct expect { const char *file, *field, *want, *source; };

/* What a group's loader made of one fixture file. */
struct loaded { ww_health_t *h; int rc; };

struct group {
	const char *name, *tsv;
	/* load a fixture file (CHECKs that it decoded); rc < 0 = unreadable */
	void (*load)(const char *dir, const char *rel, struct loaded *l);
	/* the field as the source prints it; false = a field it does not know */
	bool (*get)(const struct loaded *l, const char *field, char *out, size_t len);
	unsigned drives, fields, matches, listed, failed;
};
static struct group *cur;
static FILE *md_listed;
static char listed_buf[16384];
static size_t listed_len;

static const char *known_reason(const char *file, const char *field)
{
	for (const struct known *k = known; k->file; k++) {
		const char *any = !strncmp(k->field, "#* ", 3) ? strchr(field, ' ') : NULL;

		if (strstr(file, k->file) && (!strcmp(field, k->field) ||
					      (field[0] == '#' && any && !strcmp(any + 1, k->field + 3))))
			return k->reason;
	}
	return NULL;
}

static void field(const char *file, const char *name, const char *got, const char *want)
{
	const char *why;

	cur->fields++;
	if (!strcmp(got, want)) {
		cur->matches++;
		ww_t_pass++;
		return;
	}
	why = known_reason(file, name);
	if (why) {
		cur->listed++;
		listed_len += (size_t)snprintf(listed_buf + listed_len,
			sizeof(listed_buf) - listed_len,
			"| `%s` | %s | %s | %s | %s |\n", file, name, got, want, why);
		if (listed_len >= sizeof(listed_buf))
			listed_len = sizeof(listed_buf) - 1;
		return;
	}
	cur->failed++;
	ww_t_fail++;
	fprintf(stderr, "MISMATCH %s %s: wearwatch %s, source %s\n", file, name, got, want);
}


static void fmt_u(const ww_u64 *v, char *out, size_t len)
{
	if (WW_HAS(*v))
		snprintf(out, len, "%llu", (unsigned long long)v->value);
	else
		snprintf(out, len, "absent");
}

static void fmt_i(const ww_i64 *v, char *out, size_t len)
{
	if (v->source)
		snprintf(out, len, "%lld", (long long)v->value);
	else
		snprintf(out, len, "absent");
}

static const char *status_name(ww_smart_status_t s)
{
	return s == WW_SMART_PASSED ? "PASSED" : s == WW_SMART_FAILED ? "FAILED" : "unknown";
}

/* Fields every group prints the same way; false when `f` is none of them. */
static bool get_common(const ww_health_t *h, const char *f, char *out, size_t len)
{
	if (!strcmp(f, "model"))
		snprintf(out, len, "%s", h->model);
	else if (!strcmp(f, "firmware"))
		snprintf(out, len, "%s", h->firmware);
	else if (!strcmp(f, "serial"))
		snprintf(out, len, "%s", h->serial);
	else if (!strcmp(f, "SMART status"))
		snprintf(out, len, "%s", status_name(h->smart_status));
	else if (!strcmp(f, "temperature"))
		fmt_i(&h->temperature_celsius, out, len);
	else if (!strcmp(f, "power cycles"))
		fmt_u(&h->power_cycles, out, len);
	else
		return false;
	return true;
}

/* ------------------------------------------------- smartctl JSON --- */

static void load_json(const char *dir, const char *rel, struct loaded *l)
{
	size_t len;
	unsigned char *buf = ww_read_file(dir, rel, &len);
	ww_smartctl_info_t info;

	if (!buf) {
		CHECK(buf != NULL);
		l->rc = -ENOENT;
		return;
	}
	l->rc = ww_smartctl_parse((char *)buf, len, l->h, &info);
	CHECK(l->rc == 0 || l->rc == -ENODATA);
	CHECK(l->h->backend && !strcmp(l->h->backend, "smartctl"));
	free(buf);
}

/* "#N raw string" (RAW_VALUE under the drive database's format for the
 * model, from raw.value) and "#N flags" (the flags column from flags.value) */
static bool get_json_attr(const ww_health_t *h, const char *f, char *out, size_t len)
{
	const ww_ata_attr_t *a;
	char what[16], fl[8];
	unsigned id;

	if (sscanf(f, "#%u %15[a-z ]", &id, what) != 2 || id > 255)
		return false;
	a = ww_ata_find_attr(h, (uint8_t)id);
	if (!a)
		snprintf(out, len, "absent");
	else if (!strcmp(what, "raw string"))
		snprintf(out, len, "%s", a->raw_string);
	else if (!strcmp(what, "flags"))
		snprintf(out, len, "%s", ww_ata_attr_flags_str(a->flags, fl));
	else
		return false;
	return true;
}

/* "error log count KIND", "self-test count|errors KIND", "last self-test
 * status|hours KIND" (KIND: summary/extended, standard/extended) */
static bool get_json_logs(const ww_health_t *h, const char *f, char *out, size_t len)
{
	char what[32], kind[16];
	int i;

	if (sscanf(f, "error log count %15s", kind) == 1) {
		i = !strcmp(kind, "extended") ? WW_ERRLOG_ATA_EXTENDED : WW_ERRLOG_ATA_SUMMARY;
		if (h->error_logs[i].source)
			snprintf(out, len, "%llu", (unsigned long long)h->error_logs[i].count);
		else
			snprintf(out, len, "absent");
		return true;
	}
	if (sscanf(f, "self-test %31s %15s", what, kind) != 2 &&
	    sscanf(f, "last self-test %31s %15s", what, kind) != 2)
		return false;
	i = !strcmp(kind, "extended") ? WW_SELFTEST_ATA_EXTENDED : WW_SELFTEST_ATA_STANDARD;
	const ww_selftest_log_t *t = &h->self_tests[i];
	unsigned long long v = !strcmp(what, "count") ? t->entries : !strcmp(what, "errors") ?
			       t->failed : !strcmp(what, "status") ? t->last_status : t->last_hours;

	if (!t->source || (!strncmp(f, "last", 4) && !t->has_last))
		snprintf(out, len, "absent");
	else
		snprintf(out, len, "%llu", v);
	return true;
}

/* rotation rate, interface speed max/current, grown defects, (specified)
 * load unload cycles */
static bool get_json_identity(const ww_health_t *h, const char *f, char *out, size_t len)
{
	const ww_u64 *v = !strcmp(f, "rotation rate") ? &h->rotation_rate_rpm :
			  !strcmp(f, "interface speed max") ? &h->link.max_bps :
			  !strcmp(f, "interface speed current") ? &h->link.current_bps :
			  !strcmp(f, "grown defects") ? &h->scsi.grown_defects :
			  !strcmp(f, "load unload cycles") ? &h->scsi.load_unload_cycles :
			  !strcmp(f, "specified load unload cycles") ?
			  &h->scsi.specified_load_unload_cycles : NULL;

	unsigned page, off;

	if (!v && sscanf(f, "devstat %u %x name", &page, &off) == 2) {
		/* our name table (ACS-4 9.5) against smartctl's names */
		const char *n = ww_ata_devstat_name((uint8_t)page, (uint16_t)off, NULL);

		snprintf(out, len, "%s", n ? n : "absent");
		return true;
	}
	if (!v)
		return false;
	fmt_u(v, out, len);
	return true;
}

static bool get_json(const struct loaded *l, const char *f, char *out, size_t len)
{
	const ww_health_t *h = l->h;

	if (f[0] == '#')
		return get_json_attr(h, f, out, len);
	if (get_json_logs(h, f, out, len) || get_json_identity(h, f, out, len))
		return true;
	if (!strcmp(f, "no device data")) /* smartctl could not open the device */
		snprintf(out, len, "%s", l->rc == -ENODATA ? "ENODATA" : "parsed");
	else if (!strcmp(f, "POH")) /* seconds */
		fmt_u(&h->power_on_seconds, out, len);
	else if (!strcmp(f, "percentage used"))
		fmt_u(&h->endurance_used_percent, out, len);
	else if (!strcmp(f, "host bytes written"))
		fmt_u(&h->host_written_bytes, out, len);
	else if (!strcmp(f, "unsafe shutdowns"))
		fmt_u(&h->unsafe_shutdowns, out, len);
	else if (!strcmp(f, "media errors"))
		fmt_u(&h->media_errors, out, len);
	else
		return get_common(h, f, out, len);
	return true;
}

/* JSON files without expected values (info-only, scan output) are parsed. */
static void parse_only(const char *dir, const char *rel)
{
	ww_health_t *h = calloc(1, sizeof(*h));
	struct loaded l = { h, 0 };
	unsigned char *buf;
	size_t len;

	if (!strstr(rel, "_scan_")) {
		if (h)
			load_json(dir, rel, &l);
		free(h);
		return;
	}
	buf = ww_read_file(dir, rel, &len);
	CHECK(buf != NULL);
	if (buf) {
		ww_smartctl_dev_t *devs = NULL;

		CHECK(ww_smartctl_scan_parse((char *)buf, len, &devs) > 0);
		free(devs);
	}
	free(buf);
	free(h);
}

/* ------------------------------------------------ libatasmart blobs --- */

static void load_blob(const char *dir, const char *rel, struct loaded *l)
{
	size_t len;
	unsigned char *buf = ww_read_file(dir, rel, &len);

	l->rc = buf ? ww_ata_blob_load(buf, len, l->h) : -ENOENT;
	CHECK(l->rc == 0);
	free(buf);
}

/* libatasmart's print of a millisecond duration (atasmart.c, MSECONDS) */
static void skdump_duration(uint64_t ms, char *s, size_t len)
{
	const uint64_t day = 1000ull * 60 * 60 * 24;

	if (ms >= day * 365)
		snprintf(s, len, "%0.1f years", (double)ms / (double)(day * 365));
	else if (ms >= day * 30)
		snprintf(s, len, "%0.1f months", (double)ms / (double)(day * 30));
	else if (ms >= day)
		snprintf(s, len, "%0.1f days", (double)ms / (double)day);
	else if (ms >= 1000ull * 3600)
		snprintf(s, len, "%0.1f h", (double)ms / 3600000.0);
	else if (ms >= 60000)
		snprintf(s, len, "%0.1f min", (double)ms / 60000.0);
	else
		snprintf(s, len, "%llu ms", (unsigned long long)ms);
}

static bool get_blob(const struct loaded *l, const char *f, char *out, size_t len)
{
	if (strcmp(f, "POH")) /* skdump "Powered On" */
		return get_common(l->h, f, out, len);
	if (WW_HAS(l->h->power_on_seconds))
		skdump_duration(l->h->power_on_seconds.value * 1000, out, len);
	else
		snprintf(out, len, "absent");
	return true;
}

/* --------------------------------------------- smartctl ioctl trace --- */

static void load_trace(const char *dir, const char *rel, struct loaded *l)
{
	size_t len;
	unsigned char *buf = ww_read_file(dir, rel, &len);

	l->rc = buf ? ww_ioctl_trace_load((char *)buf, len, l->h) : -ENOENT;
	CHECK(l->rc == 0);
	free(buf);
}

/* "#N value/worst/thresh", "#N raw" (194 and 190: the temperature), "POH"
 * (hours) and the common fields */
static bool get_trace(const struct loaded *l, const char *f, char *out, size_t len)
{
	const ww_health_t *h = l->h;
	const ww_ata_attr_t *a;
	unsigned id;
	char what[32];

	if (!strcmp(f, "POH")) {
		snprintf(out, len, "%llu", (unsigned long long)h->power_on_seconds.value / 3600);
		return true;
	}
	if (sscanf(f, "#%u %31[a-z/ ]", &id, what) != 2)
		return get_common(h, f, out, len);
	a = ww_ata_find_attr(h, (uint8_t)id);
	if (a && !strcmp(what, "raw string")) /* RAW_VALUE column */
		snprintf(out, len, "%s", a->raw_string);
	else if (a && !strcmp(what, "name")) /* ATTRIBUTE_NAME column */
		snprintf(out, len, "%s", a->name);
	else if (!strcmp(what, "raw") && (id == 194 || id == 190))
		fmt_i(&h->temperature_celsius, out, len);
	else if (!a)
		snprintf(out, len, "absent");
	else if (!strcmp(what, "raw"))
		snprintf(out, len, "%llu", (unsigned long long)a->raw);
	else if (!strcmp(what, "value/worst/thresh"))
		snprintf(out, len, "%u/%u/%u", a->value, a->worst, a->threshold);
	else
		return false;
	return true;
}

/* ----------------------------------------------- LOG SENSE (SAS) --- */

/* libscsicmd's csv line ",<CDB>,,<response>": the response decoded */
static void load_sas(const char *dir, const char *rel, struct loaded *l)
{
	size_t len, n;
	unsigned char *buf = ww_read_file(dir, rel, &len), page[512];
	char *c = buf ? strrchr((char *)buf, ',') : NULL;

	if (!c) {
		CHECK(!"LOG SENSE fixture unreadable");
		l->rc = -ENOENT;
		free(buf);
		return;
	}
	n = ww_hex_to_bytes(c + 1, page, sizeof(page));
	l->rc = ww_decode_scsi_log_page(page, n, l->h);
	CHECK(l->rc == 0);
	free(buf);
}

static bool get_sas(const struct loaded *l, const char *f, char *out, size_t len)
{
	const ww_scsi_t *s = &l->h->scsi;

	if (!strcmp(f, "temperature")) /* page 0x0D */
		fmt_i(&s->temperature_celsius, out, len);
	else if (!strcmp(f, "reference temperature"))
		fmt_i(&s->reference_temperature_celsius, out, len);
	else if (!strcmp(f, "bytes processed")) /* page 0x02 */
		fmt_u(&s->write_errors.bytes_processed, out, len);
	else if (!strcmp(f, "total errors corrected"))
		fmt_u(&s->write_errors.corrected_total, out, len);
	else if (!strcmp(f, "uncorrected errors"))
		fmt_u(&s->write_errors.uncorrected, out, len);
	else
		return false;
	return true;
}

/* ---------------------------------------- NVMe Identify Controller --- */

static void load_id_ctrl(const char *dir, const char *rel, struct loaded *l)
{
	size_t len;
	unsigned char *buf = ww_read_file(dir, rel, &len);

	l->rc = buf ? ww_decode_nvme_id_ctrl(buf, len, l->h) : -ENOENT;
	CHECK(l->rc == 0);
	free(buf);
}

static bool get_id_ctrl(const struct loaded *l, const char *f, char *out, size_t len)
{
	if (!strcmp(f, "warning temperature"))
		fmt_i(&l->h->temperature_warning_celsius, out, len);
	else if (!strcmp(f, "critical temperature"))
		fmt_i(&l->h->temperature_critical_celsius, out, len);
	else
		return get_common(l->h, f, out, len);
	return true;
}

static struct group groups[] = {
	{ "smartctl JSON (scrutiny, scrutiny-starosdev, smartctl_exporter)", "smartctl-json",
	  load_json, get_json, 0, 0, 0, 0, 0 },
	{ "libatasmart blobs vs SOURCES.md + skdump", "libatasmart-blobs", load_blob, get_blob,
	  0, 0, 0, 0, 0 },
	{ "WD80EFPX -r ioctl,2 trace vs smartctl table", "ioctl-trace", load_trace, get_trace,
	  0, 0, 0, 0, 0 },
	{ "SAS LOG SENSE pages vs sg_logs", "sas-log-sense", load_sas, get_sas, 0, 0, 0, 0, 0 },
	{ "NVMe Identify Controller (fwupd) vs SOURCES.md", "nvme-identify", load_id_ctrl,
	  get_id_ctrl, 0, 0, 0, 0, 0 },
};
#define N_GROUPS (sizeof(groups) / sizeof(groups[0]))

/* ------------------------------------------------- expected values --- */

static struct expect *rows;
static size_t n_rows;

/* Split tests/conformance/<tsv>.tsv into rows (the text is kept: the rows
 * point into it). Comment lines and the header are skipped; a line without
 * four non-empty columns fails. NULL when the file cannot be read. */
static char *read_tsv(const char *tsv)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char path[4200], *text, *line, *next, *c[4];
	size_t len;

	snprintf(path, sizeof(path), "%s/tests/conformance/%s.tsv", src ? src : ".", tsv);
	text = (char *)ww_read_file(NULL, path, &len);
	n_rows = 0;
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (line[0] == '#' || !line[0] || !strncmp(line, "file\t", 5))
			continue;
		c[0] = line;
		for (int k = 1; k < 4; k++)
			if ((c[k] = c[k - 1] ? strchr(c[k - 1], '\t') : NULL))
				*c[k]++ = '\0';
		if (!c[3] || strchr(c[3], '\t') || !*c[0] || !*c[1] || !*c[2] || !*c[3]) {
			fprintf(stderr, "%s: not 4 non-empty columns: %s\n", path, line);
			ww_t_fail++;
			continue;
		}
		rows = realloc(rows, (n_rows + 1) * sizeof(*rows));
		rows[n_rows++] = (struct expect){ c[0], c[1], c[2], c[3] };
	}
	return text;
}

/* Whether the table has rows for rel. */
static bool has_rows(const char *rel)
{
	for (size_t i = 0; i < n_rows; i++)
		if (!strcmp(rows[i].file, rel))
			return true;
	return false;
}

/* Rows [i, end) are one file's: load it once and compare each field. */
static void check_file(const char *dir, size_t i, size_t end)
{
	struct loaded l = { calloc(1, sizeof(ww_health_t)), 0 };
	char got[256];

	if (!l.h)
		return;
	cur->load(dir, rows[i].file, &l);
	cur->drives++;
	for (; i < end; i++) {
		const struct expect *e = &rows[i];

		if (!strcmp(e->field, "(parsed only)"))
			continue; /* its source states nothing to compare */
		if (l.rc == -ENOENT) {
			snprintf(got, sizeof(got), "unreadable");
		} else if (!cur->get(&l, e->field, got, sizeof(got))) {
			fprintf(stderr, "%s.tsv: %s: no getter for field '%s'\n", cur->tsv,
				e->file, e->field);
			snprintf(got, sizeof(got), "unknown field");
		}
		field(e->file, e->field, got, e->want);
	}
	free(l.h);
}

/* Every file of the group's table (rows already read by read_tsv). */
static void check_group(const char *dir)
{
	for (size_t i = 0, end; i < n_rows; i = end) {
		for (end = i + 1; end < n_rows && !strcmp(rows[end].file, rows[i].file); end++)
			;
		check_file(dir, i, end);
	}
}

/* Files of dir/sub that the table has no rows for: JSON files are parsed
 * (parse_only), a blob ("MODEL--FW") without expected values fails. */
static void walk_unlisted(const char *dir, const char *sub, bool blobs)
{
	char p[4096], rel[512];
	struct dirent **ents;
	int n;

	snprintf(p, sizeof(p), "%s/%s", dir, sub);
	n = scandir(p, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "%s/%s", sub, ents[i]->d_name);
		if (blobs && strstr(ents[i]->d_name, "--") && !has_rows(rel)) {
			fprintf(stderr, "%s: blob without expected values\n", rel);
			CHECK(!"blob without expected values");
		} else if (!blobs && strstr(ents[i]->d_name, ".json") && !has_rows(rel)) {
			parse_only(dir, rel);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

static void write_markdown(const char *md, unsigned d, unsigned f, unsigned m, unsigned l,
			   unsigned x)
{
	if (!md || !(md_listed = fopen(md, "w")))
		return;
	fprintf(md_listed, "| source | drives | fields | match | listed | mismatched |\n|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < N_GROUPS; i++)
		fprintf(md_listed, "| %s | %u | %u | %u | %u | %u |\n", groups[i].name,
			groups[i].drives, groups[i].fields, groups[i].matches,
			groups[i].listed, groups[i].failed);
	fprintf(md_listed, "| **total** | **%u** | **%u** | **%u** | **%u** | **%u** |\n\n",
		d, f, m, l, x);
	fprintf(md_listed, "Listed differences (wearwatch value, source value, why):\n\n"
		"| file | field | wearwatch | source | reason |\n|---|---|---|---|---|\n%s",
		listed_buf);
	fclose(md_listed);
}

int main(int argc, char **argv)
{
	const char *dir = ww_fixtures_dir();
	const char *md = argc > 2 && !strcmp(argv[1], "--markdown") ? argv[2] : NULL;
	static const char *const json_dirs[] = { "scrutiny", "scrutiny-starosdev",
						 "smartctl_exporter" };
	unsigned d = 0, f = 0, m = 0, l = 0, x = 0;

	for (size_t g = 0; g < N_GROUPS; g++) {
		char *text;

		cur = &groups[g];
		text = read_tsv(cur->tsv);
		CHECK(text != NULL && n_rows > 0);
		check_group(dir);
		/* then what the table does not list */
		if (cur->load == load_json)
			for (size_t k = 0; k < sizeof(json_dirs) / sizeof(json_dirs[0]); k++)
				walk_unlisted(dir, json_dirs[k], false);
		else if (cur->load == load_blob)
			walk_unlisted(dir, "libatasmart-blobs", true);
		free(text);
		d += cur->drives;
		f += cur->fields;
		m += cur->matches;
		l += cur->listed;
		x += cur->failed;
	}
	free(rows);
	printf("conformance: %u drives, %u fields, %u match, %u listed (source wrong or known gap), %u mismatched\n",
	       d, f, m, l, x);
	write_markdown(md, d, f, m, l, x);
	return ww_test_done("test_decode_conformance");
}
