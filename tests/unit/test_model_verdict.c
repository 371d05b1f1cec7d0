/* The health verdict (src/model/verdict*.c) on records built from the specs,
 * for the rows of docs/health.md's scenario table whose input is this test
 * (states no capture can replay: hung, missing, no interface, failing reads;
 * ATA Device Statistics, 187/10/196, critical_attributes, ignore_attributes,
 * silence, temperature override), the increase window, the order of reasons,
 * the [health] keys of wearwatch.conf, and docs/health.md and
 * wearwatch.conf(5) against the reason table and the keys.
 *
 * Records are spec-constructed: field values as the decoders fill them
 * (ATA attribute ids and raw counts as SMART READ DATA carries them, the
 * normalised percentage used as ATA Device Statistics page 7 offset 8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ww_test.h"
#include "wearwatch/conf.h"
#include "wearwatch/decode.h"
#include "wearwatch/model.h"

#define T0 ((time_t)1700000000)

static ww_health_t h;
static ww_verdict_t v;

static void ata_record(void)
{
	memset(&h, 0, sizeof(h));
	h.protocol = WW_PROTO_ATA;
	h.ata.smart_supported = h.ata.smart_enabled = true;
	h.smart_status = WW_SMART_PASSED;
	h.smart_status_source = "ATA SMART RETURN STATUS";
}

static ww_ata_attr_t *attr(uint8_t id, uint16_t flags, uint64_t raw, bool counted)
{
	ww_ata_attr_t *a = &h.ata.attrs[h.ata.n_attrs++];

	a->id = id;
	a->name = ww_ata_attr_name(id);
	a->flags = flags;
	a->value = a->worst = 100;
	a->raw = raw;
	a->has_count = counted;
	a->count = counted ? raw : 0;
	return a;
}

static ww_status_t judge(const ww_health_cfg_t *cfg, const ww_vmemory_t *mem, time_t now)
{
	ww_verdict_in_t in = { .h = &h, .cfg = cfg, .mem = mem, .protocol = h.protocol,
			       .present = true, .values_time = now };

	ww_verdict(&in, now, &v);
	return v.status;
}

static const ww_vreason_t *reason(ww_reason_t code, unsigned item)
{
	for (size_t i = 0; i < v.n; i++)
		if (v.r[i].code == code && (!item || v.r[i].item == item))
			return &v.r[i];
	return NULL;
}

static void test_state(void)
{
	ww_verdict_in_t in = { .protocol = WW_PROTO_ATA, .present = true };

	/* never read: not yet, then every read failing (-EIO) */
	ww_verdict(&in, T0, &v);
	CHECK(v.status == WW_STATUS_UNKNOWN && v.n == 1 && v.r[0].code == WW_R_NEVER_READ);
	CHECK_STR(v.r[0].text, "not read yet");
	in.last_failed = true;
	in.last_rc = -5;
	ww_verdict(&in, T0, &v);
	CHECK_STR(v.r[0].text, "not read: every read so far failed (Input/output error)");
	/* no health interface: discovery's words */
	in = (ww_verdict_in_t){ .protocol = WW_PROTO_NONE, .present = true,
				.no_health_reason = "virtio-blk has no health interface" };
	ww_verdict(&in, T0, &v);
	CHECK(v.status == WW_STATUS_UNKNOWN && v.r[0].code == WW_R_NO_HEALTH_INTERFACE);
	CHECK_STR(v.r[0].text, "not monitored: virtio-blk has no health interface");
	/* in standby, never read: since when the service found it, or, for a
	 * drive from a capture (which records no time), when captured */
	in = (ww_verdict_in_t){ .protocol = WW_PROTO_ATA, .present = true, .standby = true,
				.standby_since = T0 - 120 };
	ww_verdict(&in, T0, &v);
	CHECK(v.status == WW_STATUS_UNKNOWN && v.r[0].code == WW_R_STANDBY_NEVER_READ);
	CHECK_STR(v.r[0].text, "not read: in standby since 2023-11-14 22:11:20Z, with no values "
		  "read before (a drive in standby is not woken)");
	in.captured = true;
	in.standby_since = 0;
	ww_verdict(&in, T0, &v);
	CHECK_STR(v.r[0].text, "not read: in standby when captured, with no values read before (a "
		  "drive in standby is not woken)");
	/* silenced, the reason goes, the drive stays unknown (never ok) */
	{
		ww_health_cfg_t cfg;

		ww_health_cfg_defaults(&cfg);
		cfg.silenced = 1ull << WW_R_STANDBY_NEVER_READ;
		in.cfg = &cfg;
		ww_verdict(&in, T0, &v);
		CHECK(v.status == WW_STATUS_UNKNOWN && v.n == 0 &&
		      v.silenced == 1ull << WW_R_STANDBY_NEVER_READ);
		in.cfg = NULL;
	}
	/* hung: a warning on top of what the values say (a failing attribute) */
	ata_record();
	attr(5, 0x0033, 0, true)->value = 10;
	h.ata.attrs[0].threshold = 36;
	h.ata.attrs[0].has_threshold = true;
	in = (ww_verdict_in_t){ .h = &h, .protocol = WW_PROTO_ATA, .present = true, .hung = true,
				.hung_since = T0 - 45, .values_time = T0 - 60 };
	ww_verdict(&in, T0, &v);
	CHECK(v.status == WW_STATUS_CRITICAL && v.n == 2);
	CHECK(v.r[0].code == WW_R_ATA_PREFAIL && v.r[1].code == WW_R_HUNG); /* most severe first */
	CHECK(strstr(v.r[1].text, "(45 s)") != NULL);
	/* missing: only that, whatever the old values said */
	in.hung = false;
	in.present = false;
	in.missing_since = T0 - 120;
	ww_verdict(&in, T0, &v);
	CHECK(v.status == WW_STATUS_CRITICAL && v.n == 1 && v.r[0].code == WW_R_MISSING);
	CHECK_STR(v.r[0].text, "no longer listed by discovery since 2023-11-14 22:11:20Z");
	/* reads failing: only once the values are older than read_failing_after */
	h.ata.attrs[0].value = 100;
	in.present = true;
	in.last_failed = true;
	in.last_rc = -110;
	in.values_time = T0 - 3599;
	ww_verdict(&in, T0, &v);
	CHECK(v.status == WW_STATUS_OK);
	in.values_time = T0 - 3600;
	ww_verdict(&in, T0, &v);
	CHECK(v.status == WW_STATUS_WARNING && v.r[0].code == WW_R_READ_FAILING);
	CHECK(strstr(v.r[0].text, "Connection timed out") != NULL);
}

static void test_ata(void)
{
	ww_health_cfg_t cfg;

	/* ATA Device Statistics page 7 offset 8: percentage used 85 */
	ata_record();
	attr(9, 0x0032, 1000, false);
	WW_SET(h.endurance_used_percent, 85, "ATA Device Statistics page 7 offset 0x08");
	CHECK(judge(NULL, NULL, T0) == WW_STATUS_WARNING && reason(WW_R_PCT_USED_HIGH, 0));
	CHECK_STR(v.r[0].source, "ATA Device Statistics page 7 offset 0x08");
	/* 187, 10, 196 counts; a raw value that is no count raises nothing */
	ata_record();
	attr(187, 0x0032, 2, true);
	attr(10, 0x0013, 1, true);
	attr(196, 0x0032, 4, true);
	attr(188, 0x0032, 0x000100010001ull, false); /* Seagate: three counters */
	attr(1, 0x000f, 0x0000053a9dd0ull, false);
	CHECK(judge(NULL, NULL, T0) == WW_STATUS_WARNING && v.n == 3);
	CHECK(reason(WW_R_REPORTED_UNC, 187) && reason(WW_R_SPIN_RETRY, 10) &&
	      reason(WW_R_REALLOC_EVENTS, 196));
	CHECK_STR(
		reason(WW_R_REPORTED_UNC, 187)->text,
		"attribute 187 Reported_Uncorrect: 2 reported uncorrectable errors (warning level "
		"1; critical from 35)");
	CHECK_EQ_I64(reason(WW_R_REPORTED_UNC, 187)->value, 2);
	CHECK_EQ_I64(reason(WW_R_REPORTED_UNC, 187)->limit, 1);
	CHECK_STR(reason(WW_R_REPORTED_UNC, 187)->unit, "errors");
	/* critical_attributes (smartd -C 197 -U 199 in spirit): 197 critical,
	 * 199 read as raw48 because the administrator says it is a count;
	 * ignore_attributes drops 5 even below its threshold */
	ata_record();
	attr(197, 0x0032, 8, true);
	attr(199, 0x003e, 12, false);
	attr(5, 0x0033, 0, true)->value = 1;
	h.ata.attrs[2].threshold = 36;
	h.ata.attrs[2].has_threshold = true;
	ww_health_cfg_defaults(&cfg);
	cfg.critical_attrs[197 / 8] |= 1u << (197 % 8);
	cfg.critical_attrs[199 / 8] |= 1u << (199 % 8);
	cfg.ignore_attrs[5 / 8] |= 1u << (5 % 8);
	CHECK(judge(&cfg, NULL, T0) == WW_STATUS_CRITICAL && v.n == 2);
	CHECK(reason(WW_R_PENDING, 197) && reason(WW_R_PENDING, 197)->severity == WW_STATUS_CRITICAL);
	CHECK(reason(WW_R_ATTR_COUNT, 199) && strstr(reason(WW_R_ATTR_COUNT, 199)->text, ": 12 (raw count)"));
	CHECK(!reason(WW_R_ATA_PREFAIL, 5));
	/* without the configuration: 197 a warning, 199 and the threshold as usual */
	CHECK(judge(NULL, NULL, T0) == WW_STATUS_CRITICAL && reason(WW_R_ATA_PREFAIL, 5) &&
	      reason(WW_R_PENDING, 197)->severity == WW_STATUS_WARNING && !reason(WW_R_ATTR_COUNT, 199));
}

/* Levels: a count's size sets its severity (defaults: docs/health.md
 * "Levels"), at the edges; 10 has none; a rise stays a warning of its own */
static void test_levels(void)
{
	static const struct {
		uint8_t id;
		ww_reason_t code;
		uint64_t warn, crit; /* first count of each severity; 0 = none */
	} rows[] = {
		{ 5, WW_R_REALLOCATED, 1, 1100 },    { 187, WW_R_REPORTED_UNC, 1, 35 },
		{ 188, WW_R_COMMAND_TIMEOUT, 1, 0 }, { 196, WW_R_REALLOC_EVENTS, 1, 0 },
		{ 197, WW_R_PENDING, 1, 40 },        { 198, WW_R_OFFLINE_UNC, 1, 2 },
		{ 10, WW_R_SPIN_RETRY, 1, 0 },
	};
	static ww_vmemory_t mem;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		ata_record();
		attr(rows[i].id, 0x0032, 0, true);
		CHECK(judge(NULL, NULL, T0) == WW_STATUS_OK);
		h.ata.attrs[0].count = rows[i].warn;
		CHECK(judge(NULL, NULL, T0) == WW_STATUS_WARNING &&
		      reason(rows[i].code, rows[i].id));
		if (rows[i].crit) {
			h.ata.attrs[0].count = rows[i].crit - 1;
			CHECK(judge(NULL, NULL, T0) == WW_STATUS_WARNING);
			h.ata.attrs[0].count = rows[i].crit;
			CHECK(judge(NULL, NULL, T0) == WW_STATUS_CRITICAL);
			CHECK_EQ_I64(v.r[0].limit, (int64_t)rows[i].crit);
		}
		h.ata.attrs[0].count = 282000000;
		CHECK(judge(NULL, NULL, T0) ==
		      (rows[i].crit ? WW_STATUS_CRITICAL : WW_STATUS_WARNING));
	}
	/* 188 without a count format (Seagate raw16) is no count */
	ata_record();
	attr(188, 0x0032, 0x000100010001ull, false);
	CHECK(judge(NULL, NULL, T0) == WW_STATUS_OK);
	h.ata.attrs[0].raw_is_count = h.ata.attrs[0].default_meaning = true;
	h.ata.attrs[0].count = 3;
	CHECK(judge(NULL, NULL, T0) == WW_STATUS_WARNING && reason(WW_R_COMMAND_TIMEOUT, 188));
	/* a critical pending count that rose: both reasons */
	ata_record();
	attr(197, 0x0032, 40, true);
	memset(&mem, 0, sizeof(mem));
	ww_verdict_remember(&mem, &h, T0, 86400);
	h.ata.attrs[0].count = 41;
	ww_verdict_remember(&mem, &h, T0 + 60, 86400);
	CHECK(judge(NULL, &mem, T0 + 120) == WW_STATUS_CRITICAL && v.n == 2);
	CHECK(reason(WW_R_PENDING, 197)->severity == WW_STATUS_CRITICAL &&
	      reason(WW_R_PENDING_INC, 197)->severity == WW_STATUS_WARNING);
	/* an ATA threshold of 0 never fails, whatever the value */
	ata_record();
	attr(9, 0x0033, 100, false)->value = 0;
	h.ata.attrs[0].has_threshold = true;
	CHECK(judge(NULL, NULL, T0) == WW_STATUS_OK);
	/* SCSI: a reference temperature of 0 is no limit; a grown defect
	 * list that grew is a reason besides its level */
	memset(&h, 0, sizeof(h));
	h.protocol = WW_PROTO_SCSI;
	WW_SET(h.temperature_celsius, 38, "SCSI log page 0x0D param 0");
	WW_SET(h.temperature_reference_celsius, 0, "SCSI log page 0x0D param 1");
	WW_SET(h.scsi.grown_defects, 0, "READ DEFECT DATA");
	CHECK(judge(NULL, NULL, T0) == WW_STATUS_OK);
	memset(&mem, 0, sizeof(mem));
	ww_verdict_remember(&mem, &h, T0, 86400);
	h.scsi.grown_defects.value = 1100;
	ww_verdict_remember(&mem, &h, T0 + 60, 86400);
	CHECK(judge(NULL, &mem, T0 + 120) == WW_STATUS_CRITICAL);
	CHECK(reason(WW_R_GROWN_DEFECTS, 0) && reason(WW_R_GROWN_DEFECTS_INC, 0));
	CHECK_EQ_I64(reason(WW_R_GROWN_DEFECTS_INC, 0)->previous, 0);
}

static void test_increase_window(void)
{
	static ww_vmemory_t mem;
	const ww_vreason_t *r;

	ata_record();
	attr(197, 0x0032, 8, true);
	ww_verdict_remember(&mem, &h, T0, 86400);
	CHECK(judge(NULL, &mem, T0) == WW_STATUS_WARNING && !reason(WW_R_PENDING_INC, 0));
	h.ata.attrs[0].count = 10;
	ww_verdict_remember(&mem, &h, T0 + 3600, 86400);
	h.ata.attrs[0].count = 12;
	ww_verdict_remember(&mem, &h, T0 + 7200, 86400);
	judge(NULL, &mem, T0 + 7300);
	r = reason(WW_R_PENDING_INC, 197);
	CHECK(r != NULL);
	if (r) /* both rises of the window in one sentence */
		CHECK_STR(r->text,
			  "attribute 197 Current_Pending_Sector: 12 current pending "
			  "sectors, up from 8 (+4), latest rise at 2023-11-15 00:13:20Z");
	if (r)
		CHECK(r->has == (WW_VN_VALUE | WW_VN_PREVIOUS) && r->value == 12 &&
		      r->previous == 8);
	/* a day after the latest rise it clears; the count stays a reason */
	judge(NULL, &mem, T0 + 7200 + 86400);
	CHECK(!reason(WW_R_PENDING_INC, 0) && reason(WW_R_PENDING, 197));
	/* a counter that went down (reset, another drive) starts over */
	h.ata.attrs[0].count = 3;
	ww_verdict_remember(&mem, &h, T0 + 90000, 86400);
	judge(NULL, &mem, T0 + 90001);
	CHECK(!reason(WW_R_PENDING_INC, 0));
}

static void test_config(void)
{
	ww_health_cfg_t cfg;

	memset(&h, 0, sizeof(h));
	h.protocol = WW_PROTO_NVME;
	h.has_nvme_smart = true;
	WW_SET(h.critical_warning, 0, "NVMe SMART/Health log 02h byte 0");
	WW_SET(h.temperature_celsius, 60, "NVMe SMART/Health log 02h bytes 1-2");
	WW_SET(h.temperature_warning_celsius, 70, "NVMe Identify Controller WCTEMP");
	CHECK(judge(NULL, NULL, T0) == WW_STATUS_OK);
	ww_health_cfg_defaults(&cfg);
	cfg.has_temp_warning = true;
	cfg.temp_warning_celsius = 55;
	CHECK(judge(&cfg, NULL, T0) == WW_STATUS_WARNING);
	CHECK_STR(v.r[0].text, "temperature 60 °C at or above its warning limit 55 °C (configured)");
	cfg.silenced = 1ull << WW_R_TEMP_WARNING;
	CHECK(judge(&cfg, NULL, T0) == WW_STATUS_OK && v.n == 0 && v.silenced == cfg.silenced);
}

static void test_conf_keys(void)
{
	static ww_conf_t c;
	char err[512];
	ww_health_cfg_t eff;

	ww_conf_free(&c); /* its lists, before they are reset */
	ww_conf_defaults(&c);
	CHECK_EQ_I64(ww_conf_load_string(&c, "[health]\ntemperature_warning = 50\n"
					 "ignore_attributes = 1, 7 195\nsilence = spin_retry\n"
					 "[drive sdb]\npercentage_used_warning = 70\n"
					 "ignore_attributes =\n", "t.conf", err, sizeof(err)), 0);
	eff = c.health;
	ww_conf_health_overlay(&eff, &c.drives[0].health);
	CHECK(eff.has_temp_warning && eff.temp_warning_celsius == 50);
	CHECK_EQ_U64(eff.pct_used_warning, 70);
	CHECK(!ww_attr_in(eff.ignore_attrs, 7));   /* the drive's (empty) list replaces it */
	CHECK(ww_attr_in(c.health.ignore_attrs, 195));
	CHECK_EQ_U64(eff.silenced, 1ull << WW_R_SPIN_RETRY);
	ww_conf_free(&c); /* its lists, before they are reset */
	ww_conf_defaults(&c);
	CHECK(ww_conf_load_string(&c, "[health]\n\ntemperature_warning = hot\n", "t.conf", err,
				  sizeof(err)) == -22);
	CHECK_STR(err, "t.conf:3: temperature_warning: expected degrees Celsius, -40 to 200, got 'hot'");
	ww_conf_free(&c); /* its lists, before they are reset */
	ww_conf_defaults(&c);
	ww_conf_load_string(&c, "[drive sda]\nsilence = drive_missing, nope\n", "t.conf", err,
			    sizeof(err));
	CHECK_STR(err, "t.conf:2: silence: expected reason codes separated by commas "
		       "(docs/health.md); 'nope' is not one");
	ww_conf_free(&c); /* its lists, before they are reset */
	ww_conf_defaults(&c);
	ww_conf_load_string(&c, "[health]\nnot_a_key = 1\n", "t.conf", err, sizeof(err));
	CHECK_STR(err, "t.conf:2: unknown key 'not_a_key' in [health]");
	ww_conf_free(&c); /* its lists, before they are reset */
	ww_conf_defaults(&c);
	CHECK_EQ_I64(ww_conf_load_string(&c,
					 "[health]\npending_sectors_critical = 100\n"
					 "[drive sdc]\npending_sectors_warning = 8\n"
					 "media_errors_critical = 0\n",
					 "t.conf", err, sizeof(err)),
		     0);
	eff = c.health;
	ww_conf_health_overlay(&eff, &c.drives[0].health);
	CHECK_EQ_U64(eff.level[WW_LV_PENDING].warning, 8);
	CHECK_EQ_U64(eff.level[WW_LV_PENDING].critical, 100);
	CHECK_EQ_U64(eff.level[WW_LV_MEDIA_ERRORS].critical, 0);
	CHECK_EQ_U64(eff.level[WW_LV_REALLOCATED].critical, 1100);
	ww_conf_free(&c); /* its lists, before they are reset */
	ww_conf_defaults(&c);
	ww_conf_load_string(&c, "[health]\npending_sectors_warning = 50\n", "t.conf", err,
			    sizeof(err));
	CHECK(strstr(err, "pending_sectors_warning 50 is above pending_sectors_critical 40") !=
	      NULL);
	ww_conf_free(&c); /* its lists, before they are reset */
	ww_conf_defaults(&c);
	ww_conf_load_string(&c, "[health]\ngrown_defects_warning = 0\n", "t.conf", err,
			    sizeof(err));
	CHECK_STR(err,
		  "t.conf:2: grown_defects_warning: expected a count, 1 to 2000000000, got '0'");
	ww_conf_free(&c); /* its lists, before they are reset */
	ww_conf_defaults(&c);
	ww_conf_load_string(&c, "[health]\ncritical_attributes = 5 300\n", "t.conf", err, sizeof(err));
	CHECK(strstr(err, "t.conf:2: critical_attributes: expected ATA attribute ids 1-255") != NULL);
}

static char *slurp(const char *rel)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char path[1024];
	size_t n = 0;
	char *buf = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", src ? src : ".", rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	buf = calloc(1, 1 << 20);
	if (buf)
		n = fread(buf, 1, (1 << 20) - 1, f);
	fclose(f);
	(void)n;
	return buf;
}

/* docs/health.md lists every reason with its severity, and wearwatch.conf(5)
 * and docs/health.md every health key */
static void test_docs(void)
{
	char *doc = slurp("docs/health.md"), *man = slurp("man/wearwatch.conf.5"), row[160];
	const char *k;

	CHECK(doc != NULL && man != NULL);
	if (!doc || !man)
		goto out;
	for (int r = 0; r < WW_R_MAX; r++) {
		snprintf(row, sizeof(row), "| `%s` | %s |", ww_reasons[r].code,
			 ww_status_name(ww_reasons[r].severity));
		if (!strstr(doc, row))
			fprintf(stderr, "docs/health.md lacks the row %s\n", row);
		CHECK(strstr(doc, row) != NULL);
	}
	for (size_t i = 0; (k = ww_conf_health_key_name(i)); i++) {
		snprintf(row, sizeof(row), "| `%s` |", k);
		CHECK(strstr(doc, row) != NULL);
		snprintf(row, sizeof(row), ".B %s", k);
		if (!strstr(man, row))
			fprintf(stderr, "wearwatch.conf(5) lacks %s\n", k);
		CHECK(strstr(man, row) != NULL);
	}
out:
	free(doc);
	free(man);
}

/* Past its rating: the sentence names a table row by FILE:LINE; the row's
 * whole citation (250 characters of title and address) cut the sentence
 * off mid-word before. Figures spec-constructed: 135.8 % of 1 PB. */
static void test_rated_sentence(void)
{
	static ww_endurance_t e;
	ww_verdict_in_t in;
	const ww_vreason_t *r;

	ata_record();
	WW_SET(h.host_written_bytes, 1358000000000000ull,
	       "ATA Device Statistics page 1 offset 0x18");
	memset(&e, 0, sizeof(e));
	e.has_rated_used = true;
	e.rated_used_ratio = 1.358;
	e.rated_bytes = 1000000000000000ull;
	e.rating_source = WW_RATING_TABLE;
	memset(e.rating_note, 'x', sizeof(e.rating_note) - 1);
	snprintf(e.rating_ref, sizeof(e.rating_ref), "built-in:oem-relabel.tsv:7");
	in = (ww_verdict_in_t){
		.h = &h, .e = &e, .protocol = h.protocol, .present = true, .values_time = T0
	};
	ww_verdict(&in, T0, &v);
	r = reason(WW_R_RATED_EXHAUSTED, 0);
	CHECK(r != NULL);
	if (r) {
		CHECK(strstr(r->text, " % of the rated ") != NULL);
		CHECK(strlen(r->text) > strlen("(rating: built-in:oem-relabel.tsv:7)"));
		CHECK_STR(r->text + strlen(r->text) -
				  strlen("(rating: built-in:oem-relabel.tsv:7)"),
			  "(rating: built-in:oem-relabel.tsv:7)");
	}
	/* no row (an override): the source's words, as before */
	e.rating_ref[0] = 0;
	snprintf(e.rating_note, sizeof(e.rating_note), "--rating 1PB:5");
	ww_verdict(&in, T0, &v);
	r = reason(WW_R_RATED_EXHAUSTED, 0);
	CHECK(r && strstr(r->text, "(rating: --rating 1PB:5)") != NULL);
}

/* An NVMe answering random bytes (the SMART log all 0xFF but critical
 * warning 0, spare 29 %, threshold 239 %, as seen from a misbehaving drive): the decoder leaves 10
 * values out (threshold, composite and 8 sensors above 490 K); the verdict
 * says so instead of judging them (no "spare below threshold", no 65262 °C) */
static void test_implausible(void)
{
	static uint8_t b[512];
	const ww_vreason_t *r;

	memset(&h, 0, sizeof(h));
	memset(b, 0xff, sizeof(b));
	b[0] = 0; /* critical warning clear: its bits are the drive's own word */
	b[3] = 29;
	b[4] = 239;
	h.protocol = WW_PROTO_NVME;
	CHECK_EQ_I64(ww_decode_nvme_smart_log(b, sizeof(b), &h), 0);
	CHECK_EQ_U64(h.implausible_values, 10);
	judge(NULL, NULL, T0);
	r = reason(WW_R_IMPLAUSIBLE, 0);
	CHECK(r != NULL && r->severity == WW_STATUS_WARNING);
	if (r) {
		CHECK_STR(r->text,
			  "10 values outside what the spec allows left out: the drive may "
			  "be answering garbage");
		CHECK_EQ_U64(r->value, 10);
	}
	CHECK(reason(WW_R_SPARE_LOW, 0) == NULL);
	CHECK(reason(WW_R_TEMP_WARNING, 0) == NULL && reason(WW_R_TEMP_CRITICAL, 0) == NULL);
	/* a sound page: no such reason */
	memset(&h, 0, sizeof(h));
	memset(b, 0, sizeof(b));
	b[1] = 0x2c; /* 300 K */
	b[2] = 0x01;
	b[3] = 100;
	b[4] = 10;
	h.protocol = WW_PROTO_NVME;
	CHECK_EQ_I64(ww_decode_nvme_smart_log(b, sizeof(b), &h), 0);
	judge(NULL, NULL, T0);
	CHECK(reason(WW_R_IMPLAUSIBLE, 0) == NULL);
}

int main(void)
{
	CHECK(!strcmp(ww_status_name(WW_STATUS_UNKNOWN), "unknown") && WW_STATUS_UNKNOWN == 3);
	CHECK(ww_status_rank(WW_STATUS_UNKNOWN) < ww_status_rank(WW_STATUS_WARNING));
	for (int r = 0; r < WW_R_MAX; r++)
		CHECK(ww_reason_by_name(ww_reason_name(r)) == r);
	test_state();
	test_ata();
	test_rated_sentence();
	test_implausible();
	test_levels();
	test_increase_window();
	test_config();
	test_conf_keys();
	test_docs();
	return ww_test_done("test_model_verdict");
}
