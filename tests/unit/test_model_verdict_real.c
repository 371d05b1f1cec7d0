/* The health verdict (src/model/verdict*.c) on real drives: smartctl JSON of
 * ../shared/fixtures (SOURCES.md) read with the smartctl backend's parser, as
 * `wearwatch decode` reads them, then judged with the default levels. What
 * no fixture has is a one-field edit of a healthy real record (a grown
 * defect count, a trip temperature of 0, a failed self-test), named where it
 * is made. Skips (77) without the fixtures. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "ww_test.h"
#include "wearwatch/collect.h"
#include "wearwatch/conf.h"
#include "wearwatch/expo.h"
#include "wearwatch/model.h"

#define T0 ((time_t)1700000000)

static const char *dir;
static ww_health_t h;
static ww_verdict_t v;

static bool load(const char *rel)
{
	size_t len;
	unsigned char *buf = ww_read_file(dir, rel, &len);
	int rc;

	memset(&h, 0, sizeof(h));
	if (!buf) {
		CHECK(buf != NULL);
		return false;
	}
	rc = ww_smartctl_parse((char *)buf, len, &h, NULL);
	free(buf);
	CHECK_EQ_I64(rc, 0);
	return rc == 0;
}

static ww_status_t judge(const ww_health_cfg_t *cfg)
{
	ww_verdict_in_t in = { .h = &h, .cfg = cfg, .protocol = h.protocol, .present = true };

	ww_verdict(&in, T0, &v);
	return v.status;
}

static const ww_vreason_t *reason(ww_reason_t code)
{
	for (size_t i = 0; i < v.n; i++)
		if (v.r[i].code == code)
			return &v.r[i];
	return NULL;
}

static ww_ata_attr_t *attr(unsigned id)
{
	for (size_t i = 0; i < h.ata.n_attrs; i++)
		if (h.ata.attrs[i].id == id)
			return &h.ata.attrs[i];
	return NULL;
}

/* reason code has severity sev and figures value (and limit, when >= 0) */
static void want(ww_reason_t code, ww_status_t sev, int64_t value, int64_t lim)
{
	const ww_vreason_t *r = reason(code);

	CHECK(r != NULL);
	if (!r) {
		fprintf(stderr, "  no %s\n", ww_reason_name(code));
		return;
	}
	CHECK_STR(ww_status_name(r->severity), ww_status_name(sev));
	CHECK(r->has & WW_VN_VALUE);
	CHECK_EQ_I64(r->value, value);
	if (lim >= 0)
		CHECK_EQ_I64(r->limit, lim);
}

/* Seagate ST373453LC, 102880 h: 260 grown defects, 535 uncorrected write
 * errors and 1 read error, all stable: critical from the first read */
static void test_sas(void)
{
	json_object *o;
	const char *js;

	if (!load("smartctl_exporter/SEAGATE_ST373453LC_26.json"))
		return;
	CHECK(judge(NULL) == WW_STATUS_CRITICAL);
	want(WW_R_GROWN_DEFECTS, WW_STATUS_WARNING, 260, 1);
	want(WW_R_SCSI_UNC_WRITE, WW_STATUS_CRITICAL, 535, 35);
	want(WW_R_SCSI_UNC_READ, WW_STATUS_WARNING, 1, 1);
	CHECK(!reason(WW_R_TEMP_WARNING)); /* 33 °C, trip 68 °C */
	CHECK_STR(reason(WW_R_SCSI_UNC_WRITE)->text,
		  "535 total uncorrected write errors (critical level 35)");
	/* the JSON verdict carries the figures */
	o = ww_json_verdict_object(&v);
	js = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	CHECK(strstr(js,
		     "\"code\":\"uncorrected_write_errors\","
		     "\"severity\":\"critical\"") != NULL);
	CHECK(strstr(js, "\"value\":535,\"limit\":35,\"unit\":\"errors\"") != NULL);
	json_object_put(o);

	/* the healthy unit of the same model: ok; with 37 grown defects a
	 * warning; a trip temperature of 0 (not reported) is no limit */
	if (!load("smartctl_exporter/SEAGATE_ST373453LC_27.json"))
		return;
	CHECK(judge(NULL) == WW_STATUS_OK && v.n == 0);
	CHECK(WW_HAS(h.temperature_reference_celsius));
	h.temperature_reference_celsius.value = 0; /* edit: trip 0 */
	CHECK(judge(NULL) == WW_STATUS_OK);
	WW_SET(h.scsi.grown_defects, 37, "edit: grown defects 37"); /* edit */
	CHECK(judge(NULL) == WW_STATUS_WARNING && v.n == 1);
	want(WW_R_GROWN_DEFECTS, WW_STATUS_WARNING, 37, 1);
	CHECK_STR(v.r[0].text,
		  "37 grown defect list entries (warning level 1; critical from 1100)");
}

/* Samsung 970 EVO with 7 media errors; a healthy Intel P4510 edited to 5
 * and to 2^32 (what a real log page held) */
static void test_nvme(void)
{
	if (!load("scrutiny/smart-nvme-failed.json"))
		return;
	CHECK(judge(NULL) == WW_STATUS_WARNING);
	want(WW_R_MEDIA_ERRORS, WW_STATUS_WARNING, 7, 1);
	if (!load("smartctl_exporter/INTEL_SSDPE2KX080T8_6.json"))
		return;
	CHECK(judge(NULL) == WW_STATUS_OK);
	h.media_errors.value = 5; /* edit */
	CHECK(judge(NULL) == WW_STATUS_WARNING);
	want(WW_R_MEDIA_ERRORS, WW_STATUS_WARNING, 5, 1);
	h.media_errors.value = 4294967296ull; /* edit */
	CHECK(judge(NULL) == WW_STATUS_CRITICAL);
	want(WW_R_MEDIA_ERRORS, WW_STATUS_CRITICAL, 4294967296ll, 35);
	/* a WCTEMP of 0 is no limit */
	h.media_errors.value = 0;
	WW_SET(h.temperature_warning_celsius, 0, "edit: WCTEMP 0");
	WW_SET(h.temperature_critical_celsius, 0, "edit: CCTEMP 0");
	CHECK(judge(NULL) == WW_STATUS_OK && v.n == 0);
}

static void test_ata_counts(void)
{
	static ww_conf_t c;
	char err[256];
	ww_ata_attr_t *a;

	/* 10 of each: 198 critical (2), 197 and 5 warnings */
	if (!load("scrutiny/smart-ata-date2.json"))
		return;
	CHECK(judge(NULL) == WW_STATUS_CRITICAL);
	want(WW_R_OFFLINE_UNC, WW_STATUS_CRITICAL, 10, 2);
	want(WW_R_PENDING, WW_STATUS_WARNING, 10, 1);
	want(WW_R_REALLOCATED, WW_STATUS_WARNING, 10, 1);
	a = attr(197);
	CHECK(a && a->has_count);
	if (!a)
		return;
	a->count = 1727; /* edit: what a failing disk reported */
	judge(NULL);
	want(WW_R_PENDING, WW_STATUS_CRITICAL, 1727, 40);
	/* pending_sectors_critical = 0: no critical level */
	ww_conf_defaults(&c);
	CHECK_EQ_I64(ww_conf_load_string(&c,
					 "[health]\npending_sectors_critical = 0\n"
					 "offline_uncorrectable_critical = 11\n",
					 "t.conf", err, sizeof(err)),
		     0);
	judge(&c.health);
	want(WW_R_PENDING, WW_STATUS_WARNING, 1727, 1);
	want(WW_R_OFFLINE_UNC, WW_STATUS_WARNING, 10, 1);

	/* 188 Command_Timeout: 1 on a Barracuda is a count; an Exos X16's
	 * 51540393996 is three packed counters, none */
	if (!load("smartctl_exporter/ST3500418AS_11.json"))
		return;
	CHECK(judge(NULL) == WW_STATUS_WARNING);
	want(WW_R_COMMAND_TIMEOUT, WW_STATUS_WARNING, 1, 1);
	if (!load("smartctl_exporter/sat-Seagate_Exos_X16-ST16000NM001G-2KK103-sda.json"))
		return;
	CHECK(judge(NULL) == WW_STATUS_OK && !reason(WW_R_COMMAND_TIMEOUT));
}

/* Intel DC S3500 1.6 TB after 2.1 PB written: 233 Media_Wearout_Indicator
 * normalised 15, 85 % used; edited to 1 and 0; a healthy S3500's 233
 * renamed to what other drives call it (NAND writes) is no wear figure */
static void test_wear(void)
{
	ww_ata_attr_t *a;

	if (!load("smartctl_exporter/sat-Intel_730_and_DC_S35x0_3610_3700_Series_SSDs-"
		  "INTEL_SSDSC2BB016T4-sdf.json"))
		return;
	CHECK(!WW_HAS(h.endurance_used_percent));
	CHECK(judge(NULL) == WW_STATUS_WARNING);
	want(WW_R_PCT_USED_HIGH, WW_STATUS_WARNING, 85, 80);
	CHECK(reason(WW_R_PCT_USED_HIGH) && reason(WW_R_PCT_USED_HIGH)->item == 233);
	if (!(a = attr(233)))
		return;
	a->value = 1; /* edit */
	judge(NULL);
	want(WW_R_PCT_USED_HIGH, WW_STATUS_WARNING, 99, 80);
	a->value = 0; /* edit */
	CHECK(judge(NULL) == WW_STATUS_CRITICAL);
	want(WW_R_PCT_USED_EXHAUSTED, WW_STATUS_CRITICAL, 100, 100);
	if (!load("smartctl_exporter/sat-Intel_730_and_DC_S35x0_3610_3700_Series_SSDs-"
		  "INTEL_SSDSC2BB240G4-sde.json"))
		return;
	CHECK(judge(NULL) == WW_STATUS_OK);
	if (!(a = attr(233)))
		return;
	a->value = 1;
	a->name = "Flash_Writes_GiB"; /* edit: 233 as other drives name it */
	CHECK(judge(NULL) == WW_STATUS_OK);
}

/* the newest self-test: 21 passed tests, the newest edited to a read
 * failure at an LBA, to a servo failure, then a later pass */
static void test_self_test(void)
{
	ww_selftest_log_t *l = &h.self_tests[WW_SELFTEST_ATA_STANDARD];

	if (!load("scrutiny/smart-ata-date2.json"))
		return;
	CHECK(l->source && l->has_last && l->last_passed == 1 && l->entries == 21);
	judge(NULL);
	CHECK(!reason(WW_R_SELF_TEST_FAILED));
	CHECK(!l->has_open_failure);
	/* edit: an extended test "Completed: read failure" at LBA 123456 that
	 * no later extended test cleared (the decoders' open failure) */
	l->has_open_failure = true;
	l->open_kind = WW_STK_EXTENDED;
	l->open_status = 7;
	l->open_hours = 1000;
	l->open_has_lba = true;
	l->open_lba = 123456;
	judge(NULL);
	want(WW_R_SELF_TEST_FAILED, WW_STATUS_CRITICAL, 123456, -1);
	CHECK(reason(WW_R_SELF_TEST_FAILED) &&
	      strstr(reason(WW_R_SELF_TEST_FAILED)->text,
		     "the read element failed (status 7), "
		     "first failing LBA 123456") != NULL);
	l->open_status = 6; /* edit: servo failure, no LBA */
	l->open_has_lba = false;
	judge(NULL);
	want(WW_R_SELF_TEST_FAILED, WW_STATUS_WARNING, 6, -1);
	l->has_open_failure = false; /* a later extended test passed */
	judge(NULL);
	CHECK(!reason(WW_R_SELF_TEST_FAILED));
}

int main(void)
{
	dir = ww_fixtures_dir();
	test_sas();
	test_nvme();
	test_ata_counts();
	test_wear();
	test_self_test();
	return ww_test_done("test_model_verdict_real");
}
