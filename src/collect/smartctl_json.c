/* smartctl JSON (-j) into the health record (see smartctl.h). Every key is
 * optional: the schema drifts between smartctl 6.7 and 7.5 (scsi_model_name
 * from 7.3, endurance_used from 7.5, trimmed files without the smartctl
 * block). Integers are read as integers: json-c keeps 64-bit values exactly
 * (int64/uint64), and a value it had to turn into a double is ignored rather
 * than rounded. */
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "collect/drivedb.h"
#include "wearwatch/collect.h"
#include "wearwatch/decode.h"

#define SRC(k) ("smartctl JSON " k)

/* object at a dotted path ("power_on_time.hours"), or NULL */
static json_object *jget(json_object *o, const char *path)
{
	char key[64];

	while (o && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);

		if (n >= sizeof(key) || !json_object_is_type(o, json_type_object))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (dot ? 1 : 0);
	}
	return o;
}

/* Decimal string to 128 bits (smartctl writes counters that do not fit 64
 * bits as strings). Returns false on anything but digits. */
static bool dec_to_u128(const char *s, ww_u128 *v)
{
	unsigned __int128 x = 0;

	if (!s || !*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		x = x * 10 + (unsigned)(*s - '0');
	}
	v->lo = (uint64_t)x;
	v->hi = (uint64_t)(x >> 64);
	return true;
}

/* Unsigned integer at path: an int node (never a double), or a decimal
 * string, or the "<key>_s" string smartctl adds for wide counters. */
static bool jget_u128(json_object *o, const char *path, ww_u128 *v)
{
	json_object *n = jget(o, path);
	char alt[96];

	snprintf(alt, sizeof(alt), "%s_s", path);
	if (jget(o, alt) && dec_to_u128(json_object_get_string(jget(o, alt)), v))
		return true;
	if (!n)
		return false;
	if (json_object_is_type(n, json_type_int)) {
		if (json_object_get_int64(n) < 0)
			return false;
		v->lo = json_object_get_uint64(n);
		v->hi = 0;
		return true;
	}
	if (json_object_is_type(n, json_type_string))
		return dec_to_u128(json_object_get_string(n), v);
	return false;
}

static bool jget_u64(json_object *o, const char *path, uint64_t *v)
{
	ww_u128 w;

	if (!jget_u128(o, path, &w) || w.hi)
		return false;
	*v = w.lo;
	return true;
}

static bool jget_i64(json_object *o, const char *path, int64_t *v)
{
	json_object *n = jget(o, path);

	if (!n || !json_object_is_type(n, json_type_int))
		return false;
	*v = json_object_get_int64(n);
	return true;
}

/* Temperatures a drive can report: NVMe's composite temperature is a 16-bit
 * Kelvin field (0-65535 K), ATA and SCSI report a byte of Celsius. A value
 * outside is not a reading (INT64_MAX overflowed "t + 273") and is ignored. */
#define TEMP_MIN_C (-273)
#define TEMP_MAX_C (65535 - 273)

static bool jget_temp(json_object *o, const char *path, int64_t *v)
{
	return jget_i64(o, path, v) && *v >= TEMP_MIN_C && *v <= TEMP_MAX_C;
}

/* hours and minutes in `per_minute` units (1: minutes, 60: seconds),
 * saturating at UINT64_MAX like the 128-bit counters (record.h): hours near
 * 2^64 wrapped silently before */
static ww_u64 hours_minutes(uint64_t hours, uint64_t minutes, unsigned per_minute,
			    const char *source)
{
	unsigned __int128 x = ((unsigned __int128)hours * 60 + minutes) * per_minute;
	ww_u128 w = { (uint64_t)x, (uint64_t)(x >> 64) };

	return ww_u128_scale(w, 1, source);
}

static bool jget_bool(json_object *o, const char *path, bool *v)
{
	json_object *n = jget(o, path);

	if (!n || !json_object_is_type(n, json_type_boolean))
		return false;
	*v = json_object_get_boolean(n);
	return true;
}

static void jget_str(json_object *o, const char *path, char *dst, size_t len)
{
	json_object *n = jget(o, path);

	if (n && json_object_is_type(n, json_type_string) && !*dst)
		snprintf(dst, len, "%s", json_object_get_string(n));
}

/* "11523.849" (10^9 bytes, three decimals) to bytes, exactly. */
static bool gb_string_to_bytes(const char *s, uint64_t *bytes)
{
	unsigned __int128 whole = 0, frac = 0;
	int fd = 0;

	if (!s || !*s)
		return false;
	for (; *s && *s != '.'; s++) {
		if (*s < '0' || *s > '9')
			return false;
		whole = whole * 10 + (unsigned)(*s - '0');
	}
	if (*s == '.')
		for (s++; *s; s++) {
			if (*s < '0' || *s > '9')
				return false;
			if (fd < 9) {
				frac = frac * 10 + (unsigned)(*s - '0');
				fd++;
			}
		}
	for (; fd < 9; fd++)
		frac *= 10;
	whole = whole * 1000000000u + frac;
	*bytes = whole > UINT64_MAX ? UINT64_MAX : (uint64_t)whole;
	return true;
}

static void parse_identity(json_object *j, ww_health_t *h)
{
	uint64_t v, naa, oui, id;

	jget_str(j, "model_name", h->model, sizeof(h->model));
	jget_str(j, "scsi_model_name", h->model, sizeof(h->model));
	jget_str(j, "scsi_product", h->model, sizeof(h->model));
	jget_str(j, "serial_number", h->serial, sizeof(h->serial));
	jget_str(j, "firmware_version", h->firmware, sizeof(h->firmware));
	jget_str(j, "scsi_revision", h->firmware, sizeof(h->firmware));
	/* smartctl 7.1 and older name a SCSI drive's firmware "revision"
	 * (beside "vendor" and "product"); 7.2 renamed it scsi_revision */
	jget_str(j, "revision", h->firmware, sizeof(h->firmware));
	jget_str(j, "scsi_vendor", h->vendor, sizeof(h->vendor));
	jget_str(j, "vendor", h->vendor, sizeof(h->vendor));
	if (jget_u64(j, "wwn.naa", &naa) && jget_u64(j, "wwn.oui", &oui) &&
	    jget_u64(j, "wwn.id", &id))
		snprintf(h->wwn, sizeof(h->wwn), "0x%01" PRIx64 "%06" PRIx64 "%09" PRIx64,
			 naa & 0xf, oui & 0xffffff, id & (uint64_t)0xfffffffff);
	if (jget_u64(j, "user_capacity.bytes", &v))
		WW_SET(h->capacity_bytes, v, SRC("user_capacity.bytes"));
	if (jget_u64(j, "logical_block_size", &v))
		WW_SET(h->logical_block_bytes, v, SRC("logical_block_size"));
	if (jget_u64(j, "physical_block_size", &v))
		WW_SET(h->physical_block_bytes, v, SRC("physical_block_size"));
	/* smartctl writes 0 for "Solid State Device"; the record uses 1 */
	if (jget_u64(j, "rotation_rate", &v))
		WW_SET(h->rotation_rate_rpm, v ? v : 1, SRC("rotation_rate"));
}

/* smartctl's name of an attribute, interned (records are copied whole and
 * outlive the JSON); NULL when there is none or the table of names is full */
static const char *attr_name(json_object *e)
{
	json_object *n = jget(e, "name");

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
	    a->n_devstats >= WW_ATA_MAX_DEVSTATS || !jget_i64(e, "value", &v))
		return;
	jget_bool(e, "flags.normalized", &norm);
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

		if (!jget_u64(e, "id", &v) || !v || v > 255)
			continue;
		memset(a, 0, sizeof(*a));
		a->id = (uint8_t)v;
		if (jget_u64(e, "flags.value", &v))
			a->flags = (uint16_t)v;
		if (jget_u64(e, "value", &v))
			a->value = (uint8_t)v;
		if (jget_u64(e, "worst", &v))
			a->worst = (uint8_t)v;
		if (jget_u64(e, "thresh", &v)) {
			a->threshold = (uint8_t)v;
			a->has_threshold = true;
			h->ata.has_thresholds = true;
		}
		/* raw.value is smartctl's value under its byte order for this
		 * model (56/64-bit formats too): formatted as given */
		if (jget_u64(e, "raw.value", &v)) {
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
	if (num == 1 && off == 0x10 && jget_u64(e, "value", &v) && v <= UINT32_MAX)
		WW_SET(h->ata.devstat_power_on_hours, v,
		       SRC("ata_device_statistics page 1 offset 0x10"));
	else if (num == 1 && off == 0x18 && jget_u64(e, "value", &v) && v >> 48 == 0)
		WW_SET(h->ata.devstat_logical_sectors_written, v,
		       SRC("ata_device_statistics page 1 offset 0x18"));
	else if (num == 1 && off == 0x28 && jget_u64(e, "value", &v) && v >> 48 == 0)
		WW_SET(h->ata.devstat_logical_sectors_read, v,
		       SRC("ata_device_statistics page 1 offset 0x28"));
	else if (num == 5 && off == 0x08 && jget_i64(e, "value", &sv) &&
		 sv >= INT8_MIN && sv <= INT8_MAX)
		WW_SET(h->ata.devstat_temperature_celsius, sv,
		       SRC("ata_device_statistics page 5 offset 0x08"));
	else if (num == 7 && off == 0x08 && jget_u64(e, "value", &v))
		WW_SET(h->ata.devstat_percentage_used, v,
		       SRC("ata_device_statistics page 7 offset 0x08"));
}

/* ata_device_statistics.pages: every entry the drive flags valid */
static void parse_ata_devstats(json_object *pages, ww_health_t *h)
{
	for (size_t p = 0; p < json_object_array_length(pages); p++) {
		json_object *pg = json_object_array_get_idx(pages, p);
		json_object *tb = jget(pg, "table");
		uint64_t num;

		if (!jget_u64(pg, "number", &num) || !tb ||
		    !json_object_is_type(tb, json_type_array))
			continue;
		h->ata.devstat_supported = true;
		for (size_t i = 0; i < json_object_array_length(tb); i++) {
			json_object *e = json_object_array_get_idx(tb, i);
			uint64_t off, fl = 0;
			bool valid = true;

			if (!jget_u64(e, "offset", &off))
				continue;
			if (jget_u64(e, "flags.value", &fl))
				valid = (fl & 0xc0) == 0xc0;
			jget_bool(e, "flags.valid", &valid);
			if (valid)
				devstat_value(e, num, off, h);
		}
	}
}

static void parse_ata(json_object *j, ww_health_t *h)
{
	json_object *t = jget(j, "ata_smart_attributes.table");
	json_object *pages = jget(j, "ata_device_statistics.pages");
	bool passed;

	if (t && json_object_is_type(t, json_type_array))
		parse_ata_attrs(t, h);
	if (jget_bool(j, "smart_support.available", &passed)) {
		h->ata.smart_supported = passed;
		h->ata.smart_support_known = true;
	}
	if (jget_bool(j, "smart_support.enabled", &passed)) {
		h->ata.smart_enabled = passed;
		h->ata.smart_support_known = true;
	}
	if (pages && json_object_is_type(pages, json_type_array))
		parse_ata_devstats(pages, h);
	if (jget_bool(j, "smart_status.passed", &passed))
		h->ata.return_status = passed ? WW_SMART_PASSED : WW_SMART_FAILED;
}

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
		if (!jget_u128(log, c[i].key, (ww_u128 *)((char *)s + c[i].off)))
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
	json_object *a = jget(log, "temperature_sensors");

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

static void parse_nvme(json_object *log, ww_health_t *h)
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
	if (jget_u64(log, "critical_warning", &v)) {
		s->critical_warning = (uint8_t)v;
		WW_SET(h->critical_warning, v, NV("critical_warning"));
	} else {
		ww_nvme_smart_set_absent(s, NOFF(critical_warning));
	}
	/* smartctl prints Celsius; the log carries Kelvin */
	if (jget_temp(log, "temperature", &t)) {
		s->composite_temperature_kelvin = (uint16_t)(t + 273);
		WW_SET(h->temperature_celsius, t, NV("temperature"));
	} else {
		ww_nvme_smart_set_absent(s, NOFF(composite_temperature_kelvin));
	}
	if (jget_u64(log, "available_spare", &v)) {
		s->available_spare_percent = (uint8_t)v;
		WW_SET(h->available_spare_percent, v, NV("available_spare"));
	} else {
		ww_nvme_smart_set_absent(s, NOFF(available_spare_percent));
	}
	if (jget_u64(log, "available_spare_threshold", &v)) {
		s->available_spare_threshold_percent = (uint8_t)v;
		WW_SET(h->available_spare_threshold_percent, v,
		       NV("available_spare_threshold"));
	} else {
		ww_nvme_smart_set_absent(s, NOFF(available_spare_threshold_percent));
	}
	if (jget_u64(log, "percentage_used", &v)) {
		s->percentage_used = v > 255 ? 255 : (uint8_t)v;
		WW_SET(h->endurance_used_percent, v, NV("percentage_used"));
		h->endurance_used_percent.label = "smartctl";
	} else {
		ww_nvme_smart_set_absent(s, NOFF(percentage_used));
	}
	parse_nvme_counters(log, s);
	nvme_normalised(h);
	parse_nvme_sensors(log, s);
	if (jget_u64(log, "warning_temp_time", &v))
		s->warning_temperature_time_minutes = (uint32_t)v;
	else
		ww_nvme_smart_set_absent(s, NOFF(warning_temperature_time_minutes));
	if (jget_u64(log, "critical_comp_time", &v))
		s->critical_temperature_time_minutes = (uint32_t)v;
	else
		ww_nvme_smart_set_absent(s, NOFF(critical_temperature_time_minutes));
}

static bool parse_errcnt(json_object *j, const char *dir, ww_scsi_errcnt_t *c)
{
	char p[96];
	uint64_t v;
	json_object *n;
	bool any = false;

	snprintf(p, sizeof(p), "scsi_error_counter_log.%s.total_errors_corrected", dir);
	if (jget_u64(j, p, &v)) {
		WW_SET(c->corrected_total, v, SRC("scsi_error_counter_log total_errors_corrected"));
		any = true;
	}
	snprintf(p, sizeof(p), "scsi_error_counter_log.%s.total_uncorrected_errors", dir);
	if (jget_u64(j, p, &v)) {
		WW_SET(c->uncorrected, v, SRC("scsi_error_counter_log total_uncorrected_errors"));
		any = true;
	}
	snprintf(p, sizeof(p), "scsi_error_counter_log.%s.gigabytes_processed", dir);
	n = jget(j, p);
	if (n && json_object_is_type(n, json_type_string) &&
	    gb_string_to_bytes(json_object_get_string(n), &v)) {
		WW_SET(c->bytes_processed, v,
		       SRC("scsi_error_counter_log gigabytes_processed x 10^9"));
		any = true;
	}
	return any;
}

static void parse_scsi(json_object *j, ww_health_t *h)
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
	if (jget_temp(j, "temperature.current", &t) && t != 0)
		WW_SET(s->temperature_celsius, t, SRC("temperature.current"));
	if (jget_temp(j, "scsi_environmental_reports.temperature_1.current", &t))
		WW_SET(s->env_temperature_celsius, t,
		       SRC("scsi_environmental_reports.temperature_1.current"));
	if (jget_temp(j, "temperature.drive_trip", &t))
		WW_SET(s->reference_temperature_celsius, t, SRC("temperature.drive_trip"));
	if (jget_u64(j, "scsi_percentage_used_endurance_indicator", &v))
		WW_SET(s->percentage_used, v, SRC("scsi_percentage_used_endurance_indicator"));
	if (jget_u64(j, "endurance_used.current_percent", &v))
		WW_SET(s->percentage_used, v, SRC("endurance_used.current_percent"));
	if (jget_u64(j, "scsi_start_stop_cycle_counter.accumulated_start_stop_cycles", &v))
		WW_SET(s->start_stop_cycles, v,
		       SRC("scsi_start_stop_cycle_counter.accumulated_start_stop_cycles"));
	if (jget_u64(j, "scsi_start_stop_cycle_counter.specified_cycle_count_over_device_lifetime",
		     &v))
		WW_SET(s->specified_start_stop_cycles, v,
		       SRC("scsi_start_stop_cycle_counter.specified_cycle_count_over_device_lifetime"));
	if (jget_u64(j, "scsi_start_stop_cycle_counter.accumulated_load_unload_cycles", &v))
		WW_SET(s->load_unload_cycles, v,
		       SRC("scsi_start_stop_cycle_counter.accumulated_load_unload_cycles"));
	if (jget_u64(j, "scsi_start_stop_cycle_counter."
			"specified_load_unload_count_over_device_lifetime", &v))
		WW_SET(s->specified_load_unload_cycles, v,
		       SRC("scsi_start_stop_cycle_counter.specified_load_unload_count_over_device_lifetime"));
	if (jget_u64(j, "scsi_grown_defect_list", &v))
		WW_SET(s->grown_defects, v, SRC("scsi_grown_defect_list"));
	if (jget_u64(j, "power_on_time.hours", &v)) {
		jget_u64(j, "power_on_time.minutes", &m);
		s->power_on_minutes = hours_minutes(v, m, 1, SRC("power_on_time"));
	}
}

/* ata_smart_self_test_log.{standard,extended}: the counts from the table
 * (the same rule as the native log: status 3-8 failed, table[0] the
 * newest) */
static void parse_selftest(json_object *log, const char *src, ww_selftest_log_t *l)
{
	json_object *t = jget(log, "table");
	uint64_t v, hours, type;
	unsigned passed = 0;

	memset(l, 0, sizeof(*l));
	l->source = src;
	for (size_t i = 0; t && json_object_is_type(t, json_type_array) &&
			   i < json_object_array_length(t); i++) {
		json_object *e = json_object_array_get_idx(t, i);
		uint8_t st;
		bool failed;

		unsigned kind;
		bool has_lba;

		if (!jget_u64(e, "status.value", &v))
			continue;
		st = (uint8_t)(v >> 4);
		failed = st >= 3 && st <= 8;
		kind = jget_u64(e, "type.value", &type) ? ww_ata_selftest_kind((uint8_t)type)
							: WW_STK_NONE;
		hours = 0;
		jget_u64(e, "lifetime_hours", &hours);
		l->entries++;
		l->failed += failed;
		if (!l->has_last) {
			l->has_last = true;
			l->last_status = st;
			l->last_passed = st == 0 ? 1 : failed ? 0 : -1;
			l->last_hours = hours;
			l->last_kind = (uint8_t)kind;
		}
		has_lba = jget_u64(e, "lba", &v);
		if (failed && !l->has_failing_lba && has_lba) {
			l->has_failing_lba = true;
			l->failing_lba = v;
		}
		ww_selftest_fold(l, passed, kind, failed, st, hours, has_lba, has_lba ? v : 0);
		if (st == 0)
			passed |= 1u << kind;
	}
}

/* ata_smart_data: the SMART READ DATA bytes smartctl relays (ataprint.cpp):
 * capabilities.values = [byte 367 off-line data collection capability,
 * bytes 368-369 SMART capability], self_test.status.value = byte 363 (the
 * self-test execution status; remaining_percent while one runs) and
 * self_test.polling_minutes = bytes 372-376. The same fields the native
 * read fills, so the scheduler and the verdict take them alike. */
static void parse_ata_smart_data(json_object *j, ww_health_t *h)
{
	json_object *caps = jget(j, "ata_smart_data.capabilities.values");
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
	if (!jget_u64(j, "ata_smart_data.self_test.status.value", &v))
		return;
	h->ata.self_test_exec_status = (uint8_t)v;
	memset(n, 0, sizeof(*n));
	n->source = SRC("ata_smart_data.self_test");
	n->running = (v >> 4) == 15;
	n->remaining_percent = -1;
	if (n->running && jget_u64(j, "ata_smart_data.self_test.status.remaining_percent", &v) &&
	    v <= 100)
		n->remaining_percent = (int8_t)v;
	if (h->ata.has_smart_caps && (h->ata.offline_capability & 0x10)) {
		if (jget_u64(j, "ata_smart_data.self_test.polling_minutes.short", &v) && v < 65536)
			n->expected_short_s = (uint32_t)v * 60;
		if (jget_u64(j, "ata_smart_data.self_test.polling_minutes.extended", &v) &&
		    v < 65536)
			n->expected_extended_s = (uint32_t)v * 60;
	}
	if (h->ata.has_smart_caps && (h->ata.offline_capability & 0x20) &&
	    jget_u64(j, "ata_smart_data.self_test.polling_minutes.conveyance", &v) && v < 65536)
		n->expected_conveyance_s = (uint32_t)v * 60;
}

/* nvme_self_test_log (smartctl 7.4 nvmeprint.cpp, the Device Self-test log
 * 06h): current_self_test_operation.value (byte 0 bits 3-0) and
 * current_self_test_completion_percent (byte 1) while one runs; table[]
 * newest first, each self_test_code.value (the Self-test Code), its
 * self_test_result.value (bits 3-0), power_on_hours and, when the entry's
 * Failing LBA is valid, lba. Failed = result 5-7, as the native decoder. */
static void parse_nvme_selftest(json_object *log, ww_health_t *h)
{
	ww_selftest_log_t *l = &h->self_tests[WW_SELFTEST_NVME];
	ww_selftest_now_t *n = &h->self_test_now;
	json_object *t = jget(log, "table");
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

		if (!jget_u64(e, "self_test_result.value", &v) || v > 0xf)
			continue;
		res = (uint8_t)v;
		failed = res >= 5 && res <= 7;
		jget_u64(e, "self_test_code.value", &code);
		kind = code == 1      ? WW_STK_SHORT
			: code == 2   ? WW_STK_EXTENDED
			: code == 0xe ? WW_STK_VENDOR
				      : WW_STK_NONE;
		hours = 0;
		jget_u64(e, "power_on_hours", &hours);
		lba = 0;
		has_lba = jget_u64(e, "lba", &lba);
		l->entries++;
		l->failed += failed;
		if (!l->has_last) {
			l->has_last = true;
			l->last_status = res;
			l->last_passed = res == 0 ? 1 : failed ? 0 : -1;
			l->last_hours = hours;
			l->last_kind = (uint8_t)kind;
		}
		if (failed && !l->has_failing_lba && has_lba) {
			l->has_failing_lba = true;
			l->failing_lba = lba;
		}
		ww_selftest_fold(l, passed, kind, failed, res, hours, has_lba, has_lba ? lba : 0);
		if (res == 0)
			passed |= 1u << kind;
	}
	if (!jget_u64(log, "current_self_test_operation.value", &v))
		return;
	n->source = SRC("nvme_self_test_log.current_self_test_operation");
	n->running = (v & 0xf) != 0;
	n->kind = (uint8_t)(!n->running              ? WW_STK_NONE
				    : (v & 0xf) == 1 ? WW_STK_SHORT
				    : (v & 0xf) == 2 ? WW_STK_EXTENDED
						     : WW_STK_VENDOR);
	n->remaining_percent = -1;
	if (n->running && jget_u64(log, "current_self_test_completion_percent", &v) && v <= 100)
		n->remaining_percent = (int8_t)(100 - v);
}

/* scsi_self_test_0 .. scsi_self_test_19 (smartctl scsiprint.cpp, the
 * Self-Test Results log page 10h, newest first): code.value (SELF-TEST CODE,
 * 1/5 short, 2/6 extended), result.value (SELF-TEST RESULTS, 3-7 failed, Fh
 * in progress), power_on_time.hours, lba_first_failure.value when the page
 * names one; scsi_extended_self_test_seconds (the Control mode page's
 * EXTENDED SELF-TEST COMPLETION TIME). Into h->scsi as the native decoder
 * leaves it; ww_scsi_finish copies it to the record's fields. */
static void parse_scsi_selftest(json_object *j, ww_health_t *h)
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
		e = jget(j, key);
		if (!e || !jget_u64(e, "result.value", &v) || v > 0xf)
			continue;
		res = (uint8_t)v;
		failed = res >= 3 && res <= 7;
		jget_u64(e, "code.value", &code);
		kind = (code & 3) == 1    ? WW_STK_SHORT
			: (code & 3) == 2 ? WW_STK_EXTENDED
					  : WW_STK_NONE;
		jget_u64(e, "power_on_time.hours", &hours);
		has_lba = jget_u64(e, "lba_first_failure.value", &lba);
		l.entries++;
		l.failed += failed;
		if (!l.has_last) {
			l.has_last = true;
			l.last_status = res;
			l.last_passed = res == 0 ? 1 : failed ? 0 : -1;
			l.last_hours = hours;
			l.last_kind = (uint8_t)kind;
			n.source = SRC("scsi_self_test_0.result");
			n.running = res == 0xf;
			n.kind = (uint8_t)(n.running ? kind : WW_STK_NONE);
			n.remaining_percent = -1;
		}
		if (failed && !l.has_failing_lba && has_lba) {
			l.has_failing_lba = true;
			l.failing_lba = lba;
		}
		ww_selftest_fold(&l, passed, kind, failed, res, hours, has_lba, lba);
		if (res == 0)
			passed |= 1u << kind;
	}
	/* a duration alone says nothing of a running test: no source then */
	if (jget_u64(j, "scsi_extended_self_test_seconds", &v) && v <= UINT32_MAX) {
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

/* The ATA error and self-test logs smartctl read */
static void parse_ata_logs(json_object *j, ww_health_t *h)
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
		if (jget_u64(j, path, &e->count)) {
			e->source = esrc[i];
			snprintf(path, sizeof(path), "ata_smart_error_log.%s.logged_count", kind[i]);
			e->entries = jget_u64(j, path, &v) ? (uint32_t)v : 0;
		}
		snprintf(path, sizeof(path), "ata_smart_self_test_log.%s", skind[i]);
		if ((o = jget(j, path)) && json_object_is_type(o, json_type_object))
			parse_selftest(o, ssrc[i], &h->self_tests[WW_SELFTEST_ATA_STANDARD + i]);
	}
}

/* interface_speed.max/current: units_per_second x bits_per_unit */
static void parse_link(json_object *j, ww_health_t *h)
{
	uint64_t u, b;

	if (jget_u64(j, "interface_speed.max.units_per_second", &u) &&
	    jget_u64(j, "interface_speed.max.bits_per_unit", &b))
		WW_SET(h->link.max_bps, u * b, SRC("interface_speed.max"));
	if (jget_u64(j, "interface_speed.current.units_per_second", &u) &&
	    jget_u64(j, "interface_speed.current.bits_per_unit", &b))
		WW_SET(h->link.current_bps, u * b, SRC("interface_speed.current"));
}

/* smartctl's normalised keys apply its drive database; they win. */
static unsigned parse_common(json_object *j, ww_health_t *h, bool scsi)
{
	uint64_t v, m = 0;
	int64_t t;
	bool passed;

	if (!scsi && jget_temp(j, "temperature.current", &t) &&
	    (h->protocol == WW_PROTO_ATA || !WW_HAS(h->temperature_celsius)))
		WW_SET(h->temperature_celsius, t, SRC("temperature.current"));
	if (h->protocol != WW_PROTO_NVME && jget_u64(j, "power_on_time.hours", &v)) {
		jget_u64(j, "power_on_time.minutes", &m);
		h->power_on_seconds = hours_minutes(v, m, 60, SRC("power_on_time"));
	}
	if (h->protocol == WW_PROTO_ATA && jget_u64(j, "power_cycle_count", &v))
		WW_SET(h->power_cycles, v, SRC("power_cycle_count"));
	if (jget_bool(j, "smart_status.passed", &passed)) {
		h->smart_status = passed ? WW_SMART_PASSED : WW_SMART_FAILED;
		h->smart_status_source = SRC("smart_status.passed");
	}
	return 0;
}

static unsigned count_values(const ww_health_t *h)
{
	const ww_u64 *u[] = { &h->host_written_bytes, &h->host_read_bytes,
			      &h->power_on_seconds, &h->power_cycles,
			      &h->unsafe_shutdowns, &h->media_errors,
			      &h->endurance_used_percent, &h->available_spare_percent,
			      &h->critical_warning, &h->error_log_entries };
	unsigned n = WW_HAS(h->temperature_celsius) + (h->smart_status != WW_SMART_UNKNOWN);

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		n += WW_HAS(*u[i]);
	return n;
}

/* The earliest a smartctl JSON can have been written: the release of the
 * smartctl version that wrote it (smartmontools NEWS: 7.0 2018-12-30, the
 * first with -j; 7.1 2019-12-30; 7.2 2020-12-30; 7.3 2022-02-28; 7.5
 * 2025-04-30; 7.4 is bounded by 7.3). An earlier local_time is a
 * placeholder (smartctl_exporter's test files all say 1234567890, 2009),
 * not when the drive was read. UTC seconds. */
static int64_t json_since(const ww_smartctl_info_t *info)
{
	/* not formatted: a table of (minor version, release day) */
	/* clang-format off */
	static const struct { int minor; int64_t t; } rel[] = {
		{ 5, 1745971200 }, /* 2025-04-30 */
		{ 3, 1646006400 }, /* 2022-02-28 */
		{ 2, 1609286400 }, /* 2020-12-30 */
		{ 1, 1577664000 }, /* 2019-12-30 */
	};
	/* clang-format on */
	const int64_t v7_0 = 1546128000; /* 2018-12-30 */

	if (info->version_major > 7)
		return rel[0].t;
	if (info->version_major == 7)
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++)
			if (info->version_minor >= rel[i].minor)
				return rel[i].t;
	return v7_0;
}

int ww_smartctl_parse(const char *json, size_t len, ww_health_t *h,
		      ww_smartctl_info_t *info)
{
	ww_smartctl_info_t dummy;
	struct json_tokener *tok;
	json_object *j, *log, *msgs;
	char proto[16] = "";
	int64_t es;
	bool scsi;

	if (!json || !h)
		return -EINVAL;
	if (!info)
		info = &dummy;
	memset(h, 0, sizeof(*h));
	memset(info, 0, sizeof(*info));
	info->exit_status = -1;
	h->scsi.protocol_id = 0xff;
	h->backend = "smartctl";

	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	j = json_tokener_parse_ex(tok, json, (int)len);
	json_tokener_free(tok);
	if (!j || !json_object_is_type(j, json_type_object)) {
		json_object_put(j);
		return -EINVAL;
	}

	if (jget_i64(j, "smartctl.exit_status", &es))
		info->exit_status = (int)es;
	info->smartctl_json = (log = jget(j, "smartctl")) &&
			      json_object_is_type(log, json_type_object) &&
			      (jget(log, "version") || jget(log, "exit_status"));
	info->device_list = (log = jget(j, "devices")) &&
			    json_object_is_type(log, json_type_array) && !jget(j, "device");
	if ((log = jget(j, "smartctl.version")) && json_object_is_type(log, json_type_array) &&
	    json_object_array_length(log) >= 2) {
		info->version_major = json_object_get_int(json_object_array_get_idx(log, 0));
		info->version_minor = json_object_get_int(json_object_array_get_idx(log, 1));
	}
	if (jget_i64(j, "local_time.time_t", &es) && es >= json_since(info) && (time_t)es == es)
		info->local_time = (time_t)es;
	msgs = jget(j, "smartctl.messages");
	if (msgs && json_object_is_type(msgs, json_type_array) &&
	    json_object_array_length(msgs) > 0)
		jget_str(json_object_array_get_idx(msgs, 0), "string", info->message,
			 sizeof(info->message));
	jget_str(j, "device.name", info->device_name, sizeof(info->device_name));
	jget_str(j, "device.type", info->device_type, sizeof(info->device_type));
	jget_str(j, "device.protocol", proto, sizeof(proto));
	snprintf(info->protocol, sizeof(info->protocol), "%s", proto);
	/* smartctl -n: "Device is in STANDBY mode, exit(2)" (ata- and
	 * scsiprint.cpp; also SLEEP, IDLE, "STANDBY (OS)", prefixed with the
	 * device name by smartctl's own power check), exit status bit 1 */
	info->standby = info->exit_status == WW_SMARTCTL_STANDBY_EXIT ||
		(strstr(info->message, "Device is in ") && strstr(info->message, " mode, exit("));

	parse_identity(j, h);
	info->reached = *h->model || *h->serial || WW_HAS(h->capacity_bytes);

	log = jget(j, "nvme_smart_health_information_log");
	scsi = false;
	if (!strcmp(proto, "NVMe") || log) {
		h->protocol = WW_PROTO_NVME;
		if (log)
			parse_nvme(log, h);
		if ((log = jget(j, "nvme_self_test_log")) &&
		    json_object_is_type(log, json_type_object))
			parse_nvme_selftest(log, h);
		ww_nvme_finish(h);
	} else if (!strcmp(proto, "ATA") || jget(j, "ata_smart_attributes") ||
		   jget(j, "ata_smart_data")) {
		h->protocol = WW_PROTO_ATA;
		parse_ata(j, h);
		parse_ata_logs(j, h);
		parse_ata_smart_data(j, h);
		ww_ata_finish_db(h); /* + drive database presets: per-model attribute meanings */
	} else if (!strcmp(proto, "SCSI") || jget(j, "scsi_error_counter_log") ||
		   jget(j, "scsi_model_name") || jget(j, "scsi_vendor")) {
		h->protocol = WW_PROTO_SCSI;
		scsi = true;
		parse_scsi(j, h);
		parse_scsi_selftest(j, h);
		ww_scsi_finish(h);
	}
	parse_common(j, h, scsi);
	parse_link(j, h);
	if (info->exit_status >= 0 && info->exit_status <= 0xff) {
		h->has_smartctl_exit = true;
		h->smartctl_exit = (uint8_t)info->exit_status;
		if ((h->smartctl_exit & WW_SMARTCTL_BIT_FAILING) && h->smart_status == WW_SMART_UNKNOWN) {
			h->smart_status = WW_SMART_FAILED;
			h->smart_status_source = SRC("smartctl.exit_status bit 3 (SMART status failing)");
		}
	}
	info->n_values = count_values(h);
	info->has_smart = info->n_values > 0;
	json_object_put(j);
	if (!info->reached && !info->has_smart)
		return -ENODATA;
	if (ww_smartctl_read_class(info->exit_status, false) == WW_SMARTCTL_READ_FAILED &&
	    !info->standby)
		return -EIO;
	return 0;
}

ww_smartctl_read_t ww_smartctl_read_class(int exit_status, bool standby_run)
{
	if (exit_status < 0)
		return WW_SMARTCTL_READ_OK; /* no status: nothing said */
	if (standby_run && exit_status == WW_SMARTCTL_STANDBY_EXIT)
		return WW_SMARTCTL_READ_OK;
	if (exit_status & (WW_SMARTCTL_BIT_CMDLINE | WW_SMARTCTL_BIT_OPEN))
		return WW_SMARTCTL_READ_FAILED;
	if (exit_status & WW_SMARTCTL_BIT_CMDFAIL)
		return WW_SMARTCTL_READ_PARTIAL;
	return WW_SMARTCTL_READ_OK;
}

const char *ww_smartctl_exit_explain(int status, char *buf, size_t len)
{
	static const char *const bits[8] = {
		"command line did not parse", "device open failed",
		"SMART command failed or checksum error", "SMART status: failing",
		"prefail attribute at or below threshold",
		"attribute was at or below threshold in the past",
		"error log has records", "self-test log has errors",
	};
	size_t off = 0;

	if (!buf || !len)
		return "";
	buf[0] = '\0';
	if (status < 0) {
		snprintf(buf, len, "killed or not run");
		return buf;
	}
	if (status == 0) {
		snprintf(buf, len, "ok");
		return buf;
	}
	if (status == WW_SMARTCTL_STANDBY_EXIT) {
		snprintf(buf, len, "standby (not woken)");
		return buf;
	}
	for (int b = 0; b < 8; b++) {
		if (!(status & (1 << b)))
			continue;
		int n = snprintf(buf + off, len - off, "%s%s", off ? ", " : "", bits[b]);

		if (n < 0 || (size_t)n >= len - off)
			break;
		off += (size_t)n;
	}
	return buf;
}

int ww_smartctl_scan_parse(const char *json, size_t len, ww_smartctl_dev_t **out)
{
	json_object *j, *devs;
	struct json_tokener *tok = json_tokener_new();
	ww_smartctl_dev_t *o;
	size_t cap;
	int n = 0;

	if (!tok)
		return -ENOMEM;
	j = json_tokener_parse_ex(tok, json, (int)len);
	json_tokener_free(tok);
	if (!j || !json_object_is_type(j, json_type_object)) {
		json_object_put(j);
		return -EINVAL;
	}
	devs = jget(j, "devices");
	cap = devs && json_object_is_type(devs, json_type_array) ?
	      json_object_array_length(devs) : 0;
	o = calloc(cap ? cap : 1, sizeof(*o));
	if (!o) {
		json_object_put(j);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cap; i++) {
		json_object *d = json_object_array_get_idx(devs, i);

		jget_str(d, "name", o[n].name, sizeof(o[n].name));
		jget_str(d, "type", o[n].type, sizeof(o[n].type));
		jget_str(d, "protocol", o[n].protocol, sizeof(o[n].protocol));
		jget_str(d, "info_name", o[n].info_name, sizeof(o[n].info_name));
		if (*o[n].name)
			n++;
		else
			memset(&o[n], 0, sizeof(o[n]));
	}
	json_object_put(j);
	*out = o;
	return n;
}
