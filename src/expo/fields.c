/* The record's field tables and their two walkers (see fields.h). Labels
 * and units follow what smartctl prints where it prints the field. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "expo/fields.h"

#define ROW(T, m, k, l, u, K, ...)                                                                 \
	{                                                                                          \
		.member = #m, .key = (k), .label = (l), .unit = (u), .off = offsetof(T, m),        \
		.kind = (K), __VA_ARGS__                                                           \
	}
/* an element of an array member: the same member name for the checks */
#define ELEM(T, m, i, k, l, u, K, ...)                                                             \
	{                                                                                          \
		.member = #m, .key = (k), .label = (l), .unit = (u),                               \
		.off = offsetof(T, m) + (i) * sizeof(((T *)0)->m[0]), .kind = (K), __VA_ARGS__     \
	}

#define H(m, l, u, ...) ROW(ww_health_t, m, #m, l, u, __VA_ARGS__)

const ww_field_t ww_fields_health[] = {
	H(temperature_celsius, "temperature", "celsius", WW_FK_I64),
	H(temperature_warning_celsius, "warning temperature", "celsius", WW_FK_I64),
	H(temperature_critical_celsius, "critical temperature", "celsius", WW_FK_I64),
	H(temperature_reference_celsius, "reference temperature", "celsius", WW_FK_I64),
	H(host_written_bytes, "host written", "bytes", WW_FK_U64, .fmt = WW_FF_BYTES),
	H(host_read_bytes, "host read", "bytes", WW_FK_U64, .fmt = WW_FF_BYTES),
	H(power_on_seconds, "power on time", "seconds", WW_FK_U64, .fmt = WW_FF_SECONDS),
	H(power_cycles, "power cycles", "count", WW_FK_U64),
	H(unsafe_shutdowns, "unsafe shutdowns", "count", WW_FK_U64),
	H(media_errors, "media errors", "count", WW_FK_U64),
	H(endurance_used_percent, "endurance used", "percent", WW_FK_U64),
	H(available_spare_percent, "available spare", "percent", WW_FK_U64),
	H(available_spare_threshold_percent, "available spare threshold", "percent", WW_FK_U64),
	H(critical_warning, "critical warning", "bitfield", WW_FK_U64, .fmt = WW_FF_HEX),
	H(error_log_entries, "error log entries", "count", WW_FK_U64),
	H(endurance_estimate_bytes, "endurance estimate", "bytes", WW_FK_U64, .fmt = WW_FF_BYTES),
	H(media_written_bytes, "media written", "bytes", WW_FK_U64, .fmt = WW_FF_BYTES),
	H(workload_utilization_centipercent, "workload utilization", "0.01 percent", WW_FK_U64),
	H(plp_start_count, "PLP start count", "count", WW_FK_U64),
	H(capacitor_health_percent, "capacitor health", "percent", WW_FK_U64),
	H(uncorrectable_read_errors, "uncorrectable read errors", "count", WW_FK_U64),
	H(implausible_values, "implausible values left out", NULL, WW_FK_U32, .when = WW_FW_NONZERO,
	  .source = "outside the range their spec allows"),
	{ 0 },
};

#define N(m, l, u, K, ...) ROW(ww_nvme_smart_t, m, #m, l, u, K, .when = WW_FW_NVME, __VA_ARGS__)

const ww_field_t ww_fields_nvme_smart[] = {
	N(critical_warning, "critical warning", NULL, WW_FK_U8, .fmt = WW_FF_HEX),
	N(composite_temperature_kelvin, "composite temperature", "Kelvin", WW_FK_U16),
	N(available_spare_percent, "available spare", "%", WW_FK_U8),
	N(available_spare_threshold_percent, "available spare threshold", "%", WW_FK_U8),
	N(percentage_used, "percentage used", "%", WW_FK_U8),
	N(endurance_group_critical_warning, "endurance group crit. warning", NULL, WW_FK_U8,
	  .fmt = WW_FF_HEX),
	N(data_units_read, "data units read", "x 512000 bytes", WW_FK_U128),
	N(data_units_written, "data units written", "x 512000 bytes", WW_FK_U128),
	N(host_read_commands, "host read commands", NULL, WW_FK_U128),
	N(host_write_commands, "host write commands", NULL, WW_FK_U128),
	N(controller_busy_time_minutes, "controller busy time", "minutes", WW_FK_U128),
	N(power_cycles, "power cycles", NULL, WW_FK_U128),
	N(power_on_hours, "power on hours", "hours", WW_FK_U128),
	N(unsafe_shutdowns, "unsafe shutdowns", NULL, WW_FK_U128),
	N(media_errors, "media and data integrity errors", NULL, WW_FK_U128),
	N(error_log_entries, "error log entries", NULL, WW_FK_U128),
	N(warning_temperature_time_minutes, "warning temperature time", "minutes", WW_FK_U32),
	N(critical_temperature_time_minutes, "critical temperature time", "minutes", WW_FK_U32),
	N(thermal_mgmt_temp1_transitions, "thermal mgmt 1 transitions", NULL, WW_FK_U32),
	N(thermal_mgmt_temp2_transitions, "thermal mgmt 2 transitions", NULL, WW_FK_U32),
	N(thermal_mgmt_temp1_time_seconds, "thermal mgmt 1 time", "seconds", WW_FK_U32),
	N(thermal_mgmt_temp2_time_seconds, "thermal mgmt 2 time", "seconds", WW_FK_U32),
	{ 0 },
};

#define C(m, l, u, K, ...) ROW(ww_nvme_ctrl_t, m, #m, l, u, K, __VA_ARGS__)

const ww_field_t ww_fields_nvme_ctrl[] = {
	C(vid, "PCI vendor id", NULL, WW_FK_U16, .fmt = WW_FF_HEX),
	C(version, "NVMe version", NULL, WW_FK_U32, .fmt = WW_FF_VERSION, .when = WW_FW_NONZERO),
	C(nn, "namespaces (NN)", NULL, WW_FK_U32),
	C(wctemp_kelvin, "WCTEMP", "Kelvin", WW_FK_U16, .when = WW_FW_NONZERO),
	C(cctemp_kelvin, "CCTEMP", "Kelvin", WW_FK_U16, .when = WW_FW_NONZERO),
	C(tnvmcap_bytes, "TNVMCAP", "bytes", WW_FK_U128),
	C(ctratt, "CTRATT", NULL, WW_FK_U32, .fmt = WW_FF_HEX),
	C(oacs, "OACS", NULL, WW_FK_U16, .fmt = WW_FF_HEX),
	C(lpa, "LPA", NULL, WW_FK_U8, .fmt = WW_FF_HEX),
	C(elpe, "ELPE", NULL, WW_FK_U8),
	{ 0 },
};

#define NS(m, l, u, K, ...) ROW(ww_nvme_ns_t, m, #m, l, u, K, __VA_ARGS__)

const ww_field_t ww_fields_nvme_ns[] = {
	NS(nsid, "nsid", NULL, WW_FK_U32),
	NS(size_blocks, "size", "blocks", WW_FK_RAW64),
	NS(lba_bytes, "LBA size", "bytes", WW_FK_U32),
	NS(endgid, "endurance group", NULL, WW_FK_U16),
	{ 0 },
};

#define A(m, k, l, u, K, ...) ROW(ww_ata_t, m, k, l, u, K, __VA_ARGS__)

const ww_field_t ww_fields_ata[] = {
	A(rotation_rate, "rotation_rate", "rotation rate", NULL, WW_FK_U16, .fmt = WW_FF_ROTATION,
	  .when = WW_FW_NONZERO, .source = "IDENTIFY word 217"),
	A(smart_revision, "smart_revision", "SMART revision", NULL, WW_FK_U16,
	  .when = WW_FW_NONZERO, .source = "SMART READ DATA bytes 0-1"),
	{ 0 },
};

/* Device Statistics values the model reads, under "device_statistics" */
const ww_field_t ww_fields_devstat[] = {
	A(devstat_power_on_hours, "power_on_hours", "devstat power on", "hours", WW_FK_U64),
	A(devstat_logical_sectors_written, "logical_sectors_written",
	  "devstat logical sectors written", "sectors", WW_FK_U64),
	A(devstat_logical_sectors_read, "logical_sectors_read", "devstat logical sectors read",
	  "sectors", WW_FK_U64),
	A(devstat_temperature_celsius, "temperature_celsius", "devstat temperature", "celsius",
	  WW_FK_I64),
	A(devstat_percentage_used, "percentage_used", "devstat percentage used", "percent",
	  WW_FK_U64),
	{ 0 },
};

#define S(m, k, l, u, K, ...) ROW(ww_scsi_t, m, k, l, u, K, __VA_ARGS__)
#define PT(i, name)                                                                                \
	ELEM(ww_scsi_t, power_transitions, i, "transitions_to_" name, "transitions to " name,      \
	     "count", WW_FK_U64)

const ww_field_t ww_fields_scsi[] = {
	S(peripheral_type, "peripheral_type", "peripheral device type", NULL, WW_FK_U8),
	S(protocol_id, "protocol_id", "protocol identifier", NULL, WW_FK_U8, .when = WW_FW_NOT_FF,
	  .source = "VPD 0x83"),
	S(medium_rotation_rate, "medium_rotation_rate", "medium rotation rate", NULL, WW_FK_U16,
	  .fmt = WW_FF_ROTATION, .when = WW_FW_NONZERO, .source = "VPD 0xB1"),
	S(temperature_celsius, "temperature_celsius", "temperature", "celsius", WW_FK_I64),
	S(reference_temperature_celsius, "reference_temperature_celsius", "reference temperature",
	  "celsius", WW_FK_I64),
	S(env_temperature_celsius, "environment_temperature_celsius", "environment temperature",
	  "celsius", WW_FK_I64),
	S(start_stop_cycles, "start_stop_cycles", "start-stop cycles", "count", WW_FK_U64),
	S(specified_start_stop_cycles, "specified_start_stop_cycles", "specified start-stop cycles",
	  "count", WW_FK_U64),
	S(load_unload_cycles, "load_unload_cycles", "load-unload cycles", "count", WW_FK_U64),
	S(specified_load_unload_cycles, "specified_load_unload_cycles",
	  "specified load-unload cycles", "count", WW_FK_U64),
	S(grown_defects, "grown_defects", "grown defect list", "count", WW_FK_U64),
	S(non_medium_errors, "non_medium_errors", "non-medium errors", "count", WW_FK_U64),
	PT(0, "active"),
	PT(1, "idle_a"),
	PT(2, "idle_b"),
	PT(3, "idle_c"),
	PT(4, "standby_z"),
	PT(5, "standby_y"),
	S(percentage_used, "percentage_used", "percentage used", "percent", WW_FK_U64),
	S(power_on_minutes, "power_on_minutes", "power on", "minutes", WW_FK_U64),
	S(logical_blocks_written, "logical_blocks_written", "logical blocks written", "blocks",
	  WW_FK_U64),
	S(logical_blocks_read, "logical_blocks_read", "logical blocks read", "blocks", WW_FK_U64),
	S(ie_asc, "ie_asc", "informational exception ASC", NULL, WW_FK_U64, .fmt = WW_FF_HEX),
	S(ie_ascq, "ie_ascq", "informational exception ASCQ", NULL, WW_FK_U64, .fmt = WW_FF_HEX),
	S(ie_temperature_celsius, "ie_temperature_celsius", "IE temperature", "celsius", WW_FK_I64),
	{ 0 },
};

#define E(m, l, u) ROW(ww_scsi_errcnt_t, m, #m, l, u, WW_FK_U64)

const ww_field_t ww_fields_errcnt[] = {
	E(corrected_total, "errors corrected", "count"),
	E(bytes_processed, "bytes processed", "bytes"),
	E(uncorrected, "errors uncorrected", "count"),
	{ 0 },
};

#define P(m, l, u, K, ...) ROW(ww_sas_phy_t, m, #m, l, u, K, __VA_ARGS__)

const ww_field_t ww_fields_sas_phy[] = {
	P(port, "relative target port", NULL, WW_FK_U16),
	P(phy, "phy identifier", NULL, WW_FK_U8),
	P(sas_address, "SAS address", NULL, WW_FK_RAW64, .fmt = WW_FF_HEX),
	P(link_rate, "negotiated link rate code", NULL, WW_FK_U8, .fmt = WW_FF_HEX),
	P(invalid_dwords, "invalid dwords", NULL, WW_FK_U32),
	P(running_disparity_errors, "running disparity errors", NULL, WW_FK_U32),
	P(loss_of_dword_sync, "loss of dword sync", NULL, WW_FK_U32),
	P(phy_reset_problems, "phy reset problems", NULL, WW_FK_U32),
	{ 0 },
};

const ww_field_t ww_fields_errlog[] = {
	ROW(ww_errlog_t, count, "errors", "errors counted", NULL, WW_FK_RAW64),
	ROW(ww_errlog_t, entries, "entries", "entries held", NULL, WW_FK_U32),
	{ 0 },
};

/* the newest test's rows are shown by the renderers only when has_last */
const ww_field_t ww_fields_selftest[] = {
	ROW(ww_selftest_log_t, entries, "tests", "tests", NULL, WW_FK_U32),
	ROW(ww_selftest_log_t, failed, "failed", "failed", NULL, WW_FK_U32),
	{ 0 },
};

const ww_field_t ww_fields_selftest_now[] = {
	ROW(ww_selftest_now_t, expected_short_s, "expected_short_seconds", "short test takes",
	    "seconds", WW_FK_U32, .fmt = WW_FF_SECONDS),
	ROW(ww_selftest_now_t, expected_extended_s, "expected_extended_seconds",
	    "extended test takes", "seconds", WW_FK_U32, .fmt = WW_FF_SECONDS),
	ROW(ww_selftest_now_t, expected_conveyance_s, "expected_conveyance_seconds",
	    "conveyance test takes", "seconds", WW_FK_U32, .fmt = WW_FF_SECONDS),
	{ 0 },
};

const ww_field_t ww_fields_link[] = {
	ROW(ww_link_t, max_bps, "max", "interface speed (max)", "bits/s", WW_FK_U64),
	ROW(ww_link_t, current_bps, "current", "interface speed (current)", "bits/s", WW_FK_U64),
	{ 0 },
};

/* Fields the renderers show by hand, with why: tests/layers/check_fields.py
 * reads this list (struct.member) beside the tables above. Everything else
 * numeric in record.h must be a row. */
const char *const ww_fields_by_hand[] = {
	"ww_health_t.capacity_bytes",                /* identity block: "N bytes (1.92 TB)" */
	"ww_health_t.logical_block_bytes",           /* identity block */
	"ww_health_t.physical_block_bytes",          /* identity block */
	"ww_health_t.rotation_rate_rpm",             /* identity block */
	"ww_health_t.smartctl_exit",                 /* only with has_smartctl_exit */
	"ww_health_t.n_nvme_ns",                     /* the namespaces array's length */
	"ww_nvme_smart_t.temperature_sensor_kelvin", /* eight sensors, an array */
	"ww_nvme_smart_t.absent",                    /* which fields the source carried */
	"ww_nvme_ctrl_t.ieee_oui",                   /* three bytes in smartctl's order */
	"ww_nvme_ns_t.eui64",                        /* hex, left out when all zero */
	"ww_nvme_ns_t.nguid",                        /* hex, left out when all zero */
	"ww_ata_t.n_attrs",                          /* the attribute table's length */
	"ww_ata_t.power_mode",                       /* only with has_power_mode */
	"ww_ata_t.devstat_log_pages",                /* what the reader asks for, internal */
	"ww_ata_t.devstat_pages",                    /* likewise */
	"ww_ata_t.n_devstat_pages",
	"ww_ata_t.n_devstats",            /* the entries array's length */
	"ww_ata_t.self_test_exec_status", /* reader's gate for the self-test log */
	"ww_ata_t.offline_capability",    /* likewise */
	"ww_ata_t.smart_capability",      /* likewise */
	"ww_ata_t.errorlog_capability",   /* likewise */
	"ww_ata_t.xerror_log_pages",      /* likewise */
	"ww_ata_t.xselftest_log_pages",   /* likewise */
	"ww_scsi_t.supported_pages",      /* "0x0d/0x01" list */
	"ww_scsi_t.n_supported_pages",
	"ww_scsi_t.n_sas_phys",                /* the phys array's length */
	"ww_scsi_t.n_sas_phys_dropped",        /* descriptors past the array */
	"ww_selftest_log_t.last_status",       /* only with has_last */
	"ww_selftest_log_t.last_passed",       /* likewise */
	"ww_selftest_log_t.last_hours",        /* likewise */
	"ww_selftest_log_t.failing_lba",       /* only with has_failing_lba */
	"ww_selftest_log_t.last_kind",         /* with has_last, by its name */
	"ww_selftest_log_t.open_kind",         /* only with has_open_failure, by name */
	"ww_selftest_log_t.open_status",       /* likewise */
	"ww_selftest_log_t.open_hours",        /* likewise */
	"ww_selftest_log_t.open_lba",          /* only with open_has_lba */
	"ww_selftest_now_t.kind",              /* only while running, by its name */
	"ww_selftest_now_t.remaining_percent", /* only while running and given */
	/* the attribute table: smartctl's columns in text, every member in JSON */
	"ww_ata_attr_t.*",
	"ww_ata_devstat_t.*", /* the entries list: page, offset, name, value */
	NULL,
};

bool ww_field_shown(const ww_field_t *f, const void *base)
{
	const char *p = (const char *)base + f->off;

	switch (f->kind) {
	case WW_FK_U64:
		return WW_HAS(*(const ww_u64 *)p);
	case WW_FK_I64:
		return WW_HAS(*(const ww_i64 *)p);
	default:
		break;
	}
	switch (f->when) {
	case WW_FW_NVME:
		return ww_nvme_smart_present(base, f->off);
	case WW_FW_NONZERO:
		switch (f->kind) {
		case WW_FK_U8:
			return *(const uint8_t *)p != 0;
		case WW_FK_U16:
			return *(const uint16_t *)p != 0;
		case WW_FK_U32:
			return *(const uint32_t *)p != 0;
		default:
			return *(const uint64_t *)p != 0;
		}
	case WW_FW_NOT_FF:
		return *(const uint8_t *)p != 0xff;
	default:
		return true;
	}
}

/* a plain value as an unsigned integer (u128 saturates: the text shows the
 * exact decimal on its own) */
static uint64_t plain(const ww_field_t *f, const char *p)
{
	switch (f->kind) {
	case WW_FK_U8:
		return *(const uint8_t *)p;
	case WW_FK_U16:
		return *(const uint16_t *)p;
	case WW_FK_U32:
		return *(const uint32_t *)p;
	case WW_FK_BOOL:
		return *(const bool *)p;
	case WW_FK_U128:
		return ww_u128_to_u64(*(const ww_u128 *)p, NULL);
	default:
		return *(const uint64_t *)p;
	}
}

static json_object *j_u64(uint64_t v)
{
	char buf[24];

	if (v <= (uint64_t)INT64_MAX)
		return json_object_new_int64((int64_t)v);
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return json_object_new_string(buf);
}

static json_object *j_value(const ww_field_t *f, const char *p)
{
	char buf[48];
	ww_u128 v;

	switch (f->kind) {
	case WW_FK_BOOL:
		return json_object_new_boolean(*(const bool *)p);
	case WW_FK_RAW64:
		/* a 64-bit identifier (SAS address) is no quantity: as hex
		 * text, which a browser's doubles cannot round */
		if (f->fmt == WW_FF_HEX) {
			snprintf(buf, sizeof(buf), "0x%016" PRIx64, *(const uint64_t *)p);
			return json_object_new_string(buf);
		}
		return j_u64(plain(f, p));
	case WW_FK_U128:
		v = *(const ww_u128 *)p;
		if (!v.hi && v.lo <= (uint64_t)INT64_MAX)
			return json_object_new_int64((int64_t)v.lo);
		return json_object_new_string(ww_u128_to_dec(v, buf, sizeof(buf)));
	default:
		return j_u64(plain(f, p));
	}
}

void ww_fields_json(void *obj, const ww_field_t *t, const void *base)
{
	json_object *o = obj, *e;

	for (const ww_field_t *f = t; f->member; f++) {
		const char *p = (const char *)base + f->off;

		if (!ww_field_shown(f, base))
			continue;
		if (f->kind != WW_FK_U64 && f->kind != WW_FK_I64) {
			json_object_object_add(o, f->key, j_value(f, p));
			continue;
		}
		e = json_object_new_object();
		if (f->kind == WW_FK_U64)
			json_object_object_add(e, "value", j_u64(((const ww_u64 *)p)->value));
		else
			json_object_object_add(e, "value",
					       json_object_new_int64(((const ww_i64 *)p)->value));
		if (f->unit)
			json_object_object_add(e, "unit", json_object_new_string(f->unit));
		json_object_object_add(
			e, "source",
			json_object_new_string(f->kind == WW_FK_U64 ? ((const ww_u64 *)p)->source
								    : ((const ww_i64 *)p)->source));
		if (f->kind == WW_FK_U64 && ((const ww_u64 *)p)->saturated)
			json_object_object_add(e, "saturated", json_object_new_boolean(1));
		json_object_object_add(o, f->key, e);
	}
}

/* The unit as people read it beside a number: the JSON units are names
 * ("celsius", "percent"); text prints what smartctl prints. */
static const char *text_unit(const char *unit)
{
	static const char *const map[][2] = {
		{ "celsius", "Celsius" },
		{ "percent", "%" },
		{ "count", "" },
		{ "bitfield", "" },
	};

	for (size_t i = 0; unit && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(unit, map[i][0]))
			return map[i][1];
	return unit ? unit : "";
}

/* the value of row f as text people read, into buf */
static const char *text_value(const ww_field_t *f, const char *p, char *buf, size_t len)
{
	bool sat = f->kind == WW_FK_U64 && ((const ww_u64 *)p)->saturated;
	uint64_t v = f->kind == WW_FK_U64 ? ((const ww_u64 *)p)->value : plain(f, p);
	const char *unit = text_unit(f->unit);
	char hb[48];

	if (f->kind == WW_FK_I64) {
		snprintf(buf, len, "%" PRId64 "%s%s", ((const ww_i64 *)p)->value, *unit ? " " : "",
			 unit);
		return buf;
	}
	switch (f->fmt) {
	case WW_FF_HEX:
		snprintf(buf, len, "0x%02" PRIx64, v);
		break;
	case WW_FF_BYTES:
		snprintf(buf, len, "%" PRIu64 " bytes (%s)", v, ww_bytes_human(v, hb, sizeof(hb)));
		break;
	case WW_FF_SECONDS:
		snprintf(buf, len, "%" PRIu64 " seconds (%" PRIu64 " h)", v, v / 3600);
		break;
	case WW_FF_ROTATION:
		if (v == 1)
			snprintf(buf, len, "non-rotating (solid state)");
		else if (v)
			snprintf(buf, len, "%" PRIu64 " rpm", v);
		else
			snprintf(buf, len, "not reported");
		break;
	case WW_FF_VERSION:
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 ".%" PRIu64, v >> 16, (v >> 8) & 0xff,
			 v & 0xff);
		break;
	case WW_FF_YESNO:
		snprintf(buf, len, "%s", v ? "yes" : "no");
		break;
	default:
		if (f->kind == WW_FK_U128)
			ww_u128_to_dec(*(const ww_u128 *)p, hb, sizeof(hb));
		else
			snprintf(hb, sizeof(hb), "%" PRIu64, v);
		snprintf(buf, len, "%s%s%s", hb, *unit ? " " : "", unit);
		break;
	}
	if (sat) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " (saturated)");
	}
	return buf;
}

void ww_fields_text(FILE *out, const ww_field_t *t, const void *base, const char *label_pre)
{
	for (const ww_field_t *f = t; f->member; f++) {
		const char *p = (const char *)base + f->off, *src = f->source;
		char lbl[96], val[96];

		if (!ww_field_shown(f, base))
			continue;
		if (f->kind == WW_FK_U64)
			src = ((const ww_u64 *)p)->source;
		else if (f->kind == WW_FK_I64)
			src = ((const ww_i64 *)p)->source;
		snprintf(lbl, sizeof(lbl), "%s%s", label_pre ? label_pre : "", f->label);
		fprintf(out, "  %-28s %s", lbl, text_value(f, p, val, sizeof(val)));
		if (src)
			fprintf(out, "   [%s]", src);
		fputc('\n', out);
	}
}
