/* The field tables (src/expo/fields.c) and their walkers: every row of every
 * table, set, is shown by both renderers under its key and label, and an
 * unset one by neither; and the SAS phy counters of log page 0x18 reach
 * `decode` (text and --json) through the rows alone. The page is
 * spec-constructed (tests/fixtures/scsi/README.md: AL15SEB060N figures),
 * its values cross-checked with `sg_logs --inhex` in test_decode_scsi. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "wearwatch/decode.h"
#include "wearwatch/expo.h"
#include "wearwatch/store.h"
#include "expo/fields.h"
#include "ww_test.h"

/* set row f in base so that it is shown: a sourced value with a source,
 * a plain one non-zero */
static void set_row(const ww_field_t *f, void *base)
{
	char *p = (char *)base + f->off;

	switch (f->kind) {
	case WW_FK_U64:
		WW_SET(*(ww_u64 *)p, 7, "test source");
		break;
	case WW_FK_I64:
		WW_SET(*(ww_i64 *)p, -3, "test source");
		break;
	case WW_FK_U8:
		*(uint8_t *)p = 5;
		break;
	case WW_FK_U16:
		*(uint16_t *)p = 5;
		break;
	case WW_FK_U32:
		*(uint32_t *)p = 5;
		break;
	case WW_FK_RAW64:
		*(uint64_t *)p = 5;
		break;
	case WW_FK_U128:
		((ww_u128 *)p)->lo = 5;
		break;
	case WW_FK_BOOL:
		*(bool *)p = true;
		break;
	}
}

static const struct {
	const char *name;
	const ww_field_t *t;
	size_t size;
} tables[] = {
	{ "health", ww_fields_health, sizeof(ww_health_t) },
	{ "nvme_smart", ww_fields_nvme_smart, sizeof(ww_nvme_smart_t) },
	{ "nvme_ctrl", ww_fields_nvme_ctrl, sizeof(ww_nvme_ctrl_t) },
	{ "nvme_ns", ww_fields_nvme_ns, sizeof(ww_nvme_ns_t) },
	{ "ata", ww_fields_ata, sizeof(ww_ata_t) },
	{ "devstat", ww_fields_devstat, sizeof(ww_ata_t) },
	{ "scsi", ww_fields_scsi, sizeof(ww_scsi_t) },
	{ "errcnt", ww_fields_errcnt, sizeof(ww_scsi_errcnt_t) },
	{ "sas_phy", ww_fields_sas_phy, sizeof(ww_sas_phy_t) },
	{ "errlog", ww_fields_errlog, sizeof(ww_errlog_t) },
	{ "selftest", ww_fields_selftest, sizeof(ww_selftest_log_t) },
	{ "link", ww_fields_link, sizeof(ww_link_t) },
};

/* text of the table t over base */
static char *text_of(const ww_field_t *t, const void *base)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	ww_fields_text(f, t, base, NULL);
	fclose(f);
	return buf;
}

static void test_every_row_shown(void)
{
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		void *base = calloc(1, tables[i].size);
		size_t rows = 0;

		if (!base)
			abort();
		for (const ww_field_t *f = tables[i].t; f->member; f++) {
			json_object *o = json_object_new_object();
			char *txt, want[128];

			/* unset: neither output has it (plain rows shown always
			 * are the exception: 0 is their value) */
			memset(base, 0, tables[i].size);
			if (tables[i].t == ww_fields_scsi)
				((ww_scsi_t *)base)->protocol_id = 0xff;
			ww_fields_json(o, f, base);
			if (f->kind == WW_FK_U64 || f->kind == WW_FK_I64 ||
			    f->when == WW_FW_NONZERO || f->when == WW_FW_NOT_FF)
				CHECK(!json_object_object_get_ex(o, f->key, NULL));
			json_object_put(o);

			set_row(f, base);
			o = json_object_new_object();
			/* one row: the table from f to its end, walked alone */
			{
				ww_field_t one[2] = { *f, { 0 } };

				ww_fields_json(o, one, base);
				txt = text_of(one, base);
			}
			if (!json_object_object_get_ex(o, f->key, NULL)) {
				fprintf(stderr, "%s.%s: JSON has no \"%s\"\n", tables[i].name,
					f->member, f->key);
				CHECK(false);
			}
			snprintf(want, sizeof(want), "  %s ", f->label);
			if (!txt || !strstr(txt, want)) {
				fprintf(stderr, "%s.%s: text has no \"%s\" line:\n%s\n",
					tables[i].name, f->member, f->label, txt ? txt : "(none)");
				CHECK(false);
			}
			if (f->kind == WW_FK_U64 || f->kind == WW_FK_I64)
				CHECK(txt && strstr(txt, "[test source]"));
			free(txt);
			json_object_put(o);
			rows++;
		}
		CHECK(rows > 0);
		free(base);
	}
}

/* `decode` of page 0x18: stdout of the command into out */
static int run(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0;

	if (!p)
		return -1;
	n = fread(out, 1, len - 1, p);
	out[n] = 0;
	return pclose(p);
}

static void test_sas_phys_in_decode(void)
{
	const char *bin = getenv("WW_BINARY"), *src = getenv("WW_SOURCE_DIR");
	char cmd[1024], out[65536];
	json_object *o = NULL, *phys = NULL, *p0;

	if (!bin || !src) {
		fprintf(stderr,
			"test_expo_fields: WW_BINARY/WW_SOURCE_DIR unset; decode part not run\n");
		CHECK(false);
		return;
	}
	snprintf(cmd, sizeof(cmd),
		 "%s decode --type scsi-sas-phy %s/tests/fixtures/scsi/log_18_sas_port.hex", bin,
		 src);
	CHECK_EQ_I64(run(cmd, out, sizeof(out)), 0);
	/* port 1 phy 0: 16 invalid dwords, 16 disparity errors, 4 losses of sync */
	CHECK(strstr(out, "port 1 phy 0") != NULL);
	CHECK(strstr(out, "  invalid dwords             16\n") != NULL);
	CHECK(strstr(out, "  loss of dword sync         4\n") != NULL);
	snprintf(cmd, sizeof(cmd),
		 "%s decode --json --type scsi-sas-phy %s/tests/fixtures/scsi/log_18_sas_port.hex",
		 bin, src);
	CHECK_EQ_I64(run(cmd, out, sizeof(out)), 0);
	o = json_tokener_parse(out);
	CHECK(o != NULL);
	if (o && json_object_object_get_ex(o, "scsi", &p0))
		json_object_object_get_ex(p0, "sas_phys", &phys);
	CHECK(phys && json_object_array_length(phys) == 2);
	if (phys && json_object_array_length(phys) == 2) {
		json_object *v;

		p0 = json_object_array_get_idx(phys, 0);
		CHECK(json_object_object_get_ex(p0, "invalid_dwords", &v) &&
		      json_object_get_int64(v) == 16);
		CHECK(json_object_object_get_ex(p0, "running_disparity_errors", &v) &&
		      json_object_get_int64(v) == 16);
		CHECK(json_object_object_get_ex(p0, "loss_of_dword_sync", &v) &&
		      json_object_get_int64(v) == 4);
		CHECK(json_object_object_get_ex(p0, "port", &v) && json_object_get_int64(v) == 1);
		/* an identifier as text: a browser's double would round it */
		CHECK(json_object_object_get_ex(p0, "sas_address", &v) &&
		      json_object_is_type(v, json_type_string) &&
		      !strcmp(json_object_get_string(v), "0x5000039b48736e9e"));
	}
	json_object_put(o);
}

/* h (a record with the new value) rendered by /metrics, the drive's API
 * object and the text of show/decode: each must contain its line */
static void everywhere(const ww_health_t *h, const char *metric, const char *json, const char *text)
{
	char *txt, *js, *buf = NULL;
	size_t len = 0;
	ww_store_t *s = ww_store_new(0);
	ww_snapshot_t *snap;
	ww_drive_t d;
	FILE *f;

	memset(&d, 0, sizeof(d));
	snprintf(d.id, sizeof(d.id), "trial-drive");
	d.protocol = h->protocol;
	CHECK_EQ_I64(ww_store_sync(s, &d, 1, 1700000000), 0);
	CHECK_EQ_I64(ww_store_update(s, d.id, 0, h, NULL, 0.1, 1700000000), 0);
	snap = ww_store_acquire(s);
	txt = ww_metrics_render(&(ww_render_ctx_t){ .snap = snap, .now = 1700000060 }, NULL);
	if (!txt || !strstr(txt, metric)) {
		fprintf(stderr, "/metrics has no \"%s\"\n", metric);
		CHECK(false);
	}
	js = ww_json_render_drive(&(ww_render_ctx_t){ .snap = snap, .now = 1700000060 }, d.id,
				  &(bool){ false });
	if (!js || !strstr(js, json)) {
		fprintf(stderr, "the API has no \"%s\"\n", json);
		CHECK(false);
	}
	f = open_memstream(&buf, &len);
	if (f) {
		ww_text_render_health(f, &d, h, NULL, NULL, NULL);
		fclose(f);
	}
	if (!buf || !strstr(buf, text)) {
		fprintf(stderr, "the text has no \"%s\"\n", text);
		CHECK(false);
	}
	free(buf);
	free(js);
	free(txt);
	ww_snapshot_release(snap);
	ww_store_free(s);
}

/* A page added as rows (record field, decoder, registry, field and metric
 * rows): the Non-Medium Error page 0x06 of tests/fixtures/scsi (figure 33
 * from the AL15SEB060N of smartmontools ticket 1653, cross-checked with
 * sg_logs in test_decode_scsi). */
static void test_non_medium_everywhere(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	ww_health_t *h = calloc(1, sizeof(*h));
	char path[1024];
	uint8_t b[512];
	size_t n;

	snprintf(path, sizeof(path), "%s/tests/fixtures/scsi/log_06_non_medium.hex",
		 src ? src : ".");
	n = ww_load_hex(path, b, sizeof(b));
	CHECK(n == 12 && h);
	if (n != 12 || !h)
		return;
	h->protocol = WW_PROTO_SCSI;
	CHECK_EQ_I64(ww_decode_scsi_log_page(b, n, h), 0);
	everywhere(h, "wearwatch_drive_scsi_non_medium_errors_total{drive=\"trial-drive\"} 33\n",
		   "\"non_medium_errors\":{\"value\":33,\"unit\":\"count\",",
		   "  non-medium errors            33   [SCSI log page 0x06 param 0x0000]\n");
	free(h);
}

/* A log field added as rows: OCP C0h Uncorrectable Read Error Count (OCP
 * Datacenter NVMe SSD Specification 2.0, SMART / Health Information
 * Extended log, bytes 56-63), spec-constructed as in test_decode_endurance:
 * 0x012a = 298. */
static void test_ocp_ure_everywhere(void)
{
	static uint8_t b[512];
	ww_health_t *h = calloc(1, sizeof(*h));

	if (!h)
		return;
	b[56] = 0x2a;
	b[57] = 0x01;
	b[494] = 3;
	memcpy(b + 496, ww_ocp_c0_guid, 16);
	h->protocol = WW_PROTO_NVME;
	CHECK_EQ_I64(ww_decode_ocp_smart_ext(b, sizeof(b), h), 0);
	everywhere(h,
		   "wearwatch_drive_uncorrectable_read_errors_total{drive=\"trial-drive\"} 298\n",
		   "\"uncorrectable_read_errors\":{\"value\":298,\"unit\":\"count\",",
		   "  uncorrectable read errors    298   [OCP C0h bytes 56-63");
	free(h);
}

int main(void)
{
	test_every_row_shown();
	test_sas_phys_in_decode();
	test_non_medium_everywhere();
	test_ocp_ure_everywhere();
	return ww_test_done("test_expo_fields");
}
