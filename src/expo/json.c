/* JSON rendering of a health record, and of snapshot state for the HTTP API
 * (see expo.h, docs/api.md). 64-bit values go out as JSON integers when they
 * fit int64 and as decimal strings otherwise; nothing passes through double. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "wearwatch/expo.h"
#include "wearwatch/store.h"
#include "expo/fields.h"
#include "expo/probe_expo.h"

#define JFLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

static json_object *j_u64(uint64_t v)
{
	char buf[24];

	if (v <= (uint64_t)INT64_MAX)
		return json_object_new_int64((int64_t)v);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	return json_object_new_string(buf);
}

static json_object *j_hex(const uint8_t *b, size_t n)
{
	char buf[2 * 32 + 1];
	size_t k = 0;

	for (size_t i = 0; i < n && k + 2 < sizeof(buf); i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%02x", b[i]);
	buf[k] = 0;
	return json_object_new_string(buf);
}

static bool all_zero(const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

static void add(json_object *o, const char *k, json_object *v)
{
	json_object_object_add(o, k, v);
}

static void add_str(json_object *o, const char *k, const char *v)
{
	add(o, k, v ? json_object_new_string(v) : NULL);
}

/* {"value":..., "unit":..., "source":...} for a present value, nothing otherwise */
static void add_u64f(json_object *o, const char *k, const ww_u64 *v, const char *unit)
{
	json_object *e;

	if (!WW_HAS(*v))
		return;
	e = json_object_new_object();
	add(e, "value", j_u64(v->value));
	if (unit)
		add_str(e, "unit", unit);
	add_str(e, "source", v->source);
	if (v->saturated)
		add(e, "saturated", json_object_new_boolean(1));
	add(o, k, e);
}

/* h (may be NULL) refines the transport the way every other output names it */
static json_object *drive_identity(const ww_drive_t *d, const ww_health_t *h)
{
	json_object *o = json_object_new_object(), *a;

	add_str(o, "id", d->id);
	add_str(o, "block", d->block);
	add_str(o, "dev_path", d->dev_path);
	add_str(o, "cmd_path", d->cmd_path);
	if (d->ctrl[0])
		add_str(o, "controller", d->ctrl);
	add_str(o, "slot", d->slot);
	a = json_object_new_array();
	for (size_t i = 0; i < d->n_paths && i < WW_MAX_PATHS; i++)
		json_object_array_add(a, json_object_new_string(d->paths[i]));
	add(o, "paths", a);
	if (d->n_namespaces) {
		a = json_object_new_array();
		for (size_t i = 0; i < d->n_namespaces && i < WW_NVME_MAX_NS; i++)
			json_object_array_add(a, json_object_new_string(d->namespaces[i]));
		add(o, "namespaces", a);
	}
	add_str(o, "transport", ww_transport_name(ww_drive_transport(d, h)));
	add_str(o, "protocol", ww_protocol_name(d->protocol));
	if (d->no_health_reason)
		add_str(o, "no_health_reason", d->no_health_reason);
	if (*d->block) /* sysfs queue/rotational; unknown for a file decoded */
		add(o, "rotational", json_object_new_boolean(d->rotational));
	/* null, not 0 B, where discovery has no size (a RAID member that only
	 * smartctl reaches: no block device); the read's values have it */
	add(o, "capacity_bytes", d->capacity_bytes ? j_u64(d->capacity_bytes) : NULL);
	add(o, "logical_block_bytes", json_object_new_int64(d->logical_block_bytes));
	add(o, "physical_block_bytes", json_object_new_int64(d->physical_block_bytes));
	add_str(o, "sysfs_model", d->sysfs_model);
	add_str(o, "sysfs_serial", d->sysfs_serial);
	add_str(o, "sysfs_wwn", d->sysfs_wwn);
	add_str(o, "sysfs_vendor", d->sysfs_vendor);
	return o;
}

static const char *smart_status_name(ww_smart_status_t s)
{
	return s == WW_SMART_PASSED ? "passed" : s == WW_SMART_FAILED ? "failed" : "unknown";
}

static json_object *health_values(const ww_health_t *h)
{
	json_object *o = json_object_new_object(), *e;

	add_u64f(o, "capacity_bytes", &h->capacity_bytes, "bytes");
	add_u64f(o, "logical_block_bytes", &h->logical_block_bytes, "bytes");
	add_u64f(o, "physical_block_bytes", &h->physical_block_bytes, "bytes");
	add_u64f(o, "rotation_rate_rpm", &h->rotation_rate_rpm, "rpm");
	if (h->smart_status != WW_SMART_UNKNOWN) {
		e = json_object_new_object();
		add_str(e, "value", smart_status_name(h->smart_status));
		add_str(e, "source", h->smart_status_source);
		add(o, "smart_status", e);
	}
	ww_fields_json(o, ww_fields_health, h);
	return o;
}

/* Log 02h, every field the source carried (an absent one is left out, not 0) */
static json_object *nvme_smart_log(const ww_nvme_smart_t *n)
{
	json_object *s = json_object_new_object(), *a;

	ww_fields_json(s, ww_fields_nvme_smart, n);
	if (ww_nvme_smart_present(n, offsetof(ww_nvme_smart_t, temperature_sensor_kelvin))) {
		a = json_object_new_array();
		for (int i = 0; i < 8; i++)
			json_object_array_add(a, json_object_new_int(n->temperature_sensor_kelvin[i]));
		add(s, "temperature_sensor_kelvin", a);
	}
	add_str(s, "source", "NVMe SMART / Health Information log 02h");
	return s;
}

static json_object *nvme_section(const ww_health_t *h)
{
	json_object *o = json_object_new_object(), *s, *a;

	if (h->has_nvme_smart)
		add(o, "smart_log", nvme_smart_log(&h->nvme_smart));
	if (h->has_nvme_ctrl) {
		const ww_nvme_ctrl_t *c = &h->nvme_ctrl;
		uint8_t oui[3] = { c->ieee_oui[2], c->ieee_oui[1], c->ieee_oui[0] };

		s = json_object_new_object();
		ww_fields_json(s, ww_fields_nvme_ctrl, c);
		add(s, "ieee_oui", j_hex(oui, 3));
		add_str(s, "source", "NVMe Identify Controller (CNS 01h)");
		add(o, "controller", s);
	}
	a = json_object_new_array();
	for (size_t i = 0; i < h->n_nvme_ns && i < WW_NVME_MAX_NS; i++) {
		const ww_nvme_ns_t *ns = &h->nvme_ns[i];

		s = json_object_new_object();
		ww_fields_json(s, ww_fields_nvme_ns, ns);
		if (!all_zero(ns->eui64, sizeof(ns->eui64)))
			add(s, "eui64", j_hex(ns->eui64, sizeof(ns->eui64)));
		if (!all_zero(ns->nguid, sizeof(ns->nguid)))
			add(s, "nguid", j_hex(ns->nguid, sizeof(ns->nguid)));
		add_str(s, "block_name", ns->block_name);
		json_object_array_add(a, s);
	}
	add(o, "namespaces", a);
	return o;
}

static json_object *ata_section(const ww_ata_t *t, bool smartctl)
{
	json_object *o = json_object_new_object(), *a, *e;

	if (t->smart_support_known) { /* absent for a lone SMART page */
		add(o, "smart_supported", json_object_new_boolean(t->smart_supported));
		add(o, "smart_enabled", json_object_new_boolean(t->smart_enabled));
	}
	/* what the reads found, for the API only; null for smartctl's JSON,
	 * which carries no checksum (false claimed a mismatch) */
	add(o, "smart_data_checksum_ok",
	    smartctl ? NULL : json_object_new_boolean(t->smart_data_checksum_ok));
	add(o, "has_thresholds", json_object_new_boolean(t->has_thresholds));
	add(o, "thresholds_checksum_ok",
	    smartctl ? NULL : json_object_new_boolean(t->thresholds_checksum_ok));
	add(o, "gp_log_supported", json_object_new_boolean(t->gp_log_supported));
	add(o, "devstat_supported", json_object_new_boolean(t->devstat_supported));
	ww_fields_json(o, ww_fields_ata, t);
	if (t->has_power_mode)
		add(o, "power_mode", json_object_new_int(t->power_mode));
	a = json_object_new_array();
	for (size_t i = 0; i < t->n_attrs && i < WW_ATA_MAX_ATTRS; i++) {
		const ww_ata_attr_t *at = &t->attrs[i];

		e = json_object_new_object();
		add(e, "id", json_object_new_int(at->id));
		add_str(e, "name", at->name ? at->name : "Unknown_Attribute");
		add(e, "flags", json_object_new_int(at->flags));
		add(e, "value", json_object_new_int(at->value));
		add(e, "worst", json_object_new_int(at->worst));
		if (at->has_threshold)
			add(e, "threshold", json_object_new_int(at->threshold));
		add(e, "raw", j_u64(at->raw));
		add(e, "raw_bytes", j_hex(at->raw_bytes, sizeof(at->raw_bytes)));
		{
			char fl[8];

			add_str(e, "flags_string", ww_ata_attr_flags_str(at->flags, fl));
		}
		if (at->raw_string[0])
			add_str(e, "raw_string", at->raw_string);
		if (at->raw_is_count)
			add(e, "raw_decoded", j_u64(at->count));
		if (at->has_count)
			add(e, "count", j_u64(at->count));
		if (at->format_source)
			add_str(e, "format_source", at->format_source);
		json_object_array_add(a, e);
	}
	add(o, "attributes", a);
	e = json_object_new_object();
	ww_fields_json(e, ww_fields_devstat, t);
	a = json_object_new_array();
	for (size_t i = 0; i < t->n_devstats && i < WW_ATA_MAX_DEVSTATS; i++) {
		json_object *x = json_object_new_object();

		add(x, "page", json_object_new_int(t->devstats[i].page));
		add(x, "offset", json_object_new_int(t->devstats[i].offset));
		add_str(x, "name", t->devstats[i].name);
		add(x, "value", json_object_new_int64(t->devstats[i].value));
		json_object_array_add(a, x);
	}
	add(e, "entries", a);
	add(o, "device_statistics", e);
	return o;
}

static json_object *errcnt(const ww_scsi_errcnt_t *c)
{
	json_object *o = json_object_new_object();

	ww_fields_json(o, ww_fields_errcnt, c);
	return o;
}

/* page 0x18: one object per phy kept */
static json_object *sas_phys(const ww_scsi_t *s)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < s->n_sas_phys && i < WW_SCSI_MAX_SAS_PHYS; i++) {
		json_object *e = json_object_new_object();

		ww_fields_json(e, ww_fields_sas_phy, &s->sas_phys[i]);
		json_object_array_add(a, e);
	}
	return a;
}

static json_object *scsi_section(const ww_scsi_t *s)
{
	json_object *o = json_object_new_object(), *a;
	char buf[16];

	a = json_object_new_array();
	for (size_t i = 0; i < s->n_supported_pages && i < WW_SCSI_MAX_PAGES; i++) {
		uint16_t p = s->supported_pages[i];

		if (p & 0xff)
			snprintf(buf, sizeof(buf), "0x%02x/0x%02x", p >> 8, p & 0xff);
		else
			snprintf(buf, sizeof(buf), "0x%02x", p >> 8);
		json_object_array_add(a, json_object_new_string(buf));
	}
	add(o, "supported_log_pages", a);
	add(o, "write_errors", errcnt(&s->write_errors));
	add(o, "read_errors", errcnt(&s->read_errors));
	add(o, "verify_errors", errcnt(&s->verify_errors));
	ww_fields_json(o, ww_fields_scsi, s);
	if (s->manufacture_year[0])
		add_str(o, "manufacture_year", s->manufacture_year);
	if (s->manufacture_week[0])
		add_str(o, "manufacture_week", s->manufacture_week);
	if (s->sas_phys_source) {
		add(o, "sas_phys", sas_phys(s));
		add_str(o, "sas_phys_source", s->sas_phys_source);
		if (s->n_sas_phys_dropped)
			add(o, "sas_phys_dropped", j_u64(s->n_sas_phys_dropped));
	}
	return o;
}

/* error and self-test logs, interface speed: what was read of them */
static json_object *logs_object(const ww_health_t *h)
{
	json_object *o = json_object_new_object(), *a = json_object_new_object(), *e;

	for (int i = 0; i < WW_ERRLOG_MAX; i++) {
		const ww_errlog_t *l = &h->error_logs[i];

		if (!l->source)
			continue;
		e = json_object_new_object();
		ww_fields_json(e, ww_fields_errlog, l);
		add_str(e, "source", l->source);
		add(a, ww_errlog_names[i], e);
	}
	add(o, "error_logs", a);
	a = json_object_new_object();
	for (int i = 0; i < WW_SELFTEST_MAX; i++) {
		const ww_selftest_log_t *l = &h->self_tests[i];

		if (!l->source)
			continue;
		e = json_object_new_object();
		ww_fields_json(e, ww_fields_selftest, l);
		if (l->has_last) {
			add(e, "last_status", json_object_new_int(l->last_status));
			if (l->last_passed >= 0)
				add(e, "last_passed", json_object_new_boolean(l->last_passed));
			add(e, "last_power_on_hours", j_u64(l->last_hours));
			add_str(e, "last_kind", ww_selftest_kind_names[l->last_kind % WW_STK_MAX]);
		}
		if (l->has_failing_lba)
			add(e, "failing_lba", j_u64(l->failing_lba));
		if (l->has_open_failure) {
			json_object *of = json_object_new_object();

			add_str(of, "kind", ww_selftest_kind_names[l->open_kind % WW_STK_MAX]);
			add(of, "status", json_object_new_int(l->open_status));
			add(of, "power_on_hours", j_u64(l->open_hours));
			if (l->open_has_lba)
				add(of, "lba", j_u64(l->open_lba));
			add(e, "open_failure", of);
		}
		add_str(e, "source", l->source);
		add(a, ww_selftest_names[i], e);
	}
	add(o, "self_tests", a);
	if (h->self_test_now.source) {
		const ww_selftest_now_t *n = &h->self_test_now;

		e = json_object_new_object();
		add(e, "running", json_object_new_boolean(n->running));
		if (n->running)
			add_str(e, "kind", ww_selftest_kind_names[n->kind % WW_STK_MAX]);
		if (n->running && n->remaining_percent >= 0)
			add(e, "remaining_percent", json_object_new_int(n->remaining_percent));
		ww_fields_json(e, ww_fields_selftest_now, n);
		add_str(e, "source", n->source);
		add(o, "self_test_now", e);
	}
	e = json_object_new_object();
	ww_fields_json(e, ww_fields_link, &h->link);
	add(o, "interface_speed", e);
	if (h->has_smartctl_exit)
		add(o, "smartctl_exit_status", json_object_new_int(h->smartctl_exit));
	return o;
}

static json_object *report_object(const ww_read_report_t *r)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array(), *e;

	for (size_t i = 0; i < r->n_cmds && i < WW_READ_MAX_CMDS; i++) {
		const ww_cmd_note_t *c = &r->cmds[i];

		e = json_object_new_object();
		add_str(e, "command", c->what);
		add_str(e, "result", ww_cmd_result_name(c->result));
		if (c->os_errno)
			add(e, "errno", json_object_new_int(c->os_errno));
		if (c->sense_key || c->asc || c->ascq) {
			add(e, "sense_key", json_object_new_int(c->sense_key));
			add(e, "asc", json_object_new_int(c->asc));
			add(e, "ascq", json_object_new_int(c->ascq));
		}
		if (c->nvme_status)
			add(e, "nvme_status", json_object_new_int(c->nvme_status));
		json_object_array_add(a, e);
	}
	add(o, "commands", a);
	add(o, "errors", json_object_new_int64(r->n_errors));
	add(o, "unsupported", json_object_new_int64(r->n_unsupported));
	add(o, "decode_errors", json_object_new_int64(r->n_decode_errors));
	add(o, "standby", json_object_new_boolean(r->standby));
	add(o, "runtime_suspended", json_object_new_boolean(r->runtime_suspended));
	if (r->partial)
		add_str(o, "partial", r->partial);
	return o;
}

static json_object *health_object(const ww_drive_t *d, const ww_health_t *h,
				  const ww_read_report_t *r, const ww_verdict_t *v,
				  const ww_endurance_t *e)
{
	json_object *o = json_object_new_object(), *id;

	if (d)
		add(o, "drive", drive_identity(d, h));
	if (h) {
		id = json_object_new_object();
		add_str(id, "protocol", ww_protocol_name(h->protocol));
		add_str(id, "model", h->model);
		add_str(id, "serial", h->serial);
		add_str(id, "firmware", h->firmware);
		add_str(id, "vendor", h->vendor);
		add_str(id, "wwn", h->wwn);
		add(o, "identity", id);
		add(o, "values", health_values(h));
		add(o, "logs", logs_object(h));
		if (h->protocol == WW_PROTO_NVME || h->has_nvme_smart || h->has_nvme_ctrl)
			add(o, "nvme", nvme_section(h));
		if (h->protocol == WW_PROTO_ATA)
			add(o, "ata",
			    ata_section(&h->ata, h->backend && !strcmp(h->backend, "smartctl")));
		if (h->protocol == WW_PROTO_SCSI)
			add(o, "scsi", scsi_section(&h->scsi));
	}
	if (r)
		add(o, "report", report_object(r));
	if (v)
		add(o, "verdict", ww_json_verdict_object(v));
	if (e)
		add(o, "endurance", ww_json_endurance_of(e));
	return o;
}

static char *to_text(json_object *o)
{
	char *s = NULL;

	if (o) {
		const char *t = json_object_to_json_string_ext(o, JFLAGS);

		s = t ? strdup(t) : NULL;
		json_object_put(o);
	}
	return s;
}

char *ww_json_render_health(const ww_drive_t *d, const ww_health_t *h, const ww_read_report_t *r,
			    const ww_verdict_t *v, const ww_endurance_t *e)
{
	return to_text(health_object(d, h, r, v, e));
}

static json_object *j_time(time_t t)
{
	return t ? json_object_new_int64((int64_t)t) : NULL;
}

/* the scheduler's state of a drive with a self_test_schedule; null without */
static json_object *self_test_schedule(const ww_drive_state_t *st)
{
	const ww_selftest_state_t *s = &st->self_test;
	json_object *o, *n;

	if (!st->has_self_test)
		return NULL;
	o = json_object_new_object();
	add(o, "next_timestamp", j_time(s->plan.next));
	add_str(o, "next_kind",
		s->plan.next ? ww_selftest_kind_names[s->plan.next_kind % WW_STK_MAX] : NULL);
	add_str(o, "pending_kind",
		s->pending ? ww_selftest_kind_names[s->pending % WW_STK_MAX] : NULL);
	add(o, "testing", json_object_new_boolean(s->testing));
	add_str(o, "last_started_kind",
		s->started_kind ? ww_selftest_kind_names[s->started_kind % WW_STK_MAX] : NULL);
	add(o, "last_started", j_time(s->started));
	add(o, "last_attempt", j_time(s->last_attempt));
	add_str(o, "last_outcome", s->last_outcome);
	n = json_object_new_object();
	for (unsigned k = 1; k < WW_STK_MAX; k++)
		if (s->started_total[k] || (s->plan.kinds >> k & 1))
			add(n, ww_selftest_kind_names[k], j_u64(s->started_total[k]));
	add(o, "started_total", n);
	n = NULL;
	if (s->drive_kinds_known) {
		n = json_object_new_array();
		for (unsigned k = 1; k < WW_STK_MAX; k++)
			if (s->drive_kinds >> k & 1)
				json_object_array_add(
					n, json_object_new_string(ww_selftest_kind_names[k]));
	}
	add(o, "drive_kinds", n);
	/* the selective span the latest one read, and the cursor */
	n = NULL;
	if (s->has_span) {
		n = json_object_new_object();
		add(n, "first_lba", j_u64(s->span.first_lba));
		add(n, "last_lba", j_u64(s->span.last_lba));
		add(n, "next_first_lba", j_u64(s->span_next));
	}
	add(o, "selective_span", n);
	return o;
}

/* the drive's health verdict (the one ww_drive_verdict gives every output) */
static json_object *verdict_of(const ww_render_ctx_t *ctx, const ww_drive_state_t *st)
{
	ww_verdict_t *v = malloc(sizeof(*v));
	json_object *o = NULL;

	if (v) {
		ww_drive_verdict(ctx, st, v);
		o = ww_json_verdict_object(v);
	}
	free(v);
	return o;
}

static json_object *state_object(const ww_render_ctx_t *ctx, const ww_drive_state_t *st)
{
	time_t now = ctx->now;
	const ww_drive_t *d = st->drive;
	const ww_health_t *h = st->health;
	json_object *o = json_object_new_object(), *e;
	int64_t age = ww_drive_state_values_age(st, now);

	add_str(o, "id", d->id);
	add_str(o, "device", d->dev_path);
	add_str(o, "model", h && h->model[0] ? h->model : d->sysfs_model);
	add_str(o, "serial", h && h->serial[0] ? h->serial : d->sysfs_serial);
	add_str(o, "transport", ww_transport_name(ww_drive_transport(d, h)));
	add_str(o, "protocol", ww_protocol_name(d->protocol));
	if (d->protocol == WW_PROTO_NONE && d->no_health_reason)
		add_str(o, "no_health_reason", d->no_health_reason);
	add(o, "present", json_object_new_boolean(st->present));
	add(o, "missing_since", j_time(st->missing_since));
	add(o, "standby", json_object_new_boolean(st->standby));
	add(o, "standby_since", j_time(st->standby_since));
	add(o, "hung", json_object_new_boolean(st->hung));
	add(o, "hung_since", j_time(st->hung_since));
	add(o, "first_seen", j_time(st->first_seen));

	e = json_object_new_object();
	add(e, "timestamp", j_time(st->last_collect));
	add(e, "success", st->collections_total ? json_object_new_boolean(st->last_success) : NULL);
	add(e, "rc", st->collections_total ? json_object_new_int(st->last_rc) : NULL);
	add(e, "duration_seconds", st->collections_total ? json_object_new_double(st->last_duration_s) : NULL);
	add(o, "last_collect", e);
	add(o, "values_timestamp", j_time(st->health ? st->values_time : 0));
	add(o, "values_age_seconds", age >= 0 ? json_object_new_int64(age) : NULL);
	add(o, "collections_total", j_u64(st->collections_total));
	add(o, "errors_total", j_u64(st->errors_total));

	e = json_object_new_object();
	if (h) {
		if (WW_HAS(h->temperature_celsius))
			add(e, "temperature_celsius", json_object_new_int64(h->temperature_celsius.value));
		if (WW_HAS(h->endurance_used_percent))
			add(e, "endurance_used_percent", j_u64(h->endurance_used_percent.value));
		if (WW_HAS(h->host_written_bytes))
			add(e, "host_written_bytes", j_u64(h->host_written_bytes.value));
		if (WW_HAS(h->power_on_seconds))
			add(e, "power_on_seconds", j_u64(h->power_on_seconds.value));
		if (WW_HAS(h->available_spare_percent))
			add(e, "available_spare_percent", j_u64(h->available_spare_percent.value));
		if (h->smart_status != WW_SMART_UNKNOWN)
			add_str(e, "smart_status", smart_status_name(h->smart_status));
	}
	add(o, "summary", e);
	add(o, "probe", ww_json_probe_object(st));
	add(o, "self_test_schedule", self_test_schedule(st));
	add(o, "endurance", ww_json_endurance_object(ctx->endurance, d->id));
	add(o, "verdict", verdict_of(ctx, st));
	return o;
}

char *ww_json_render_drives(const ww_render_ctx_t *ctx)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; ctx->snap && i < ctx->snap->n; i++)
		json_object_array_add(a, state_object(ctx, ctx->snap->drives[i]));
	return to_text(a);
}

char *ww_json_render_drive(const ww_render_ctx_t *ctx, const char *id, bool *found)
{
	const ww_drive_state_t *st = ww_snapshot_find(ctx->snap, id);
	json_object *o;

	if (found)
		*found = st != NULL;
	if (!st)
		return NULL;
	o = state_object(ctx, st);
	add(o, "drive", drive_identity(st->drive, st->health));
	if (st->health)
		add(o, "health", health_object(NULL, st->health, st->report, NULL, NULL));
	return to_text(o);
}
