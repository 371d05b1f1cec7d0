/* Human-readable rendering of one read, for `wearwatch show` (see expo.h). */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "wearwatch/expo.h"
#include "expo/fields.h"

#define LBL "  %-28s "

static void u64_line(FILE *f, const char *label, const char *unit, const ww_u64 *v)
{
	if (!WW_HAS(*v))
		return;
	fprintf(f, LBL "%" PRIu64 "%s%s%s   [%s]\n", label, v->value, *unit ? " " : "",
		unit, v->saturated ? " (saturated)" : "", v->source);
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
	char pre[64];

	for (int i = 0; i < WW_ERRLOG_MAX; i++) {
		const ww_errlog_t *l = &h->error_logs[i];

		if (!l->source)
			continue;
		snprintf(pre, sizeof(pre), "error log (%s)", ww_errlog_names[i]);
		fprintf(f, LBL "[%s]\n", pre, l->source);
		ww_fields_text(f, ww_fields_errlog, l, "  ");
	}
	for (int i = 0; i < WW_SELFTEST_MAX; i++) {
		const ww_selftest_log_t *l = &h->self_tests[i];

		if (!l->source)
			continue;
		snprintf(pre, sizeof(pre), "self-test log (%s)", ww_selftest_names[i]);
		fprintf(f, LBL "[%s]\n", pre, l->source);
		ww_fields_text(f, ww_fields_selftest, l, "  ");
		if (l->has_last)
			fprintf(f, LBL "%s %s (status %u) at %" PRIu64 " h\n", "  newest",
				ww_selftest_kind_names[l->last_kind % WW_STK_MAX],
				l->last_passed == 1           ? "passed"
					: l->last_passed == 0 ? "FAILED"
							      : "aborted or running",
				l->last_status, l->last_hours);
		if (l->has_failing_lba)
			fprintf(f, LBL "%" PRIu64 "\n", "  first failing LBA", l->failing_lba);
		if (l->has_open_failure) {
			fprintf(f, LBL "%s test, status %u at %" PRIu64 " h", "  not cleared",
				ww_selftest_kind_names[l->open_kind % WW_STK_MAX], l->open_status,
				l->open_hours);
			if (l->open_has_lba)
				fprintf(f, ", LBA %" PRIu64, l->open_lba);
			fputc('\n', f);
		}
	}
	if (h->self_test_now.source) {
		const ww_selftest_now_t *n = &h->self_test_now;

		fprintf(f, LBL "[%s]\n", "self-test now", n->source);
		if (n->running && n->remaining_percent >= 0)
			fprintf(f, LBL "%s, %d %% remaining\n", "  running",
				ww_selftest_kind_names[n->kind % WW_STK_MAX], n->remaining_percent);
		else
			fprintf(f, LBL "%s\n", "  running",
				n->running ? ww_selftest_kind_names[n->kind % WW_STK_MAX] : "no");
		ww_fields_text(f, ww_fields_selftest_now, n, "  ");
	}
	ww_fields_text(f, ww_fields_link, &h->link, NULL);
	if (h->has_smartctl_exit)
		fprintf(f, LBL "%u   [smartctl.exit_status]\n", "smartctl exit status",
			h->smartctl_exit);
}

static void render_health(FILE *f, const ww_health_t *h)
{
	fprintf(f, "Health\n");
	if (h->smart_status != WW_SMART_UNKNOWN)
		fprintf(f, LBL "%s   [%s]\n", "SMART overall status",
			h->smart_status == WW_SMART_PASSED ? "PASSED" : "FAILED",
			h->smart_status_source ? h->smart_status_source : "?");
	ww_fields_text(f, ww_fields_health, h, NULL);
	render_logs(f, h);
}

/* Every field of log 02h the source carried (smartctl's JSON leaves some out) */
static void render_nvme_log(FILE *f, const ww_nvme_smart_t *s)
{
	ww_fields_text(f, ww_fields_nvme_smart, s, NULL);
	for (int i = 0; i < 8; i++)
		if (s->temperature_sensor_kelvin[i])
			fprintf(f, "  temperature sensor %d%*s %u Kelvin\n", i + 1, 8, "",
				s->temperature_sensor_kelvin[i]);
}

static void render_nvme(FILE *f, const ww_health_t *h)
{

	if (h->has_nvme_ctrl) {
		const ww_nvme_ctrl_t *c = &h->nvme_ctrl;

		fprintf(f, "NVMe Identify Controller (CNS 01h)\n");
		ww_fields_text(f, ww_fields_nvme_ctrl, c, NULL);
		fprintf(f, LBL "%02x%02x%02x\n", "IEEE OUI", c->ieee_oui[2], c->ieee_oui[1],
			c->ieee_oui[0]);
	}
	for (size_t i = 0; i < h->n_nvme_ns && i < WW_NVME_MAX_NS; i++) {
		const ww_nvme_ns_t *n = &h->nvme_ns[i];
		char pre[48];

		fprintf(f, LBL "%s\n", "namespace", *n->block_name ? n->block_name : "");
		snprintf(pre, sizeof(pre), "  ");
		ww_fields_text(f, ww_fields_nvme_ns, n, pre);
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
	ww_fields_text(f, ww_fields_ata, a, NULL);
	ww_fields_text(f, ww_fields_devstat, a, NULL);
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
	static const char *const ops[3] = { "write ", "read ", "verify " };
	const ww_scsi_t *s = &h->scsi;
	const ww_scsi_errcnt_t *ec[3] = { &s->write_errors, &s->read_errors, &s->verify_errors };
	char pre[48];

	fprintf(f, "SCSI\n");
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
	for (int i = 0; i < 3; i++)
		ww_fields_text(f, ww_fields_errcnt, ec[i], ops[i]);
	ww_fields_text(f, ww_fields_scsi, s, NULL);
	if (*s->manufacture_year)
		fprintf(f, LBL "%s week %s   [log page 0x0E param 1]\n", "manufactured",
			s->manufacture_year, s->manufacture_week);
	for (size_t i = 0; s->sas_phys_source && i < s->n_sas_phys && i < WW_SCSI_MAX_SAS_PHYS;
	     i++) {
		fprintf(f, LBL "port %u phy %u   [%s]\n", "SAS phy", s->sas_phys[i].port,
			s->sas_phys[i].phy, s->sas_phys_source);
		snprintf(pre, sizeof(pre), "  ");
		ww_fields_text(f, ww_fields_sas_phy, &s->sas_phys[i], pre);
	}
	if (s->sas_phys_source && s->n_sas_phys_dropped)
		fprintf(f, LBL "%zu (past the %d kept)   [%s]\n", "SAS phys not kept",
			s->n_sas_phys_dropped, WW_SCSI_MAX_SAS_PHYS, s->sas_phys_source);
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

static const char *utc_day(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d", &tm))
		snprintf(buf, len, "%lld", (long long)t);
	return buf;
}

void ww_text_render_endurance(FILE *f, const ww_endurance_t *e)
{
	char a[32], b[32], c[32];

	if (!f || !e)
		return;
	fprintf(f, "Endurance\n");
	fprintf(f, LBL "%s%s%s   [%s]\n", "rating source", ww_rating_source_name(e->rating_source),
		e->rating_ref[0] ? " " : "", e->rating_ref, e->rating_note);
	str_line(f, "workload basis", e->rating_basis);
	if (e->has_rated_bytes)
		fprintf(f, LBL "%" PRIu64 " bytes (%s)%s\n", "rated written", e->rated_bytes,
			ww_bytes_human(e->rated_bytes, a, sizeof(a)),
			e->rating_source == WW_RATING_DERIVED ? ", estimated" : "");
	if (e->has_rated_range)
		fprintf(f,
			LBL "%s - %s for %u - %u %% used (the used figure is an integer percent)"
			    "   [%s]\n",
			"rated written range", ww_bytes_human(e->rated_bytes_low, b, sizeof(b)),
			ww_bytes_human(e->rated_bytes_high, c, sizeof(c)),
			e->derived_used_percent + WW_DERIVED_SLACK_PERCENT,
			e->derived_used_percent - WW_DERIVED_SLACK_PERCENT, e->derived_used_source);
	if (e->has_rated_dwpd)
		fprintf(f, LBL "%.4g over %u years\n", "rated writes per day", e->rated_dwpd,
			e->warranty_years);
	else if (e->warranty_years)
		fprintf(f, LBL "%u\n", "warranty years", e->warranty_years);
	if (e->capacity_bytes)
		fprintf(f, LBL "%" PRIu64 " bytes (%s)   [%s]\n", "capacity for DWPD",
			e->capacity_bytes, ww_bytes_human(e->capacity_bytes, a, sizeof(a)),
			ww_capacity_basis_name(e->capacity_basis));
	if (e->has_rated_used)
		fprintf(f, LBL "%.2f %%   [host written / rated written]\n", "rated endurance used",
			e->rated_used_ratio * 100);
	else if (e->rating_source == WW_RATING_DERIVED)
		fprintf(f, LBL "not compared: the rating comes from the used figure below\n",
			"rated endurance used");
	if (e->has_drive_used)
		fprintf(f, LBL "%.0f %%   [the drive's own]\n", "endurance used",
			e->drive_used_ratio * 100);
	for (int i = 0; i < WW_WIN_MAX; i++)
		if (e->has_window[i]) {
			snprintf(a, sizeof(a), "writes per day (%s)", ww_window_name[i]);
			fprintf(f, LBL "%.4g\n", a, e->window_dwpd[i]);
		}
	if (e->has_lifetime_dwpd)
		fprintf(f, LBL "%.4g   [host written / capacity / power-on days]\n",
			"writes per day (lifetime)", e->lifetime_dwpd);
	if (e->has_warranty_end)
		fprintf(f, LBL "%s   [start %s: %s]\n", "warranty end",
			utc_day(e->warranty_end, a, sizeof(a)),
			ww_wstart_basis_name(e->warranty_start_basis),
			utc_day(e->warranty_start, b, sizeof(b)));
	if (e->has_wearout_write_rate)
		fprintf(f, LBL "%s   [rated written at the 30-day write rate]\n", "wear-out",
			utc_day(e->wearout_write_rate, a, sizeof(a)));
	if (e->has_wearout_pct)
		fprintf(f, LBL "%s   [the drive's own used, at its lifetime rate]\n", "wear-out",
			utc_day(e->wearout_pct, a, sizeof(a)));
	if (e->has_waf)
		fprintf(f, LBL "%.3g\n", "write amplification", e->write_amplification);
}

void ww_text_render_health(FILE *f, const ww_drive_t *d, const ww_health_t *h,
			   const ww_read_report_t *r, const ww_verdict_t *v,
			   const ww_endurance_t *e)
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
	ww_text_render_endurance(f, e);
	if (h->protocol == WW_PROTO_NVME)
		render_nvme(f, h);
	else if (h->protocol == WW_PROTO_ATA)
		render_ata(f, h);
	else if (h->protocol == WW_PROTO_SCSI)
		render_scsi(f, h);
	if (r)
		render_report(f, r);
}

static void local_hour(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!t || !localtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M %Z", &tm))
		snprintf(buf, len, "none within 90 days");
}

void ww_text_render_self_test_plan(FILE *f, const ww_selftest_plan_t *p)
{
	char t[64];

	if (!p || !p->on)
		return;
	fprintf(f,
		"self-test schedule (self_test_schedule; started by `serve`, never by `show`)\n");
	local_hour(p->next, t, sizeof(t));
	fprintf(f, LBL "%s%s%s\n", "next",
		p->next ? ww_selftest_kind_names[p->next_kind % WW_STK_MAX] : "",
		p->next ? " at " : "", t);
	for (unsigned k = 1; k < WW_STK_MAX; k++) {
		char label[48];

		if (!p->last[k])
			continue;
		local_hour(p->last[k], t, sizeof(t));
		snprintf(label, sizeof(label), "latest due (%s)", ww_selftest_kind_names[k]);
		fprintf(f, LBL "%s\n", label, t);
	}
}
