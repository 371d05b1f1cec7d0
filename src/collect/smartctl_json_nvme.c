/* smartctl JSON, the NVMe keys (part of the reader in smartctl_json.c):
 * nvme_smart_health_information_log with its 128-bit counters and sensors,
 * and nvme_self_test_log (smartctl 7.4). */
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

#define NV(k) SRC("nvme_smart_health_information_log." k)
#define NOFF(f) offsetof(ww_nvme_smart_t, f)

/* Keys of the log smartctl may leave out, and the 128-bit counters they
 * fill: a key that is not there marks its field absent. */
static void parse_nvme_counters(json_object *log, ww_nvme_smart_t *s)
{
	static const struct {
		const char *key;
		size_t off;
	} c[] = {
		{ "data_units_read", NOFF(data_units_read) },
		{ "data_units_written", NOFF(data_units_written) },
		{ "host_reads", NOFF(host_read_commands) },
		{ "host_writes", NOFF(host_write_commands) },
		{ "controller_busy_time", NOFF(controller_busy_time_minutes) },
		{ "power_cycles", NOFF(power_cycles) },
		{ "power_on_hours", NOFF(power_on_hours) },
		{ "unsafe_shutdowns", NOFF(unsafe_shutdowns) },
		{ "media_errors", NOFF(media_errors) },
		{ "num_err_log_entries", NOFF(error_log_entries) },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (!ww_scj_u128(log, c[i].key, (ww_u128 *)((char *)s + c[i].off)))
			ww_nvme_smart_set_absent(s, c[i].off);
}

/* The normalised fields from the counters that were there. */
static void nvme_normalised(ww_health_t *h)
{
	ww_nvme_smart_t *s = &h->nvme_smart;

	if (ww_nvme_smart_present(s, NOFF(data_units_read))) {
		h->host_read_bytes = ww_u128_scale(s->data_units_read, 512000,
						   NV("data_units_read x 512000"));
		h->host_read_bytes.label = "smartctl";
	}
	if (ww_nvme_smart_present(s, NOFF(data_units_written))) {
		h->host_written_bytes = ww_u128_scale(s->data_units_written, 512000,
						      NV("data_units_written x 512000"));
		h->host_written_bytes.label = "smartctl";
	}
	if (ww_nvme_smart_present(s, NOFF(power_cycles)))
		h->power_cycles = ww_u128_scale(s->power_cycles, 1, NV("power_cycles"));
	if (ww_nvme_smart_present(s, NOFF(power_on_hours)))
		h->power_on_seconds = ww_u128_scale(s->power_on_hours, 3600,
						    NV("power_on_hours x 3600"));
	if (ww_nvme_smart_present(s, NOFF(unsafe_shutdowns)))
		h->unsafe_shutdowns = ww_u128_scale(s->unsafe_shutdowns, 1, NV("unsafe_shutdowns"));
	if (ww_nvme_smart_present(s, NOFF(media_errors)))
		h->media_errors = ww_u128_scale(s->media_errors, 1, NV("media_errors"));
	if (ww_nvme_smart_present(s, NOFF(error_log_entries)))
		h->error_log_entries = ww_u128_scale(s->error_log_entries, 1,
						     NV("num_err_log_entries"));
}

/* temperature_sensors: Celsius, in sensor order (smartctl leaves out the
 * sensors that read 0 K... and keeps the order) */
static void parse_nvme_sensors(json_object *log, ww_nvme_smart_t *s)
{
	json_object *a = ww_scj_get(log, "temperature_sensors");

	if (!a || !json_object_is_type(a, json_type_array)) {
		ww_nvme_smart_set_absent(s, NOFF(temperature_sensor_kelvin));
		return;
	}
	for (size_t i = 0; i < json_object_array_length(a) && i < 8; i++) {
		json_object *t = json_object_array_get_idx(a, i);

		/* degrees C in the JSON, Kelvin in the log: a sensor outside
		 * the 16-bit Kelvin word is no reading (0, "not implemented") */
		if (json_object_is_type(t, json_type_int)) {
			int64_t c = json_object_get_int64(t);

			/* compared before adding: json-c clamps to INT64_MAX */
			s->temperature_sensor_kelvin[i] = c > TEMP_MIN_C && c <= TEMP_MAX_C
				? (uint16_t)(c + 273)
				: 0;
		}
	}
}

void ww_scj_nvme(json_object *log, ww_health_t *h)
{
	ww_nvme_smart_t *s = &h->nvme_smart;
	uint64_t v;
	int64_t t;

	h->has_nvme_smart = true;
	/* not in smartctl's JSON (7.3): the endurance group warning byte and
	 * the thermal management counters */
	ww_nvme_smart_set_absent(s, NOFF(endurance_group_critical_warning));
	ww_nvme_smart_set_absent(s, NOFF(thermal_mgmt_temp1_transitions));
	ww_nvme_smart_set_absent(s, NOFF(thermal_mgmt_temp1_time_seconds));
	if (ww_scj_u64(log, "critical_warning", &v)) {
		s->critical_warning = (uint8_t)v;
		WW_SET(h->critical_warning, v, NV("critical_warning"));
	} else {
		ww_nvme_smart_set_absent(s, NOFF(critical_warning));
	}
	/* smartctl prints Celsius; the log carries Kelvin */
	if (ww_scj_temp(log, "temperature", &t)) {
		s->composite_temperature_kelvin = (uint16_t)(t + 273);
		WW_SET(h->temperature_celsius, t, NV("temperature"));
	} else {
		ww_nvme_smart_set_absent(s, NOFF(composite_temperature_kelvin));
	}
	if (ww_scj_u64(log, "available_spare", &v)) {
		s->available_spare_percent = (uint8_t)v;
		WW_SET(h->available_spare_percent, v, NV("available_spare"));
	} else {
		ww_nvme_smart_set_absent(s, NOFF(available_spare_percent));
	}
	if (ww_scj_u64(log, "available_spare_threshold", &v)) {
		s->available_spare_threshold_percent = (uint8_t)v;
		WW_SET(h->available_spare_threshold_percent, v, NV("available_spare_threshold"));
	} else {
		ww_nvme_smart_set_absent(s, NOFF(available_spare_threshold_percent));
	}
	if (ww_scj_u64(log, "percentage_used", &v)) {
		s->percentage_used = v > 255 ? 255 : (uint8_t)v;
		WW_SET(h->endurance_used_percent, v, NV("percentage_used"));
		h->endurance_used_percent.label = "smartctl";
	} else {
		ww_nvme_smart_set_absent(s, NOFF(percentage_used));
	}
	parse_nvme_counters(log, s);
	nvme_normalised(h);
	parse_nvme_sensors(log, s);
	if (ww_scj_u64(log, "warning_temp_time", &v))
		s->warning_temperature_time_minutes = (uint32_t)v;
	else
		ww_nvme_smart_set_absent(s, NOFF(warning_temperature_time_minutes));
	if (ww_scj_u64(log, "critical_comp_time", &v))
		s->critical_temperature_time_minutes = (uint32_t)v;
	else
		ww_nvme_smart_set_absent(s, NOFF(critical_temperature_time_minutes));
}

/* nvme_self_test_log (smartctl 7.4 nvmeprint.cpp, the Device Self-test log
 * 06h): current_self_test_operation.value (byte 0 bits 3-0) and
 * current_self_test_completion_percent (byte 1) while one runs; table[]
 * newest first, each self_test_code.value (the Self-test Code), its
 * self_test_result.value (bits 3-0), power_on_hours and, when the entry's
 * Failing LBA is valid, lba. Failed = result 5-7, as the native decoder. */
void ww_scj_nvme_selftest(json_object *log, ww_health_t *h)
{
	ww_selftest_log_t *l = &h->self_tests[WW_SELFTEST_NVME];
	ww_selftest_now_t *n = &h->self_test_now;
	json_object *t = ww_scj_get(log, "table");
	uint64_t v, hours, lba = 0;
	unsigned passed = 0;

	memset(l, 0, sizeof(*l));
	l->source = SRC("nvme_self_test_log");
	for (size_t i = 0;
	     t && json_object_is_type(t, json_type_array) && i < json_object_array_length(t); i++) {
		json_object *e = json_object_array_get_idx(t, i);
		uint64_t code = 0;
		bool failed, has_lba;
		unsigned kind;
		uint8_t res;

		if (!ww_scj_u64(e, "self_test_result.value", &v) || v > 0xf)
			continue;
		res = (uint8_t)v;
		failed = res >= 5 && res <= 7;
		ww_scj_u64(e, "self_test_code.value", &code);
		kind = code == 1      ? WW_STK_SHORT
			: code == 2   ? WW_STK_EXTENDED
			: code == 0xe ? WW_STK_VENDOR
				      : WW_STK_NONE;
		hours = 0;
		ww_scj_u64(e, "power_on_hours", &hours);
		lba = 0;
		has_lba = ww_scj_u64(e, "lba", &lba);
		ww_selftest_entry(l, &passed, !l->has_last, kind, res, failed, hours, has_lba, lba);
	}
	if (!ww_scj_u64(log, "current_self_test_operation.value", &v))
		return;
	n->source = SRC("nvme_self_test_log.current_self_test_operation");
	n->running = (v & 0xf) != 0;
	n->kind = (uint8_t)(!n->running              ? WW_STK_NONE
				    : (v & 0xf) == 1 ? WW_STK_SHORT
				    : (v & 0xf) == 2 ? WW_STK_EXTENDED
						     : WW_STK_VENDOR);
	n->remaining_percent = -1;
	if (n->running && ww_scj_u64(log, "current_self_test_completion_percent", &v) && v <= 100)
		n->remaining_percent = (int8_t)(100 - v);
}
