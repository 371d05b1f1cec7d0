/* SCSI log pages of the error, self-test and wear signals: Start-Stop Cycle
 * Counter (0x0E) load-unload counts, Self-Test Results (0x10), Power
 * Condition Transitions (0x1A), the negotiated link rate of Protocol
 * Specific Port (0x18), and READ DEFECT DATA's list header.
 *
 * Inputs are the spec-constructed pages of tests/fixtures/scsi (their
 * comments name the SPC-5 / SPL-4 clause and the real drive whose figures
 * they carry: the Toshiba AL15SEB060N `smartctl -x` text of smartmontools
 * ticket 1653 for 0x0E, 0x10 and 0x18). Every figure is cross-checked with
 * sg_logs --inhex (sg3-utils, an independent decoder) when it is installed;
 * the numbers written here are the ones sg_logs printed for these files.
 * READ DEFECT DATA headers have no --inhex decoder in sg3-utils 1.46; their
 * bytes are built from SBC-4 "READ DEFECT DATA (10)/(12) parameter data" and
 * the expected counts are the Toshiba's "Elements in grown defect list: 0"
 * and, for a list with entries, the definition (list length / descriptor
 * size). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/decode.h"
#include "ww_test.h"

static char fixdir[4096];
static bool have_sg_logs;

static int decode_file(const char *name, ww_health_t *h)
{
	char p[4200];
	uint8_t b[4096], *x;
	size_t n;
	int rc;

	snprintf(p, sizeof(p), "%s/scsi/%s", fixdir, name);
	n = ww_load_hex(p, b, sizeof(b));
	CHECK(n > 4);
	x = malloc(n); /* exactly n bytes: ASan sees an overread */
	memcpy(x, b, n);
	rc = ww_decode_scsi_log_page(x, n, h);
	for (size_t k = 0; k < n; k++) { /* every truncation rejected, record kept */
		ww_health_t t = *h;

		CHECK(ww_decode_scsi_log_page(x, k, &t) == -EMSGSIZE && !memcmp(&t, h, sizeof(t)));
	}
	free(x);
	return rc;
}

/* Every integer sg_logs --inhex prints after `label` on its lines, in order */
static size_t sg_logs_values(const char *name, const char *label, long long *v, size_t max)
{
	char cmd[4400], line[512];
	size_t n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "sg_logs --inhex='%s/scsi/%s' 2>/dev/null", fixdir, name);
	f = popen(cmd, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && n < max) {
		char *s = strstr(line, label), *e;

		if (!s)
			continue;
		s += strlen(label);
		while (*s == ' ' || *s == '=' || *s == ':')
			s++;
		v[n] = strtoll(s, &e, 0);
		n += e != s;
	}
	pclose(f);
	return n;
}

/* ours must equal sg_logs' k-th figure for label */
#define CHECK_SG(file, label, k, ours)                                          \
	do {                                                                    \
		long long sv_[24];                                              \
		if (have_sg_logs) {                                             \
			size_t n_ = sg_logs_values(file, label, sv_, 24);       \
			CHECK(n_ > (size_t)(k));                                \
			if (n_ > (size_t)(k))                                   \
				CHECK_EQ_I64((long long)(ours), sv_[k]);        \
		}                                                               \
	} while (0)

static void test_load_unload(void)
{
	ww_health_t h = { 0 };

	CHECK_EQ_I64(decode_file("log_0e_start_stop.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.specified_load_unload_cycles.value, 600000);
	CHECK_EQ_U64(h.scsi.load_unload_cycles.value, 5406);
	CHECK_STR(h.scsi.load_unload_cycles.source, "SCSI log page 0x0E param 0x0006");
	CHECK_SG("log_0e_start_stop.hex", "Specified load-unload count over device lifetime", 0,
		 h.scsi.specified_load_unload_cycles.value);
	CHECK_SG("log_0e_start_stop.hex", "Accumulated load-unload cycles", 0,
		 h.scsi.load_unload_cycles.value);
}

static void test_self_test(void)
{
	ww_health_t h = { 0 };
	const ww_selftest_log_t *l = &h.scsi.self_test;

	/* the Toshiba: background long at 5 h, background short at 4 h, both ok */
	CHECK_EQ_I64(decode_file("log_10_self_test.hex", &h), 0);
	CHECK_EQ_U64(l->entries, 2);
	CHECK_EQ_U64(l->failed, 0);
	CHECK(l->has_last && l->last_passed == 1 && l->last_status == 0);
	CHECK_EQ_U64(l->last_hours, 5);
	CHECK(!l->has_failing_lba);
	CHECK_SG("log_10_self_test.hex", "accumulated power-on hours", 0, l->last_hours);
	CHECK_SG("log_10_self_test.hex", "accumulated power-on hours", 1, 4);
	ww_scsi_finish(&h);
	CHECK_EQ_U64(h.self_tests[WW_SELFTEST_SCSI].entries, 2);
	CHECK_STR(h.self_tests[WW_SELFTEST_SCSI].source, "SCSI log page 0x10 Self-Test Results");

	memset(&h, 0, sizeof(h));
	CHECK_EQ_I64(decode_file("log_10_self_test_failed.hex", &h), 0);
	CHECK_EQ_U64(l->entries, 2);
	CHECK_EQ_U64(l->failed, 1);
	CHECK(l->last_passed == 0 && l->last_status == 7);
	CHECK_EQ_U64(l->last_hours, 4500);
	CHECK(l->has_failing_lba);
	CHECK_EQ_U64(l->failing_lba, 0x12345678);
	CHECK_SG("log_10_self_test_failed.hex", "accumulated power-on hours", 0, l->last_hours);
	CHECK_SG("log_10_self_test_failed.hex", "address of first error", 0, l->failing_lba);

	/* a newer extended test passed: the failure is no longer the newest */
	memset(&h, 0, sizeof(h));
	CHECK_EQ_I64(decode_file("log_10_self_test_cleared.hex", &h), 0);
	CHECK_EQ_U64(l->entries, 3);
	CHECK_EQ_U64(l->failed, 1);
	CHECK(l->last_passed == 1 && l->last_kind == WW_STK_EXTENDED);
	CHECK_EQ_U64(l->last_hours, 4510);
	CHECK(l->has_failing_lba && l->failing_lba == 0x12345678);
	CHECK(!l->has_open_failure);
	CHECK_SG("log_10_self_test_cleared.hex", "accumulated power-on hours", 0, l->last_hours);
	CHECK_SG("log_10_self_test_cleared.hex", "accumulated power-on hours", 1, 4500);
	CHECK_SG("log_10_self_test_cleared.hex", "address of first error", 0, l->failing_lba);
}

static void test_power_conditions(void)
{
	static const char *const labels[6] = {
		"transitions to active", "transitions to idle_a", "transitions to idle_b",
		"transitions to idle_c", "transitions to standby_z", "transitions to standby_y",
	};
	static const uint64_t want[6] = { 1234, 56789, 1020, 7, 300, 12 };
	ww_health_t h = { 0 };

	CHECK_EQ_I64(decode_file("log_1a_power_conditions.hex", &h), 0);
	for (int i = 0; i < 6; i++) {
		CHECK_EQ_U64(h.scsi.power_transitions[i].value, want[i]);
		CHECK_SG("log_1a_power_conditions.hex", labels[i], 0,
			 h.scsi.power_transitions[i].value);
	}
	CHECK_STR(ww_scsi_power_condition_names[4], "standby_z");
}

/* page 0x18: the Toshiba's port 1 phy 0 at 12 Gbps, port 2 phy 1 not up */
static void test_link_rate(void)
{
	ww_health_t h = { 0 };

	CHECK_EQ_I64(decode_file("log_18_sas_port.hex", &h), 0);
	CHECK_EQ_U64(h.scsi.n_sas_phys, 2);
	CHECK_EQ_U64(h.scsi.sas_phys[0].link_rate, 0xb);
	CHECK(h.scsi.sas_phys[1].link_rate < 0x8);
	ww_scsi_finish(&h);
	CHECK_EQ_U64(h.link.current_bps.value, 12000000000ull);
	CHECK_SG("log_18_sas_port.hex", "negotiated logical link rate:", 0, 12);
}

/* READ DEFECT DATA parameter data, header only (SBC-4) */
static void test_defects(void)
{
	/* (10): byte 1 bit 3 GLISTV, bits 2-0 format 4 (bytes from index,
	 * 8-byte descriptors), bytes 2-3 list length */
	static const uint8_t none10[4] = { 0x00, 0x0c, 0x00, 0x00 };
	static const uint8_t some10[4] = { 0x00, 0x0c, 0x08, 0x20 };   /* 2080 / 8 */
	static const uint8_t short10[4] = { 0x00, 0x08, 0x00, 0x10 };  /* format 0: /4 */
	static const uint8_t noglist[4] = { 0x00, 0x04, 0x00, 0x10 };  /* GLISTV 0 */
	/* (12): bytes 4-7 list length */
	static const uint8_t some12[8] = { 0x00, 0x0d, 0x00, 0x00, 0x00, 0x01, 0x04, 0x00 };
	ww_health_t h = { 0 };

	CHECK_EQ_I64(ww_decode_scsi_defect_header(none10, 4, false, &h), 0);
	CHECK_EQ_U64(h.scsi.grown_defects.value, 0); /* the Toshiba: 0 elements */
	CHECK_EQ_I64(ww_decode_scsi_defect_header(some10, 4, false, &h), 0);
	CHECK_EQ_U64(h.scsi.grown_defects.value, 260);
	CHECK_EQ_I64(ww_decode_scsi_defect_header(short10, 4, false, &h), 0);
	CHECK_EQ_U64(h.scsi.grown_defects.value, 4);
	CHECK_EQ_I64(ww_decode_scsi_defect_header(some12, 8, true, &h), 0);
	CHECK_EQ_U64(h.scsi.grown_defects.value, 0x10400 / 8);
	memset(&h, 0, sizeof(h));
	CHECK_EQ_I64(ww_decode_scsi_defect_header(noglist, 4, false, &h), -ENODATA);
	CHECK(!WW_HAS(h.scsi.grown_defects));
	CHECK_EQ_I64(ww_decode_scsi_defect_header(none10, 3, false, &h), -EMSGSIZE);
	CHECK_EQ_I64(ww_decode_scsi_defect_header(some12, 7, true, &h), -EMSGSIZE);
	/* the (10) length field full: the count does not fit, ask (12) */
	static const uint8_t full10[4] = { 0x00, 0x0c, 0xff, 0xff };
	CHECK_EQ_I64(ww_decode_scsi_defect_header(full10, 4, false, &h), -EOVERFLOW);
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");

	snprintf(fixdir, sizeof(fixdir), "%s/tests/fixtures", src ? src : ".");
	have_sg_logs = system("command -v sg_logs >/dev/null 2>&1") == 0;
	if (!have_sg_logs)
		printf("SKIP part: sg_logs not installed, no cross-check against sg_logs --inhex\n");
	test_load_unload();
	test_self_test();
	test_power_conditions();
	test_link_rate();
	test_defects();
	return ww_test_done("test_decode_scsi_logs");
}
