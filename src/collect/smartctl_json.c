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
#include "collect/smartctl_json.h"
#include "wearwatch/collect.h"
#include "wearwatch/decode.h"

/* object at a dotted path ("power_on_time.hours"), or NULL */
json_object *ww_scj_get(json_object *o, const char *path)
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
bool ww_scj_u128(json_object *o, const char *path, ww_u128 *v)
{
	json_object *n = ww_scj_get(o, path);
	char alt[96];

	snprintf(alt, sizeof(alt), "%s_s", path);
	if (ww_scj_get(o, alt) && dec_to_u128(json_object_get_string(ww_scj_get(o, alt)), v))
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

bool ww_scj_u64(json_object *o, const char *path, uint64_t *v)
{
	ww_u128 w;

	if (!ww_scj_u128(o, path, &w) || w.hi)
		return false;
	*v = w.lo;
	return true;
}

bool ww_scj_i64(json_object *o, const char *path, int64_t *v)
{
	json_object *n = ww_scj_get(o, path);

	if (!n || !json_object_is_type(n, json_type_int))
		return false;
	*v = json_object_get_int64(n);
	return true;
}

bool ww_scj_temp(json_object *o, const char *path, int64_t *v)
{
	return ww_scj_i64(o, path, v) && *v >= TEMP_MIN_C && *v <= TEMP_MAX_C;
}

/* hours and minutes in `per_minute` units (1: minutes, 60: seconds),
 * saturating at UINT64_MAX like the 128-bit counters (record.h): hours near
 * 2^64 wrapped silently before */
ww_u64 ww_scj_hours_minutes(uint64_t hours, uint64_t minutes, unsigned per_minute,
			    const char *source)
{
	unsigned __int128 x = ((unsigned __int128)hours * 60 + minutes) * per_minute;
	ww_u128 w = { (uint64_t)x, (uint64_t)(x >> 64) };

	return ww_u128_scale(w, 1, source);
}

bool ww_scj_bool(json_object *o, const char *path, bool *v)
{
	json_object *n = ww_scj_get(o, path);

	if (!n || !json_object_is_type(n, json_type_boolean))
		return false;
	*v = json_object_get_boolean(n);
	return true;
}

static void jget_str(json_object *o, const char *path, char *dst, size_t len)
{
	json_object *n = ww_scj_get(o, path);

	if (n && json_object_is_type(n, json_type_string) && !*dst)
		snprintf(dst, len, "%s", json_object_get_string(n));
}

/* "11523.849" (10^9 bytes, three decimals) to bytes, exactly. */
bool ww_scj_gb_to_bytes(const char *s, uint64_t *bytes)
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
	if (ww_scj_u64(j, "wwn.naa", &naa) && ww_scj_u64(j, "wwn.oui", &oui) &&
	    ww_scj_u64(j, "wwn.id", &id))
		snprintf(h->wwn, sizeof(h->wwn), "0x%01" PRIx64 "%06" PRIx64 "%09" PRIx64,
			 naa & 0xf, oui & 0xffffff, id & (uint64_t)0xfffffffff);
	if (ww_scj_u64(j, "user_capacity.bytes", &v))
		WW_SET(h->capacity_bytes, v, SRC("user_capacity.bytes"));
	if (ww_scj_u64(j, "logical_block_size", &v))
		WW_SET(h->logical_block_bytes, v, SRC("logical_block_size"));
	if (ww_scj_u64(j, "physical_block_size", &v))
		WW_SET(h->physical_block_bytes, v, SRC("physical_block_size"));
	/* smartctl writes 0 for "Solid State Device"; the record uses 1 */
	if (ww_scj_u64(j, "rotation_rate", &v))
		WW_SET(h->rotation_rate_rpm, v ? v : 1, SRC("rotation_rate"));
}

/* interface_speed.max/current: units_per_second x bits_per_unit */
static void parse_link(json_object *j, ww_health_t *h)
{
	uint64_t u, b;

	if (ww_scj_u64(j, "interface_speed.max.units_per_second", &u) &&
	    ww_scj_u64(j, "interface_speed.max.bits_per_unit", &b))
		WW_SET(h->link.max_bps, u * b, SRC("interface_speed.max"));
	if (ww_scj_u64(j, "interface_speed.current.units_per_second", &u) &&
	    ww_scj_u64(j, "interface_speed.current.bits_per_unit", &b))
		WW_SET(h->link.current_bps, u * b, SRC("interface_speed.current"));
}

/* smartctl's normalised keys apply its drive database; they win. */
static unsigned parse_common(json_object *j, ww_health_t *h, bool scsi)
{
	uint64_t v, m = 0;
	int64_t t;
	bool passed;

	if (!scsi && ww_scj_temp(j, "temperature.current", &t) &&
	    (h->protocol == WW_PROTO_ATA || !WW_HAS(h->temperature_celsius)))
		WW_SET(h->temperature_celsius, t, SRC("temperature.current"));
	if (h->protocol != WW_PROTO_NVME && ww_scj_u64(j, "power_on_time.hours", &v)) {
		ww_scj_u64(j, "power_on_time.minutes", &m);
		h->power_on_seconds = ww_scj_hours_minutes(v, m, 60, SRC("power_on_time"));
	}
	if (h->protocol == WW_PROTO_ATA && ww_scj_u64(j, "power_cycle_count", &v))
		WW_SET(h->power_cycles, v, SRC("power_cycle_count"));
	if (ww_scj_bool(j, "smart_status.passed", &passed)) {
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

	if (ww_scj_i64(j, "smartctl.exit_status", &es))
		info->exit_status = (int)es;
	info->smartctl_json = (log = ww_scj_get(j, "smartctl")) &&
		json_object_is_type(log, json_type_object) &&
		(ww_scj_get(log, "version") || ww_scj_get(log, "exit_status"));
	info->device_list = (log = ww_scj_get(j, "devices")) &&
		json_object_is_type(log, json_type_array) && !ww_scj_get(j, "device");
	if ((log = ww_scj_get(j, "smartctl.version")) &&
	    json_object_is_type(log, json_type_array) && json_object_array_length(log) >= 2) {
		info->version_major = json_object_get_int(json_object_array_get_idx(log, 0));
		info->version_minor = json_object_get_int(json_object_array_get_idx(log, 1));
	}
	if (ww_scj_i64(j, "local_time.time_t", &es) && es >= json_since(info) && (time_t)es == es)
		info->local_time = (time_t)es;
	msgs = ww_scj_get(j, "smartctl.messages");
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

	log = ww_scj_get(j, "nvme_smart_health_information_log");
	scsi = false;
	if (!strcmp(proto, "NVMe") || log) {
		h->protocol = WW_PROTO_NVME;
		if (log)
			ww_scj_nvme(log, h);
		if ((log = ww_scj_get(j, "nvme_self_test_log")) &&
		    json_object_is_type(log, json_type_object))
			ww_scj_nvme_selftest(log, h);
		ww_nvme_finish(h);
	} else if (!strcmp(proto, "ATA") || ww_scj_get(j, "ata_smart_attributes") ||
		   ww_scj_get(j, "ata_smart_data")) {
		h->protocol = WW_PROTO_ATA;
		ww_scj_ata(j, h);
		ww_scj_ata_logs(j, h);
		ww_scj_ata_smart_data(j, h);
		ww_ata_finish_db(h); /* + drive database presets: per-model attribute meanings */
	} else if (!strcmp(proto, "SCSI") || ww_scj_get(j, "scsi_error_counter_log") ||
		   ww_scj_get(j, "scsi_model_name") || ww_scj_get(j, "scsi_vendor")) {
		h->protocol = WW_PROTO_SCSI;
		scsi = true;
		ww_scj_scsi(j, h);
		ww_scj_scsi_selftest(j, h);
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
	devs = ww_scj_get(j, "devices");
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
