/* Conformance: every real-drive file in ../shared/fixtures through wearwatch,
 * compared with the source's own decoding.
 *
 * Expected values come from the sources, never from wearwatch:
 *  - smartctl JSON files: the values SOURCES.md states for each file (the
 *    collector's reading of smartctl's own keys: model, health, temp, POH,
 *    cycles, percentage_used, data_units_written x 512000, unsafe_shutdowns,
 *    media_errors, devstat Logical Sectors Written x LBA size, SCSI
 *    uncorrected errors), parsed from the tables in SOURCES.md;
 *  - libatasmart blobs: model/fw/serial from SOURCES.md and skdump's own
 *    summary line (Powered On, Power Cycles, Temperature) printed the way
 *    libatasmart prints them, SMST as SMART status;
 *  - the WD80EFPX `-r ioctl,2` trace: smartctl's attribute table in the same
 *    log (VALUE, WORST, THRESH, RAW_VALUE);
 *  - LOG SENSE pages: sg_logs' decoding quoted in SOURCES.md;
 *  - Toshiba XG3 Identify Controller: SOURCES.md pair #5.
 * A mismatch is a failure unless it is listed in `known[]` with the reason
 * the source is wrong (or, for our own gaps, what is missing).
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
	{ NULL, NULL, NULL }
};

struct group { const char *name; unsigned drives, fields, matches, listed, failed; };
static struct group groups[5] = {
	{ "smartctl JSON (scrutiny, scrutiny-starosdev, smartctl_exporter)", 0, 0, 0, 0, 0 },
	{ "libatasmart blobs vs SOURCES.md + skdump", 0, 0, 0, 0, 0 },
	{ "WD80EFPX -r ioctl,2 trace vs smartctl table", 0, 0, 0, 0, 0 },
	{ "SAS LOG SENSE pages vs sg_logs", 0, 0, 0, 0, 0 },
	{ "NVMe Identify Controller (fwupd) vs SOURCES.md", 0, 0, 0, 0, 0 },
};
static struct group *cur;
static FILE *md_listed;
static char listed_buf[16384];
static size_t listed_len;

static const char *known_reason(const char *file, const char *field)
{
	for (const struct known *k = known; k->file; k++)
		if (strstr(file, k->file) && !strcmp(field, k->field))
			return k->reason;
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

static void field_u(const char *file, const char *name, const ww_u64 *v, const char *want)
{
	char g[32];

	if (WW_HAS(*v))
		snprintf(g, sizeof(g), "%llu", (unsigned long long)v->value);
	else
		snprintf(g, sizeof(g), "absent");
	field(file, name, g, want);
}

static void field_i(const char *file, const char *name, const ww_i64 *v, const char *want)
{
	char g[32];

	if (v->source)
		snprintf(g, sizeof(g), "%lld", (long long)v->value);
	else
		snprintf(g, sizeof(g), "absent");
	field(file, name, g, want);
}

static const char *status_name(ww_smart_status_t s)
{
	return s == WW_SMART_PASSED ? "PASSED" : s == WW_SMART_FAILED ? "FAILED" : "unknown";
}

/* value of "key=" in a "; "-separated list, up to ';' ' ' '(' or '|' */
static bool kv(const char *vals, const char *key, char *out, size_t len)
{
	char k[64];
	const char *p = vals;
	size_t n = 0;

	snprintf(k, sizeof(k), "%s=", key);
	while ((p = strstr(p, k))) {
		if (p == vals || p[-1] == ' ' || p[-1] == ';')
			break;
		p++;
	}
	if (!p)
		return false;
	p += strlen(k);
	while (*p && !strchr("; (|", *p) && n + 1 < len)
		out[n++] = *p++;
	out[n] = '\0';
	return n > 0;
}

static char *sources_md;

/* The SOURCES.md row of a file: "| `rel` | ... |" (NULL-terminated copy). */
static char *row_of(const char *rel, char *buf, size_t len)
{
	char k[512];
	const char *p, *e;

	snprintf(k, sizeof(k), "| `%s` |", rel);
	p = strstr(sources_md, k);
	if (!p)
		return NULL;
	e = strchr(p, '\n');
	snprintf(buf, len, "%.*s", (int)(e ? e - p : (ptrdiff_t)strlen(p)), p);
	return buf;
}

/* column i (0-based) of a markdown row */
static bool column(const char *row, int i, char *out, size_t len)
{
	const char *p = row;

	for (int c = 0; c <= i; c++) {
		p = strstr(p + 1, " | ");
		if (!p)
			return false;
	}
	p += 3;
	const char *e = strstr(p, " | ");
	if (!e)
		e = p + strlen(p);
	snprintf(out, len, "%.*s", (int)(e - p), p);
	return true;
}

static void check_json(const char *dir, const char *rel)
{
	char row[4096], model[256], vals[3000], w[64], want[64], *fw;
	unsigned char *buf;
	size_t len;
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_smartctl_info_t info;
	int rc;

	buf = ww_read_file(dir, rel, &len);
	if (!buf || !h) {
		CHECK(buf != NULL);
		goto out;
	}
	if (strstr(rel, "_scan_")) {
		ww_smartctl_dev_t devs[16];

		rc = ww_smartctl_scan_parse((char *)buf, len, devs, 16);
		CHECK(rc > 0);
		goto out;
	}
	rc = ww_smartctl_parse((char *)buf, len, h, &info);
	CHECK(rc == 0 || rc == -ENODATA);
	CHECK(h->backend && !strcmp(h->backend, "smartctl"));
	if (!row_of(rel, row, sizeof(row)) || !column(row, 1, model, sizeof(model)) ||
	    !column(row, 3, vals, sizeof(vals)))
		goto out; /* not in the tables (info-only or scan files): parsed only */
	cur->drives++;
	if (strstr(row, " exit=2 ")) {
		/* smartctl could not open the device: no device data */
		field(rel, "no device data", rc == -ENODATA ? "ENODATA" : "parsed", "ENODATA");
		goto out;
	}
	fw = strstr(model, " (`");
	if (fw)
		*fw = '\0';
	if (model[0] != '?') /* "?": partial output (-H, -A) without identity */
		field(rel, "model", h->model, model);
	if (kv(vals, "health", w, sizeof(w)))
		field(rel, "SMART status", status_name(h->smart_status), w);
	if (kv(vals, "temp", w, sizeof(w)))
		field_i(rel, "temperature", &h->temperature_celsius, w);
	if (kv(vals, "POH", w, sizeof(w))) {
		unsigned long long hh = strtoull(w, NULL, 10), mm = 0;
		char *c = strchr(w, ':');
		char g[32];

		if (c)
			mm = strtoull(c + 1, NULL, 10);
		snprintf(want, sizeof(want), "%llu", hh * 3600 + mm * 60);
		snprintf(g, sizeof(g), "%llu", WW_HAS(h->power_on_seconds) ?
			 (unsigned long long)h->power_on_seconds.value : 0ull);
		field(rel, "POH", WW_HAS(h->power_on_seconds) ? g : "absent", want);
	}
	if (kv(vals, "cycles", w, sizeof(w)))
		field_u(rel, "power cycles", &h->power_cycles, w);
	if (kv(vals, "percentage_used", w, sizeof(w)) ||
	    kv(vals, "devstat[Percentage Used Endurance Indicator]", w, sizeof(w)))
		field_u(rel, "percentage used", &h->endurance_used_percent, w);
	if (kv(vals, "bytes_written", w, sizeof(w)))
		field_u(rel, "host bytes written", &h->host_written_bytes, w);
	else if (kv(vals, "devstat[Logical Sectors Written]", w, sizeof(w))) {
		unsigned long long lba = strstr(vals, "LBA 4096") == vals ? 4096 : 512;

		snprintf(want, sizeof(want), "%llu", strtoull(w, NULL, 10) * lba);
		field_u(rel, "host bytes written", &h->host_written_bytes, want);
	}
	if (kv(vals, "unsafe_shutdowns", w, sizeof(w)))
		field_u(rel, "unsafe shutdowns", &h->unsafe_shutdowns, w);
	if (kv(vals, "media_errors", w, sizeof(w)))
		field_u(rel, "media errors", &h->media_errors, w);
	if (strstr(vals, "read_GB=")) {
		/* SCSI: uncorrected errors of the read/write/verify logs */
		unsigned long long sum = 0;
		const char *p = vals;

		while ((p = strstr(p, " unc="))) {
			sum += strtoull(p + 5, NULL, 10);
			p += 5;
		}
		snprintf(want, sizeof(want), "%llu", sum);
		field_u(rel, "media errors", &h->media_errors, want);
	}
out:
	free(buf);
	free(h);
}

static void walk_json(const char *dir, const char *sub)
{
	char p[4096], rel[512];
	struct dirent **ents;
	int n;

	snprintf(p, sizeof(p), "%s/%s", dir, sub);
	n = scandir(p, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (strstr(ents[i]->d_name, ".json")) {
			snprintf(rel, sizeof(rel), "%s/%s", sub, ents[i]->d_name);
			check_json(dir, rel);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
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

static void sk_value(const char *row, const char *key, char *out, size_t len)
{
	const char *p = strstr(row, key);
	size_t n = 0;

	out[0] = '\0';
	if (!p)
		return;
	p += strlen(key);
	while (*p && *p != ';' && *p != '|' && n + 1 < len)
		out[n++] = *p++;
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

static void check_blob(const char *dir, const char *name)
{
	char rel[512], row[4096], id[256], g[64], w[64], *p;
	unsigned char *buf;
	size_t len;
	ww_health_t *h = calloc(1, sizeof(*h));

	snprintf(rel, sizeof(rel), "libatasmart-blobs/%s", name);
	buf = ww_read_file(dir, rel, &len);
	snprintf(rel, sizeof(rel), "%s", name);
	if (!buf || !h || !row_of(rel, row, sizeof(row)) || !column(row, 0, id, sizeof(id))) {
		CHECK(!"blob or its SOURCES.md row missing");
		goto out;
	}
	CHECK(ww_ata_blob_load(buf, len, h) == 0);
	cur->drives++;
	/* "MODEL (`FW`, S/N `SERIAL`)" */
	p = strstr(id, " (`");
	if (p) {
		char fwv[64] = "", sn[64] = "";

		sscanf(p, " (`%63[^`]`, S/N `%63[^`]`", fwv, sn);
		*p = '\0';
		field(name, "model", h->model, id);
		field(name, "firmware", h->firmware, fwv);
		field(name, "serial", h->serial, sn);
	}
	field(name, "SMART status", status_name(h->smart_status),
	      strstr(row, "SMST=1") ? "PASSED" : strstr(row, "SMST=0") ? "FAILED" : "unknown");
	sk_value(row, "Power Cycles: ", w, sizeof(w));
	if (*w && strcmp(w, "n/a"))
		field_u(name, "power cycles", &h->power_cycles, w);
	sk_value(row, "Temperature: ", w, sizeof(w));
	if (!strcmp(w, "n/a")) {
		field_i(name, "temperature", &h->temperature_celsius, "absent");
	} else if (*w) {
		snprintf(g, sizeof(g), "%lld", (long long)strtod(w, NULL));
		field_i(name, "temperature", &h->temperature_celsius, g);
	}
	sk_value(row, "Powered On: ", w, sizeof(w));
	if (*w && strcmp(w, "n/a")) {
		if (WW_HAS(h->power_on_seconds))
			skdump_duration(h->power_on_seconds.value * 1000, g, sizeof(g));
		else
			snprintf(g, sizeof(g), "absent");
		field(name, "POH", g, w);
	}
out:
	free(buf);
	free(h);
}

static void check_trace(const char *dir)
{
	const char *rel = "smartmontools-trac/ticket-1920/smartctl-ioctl-A-WD-RD14X8DD.log";
	char *p, line[256], g[64], w[64], fname[32];
	unsigned char *buf;
	size_t len;
	ww_health_t *h = calloc(1, sizeof(*h));
	char m[64] = "", s[64] = "", f[64] = "";

	buf = ww_read_file(dir, rel, &len);
	if (!buf || !h) {
		CHECK(buf != NULL);
		goto out;
	}
	CHECK(ww_ioctl_trace_load((char *)buf, len, h) == 0);
	cur->drives++;
	p = strstr(sources_md, "model/serial/fw `");
	if (p && sscanf(p, "model/serial/fw `%63[^`]` / `%63[^`]` / `%63[^`]`", m, s, f) == 3) {
		field(rel, "model", h->model, m);
		field(rel, "serial", h->serial, s);
		field(rel, "firmware", h->firmware, f);
	}
	/* smartctl's table: "  9 Power_On_Hours 0x0032 098 098 000 Old_age Always - 1463" */
	p = strstr((char *)buf, "ID# ATTRIBUTE_NAME");
	for (p = p ? strchr(p, '\n') : NULL; p && *++p; p = strchr(p, '\n')) {
		unsigned id, flags, val, worst, thr;
		char raw[64];
		const ww_ata_attr_t *a;

		if (sscanf(p, "%u %31s 0x%x %u %u %u %*s %*s %*s %63[^\n]",
			   &id, fname, &flags, &val, &worst, &thr, raw) != 7)
			break;
		a = ww_ata_find_attr(h, (uint8_t)id);
		snprintf(line, sizeof(line), "#%u value/worst/thresh", id);
		snprintf(w, sizeof(w), "%u/%u/%u", val, worst, thr);
		if (a)
			snprintf(g, sizeof(g), "%u/%u/%u", a->value, a->worst, a->threshold);
		field(rel, line, a ? g : "absent", w);
		snprintf(line, sizeof(line), "#%u raw", id);
		snprintf(w, sizeof(w), "%llu", strtoull(raw, NULL, 10));
		if (id == 194 || id == 190)
			field_i(rel, line, &h->temperature_celsius, w);
		else if (a)
			field(rel, line, (snprintf(g, sizeof(g), "%llu",
						   (unsigned long long)a->raw), g), w);
		if (id == 9)
			field(rel, "POH", (snprintf(g, sizeof(g), "%llu",
				(unsigned long long)h->power_on_seconds.value / 3600), g), w);
		if (id == 12)
			field_u(rel, "power cycles", &h->power_cycles, w);
	}
out:
	free(buf);
	free(h);
}

static void check_sas(const char *dir, const char *file, bool temp_page)
{
	char rel[512], *c;
	unsigned char *buf, page[512];
	size_t len, n;
	ww_health_t *h = calloc(1, sizeof(*h));
	char w[64];
	const char *p;

	snprintf(rel, sizeof(rel), "libscsicmd-afl/%s", file);
	buf = ww_read_file(dir, rel, &len);
	if (!buf || !h || !(c = strrchr((char *)buf, ','))) {
		CHECK(!"LOG SENSE fixture unreadable");
		goto out;
	}
	n = ww_hex_to_bytes(c + 1, page, sizeof(page));
	CHECK(ww_decode_scsi_log_page(page, n, h) == 0);
	cur->drives++;
	if (temp_page) {
		p = strstr(sources_md, "**Current temperature = ");
		if (p && sscanf(p, "**Current temperature = %63[0-9]", w) == 1)
			field_i(rel, "temperature", &h->scsi.temperature_celsius, w);
		p = p ? strstr(p, "Reference temperature = ") : NULL;
		if (p && sscanf(p, "Reference temperature = %63[0-9]", w) == 1)
			field_i(rel, "reference temperature",
				&h->scsi.reference_temperature_celsius, w);
	} else {
		p = strstr(sources_md, "**Total bytes processed = ");
		if (p && sscanf(p, "**Total bytes processed = %63[0-9]", w) == 1)
			field_u(rel, "bytes processed", &h->scsi.write_errors.bytes_processed, w);
		p = strstr(sources_md, "Total errors corrected = ");
		if (p && sscanf(p, "Total errors corrected = %63[0-9]", w) == 1)
			field_u(rel, "total errors corrected",
				&h->scsi.write_errors.corrected_total, w);
		p = strstr(sources_md, "Total uncorrected errors = ");
		if (p && sscanf(p, "Total uncorrected errors = %63[0-9]", w) == 1)
			field_u(rel, "uncorrected errors", &h->scsi.write_errors.uncorrected, w);
	}
out:
	free(buf);
	free(h);
}

static void check_fwupd(const char *dir)
{
	const char *rel = "fwupd/TOSHIBA_THNSN5512GPU7.bin";
	unsigned char *buf;
	size_t len;
	ww_health_t *h = calloc(1, sizeof(*h));
	char mn[64] = "", fr[64] = "", w[16], w2[16];
	const char *p;

	buf = ww_read_file(dir, rel, &len);
	if (!buf || !h) {
		CHECK(buf != NULL);
		goto out;
	}
	CHECK(ww_decode_nvme_id_ctrl(buf, len, h) == 0);
	cur->drives++;
	p = strstr(sources_md, "MN `");
	if (p && sscanf(p, "MN `%63[^`]`", mn) == 1)
		field(rel, "model", h->model, mn);
	p = strstr(sources_md, "FR `");
	if (p && sscanf(p, "FR `%63[^`]`", fr) == 1)
		field(rel, "firmware", h->firmware, fr);
	p = strstr(sources_md, "**WCTEMP 351 K (");
	if (p && sscanf(p, "**WCTEMP %*u K (%15[0-9] °C), CCTEMP %*u K (%15[0-9]", w, w2) == 2) {
		field_i(rel, "warning temperature", &h->temperature_warning_celsius, w);
		field_i(rel, "critical temperature", &h->temperature_critical_celsius, w2);
	}
out:
	free(buf);
	free(h);
}

int main(int argc, char **argv)
{
	const char *dir = ww_fixtures_dir();
	const char *md = argc > 2 && !strcmp(argv[1], "--markdown") ? argv[2] : NULL;
	unsigned d = 0, f = 0, m = 0, l = 0, x = 0;
	struct dirent **ents;
	size_t len;
	int n;

	sources_md = (char *)ww_read_file(dir, "SOURCES.md", &len);
	if (!sources_md)
		return 1;
	cur = &groups[0];
	walk_json(dir, "scrutiny");
	walk_json(dir, "scrutiny-starosdev");
	walk_json(dir, "smartctl_exporter");

	cur = &groups[1];
	{
		char p[4096];

		snprintf(p, sizeof(p), "%s/libatasmart-blobs", dir);
		n = scandir(p, &ents, NULL, alphasort);
		for (int i = 0; i < n; i++) {
			if (strstr(ents[i]->d_name, "--"))
				check_blob(dir, ents[i]->d_name);
			free(ents[i]);
		}
		if (n >= 0)
			free(ents);
	}
	cur = &groups[2];
	check_trace(dir);
	cur = &groups[3];
	check_sas(dir, "log_sense_e987c846782a969f2786eb64e5ce751f10b2161b.csv", false);
	check_sas(dir, "log_sense_eaf8bc4deb09eadd1c294aa94b1b32d246bc2268.csv", true);
	cur = &groups[4];
	check_fwupd(dir);

	for (int i = 0; i < 5; i++) {
		d += groups[i].drives;
		f += groups[i].fields;
		m += groups[i].matches;
		l += groups[i].listed;
		x += groups[i].failed;
	}
	printf("conformance: %u drives, %u fields, %u match, %u listed (source wrong or known gap), %u mismatched\n",
	       d, f, m, l, x);
	if (md && (md_listed = fopen(md, "w"))) {
		fprintf(md_listed, "| source | drives | fields | match | listed | mismatched |\n|---|---|---|---|---|---|\n");
		for (int i = 0; i < 5; i++)
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
	free(sources_md);
	return ww_test_done("test_decode_conformance");
}
