/* Live NVMe transport: admin Identify and Get Log Page, the two read-only
 * opcodes, and in the self-test class Device Self-test (14h) on an armed
 * transport only, each one NVME_IOCTL_ADMIN_CMD (linux/nvme_ioctl.h). The
 * device is opened O_RDONLY, which the kernel accepts for admin passthrough
 * when the caller has CAP_SYS_ADMIN.
 *
 * Not through libnvme's calls, though they are the same ioctl: Debian 12's
 * libnvme1 (1.3) links libcrypto for NVMe/TCP TLS, so linking it for three
 * admin commands mapped OpenSSL (1.4 MiB resident) into the network-less
 * collector and every other process. libnvme's header gives the opcodes and
 * constants; the command dwords are NVMe Base 2.0's (figures cited below)
 * and test_transport_nvme checks each command against the one libnvme's own
 * call builds. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/nvme_ioctl.h>
#include <nvme/types.h>

#include "wearwatch/transport.h"

#define WW_NVME_TIMEOUT_MS 10000

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* rc is the ioctl's return: -1 with errno when the command did not complete,
 * else the completion status field as the kernel gives it (SCT in bits 10:8,
 * SC in 7:0, plus CRD/More/DNR above, which do not change the class). */
static void classify(int rc, int err, uint32_t result, size_t len, uint64_t t0, ww_cmd_status_t *st)
{
	st->duration_ns = mono_ns() - t0;
	st->nvme_result = result;
	if (rc < 0) {
		st->os_errno = err ? err : EIO;
		if (err == ETIMEDOUT)
			st->result = WW_CMD_TIMEOUT;
		else if (err == ENOTTY || err == EOPNOTSUPP || err == ENOSYS)
			st->result = WW_CMD_UNSUPPORTED;
		else
			st->result = WW_CMD_OS_ERROR;
		return;
	}
	st->nvme_status = (uint16_t)(rc & 0x7ff);
	if (rc == 0) {
		st->result = WW_CMD_OK;
		st->data_len = len; /* NVMe has no residual: the whole buffer */
		return;
	}

	unsigned sct = ((unsigned)rc >> 8) & 0x7, sc = (unsigned)rc & 0xff;

	if ((sct == 0 && (sc == 0x01 || sc == 0x02)) || /* Invalid Opcode / Field */
	    (sct == 1 && sc == 0x09))                   /* Invalid Log Page */
		st->result = WW_CMD_UNSUPPORTED;
	else if (sct == 0 && sc == 0x07) /* Command Abort Requested: the
						   driver aborts on timeout */
		st->result = WW_CMD_TIMEOUT;
	else if (sct == 3) /* path related (host aborted,
						   controller pathing error) */
		st->result = WW_CMD_TRANSPORT_ERROR;
	else
		st->result = WW_CMD_DEVICE_ERROR;
}

/* One admin command through the kernel's passthrough, timed and classified;
 * len is what arrives when it completes (NVMe has no residual). */
static int admin(ww_xport_t *x, struct nvme_admin_cmd *cmd, size_t len, ww_cmd_status_t *st)
{
	uint64_t t0;
	int rc, err;

	cmd->timeout_ms = WW_NVME_TIMEOUT_MS;
	t0 = mono_ns();
	errno = 0;
	rc = ioctl(x->fd, NVME_IOCTL_ADMIN_CMD, cmd);
	err = errno;
	classify(rc, err, rc >= 0 ? cmd->result : 0, len, t0, st);
	return 0;
}

static int x_identify(ww_xport_t *x, uint8_t cns, uint32_t nsid, uint8_t *buf, size_t len,
		      ww_cmd_status_t *st)
{
	if (!x || x->fd < 0 || !buf || !st)
		return -EINVAL;
	if (len < NVME_IDENTIFY_DATA_SIZE)
		return -EMSGSIZE;
	memset(st, 0, sizeof(*st));

	/* NVMe Base 2.0 "Identify - Command Dword 10": CNS in bits 7:0,
	 * CNTID (31:16) 0; "Command Dword 11": CSI (31:24) NVM, the CNS
	 * specific identifier 0; "Command Dword 14": no UUID index */
	struct nvme_admin_cmd cmd = {
		.opcode = nvme_admin_identify,
		.nsid = nsid,
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = NVME_IDENTIFY_DATA_SIZE,
		.cdw10 = cns,
		.cdw11 = (uint32_t)NVME_CSI_NVM << 24,
	};
	return admin(x, &cmd, NVME_IDENTIFY_DATA_SIZE, st);
}

static int x_get_log_any(ww_xport_t *x, uint8_t lid, uint32_t nsid, uint16_t lsi, uint8_t *buf,
			 size_t len, ww_cmd_status_t *st);

static int x_get_log(ww_xport_t *x, uint8_t lid, uint32_t nsid, uint8_t *buf, size_t len,
		     ww_cmd_status_t *st)
{
	return x_get_log_any(x, lid, nsid, NVME_LOG_LSI_NONE, buf, len, st);
}

/* Log pages this transport reads: each is a plain read with RAE = 1 and LSP
 * 0 (NVMe Base 2.0 Get Log Page). Others are refused, because some have side
 * effects: Telemetry Host-Initiated (07h) with Create set, the Persistent
 * Event Log (0Dh) establishing a reporting context, reads that clear an
 * asynchronous event. */
static bool lid_allowed(uint8_t lid)
{
	switch (lid) {
	case 0x01: /* Error Information */
	case 0x02: /* SMART / Health Information */
	case 0x06: /* Device Self-test (results; a test is started only by the
		    * Device Self-test command, which is not built here) */
	case 0x09: /* Endurance Group Information */
	case 0xc0: /* OCP SMART / Health Information Extended (vendor page) */
		return true;
	default:
		return false;
	}
}

static int x_get_log_any(ww_xport_t *x, uint8_t lid, uint32_t nsid, uint16_t lsi, uint8_t *buf,
			 size_t len, ww_cmd_status_t *st)
{
	if (!x || x->fd < 0 || !buf || !st)
		return -EINVAL;
	if (!lid_allowed(lid))
		return -EPERM;
	/* NUMD is a dword count; keep to whole dwords and one transfer. */
	if (len == 0 || len % 4 || len > 65536)
		return -EINVAL;
	memset(st, 0, sizeof(*st));

	uint32_t numd = (uint32_t)(len / 4 - 1); /* zero-based dword count */

	/* NVMe Base 2.0 "Get Log Page - Command Dword 10": LID 7:0, LSP 14:8
	 * none, RAE (15) set: leave asynchronous events to their owner, NUMDL
	 * 31:16; "Command Dword 11": NUMDU 15:0, LSI 31:16; "Command Dword
	 * 12/13": offset 0; "Command Dword 14": UUID index none, OT (23)
	 * clear, CSI (31:24) NVM */
	struct nvme_admin_cmd cmd = {
		.opcode = nvme_admin_get_log_page,
		.nsid = nsid,
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = (uint32_t)len,
		.cdw10 = lid | (uint32_t)NVME_LOG_LSP_NONE << 8 | 1u << 15 | (numd & 0xffff) << 16,
		.cdw11 = numd >> 16 | (uint32_t)lsi << 16,
		.cdw14 = (uint32_t)NVME_CSI_NVM << 24,
	};
	return admin(x, &cmd, len, st);
}

/* The self-test class (transport.h): Device Self-test codes that start a
 * test; never abort (Fh), never vendor specific (Eh) */
static bool stc_allowed(uint8_t stc)
{
	switch (stc) {
	case 0x1: /* Device Self-test 1h short */
	case 0x2: /* Device Self-test 2h extended */
		return true;
	default:
		return false;
	}
}

static int x_self_test(ww_xport_t *x, uint32_t nsid, uint8_t stc, ww_cmd_status_t *st)
{
	if (!x || x->fd < 0 || !st)
		return -EINVAL;
	if (!x->self_test_armed || !stc_allowed(stc))
		return -EPERM;
	memset(st, 0, sizeof(*st));

	/* NVMe Base 2.0 "Device Self-test - Command Dword 10": STC in bits
	 * 3:0, no data */
	struct nvme_admin_cmd cmd = {
		.opcode = nvme_admin_dev_self_test,
		.nsid = nsid,
		.cdw10 = stc,
	};
	return admin(x, &cmd, 0, st);
}

static void x_close(ww_xport_t *x)
{
	if (x && x->fd >= 0)
		close(x->fd);
	if (x)
		x->fd = -1;
}

static const ww_xport_ops_t ww_nvme_ops = {
	.scsi_in = NULL,
	.nvme_identify = x_identify,
	.nvme_get_log = x_get_log,
	.close = x_close,
	.nvme_get_log_lsi = x_get_log_any,
	.nvme_self_test = x_self_test,
};

int ww_xport_open_nvme(const char *path, ww_xport_t *out)
{
	int fd;

	if (!path || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (strlen(path) >= sizeof(out->path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	out->fd = fd;
	out->ops = &ww_nvme_ops;
	snprintf(out->path, sizeof(out->path), "%s", path);
	return 0;
}
