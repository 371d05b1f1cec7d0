/* smartctl JSON, the SCSI keys (part of the reader in smartctl_json.c):
 * the error counter log, the other SCSI log pages smartctl relays, and
 * scsi_self_test_0 .. 19. */
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

static bool parse_errcnt(json_object *j, const char *dir, ww_scsi_errcnt_t *c)
{
	char p[96];
	uint64_t v;
	json_object *n;
	bool any = false;

	snprintf(p, sizeof(p), "scsi_error_counter_log.%s.total_errors_corrected", dir);
	if (ww_scj_u64(j, p, &v)) {
		WW_SET(c->corrected_total, v, SRC("scsi_error_counter_log total_errors_corrected"));
		any = true;
	}
	snprintf(p, sizeof(p), "scsi_error_counter_log.%s.total_uncorrected_errors", dir);
	if (ww_scj_u64(j, p, &v)) {
		WW_SET(c->uncorrected, v, SRC("scsi_error_counter_log total_uncorrected_errors"));
		any = true;
	}
	snprintf(p, sizeof(p), "scsi_error_counter_log.%s.gigabytes_processed", dir);
	n = ww_scj_get(j, p);
	if (n && json_object_is_type(n, json_type_string) &&
	    ww_scj_gb_to_bytes(json_object_get_string(n), &v)) {
		WW_SET(c->bytes_processed, v,
		       SRC("scsi_error_counter_log gigabytes_processed x 10^9"));
		any = true;
	}
	return any;
}

void ww_scj_scsi(json_object *j, ww_health_t *h)
{
	ww_scsi_t *s = &h->scsi;
	uint64_t v, m = 0;
	int64_t t;

	if (parse_errcnt(j, "write", &s->write_errors))
		s->supported_pages[s->n_supported_pages++] = 0x02 << 8;
	if (parse_errcnt(j, "read", &s->read_errors))
		s->supported_pages[s->n_supported_pages++] = 0x03 << 8;
	if (parse_errcnt(j, "verify", &s->verify_errors))
		s->supported_pages[s->n_supported_pages++] = 0x05 << 8;
	/* smartctl >= 7.4 may print temperature.current = 0 with the reading
	 * in the environmental reports (scrutiny#717) */
	if (ww_scj_temp(j, "temperature.current", &t) && t != 0)
		WW_SET(s->temperature_celsius, t, SRC("temperature.current"));
	if (ww_scj_temp(j, "scsi_environmental_reports.temperature_1.current", &t))
		WW_SET(s->env_temperature_celsius, t,
		       SRC("scsi_environmental_reports.temperature_1.current"));
	if (ww_scj_temp(j, "temperature.drive_trip", &t))
		WW_SET(s->reference_temperature_celsius, t, SRC("temperature.drive_trip"));
	if (ww_scj_u64(j, "scsi_percentage_used_endurance_indicator", &v))
		WW_SET(s->percentage_used, v, SRC("scsi_percentage_used_endurance_indicator"));
	if (ww_scj_u64(j, "endurance_used.current_percent", &v))
		WW_SET(s->percentage_used, v, SRC("endurance_used.current_percent"));
	if (ww_scj_u64(j, "scsi_start_stop_cycle_counter.accumulated_start_stop_cycles", &v))
		WW_SET(s->start_stop_cycles, v,
		       SRC("scsi_start_stop_cycle_counter.accumulated_start_stop_cycles"));
	if (ww_scj_u64(j,
		       "scsi_start_stop_cycle_counter.specified_cycle_count_over_device_lifetime",
		       &v))
		WW_SET(s->specified_start_stop_cycles, v,
		       SRC("scsi_start_stop_cycle_counter.specified_cycle_count_over_device_lifetime"));
	if (ww_scj_u64(j, "scsi_start_stop_cycle_counter.accumulated_load_unload_cycles", &v))
		WW_SET(s->load_unload_cycles, v,
		       SRC("scsi_start_stop_cycle_counter.accumulated_load_unload_cycles"));
	if (ww_scj_u64(j,
		       "scsi_start_stop_cycle_counter."
		       "specified_load_unload_count_over_device_lifetime",
		       &v))
		WW_SET(s->specified_load_unload_cycles, v,
		       SRC("scsi_start_stop_cycle_counter.specified_load_unload_count_over_device_lifetime"));
	if (ww_scj_u64(j, "scsi_grown_defect_list", &v))
		WW_SET(s->grown_defects, v, SRC("scsi_grown_defect_list"));
	if (ww_scj_u64(j, "power_on_time.hours", &v)) {
		ww_scj_u64(j, "power_on_time.minutes", &m);
		s->power_on_minutes = ww_scj_hours_minutes(v, m, 1, SRC("power_on_time"));
	}
}

/* scsi_self_test_0 .. scsi_self_test_19 (smartctl scsiprint.cpp, the
 * Self-Test Results log page 10h, newest first): code.value (SELF-TEST CODE,
 * 1/5 short, 2/6 extended), result.value (SELF-TEST RESULTS, 3-7 failed, Fh
 * in progress), power_on_time.hours, lba_first_failure.value when the page
 * names one; scsi_extended_self_test_seconds (the Control mode page's
 * EXTENDED SELF-TEST COMPLETION TIME). Into h->scsi as the native decoder
 * leaves it; ww_scsi_finish copies it to the record's fields. */
void ww_scj_scsi_selftest(json_object *j, ww_health_t *h)
{
	ww_selftest_log_t l = { 0 };
	ww_selftest_now_t n = { 0 };
	unsigned passed = 0;
	char key[32];
	uint64_t v;

	for (int i = 0; i < 20; i++) {
		uint64_t code = 0, hours = 0, lba = 0;
		bool failed, has_lba;
		json_object *e;
		unsigned kind;
		uint8_t res;

		snprintf(key, sizeof(key), "scsi_self_test_%d", i);
		e = ww_scj_get(j, key);
		if (!e || !ww_scj_u64(e, "result.value", &v) || v > 0xf)
			continue;
		res = (uint8_t)v;
		failed = res >= 3 && res <= 7;
		ww_scj_u64(e, "code.value", &code);
		kind = (code & 3) == 1    ? WW_STK_SHORT
			: (code & 3) == 2 ? WW_STK_EXTENDED
					  : WW_STK_NONE;
		ww_scj_u64(e, "power_on_time.hours", &hours);
		has_lba = ww_scj_u64(e, "lba_first_failure.value", &lba);
		if (!l.has_last) {
			n.source = SRC("scsi_self_test_0.result");
			n.running = res == 0xf;
			n.kind = (uint8_t)(n.running ? kind : WW_STK_NONE);
			n.remaining_percent = -1;
		}
		ww_selftest_entry(&l, &passed, !l.has_last, kind, res, failed, hours, has_lba, lba);
	}
	/* a duration alone says nothing of a running test: no source then */
	if (ww_scj_u64(j, "scsi_extended_self_test_seconds", &v) && v <= UINT32_MAX) {
		n.expected_extended_s = (uint32_t)v;
		h->self_test_now.expected_extended_s = (uint32_t)v;
	}
	if (l.entries) {
		l.source = SRC("scsi_self_test_N");
		h->scsi.self_test = l;
	}
	if (n.source)
		h->scsi.self_test_now = n;
}
