/* ATA decoders and SAT sense parsing on bytes captured from QEMU's AHCI disk
 * (tests/fixtures/vm/sata, see its README: ide-hd model WWSATA_DISK behind
 * libata's SAT). Expected values come from smartctl-a.json captured in the
 * same guest, and the SMART RETURN STATUS sense buffer from smartctl's own
 * `-r ioctl,2` hex dump (smartctl-r-ioctl2-a.txt). The reader then runs on
 * the same disk's capture (tests/fixtures/captures/sata, `wearwatch capture`
 * in a VM boot; its IDENTIFY and SMART sectors are byte for byte the .bin
 * files here) through the replay-backed fake device. In-tree, so always
 * runs. */
#include "wearwatch/decode.h"
#include "wearwatch/transport.h"
#include "wearwatch/collect.h"
#include "ww_fake_device.h"

static uint8_t *vm_file(const char *name, size_t *len)
{
	char p[4096];
	const char *src = getenv("WW_SOURCE_DIR");

	snprintf(p, sizeof(p), "%s/tests/fixtures/vm/sata/%s", src ? src : ".", name);
	return ww_read_file(NULL, p, len);
}

/* The sense buffer smartctl printed after "Command=<what>" */
static size_t sense_from_log(const char *log, const char *what, uint8_t *out, size_t max)
{
	const char *p = strstr(log, what), *q;
	unsigned want;
	size_t n = 0;

	if (!p || !(p = strstr(p, "Sense buffer, len=")))
		return 0;
	want = (unsigned)strtoul(p + 18, NULL, 10);
	p = strchr(p, '\n');
	while (p && n < want && n < max) {
		char line[256];

		p++;
		q = strchr(p, '\n');
		if (!q)
			break;
		snprintf(line, sizeof(line), "%.*s", (int)(q - p), p);
		/* skip the offset column */
		const char *hex = line;
		while (*hex == ' ')
			hex++;
		while (*hex && *hex != ' ')
			hex++;
		n += ww_hex_to_bytes(hex, out + n, (want < max ? want : max) - n);
		p = q;
	}
	return n;
}

struct want_attr {
	uint8_t id, value, worst, thresh;
	uint64_t raw;
};

/* smartctl-a.json ata_smart_attributes.table */
static const struct want_attr attrs[] = {
	{ 1, 100, 100, 6, 0 },     { 3, 100, 100, 0, 16 }, { 4, 100, 100, 20, 100 },
	{ 5, 100, 100, 36, 0 },    { 9, 100, 100, 0, 1 },  { 12, 100, 100, 0, 0 },
	{ 190, 69, 69, 50, 522125343 },
};

int main(void)
{
	static ww_health_t h, hr;
	size_t li, li2, ld, lt, ll;
	uint8_t *id = vm_file("identify.bin", &li);
	uint8_t *id2 = vm_file("identify.sg_sat_identify.bin", &li2);
	uint8_t *sd = vm_file("smart-read-data.bin", &ld);
	uint8_t *th = vm_file("smart-read-thresholds.bin", &lt);
	char *log = (char *)vm_file("smartctl-r-ioctl2-a.txt", &ll);

	if (!id || !sd || !th || !log) {
		printf("SKIP: tests/fixtures/vm/sata not present\n");
		return 77;
	}
	CHECK(id2 && li == li2 && memcmp(id, id2, li) == 0);

	CHECK(ww_decode_ata_identify(id, li, &h) == 0);
	CHECK_STR(h.model, "WWSATA_DISK");
	CHECK_STR(h.serial, "WWSATA0001");
	CHECK_STR(h.firmware, "2.5+");
	CHECK_EQ_U64(h.capacity_bytes.value, 268435456);
	CHECK_EQ_U64(h.logical_block_bytes.value, 512);
	CHECK_EQ_U64(h.physical_block_bytes.value, 512);
	CHECK(!WW_HAS(h.rotation_rate_rpm)); /* smartctl: no rotation_rate */
	CHECK(h.ata.smart_supported);

	CHECK(ww_decode_ata_smart_data(sd, ld, &h) == 0);
	CHECK(ww_decode_ata_smart_thresholds(th, lt, &h) == 0);
	CHECK(h.ata.smart_data_checksum_ok);
	CHECK_EQ_U64(h.ata.n_attrs, sizeof(attrs) / sizeof(attrs[0]));
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		const ww_ata_attr_t *a = ww_ata_find_attr(&h, attrs[i].id);

		CHECK(a != NULL);
		if (!a)
			continue;
		CHECK_EQ_U64(a->value, attrs[i].value);
		CHECK_EQ_U64(a->worst, attrs[i].worst);
		CHECK_EQ_U64(a->threshold, attrs[i].thresh);
		CHECK_EQ_U64(a->raw, attrs[i].raw);
	}

	/* SMART RETURN STATUS sense as libata returned it to smartctl */
	uint8_t sense[64];
	ww_ata_regs_t r;
	size_t sl = sense_from_log(log, "Command=SMART STATUS CHECK", sense, sizeof(sense));
	CHECK_EQ_U64(sl, 22);
	CHECK(ww_sat_parse_sense(sense, sl, &r) == 0);
	CHECK_EQ_U64(r.status, 0x50);
	CHECK(ww_decode_ata_smart_status(r.lba) == WW_SMART_PASSED);
	h.ata.return_status = ww_decode_ata_smart_status(r.lba);

	ww_ata_finish(&h);
	CHECK_EQ_I64(h.temperature_celsius.value, 31); /* smartctl temperature.current */
	CHECK(strstr(h.temperature_celsius.source, "190") != NULL);
	CHECK_EQ_U64(h.power_on_seconds.value, 1 * 3600); /* power_on_time.hours 1 */
	CHECK_EQ_U64(h.power_cycles.value, 0);
	CHECK(h.smart_status == WW_SMART_PASSED);

	/* the reader on the disk's recorded answers to its own commands */
	ww_fake_t f;
	ww_read_report_t rep;
	char cap[4096];
	snprintf(cap, sizeof(cap), "%s/tests/fixtures/captures/sata/"
		 "ata-WWSATA_DISK_WWSATA0001.capture", getenv("WW_SOURCE_DIR") ?
		 getenv("WW_SOURCE_DIR") : ".");
	CHECK(ww_fake_open_file(&f, cap) == 0);
	memset(&rep, 0, sizeof(rep));
	CHECK(ww_read_ata(&f.x, NULL, &hr, &rep) == 0);
	CHECK_EQ_I64(hr.temperature_celsius.value, 31);
	CHECK_EQ_U64(hr.ata.n_attrs, 7);
	/* the counts the verdict reads (5: first word of raw; 197: raw48), from
	 * the attributes' formats (the drive database has no entry for this
	 * model: the defaults, as ww_ata_finish applies them too): the same
	 * attributes */
	for (size_t i = 0; i < hr.ata.n_attrs; i++)
		if (hr.ata.attrs[i].id == 5 || hr.ata.attrs[i].id == 197) {
			CHECK(hr.ata.attrs[i].has_count);
			CHECK_EQ_U64(hr.ata.attrs[i].count, hr.ata.attrs[i].id == 5 ?
				     (hr.ata.attrs[i].raw & 0xffff) : hr.ata.attrs[i].raw);
		}
	CHECK(memcmp(hr.ata.attrs, h.ata.attrs, sizeof(h.ata.attrs)) == 0);
	CHECK_EQ_U64(rep.n_errors, 0);
	CHECK_EQ_U64(rep.n_unsupported, 0); /* every command was recorded */
	/* the IDENTIFY the reader sent is byte for byte the capture's CDB
	 * (README: 85 08 0e 00 00 00 01 00 00 00 00 00 00 00 ec 00) */
	static const uint8_t cap_identify[16] = { 0x85, 0x08, 0x0e, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xec, 0 };
	CHECK(ww_fake_sent(&f) >= 2 && memcmp(f.cdbs[1], cap_identify, 16) == 0);
	ww_fake_close(&f);

	free(id);
	free(id2);
	free(sd);
	free(th);
	free(log);
	return ww_test_done("test_decode_ata_vm");
}
