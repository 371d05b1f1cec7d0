/* smartctl JSON, the ATA keys (part of the reader in smartctl_json.c):
 * ata_smart_attributes with the drive database's names, the device
 * statistics, ata_smart_data's relayed SMART READ DATA bytes and the error
 * and self-test logs. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "collect/drivedb.h"
#include "collect/smartctl_json.h"
#include "wearwatch/collect.h"
#include "wearwatch/decode.h"

/* smartctl's name of an attribute, interned (records are copied whole and
 * outlive the JSON); NULL when there is none or the table of names is full */
static const char *attr_name(json_object *e)
{
	json_object *n = ww_scj_get(e, "name");

	if (!n || !json_object_is_type(n, json_type_string) || !*json_object_get_string(n))
		return NULL;
	return ww_drivedb_intern_name(json_object_get_string(n));
}

/* One valid ata_device_statistics entry into the generic list, the entries
 * ACS-4 defines only (as the native decoder keeps them) */
static void devstat_entry(json_object *e, uint64_t page, uint64_t off, ww_ata_t *a)
{
	ww_ata_devstat_t *d;
	bool norm = false;
	int64_t v;

	if (page > 7 || off > 0xffff || !ww_ata_devstat_name((uint8_t)page, (uint16_t)off, NULL) ||
	    a->n_devstats >= WW_ATA_MAX_DEVSTATS || !ww_scj_i64(e, "value", &v))
		return;
	ww_scj_bool(e, "flags.normalized", &norm);
	d = &a->devstats[a->n_devstats++];
	d->name = ww_ata_devstat_name((uint8_t)page, (uint16_t)off, NULL);
	d->page = (uint8_t)page;
	d->offset = (uint16_t)off;
	d->value = v;
	d->normalized = norm;
	a->devstats_source = SRC("ata_device_statistics");
}

/* ata_smart_attributes.table: each attribute as smartctl formats it */
static void parse_ata_attrs(json_object *t, ww_health_t *h)
{
	size_t n = json_object_array_length(t);

	h->ata.smart_supported = h->ata.smart_enabled = true;
	h->ata.smart_support_known = true;
	for (size_t i = 0; i < n && h->ata.n_attrs < WW_ATA_MAX_ATTRS; i++) {
		json_object *e = json_object_array_get_idx(t, i);
		ww_ata_attr_t *a = &h->ata.attrs[h->ata.n_attrs];
		uint64_t v;

		if (!ww_scj_u64(e, "id", &v) || !v || v > 255)
			continue;
		memset(a, 0, sizeof(*a));
		a->id = (uint8_t)v;
		if (ww_scj_u64(e, "flags.value", &v))
			a->flags = (uint16_t)v;
		if (ww_scj_u64(e, "value", &v))
			a->value = (uint8_t)v;
		if (ww_scj_u64(e, "worst", &v))
			a->worst = (uint8_t)v;
		if (ww_scj_u64(e, "thresh", &v)) {
			a->threshold = (uint8_t)v;
			a->has_threshold = true;
			h->ata.has_thresholds = true;
		}
		/* raw.value is smartctl's value under its byte order for this
		 * model (56/64-bit formats too): formatted as given */
		if (ww_scj_u64(e, "raw.value", &v)) {
			a->raw = v & 0xffffffffffffull;
			for (int b = 0; b < 6; b++)
				a->raw_bytes[b] = (uint8_t)(v >> (8 * b));
			a->raw_value = v;
			a->raw_value_given = true;
		}
		/* smartctl's name (its drive database applied) is kept */
		a->name = attr_name(e);
		a->name_from_source = a->name != NULL;
		h->ata.n_attrs++;
	}
}

/* one valid entry of Device Statistics page num at offset off */
static void devstat_value(json_object *e, uint64_t num, uint64_t off, ww_health_t *h)
{
	uint64_t v;
	int64_t sv;

	/* values wider than the log's field (ACS-4 9.10: power-on hours 4
	 * bytes, sector counts 6, temperature 1 signed, as src/decode/ata.c
	 * reads them) are not readings; the finish step multiplies hours by
	 * 3600 */
	devstat_entry(e, num, off, &h->ata);
	if (num == 1 && off == 0x10 && ww_scj_u64(e, "value", &v) && v <= UINT32_MAX)
		WW_SET(h->ata.devstat_power_on_hours, v,
		       SRC("ata_device_statistics page 1 offset 0x10"));
	else if (num == 1 && off == 0x18 && ww_scj_u64(e, "value", &v) && v >> 48 == 0)
		WW_SET(h->ata.devstat_logical_sectors_written, v,
		       SRC("ata_device_statistics page 1 offset 0x18"));
	else if (num == 1 && off == 0x28 && ww_scj_u64(e, "value", &v) && v >> 48 == 0)
		WW_SET(h->ata.devstat_logical_sectors_read, v,
		       SRC("ata_device_statistics page 1 offset 0x28"));
	else if (num == 5 && off == 0x08 && ww_scj_i64(e, "value", &sv) && sv >= INT8_MIN &&
		 sv <= INT8_MAX)
		WW_SET(h->ata.devstat_temperature_celsius, sv,
		       SRC("ata_device_statistics page 5 offset 0x08"));
	else if (num == 7 && off == 0x08 && ww_scj_u64(e, "value", &v))
		WW_SET(h->ata.devstat_percentage_used, v,
		       SRC("ata_device_statistics page 7 offset 0x08"));
}

/* ata_device_statistics.pages: every entry the drive flags valid */
static void parse_ata_devstats(json_object *pages, ww_health_t *h)
{
	for (size_t p = 0; p < json_object_array_length(pages); p++) {
		json_object *pg = json_object_array_get_idx(pages, p);
		json_object *tb = ww_scj_get(pg, "table");
		uint64_t num;

		if (!ww_scj_u64(pg, "number", &num) || !tb ||
		    !json_object_is_type(tb, json_type_array))
			continue;
		h->ata.devstat_supported = true;
		for (size_t i = 0; i < json_object_array_length(tb); i++) {
			json_object *e = json_object_array_get_idx(tb, i);
			uint64_t off, fl = 0;
			bool valid = true;

			if (!ww_scj_u64(e, "offset", &off))
				continue;
			if (ww_scj_u64(e, "flags.value", &fl))
				valid = (fl & 0xc0) == 0xc0;
			ww_scj_bool(e, "flags.valid", &valid);
			if (valid)
				devstat_value(e, num, off, h);
		}
	}
}

void ww_scj_ata(json_object *j, ww_health_t *h)
{
	json_object *t = ww_scj_get(j, "ata_smart_attributes.table");
	json_object *pages = ww_scj_get(j, "ata_device_statistics.pages");
	bool passed;

	if (t && json_object_is_type(t, json_type_array))
		parse_ata_attrs(t, h);
	if (ww_scj_bool(j, "smart_support.available", &passed)) {
		h->ata.smart_supported = passed;
		h->ata.smart_support_known = true;
	}
	if (ww_scj_bool(j, "smart_support.enabled", &passed)) {
		h->ata.smart_enabled = passed;
		h->ata.smart_support_known = true;
	}
	if (pages && json_object_is_type(pages, json_type_array))
		parse_ata_devstats(pages, h);
	if (ww_scj_bool(j, "smart_status.passed", &passed))
		h->ata.return_status = passed ? WW_SMART_PASSED : WW_SMART_FAILED;
}

/* ata_smart_self_test_log.{standard,extended}: the counts from the table
 * (the same rule as the native log: status 3-8 failed, table[0] the
 * newest) */
static void parse_selftest(json_object *log, const char *src, ww_selftest_log_t *l)
{
	json_object *t = ww_scj_get(log, "table");
	uint64_t v = 0, hours, type;
	unsigned passed = 0;

	memset(l, 0, sizeof(*l));
	l->source = src;
	for (size_t i = 0;
	     t && json_object_is_type(t, json_type_array) && i < json_object_array_length(t); i++) {
		json_object *e = json_object_array_get_idx(t, i);
		uint8_t st;
		bool failed;

		unsigned kind;
		bool has_lba;

		if (!ww_scj_u64(e, "status.value", &v))
			continue;
		st = (uint8_t)(v >> 4);
		failed = st >= 3 && st <= 8;
		kind = ww_scj_u64(e, "type.value", &type) ? ww_ata_selftest_kind((uint8_t)type)
							  : WW_STK_NONE;
		hours = 0;
		ww_scj_u64(e, "lifetime_hours", &hours);
		has_lba = ww_scj_u64(e, "lba", &v);
		ww_selftest_entry(l, &passed, !l->has_last, kind, st, failed, hours, has_lba, v);
	}
}

/* ata_smart_data: the SMART READ DATA bytes smartctl relays (ataprint.cpp):
 * capabilities.values = [byte 367 off-line data collection capability,
 * bytes 368-369 SMART capability], self_test.status.value = byte 363 (the
 * self-test execution status; remaining_percent while one runs) and
 * self_test.polling_minutes = bytes 372-376. The same fields the native
 * read fills, so the scheduler and the verdict take them alike. */
void ww_scj_ata_smart_data(json_object *j, ww_health_t *h)
{
	json_object *caps = ww_scj_get(j, "ata_smart_data.capabilities.values");
	ww_selftest_now_t *n = &h->self_test_now;
	uint64_t v;

	if (caps && json_object_is_type(caps, json_type_array) &&
	    json_object_array_length(caps) >= 2) {
		json_object *c0 = json_object_array_get_idx(caps, 0);
		json_object *c1 = json_object_array_get_idx(caps, 1);

		if (json_object_is_type(c0, json_type_int) &&
		    json_object_is_type(c1, json_type_int)) {
			h->ata.has_smart_caps = true;
			h->ata.offline_capability = (uint8_t)json_object_get_int(c0);
			h->ata.smart_capability = (uint16_t)json_object_get_int(c1);
		}
	}
	if (!ww_scj_u64(j, "ata_smart_data.self_test.status.value", &v))
		return;
	h->ata.self_test_exec_status = (uint8_t)v;
	memset(n, 0, sizeof(*n));
	n->source = SRC("ata_smart_data.self_test");
	n->running = (v >> 4) == 15;
	n->remaining_percent = -1;
	if (n->running && ww_scj_u64(j, "ata_smart_data.self_test.status.remaining_percent", &v) &&
	    v <= 100)
		n->remaining_percent = (int8_t)v;
	if (h->ata.has_smart_caps && (h->ata.offline_capability & 0x10)) {
		if (ww_scj_u64(j, "ata_smart_data.self_test.polling_minutes.short", &v) &&
		    v < 65536)
			n->expected_short_s = (uint32_t)v * 60;
		if (ww_scj_u64(j, "ata_smart_data.self_test.polling_minutes.extended", &v) &&
		    v < 65536)
			n->expected_extended_s = (uint32_t)v * 60;
	}
	if (h->ata.has_smart_caps && (h->ata.offline_capability & 0x20) &&
	    ww_scj_u64(j, "ata_smart_data.self_test.polling_minutes.conveyance", &v) && v < 65536)
		n->expected_conveyance_s = (uint32_t)v * 60;
}

/* The ATA error and self-test logs smartctl read */
void ww_scj_ata_logs(json_object *j, ww_health_t *h)
{
	static const char *const esrc[2] = { SRC("ata_smart_error_log.summary.count"),
					     SRC("ata_smart_error_log.extended.count") };
	static const char *const ssrc[2] = { SRC("ata_smart_self_test_log.standard"),
					     SRC("ata_smart_self_test_log.extended") };
	static const char *const kind[2] = { "summary", "extended" };
	static const char *const skind[2] = { "standard", "extended" };
	char path[64];
	json_object *o;

	for (int i = 0; i < 2; i++) {
		ww_errlog_t *e = &h->error_logs[WW_ERRLOG_ATA_SUMMARY + i];
		uint64_t v;

		snprintf(path, sizeof(path), "ata_smart_error_log.%s.count", kind[i]);
		if (ww_scj_u64(j, path, &e->count)) {
			e->source = esrc[i];
			snprintf(path, sizeof(path), "ata_smart_error_log.%s.logged_count",
				 kind[i]);
			e->entries = ww_scj_u64(j, path, &v) ? (uint32_t)v : 0;
		}
		snprintf(path, sizeof(path), "ata_smart_self_test_log.%s", skind[i]);
		if ((o = ww_scj_get(j, path)) && json_object_is_type(o, json_type_object))
			parse_selftest(o, ssrc[i], &h->self_tests[WW_SELFTEST_ATA_STANDARD + i]);
	}
}
