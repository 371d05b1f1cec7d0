/* SG_IO transport (src/transport/sg.c): sense parsing and classification
 * (fixed and descriptor formats, built from the SPC-5 sense / SAT-4 layouts)
 * and the live transport's open/guard paths (on /dev/null and a missing
 * node; no drive is opened). No shared fixtures needed: always runs. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wearwatch/transport.h"
#include "ww_test.h"

static ww_cmd_status_t classify(const ww_sg_outcome_t *o, const uint8_t *sense, size_t n)
{
	ww_cmd_status_t st;

	memset(&st, 0, sizeof(st));
	if (n) /* no sense: the callers pass NULL, and memcpy may not get NULL */
		memcpy(st.sense, sense, n);
	st.sense_len = n;
	ww_sg_classify(o, &st);
	return st;
}

static void test_sense(void)
{
	ww_sg_outcome_t cc = { .scsi_status = 0x02 };
	ww_cmd_status_t st;
	uint8_t k, a, q;
	int ata;

	/* fixed format, ILLEGAL REQUEST / INVALID COMMAND OPERATION CODE */
	uint8_t f_ir20[18] = { 0x70, 0, 0x05, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x20, 0x00 };
	st = classify(&cc, f_ir20, sizeof(f_ir20));
	CHECK_EQ_I64(st.result, WW_CMD_UNSUPPORTED);
	CHECK_EQ_U64(st.sense_key, 5);
	CHECK_EQ_U64(st.asc, 0x20);
	/* descriptor format, INVALID FIELD IN CDB */
	uint8_t d_ir24[8] = { 0x72, 0x05, 0x24, 0x00, 0, 0, 0, 0 };
	st = classify(&cc, d_ir24, sizeof(d_ir24));
	CHECK_EQ_I64(st.result, WW_CMD_UNSUPPORTED);
	CHECK_EQ_U64(st.asc, 0x24);
	/* ILLEGAL REQUEST, LBA out of range: a device error, not a capability */
	uint8_t d_ir21[8] = { 0x72, 0x05, 0x21, 0x00 };
	CHECK_EQ_I64(classify(&cc, d_ir21, sizeof(d_ir21)).result, WW_CMD_DEVICE_ERROR);
	/* SAT: RECOVERED ERROR 00/1D with an ATA Status Return descriptor, status 50h */
	uint8_t d_ata[22] = { 0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 14,
			      0x09, 0x0c, 0x00, 0x00, 0, 0x01, 0, 0, 0, 0x4f, 0, 0xc2, 0x40, 0x50 };
	st = classify(&cc, d_ata, sizeof(d_ata));
	CHECK_EQ_I64(st.result, WW_CMD_RECOVERED);
	CHECK_EQ_U64(st.sense_len, sizeof(d_ata)); /* kept whole for sat.c */
	CHECK(memcmp(st.sense, d_ata, sizeof(d_ata)) == 0);
	CHECK_EQ_U64(st.ascq, 0x1d);
	CHECK_EQ_I64(ww_sg_parse_sense(d_ata, sizeof(d_ata), &k, &a, &q, &ata), 0);
	CHECK_EQ_I64(ata, 0x50);
	/* same descriptor under NO SENSE and GOOD status (some SATLs) */
	d_ata[1] = 0x00;
	CHECK_EQ_I64(classify(&cc, d_ata, sizeof(d_ata)).result, WW_CMD_RECOVERED);
	ww_sg_outcome_t good = { 0 };
	CHECK_EQ_I64(classify(&good, d_ata, sizeof(d_ata)).result, WW_CMD_RECOVERED);
	/* ATA status with ERR set (51h) under ABORTED COMMAND: device error */
	d_ata[1] = 0x0b;
	d_ata[21] = 0x51;
	st = classify(&cc, d_ata, sizeof(d_ata));
	CHECK_EQ_I64(st.result, WW_CMD_DEVICE_ERROR);
	CHECK_EQ_U64(st.sense_key, 0x0b);
	/* fixed format SAT: key 1, ASC/ASCQ 00/1D, ATA STATUS in INFORMATION byte 1 */
	uint8_t f_ata[18] = { 0x70, 0, 0x01, 0x00, 0x50, 0x40, 0x01, 10,
			      0, 0, 0, 0, 0x00, 0x1d };
	st = classify(&cc, f_ata, sizeof(f_ata));
	CHECK_EQ_I64(st.result, WW_CMD_RECOVERED);
	CHECK_EQ_U64(st.sense_key, 1);
	CHECK_EQ_U64(st.ascq, 0x1d);
	CHECK_EQ_I64(ww_sg_parse_sense(f_ata, sizeof(f_ata), &k, &a, &q, &ata), 0);
	CHECK_EQ_I64(ata, 0x50);
	/* MEDIUM ERROR unrecovered read error */
	uint8_t f_me[18] = { 0xf0, 0, 0x03, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x11, 0x00 };
	st = classify(&cc, f_me, sizeof(f_me));
	CHECK_EQ_I64(st.result, WW_CMD_DEVICE_ERROR);
	CHECK_EQ_U64(st.asc, 0x11);
	/* CHECK CONDITION without sense; BUSY */
	CHECK_EQ_I64(classify(&cc, NULL, 0).result, WW_CMD_DEVICE_ERROR);
	ww_sg_outcome_t busy = { .scsi_status = 0x08 };
	CHECK_EQ_I64(classify(&busy, NULL, 0).result, WW_CMD_DEVICE_ERROR);
	CHECK_EQ_I64(classify(&good, NULL, 0).result, WW_CMD_OK);
	/* OS, timeout and transport outcomes come before sense */
	ww_sg_outcome_t os = { .os_err = ENODEV };
	st = classify(&os, f_ir20, sizeof(f_ir20));
	CHECK_EQ_I64(st.result, WW_CMD_OS_ERROR);
	CHECK_EQ_I64(st.os_errno, ENODEV);
	os.os_err = EACCES;
	CHECK_EQ_I64(classify(&os, NULL, 0).os_errno, EACCES);
	os.os_err = ENOTTY;
	CHECK_EQ_I64(classify(&os, NULL, 0).result, WW_CMD_UNSUPPORTED);
	ww_sg_outcome_t to = { .timed_out = true };
	CHECK_EQ_I64(classify(&to, NULL, 0).result, WW_CMD_TIMEOUT);
	ww_sg_outcome_t did_to = { .host_status = 0x03 };
	CHECK_EQ_I64(classify(&did_to, NULL, 0).result, WW_CMD_TIMEOUT);
	ww_sg_outcome_t nc = { .host_status = 0x01 }; /* DID_NO_CONNECT */
	CHECK_EQ_I64(classify(&nc, NULL, 0).result, WW_CMD_TRANSPORT_ERROR);
	ww_sg_outcome_t drv = { .driver_error = true, .scsi_status = 0 };
	CHECK_EQ_I64(classify(&drv, NULL, 0).result, WW_CMD_TRANSPORT_ERROR);

	/* parser bounds */
	CHECK_EQ_I64(ww_sg_parse_sense(f_ir20, 2, &k, &a, &q, &ata), -EMSGSIZE);
	CHECK_EQ_I64(ww_sg_parse_sense(d_ir24, 3, &k, &a, &q, &ata), -EMSGSIZE);
	uint8_t junk[4] = { 0x12, 0x34, 0x56, 0x78 };
	CHECK_EQ_I64(ww_sg_parse_sense(junk, 4, &k, &a, &q, &ata), -EINVAL);
	/* descriptor whose additional length overruns the buffer: no ATA status */
	uint8_t d_short[12] = { 0x72, 0x01, 0x00, 0x1d, 0, 0, 0, 14, 0x09, 0x0c, 0, 0 };
	CHECK_EQ_I64(ww_sg_parse_sense(d_short, sizeof(d_short), &k, &a, &q, &ata), 0);
	CHECK_EQ_I64(ata, -1);
	CHECK_EQ_U64(k, 1);
	/* fixed format cut before ASC: key only */
	CHECK_EQ_I64(ww_sg_parse_sense(f_me, 8, &k, &a, &q, &ata), 0);
	CHECK_EQ_U64(k, 3);
	CHECK_EQ_U64(a, 0);
}

static void test_open(void)
{
	ww_xport_t x;
	ww_cmd_status_t st;
	uint8_t buf[96];
	int rc;

	CHECK_EQ_I64(ww_xport_open_sg("/nonexistent/sg9", &x), -ENOENT);
	CHECK_EQ_I64(x.fd, -1);
	ww_xport_close(&x);
	/* /dev/null opens; the read-only guard refuses LOG SENSE with SP=1 and
	 * any write before an ioctl is tried; an allowed command reaches the
	 * ioctl, which /dev/null does not implement */
	rc = ww_xport_open_sg("/dev/null", &x);
	if (rc < 0) {
		printf("SKIP part: cannot open /dev/null through sg_pt (%d)\n", rc);
		return;
	}
	uint8_t ls_sp[10] = { 0x4d, 0x01, 0x4d, 0, 0, 0, 0, 0, 96, 0 };
	CHECK_EQ_I64(x.ops->scsi_in(&x, ls_sp, 10, buf, sizeof(buf), 5, &st), -EPERM);
	uint8_t wr10[10] = { 0x2a };
	CHECK_EQ_I64(x.ops->scsi_in(&x, wr10, 10, buf, sizeof(buf), 5, &st), -EPERM);
	uint8_t sa_other[16] = { 0x9e, 0x12 };
	CHECK_EQ_I64(x.ops->scsi_in(&x, sa_other, 16, buf, sizeof(buf), 5, &st), -EPERM);
	/* ATA PASS-THROUGH whoever built it: only ww_sat_read_allowed()'s
	 * commands, at exactly 16 or 12 bytes, non-data or PIO data-in (SAT-4
	 * 12.2.2 field offsets) */
	uint8_t pt[16];
	CHECK_EQ_I64(ww_sat_build_cdb(pt, WW_ATA_IDENTIFY, 0, 1, 0, false, false), 0);
	CHECK_EQ_I64(x.ops->scsi_in(&x, pt, 16, buf, sizeof(buf), 5, &st), 0);
	CHECK_EQ_I64(x.ops->scsi_in(&x, pt, 15, buf, sizeof(buf), 5, &st), -EPERM);
	pt[14] = 0xe0; /* STANDBY IMMEDIATE */
	CHECK_EQ_I64(x.ops->scsi_in(&x, pt, 16, buf, sizeof(buf), 5, &st), -EPERM);
	pt[14] = 0xb4; /* SANITIZE DEVICE */
	CHECK_EQ_I64(x.ops->scsi_in(&x, pt, 16, buf, sizeof(buf), 5, &st), -EPERM);
	CHECK_EQ_I64(ww_sat_build_cdb(pt, WW_ATA_SMART, WW_SMART_READ_LOG, 1, 0x06 | 0xc24f00,
				      false, false),
		     0);
	pt[1] = 5 << 1; /* the same SMART READ LOG as PIO data-out */
	CHECK_EQ_I64(x.ops->scsi_in(&x, pt, 16, buf, sizeof(buf), 5, &st), -EPERM);
	uint8_t pt12[12] = {
		0xa1, 3 << 1, 0, 0xd4, 0, 0x4f, 0xc2, 0, 0, 0xb0
	}; /* SMART EXECUTE OFF-LINE */
	CHECK_EQ_I64(x.ops->scsi_in(&x, pt12, 12, buf, sizeof(buf), 5, &st), -EPERM);
	CHECK_EQ_I64(x.ops->scsi_in(&x, pt12, 10, buf, sizeof(buf), 5, &st), -EPERM);
	pt12[3] = 0xd6; /* SMART WRITE LOG, one byte short */
	CHECK_EQ_I64(x.ops->scsi_in(&x, pt12, 11, buf, sizeof(buf), 5, &st), -EPERM);
	pt12[3] = 0xd0; /* SMART READ DATA as ATA PASS-THROUGH(12), PIO data-in */
	pt12[1] = 4 << 1;
	CHECK_EQ_I64(x.ops->scsi_in(&x, pt12, 12, buf, sizeof(buf), 5, &st), 0);
	uint8_t inq[6] = { 0x12, 0, 0, 0, 96, 0 };
	CHECK_EQ_I64(x.ops->scsi_in(&x, inq, 6, buf, sizeof(buf), 5, &st), 0);
	printf("INQUIRY on /dev/null: %s errno %d\n", ww_cmd_result_name(st.result), st.os_errno);
	CHECK(st.result == WW_CMD_UNSUPPORTED || st.result == WW_CMD_OS_ERROR);
	CHECK(st.os_errno != 0);
	CHECK_EQ_U64(st.data_len, 0);
	/* the self-test class: not on an unarmed transport, nor through the
	 * reads' op; armed, only its own allow-list reaches the ioctl */
	uint8_t diag_short[6] = { 0x1d, 0x20, 0, 0, 0, 0 }, diag_fg[6] = { 0x1d, 0xa0 },
		diag_default[6] = { 0x1d, 0x04 }, diag_abort[6] = { 0x1d, 0x80 };
	uint8_t sat_short[16] = { 0x85, 0x06, 0x20, 0, 0xd4, 0, 0,    0,
				  0x01, 0,    0x4f, 0, 0xc2, 0, 0xb0, 0 };
	uint8_t sat_captive[16] = { 0x85, 0x06, 0x20, 0, 0xd4, 0, 0,    0,
				    0x81, 0,    0x4f, 0, 0xc2, 0, 0xb0, 0 };
	CHECK(x.ops->self_test != NULL);
	CHECK_EQ_I64(x.ops->self_test(&x, diag_short, 6, &st), -EPERM);
	CHECK_EQ_I64(x.ops->scsi_in(&x, diag_short, 6, NULL, 0, 5, &st), -EPERM);
	CHECK_EQ_I64(x.ops->scsi_in(&x, sat_short, 16, NULL, 0, 5, &st), -EPERM);
	ww_xport_arm_self_test(&x);
	CHECK_EQ_I64(x.ops->self_test(&x, diag_fg, 6, &st), -EPERM);
	CHECK_EQ_I64(x.ops->self_test(&x, diag_default, 6, &st), -EPERM);
	CHECK_EQ_I64(x.ops->self_test(&x, diag_abort, 6, &st), -EPERM);
	CHECK_EQ_I64(x.ops->self_test(&x, sat_captive, 16, &st), -EPERM);
	CHECK_EQ_I64(x.ops->self_test(&x, inq, 6, &st), -EPERM);
	CHECK_EQ_I64(x.ops->self_test(&x, diag_short, 6, &st), 0);
	CHECK(st.result == WW_CMD_UNSUPPORTED || st.result == WW_CMD_OS_ERROR);
	CHECK_EQ_I64(x.ops->self_test(&x, sat_short, 16, &st), 0);
	CHECK(st.result == WW_CMD_UNSUPPORTED || st.result == WW_CMD_OS_ERROR);
	/* its one data-out command: SMART WRITE LOG of log 09h, 512 bytes,
	 * only through self_test_out; another log, length or the non-data op
	 * are refused */
	uint8_t wlog[16] = {
		0x85, 0x0a, 0x06, 0, 0xd6, 0, 1, 0, 0x09, 0, 0x4f, 0, 0xc2, 0, 0xb0, 0
	};
	uint8_t wlog6[16], sel_sub[16], sector[512] = { 0 };
	memcpy(wlog6, wlog, 16);
	wlog6[8] = 0x06;
	memcpy(sel_sub, sat_short, 16);
	sel_sub[8] = 0x04;
	CHECK(x.ops->self_test_out != NULL);
	CHECK_EQ_I64(x.ops->self_test(&x, wlog, 16, &st), -EPERM);
	CHECK_EQ_I64(x.ops->scsi_in(&x, wlog, 16, sector, 512, 5, &st), -EPERM);
	CHECK_EQ_I64(x.ops->self_test_out(&x, wlog6, 16, sector, 512, &st), -EPERM);
	CHECK_EQ_I64(x.ops->self_test_out(&x, wlog, 16, sector, 1024, &st), -EPERM);
	CHECK_EQ_I64(x.ops->self_test_out(&x, sat_short, 16, sector, 512, &st), -EPERM);
	CHECK_EQ_I64(x.ops->self_test_out(&x, wlog, 16, sector, 512, &st), 0);
	CHECK(st.result == WW_CMD_UNSUPPORTED || st.result == WW_CMD_OS_ERROR);
	CHECK_EQ_I64(x.ops->self_test(&x, sel_sub, 16, &st), 0);
	x.self_test_armed = false;
	CHECK_EQ_I64(x.ops->self_test_out(&x, wlog, 16, sector, 512, &st), -EPERM);
	ww_xport_close(&x);
	CHECK_EQ_I64(x.fd, -1);
}

int main(void)
{
	test_sense();
	test_open();
	return ww_test_done("test_transport_sg");
}
