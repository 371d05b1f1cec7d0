/* ATA decoders, fixture-free (always runs). Inputs are SPEC-CONSTRUCTED:
 * IDENTIFY words and SMART sectors built here per ACS-4 / the SMART attribute
 * layout, Device Statistics pages from tests/fixtures/ata/NAME.hex (their headers
 * name the published drive values they carry). Expected values are those
 * published values, not outputs of the decoder. */
#include "wearwatch/decode.h"
#include "ww_ata_sectors.h"

static uint8_t page_buf[8][512];

static const uint8_t *hexpage(int slot, const char *name)
{
	size_t n = load_hex(name, page_buf[slot], 512);

	CHECK_EQ_U64(n, 512);
	return page_buf[slot];
}

/* 512e drive like the WD80EFPX of ticket 1920: word 106 = 6003h */
static void build_identify_512e(uint8_t *id)
{
	memset(id, 0, 512);
	id_str(id, 10, 10, "     WD-SPEC0001");
	id_str(id, 23, 4, "81.00A81");
	id_str(id, 27, 20, "WDC WD80EFPX-68C4ZN0");
	id_set(id, 60, 0xffff);
	id_set(id, 61, 0x0fff);
	id_set(id, 82, 0x746b);
	id_set(id, 83, 0x7f61 & ~0x8000);
	id_set(id, 84, 0x6163);
	id_set(id, 85, 0x7469);
	id_set(id, 87, 0x6163);
	/* 15 628 053 168 = 0x3A3812AB0 */
	id_set(id, 100, 0x2ab0);
	id_set(id, 101, 0xa381);
	id_set(id, 102, 0x0003);
	id_set(id, 106, 0x6003);
	id_set(id, 108, 0x5001);
	id_set(id, 109, 0x4ee2);
	id_set(id, 110, 0xc114);
	id_set(id, 111, 0x24ae);
	id_set(id, 217, 5640);
	id_checksum(id);
}

/* 4Kn drive like the HGST HUH721010ALN600: word 106 bit 12, words 117-118 =
 * 2048 words; 2 441 609 216 logical sectors (10 TB / 4096) */
static void build_identify_4kn(uint8_t *id)
{
	memset(id, 0, 512);
	id_str(id, 10, 10, "SPEC4KN");
	id_str(id, 23, 4, "A3MA");
	id_str(id, 27, 20, "HGST HUH721010ALN600");
	id_set(id, 82, 0x0001);
	id_set(id, 84, 0x4020);
	id_set(id, 85, 0x0001);
	id_set(id, 87, 0x4020);
	id_set(id, 100, (uint16_t)2441609216u);
	id_set(id, 101, (uint16_t)(2441609216u >> 16));
	id_set(id, 106, 0x5000);
	id_set(id, 117, 2048);
	id_set(id, 118, 0);
	id_set(id, 217, 7200);
	id_checksum(id);
}

static void test_identify(void)
{
	uint8_t id[512];
	ww_health_t h;

	build_identify_512e(id);
	memset(&h, 0, sizeof(h));
	CHECK(ww_decode_ata_identify(id, sizeof(id), &h) == 0);
	CHECK(h.protocol == WW_PROTO_ATA);
	CHECK_STR(h.model, "WDC WD80EFPX-68C4ZN0");
	CHECK_STR(h.serial, "WD-SPEC0001");
	CHECK_STR(h.firmware, "81.00A81");
	CHECK_EQ_U64(h.logical_block_bytes.value, 512);
	CHECK_EQ_U64(h.physical_block_bytes.value, 4096);
	CHECK_EQ_U64(h.capacity_bytes.value, 15628053168ull * 512);
	CHECK(strstr(h.capacity_bytes.source, "100-103") != NULL);
	CHECK_STR(h.wwn, "0x50014ee2c11424ae");
	CHECK_EQ_U64(h.rotation_rate_rpm.value, 5640);
	CHECK(h.ata.smart_supported && h.ata.smart_enabled && h.ata.gp_log_supported);
	CHECK(h.ata.identify_has_checksum && h.ata.identify_checksum_ok);

	/* bad checksum: noted, still decoded */
	id[300] ^= 0x55;
	memset(&h, 0, sizeof(h));
	CHECK(ww_decode_ata_identify(id, sizeof(id), &h) == 0);
	CHECK(h.ata.identify_has_checksum && !h.ata.identify_checksum_ok);
	CHECK_STR(h.model, "WDC WD80EFPX-68C4ZN0");

	/* LBA28 fallback: words 100-103 zero -> words 60-61 (0FFFFFFFh) */
	build_identify_512e(id);
	id_set(id, 100, 0);
	id_set(id, 101, 0);
	id_set(id, 102, 0);
	memset(&h, 0, sizeof(h));
	CHECK(ww_decode_ata_identify(id, sizeof(id), &h) == 0);
	CHECK_EQ_U64(h.capacity_bytes.value, 0x0fffffffull * 512);
	CHECK(strstr(h.capacity_bytes.source, "60-61") != NULL);

	/* 4Kn */
	build_identify_4kn(id);
	memset(&h, 0, sizeof(h));
	CHECK(ww_decode_ata_identify(id, sizeof(id), &h) == 0);
	CHECK_EQ_U64(h.logical_block_bytes.value, 4096);
	CHECK_EQ_U64(h.physical_block_bytes.value, 4096);
	CHECK_EQ_U64(h.capacity_bytes.value, 2441609216ull * 4096);
	CHECK(h.wwn[0] == '\0');

	/* NUL padding inside strings (MCCOE64GEMPP style) and SSD rotation */
	build_identify_512e(id);
	memset(id + 2 * 27 + 12, 0, 28);
	id_set(id, 217, 1);
	memset(&h, 0, sizeof(h));
	CHECK(ww_decode_ata_identify(id, sizeof(id), &h) == 0);
	CHECK_STR(h.model, "WDC WD80EFPX");
	CHECK_EQ_U64(h.rotation_rate_rpm.value, 1);
	/* word 217 = 0 (not reported) */
	id_set(id, 217, 0);
	memset(&h, 0, sizeof(h));
	ww_decode_ata_identify(id, sizeof(id), &h);
	CHECK(!WW_HAS(h.rotation_rate_rpm));
}

static void test_devstat(void)
{
	uint8_t id[512];
	ww_health_t h;

	/* Samsung 860 EVO (scrutiny smart-ata-full.json): 512-byte sectors */
	build_identify_512e(id);
	id_set(id, 106, 0x4000);
	memset(&h, 0, sizeof(h));
	CHECK(ww_decode_ata_identify(id, sizeof(id), &h) == 0);
	CHECK(ww_decode_ata_devstat(hexpage(0, "samsung-860evo-devstat-p0.hex"), 512, &h) == 0);
	CHECK_EQ_U64(h.ata.n_devstat_pages, 6);
	CHECK(h.ata.devstat_pages[0] == 0 && h.ata.devstat_pages[1] == 1 &&
	      h.ata.devstat_pages[3] == 5 && h.ata.devstat_pages[5] == 7);
	CHECK(ww_decode_ata_devstat(hexpage(1, "samsung-860evo-devstat-p1.hex"), 512, &h) == 0);
	CHECK(ww_decode_ata_devstat(hexpage(2, "samsung-860evo-devstat-p5.hex"), 512, &h) == 0);
	CHECK(ww_decode_ata_devstat(hexpage(3, "samsung-860evo-devstat-p7.hex"), 512, &h) == 0);
	CHECK_EQ_U64(h.ata.devstat_power_on_hours.value, 14551);
	CHECK_EQ_U64(h.ata.devstat_logical_sectors_written.value, 64777770148ull);
	CHECK_EQ_U64(h.ata.devstat_logical_sectors_read.value, 34909544344ull);
	CHECK_EQ_I64(h.ata.devstat_temperature_celsius.value, 36);
	CHECK_EQ_U64(h.ata.devstat_percentage_used.value, 19);
	ww_ata_finish(&h);
	CHECK_EQ_U64(h.host_written_bytes.value, 33166218315776ull);
	CHECK_EQ_U64(h.host_read_bytes.value, 34909544344ull * 512);
	CHECK_EQ_U64(h.power_on_seconds.value, 14551ull * 3600);
	CHECK(strstr(h.power_on_seconds.source, "Device Statistics") != NULL);
	CHECK_EQ_I64(h.temperature_celsius.value, 36);
	CHECK_EQ_U64(h.endurance_used_percent.value, 19);

	/* HGST HUH721010ALN600 (linuxhw): 4Kn, no page-1 POH entry */
	build_identify_4kn(id);
	memset(&h, 0, sizeof(h));
	CHECK(ww_decode_ata_identify(id, sizeof(id), &h) == 0);
	CHECK(ww_decode_ata_log_directory(hexpage(4, "hgst-huh721010aln600-gplogdir.hex"), 512, &h) == 0);
	CHECK(h.ata.devstat_supported);
	CHECK_EQ_U64(h.ata.devstat_log_pages, 8);
	CHECK(ww_decode_ata_devstat(hexpage(5, "hgst-huh721010aln600-devstat-p1.hex"), 512, &h) == 0);
	CHECK(ww_decode_ata_devstat(hexpage(6, "hgst-huh721010aln600-devstat-p5.hex"), 512, &h) == 0);
	CHECK(!WW_HAS(h.ata.devstat_power_on_hours));
	ww_ata_finish(&h);
	CHECK_EQ_U64(h.host_written_bytes.value, 30338029971ull * 4096);
	CHECK_EQ_U64(h.host_read_bytes.value, 47961552516ull * 4096);
	CHECK(!WW_HAS(h.power_on_seconds));
	CHECK_EQ_I64(h.temperature_celsius.value, 35);
	CHECK(!WW_HAS(h.endurance_used_percent));

	/* flags: supported but not valid -> not taken; signed temperature */
	uint8_t p[512];
	memcpy(p, page_buf[2], 512);
	p[8] = 0xfb; /* -5 C */
	memset(&h, 0, sizeof(h));
	CHECK(ww_decode_ata_devstat(p, 512, &h) == 0);
	CHECK_EQ_I64(h.ata.devstat_temperature_celsius.value, -5);
	p[15] = 0x80;
	memset(&h, 0, sizeof(h));
	CHECK(ww_decode_ata_devstat(p, 512, &h) == 0);
	CHECK(!WW_HAS(h.ata.devstat_temperature_celsius));
	/* page FFh (vendor specific) is not decoded; a zero revision is not a page */
	p[2] = 0xff;
	CHECK(ww_decode_ata_devstat(p, 512, &h) == -ENOTSUP);
	p[0] = p[1] = 0;
	CHECK(ww_decode_ata_devstat(p, 512, &h) == -EINVAL);

	/* saturating bytes: 2^48-1 sectors x 2^20-byte sectors > 2^64 */
	memset(&h, 0, sizeof(h));
	WW_SET(h.logical_block_bytes, 1ull << 20, "test");
	WW_SET(h.ata.devstat_logical_sectors_written, 0xffffffffffffull, "test");
	ww_ata_finish(&h);
	CHECK(h.host_written_bytes.saturated);
	CHECK_EQ_U64(h.host_written_bytes.value, UINT64_MAX);
}

static void test_smart(void)
{
	uint8_t d[512] = { 0 }, t[512] = { 0 };
	/* raws as published in ../shared/fixtures/SOURCES.md notes */
	static const uint8_t r9_seagate[6] = { 0x19, 0x11, 0x00, 0x00, 0xb3, 0x70 };
	static const uint8_t r194_packed[6] = { 0x1c, 0x00, 0x0f, 0x00, 0x36, 0x00 };
	static const uint8_t r190[6] = { 0x26, 0x00, 0x25, 0x26, 0x28, 0x4e };
	static const uint8_t r12[6] = { 0x26, 0x02, 0, 0, 0, 0 };
	static const uint8_t r187[6] = { 0x03, 0, 0, 0, 0, 0 };
	static const uint8_t r5_fujitsu[6] = { 0, 0, 0, 0, 0xd0, 0x07 };
	ww_health_t h;

	d[0] = 0x0a;
	smart_entry(d, 0, 9, 96, 96, r9_seagate);
	smart_entry(d, 2, 194, 34, 53, r194_packed);   /* slot 1 empty */
	smart_entry(d, 3, 190, 62, 44, r190);
	smart_entry(d, 4, 12, 100, 100, r12);
	smart_entry(d, 5, 187, 100, 100, r187);
	smart_entry(d, 6, 5, 100, 100, r5_fujitsu);
	smart_entry(d, 7, 100, 1, 2, r12);
	sector_checksum(d);
	t[2] = 5; t[3] = 36;
	t[2 + 12] = 194; t[3 + 12] = 0;
	t[2 + 24] = 12; t[3 + 24] = 20;
	sector_checksum(t);
	t[511] ^= 1; /* bad thresholds checksum: values kept */

	memset(&h, 0, sizeof(h));
	CHECK(ww_decode_ata_smart_data(d, 512, &h) == 0);
	CHECK(ww_decode_ata_smart_thresholds(t, 512, &h) == 0);
	CHECK_EQ_U64(h.ata.smart_revision, 10);
	CHECK(h.ata.smart_data_checksum_ok);
	CHECK(!h.ata.thresholds_checksum_ok);
	CHECK(h.ata.has_thresholds);
	CHECK_EQ_U64(h.ata.n_attrs, 7);
	const ww_ata_attr_t *a = ww_ata_find_attr(&h, 9);
	CHECK(a && a->raw == 123914101461273ull && a->value == 96);
	CHECK(a && !a->has_threshold);
	CHECK_STR(a ? a->name : NULL, "Power_On_Hours");
	a = ww_ata_find_attr(&h, 5);
	CHECK(a && a->raw == 8589934592000ull && a->has_threshold && a->threshold == 36);
	CHECK_STR(a ? a->name : NULL, "Reallocated_Sector_Ct");
	a = ww_ata_find_attr(&h, 12);
	CHECK(a && a->threshold == 20 && a->flags == 0x32);
	CHECK_STR(ww_ata_find_attr(&h, 100)->name, "Unknown_Attribute");
	CHECK_STR(ww_ata_find_attr(&h, 190)->name, "Airflow_Temperature_Cel");

	ww_ata_finish(&h);
	CHECK_EQ_U64(h.power_on_seconds.value, 4377ull * 3600);
	CHECK(strstr(h.power_on_seconds.source, "attribute 9") != NULL);
	CHECK_EQ_I64(h.temperature_celsius.value, 28);
	CHECK(strstr(h.temperature_celsius.source, "194") != NULL);
	CHECK_EQ_U64(h.power_cycles.value, 550);
	CHECK_EQ_U64(h.media_errors.value, 3);
	CHECK(!WW_HAS(h.host_written_bytes));
	CHECK(h.smart_status == WW_SMART_UNKNOWN);

	/* 194 with a zero low byte is not a reading: 190 is used */
	d[2 + 24 + 5] = 0;
	memset(&h, 0, sizeof(h));
	ww_decode_ata_smart_data(d, 512, &h);
	CHECK(!h.ata.smart_data_checksum_ok);
	ww_ata_finish(&h);
	CHECK_EQ_I64(h.temperature_celsius.value, 38);
	CHECK(strstr(h.temperature_celsius.source, "190") != NULL);

	/* attribute names straight from smartmontools' DEFAULT entry */
	CHECK_STR(ww_ata_attr_name(1), "Raw_Read_Error_Rate");
	CHECK_STR(ww_ata_attr_name(197), "Current_Pending_Sector");
	CHECK_STR(ww_ata_attr_name(198), "Offline_Uncorrectable");
	CHECK_STR(ww_ata_attr_name(199), "UDMA_CRC_Error_Count");
	CHECK_STR(ww_ata_attr_name(188), "Command_Timeout");
	CHECK_STR(ww_ata_attr_name(241), "Total_LBAs_Written");
	CHECK_STR(ww_ata_attr_name(14), "Unknown_Attribute");
	CHECK_STR(ww_ata_attr_name(255), "Unknown_Attribute");
}

typedef int (*decoder_fn)(const uint8_t *, size_t, ww_health_t *);
static const decoder_fn decoders[] = {
	ww_decode_ata_identify, ww_decode_ata_smart_data, ww_decode_ata_smart_thresholds,
	ww_decode_ata_log_directory, ww_decode_ata_devstat,
};

static void test_truncation_and_garbage(void)
{
	static ww_health_t h;
	uint8_t b[512];
	int bad = 0;

	/* every decoder, every short length: -EMSGSIZE (the buffer is exactly
	 * the claimed length, so ASan catches any read past it) */
	for (size_t k = 0; k < sizeof(decoders) / sizeof(decoders[0]); k++) {
		for (size_t n = 0; n < 512; n++) {
			uint8_t *cut = malloc(n ? n : 1);
			memset(cut, 0x01, n);
			if (decoders[k](cut, n, &h) != -EMSGSIZE)
				bad++;
			free(cut);
		}
		CHECK(decoders[k](NULL, 512, &h) == -EINVAL);
		CHECK(decoders[k](b, 512, NULL) == -EINVAL);
	}
	CHECK_EQ_U64(bad, 0);

	/* all 0xFF */
	memset(b, 0xff, sizeof(b));
	memset(&h, 0, sizeof(h));
	CHECK(ww_decode_ata_identify(b, 512, &h) == 0);
	CHECK(strspn(h.model, "?") == strlen(h.model));
	CHECK(!WW_HAS(h.rotation_rate_rpm));
	CHECK(!h.ata.smart_supported);
	CHECK(ww_decode_ata_smart_data(b, 512, &h) == 0);
	CHECK_EQ_U64(h.ata.n_attrs, 30);
	CHECK_EQ_U64(h.ata.attrs[0].raw, 0xffffffffffffull);
	CHECK(ww_decode_ata_smart_thresholds(b, 512, &h) == 0);
	CHECK(ww_decode_ata_log_directory(b, 512, &h) == 0);
	CHECK(ww_decode_ata_devstat(b, 512, &h) == -ENOTSUP);
	b[2] = 0; /* page 0 claiming 255 entries: capped */
	CHECK(ww_decode_ata_devstat(b, 512, &h) == 0);
	CHECK_EQ_U64(h.ata.n_devstat_pages, sizeof(h.ata.devstat_pages));
	ww_ata_finish(&h);
	CHECK(!WW_HAS(h.temperature_celsius));

	/* seeded garbage */
	unsigned seed = 1920;
	printf("garbage seed %u\n", seed);
	srand(seed);
	for (int it = 0; it < 2000; it++) {
		for (size_t i = 0; i < sizeof(b); i++)
			b[i] = (uint8_t)rand();
		if (it & 1)
			b[2] = (uint8_t)(it % 8);
		memset(&h, 0, sizeof(h));
		for (size_t k = 0; k < sizeof(decoders) / sizeof(decoders[0]); k++) {
			int rc = decoders[k](b, sizeof(b), &h);
			bad += !(rc == 0 || rc == -EINVAL || rc == -ENOTSUP);
		}
		ww_ata_finish(&h);
		bad += h.ata.n_attrs > WW_ATA_MAX_ATTRS;
		bad += strlen(h.model) >= sizeof(h.model);
	}
	CHECK_EQ_U64(bad, 0);
}

int main(void)
{
	test_identify();
	test_devstat();
	test_smart();
	test_truncation_and_garbage();
	return ww_test_done("test_decode_ata");
}
