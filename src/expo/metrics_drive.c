/* /metrics families of each drive's identity, collection state and health
 * record (docs/metrics.md "Identity and state", "Normalised health", "ATA",
 * "NVMe", "SCSI"). Rows in the order they are written; the getters of the
 * shapes the generic ones (metrics.c) do not cover sit above the table. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "expo/metrics_table.h"

#define HOFF(field) offsetof(ww_health_t, field)
#define NOFF(field) offsetof(ww_nvme_smart_t, field)
#define EOFF(field) offsetof(ww_scsi_errcnt_t, field)
#define POFF(field) offsetof(ww_sas_phy_t, field)

/* -------------------------------------------------- identity and state --- */

/* The world-wide name: the drive's own, else sysfs wwid when it is one (an
 * NAA as "0x...", an EUI-64/NGUID "eui...."); the t10 and nvme.VID-SERIAL
 * forms the kernel builds when there is none are not names of the drive. */
static const char *wwn_of(const ww_drive_t *dr, const ww_health_t *h, char *buf, size_t len)
{
	if (h && h->wwn[0])
		return h->wwn;
	if (!strncmp(dr->sysfs_wwn, "naa.", 4)) {
		snprintf(buf, len, "0x%s", dr->sysfs_wwn + 4);
		return buf;
	}
	return !strncmp(dr->sysfs_wwn, "eui.", 4) ? dr->sysfs_wwn : "";
}

static void g_info(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_drive_t *dr = d->st->drive;
	const ww_health_t *h = d->st->health; /* missing too */
	char wwn[sizeof(dr->sysfs_wwn) + 2];
	const char *lv[8] = {
		dr->block,
		h && h->model[0] ? h->model : dr->sysfs_model,
		h && h->serial[0] ? h->serial : dr->sysfs_serial,
		h ? h->firmware : "",
		wwn_of(dr, h, wwn, sizeof(wwn)),
		ww_transport_name(ww_drive_transport(dr, h)),
		ww_protocol_name(dr->protocol),
		dr->slot,
	};

	ww_prom_u64(w, lv, 1);
}

static void g_present(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	ww_prom_u64(w, NULL, d->st->present);
}

static void g_capacity(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	uint64_t v = d->h && WW_HAS(d->h->capacity_bytes) ? d->h->capacity_bytes.value
							  : d->st->drive->capacity_bytes;

	if (d->st->present && v)
		ww_prom_u64(w, NULL, v);
}

static void g_standby(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->st->present)
		ww_prom_u64(w, NULL, d->st->standby);
}

static void g_hung(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	ww_prom_u64(w, NULL, d->st->hung);
}

static void g_collect_success(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->st->collections_total)
		ww_prom_u64(w, NULL, d->st->last_success);
}

static void g_collect_duration(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->st->collections_total)
		ww_prom_sample(w, NULL, NULL, ww_pv_double(d->st->last_duration_s, WW_DBL_F6));
}

static void g_last_collect(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->st->last_collect)
		ww_prom_i64(w, NULL, d->st->last_collect);
}

static void g_values_time(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->h && d->st->values_time)
		ww_prom_i64(w, NULL, d->st->values_time);
}

static void g_collections(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	ww_prom_u64(w, NULL, d->st->collections_total);
}

static void g_collect_errors(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	ww_prom_u64(w, NULL, d->st->errors_total);
}

static void g_unsupported(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->h)
		ww_prom_u64(w, NULL, d->st->report->n_unsupported);
}

/* ---------------------------------------------------------- health record --- */

static void g_temp_limits(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	static const char *const kinds[3] = { "warning", "critical", "reference" };
	const ww_i64 *v[3];

	if (!d->h)
		return;
	v[0] = &d->h->temperature_warning_celsius;
	v[1] = &d->h->temperature_critical_celsius;
	v[2] = &d->h->temperature_reference_celsius;
	for (int i = 0; i < 3; i++)
		if (WW_HAS(*v[i]))
			ww_prom_i64(w, &kinds[i], v[i]->value);
}

static void g_critical_warning(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	/* NVMe SMART log byte 0 bits 0-5 (NVMe Base 2.0 Figure 207) */
	static const char *const bits[6] = {
		"available_spare", "temperature", "reliability", "read_only",
		"volatile_memory_backup_failed", "persistent_memory_region",
	};

	if (!d->h || !WW_HAS(d->h->critical_warning))
		return;
	for (int b = 0; b < 6; b++)
		ww_prom_u64(w, &bits[b], (d->h->critical_warning.value >> b) & 1);
}

static void g_smart_healthy(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->h && d->h->smart_status != WW_SMART_UNKNOWN)
		ww_prom_u64(w, NULL, d->h->smart_status == WW_SMART_PASSED);
}

static void g_ata_attribute(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	static const char *const kinds[4] = { "value", "worst", "threshold", "raw" };
	const ww_health_t *h = d->h;

	if (!h || h->protocol != WW_PROTO_ATA)
		return;
	for (size_t i = 0; i < h->ata.n_attrs && i < WW_ATA_MAX_ATTRS; i++) {
		const ww_ata_attr_t *a = &h->ata.attrs[i];
		uint64_t v[4] = { a->value, a->worst, a->threshold, a->raw & 0xffffffffffffull };
		char id[8], fl[8];
		const char *lv[4] = { id, a->name ? a->name : "Unknown_Attribute",
				      ww_ata_attr_flags_str(a->flags, fl), NULL };

		if (!a->id)
			continue;
		snprintf(id, sizeof(id), "%u", a->id);
		for (int k = 0; k < 4; k++) {
			if (k == 2 && !a->has_threshold)
				continue;
			/* the fleet profile: worst and threshold barely or never
			 * change (the verdict reads them; the API shows them) */
			if ((k == 1 || k == 2) && d->ctx->fleet_profile)
				continue;
			lv[3] = kinds[k];
			ww_prom_u64(w, lv, v[k]);
		}
	}
}

/* the raw value's count, for attributes whose format makes it one number */
static void g_ata_attribute_decoded(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	const ww_health_t *h = d->h;

	if (!h || h->protocol != WW_PROTO_ATA)
		return;
	for (size_t i = 0; i < h->ata.n_attrs && i < WW_ATA_MAX_ATTRS; i++) {
		const ww_ata_attr_t *a = &h->ata.attrs[i];
		char id[8];
		const char *lv[2] = { id, a->name ? a->name : "Unknown_Attribute" };

		if (!a->id || !a->raw_is_count)
			continue;
		/* the fleet profile: only where it says more than kind="raw" */
		if (d->ctx->fleet_profile && a->count == (a->raw & 0xffffffffffffull))
			continue;
		snprintf(id, sizeof(id), "%u", a->id);
		ww_prom_u64(w, lv, a->count);
	}
}

static void g_nvme_egcw(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (d->h && d->h->has_nvme_smart &&
	    ww_nvme_smart_present(&d->h->nvme_smart, NOFF(endurance_group_critical_warning)))
		ww_prom_u64(w, NULL, d->h->nvme_smart.endurance_group_critical_warning);
}

static void g_nvme_sensors(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (!d->h || !d->h->has_nvme_smart)
		return;
	for (int i = 0; i < 8; i++) {
		uint16_t k = d->h->nvme_smart.temperature_sensor_kelvin[i];
		char id[4] = { (char)('1' + i), 0 };
		const char *lv[1] = { id };

		if (k)
			ww_prom_i64(w, lv, (int64_t)k - 273);
	}
}

/* thermal management temperature 1 and 2: u32 fields at off and off + 4 */
static void g_nvme_thermal(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	static const char *const limit[2] = { "1", "2" };
	const uint32_t *v;

	if (!d->h || !d->h->has_nvme_smart || !ww_nvme_smart_present(&d->h->nvme_smart, m->off))
		return;
	v = (const uint32_t *)((const char *)&d->h->nvme_smart + m->off);
	ww_prom_u64(w, &limit[0], v[0]);
	ww_prom_u64(w, &limit[1], v[1]);
}

_Static_assert(NOFF(thermal_mgmt_temp2_transitions) == NOFF(thermal_mgmt_temp1_transitions) + 4 &&
	       NOFF(thermal_mgmt_temp2_time_seconds) == NOFF(thermal_mgmt_temp1_time_seconds) + 4,
	       "g_nvme_thermal reads temperature 2 right after temperature 1");

/* every SCSI temperature reading the drive gave, by log page; the headline
 * wearwatch_drive_temperature_celsius is the one smartctl prints */
static void g_scsi_temps(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	static const char *const pages[3] = { "0x0d/0x01", "0x0d", "0x2f" };
	const ww_i64 *v[3];

	if (!d->h || d->h->protocol != WW_PROTO_SCSI)
		return;
	v[0] = &d->h->scsi.env_temperature_celsius;
	v[1] = &d->h->scsi.temperature_celsius;
	v[2] = &d->h->scsi.ie_temperature_celsius;
	for (int i = 0; i < 3; i++)
		if (WW_HAS(*v[i]))
			ww_prom_i64(w, &pages[i], v[i]->value);
}

/* -------------------------------------------------------------- the table --- */

/* one sample per phy of log page 0x18, the uint32_t at off in ww_sas_phy_t */
static void g_sas_phy(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	if (!d->h || d->h->protocol != WW_PROTO_SCSI || !d->h->scsi.sas_phys_source)
		return;
	for (size_t i = 0; i < d->h->scsi.n_sas_phys && i < WW_SCSI_MAX_SAS_PHYS; i++) {
		const ww_sas_phy_t *p = &d->h->scsi.sas_phys[i];
		char port[8], phy[8];
		const char *lv[2] = { port, phy };

		snprintf(port, sizeof(port), "%u", p->port);
		snprintf(phy, sizeof(phy), "%u", p->phy);
		ww_prom_u64(w, lv, *(const uint32_t *)((const char *)p + m->off));
	}
}

/* not formatted: one family a row, name and type first */
/* clang-format off */
const ww_metric_t ww_metrics_drive[] = {
	{ .name = "wearwatch_drive_info", .type = "gauge",
	  .help = "Drive identity; value is always 1. model/serial/firmware/wwn from the drive when read, else sysfs.",
	  .labels = { "device", "model", "serial", "firmware", "wwn", "transport", "protocol", "slot" },
	  .get = g_info },
	{ .name = "wearwatch_drive_present", .type = "gauge",
	  .help = "1 when the latest discovery listed the drive, 0 while it is missing (kept for the retention time).",
	  .get = g_present },
	{ .name = "wearwatch_drive_capacity_bytes", .type = "gauge",
	  .help = "Drive capacity in bytes.",
	  .get = g_capacity },
	{ .name = "wearwatch_drive_temperature_celsius", .type = "gauge",
	  .help = "Current drive temperature (NVMe composite, ATA device statistics else attribute 194/190, SCSI environmental subpage 0x0D/0x01 else page 0x0D as smartctl prints it).",
	  .get = ww_metric_i64, .off = HOFF(temperature_celsius) },
	{ .name = "wearwatch_drive_temperature_limit_celsius", .type = "gauge",
	  .help = "Temperature limits the drive reports: NVMe WCTEMP (warning), CCTEMP (critical), SCSI reference temperature.",
	  .labels = { "kind" }, .get = g_temp_limits },
	{ .name = "wearwatch_drive_host_written_bytes_total", .type = "counter",
	  .help = "Bytes the host wrote to the drive; source names the counter it is computed from.",
	  .labels = { "source" }, .get = ww_metric_u64, .off = HOFF(host_written_bytes) },
	{ .name = "wearwatch_drive_host_read_bytes_total", .type = "counter",
	  .help = "Bytes the host read from the drive; source names the counter it is computed from.",
	  .labels = { "source" }, .get = ww_metric_u64, .off = HOFF(host_read_bytes) },
	{ .name = "wearwatch_drive_power_on_seconds_total", .type = "counter",
	  .help = "Power-on time in seconds (drive counters have hour or minute resolution).",
	  .get = ww_metric_u64, .off = HOFF(power_on_seconds) },
	{ .name = "wearwatch_drive_power_cycles_total", .type = "counter",
	  .help = "Power cycles (NVMe power cycles, ATA attribute 12, SCSI start-stop cycles).",
	  .get = ww_metric_u64, .off = HOFF(power_cycles) },
	{ .name = "wearwatch_drive_unsafe_shutdowns_total", .type = "counter",
	  .help = "Unsafe shutdowns (NVMe SMART log, ATA attribute 174/192).",
	  .get = ww_metric_u64, .off = HOFF(unsafe_shutdowns) },
	{ .name = "wearwatch_drive_uncorrectable_read_errors_total", .type = "counter",
	  .help = "Reads the drive could not correct (OCP SMART / Health Information Extended log C0h bytes 56-63).",
	  .get = ww_metric_u64, .off = HOFF(uncorrectable_read_errors) },
	{ .name = "wearwatch_drive_media_errors_total", .type = "counter",
	  .help = "Unrecovered media and data integrity errors the drive reports.",
	  .get = ww_metric_u64, .off = HOFF(media_errors) },
	{ .name = "wearwatch_drive_endurance_used_ratio", .type = "gauge",
	  .help = "Drive's own estimate of endurance used (percentage used / 100); may exceed 1.",
	  .labels = { "source" }, .get = ww_metric_ratio, .off = HOFF(endurance_used_percent) },
	{ .name = "wearwatch_drive_available_spare_ratio", .type = "gauge",
	  .help = "Remaining spare capacity (NVMe available spare / 100).",
	  .get = ww_metric_ratio, .off = HOFF(available_spare_percent) },
	{ .name = "wearwatch_drive_available_spare_threshold_ratio", .type = "gauge",
	  .help = "Available spare below which the drive raises a critical warning (NVMe threshold / 100).",
	  .get = ww_metric_ratio, .off = HOFF(available_spare_threshold_percent) },
	{ .name = "wearwatch_drive_critical_warning", .type = "gauge",
	  .help = "NVMe SMART log critical warning bits 0-5, one series per bit (1 = raised).",
	  .labels = { "bit" }, .get = g_critical_warning },
	{ .name = "wearwatch_drive_smart_healthy", .type = "gauge",
	  .help = "Overall SMART verdict of the drive: 1 passed, 0 failed (omitted when not reported).",
	  .get = g_smart_healthy },

	/* ATA SMART READ DATA / READ THRESHOLDS */
	{ .name = "wearwatch_drive_ata_attribute", .type = "gauge",
	  .help = "ATA SMART attribute: normalised value, worst, threshold and raw (48-bit integer as smartctl's raw48); flags as smartctl prints them (PO--CK).",
	  .labels = { "id", "name", "flags", "kind" }, .get = g_ata_attribute },
	{ .name = "wearwatch_drive_ata_attribute_raw_decoded", .type = "gauge",
	  .help = "ATA SMART attribute raw value as one number under the drive database's format (the number smartctl prints first); omitted where the format packs several (Seagate 188 raw16).",
	  .labels = { "id", "name" }, .get = g_ata_attribute_decoded },
	{ .name = "wearwatch_drive_ata_reallocated_sectors_total", .type = "counter",
	  .help = "ATA attribute 5 Reallocated_Sector_Ct count (raw16(raw16): word 0, as smartctl prints it).",
	  .get = ww_metric_ata_raw, .arg = 5 },
	{ .name = "wearwatch_drive_ata_reported_uncorrectable_errors_total", .type = "counter",
	  .help = "ATA attribute 187 Reported_Uncorrect raw value.",
	  .get = ww_metric_ata_raw, .arg = 187 },
	{ .name = "wearwatch_drive_ata_command_timeouts_total", .type = "counter",
	  .help = "ATA attribute 188 Command_Timeout count; omitted where the drive database packs several counters in its raw (Seagate raw16).",
	  .get = ww_metric_ata_raw, .arg = 188 },
	{ .name = "wearwatch_drive_ata_current_pending_sectors", .type = "gauge",
	  .help = "ATA attribute 197 Current_Pending_Sector raw value (decreases when sectors are remapped).",
	  .get = ww_metric_ata_raw, .arg = 197 },
	{ .name = "wearwatch_drive_ata_offline_uncorrectable_sectors", .type = "gauge",
	  .help = "ATA attribute 198 Offline_Uncorrectable raw value (may decrease after a scan).",
	  .get = ww_metric_ata_raw, .arg = 198 },
	{ .name = "wearwatch_drive_ata_udma_crc_errors_total", .type = "counter",
	  .help = "ATA attribute 199 UDMA_CRC_Error_Count raw value (interface CRC errors: cabling).",
	  .get = ww_metric_ata_raw, .arg = 199 },

	/* NVMe SMART / Health Information log 02h */
	{ .name = "wearwatch_drive_nvme_controller_busy_seconds_total", .type = "counter",
	  .help = "NVMe controller busy time (SMART log, minutes x 60).",
	  .get = ww_metric_nvme_u128, .off = NOFF(controller_busy_time_minutes), .arg = 60 },
	{ .name = "wearwatch_drive_nvme_warning_temperature_seconds_total", .type = "counter",
	  .help = "Time the composite temperature was at or above WCTEMP (SMART log, minutes x 60).",
	  .get = ww_metric_nvme_u32, .off = NOFF(warning_temperature_time_minutes), .arg = 60 },
	{ .name = "wearwatch_drive_nvme_critical_temperature_seconds_total", .type = "counter",
	  .help = "Time the composite temperature was at or above CCTEMP (SMART log, minutes x 60).",
	  .get = ww_metric_nvme_u32, .off = NOFF(critical_temperature_time_minutes), .arg = 60 },
	{ .name = "wearwatch_drive_nvme_host_read_commands_total", .type = "counter",
	  .help = "NVMe host read commands completed.",
	  .get = ww_metric_nvme_u128, .off = NOFF(host_read_commands), .arg = 1 },
	{ .name = "wearwatch_drive_nvme_host_write_commands_total", .type = "counter",
	  .help = "NVMe host write commands completed.",
	  .get = ww_metric_nvme_u128, .off = NOFF(host_write_commands), .arg = 1 },
	{ .name = "wearwatch_drive_nvme_error_log_entries_total", .type = "counter",
	  .help = "NVMe error information log entries over the controller's life.",
	  .get = ww_metric_nvme_u128, .off = NOFF(error_log_entries), .arg = 1 },
	{ .name = "wearwatch_drive_nvme_data_units_written_total", .type = "counter",
	  .help = "NVMe data units written (1 unit = 1000 x 512 bytes), exact 128-bit counter.",
	  .get = ww_metric_nvme_u128, .off = NOFF(data_units_written), .arg = 1 },
	{ .name = "wearwatch_drive_nvme_data_units_read_total", .type = "counter",
	  .help = "NVMe data units read (1 unit = 1000 x 512 bytes), exact 128-bit counter.",
	  .get = ww_metric_nvme_u128, .off = NOFF(data_units_read), .arg = 1 },
	{ .name = "wearwatch_drive_nvme_endurance_group_critical_warning", .type = "gauge",
	  .help = "NVMe endurance group critical warning summary byte (SMART log byte 6).",
	  .get = g_nvme_egcw },
	{ .name = "wearwatch_drive_nvme_temperature_sensor_celsius", .type = "gauge",
	  .help = "NVMe temperature sensors 1-8 (Kelvin - 273; sensors reporting 0 are omitted).",
	  .labels = { "sensor" }, .get = g_nvme_sensors },
	{ .name = "wearwatch_drive_nvme_thermal_management_transitions_total", .type = "counter",
	  .help = "Times the controller entered host controlled thermal management level 1 or 2.",
	  .labels = { "limit" }, .get = g_nvme_thermal, .off = NOFF(thermal_mgmt_temp1_transitions) },
	{ .name = "wearwatch_drive_nvme_thermal_management_seconds_total", .type = "counter",
	  .help = "Time spent in host controlled thermal management level 1 or 2.",
	  .labels = { "limit" }, .get = g_nvme_thermal, .off = NOFF(thermal_mgmt_temp1_time_seconds) },

	/* SCSI log pages */
	{ .name = "wearwatch_drive_scsi_informational_exception_asc", .type = "gauge",
	  .help = "SCSI Informational Exceptions log (0x2F) additional sense code; 0 = no exception.",
	  .get = ww_metric_u64, .off = HOFF(scsi.ie_asc) },
	{ .name = "wearwatch_drive_scsi_informational_exception_ascq", .type = "gauge",
	  .help = "SCSI Informational Exceptions log (0x2F) additional sense code qualifier.",
	  .get = ww_metric_u64, .off = HOFF(scsi.ie_ascq) },
	{ .name = "wearwatch_drive_scsi_temperature_celsius", .type = "gauge",
	  .help = "SCSI temperature readings by log page: 0x0d/0x01 environmental reporting (the headline, as smartctl 7.3 prints it), 0x0d temperature page, 0x2f informational exceptions.",
	  .labels = { "page" }, .get = g_scsi_temps },
	{ .name = "wearwatch_drive_scsi_start_stop_cycles_total", .type = "counter",
	  .help = "SCSI start-stop cycles accumulated (log page 0x0E).",
	  .get = ww_metric_u64, .off = HOFF(scsi.start_stop_cycles) },
	{ .name = "wearwatch_drive_scsi_specified_start_stop_cycles", .type = "gauge",
	  .help = "SCSI start-stop cycles the drive is specified for over its life (log page 0x0E).",
	  .get = ww_metric_u64, .off = HOFF(scsi.specified_start_stop_cycles) },
	{ .name = "wearwatch_drive_scsi_non_medium_errors_total", .type = "counter",
	  .help = "SCSI errors other than medium errors, recovered or not (Non-Medium Error log page 0x06).",
	  .get = ww_metric_u64, .off = HOFF(scsi.non_medium_errors) },
	{ .name = "wearwatch_drive_scsi_corrected_errors_total", .type = "counter",
	  .help = "SCSI errors corrected (error counter pages 0x02/0x03/0x05, total corrected).",
	  .labels = { "operation" }, .get = ww_metric_scsi_errcnt, .off = EOFF(corrected_total) },
	{ .name = "wearwatch_drive_scsi_uncorrected_errors_total", .type = "counter",
	  .help = "SCSI errors not corrected (error counter pages 0x02/0x03/0x05).",
	  .labels = { "operation" }, .get = ww_metric_scsi_errcnt, .off = EOFF(uncorrected) },
	{ .name = "wearwatch_drive_scsi_processed_bytes_total", .type = "counter",
	  .help = "SCSI bytes processed (error counter pages 0x02/0x03/0x05 parameter 0005h).",
	  .labels = { "operation" }, .get = ww_metric_scsi_errcnt, .off = EOFF(bytes_processed) },

	{ .name = "wearwatch_drive_sas_phy_invalid_dwords_total", .type = "counter",
	  .help = "SAS phy invalid dwords received (Protocol Specific Port log page 0x18), per target port and phy.",
	  .labels = { "port", "phy" }, .get = g_sas_phy, .off = POFF(invalid_dwords) },
	{ .name = "wearwatch_drive_sas_phy_running_disparity_errors_total", .type = "counter",
	  .help = "SAS phy running disparity errors (log page 0x18), per target port and phy.",
	  .labels = { "port", "phy" }, .get = g_sas_phy, .off = POFF(running_disparity_errors) },
	{ .name = "wearwatch_drive_sas_phy_loss_of_dword_sync_total", .type = "counter",
	  .help = "SAS phy losses of dword synchronization (log page 0x18), per target port and phy.",
	  .labels = { "port", "phy" }, .get = g_sas_phy, .off = POFF(loss_of_dword_sync) },
	{ .name = "wearwatch_drive_sas_phy_reset_problems_total", .type = "counter",
	  .help = "SAS phy reset problems (log page 0x18), per target port and phy.",
	  .labels = { "port", "phy" }, .get = g_sas_phy, .off = POFF(phy_reset_problems) },

	/* collection state */
	{ .name = "wearwatch_drive_standby", .type = "gauge",
	  .help = "1 when the last poll left the drive alone (ATA standby or runtime-suspended); values are from before.",
	  .get = g_standby },
	{ .name = "wearwatch_drive_hung", .type = "gauge",
	  .help = "1 while a read of the drive has been outstanding too long; no new command is sent until it returns.",
	  .get = g_hung },
	{ .name = "wearwatch_drive_collect_success", .type = "gauge",
	  .help = "1 when the last collection returned data or found the drive in standby, 0 when it failed.",
	  .get = g_collect_success },
	{ .name = "wearwatch_drive_collect_duration_seconds", .type = "gauge",
	  .help = "Duration of the last collection of the drive.", .get = g_collect_duration },
	{ .name = "wearwatch_drive_last_collect_timestamp_seconds", .type = "gauge",
	  .help = "Unix time the last collection of the drive finished.", .get = g_last_collect },
	{ .name = "wearwatch_drive_values_timestamp_seconds", .type = "gauge",
	  .help = "Unix time the health values exposed for the drive were read (older than the last collection in standby).",
	  .get = g_values_time },
	{ .name = "wearwatch_drive_collections_total", .type = "counter",
	  .help = "Collections of the drive that finished (successful or not).", .get = g_collections },
	{ .name = "wearwatch_drive_collect_errors_total", .type = "counter",
	  .help = "Failed collections plus failed commands and decode errors inside collections.",
	  .get = g_collect_errors },
	{ .name = "wearwatch_drive_unsupported_commands", .type = "gauge",
	  .help = "Commands or log pages the drive reported as unsupported in the last read (a capability, not an error).",
	  .get = g_unsupported },
	{ 0 }
};
/* clang-format on */
