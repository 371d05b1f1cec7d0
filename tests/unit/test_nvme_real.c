/* NVMe decoders against real device bytes.
 *
 * 1. ../shared/fixtures/fwupd/TOSHIBA_THNSN5512GPU7.bin: Identify Controller
 *    of a Toshiba XG3; expected values from fixtures/SOURCES.md pair #5.
 * 2. tests/fixtures/vm/nvme-id-ctrl.bin, nvme-smart-log.bin (and
 *    nvme-id-ns.bin), captured from QEMU's emulated NVMe controller by the VM
 *    harness, when present; expected values are what QEMU's hw/nvme reports.
 * Exits 77 (skip) when neither source is available. */
#include "ww_test.h"

#include "decode/nvme.h"

#include <unistd.h>

static int ran;

static void test_toshiba_xg3(const char *fx)
{
	size_t len;
	unsigned char *b = ww_read_file(fx, "fwupd/TOSHIBA_THNSN5512GPU7.bin", &len);
	ww_health_t h = { 0 };

	CHECK(b != NULL);
	if (!b)
		return;
	ran++;
	CHECK_EQ_U64(len, 4096);
	CHECK_EQ_I64(ww_decode_nvme_id_ctrl(b, len, &h), 0);
	CHECK(h.has_nvme_ctrl);
	CHECK_STR(h.model, "THNSN5512GPU7 TOSHIBA");
	CHECK_STR(h.serial, "37RSDEADBEEF");	/* edited by fwupd, leading spaces trimmed */
	CHECK_STR(h.firmware, "410557LA");
	CHECK_EQ_U64(h.nvme_ctrl.vid, 0x1179);
	/* bytes 73-75 as stored: 00 08 0d (Toshiba's OUI 00-08-0D) */
	CHECK_EQ_U64(h.nvme_ctrl.ieee_oui[0], 0x00);
	CHECK_EQ_U64(h.nvme_ctrl.ieee_oui[1], 0x08);
	CHECK_EQ_U64(h.nvme_ctrl.ieee_oui[2], 0x0d);
	CHECK_EQ_U64(h.nvme_ctrl.version, 0);	/* pre-1.2 controller */
	CHECK_EQ_U64(h.nvme_ctrl.lpa, 0x00);
	CHECK_EQ_U64(h.nvme_ctrl.wctemp_kelvin, 351);
	CHECK_EQ_U64(h.nvme_ctrl.cctemp_kelvin, 355);
	CHECK_EQ_I64(h.temperature_warning_celsius.value, 78);
	CHECK_EQ_I64(h.temperature_critical_celsius.value, 82);
	CHECK_STR(h.temperature_warning_celsius.source,
		  "NVMe Identify Controller WCTEMP bytes 266-267");
	CHECK_EQ_U64(h.nvme_ctrl.tnvmcap_bytes.lo, 0);
	CHECK_EQ_U64(h.nvme_ctrl.tnvmcap_bytes.hi, 0);
	CHECK_EQ_U64(h.nvme_ctrl.nn, 1);
	CHECK(h.protocol == WW_PROTO_NVME);

	/* no namespace and TNVMCAP 0: capacity stays unreported */
	ww_nvme_finish(&h);
	CHECK(!WW_HAS(h.capacity_bytes));

	/* every truncation of the real bytes fails */
	unsigned bad = 0;
	for (size_t n = 0; n < len; n++) {
		ww_health_t t = { 0 };
		unsigned char *c = malloc(n ? n : 1);
		memcpy(c, b, n);
		if (ww_decode_nvme_id_ctrl(c, n, &t) != -EMSGSIZE || t.model[0])
			bad++;
		free(c);
	}
	CHECK_EQ_U64(bad, 0);
	free(b);
}

static unsigned char *vm_file(const char *name, size_t *len)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char p[1024];

	snprintf(p, sizeof(p), "%s/tests/fixtures/vm/%s", src ? src : ".", name);
	if (access(p, R_OK) != 0) {
		*len = 0;
		return NULL;
	}
	return ww_read_file(NULL, p, len);
}

static void test_qemu(void)
{
	size_t len;
	unsigned char *b;
	ww_health_t h = { 0 };

	b = vm_file("nvme-id-ctrl.bin", &len);
	if (b) {
		ran++;
		CHECK_EQ_U64(len, 4096);
		CHECK_EQ_I64(ww_decode_nvme_id_ctrl(b, len, &h), 0);
		CHECK_STR(h.model, "QEMU NVMe Ctrl");
		CHECK_EQ_U64(h.nvme_ctrl.wctemp_kelvin, 343);
		CHECK_EQ_I64(h.temperature_warning_celsius.value, 70);
		CHECK_EQ_U64(h.nvme_ctrl.cctemp_kelvin, 373);
		CHECK_EQ_I64(h.temperature_critical_celsius.value, 100);
		CHECK_EQ_U64(h.nvme_ctrl.tnvmcap_bytes.lo, 0);
		CHECK_EQ_U64(h.nvme_ctrl.tnvmcap_bytes.hi, 0);
		free(b);
	} else {
		printf("note: tests/fixtures/vm/nvme-id-ctrl.bin absent, QEMU Identify not tested\n");
	}

	b = vm_file("nvme-smart-log.bin", &len);
	if (b) {
		ran++;
		CHECK(len >= 512);
		CHECK_EQ_I64(ww_decode_nvme_smart_log(b, len, &h), 0);
		CHECK_EQ_U64(h.nvme_smart.composite_temperature_kelvin, 323);
		CHECK_EQ_I64(h.temperature_celsius.value, 50);
		CHECK(h.smart_status == WW_SMART_PASSED);
		CHECK_EQ_U64(h.critical_warning.value, 0);
		free(b);
	} else {
		printf("note: tests/fixtures/vm/nvme-smart-log.bin absent, QEMU SMART log not tested\n");
	}

	b = vm_file("nvme-id-ns.bin", &len);
	if (b) {
		ww_nvme_ns_t ns = { 0 };
		ran++;
		CHECK_EQ_U64(len, 4096);
		CHECK_EQ_I64(ww_decode_nvme_id_ns(b, len, &ns), 0);
		CHECK(ns.size_blocks > 0);
		CHECK(ns.lba_bytes == 512 || ns.lba_bytes == 4096);
		free(b);
	}
}

int main(void)
{
	const char *fx = getenv("WW_FIXTURES");
	char p[4096];

	snprintf(p, sizeof(p), "%s/SOURCES.md", fx ? fx : "../shared/fixtures");
	if (access(p, R_OK) == 0)
		test_toshiba_xg3(ww_fixtures_dir());
	else
		printf("note: real-drive fixtures not found (set WW_FIXTURES), Toshiba XG3 not tested\n");
	test_qemu();
	if (!ran) {
		printf("SKIP: no real NVMe bytes available (shared fixtures or tests/fixtures/vm)\n");
		return 77;
	}
	return ww_test_done("test_nvme_real");
}
