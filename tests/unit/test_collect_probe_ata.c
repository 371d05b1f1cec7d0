/* ww_scsi_probe_ata: is an SG device an ATA drive behind a SATL?
 * Real bytes: scsi_debug in the test VM, as recorded by `wearwatch capture`
 * (tests/fixtures/captures/sas) and as sg_inq wrote them
 * (tests/fixtures/vm/sas/, see its README; the capture's INQUIRY and VPD 0x00
 * answers are the same bytes). scsi_debug lists VPD 0x89, yet it is not an
 * ATA drive: its T10 vendor is "Linux". The ATA case is the same bytes with
 * the vendor field set to "ATA     ", as libata's SATL reports it
 * (drivers/ata/libata-scsi.c fills the vendor with "ATA"), answered by the
 * replay-backed fake device (ww_fake_device.h). */
#include "ww_test.h"
#include "ww_fake_device.h"

#include "wearwatch/collect.h"

static unsigned char inq[256], vpd0[256];
static size_t inq_len, vpd0_len;

static int load(const char *dir, const char *rel, unsigned char *out, size_t *len)
{
	size_t n;
	unsigned char *b = ww_read_file(dir, rel, &n);

	if (!b || n > 256) {
		free(b);
		return -1;
	}
	memcpy(out, b, n);
	*len = n;
	free(b);
	return 0;
}

/* Probe a drive answering the probe's two INQUIRYs (standard, 36 bytes; VPD
 * 0x00, 252 bytes) with inq[] and vpd0[]. Returns the commands sent. */
static size_t probe_bytes(bool *is_ata)
{
	static const uint8_t std36[6] = { 0x12, 0, 0, 0, 36, 0 };
	static const uint8_t vpd00[6] = { 0x12, 1, 0x00, 0, 0xfc, 0 };
	char req[64];
	ww_fake_t f;
	ww_cap_t c;
	size_t n;

	ww_cap_open(&c);
	ww_cap_ok(&c, ww_req_scsi(req, sizeof(req), std36, 6, 36), inq, 36);
	ww_cap_ok(&c, ww_req_scsi(req, sizeof(req), vpd00, 6, 252), vpd0, vpd0_len);
	CHECK(ww_fake_open_cap(&f, &c) == 0);
	ww_cap_free(&c);
	CHECK_EQ_I64(ww_scsi_probe_ata(&f.x, is_ata), 0);
	n = ww_fake_sent(&f);
	ww_fake_close(&f);
	return n;
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char dir[4096], cap[4200];
	bool is_ata = true;
	ww_fake_t f;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/vm/sas", src ? src : ".");
	if (load(dir, "inquiry.bin", inq, &inq_len) || load(dir, "vpd-00.bin", vpd0, &vpd0_len)) {
		printf("test_collect_probe_ata: cannot read VM captures in %s\n", dir);
		return 1;
	}
	/* the capture really lists 0x89 */
	CHECK(memchr(vpd0 + 4, 0x89, vpd0_len - 4) != NULL);
	CHECK(memcmp(inq + 8, "Linux   ", 8) == 0);

	/* scsi_debug's own recorded answers */
	snprintf(cap, sizeof(cap), "%s/tests/fixtures/captures/sas/wwn-0x33333330000036b0.capture",
		 src ? src : ".");
	CHECK(ww_fake_open_file(&f, cap) == 0);
	CHECK_EQ_I64(ww_scsi_probe_ata(&f.x, &is_ata), 0);
	CHECK(!is_ata);
	CHECK_EQ_I64(ww_fake_sent(&f), 1); /* stopped after the standard INQUIRY */
	ww_fake_close(&f);

	memcpy(inq + 8, "ATA     ", 8);
	CHECK_EQ_I64(probe_bytes(&is_ata), 2);
	CHECK(is_ata);

	/* vendor ATA but no page 0x89 listed: not taken for ATA */
	for (size_t i = 4; i < vpd0_len; i++)
		if (vpd0[i] == 0x89)
			vpd0[i] = 0x88;
	probe_bytes(&is_ata);
	CHECK(!is_ata);
	return ww_test_done("test_collect_probe_ata");
}
