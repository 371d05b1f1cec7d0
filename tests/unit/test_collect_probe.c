/* ww_scsi_probe_ata: is an SG device an ATA drive behind a SATL?
 * Real bytes: INQUIRY and VPD 0x00 captured from scsi_debug in the test VM
 * (tests/fixtures/vm/sas/, see its README). scsi_debug lists VPD 0x89, yet it
 * is not an ATA drive: its T10 vendor is "Linux". The ATA case is the same
 * bytes with the vendor field set to "ATA     ", as libata's SATL reports it
 * (drivers/ata/libata-scsi.c fills the vendor with "ATA"). */
#include "ww_test.h"

#include "wearwatch/collect.h"

static unsigned char inq[256], vpd0[256];
static size_t inq_len, vpd0_len;
static int n_sent;

static int fake_scsi_in(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len, uint8_t *buf,
			size_t len, int timeout_s, ww_cmd_status_t *st)
{
	const unsigned char *src = NULL;
	size_t n = 0;

	memset(st, 0, sizeof(*st));
	n_sent++;
	if (cdb[0] != 0x12) { /* only INQUIRY may be sent by the probe */
		st->result = WW_CMD_UNSUPPORTED;
		return 0;
	}
	if (!(cdb[1] & 1)) {
		src = inq;
		n = inq_len;
	} else if (cdb[2] == 0x00) {
		src = vpd0;
		n = vpd0_len;
	} else {
		st->result = WW_CMD_UNSUPPORTED;
		return 0;
	}
	if (n > len)
		n = len;
	memcpy(buf, src, n);
	st->data_len = n;
	st->result = WW_CMD_OK;
	return 0;
}

static const ww_xport_ops_t fake_ops = { .scsi_in = fake_scsi_in };

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

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char dir[4096];
	ww_xport_t x = { .ops = &fake_ops, .fd = -1 };
	bool is_ata = true;

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/vm/sas", src ? src : ".");
	if (load(dir, "inquiry.bin", inq, &inq_len) || load(dir, "vpd-00.bin", vpd0, &vpd0_len)) {
		printf("test_collect_probe: cannot read VM captures in %s\n", dir);
		return 1;
	}
	/* the capture really lists 0x89 */
	CHECK(memchr(vpd0 + 4, 0x89, vpd0_len - 4) != NULL);
	CHECK(memcmp(inq + 8, "Linux   ", 8) == 0);

	CHECK_EQ_I64(ww_scsi_probe_ata(&x, &is_ata), 0);
	CHECK(!is_ata);
	CHECK_EQ_I64(n_sent, 1); /* stopped after the standard INQUIRY */

	memcpy(inq + 8, "ATA     ", 8);
	n_sent = 0;
	CHECK_EQ_I64(ww_scsi_probe_ata(&x, &is_ata), 0);
	CHECK(is_ata);
	CHECK_EQ_I64(n_sent, 2);

	/* vendor ATA but no page 0x89 listed: not taken for ATA */
	for (size_t i = 4; i < vpd0_len; i++)
		if (vpd0[i] == 0x89)
			vpd0[i] = 0x88;
	CHECK_EQ_I64(ww_scsi_probe_ata(&x, &is_ata), 0);
	CHECK(!is_ata);
	return ww_test_done("test_collect_probe");
}
