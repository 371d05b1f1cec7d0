/* SAT ATA PASS-THROUGH(16) read-only command layer (see sat.h). */
#include <errno.h>
#include <string.h>

#include "wearwatch/transport.h"

#define WW_SAT_TIMEOUT_S 20

#define WW_ATA_STATUS_ERR 0x01
#define WW_ATA_ERROR_ABRT 0x04

#define WW_SMART_LBA_PASSED 0xc24f00u   /* LBA mid 4Fh, high C2h */

int ww_sat_parse_sense(const uint8_t *s, size_t len, ww_ata_regs_t *r)
{
	uint8_t code;

	if (!s || !r)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	if (len < 1)
		return -ENOENT;
	code = s[0] & 0x7f;

	if (code == 0x72 || code == 0x73) {
		size_t end, off = 8;

		if (len < 8)
			return -EMSGSIZE;
		end = 8 + (size_t)s[7];
		if (end > len)
			end = len;
		while (off + 2 <= end) {
			const uint8_t *d = s + off;
			size_t dlen = 2 + (size_t)d[1];

			if (d[0] == 0x09) {
				if (d[1] < 0x0c || off + 14 > end)
					return -EMSGSIZE;
				r->extend = d[2] & 1;
				r->error = d[3];
				r->count = (uint16_t)(d[4] << 8 | d[5]);
				r->lba = (uint64_t)d[7] | (uint64_t)d[9] << 8 |
					 (uint64_t)d[11] << 16 | (uint64_t)d[6] << 24 |
					 (uint64_t)d[8] << 32 | (uint64_t)d[10] << 40;
				if (!r->extend) {
					/* only the 28-bit registers are defined */
					r->count &= 0xff;
					r->lba &= 0xffffff;
				}
				r->device = d[12];
				r->status = d[13];
				return 0;
			}
			off += dlen;
		}
		return -ENOENT;
	}

	if (code == 0x70 || code == 0x71) {
		uint8_t key;

		if (len < 14)
			return -EMSGSIZE;
		key = s[2] & 0x0f;
		if (!(s[12] == 0x00 && s[13] == 0x1d) && key != 0x0b)
			return -ENOENT;
		r->fixed_format = true;
		r->error = s[3];
		r->status = s[4];
		r->device = s[5];
		r->count = s[6];
		r->extend = s[8] & 0x80;
		r->count_upper_nonzero = s[8] & 0x40;
		r->lba_upper_nonzero = s[8] & 0x20;
		r->lba = (uint64_t)s[9] | (uint64_t)s[10] << 8 | (uint64_t)s[11] << 16;
		return 0;
	}
	return -ENOENT;
}

static bool ww_sat_nondata(uint8_t command, uint8_t feature)
{
	return command == WW_ATA_CHECK_POWER_MODE ||
	       (command == WW_ATA_SMART && feature == WW_SMART_RETURN_STATUS);
}

bool ww_sat_read_allowed(uint8_t command, uint8_t feature)
{
	switch (command) {
	case WW_ATA_CHECK_POWER_MODE:
	case WW_ATA_IDENTIFY:
	case WW_ATA_READ_LOG_EXT:
		return feature == 0;
	case WW_ATA_SMART:
		return feature == WW_SMART_READ_DATA || feature == WW_SMART_READ_THRESHOLDS ||
			feature == WW_SMART_READ_LOG || feature == WW_SMART_RETURN_STATUS;
	default:
		return false;
	}
}

int ww_sat_build_cdb(uint8_t cdb[WW_SAT_CDB_LEN], uint8_t command, uint8_t feature, uint16_t count,
		     uint64_t lba, bool extend, bool ck_cond)
{
	if (!cdb)
		return -EINVAL;
	if (!ww_sat_read_allowed(command, feature))
		return -EPERM;

	memset(cdb, 0, WW_SAT_CDB_LEN);
	cdb[0] = WW_SAT_OPCODE;
	if (ww_sat_nondata(command, feature)) {
		cdb[1] = 3 << 1;
		cdb[2] = 0;
	} else {
		cdb[1] = 4 << 1;
		cdb[2] = 0x08 | 0x04 | 0x02; /* T_DIR in, blocks, length in COUNT */
	}
	if (extend)
		cdb[1] |= 1;
	if (ck_cond)
		cdb[2] |= 0x20;
	cdb[4] = feature;
	cdb[5] = (uint8_t)(count >> 8);
	cdb[6] = (uint8_t)count;
	cdb[7] = (uint8_t)(lba >> 24);
	cdb[8] = (uint8_t)lba;
	cdb[9] = (uint8_t)(lba >> 32);
	cdb[10] = (uint8_t)(lba >> 8);
	cdb[11] = (uint8_t)(lba >> 40);
	cdb[12] = (uint8_t)(lba >> 16);
	cdb[13] = 0; /* DEVICE */
	cdb[14] = command;
	return 0;
}

/* how a CDB goes: a read (scsi_in), or the self-test class, non-data
 * (self_test) or data-out (self_test_out) */
enum sat_path {
	SAT_READ,
	SAT_SELF_TEST,
	SAT_SELF_TEST_OUT
};

/* Send one CDB and fold the SCSI outcome and the ATA registers into one
 * verdict (see sat.h for the return values). out: the data-out bytes of
 * SAT_SELF_TEST_OUT (len of them). */
static int ww_sat_send(ww_xport_t *x, const uint8_t *cdb, uint8_t *buf, const uint8_t *out,
		       size_t len, ww_cmd_status_t *st, ww_ata_regs_t *regs, bool *have_regs,
		       enum sat_path path)
{
	int rc;

	memset(st, 0, sizeof(*st));
	memset(regs, 0, sizeof(*regs));
	*have_regs = false;
	if (!x || !x->ops || (path == SAT_SELF_TEST && !x->ops->self_test) ||
	    (path == SAT_SELF_TEST_OUT && !x->ops->self_test_out) ||
	    (path == SAT_READ && !x->ops->scsi_in))
		return -ENODEV;
	if (path == SAT_SELF_TEST)
		rc = x->ops->self_test(x, cdb, WW_SAT_CDB_LEN, st);
	else if (path == SAT_SELF_TEST_OUT)
		rc = x->ops->self_test_out(x, cdb, WW_SAT_CDB_LEN, out, len, st);
	else
		rc = x->ops->scsi_in(x, cdb, WW_SAT_CDB_LEN, buf, len, WW_SAT_TIMEOUT_S, st);
	if (rc < 0)
		return rc;
	if (st->sense_len)
		*have_regs = ww_sat_parse_sense(st->sense,
						st->sense_len < sizeof(st->sense) ?
							st->sense_len : sizeof(st->sense),
						regs) == 0;

	/* the drive aborted the command: it does not do this one */
	if (*have_regs && (regs->status & WW_ATA_STATUS_ERR) &&
	    (regs->error & WW_ATA_ERROR_ABRT)) {
		st->result = WW_CMD_UNSUPPORTED;
		return -ENOTSUP;
	}
	if (st->result == WW_CMD_UNSUPPORTED)
		return -ENOTSUP;
	if (*have_regs && (regs->status & WW_ATA_STATUS_ERR)) {
		if (st->result == WW_CMD_OK || st->result == WW_CMD_RECOVERED)
			st->result = WW_CMD_DEVICE_ERROR;
		return -EIO;
	}
	/* CK_COND answers arrive as CHECK CONDITION / RECOVERED ERROR 00h/1Dh;
	 * accept them even if the backend called that a device error */
	if (st->result == WW_CMD_DEVICE_ERROR && *have_regs && st->sense_key == 0x01) {
		st->result = WW_CMD_RECOVERED;
		return 0;
	}
	if (st->result != WW_CMD_OK && st->result != WW_CMD_RECOVERED)
		return -EIO;
	if (path == SAT_READ && len && st->data_len < len)
		return -EMSGSIZE;
	return 0;
}

static int ww_sat_simple(ww_xport_t *x, uint8_t command, uint8_t feature,
			 uint16_t count, uint64_t lba, bool extend, bool ck_cond,
			 uint8_t *buf, size_t len, ww_cmd_status_t *st,
			 ww_ata_regs_t *regs, bool *have_regs)
{
	uint8_t cdb[WW_SAT_CDB_LEN];
	int rc = ww_sat_build_cdb(cdb, command, feature, count, lba, extend, ck_cond);

	if (rc < 0)
		return rc;
	return ww_sat_send(x, cdb, buf, NULL, len, st, regs, have_regs, SAT_READ);
}

/* The self-test class, apart from the reads' builder above: its own
 * allow-list of subcommands (layers_safety_doc holds it to the table in
 * docs/architecture.md) */
int ww_sat_build_selftest_cdb(uint8_t cdb[WW_SAT_CDB_LEN], uint8_t subcommand)
{
	if (!cdb)
		return -EINVAL;
	switch (subcommand) {
	case WW_ATA_ST_OFFLINE: /* SMART EXECUTE OFF-LINE IMMEDIATE 00h off-line data collection */
	case WW_ATA_ST_SHORT: /* SMART EXECUTE OFF-LINE IMMEDIATE 01h short self-test, off-line mode */
	case WW_ATA_ST_EXTENDED: /* SMART EXECUTE OFF-LINE IMMEDIATE 02h extended self-test, off-line mode */
	case WW_ATA_ST_CONVEYANCE: /* SMART EXECUTE OFF-LINE IMMEDIATE 03h conveyance self-test, off-line mode */
	case WW_ATA_ST_SELECTIVE: /* SMART EXECUTE OFF-LINE IMMEDIATE 04h selective self-test, off-line mode */
		break;
	default:
		return -EPERM;
	}
	memset(cdb, 0, WW_SAT_CDB_LEN);
	cdb[0] = WW_SAT_OPCODE;
	cdb[1] = 3 << 1; /* non-data */
	cdb[2] = 0x20;   /* CK_COND: the registers back */
	cdb[4] = WW_SMART_EXECUTE_OFFLINE;
	cdb[8] = subcommand; /* LBA 7:0 */
	cdb[10] = 0x4f;      /* LBA 15:8 */
	cdb[12] = 0xc2;      /* LBA 23:16 */
	cdb[14] = WW_ATA_SMART;
	return 0;
}

int ww_sat_start_self_test(ww_xport_t *x, uint8_t subcommand, ww_cmd_status_t *st)
{
	uint8_t cdb[WW_SAT_CDB_LEN];
	ww_ata_regs_t regs;
	bool have;
	int rc;

	if (!st)
		return -EINVAL;
	rc = ww_sat_build_selftest_cdb(cdb, subcommand);
	if (rc < 0)
		return rc;
	return ww_sat_send(x, cdb, NULL, NULL, 0, st, &regs, &have, SAT_SELF_TEST);
}

/* The self-test class's one write: the span list a selective self-test
 * (subcommand 04h) reads, and nothing else */
int ww_sat_build_selftest_log_cdb(uint8_t cdb[WW_SAT_CDB_LEN], uint8_t log)
{
	if (!cdb)
		return -EINVAL;
	switch (log) {
	case WW_ATA_LOG_SELECTIVE: /* SMART WRITE LOG 09h Selective self-test log, one sector */
		break;
	default:
		return -EPERM;
	}
	memset(cdb, 0, WW_SAT_CDB_LEN);
	cdb[0] = WW_SAT_OPCODE;
	cdb[1] = 5 << 1;      /* PIO data-out */
	cdb[2] = 0x04 | 0x02; /* T_DIR out, blocks, length in COUNT */
	cdb[4] = WW_SMART_WRITE_LOG;
	cdb[6] = 1;     /* COUNT: one sector */
	cdb[8] = log;   /* LBA 7:0 */
	cdb[10] = 0x4f; /* LBA 15:8 */
	cdb[12] = 0xc2; /* LBA 23:16 */
	cdb[14] = WW_ATA_SMART;
	return 0;
}

int ww_sat_write_selective_log(ww_xport_t *x, const uint8_t buf[512], ww_cmd_status_t *st)
{
	uint8_t cdb[WW_SAT_CDB_LEN];
	ww_ata_regs_t regs;
	bool have;
	int rc;

	if (!buf || !st)
		return -EINVAL;
	rc = ww_sat_build_selftest_log_cdb(cdb, WW_ATA_LOG_SELECTIVE);
	if (rc < 0)
		return rc;
	return ww_sat_send(x, cdb, NULL, buf, 512, st, &regs, &have, SAT_SELF_TEST_OUT);
}

int ww_sat_check_power_mode(ww_xport_t *x, uint8_t *mode, ww_cmd_status_t *st)
{
	ww_ata_regs_t regs;
	bool have;
	int rc;

	if (!mode || !st)
		return -EINVAL;
	rc = ww_sat_simple(x, WW_ATA_CHECK_POWER_MODE, 0, 0, 0, false, true, NULL, 0,
			   st, &regs, &have);
	if (rc < 0)
		return rc;
	if (!have)
		return -ENODATA;
	*mode = (uint8_t)regs.count;
	return 0;
}

bool ww_sat_power_mode_is_standby(uint8_t mode)
{
	return mode == WW_ATA_PM_STANDBY || mode == WW_ATA_PM_STANDBY_Y ||
	       mode == WW_ATA_PM_NV_STANDBY;
}

static int ww_sat_read512(ww_xport_t *x, uint8_t command, uint8_t feature, uint64_t lba,
			  uint8_t *buf, ww_cmd_status_t *st)
{
	ww_ata_regs_t regs;
	bool have;

	if (!buf || !st)
		return -EINVAL;
	return ww_sat_simple(x, command, feature, 1, lba, false, false, buf, 512, st,
			     &regs, &have);
}

int ww_sat_identify(ww_xport_t *x, uint8_t buf[512], ww_cmd_status_t *st)
{
	return ww_sat_read512(x, WW_ATA_IDENTIFY, 0, 0, buf, st);
}

int ww_sat_smart_read_data(ww_xport_t *x, uint8_t buf[512], ww_cmd_status_t *st)
{
	return ww_sat_read512(x, WW_ATA_SMART, WW_SMART_READ_DATA, WW_SMART_LBA_PASSED,
			      buf, st);
}

int ww_sat_smart_read_thresholds(ww_xport_t *x, uint8_t buf[512], ww_cmd_status_t *st)
{
	return ww_sat_read512(x, WW_ATA_SMART, WW_SMART_READ_THRESHOLDS,
			      WW_SMART_LBA_PASSED, buf, st);
}

int ww_sat_smart_read_log(ww_xport_t *x, uint8_t log, uint8_t buf[512], ww_cmd_status_t *st)
{
	return ww_sat_read512(x, WW_ATA_SMART, WW_SMART_READ_LOG, WW_SMART_LBA_PASSED | log,
			      buf, st);
}

int ww_sat_smart_return_status(ww_xport_t *x, ww_ata_regs_t *regs, ww_cmd_status_t *st)
{
	bool have;
	int rc;

	if (!regs || !st)
		return -EINVAL;
	memset(regs, 0, sizeof(*regs));
	rc = ww_sat_simple(x, WW_ATA_SMART, WW_SMART_RETURN_STATUS, 0, WW_SMART_LBA_PASSED,
			   false, true, NULL, 0, st, regs, &have);
	if (rc < 0)
		return rc;
	return have ? 0 : -ENODATA;
}

int ww_sat_read_log_ext(ww_xport_t *x, uint8_t log, uint16_t page, uint16_t pages,
			uint8_t *buf, size_t len, ww_cmd_status_t *st)
{
	ww_ata_regs_t regs;
	bool have;
	uint64_t lba;

	if (!buf || !st || !pages || len < (size_t)pages * 512)
		return -EINVAL;
	/* LBA 7:0 log address, 15:8 page 7:0, 39:32 page 15:8 */
	lba = (uint64_t)log | (uint64_t)(page & 0xff) << 8 | (uint64_t)(page >> 8) << 32;
	return ww_sat_simple(x, WW_ATA_READ_LOG_EXT, 0, pages, lba, true, false, buf,
			     (size_t)pages * 512, st, &regs, &have);
}
