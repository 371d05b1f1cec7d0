/* Prometheus text exposition 0.0.4 of a snapshot (see expo.h, docs/metrics.md).
 *
 * One family at a time over every drive, so each family's samples are
 * contiguous under one HELP/TYPE. The header is written lazily with the first
 * sample: a family with no value on any drive does not appear. Integers are
 * printed as integers (128-bit ones too), never through a double. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/expo.h"
#include "wearwatch/store.h"
#include "expo/metrics_backend.h"
#include "expo/metrics_history.h"
#include "expo/probe_expo.h"

#ifndef WW_VERSION_STRING
#define WW_VERSION_STRING "0.1.0"
#endif

typedef unsigned __int128 u128;

struct out {
	FILE *f;
	const char *name, *type, *help;
	bool hdr;
};

static void fam(struct out *o, const char *name, const char *type, const char *help)
{
	o->name = name;
	o->type = type;
	o->help = help;
	o->hdr = false;
}

static void put_escaped(FILE *f, const char *v)
{
	for (; v && *v; v++) {
		switch (*v) {
		case '\\': fputs("\\\\", f); break;
		case '"': fputs("\\\"", f); break;
		case '\n': fputs("\\n", f); break;
		default: fputc(*v, f);
		}
	}
}

/* "name{drive=\"id\"" (header first if needed); close with a value writer. */
static void s_open(struct out *o, const ww_drive_state_t *st)
{
	if (!o->hdr) {
		fprintf(o->f, "# HELP %s %s\n# TYPE %s %s\n", o->name, o->help, o->name, o->type);
		o->hdr = true;
	}
	fprintf(o->f, "%s{drive=\"", o->name);
	put_escaped(o->f, st->drive.id);
	fputc('"', o->f);
}

static void s_lbl(struct out *o, const char *k, const char *v)
{
	fprintf(o->f, ",%s=\"", k);
	put_escaped(o->f, v);
	fputc('"', o->f);
}

static void s_u64(struct out *o, uint64_t v)
{
	fprintf(o->f, "} %llu\n", (unsigned long long)v);
}

static void s_i64(struct out *o, int64_t v)
{
	fprintf(o->f, "} %lld\n", (long long)v);
}

static void s_u128(struct out *o, u128 v)
{
	char tmp[48];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	fputs("} ", o->f);
	while (n)
		fputc(tmp[--n], o->f);
	fputc('\n', o->f);
}

/* percent / 100 exactly: 3 -> 0.03, 120 -> 1.2, 100 -> 1 */
static void s_ratio(struct out *o, uint64_t percent)
{
	uint64_t ip = percent / 100, fp = percent % 100;

	if (!fp)
		fprintf(o->f, "} %llu\n", (unsigned long long)ip);
	else if (fp % 10 == 0)
		fprintf(o->f, "} %llu.%llu\n", (unsigned long long)ip, (unsigned long long)(fp / 10));
	else
		fprintf(o->f, "} %llu.%02llu\n", (unsigned long long)ip, (unsigned long long)fp);
}

static void s_dbl(struct out *o, double v)
{
	fprintf(o->f, "} %.6f\n", v);
}

static u128 u128_of(ww_u128 v)
{
	return ((u128)v.hi << 64) | v.lo;
}

/* health values are shown for present drives that were read at least once */
static const ww_health_t *vis(const ww_drive_state_t *st)
{
	return st->present && st->has_health ? &st->health : NULL;
}

/* "ata_attribute_241" from a source like "ATA attribute 241", else NULL */
static const char *attr_label(const char *src, char *buf, size_t len)
{
	const char *p = src ? strstr(src, "attribute ") : NULL;
	unsigned id;

	if (!p || sscanf(p + 10, "%u", &id) != 1 || id > 255)
		return NULL;
	snprintf(buf, len, "ata_attribute_%u", id);
	return buf;
}

const char *ww_metrics_source_label(const ww_health_t *h, const ww_u64 *field,
				    char *buf, size_t len)
{
	const char *src = field->source;
	const char *a;

	if (!src)
		return NULL;
	/* the decoders name the counter a derived value came from */
	if (field->label)
		return field->label;
	a = attr_label(src, buf, len);
	if (a)
		return a;
	return ww_protocol_name(h->protocol);
}

static const char *const nvme_cw_bits[6] = {
	"available_spare", "temperature", "reliability", "read_only",
	"volatile_memory_backup_failed", "persistent_memory_region",
};

#define FOR_DRIVES(st) \
	for (const ww_drive_state_t *st = snap->drives; st < snap->drives + snap->n; st++)

/* one u64 family from a ww_u64 record field, no extra labels */
#define U64_FAMILY(o, name, type, help, field)                                 \
	do {                                                                   \
		fam(o, name, type, help);                                      \
		FOR_DRIVES(st) {                                               \
			const ww_health_t *h = vis(st);                        \
			if (h && WW_HAS(h->field)) {                           \
				s_open(o, st);                                 \
				s_u64(o, h->field.value);                      \
			}                                                      \
		}                                                              \
	} while (0)

#define I64_FAMILY(o, name, help, field)                                       \
	do {                                                                   \
		fam(o, name, "gauge", help);                                   \
		FOR_DRIVES(st) {                                               \
			const ww_health_t *h = vis(st);                        \
			if (h && WW_HAS(h->field)) {                           \
				s_open(o, st);                                 \
				s_i64(o, h->field.value);                      \
			}                                                      \
		}                                                              \
	} while (0)

/* NVMe SMART log u128 counter scaled by `mul` */
#define NVME_FAMILY(o, name, help, expr)                                       \
	do {                                                                   \
		fam(o, name, "counter", help);                                 \
		FOR_DRIVES(st) {                                               \
			const ww_health_t *h = vis(st);                        \
			if (h && h->has_nvme_smart) {                          \
				const ww_nvme_smart_t *n = &h->nvme_smart;     \
				s_open(o, st);                                 \
				s_u128(o, (expr));                             \
			}                                                      \
		}                                                              \
	} while (0)

static const ww_ata_attr_t *ata_attr(const ww_health_t *h, uint8_t id)
{
	if (h->protocol != WW_PROTO_ATA)
		return NULL;
	for (size_t i = 0; i < h->ata.n_attrs && i < WW_ATA_MAX_ATTRS; i++)
		if (h->ata.attrs[i].id == id)
			return &h->ata.attrs[i];
	return NULL;
}

static void ata_named(struct out *o, const ww_snapshot_t *snap, uint8_t id,
		      const char *name, const char *type, const char *help)
{
	fam(o, name, type, help);
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);
		const ww_ata_attr_t *a = h ? ata_attr(h, id) : NULL;

		if (a) {
			s_open(o, st);
			s_u64(o, a->raw & 0xffffffffffffull);
		}
	}
}

static void scsi_errcnt(struct out *o, const ww_snapshot_t *snap, const char *name,
			const char *help, size_t off)
{
	static const char *const ops[3] = { "write", "read", "verify" };

	fam(o, name, "counter", help);
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (!h || h->protocol != WW_PROTO_SCSI)
			continue;
		const ww_scsi_errcnt_t *e[3] = { &h->scsi.write_errors, &h->scsi.read_errors,
						 &h->scsi.verify_errors };
		for (int i = 0; i < 3; i++) {
			const ww_u64 *v = (const ww_u64 *)((const char *)e[i] + off);

			if (!WW_HAS(*v))
				continue;
			s_open(o, st);
			s_lbl(o, "operation", ops[i]);
			s_u64(o, v->value);
		}
	}
}

static void render(FILE *f, const ww_snapshot_t *snap, time_t now)
{
	struct out O = { .f = f }, *o = &O;
	char buf[48];

	fam(o, "wearwatch_drive_info", "gauge",
	    "Drive identity; value is always 1. model/serial/firmware/wwn from the drive when read, else sysfs.");
	FOR_DRIVES(st) {
		const ww_drive_t *d = &st->drive;
		const ww_health_t *h = st->has_health ? &st->health : NULL;

		s_open(o, st);
		s_lbl(o, "device", d->block);
		s_lbl(o, "model", h && h->model[0] ? h->model : d->sysfs_model);
		s_lbl(o, "serial", h && h->serial[0] ? h->serial : d->sysfs_serial);
		s_lbl(o, "firmware", h ? h->firmware : "");
		s_lbl(o, "wwn", h && h->wwn[0] ? h->wwn : d->sysfs_wwn);
		s_lbl(o, "transport", ww_transport_name(ww_drive_transport(d, h)));
		s_lbl(o, "protocol", ww_protocol_name(d->protocol));
		s_lbl(o, "slot", d->slot);
		s_u64(o, 1);
	}

	fam(o, "wearwatch_drive_present", "gauge",
	    "1 when the latest discovery listed the drive, 0 while it is missing (kept for the retention time).");
	FOR_DRIVES(st) {
		s_open(o, st);
		s_u64(o, st->present);
	}

	fam(o, "wearwatch_drive_capacity_bytes", "gauge", "Drive capacity in bytes.");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);
		uint64_t v = h && WW_HAS(h->capacity_bytes) ? h->capacity_bytes.value
							    : st->drive.capacity_bytes;
		if (!st->present || !v)
			continue;
		s_open(o, st);
		s_u64(o, v);
	}

	I64_FAMILY(o, "wearwatch_drive_temperature_celsius",
		   "Current drive temperature (NVMe composite, ATA attribute 194/190 or device statistics, SCSI page 0x0D).",
		   temperature_celsius);

	fam(o, "wearwatch_drive_temperature_limit_celsius", "gauge",
	    "Temperature limits the drive reports: NVMe WCTEMP (warning), CCTEMP (critical), SCSI reference temperature.");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (!h)
			continue;
		const ww_i64 *v[3] = { &h->temperature_warning_celsius,
				       &h->temperature_critical_celsius,
				       &h->temperature_reference_celsius };
		static const char *const kinds[3] = { "warning", "critical", "reference" };
		for (int i = 0; i < 3; i++) {
			if (!WW_HAS(*v[i]))
				continue;
			s_open(o, st);
			s_lbl(o, "kind", kinds[i]);
			s_i64(o, v[i]->value);
		}
	}

	fam(o, "wearwatch_drive_host_written_bytes_total", "counter",
	    "Bytes the host wrote to the drive; source names the counter it is computed from.");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (!h || !WW_HAS(h->host_written_bytes))
			continue;
		s_open(o, st);
		s_lbl(o, "source", ww_metrics_source_label(h, &h->host_written_bytes, buf, sizeof(buf)));
		s_u64(o, h->host_written_bytes.value);
	}

	fam(o, "wearwatch_drive_host_read_bytes_total", "counter",
	    "Bytes the host read from the drive; source names the counter it is computed from.");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (!h || !WW_HAS(h->host_read_bytes))
			continue;
		s_open(o, st);
		s_lbl(o, "source", ww_metrics_source_label(h, &h->host_read_bytes, buf, sizeof(buf)));
		s_u64(o, h->host_read_bytes.value);
	}

	U64_FAMILY(o, "wearwatch_drive_power_on_seconds_total", "counter",
		   "Power-on time in seconds (drive counters have hour or minute resolution).",
		   power_on_seconds);
	U64_FAMILY(o, "wearwatch_drive_power_cycles_total", "counter",
		   "Power cycles (NVMe power cycles, ATA attribute 12, SCSI start-stop cycles).",
		   power_cycles);
	U64_FAMILY(o, "wearwatch_drive_unsafe_shutdowns_total", "counter",
		   "Unsafe shutdowns (NVMe SMART log, ATA attribute 174/192).", unsafe_shutdowns);
	U64_FAMILY(o, "wearwatch_drive_media_errors_total", "counter",
		   "Unrecovered media and data integrity errors the drive reports.", media_errors);

	fam(o, "wearwatch_drive_endurance_used_ratio", "gauge",
	    "Drive's own estimate of endurance used (percentage used / 100); may exceed 1.");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (!h || !WW_HAS(h->endurance_used_percent))
			continue;
		s_open(o, st);
		s_lbl(o, "source", ww_metrics_source_label(h, &h->endurance_used_percent, buf, sizeof(buf)));
		s_ratio(o, h->endurance_used_percent.value);
	}

	fam(o, "wearwatch_drive_available_spare_ratio", "gauge",
	    "Remaining spare capacity (NVMe available spare / 100).");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (h && WW_HAS(h->available_spare_percent)) {
			s_open(o, st);
			s_ratio(o, h->available_spare_percent.value);
		}
	}
	fam(o, "wearwatch_drive_available_spare_threshold_ratio", "gauge",
	    "Available spare below which the drive raises a critical warning (NVMe threshold / 100).");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (h && WW_HAS(h->available_spare_threshold_percent)) {
			s_open(o, st);
			s_ratio(o, h->available_spare_threshold_percent.value);
		}
	}

	fam(o, "wearwatch_drive_critical_warning", "gauge",
	    "NVMe SMART log critical warning bits 0-5, one series per bit (1 = raised).");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (!h || !WW_HAS(h->critical_warning))
			continue;
		for (int b = 0; b < 6; b++) {
			s_open(o, st);
			s_lbl(o, "bit", nvme_cw_bits[b]);
			s_u64(o, (h->critical_warning.value >> b) & 1);
		}
	}

	fam(o, "wearwatch_drive_smart_healthy", "gauge",
	    "Overall SMART verdict of the drive: 1 passed, 0 failed (omitted when not reported).");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (!h || h->smart_status == WW_SMART_UNKNOWN)
			continue;
		s_open(o, st);
		s_u64(o, h->smart_status == WW_SMART_PASSED);
	}

	/* ------------------------------------------------------------ ATA --- */
	fam(o, "wearwatch_drive_ata_attribute", "gauge",
	    "ATA SMART attribute: normalised value, worst, threshold and raw (48-bit integer as smartctl's raw48).");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (!h || h->protocol != WW_PROTO_ATA)
			continue;
		for (size_t i = 0; i < h->ata.n_attrs && i < WW_ATA_MAX_ATTRS; i++) {
			const ww_ata_attr_t *a = &h->ata.attrs[i];
			char id[8];
			static const char *const kinds[4] = { "value", "worst", "threshold", "raw" };
			uint64_t v[4] = { a->value, a->worst, a->threshold, a->raw & 0xffffffffffffull };

			if (!a->id)
				continue;
			snprintf(id, sizeof(id), "%u", a->id);
			for (int k = 0; k < 4; k++) {
				if (k == 2 && !a->has_threshold)
					continue;
				s_open(o, st);
				s_lbl(o, "id", id);
				s_lbl(o, "name", a->name ? a->name : "Unknown_Attribute");
				s_lbl(o, "kind", kinds[k]);
				s_u64(o, v[k]);
			}
		}
	}
	ata_named(o, snap, 5, "wearwatch_drive_ata_reallocated_sectors_total", "counter",
		  "ATA attribute 5 Reallocated_Sector_Ct raw value.");
	ata_named(o, snap, 187, "wearwatch_drive_ata_reported_uncorrectable_errors_total", "counter",
		  "ATA attribute 187 Reported_Uncorrect raw value.");
	ata_named(o, snap, 188, "wearwatch_drive_ata_command_timeouts_total", "counter",
		  "ATA attribute 188 Command_Timeout raw value (48-bit; some vendors pack several counters).");
	ata_named(o, snap, 197, "wearwatch_drive_ata_current_pending_sectors", "gauge",
		  "ATA attribute 197 Current_Pending_Sector raw value (decreases when sectors are remapped).");
	ata_named(o, snap, 198, "wearwatch_drive_ata_offline_uncorrectable_sectors", "gauge",
		  "ATA attribute 198 Offline_Uncorrectable raw value (may decrease after a scan).");
	ata_named(o, snap, 199, "wearwatch_drive_ata_udma_crc_errors_total", "counter",
		  "ATA attribute 199 UDMA_CRC_Error_Count raw value (interface CRC errors: cabling).");

	/* ----------------------------------------------------------- NVMe --- */
	NVME_FAMILY(o, "wearwatch_drive_nvme_controller_busy_seconds_total",
		    "NVMe controller busy time (SMART log, minutes x 60).",
		    u128_of(n->controller_busy_time_minutes) * 60);
	NVME_FAMILY(o, "wearwatch_drive_nvme_warning_temperature_seconds_total",
		    "Time the composite temperature was at or above WCTEMP (SMART log, minutes x 60).",
		    (u128)n->warning_temperature_time_minutes * 60);
	NVME_FAMILY(o, "wearwatch_drive_nvme_critical_temperature_seconds_total",
		    "Time the composite temperature was at or above CCTEMP (SMART log, minutes x 60).",
		    (u128)n->critical_temperature_time_minutes * 60);
	NVME_FAMILY(o, "wearwatch_drive_nvme_host_read_commands_total",
		    "NVMe host read commands completed.", u128_of(n->host_read_commands));
	NVME_FAMILY(o, "wearwatch_drive_nvme_host_write_commands_total",
		    "NVMe host write commands completed.", u128_of(n->host_write_commands));
	NVME_FAMILY(o, "wearwatch_drive_nvme_error_log_entries_total",
		    "NVMe error information log entries over the controller's life.",
		    u128_of(n->error_log_entries));
	NVME_FAMILY(o, "wearwatch_drive_nvme_data_units_written_total",
		    "NVMe data units written (1 unit = 1000 x 512 bytes), exact 128-bit counter.",
		    u128_of(n->data_units_written));
	NVME_FAMILY(o, "wearwatch_drive_nvme_data_units_read_total",
		    "NVMe data units read (1 unit = 1000 x 512 bytes), exact 128-bit counter.",
		    u128_of(n->data_units_read));

	fam(o, "wearwatch_drive_nvme_endurance_group_critical_warning", "gauge",
	    "NVMe endurance group critical warning summary byte (SMART log byte 6).");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (h && h->has_nvme_smart) {
			s_open(o, st);
			s_u64(o, h->nvme_smart.endurance_group_critical_warning);
		}
	}

	fam(o, "wearwatch_drive_nvme_temperature_sensor_celsius", "gauge",
	    "NVMe temperature sensors 1-8 (Kelvin - 273; sensors reporting 0 are omitted).");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (!h || !h->has_nvme_smart)
			continue;
		for (int i = 0; i < 8; i++) {
			uint16_t k = h->nvme_smart.temperature_sensor_kelvin[i];
			char id[4];

			if (!k)
				continue;
			snprintf(id, sizeof(id), "%d", i + 1);
			s_open(o, st);
			s_lbl(o, "sensor", id);
			s_i64(o, (int64_t)k - 273);
		}
	}

	fam(o, "wearwatch_drive_nvme_thermal_management_transitions_total", "counter",
	    "Times the controller entered host controlled thermal management level 1 or 2.");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (!h || !h->has_nvme_smart)
			continue;
		s_open(o, st);
		s_lbl(o, "limit", "1");
		s_u64(o, h->nvme_smart.thermal_mgmt_temp1_transitions);
		s_open(o, st);
		s_lbl(o, "limit", "2");
		s_u64(o, h->nvme_smart.thermal_mgmt_temp2_transitions);
	}
	fam(o, "wearwatch_drive_nvme_thermal_management_seconds_total", "counter",
	    "Time spent in host controlled thermal management level 1 or 2.");
	FOR_DRIVES(st) {
		const ww_health_t *h = vis(st);

		if (!h || !h->has_nvme_smart)
			continue;
		s_open(o, st);
		s_lbl(o, "limit", "1");
		s_u64(o, h->nvme_smart.thermal_mgmt_temp1_time_seconds);
		s_open(o, st);
		s_lbl(o, "limit", "2");
		s_u64(o, h->nvme_smart.thermal_mgmt_temp2_time_seconds);
	}

	/* ----------------------------------------------------------- SCSI --- */
	U64_FAMILY(o, "wearwatch_drive_scsi_informational_exception_asc", "gauge",
		   "SCSI Informational Exceptions log (0x2F) additional sense code; 0 = no exception.",
		   scsi.ie_asc);
	U64_FAMILY(o, "wearwatch_drive_scsi_informational_exception_ascq", "gauge",
		   "SCSI Informational Exceptions log (0x2F) additional sense code qualifier.",
		   scsi.ie_ascq);
	U64_FAMILY(o, "wearwatch_drive_scsi_start_stop_cycles_total", "counter",
		   "SCSI start-stop cycles accumulated (log page 0x0E).", scsi.start_stop_cycles);
	U64_FAMILY(o, "wearwatch_drive_scsi_specified_start_stop_cycles", "gauge",
		   "SCSI start-stop cycles the drive is specified for over its life (log page 0x0E).",
		   scsi.specified_start_stop_cycles);
	scsi_errcnt(o, snap, "wearwatch_drive_scsi_corrected_errors_total",
		    "SCSI errors corrected (error counter pages 0x02/0x03/0x05, total corrected).",
		    offsetof(ww_scsi_errcnt_t, corrected_total));
	scsi_errcnt(o, snap, "wearwatch_drive_scsi_uncorrected_errors_total",
		    "SCSI errors not corrected (error counter pages 0x02/0x03/0x05).",
		    offsetof(ww_scsi_errcnt_t, uncorrected));
	scsi_errcnt(o, snap, "wearwatch_drive_scsi_processed_bytes_total",
		    "SCSI bytes processed (error counter pages 0x02/0x03/0x05 parameter 0005h).",
		    offsetof(ww_scsi_errcnt_t, bytes_processed));

	/* ---------------------------------------------------------- state --- */
	fam(o, "wearwatch_drive_standby", "gauge",
	    "1 when the last poll left the drive alone (ATA standby or runtime-suspended); values are from before.");
	FOR_DRIVES(st) {
		if (!st->present)
			continue;
		s_open(o, st);
		s_u64(o, st->standby);
	}
	fam(o, "wearwatch_drive_hung", "gauge",
	    "1 while a read of the drive has been outstanding too long; no new command is sent until it returns.");
	FOR_DRIVES(st) {
		s_open(o, st);
		s_u64(o, st->hung);
	}
	fam(o, "wearwatch_drive_collect_success", "gauge",
	    "1 when the last collection returned data or found the drive in standby, 0 when it failed.");
	FOR_DRIVES(st) {
		if (!st->collections_total)
			continue;
		s_open(o, st);
		s_u64(o, st->last_success);
	}
	fam(o, "wearwatch_drive_collect_duration_seconds", "gauge",
	    "Duration of the last collection of the drive.");
	FOR_DRIVES(st) {
		if (!st->collections_total)
			continue;
		s_open(o, st);
		s_dbl(o, st->last_duration_s);
	}
	fam(o, "wearwatch_drive_last_collect_timestamp_seconds", "gauge",
	    "Unix time the last collection of the drive finished.");
	FOR_DRIVES(st) {
		if (!st->last_collect)
			continue;
		s_open(o, st);
		s_i64(o, st->last_collect);
	}
	fam(o, "wearwatch_drive_values_timestamp_seconds", "gauge",
	    "Unix time the health values exposed for the drive were read (older than the last collection in standby).");
	FOR_DRIVES(st) {
		if (!vis(st) || !st->values_time)
			continue;
		s_open(o, st);
		s_i64(o, st->values_time);
	}
	fam(o, "wearwatch_drive_collections_total", "counter",
	    "Collections of the drive that finished (successful or not).");
	FOR_DRIVES(st) {
		s_open(o, st);
		s_u64(o, st->collections_total);
	}
	fam(o, "wearwatch_drive_collect_errors_total", "counter",
	    "Failed collections plus failed commands and decode errors inside collections.");
	FOR_DRIVES(st) {
		s_open(o, st);
		s_u64(o, st->errors_total);
	}
	fam(o, "wearwatch_drive_unsupported_commands", "gauge",
	    "Commands or log pages the drive reported as unsupported in the last read (a capability, not an error).");
	FOR_DRIVES(st) {
		if (!vis(st))
			continue;
		s_open(o, st);
		s_u64(o, st->report.n_unsupported);
	}

	ww_metrics_render_endurance(f, snap, now);
	ww_metrics_render_probe(f, snap); /* issue 4 */
	ww_metrics_render_backend(f, snap); /* issue 7 */
	ww_metrics_render_history(f); /* history write errors */
	ww_metrics_render_process(f);
	(void)now;
	fputs("# HELP wearwatch_build_info wearwatch build; value is always 1.\n"
	      "# TYPE wearwatch_build_info gauge\n"
	      "wearwatch_build_info{version=\"" WW_VERSION_STRING "\"} 1\n", f);
}

char *ww_metrics_render(const ww_snapshot_t *snap, time_t now, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	if (snap)
		render(f, snap, now);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}
