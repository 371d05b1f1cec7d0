/* JSON rendering: records decoded from the in-repo NVMe SMART log fixtures
 * (tests/fixtures/nvme, values documented there) rendered and parsed back:
 * value/unit/source triples, 128-bit counters exact (int when they fit int64,
 * decimal string above), absent values omitted, the command report, and the
 * API state objects (standby with the age of the kept values, missing, 404). */
#include <json-c/json.h>

#include "ww_test.h"
#include "wearwatch/decode.h"
#include "wearwatch/collect.h"
#include "wearwatch/expo.h"
#include "wearwatch/store.h"

static const char *src_dir(void)
{
	const char *d = getenv("WW_SOURCE_DIR");

	return d ? d : ".";
}

static bool nvme_record(const char *name, ww_health_t *h)
{
	char p[1024];
	uint8_t log[600];
	size_t len, n;
	unsigned char *txt;

	memset(h, 0, sizeof(*h));
	snprintf(p, sizeof(p), "%s/tests/fixtures/nvme/%s", src_dir(), name);
	txt = ww_read_file(NULL, p, &len);
	CHECK(txt != NULL);
	if (!txt)
		return false;
	for (size_t i = 0; i < len; i++)
		if (txt[i] == '#')
			while (i < len && txt[i] != '\n')
				txt[i++] = ' ';
	n = ww_hex_to_bytes((const char *)txt, log, sizeof(log));
	free(txt);
	CHECK_EQ_U64(n, 512);
	return n == 512 && ww_decode_nvme_smart_log(log, n, h) == 0;
}

/* o["a"]["b"]... or NULL */
static json_object *get(json_object *o, const char *path)
{
	char buf[256], *save = NULL, *k;

	snprintf(buf, sizeof(buf), "%s", path);
	for (k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save)) {
		json_object *next = NULL;

		if (json_object_is_type(o, json_type_array))
			next = json_object_array_get_idx(o, (size_t)atoi(k));
		else if (!json_object_object_get_ex(o, k, &next))
			next = NULL;
		o = next;
	}
	return o;
}

static const char *gstr(json_object *o, const char *path)
{
	json_object *v = get(o, path);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

static bool gint(json_object *o, const char *path, int64_t want)
{
	json_object *v = get(o, path);

	return v && json_object_is_type(v, json_type_int) && json_object_get_int64(v) == want;
}

static ww_drive_t mk_drive(const char *id)
{
	ww_drive_t d;

	memset(&d, 0, sizeof(d));
	snprintf(d.id, sizeof(d.id), "%s", id);
	snprintf(d.block, sizeof(d.block), "nvme0n1");
	snprintf(d.dev_path, sizeof(d.dev_path), "/dev/nvme0n1");
	snprintf(d.cmd_path, sizeof(d.cmd_path), "/dev/nvme0");
	d.n_paths = 1;
	snprintf(d.paths[0], sizeof(d.paths[0]), "nvme0n1");
	d.protocol = WW_PROTO_NVME;
	d.transport = WW_TRANSPORT_NVME;
	d.capacity_bytes = 250059350016ull;
	return d;
}

static void test_health_netdata(void)
{
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_drive_t d = mk_drive("nvme-eui.netdata");
	ww_read_report_t r;
	ww_cmd_status_t st;
	json_object *o;
	char *txt;

	if (!nvme_record("netdata-nvme-cli-2.11.hex", h)) {
		free(h);
		return;
	}
	memset(&r, 0, sizeof(r));
	memset(&st, 0, sizeof(st));
	ww_report_cmd(&r, "Identify Controller", &st);
	st.result = WW_CMD_UNSUPPORTED;
	st.nvme_status = 0x0109;
	ww_report_cmd(&r, "Get Log Page 0Dh", &st);

	txt = ww_json_render_health(&d, h, &r, NULL, NULL);
	CHECK(txt != NULL);
	o = txt ? json_tokener_parse(txt) : NULL;
	CHECK(o != NULL);
	CHECK_STR(gstr(o, "drive.id"), "nvme-eui.netdata");
	CHECK(gint(o, "drive.capacity_bytes", 250059350016ll));
	CHECK_STR(gstr(o, "identity.protocol"), "nvme");
	/* value/unit/source triples: values stated in tests/fixtures/nvme */
	CHECK(gint(o, "values.host_written_bytes.value", 987485941760000ll));
	CHECK_STR(gstr(o, "values.host_written_bytes.unit"), "bytes");
	CHECK_STR(gstr(o, "values.host_written_bytes.source"), h->host_written_bytes.source);
	CHECK(gint(o, "values.temperature_celsius.value", 51));
	CHECK_STR(gstr(o, "values.temperature_celsius.unit"), "celsius");
	CHECK_STR(gstr(o, "values.temperature_celsius.source"), "NVMe SMART/Health log 02h bytes 1-2");
	CHECK(gint(o, "values.power_on_seconds.value", 24424ll * 3600));
	CHECK(gint(o, "values.endurance_used_percent.value", 30));
	CHECK_STR(gstr(o, "values.smart_status.value"), "passed");
	/* absent: no Identify Controller decoded, no capacity in the record */
	CHECK(get(o, "values.temperature_warning_celsius") == NULL);
	CHECK(get(o, "values.capacity_bytes") == NULL);
	CHECK(get(o, "nvme.controller") == NULL);
	/* a drive discovery knows no size of (a RAID member reached through
	 * smartctl) has none, not 0 B: the page then shows the read's */
	{
		ww_drive_t m = d;
		json_object *mo;
		char *mt;

		m.capacity_bytes = 0;
		mt = ww_json_render_health(&m, h, &r, NULL, NULL);
		mo = mt ? json_tokener_parse(mt) : NULL;
		CHECK(mo &&
		      json_object_object_get_ex(json_object_object_get(mo, "drive"),
						"capacity_bytes", NULL));
		CHECK(mo && get(mo, "drive.capacity_bytes") == NULL);
		json_object_put(mo);
		free(mt);
	}
	/* every SMART log field; 128-bit counters that fit go out as integers */
	CHECK(gint(o, "nvme.smart_log.data_units_written", 1928683480ll));
	CHECK(gint(o, "nvme.smart_log.host_write_commands", 24273507789ll));
	CHECK(gint(o, "nvme.smart_log.controller_busy_time_minutes", 69549));
	CHECK(gint(o, "nvme.smart_log.composite_temperature_kelvin", 324));
	CHECK(gint(o, "nvme.smart_log.thermal_mgmt_temp1_time_seconds", 1474));
	CHECK(gint(o, "nvme.smart_log.temperature_sensor_kelvin.7", 0));
	/* the report */
	CHECK_STR(gstr(o, "report.commands.0.command"), "Identify Controller");
	CHECK_STR(gstr(o, "report.commands.0.result"), ww_cmd_result_name(WW_CMD_OK));
	CHECK_STR(gstr(o, "report.commands.1.result"), ww_cmd_result_name(WW_CMD_UNSUPPORTED));
	CHECK(gint(o, "report.commands.1.nvme_status", 0x0109));
	CHECK(gint(o, "report.unsupported", 1));
	CHECK(gint(o, "report.errors", 0));
	json_object_put(o);
	free(txt);

	/* r may be NULL: no report key */
	txt = ww_json_render_health(&d, h, NULL, NULL, NULL);
	CHECK(txt && !strstr(txt, "\"report\""));
	free(txt);
	free(h);
}

static void test_health_edge(void)
{
	ww_health_t *h = calloc(1, sizeof(*h));
	json_object *o;
	char *txt;

	if (!nvme_record("edge-above-2e64.hex", h)) {
		free(h);
		return;
	}
	txt = ww_json_render_health(NULL, h, NULL, NULL, NULL);
	CHECK(txt != NULL);
	if (!txt) {
		free(h);
		return;
	}
	/* exact decimal text, not a double */
	CHECK(strstr(txt, "\"data_units_written\":\"18446744073709563961\"") != NULL);
	CHECK(strstr(txt, "\"media_errors\":\"340282366920938463463374607431768211455\"") != NULL);
	CHECK(strstr(txt, "e+") == NULL);
	o = json_tokener_parse(txt);
	CHECK(o != NULL);
	CHECK(get(o, "drive") == NULL);
	/* 2^64-1 does not fit int64: string; saturation flagged */
	CHECK_STR(gstr(o, "values.host_written_bytes.value"), "18446744073709551615");
	CHECK(json_object_get_boolean(get(o, "values.host_written_bytes.saturated")));
	CHECK_STR(gstr(o, "values.power_cycles.value"), "18446744073709551615");
	CHECK(get(o, "values.power_cycles.saturated") == NULL); /* fits, exact */
	CHECK(get(o, "values.temperature_celsius") == NULL);    /* 0 K */
	CHECK(gint(o, "values.endurance_used_percent.value", 101));
	CHECK(gint(o, "values.critical_warning.value", 0x10));
	CHECK_STR(gstr(o, "values.smart_status.value"), "failed");
	/* 65535 K is no reading: shown as 0, the spec's "not implemented" */
	CHECK(gint(o, "nvme.smart_log.temperature_sensor_kelvin.7", 0));
	CHECK(gint(o, "values.implausible_values", 1));
	CHECK(gint(o, "nvme.smart_log.thermal_mgmt_temp1_transitions", 4294967295ll));
	json_object_put(o);
	free(txt);
	free(h);
}

static void test_api(void)
{
	ww_store_t *s = ww_store_new(0);
	ww_drive_t d[2] = { mk_drive("nvme-a"), mk_drive("nvme-b") };
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_snapshot_t *snap;
	json_object *o;
	char *txt;
	bool found = true;
	time_t t0 = 1700000000;

	ww_store_sync(s, d, 2, t0);
	if (nvme_record("intel-ssdpe2kx040t8-linuxhw.hex", h))
		ww_store_update(s, "nvme-a", 0, h, NULL, 0.25, t0 + 1);
	ww_store_update(s, "nvme-a", 1, NULL, NULL, 0.01, t0 + 61); /* standby */
	ww_store_sync(s, d, 1, t0 + 90);                           /* b gone */

	snap = ww_store_acquire(s);
	txt = ww_json_render_drives(&(ww_render_ctx_t){ .snap = snap, .now = t0 + 100 });
	o = txt ? json_tokener_parse(txt) : NULL;
	CHECK(o && json_object_is_type(o, json_type_array));
	CHECK_EQ_U64(o ? json_object_array_length(o) : 0, 2);
	CHECK_STR(gstr(o, "0.id"), "nvme-a");
	CHECK(json_object_get_boolean(get(o, "0.present")));
	CHECK(json_object_get_boolean(get(o, "0.standby")));
	CHECK(gint(o, "0.standby_since", t0 + 61));
	CHECK(gint(o, "0.values_timestamp", t0 + 1));
	CHECK(gint(o, "0.values_age_seconds", 99));
	CHECK(gint(o, "0.last_collect.timestamp", t0 + 61));
	CHECK(json_object_get_boolean(get(o, "0.last_collect.success")));
	CHECK(gint(o, "0.collections_total", 2));
	CHECK(gint(o, "0.summary.temperature_celsius", 32));
	CHECK(gint(o, "0.summary.host_written_bytes", 1251447889ll * 512000));
	CHECK(gint(o, "0.summary.endurance_used_percent", 5));
	CHECK_STR(gstr(o, "1.id"), "nvme-b");
	CHECK(!json_object_get_boolean(get(o, "1.present")));
	CHECK(gint(o, "1.missing_since", t0 + 90));
	CHECK(get(o, "1.values_age_seconds") == NULL); /* never read */
	CHECK(get(o, "0.no_health_reason") == NULL);
	json_object_put(o);
	free(txt);
	ww_snapshot_release(snap);

	/* a drive without a health interface says why (this machine's vda) */
	ww_drive_t v = mk_drive("dev-vda");
	v.protocol = WW_PROTO_NONE;
	v.transport = WW_TRANSPORT_VIRTIO;
	v.no_health_reason = "virtio-blk has no health interface";
	ww_store_sync(s, &v, 1, t0 + 95);
	snap = ww_store_acquire(s);
	txt = ww_json_render_drives(&(ww_render_ctx_t){ .snap = snap, .now = t0 + 100 });
	o = txt ? json_tokener_parse(txt) : NULL;
	CHECK_STR(gstr(o, "0.id"), "dev-vda");
	CHECK_STR(gstr(o, "0.protocol"), "none");
	CHECK_STR(gstr(o, "0.no_health_reason"), "virtio-blk has no health interface");
	json_object_put(o);
	free(txt);
	ww_snapshot_release(snap);
	ww_store_sync(s, d, 2, t0 + 96);
	snap = ww_store_acquire(s);

	txt = ww_json_render_drive(&(ww_render_ctx_t){ .snap = snap, .now = t0 + 100 }, "nvme-a",
				   &found);
	CHECK(found && txt);
	o = txt ? json_tokener_parse(txt) : NULL;
	CHECK_STR(gstr(o, "drive.cmd_path"), "/dev/nvme0");
	CHECK(gint(o, "health.values.media_errors.value", 4294967296ll));
	CHECK(gint(o, "health.nvme.smart_log.host_write_commands", 28412333931ll));
	json_object_put(o);
	free(txt);

	txt = ww_json_render_drive(&(ww_render_ctx_t){ .snap = snap, .now = t0 }, "nope", &found);
	CHECK(!found && txt == NULL);
	ww_snapshot_release(snap);
	ww_store_free(s);
	free(h);
}

/* smartctl's JSON carries no SMART data checksum: the API says null, not
 * false (a mismatch); a native read says what the sum gave. Spec-constructed
 * ATA record (one attribute, checksum fields as ww_ata_parse_smart_data
 * leaves them). */
static void test_checksum_null(void)
{
	static ww_health_t h;
	json_object *o, *a = NULL, *v = NULL;
	char *txt;

	for (int smartctl = 0; smartctl < 2; smartctl++) {
		memset(&h, 0, sizeof(h));
		h.protocol = WW_PROTO_ATA;
		h.backend = smartctl ? "smartctl" : "sat";
		h.ata.n_attrs = 1;
		h.ata.attrs[0].id = 5;
		txt = ww_json_render_health(NULL, &h, NULL, NULL, NULL);
		o = txt ? json_tokener_parse(txt) : NULL;
		CHECK(o && json_object_object_get_ex(o, "ata", &a) &&
		      json_object_object_get_ex(a, "smart_data_checksum_ok", &v));
		if (smartctl)
			CHECK(v == NULL);
		else
			CHECK(v && json_object_is_type(v, json_type_boolean) &&
			      !json_object_get_boolean(v));
		json_object_put(o);
		free(txt);
	}
}

int main(void)
{
	test_health_netdata();
	test_checksum_null();
	test_health_edge();
	test_api();
	return ww_test_done("test_expo_json");
}
