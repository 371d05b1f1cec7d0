/* Human-readable rendering of one read, for `wearwatch show` (see expo.h). */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "wearwatch/expo.h"

#define LBL "  %-28s "

static void u64_line(FILE *f, const char *label, const char *unit, const ww_u64 *v)
{
	if (!WW_HAS(*v))
		return;
	fprintf(f, LBL "%" PRIu64 "%s%s%s   [%s]\n", label, v->value, *unit ? " " : "",
		unit, v->saturated ? " (saturated)" : "", v->source);
}

static void i64_line(FILE *f, const char *label, const char *unit, const ww_i64 *v)
{
	if (!WW_HAS(*v))
		return;
	fprintf(f, LBL "%" PRId64 "%s%s   [%s]\n", label, v->value, *unit ? " " : "", unit,
		v->source);
}

static void str_line(FILE *f, const char *label, const char *s)
{
	if (s && *s)
		fprintf(f, LBL "%s\n", label, s);
}

static void render_drive(FILE *f, const ww_drive_t *d, const ww_health_t *h)
{
	char buf[256];
	size_t o = 0;

	fprintf(f, "Drive %s\n", d->id);
	str_line(f, "device", d->dev_path);
	for (size_t i = 0; i < d->n_paths && o < sizeof(buf); i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", i ? " " : "", d->paths[i]);
	if (d->n_paths > 1)
		str_line(f, "paths", buf);
	o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < d->n_namespaces && o < sizeof(buf); i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", i ? " " : "",
				      d->namespaces[i]);
	str_line(f, "namespaces", buf);
	str_line(f, "command node", d->cmd_path);
	str_line(f, "transport", ww_transport_name(ww_drive_transport(d, h)));
	str_line(f, "health read with", ww_drive_protocol_label(d, buf, sizeof(buf)));
	str_line(f, "slot", d->slot);
	if (*d->block) /* a block device was found in sysfs (not for a file decoded) */
		fprintf(f, LBL "%s   [sysfs queue/rotational]\n", "rotational",
			d->rotational ? "yes" : "no");
}

static void render_identity(FILE *f, const ww_health_t *h)
{
	char hb[32];

	fprintf(f, "Identity\n");
	str_line(f, "model", h->model);
	str_line(f, "serial", h->serial);
	str_line(f, "firmware", h->firmware);
	str_line(f, "vendor", h->vendor);
	str_line(f, "wwn", h->wwn);
	if (WW_HAS(h->capacity_bytes))
		fprintf(f, LBL "%" PRIu64 " bytes (%s)   [%s]\n", "capacity",
			h->capacity_bytes.value, ww_bytes_human(h->capacity_bytes.value, hb, sizeof(hb)),
			h->capacity_bytes.source);
	u64_line(f, "logical block size", "bytes", &h->logical_block_bytes);
	u64_line(f, "physical block size", "bytes", &h->physical_block_bytes);
	if (WW_HAS(h->rotation_rate_rpm) && h->rotation_rate_rpm.value == 1)
		fprintf(f, LBL "non-rotating (solid state)   [%s]\n", "rotation rate",
			h->rotation_rate_rpm.source);
	else
		u64_line(f, "rotation rate", "rpm", &h->rotation_rate_rpm);
}

/* error and self-test logs, link speed, smartctl's exit status */
static void render_logs(FILE *f, const ww_health_t *h)
{
	char lbl[64];

	for (int i = 0; i < WW_ERRLOG_MAX; i++) {
		const ww_errlog_t *l = &h->error_logs[i];

		if (!l->source)
			continue;
		snprintf(lbl, sizeof(lbl), "error log (%s)", ww_errlog_names[i]);
		fprintf(f, LBL "%" PRIu64 " errors, %u entries held   [%s]\n", lbl, l->count,
			l->entries, l->source);
	}
	for (int i = 0; i < WW_SELFTEST_MAX; i++) {
		const ww_selftest_log_t *l = &h->self_tests[i];

		if (!l->source)
			continue;
		snprintf(lbl, sizeof(lbl), "self-test log (%s)", ww_selftest_names[i]);
		fprintf(f, LBL "%u tests, %u failed", lbl, l->entries, l->failed);
		if (l->has_last)
			fprintf(f, "; newest: %s (status %u) at %" PRIu64 " h",
				l->last_passed == 1 ? "passed" : l->last_passed == 0 ? "FAILED" :
				"aborted or running", l->last_status, l->last_hours);
		if (l->has_failing_lba)
			fprintf(f, ", first failing LBA %" PRIu64, l->failing_lba);
		fprintf(f, "   [%s]\n", l->source);
	}
	u64_line(f, "interface speed (max)", "bit/s", &h->link.max_bps);
	u64_line(f, "interface speed (current)", "bit/s", &h->link.current_bps);
	if (h->has_smartctl_exit)
		fprintf(f, LBL "%u   [smartctl.exit_status]\n", "smartctl exit status",
			h->smartctl_exit);
}

static void render_health(FILE *f, const ww_health_t *h)
{
	char hb[32];

	fprintf(f, "Health\n");
	if (h->smart_status != WW_SMART_UNKNOWN)
		fprintf(f, LBL "%s   [%s]\n", "SMART overall status",
			h->smart_status == WW_SMART_PASSED ? "PASSED" : "FAILED",
			h->smart_status_source ? h->smart_status_source : "?");
	i64_line(f, "temperature", "Celsius", &h->temperature_celsius);
	i64_line(f, "warning temperature", "Celsius", &h->temperature_warning_celsius);
	i64_line(f, "critical temperature", "Celsius", &h->temperature_critical_celsius);
	i64_line(f, "reference temperature", "Celsius", &h->temperature_reference_celsius);
	if (WW_HAS(h->host_written_bytes))
		fprintf(f, LBL "%" PRIu64 " bytes (%s)%s   [%s]\n", "host written",
			h->host_written_bytes.value,
			ww_bytes_human(h->host_written_bytes.value, hb, sizeof(hb)),
			h->host_written_bytes.saturated ? " (saturated)" : "",
			h->host_written_bytes.source);
	if (WW_HAS(h->host_read_bytes))
		fprintf(f, LBL "%" PRIu64 " bytes (%s)%s   [%s]\n", "host read",
			h->host_read_bytes.value,
			ww_bytes_human(h->host_read_bytes.value, hb, sizeof(hb)),
			h->host_read_bytes.saturated ? " (saturated)" : "",
			h->host_read_bytes.source);
	if (WW_HAS(h->power_on_seconds))
		fprintf(f, LBL "%" PRIu64 " seconds (%" PRIu64 " h)   [%s]\n", "power on time",
			h->power_on_seconds.value, h->power_on_seconds.value / 3600,
			h->power_on_seconds.source);
	u64_line(f, "power cycles", "", &h->power_cycles);
	u64_line(f, "unsafe shutdowns", "", &h->unsafe_shutdowns);
	u64_line(f, "media errors", "", &h->media_errors);
	u64_line(f, "endurance used", "%", &h->endurance_used_percent);
	u64_line(f, "available spare", "%", &h->available_spare_percent);
	u64_line(f, "available spare threshold", "%", &h->available_spare_threshold_percent);
	if (WW_HAS(h->critical_warning))
		fprintf(f, LBL "0x%02" PRIx64 "   [%s]\n", "critical warning",
			h->critical_warning.value, h->critical_warning.source);
	u64_line(f, "error log entries", "", &h->error_log_entries);
	render_logs(f, h);
}

static void u128_line(FILE *f, const char *label, const char *unit, ww_u128 v)
{
	char b[48];

	fprintf(f, LBL "%s%s%s\n", label, ww_u128_to_dec(v, b, sizeof(b)), *unit ? " " : "", unit);
}

#define HAS(field) ww_nvme_smart_present(s, offsetof(ww_nvme_smart_t, field))

/* Every field of log 02h the source carried (smartctl's JSON leaves some out) */
static void render_nvme_log(FILE *f, const ww_nvme_smart_t *s)
{
	static const struct {
		const char *label, *unit;
		size_t off;
	} c[] = {
		{ "data units read", "x 512000 bytes", offsetof(ww_nvme_smart_t, data_units_read) },
		{ "data units written", "x 512000 bytes", offsetof(ww_nvme_smart_t, data_units_written) },
		{ "host read commands", "", offsetof(ww_nvme_smart_t, host_read_commands) },
		{ "host write commands", "", offsetof(ww_nvme_smart_t, host_write_commands) },
		{ "controller busy time", "minutes", offsetof(ww_nvme_smart_t, controller_busy_time_minutes) },
		{ "power cycles", "", offsetof(ww_nvme_smart_t, power_cycles) },
		{ "power on hours", "hours", offsetof(ww_nvme_smart_t, power_on_hours) },
		{ "unsafe shutdowns", "", offsetof(ww_nvme_smart_t, unsafe_shutdowns) },
		{ "media and data integrity errors", "", offsetof(ww_nvme_smart_t, media_errors) },
		{ "error log entries", "", offsetof(ww_nvme_smart_t, error_log_entries) },
	};

	if (HAS(critical_warning))
		fprintf(f, LBL "0x%02x\n", "critical warning", s->critical_warning);
	if (HAS(composite_temperature_kelvin))
		fprintf(f, LBL "%u Kelvin\n", "composite temperature", s->composite_temperature_kelvin);
	if (HAS(available_spare_percent))
		fprintf(f, LBL "%u %%\n", "available spare", s->available_spare_percent);
	if (HAS(available_spare_threshold_percent))
		fprintf(f, LBL "%u %%\n", "available spare threshold",
			s->available_spare_threshold_percent);
	if (HAS(percentage_used))
		fprintf(f, LBL "%u %%\n", "percentage used", s->percentage_used);
	if (HAS(endurance_group_critical_warning))
		fprintf(f, LBL "0x%02x\n", "endurance group crit. warning",
			s->endurance_group_critical_warning);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (ww_nvme_smart_present(s, c[i].off))
			u128_line(f, c[i].label, c[i].unit,
				  *(const ww_u128 *)((const char *)s + c[i].off));
	if (HAS(warning_temperature_time_minutes))
		fprintf(f, LBL "%u minutes\n", "warning temperature time",
			s->warning_temperature_time_minutes);
	if (HAS(critical_temperature_time_minutes))
		fprintf(f, LBL "%u minutes\n", "critical temperature time",
			s->critical_temperature_time_minutes);
	for (int i = 0; i < 8; i++)
		if (s->temperature_sensor_kelvin[i])
			fprintf(f, "  temperature sensor %d%*s %u Kelvin\n", i + 1, 8, "",
				s->temperature_sensor_kelvin[i]);
	if (HAS(thermal_mgmt_temp1_transitions))
		fprintf(f, LBL "%u / %u\n", "thermal mgmt transitions 1/2",
			s->thermal_mgmt_temp1_transitions, s->thermal_mgmt_temp2_transitions);
	if (HAS(thermal_mgmt_temp1_time_seconds))
		fprintf(f, LBL "%u / %u seconds\n", "thermal mgmt time 1/2",
			s->thermal_mgmt_temp1_time_seconds, s->thermal_mgmt_temp2_time_seconds);
}

#undef HAS

static void render_nvme(FILE *f, const ww_health_t *h)
{

	if (h->has_nvme_ctrl) {
		const ww_nvme_ctrl_t *c = &h->nvme_ctrl;

		fprintf(f, "NVMe Identify Controller (CNS 01h)\n");
		fprintf(f, LBL "0x%04x\n", "PCI vendor id", c->vid);
		if (c->version)
			fprintf(f, LBL "%u.%u.%u\n", "NVMe version", c->version >> 16,
				(c->version >> 8) & 0xff, c->version & 0xff);
		fprintf(f, LBL "%02x%02x%02x\n", "IEEE OUI", c->ieee_oui[2], c->ieee_oui[1],
			c->ieee_oui[0]);
		fprintf(f, LBL "%u\n", "namespaces (NN)", c->nn);
		if (c->wctemp_kelvin)
			fprintf(f, LBL "%u Kelvin\n", "WCTEMP", c->wctemp_kelvin);
		if (c->cctemp_kelvin)
			fprintf(f, LBL "%u Kelvin\n", "CCTEMP", c->cctemp_kelvin);
		u128_line(f, "TNVMCAP", "bytes", c->tnvmcap_bytes);
	}
	for (size_t i = 0; i < h->n_nvme_ns; i++) {
		const ww_nvme_ns_t *n = &h->nvme_ns[i];

		fprintf(f, LBL "nsid %u: %" PRIu64 " blocks x %u bytes%s%s\n", "namespace",
			n->nsid, n->size_blocks, n->lba_bytes, *n->block_name ? " " : "",
			n->block_name);
	}
	if (!h->has_nvme_smart)
		return;
	fprintf(f, "NVMe SMART/Health Information (Log 02h)\n");
	render_nvme_log(f, &h->nvme_smart);
}

static void render_ata(FILE *f, const ww_health_t *h)
{
	const ww_ata_t *a = &h->ata;

	fprintf(f, "ATA\n");
	if (a->smart_support_known) /* not from a lone SMART page: IDENTIFY says */
		fprintf(f, LBL "%s, %s\n", "SMART", a->smart_supported ? "supported" :
			"not supported", a->smart_enabled ? "enabled" : "disabled");
	if (a->has_power_mode)
		fprintf(f, LBL "0x%02x   [CHECK POWER MODE]\n", "power mode", a->power_mode);
	if (a->rotation_rate)
		fprintf(f, LBL "%u%s   [IDENTIFY word 217]\n", "rotation rate", a->rotation_rate,
			a->rotation_rate == 1 ? " (non-rotating)" : " rpm");
	u64_line(f, "devstat power on", "hours", &a->devstat_power_on_hours);
	u64_line(f, "devstat logical sectors written", "sectors",
		 &a->devstat_logical_sectors_written);
	u64_line(f, "devstat logical sectors read", "sectors", &a->devstat_logical_sectors_read);
	i64_line(f, "devstat temperature", "Celsius", &a->devstat_temperature_celsius);
	u64_line(f, "devstat percentage used", "%", &a->devstat_percentage_used);
	for (size_t i = 0; i < a->n_devstats && i < WW_ATA_MAX_DEVSTATS; i++)
		fprintf(f, "  devstat %u 0x%03x %-44s %" PRId64 "\n", a->devstats[i].page,
			a->devstats[i].offset, a->devstats[i].name ? a->devstats[i].name : "",
			a->devstats[i].value);
	if (!a->n_attrs)
		return;
	/* smartctl's JSON carries no checksum: say nothing about one */
	fprintf(f, "SMART Attributes Data Structure%s\n",
		(h->backend && !strcmp(h->backend, "smartctl")) || a->smart_data_checksum_ok ?
			"" : " (checksum mismatch)");
	fprintf(f, "ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH RAW_VALUE\n");
	for (size_t i = 0; i < a->n_attrs && i < WW_ATA_MAX_ATTRS; i++) {
		const ww_ata_attr_t *t = &a->attrs[i];
		char th[8], raw[24];

		if (t->has_threshold)
			snprintf(th, sizeof(th), "%03u", t->threshold);
		else
			snprintf(th, sizeof(th), "---");
		/* the raw value as smartctl prints it under the drive database's
		 * format; the 48-bit integer before the finish step formatted it */
		snprintf(raw, sizeof(raw), "%" PRIu64, t->raw);
		fprintf(f, "%3u %-23s 0x%04x   %03u   %03u   %-6s %s\n", t->id,
			t->name ? t->name : "Unknown_Attribute", t->flags, t->value, t->worst,
			th, t->raw_string[0] ? t->raw_string : raw);
	}
}

static void render_scsi(FILE *f, const ww_health_t *h)
{
	const ww_scsi_t *s = &h->scsi;
	static const struct {
		const char *name;
		size_t off;
	} ec[] = {
		{ "write", offsetof(ww_scsi_t, write_errors) },
		{ "read", offsetof(ww_scsi_t, read_errors) },
		{ "verify", offsetof(ww_scsi_t, verify_errors) },
	};
	char lbl[64];

	fprintf(f, "SCSI\n");
	fprintf(f, LBL "%u\n", "peripheral device type", s->peripheral_type);
	if (s->protocol_id != 0xff)
		fprintf(f, LBL "%u%s   [VPD 0x83]\n", "protocol identifier", s->protocol_id,
			s->protocol_id == 6 ? " (SAS)" : "");
	if (s->medium_rotation_rate)
		fprintf(f, LBL "%u%s   [VPD 0xB1]\n", "medium rotation rate",
			s->medium_rotation_rate, s->medium_rotation_rate == 1 ? " (non-rotating)" : " rpm");
	if (s->n_supported_pages) {
		fprintf(f, LBL, "supported log pages");
		for (size_t i = 0; i < s->n_supported_pages && i < WW_SCSI_MAX_PAGES; i++) {
			uint16_t p = s->supported_pages[i];
			if (p & 0xff)
				fprintf(f, "%s0x%02x/0x%02x", i ? " " : "", p >> 8, p & 0xff);
			else
				fprintf(f, "%s0x%02x", i ? " " : "", p >> 8);
		}
		fputc('\n', f);
	}
	for (size_t i = 0; i < sizeof(ec) / sizeof(ec[0]); i++) {
		const ww_scsi_errcnt_t *e = (const void *)((const char *)s + ec[i].off);

		snprintf(lbl, sizeof(lbl), "%s errors corrected", ec[i].name);
		u64_line(f, lbl, "", &e->corrected_total);
		snprintf(lbl, sizeof(lbl), "%s bytes processed", ec[i].name);
		u64_line(f, lbl, "bytes", &e->bytes_processed);
		snprintf(lbl, sizeof(lbl), "%s errors uncorrected", ec[i].name);
		u64_line(f, lbl, "", &e->uncorrected);
	}
	i64_line(f, "temperature", "Celsius", &s->temperature_celsius);
	i64_line(f, "reference temperature", "Celsius", &s->reference_temperature_celsius);
	i64_line(f, "environment temperature", "Celsius", &s->env_temperature_celsius);
	u64_line(f, "start-stop cycles", "", &s->start_stop_cycles);
	u64_line(f, "specified start-stop cycles", "", &s->specified_start_stop_cycles);
	u64_line(f, "load-unload cycles", "", &s->load_unload_cycles);
	u64_line(f, "specified load-unload cycles", "", &s->specified_load_unload_cycles);
	u64_line(f, "grown defect list", "entries", &s->grown_defects);
	for (int i = 0; i < 6; i++) {
		snprintf(lbl, sizeof(lbl), "transitions to %s", ww_scsi_power_condition_names[i]);
		u64_line(f, lbl, "", &s->power_transitions[i]);
	}
	if (*s->manufacture_year)
		fprintf(f, LBL "%s week %s   [log page 0x0E param 1]\n", "manufactured",
			s->manufacture_year, s->manufacture_week);
	u64_line(f, "percentage used", "%", &s->percentage_used);
	u64_line(f, "power on", "minutes", &s->power_on_minutes);
	u64_line(f, "logical blocks written", "blocks", &s->logical_blocks_written);
	u64_line(f, "logical blocks read", "blocks", &s->logical_blocks_read);
	if (WW_HAS(s->ie_asc))
		fprintf(f, LBL "ASC 0x%02" PRIx64 " ASCQ 0x%02" PRIx64 "   [%s]\n",
			"informational exception", s->ie_asc.value,
			WW_HAS(s->ie_ascq) ? s->ie_ascq.value : 0, s->ie_asc.source);
	i64_line(f, "IE temperature", "Celsius", &s->ie_temperature_celsius);
}

static void render_report(FILE *f, const ww_read_report_t *r)
{
	fprintf(f, "Commands sent (%zu)\n", r->n_cmds);
	for (size_t i = 0; i < r->n_cmds && i < WW_READ_MAX_CMDS; i++) {
		const ww_cmd_note_t *n = &r->cmds[i];

		fprintf(f, "  %-34s %s", n->what, ww_cmd_result_name(n->result));
		if (n->result == WW_CMD_OS_ERROR && n->os_errno)
			fprintf(f, " (%s, errno %d)", strerror(n->os_errno), n->os_errno);
		if (n->sense_key || n->asc || n->ascq)
			fprintf(f, " (sense key 0x%x, ASC 0x%02x, ASCQ 0x%02x)", n->sense_key,
				n->asc, n->ascq);
		if (n->nvme_status)
			fprintf(f, " (NVMe status 0x%04x)", n->nvme_status);
		fputc('\n', f);
	}
	fprintf(f, "  errors %u, unsupported %u, decode errors %u%s\n", r->n_errors,
		r->n_unsupported, r->n_decode_errors,
		r->runtime_suspended ? ", nothing sent: runtime-suspended" :
		r->standby ? ", stopped: drive in standby" : "");
	if (r->partial)
		fprintf(f, "  partial read: %s\n", r->partial);
}

void ww_text_render_verdict(FILE *f, const ww_verdict_t *v, const char *indent)
{
	fprintf(f, "%sHealth: %s\n", indent, ww_status_name(v->status));
	for (size_t i = 0; i < v->n; i++)
		fprintf(f, "%s  %-8s %s (%s)   [%s]\n", indent, ww_status_name(v->r[i].severity),
			v->r[i].text, ww_reason_name(v->r[i].code), v->r[i].source);
	for (int k = 0; k < WW_R_MAX; k++)
		if ((v->silenced >> k) & 1)
			fprintf(f, "%s  silenced %s\n", indent, ww_reason_name(k));
}

void ww_text_render_health(FILE *f, const ww_drive_t *d, const ww_health_t *h,
			   const ww_read_report_t *r, const ww_verdict_t *v)
{
	if (!f || !d || !h)
		return;
	if (v)
		ww_text_render_verdict(f, v, "");
	render_drive(f, d, h);
	render_identity(f, h);
	if (d->protocol == WW_PROTO_NONE && *d->block)
		return; /* no health interface: nothing was sent, nothing to say
			   beyond the verdict and "health read with none: ..." */
	if (r && (r->runtime_suspended || r->standby)) {
		/* nothing was read: no section would say anything true */
		fprintf(f, "Health\n  not read: the drive was left alone (%s)\n",
			r->runtime_suspended ? "runtime-suspended" : "standby");
		render_report(f, r);
		return;
	}
	render_health(f, h);
	if (h->protocol == WW_PROTO_NVME)
		render_nvme(f, h);
	else if (h->protocol == WW_PROTO_ATA)
		render_ata(f, h);
	else if (h->protocol == WW_PROTO_SCSI)
		render_scsi(f, h);
	if (r)
		render_report(f, r);
}
