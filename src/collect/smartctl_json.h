/* Inside src/collect: the smartctl JSON reader (smartctl_json.c) split by
 * protocol, smartctl_json_ata.c, _nvme.c and _scsi.c. The accessors read a
 * key at a dotted path of a json-c object and never take a double for an
 * integer; the parts fill a health record from their protocol's keys. Not
 * a public interface: collect.h has ww_smartctl_parse(). */
#ifndef WW_COLLECT_SMARTCTL_JSON_H
#define WW_COLLECT_SMARTCTL_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "wearwatch/collect.h"

#define SRC(k) ("smartctl JSON " k)

/* Temperatures a drive can report: NVMe's composite temperature is a 16-bit
 * Kelvin field (0-65535 K), ATA and SCSI report a byte of Celsius. A value
 * outside is not a reading (INT64_MAX overflowed "t + 273") and is ignored. */
#define TEMP_MIN_C (-273)
#define TEMP_MAX_C (65535 - 273)

/* object at a dotted path ("power_on_time.hours"), or NULL */
json_object *ww_scj_get(json_object *o, const char *path);

/* Unsigned integer at path: an int node (never a double), or a decimal
 * string, or the "<key>_s" string smartctl adds for wide counters. */
bool ww_scj_u128(json_object *o, const char *path, ww_u128 *v);

/* The same, when it fits 64 bits; false when absent, not an integer or wider */
bool ww_scj_u64(json_object *o, const char *path, uint64_t *v);

/* Signed integer at path: an int node, never a double; false otherwise */
bool ww_scj_i64(json_object *o, const char *path, int64_t *v);

/* Degrees Celsius at path, within TEMP_MIN_C..TEMP_MAX_C; false otherwise */
bool ww_scj_temp(json_object *o, const char *path, int64_t *v);

/* hours and minutes in `per_minute` units (1: minutes, 60: seconds),
 * saturating at UINT64_MAX like the 128-bit counters (record.h): hours near
 * 2^64 wrapped silently before */
ww_u64 ww_scj_hours_minutes(uint64_t hours, uint64_t minutes, unsigned per_minute,
			    const char *source);

/* true or false at path: a boolean node; false when absent or another type */
bool ww_scj_bool(json_object *o, const char *path, bool *v);

/* "11523.849" (10^9 bytes, three decimals) to bytes, exactly. */
bool ww_scj_gb_to_bytes(const char *s, uint64_t *bytes);

/* ata_smart_attributes.table (with the drive database's names) and
 * ata_device_statistics.pages into h */
void ww_scj_ata(json_object *j, ww_health_t *h);

/* ata_smart_data: the SMART READ DATA bytes smartctl relays (ataprint.cpp):
 * capabilities.values = [byte 367 off-line data collection capability,
 * bytes 368-369 SMART capability], self_test.status.value = byte 363 (the
 * self-test execution status; remaining_percent while one runs) and
 * self_test.polling_minutes = bytes 372-376. The same fields the native
 * read fills, so the scheduler and the verdict take them alike. */
void ww_scj_ata_smart_data(json_object *j, ww_health_t *h);

/* The ATA error and self-test logs smartctl read */
void ww_scj_ata_logs(json_object *j, ww_health_t *h);

/* nvme_smart_health_information_log (the SMART / Health Information log
 * 02h as smartctl prints it) into h: counters, normalised fields, sensors */
void ww_scj_nvme(json_object *log, ww_health_t *h);

/* nvme_self_test_log (smartctl 7.4 nvmeprint.cpp, the Device Self-test log
 * 06h): current_self_test_operation.value (byte 0 bits 3-0) and
 * current_self_test_completion_percent (byte 1) while one runs; table[]
 * newest first, each self_test_code.value (the Self-test Code), its
 * self_test_result.value (bits 3-0), power_on_hours and, when the entry's
 * Failing LBA is valid, lba. Failed = result 5-7, as the native decoder. */
void ww_scj_nvme_selftest(json_object *log, ww_health_t *h);

/* The SCSI keys into h: scsi_error_counter_log (pages 02h, 03h, 05h), the
 * temperatures and trip temperature, scsi_start_stop_cycle_counter,
 * scsi_grown_defect_list, the endurance indicator and power-on time */
void ww_scj_scsi(json_object *j, ww_health_t *h);

/* scsi_self_test_0 .. scsi_self_test_19 (smartctl scsiprint.cpp, the
 * Self-Test Results log page 10h, newest first): code.value (SELF-TEST CODE,
 * 1/5 short, 2/6 extended), result.value (SELF-TEST RESULTS, 3-7 failed, Fh
 * in progress), power_on_time.hours, lba_first_failure.value when the page
 * names one; scsi_extended_self_test_seconds (the Control mode page's
 * EXTENDED SELF-TEST COMPLETION TIME). Into h->scsi as the native decoder
 * leaves it; ww_scsi_finish copies it to the record's fields. */
void ww_scj_scsi_selftest(json_object *j, ww_health_t *h);

#endif
