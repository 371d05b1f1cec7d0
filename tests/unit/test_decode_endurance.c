/* Decoders of NVMe log 09h, OCP C0h and SCSI page 0x0E/0x01 on
 * spec-constructed bytes (QEMU 7.2 rejects 09h, so no capture exists).
 * Layouts: NVM Express Base Specification 2.0, Endurance Group Information
 * log (Endurance Estimate bytes 32-47 and Media Units Written 80-95, units
 * of 10^9 bytes); OCP Datacenter NVMe SSD Specification 2.0, SMART / Health
 * Information Extended log C0h (GUID at 496-511, version at 494-495); SBC-4
 * Utilization log page (0x0E/0x01, param 0 in 0.01 %). Expected values are
 * written beside the bytes they come from. */
#include <errno.h>
#include <string.h>

#include "wearwatch/decode.h"
#include "ww_test.h"

static void test_09h(void)
{
	static uint8_t b[512];
	static ww_health_t h;

	memset(b, 0, sizeof(b));
	memset(&h, 0, sizeof(h));
	b[32] = 0x40; b[33] = 0x1F;   /* Endurance Estimate 8000 -> 8 x 10^12 bytes */
	b[80] = 0x2C; b[81] = 0x01;   /* Media Units Written 300 -> 3 x 10^11 bytes */
	b[64] = 0xFF;                 /* Data Units Written (not used here) */
	CHECK_EQ_I64(ww_decode_nvme_endurance_group(b, sizeof(b), &h), 0);
	CHECK_EQ_U64(h.endurance_estimate_bytes.value, 8000000000000ull);
	CHECK_STR(h.endurance_estimate_bytes.label, "nvme_endurance_group");
	CHECK_EQ_U64(h.media_written_bytes.value, 300000000000ull);
	/* 128-bit value above 2^64 / 10^9 saturates */
	b[47] = 0x01;
	CHECK_EQ_I64(ww_decode_nvme_endurance_group(b, sizeof(b), &h), 0);
	CHECK(h.endurance_estimate_bytes.saturated);
	CHECK_EQ_U64(h.endurance_estimate_bytes.value, UINT64_MAX);
	/* zero = not reported */
	memset(b, 0, sizeof(b));
	memset(&h, 0, sizeof(h));
	CHECK_EQ_I64(ww_decode_nvme_endurance_group(b, sizeof(b), &h), 0);
	CHECK(!WW_HAS(h.endurance_estimate_bytes) && !WW_HAS(h.media_written_bytes));
	CHECK_EQ_I64(ww_decode_nvme_endurance_group(b, 511, &h), -EMSGSIZE);
}

static void test_c0h(void)
{
	static uint8_t b[512];
	static ww_health_t h;

	memset(b, 0, sizeof(b));
	memset(&h, 0, sizeof(h));
	b[0] = 0x00; b[1] = 0x10;     /* PMUW 0x1000 = 4096 bytes */
	b[56] = 0x2a;
	b[57] = 0x01;                 /* Uncorrectable Read Error Count 0x012a = 298 */
	b[128] = 100;                 /* Capacitor Health 100 % */
	b[160] = 7;                   /* PLP Start Count 7 */
	b[182] = 0x01;                /* Endurance Estimate 2^48 = 281474976710656 bytes */
	b[494] = 3;                   /* Log Page Version 3 (OCP 2.0) */
	memcpy(b + 496, ww_ocp_c0_guid, 16);
	CHECK_EQ_I64(ww_decode_ocp_smart_ext(b, sizeof(b), &h), 0);
	CHECK_EQ_U64(h.media_written_bytes.value, 4096);
	CHECK_EQ_U64(h.endurance_estimate_bytes.value, 281474976710656ull);
	CHECK_STR(h.endurance_estimate_bytes.label, "ocp_c0");
	CHECK_EQ_U64(h.plp_start_count.value, 7);
	CHECK_EQ_U64(h.capacitor_health_percent.value, 100);
	CHECK_EQ_U64(h.uncorrectable_read_errors.value, 298);
	CHECK_STR(h.uncorrectable_read_errors.source,
		  "OCP C0h bytes 56-63 (Uncorrectable Read Error Count)");
	/* log page versions 2 (OCP 1.0), 3 (2.0), 4 (2.5) and a later one all
	 * carry the Endurance Estimate and PLP Start Count at the same offsets */
	for (unsigned v = 2; v <= 5; v++) {
		memset(&h, 0, sizeof(h));
		b[494] = (uint8_t)v;
		CHECK_EQ_I64(ww_decode_ocp_smart_ext(b, sizeof(b), &h), 0);
		CHECK_EQ_U64(h.endurance_estimate_bytes.value, 281474976710656ull);
		CHECK_STR(h.endurance_estimate_bytes.label, "ocp_c0");
		CHECK_EQ_U64(h.plp_start_count.value, 7);
	}
	/* version 1 (before OCP 1.0): neither */
	memset(&h, 0, sizeof(h));
	b[494] = 1;
	CHECK_EQ_I64(ww_decode_ocp_smart_ext(b, sizeof(b), &h), 0);
	CHECK(!WW_HAS(h.endurance_estimate_bytes) && !WW_HAS(h.plp_start_count));
	/* another vendor's C0h (GUID differs by one byte): nothing decoded */
	memset(&h, 0, sizeof(h));
	b[511] ^= 1;
	CHECK_EQ_I64(ww_decode_ocp_smart_ext(b, sizeof(b), &h), -ENOTSUP);
	CHECK(!WW_HAS(h.media_written_bytes) && !WW_HAS(h.capacitor_health_percent));
	CHECK_EQ_I64(ww_decode_ocp_smart_ext(b, 100, &h), -EMSGSIZE);
}

/* the pages of tests/fixtures/nvme/ocp-c0-v{2,3,4,5}.hex (gen_ocp_c0.py:
 * OCP NVMe Cloud SSD 1.0, Datacenter NVMe SSD 2.0, 2.5 and version 5, each
 * with every field its version defines set): one Endurance Estimate and
 * PLP Start Count whatever fields later versions add around them */
static void test_c0h_versions(void)
{
	static uint8_t b[512];
	static ww_health_t h;
	const char *src = getenv("WW_SOURCE_DIR");
	char p[1024];

	for (unsigned v = 2; v <= 5; v++) {
		snprintf(p, sizeof(p), "%s/tests/fixtures/nvme/ocp-c0-v%u.hex", src ? src : ".", v);
		memset(&h, 0, sizeof(h));
		CHECK_EQ_U64(ww_load_hex(p, b, sizeof(b)), 512);
		CHECK_EQ_U64((unsigned)(b[494] | b[495] << 8), v);
		CHECK_EQ_I64(ww_decode_ocp_smart_ext(b, sizeof(b), &h), 0);
		CHECK_EQ_U64(h.endurance_estimate_bytes.value, 7008000000000000ull);
		CHECK_STR(h.endurance_estimate_bytes.label, "ocp_c0");
		CHECK_EQ_U64(h.plp_start_count.value, 7);
		CHECK_EQ_U64(h.media_written_bytes.value, 123456789012345ull);
		CHECK_EQ_U64(h.uncorrectable_read_errors.value, 298);
		CHECK_EQ_U64(h.capacitor_health_percent.value, 100);
		printf("C0h version %u: Endurance Estimate %" PRIu64
		       " bytes, PLP Start Count %" PRIu64 "\n",
		       v, h.endurance_estimate_bytes.value, h.plp_start_count.value);
	}
}

static void test_utilization(void)
{
	/* page 0x0E | SPF, subpage 0x01, length 6, param 0x0000, 2 bytes: 0x0BB8
	 * = 3000 -> 30.00 % of the annual workload rating */
	static const uint8_t p[] = { 0x4E, 0x01, 0x00, 0x06, 0x00, 0x00, 0x03, 0x02, 0x0B, 0xB8 };
	static ww_health_t h;

	CHECK_EQ_I64(ww_decode_scsi_utilization(p, sizeof(p), &h), 0);
	CHECK_EQ_U64(h.workload_utilization_centipercent.value, 3000);
	CHECK_EQ_I64(ww_decode_scsi_utilization(p, 9, &h), -EMSGSIZE);
	static const uint8_t wrong[] = { 0x0E, 0x00, 0x00, 0x00 };
	CHECK_EQ_I64(ww_decode_scsi_utilization(wrong, sizeof(wrong), &h), -EINVAL);
}

int main(void)
{
	test_09h();
	test_c0h();
	test_c0h_versions();
	test_utilization();
	return ww_test_done("test_decode_endurance");
}
