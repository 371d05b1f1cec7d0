/* Live SG_IO transport through libsgutils2's sg_pt layer (see transport.h,
 * sg.h). Every command is data-in or non-data; a CDB allow-list keeps this
 * transport read-only whatever its callers build. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <scsi/sg_pt.h>

#include "wearwatch/transport.h"

#define SAM_GOOD 0x00
#define SAM_CHECK_CONDITION 0x02
#define SAM_CONDITION_MET 0x04
#define SAM_COMMAND_TERMINATED 0x22
#define DID_TIME_OUT 0x03

#define SK_NO_SENSE 0x0
#define SK_RECOVERED_ERROR 0x1
#define SK_ILLEGAL_REQUEST 0x5

int ww_sg_parse_sense(const uint8_t *s, size_t len, uint8_t *key, uint8_t *asc,
		      uint8_t *ascq, int *ata_status)
{
	uint8_t k = 0, a = 0, q = 0;
	int ata = -1;

	*key = *asc = *ascq = 0;
	*ata_status = -1;
	if (!s || len < 1)
		return -EMSGSIZE;
	switch (s[0] & 0x7f) {
	case 0x70:
	case 0x71:
		if (len < 3)
			return -EMSGSIZE;
		k = s[2] & 0xf;
		/* ASC/ASCQ exist when ADDITIONAL SENSE LENGTH reaches them */
		if (len >= 14 && s[7] >= 6) {
			a = s[12];
			q = s[13];
		}
		if (a == 0x00 && q == 0x1d && len >= 5)
			ata = s[4];
		break;
	case 0x72:
	case 0x73: {
		size_t end, off = 8;

		if (len < 4)
			return -EMSGSIZE;
		k = s[1] & 0xf;
		a = s[2];
		q = s[3];
		end = len >= 8 ? 8 + (size_t)s[7] : len;
		if (end > len)
			end = len; /* the sense buffer cut it short: walk what came */
		while (off + 2 <= end) {
			size_t dl = 2 + (size_t)s[off + 1];

			if (off + dl > end)
				break;
			if (s[off] == 0x09 && dl >= 14) {
				ata = s[off + 13];
				break;
			}
			off += dl;
		}
		break;
	}
	default:
		return -EINVAL;
	}
	*key = k;
	*asc = a;
	*ascq = q;
	*ata_status = ata;
	return 0;
}

void ww_sg_classify(const ww_sg_outcome_t *o, ww_cmd_status_t *st)
{
	uint8_t key = 0, asc = 0, ascq = 0;
	int ata = -1;
	bool have_sense = false;

	st->os_errno = 0;
	st->scsi_status = o->scsi_status;
	st->sense_key = st->asc = st->ascq = 0;
	if (st->sense_len > sizeof(st->sense))
		st->sense_len = sizeof(st->sense);
	if (st->sense_len &&
	    ww_sg_parse_sense(st->sense, st->sense_len, &key, &asc, &ascq, &ata) == 0) {
		have_sense = true;
		st->sense_key = key;
		st->asc = asc;
		st->ascq = ascq;
	}

	if (o->os_err) {
		st->os_errno = o->os_err;
		if (o->os_err == ETIMEDOUT)
			st->result = WW_CMD_TIMEOUT;
		else if (o->os_err == ENOTTY || o->os_err == EOPNOTSUPP || o->os_err == ENOSYS)
			st->result = WW_CMD_UNSUPPORTED;
		else
			st->result = WW_CMD_OS_ERROR;
		return;
	}
	if (o->timed_out || o->host_status == DID_TIME_OUT) {
		st->result = WW_CMD_TIMEOUT;
		return;
	}
	if (o->host_status || o->driver_error) {
		st->result = WW_CMD_TRANSPORT_ERROR;
		return;
	}

	switch (o->scsi_status & 0xfe) {
	case SAM_GOOD:
	case SAM_CONDITION_MET:
		/* sense with GOOD status: SATLs returning ATA registers */
		if (have_sense && (ata >= 0 || key == SK_RECOVERED_ERROR))
			st->result = (ata >= 0 && (ata & 0x21)) ? WW_CMD_DEVICE_ERROR
								: WW_CMD_RECOVERED;
		else
			st->result = WW_CMD_OK;
		return;
	case SAM_CHECK_CONDITION:
	case SAM_COMMAND_TERMINATED:
		break;
	default: /* BUSY, RESERVATION CONFLICT, TASK SET FULL, ACA ACTIVE... */
		st->result = WW_CMD_DEVICE_ERROR;
		return;
	}
	if (!have_sense) {
		st->result = WW_CMD_DEVICE_ERROR;
		return;
	}
	if (key == SK_ILLEGAL_REQUEST && (asc == 0x20 || asc == 0x24))
		st->result = WW_CMD_UNSUPPORTED;
	else if (ata >= 0)
		st->result = (ata & 0x21) ? WW_CMD_DEVICE_ERROR : WW_CMD_RECOVERED;
	else if (key == SK_RECOVERED_ERROR || key == SK_NO_SENSE)
		st->result = WW_CMD_RECOVERED;
	else
		st->result = WW_CMD_DEVICE_ERROR;
}

/* An ATA PASS-THROUGH CDB of the read path: protocol 3 (non-data) or 4 (PIO
 * data-in), and an ATA command the read list has, whoever built the CDB
 * (SAT-4 12.2.2: the protocol in bits 4:1 of byte 1; command and feature
 * at bytes 14 and 4 of the 16-byte CDB, 9 and 3 of the 12-byte one). */
static bool sat_read(uint8_t byte1, uint8_t command, uint8_t feature)
{
	unsigned protocol = (byte1 >> 1) & 0x0f;

	return (protocol == 3 || protocol == 4) && ww_sat_read_allowed(command, feature);
}

/* Read-only guard: opcodes that only ever move data from the device. LOG
 * SENSE with SP = 1 would make the device save its parameters: refused. */
static bool cdb_allowed(const uint8_t *cdb, size_t n)
{
	if (!cdb || n < 6 || n > 16)
		return false;
	switch (cdb[0]) {
	case 0x00: /* TEST UNIT READY */
	case 0x03: /* REQUEST SENSE */
	case 0x12: /* INQUIRY */
	case 0x1a: /* MODE SENSE(6) */
	case 0x1c: /* RECEIVE DIAGNOSTIC RESULTS */
	case 0x25: /* READ CAPACITY(10) */
	case 0x37: /* READ DEFECT DATA(10) */
	case 0x5a: /* MODE SENSE(10) */
	case 0xa0: /* REPORT LUNS */
	case 0xb7: /* READ DEFECT DATA(12) */
		return true;
	case 0x85: /* ATA PASS-THROUGH(16): the ATA commands of ww_sat_read_allowed() */
		return n == 16 && sat_read(cdb[1], cdb[14], cdb[4]);
	case 0xa1: /* ATA PASS-THROUGH(12): the same */
		return n == 12 && sat_read(cdb[1], cdb[9], cdb[3]);
	case 0x4d: /* LOG SENSE */
		return n >= 10 && !(cdb[1] & 0x01);
	case 0x9e: /* SERVICE ACTION IN(16): READ CAPACITY(16) only */
		return n >= 16 && (cdb[1] & 0x1f) == 0x10;
	default:
		return false;
	}
}

/* The self-test class (transport.h): commands that start a test in the
 * background, whatever a caller builds, and only on an armed transport:
 * non-data ones (out_len 0), and the one data-out command, the 512 bytes
 * of the Selective self-test log 09h that name a selective test's span
 * (out_len 512). A test runs while the drive keeps serving I/O; nothing
 * here aborts one or runs it in the foreground. */
static bool selftest_cdb_allowed(const uint8_t *cdb, size_t n, size_t out_len)
{
	if (!cdb || n < 6 || n > 16)
		return false;
	switch (cdb[0]) {
	case 0x1d: /* SEND DIAGNOSTIC: SELF-TEST CODE 001b/010b (background short/extended), SELFTEST 0, no parameter list */
		return !out_len && ((cdb[1] >> 5) == 1 || (cdb[1] >> 5) == 2) && !(cdb[1] & 0x1f) &&
			!cdb[3] && !cdb[4];
	case 0x85: /* ATA PASS-THROUGH(16): non-data SMART EXECUTE OFF-LINE IMMEDIATE, subcommands 00h-04h; PIO data-out SMART WRITE LOG of log 09h, one sector (sat.c) */
		if (n != 16 || cdb[14] != 0xb0 || cdb[10] != 0x4f || cdb[12] != 0xc2)
			return false;
		if (!out_len)
			return (cdb[1] >> 1 & 0x0f) == 3 && cdb[4] == 0xd4 && cdb[8] <= 0x04;
		return out_len == 512 && (cdb[1] >> 1 & 0x0f) == 5 && !(cdb[2] & 0x08) &&
			cdb[4] == 0xd6 && cdb[8] == 0x09 && !cdb[5] && cdb[6] == 1;
	default:
		return false;
	}
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* one CDB through sg_pt; the callers below hold it to their allow-list.
 * out: data-out of len bytes instead of data-in into buf */
static int sg_send(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len, uint8_t *buf,
		   const uint8_t *out, size_t len, int timeout_s, ww_cmd_status_t *st)
{
	struct sg_pt_base *pt;
	ww_sg_outcome_t o = { 0 };
	uint64_t t0;
	int rc, resid, cat;

	memset(st, 0, sizeof(*st));
	pt = construct_scsi_pt_obj();
	if (!pt)
		return -ENOMEM;
	set_scsi_pt_cdb(pt, cdb, (int)cdb_len);
	set_scsi_pt_sense(pt, st->sense, (int)sizeof(st->sense));
	if (len && out)
		set_scsi_pt_data_out(pt, out, (int)len);
	else if (len)
		set_scsi_pt_data_in(pt, buf, (int)len);
	t0 = mono_ns();
	rc = do_scsi_pt(pt, x->fd, timeout_s > 0 ? timeout_s : 20, 0);
	st->duration_ns = mono_ns() - t0;

	if (rc < 0) {
		o.os_err = -rc;
	} else if (rc == SCSI_PT_DO_TIMEOUT) {
		o.timed_out = true;
	} else if (rc != 0) {
		/* bad parameters / not supported by the pass-through layer */
		o.os_err = get_scsi_pt_os_err(pt);
		if (!o.os_err)
			o.os_err = rc == SCSI_PT_DO_NOT_SUPPORTED ? EOPNOTSUPP : EINVAL;
	} else {
		cat = get_scsi_pt_result_category(pt);
		o.os_err = cat == SCSI_PT_RESULT_OS_ERR ? get_scsi_pt_os_err(pt) : 0;
		o.host_status = get_scsi_pt_transport_err(pt);
		o.driver_error = cat == SCSI_PT_RESULT_TRANSPORT_ERR && !o.host_status;
		o.scsi_status = (uint8_t)get_scsi_pt_status_response(pt);
		if (cat == SCSI_PT_RESULT_OS_ERR && !o.os_err)
			o.os_err = EIO;
	}
	if (rc == 0) {
		int sl = get_scsi_pt_sense_len(pt);

		st->sense_len = sl > 0 ? (size_t)sl : 0;
		resid = out ? 0 : get_scsi_pt_resid(pt);
		if (resid < 0 || (size_t)resid > len)
			resid = (int)len; /* nonsense residual: trust nothing */
		st->data_len = out ? 0 : len - (size_t)resid;
	}
	destruct_scsi_pt_obj(pt);
	ww_sg_classify(&o, st);
	if (st->result != WW_CMD_OK && st->result != WW_CMD_RECOVERED &&
	    st->result != WW_CMD_DEVICE_ERROR)
		st->data_len = 0;
	return 0;
}

static int sg_scsi_in(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len, uint8_t *buf, size_t len,
		      int timeout_s, ww_cmd_status_t *st)
{
	if (!x || x->fd < 0 || !st || (len && !buf) || len > 0x7fffffff)
		return -EINVAL;
	if (!cdb_allowed(cdb, cdb_len))
		return -EPERM;
	return sg_send(x, cdb, cdb_len, buf, NULL, len, timeout_s, st);
}

/* The self-test class. The CDBs are ours (6 and 16 bytes, built in
 * collect and sat.c) rather than sg_ll_send_diag()'s, so that they pass
 * through this one allow-list, the capture and the replay like every other
 * command; sg_pt sends them as it sends the reads. */
static int sg_self_test(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len, ww_cmd_status_t *st)
{
	if (!x || x->fd < 0 || !st)
		return -EINVAL;
	if (!x->self_test_armed || !selftest_cdb_allowed(cdb, cdb_len, 0))
		return -EPERM;
	return sg_send(x, cdb, cdb_len, NULL, NULL, 0, 30, st);
}

static int sg_self_test_out(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len, const uint8_t *buf,
			    size_t len, ww_cmd_status_t *st)
{
	if (!x || x->fd < 0 || !st || !buf)
		return -EINVAL;
	if (!x->self_test_armed || !selftest_cdb_allowed(cdb, cdb_len, len))
		return -EPERM;
	return sg_send(x, cdb, cdb_len, NULL, buf, len, 30, st);
}

static void sg_close(ww_xport_t *x)
{
	if (x->fd >= 0)
		scsi_pt_close_device(x->fd);
	x->fd = -1;
}

static const ww_xport_ops_t sg_ops = {
	.scsi_in = sg_scsi_in,
	.close = sg_close,
	.self_test = sg_self_test,
	.self_test_out = sg_self_test_out,
};

int ww_xport_open_sg(const char *path, ww_xport_t *out)
{
	int fd;

	if (!path || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (snprintf(out->path, sizeof(out->path), "%s", path) >= (int)sizeof(out->path))
		return -ENAMETOOLONG;
	fd = scsi_pt_open_flags(path, O_RDONLY | O_NONBLOCK, 0);
	if (fd < 0)
		return fd;
	out->fd = fd;
	out->ops = &sg_ops;
	return 0;
}
