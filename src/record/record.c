/* Names, 128-bit helpers and the ATA attribute flags column for the health
 * record (see record.h). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "wearwatch/record.h"

const char *ww_protocol_name(ww_protocol_t p)
{
	static const char *const names[WW_PROTO_MAX] = {
		[WW_PROTO_NONE] = "none", [WW_PROTO_NVME] = "nvme",
		[WW_PROTO_ATA] = "ata", [WW_PROTO_SCSI] = "scsi",
	};
	return (unsigned)p < WW_PROTO_MAX ? names[p] : "none";
}

const char *ww_transport_name(ww_transport_t t)
{
	static const char *const names[WW_TRANSPORT_MAX] = {
		[WW_TRANSPORT_OTHER] = "other", [WW_TRANSPORT_NVME] = "nvme",
		[WW_TRANSPORT_SATA] = "sata",   [WW_TRANSPORT_SAS] = "sas",
		[WW_TRANSPORT_USB] = "usb",     [WW_TRANSPORT_VIRTIO] = "virtio",
	};
	return (unsigned)t < WW_TRANSPORT_MAX ? names[t] : "other";
}

uint64_t ww_u128_to_u64(ww_u128 v, bool *saturated)
{
	if (saturated)
		*saturated = v.hi != 0;
	return v.hi ? UINT64_MAX : v.lo;
}

long double ww_u128_to_ld(ww_u128 v)
{
	return (long double)v.hi * 18446744073709551616.0L + (long double)v.lo;
}

const char *ww_bytes_human(uint64_t b, char *buf, size_t len)
{
	static const char *const u[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
	long double v = (long double)b;
	int i = 0;

	while (v >= 1000 && i < 6) {
		v /= 1000;
		i++;
	}
	if (i)
		snprintf(buf, len, "%.2Lf %s", v, u[i]);
	else
		snprintf(buf, len, "%llu B", (unsigned long long)b);
	return buf;
}

char *ww_u128_to_dec(ww_u128 v, char *buf, size_t len)
{
	unsigned __int128 x = ((unsigned __int128)v.hi << 64) | v.lo;
	char tmp[48];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + (int)(x % 10));
		x /= 10;
	} while (x && n < sizeof(tmp));
	if (!buf || len == 0)
		return buf;
	if (n + 1 > len) {
		buf[0] = 0;
		return buf;
	}
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = 0;
	return buf;
}

ww_u64 ww_u128_scale(ww_u128 v, uint64_t factor, const char *source)
{
	unsigned __int128 x = ((unsigned __int128)v.hi << 64) | v.lo;
	ww_u64 out = { .source = source };

	if (factor && x > (unsigned __int128)UINT64_MAX / factor) {
		out.value = UINT64_MAX;
		out.saturated = true;
	} else {
		out.value = (uint64_t)(x * factor);
	}
	return out;
}

const char *ww_cmd_result_name(ww_cmd_result_t r)
{
	static const char *const names[WW_CMD_RESULT_MAX] = {
		[WW_CMD_OK] = "ok",
		[WW_CMD_UNSUPPORTED] = "unsupported",
		[WW_CMD_RECOVERED] = "recovered",
		[WW_CMD_DEVICE_ERROR] = "device-error",
		[WW_CMD_TRANSPORT_ERROR] = "transport-error",
		[WW_CMD_TIMEOUT] = "timeout",
		[WW_CMD_OS_ERROR] = "os-error",
	};
	return (unsigned)r < WW_CMD_RESULT_MAX ? names[r] : "unknown";
}

size_t ww_read_report_size(const ww_read_report_t *r)
{
	size_t n = r->n_cmds < WW_READ_MAX_CMDS ? r->n_cmds : WW_READ_MAX_CMDS;

	return offsetof(ww_read_report_t, cmds) + n * sizeof(r->cmds[0]);
}

const char *ww_ata_attr_flags_str(uint16_t flags, char out[8])
{
	static const char letters[] = "POSRCK";

	for (int b = 0; b < 6; b++)
		out[b] = (flags >> b) & 1 ? letters[b] : '-';
	out[6] = flags & 0xffc0 ? '+' : '\0';
	out[7] = '\0';
	return out;
}

/* ww_nvme_smart_t fields a source may leave out, in the order of their
 * `absent` bits */
static const size_t ww_nvme_optional[] = {
	offsetof(ww_nvme_smart_t, critical_warning),
	offsetof(ww_nvme_smart_t, composite_temperature_kelvin),
	offsetof(ww_nvme_smart_t, available_spare_percent),
	offsetof(ww_nvme_smart_t, available_spare_threshold_percent),
	offsetof(ww_nvme_smart_t, percentage_used),
	offsetof(ww_nvme_smart_t, endurance_group_critical_warning),
	offsetof(ww_nvme_smart_t, data_units_read),
	offsetof(ww_nvme_smart_t, data_units_written),
	offsetof(ww_nvme_smart_t, host_read_commands),
	offsetof(ww_nvme_smart_t, host_write_commands),
	offsetof(ww_nvme_smart_t, controller_busy_time_minutes),
	offsetof(ww_nvme_smart_t, power_cycles),
	offsetof(ww_nvme_smart_t, power_on_hours),
	offsetof(ww_nvme_smart_t, unsafe_shutdowns),
	offsetof(ww_nvme_smart_t, media_errors),
	offsetof(ww_nvme_smart_t, error_log_entries),
	offsetof(ww_nvme_smart_t, warning_temperature_time_minutes),
	offsetof(ww_nvme_smart_t, critical_temperature_time_minutes),
	offsetof(ww_nvme_smart_t, temperature_sensor_kelvin),
	offsetof(ww_nvme_smart_t, thermal_mgmt_temp1_transitions),
	offsetof(ww_nvme_smart_t, thermal_mgmt_temp1_time_seconds),
};

static int ww_nvme_optional_bit(size_t offset)
{
	for (size_t i = 0; i < sizeof(ww_nvme_optional) / sizeof(ww_nvme_optional[0]); i++)
		if (ww_nvme_optional[i] == offset)
			return (int)i;
	if (offset == offsetof(ww_nvme_smart_t, thermal_mgmt_temp2_transitions))
		return ww_nvme_optional_bit(offsetof(ww_nvme_smart_t, thermal_mgmt_temp1_transitions));
	if (offset == offsetof(ww_nvme_smart_t, thermal_mgmt_temp2_time_seconds))
		return ww_nvme_optional_bit(offsetof(ww_nvme_smart_t, thermal_mgmt_temp1_time_seconds));
	return -1;
}

bool ww_nvme_smart_present(const ww_nvme_smart_t *s, size_t offset)
{
	int b = ww_nvme_optional_bit(offset);

	return s && (b < 0 || !(s->absent & (1u << b)));
}

void ww_nvme_smart_set_absent(ww_nvme_smart_t *s, size_t offset)
{
	int b = ww_nvme_optional_bit(offset);

	if (s && b >= 0)
		s->absent |= 1u << b;
}

const char *const ww_errlog_names[WW_ERRLOG_MAX] = { "summary", "extended", "nvme" };
const char *const ww_selftest_names[WW_SELFTEST_MAX] = { "standard", "extended", "nvme", "scsi" };

const char *const ww_selftest_kind_names[WW_STK_MAX] = { "unknown",    "short",     "extended",
							 "conveyance", "selective", "offline",
							 "vendor" };

bool ww_selftest_covers(unsigned passed, unsigned failed)
{
	if (passed == WW_STK_EXTENDED)
		return true;
	return passed != WW_STK_NONE && passed != WW_STK_SELECTIVE && passed < WW_STK_MAX &&
		passed == failed;
}

void ww_selftest_fold(ww_selftest_log_t *l, unsigned passed_later, unsigned kind, bool failed,
		      uint8_t status, uint64_t hours, bool has_lba, uint64_t lba)
{
	if (!failed || l->has_open_failure)
		return;
	for (unsigned k = 0; k < WW_STK_MAX; k++)
		if ((passed_later >> k & 1) && ww_selftest_covers(k, kind))
			return;
	l->has_open_failure = true;
	l->open_kind = (uint8_t)(kind < WW_STK_MAX ? kind : WW_STK_NONE);
	l->open_status = status;
	l->open_hours = hours;
	l->open_has_lba = has_lba;
	l->open_lba = has_lba ? lba : 0;
}
void ww_selftest_entry(ww_selftest_log_t *l, unsigned *passed_later, bool newest, unsigned kind,
		       uint8_t status, bool failed, uint64_t hours, bool has_lba, uint64_t lba)
{
	l->entries++;
	l->failed += failed;
	if (newest) {
		l->has_last = true;
		l->last_status = status;
		l->last_passed = status == 0 ? 1 : failed ? 0 : -1;
		l->last_hours = hours;
		l->last_kind = (uint8_t)kind;
	}
	if (failed && !l->has_failing_lba && has_lba) {
		l->has_failing_lba = true;
		l->failing_lba = lba;
	}
	ww_selftest_fold(l, *passed_later, kind, failed, status, hours, has_lba, has_lba ? lba : 0);
	if (status == 0 && kind < 32)
		*passed_later |= 1u << kind;
}

const char *const ww_scsi_power_condition_names[6] = { "active", "idle_a", "idle_b",
							"idle_c", "standby_z", "standby_y" };
