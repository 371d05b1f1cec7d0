/* Starting a self-test (see collect.h ww_collect_start_self_test): the one
 * command sequence of the collector that is not all reads. Before the start
 * command it reads again what could forbid it, since the poller's last read
 * may be a poll interval old: the runtime power status, the ATA power mode,
 * and whether a test runs now (an ATA drive given a new test aborts the
 * running one; this never does). An ATA selective test writes its span to
 * the Selective self-test log 09h first. The bytes are decoded (and the
 * log built) by src/decode. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/collect.h"
#include "wearwatch/decode.h"

#define WW_NVME_NSID_ALL_NS 0xffffffffu

/* A selective test's span into log 09h: the log as the drive holds it,
 * read first (its vendor bytes and pending time stay), then written back
 * with the span (smartctl's order: it refuses to write when the read
 * fails). The checks before it (standby, a running test) have passed. */
static int ata_write_span(ww_xport_t *x, const ww_selftest_span_t *span, ww_cmd_status_t *st,
			  const char **why)
{
	uint8_t cur[512], next[512];
	ww_ata_selective_log_t log;
	int rc;

	rc = ww_sat_smart_read_log(x, WW_ATA_LOG_SELECTIVE, cur, st);
	if (rc < 0) {
		*why = "SMART READ LOG 09h failed";
		return rc;
	}
	if (ww_decode_ata_selective_log(cur, sizeof(cur), &log) < 0 ||
	    ww_ata_selective_log_build(cur, span, next) < 0) {
		*why = "Selective self-test log not usable";
		return -EIO;
	}
	ww_xport_arm_self_test(x);
	rc = ww_sat_write_selective_log(x, next, st);
	if (rc < 0)
		*why = "SMART WRITE LOG 09h failed";
	return rc;
}

static int ata_start(ww_xport_t *x, unsigned kind, const ww_selftest_span_t *span, bool wake,
		     ww_health_t *h, ww_cmd_status_t *st, const char **why)
{
	uint8_t buf[512], mode = WW_ATA_PM_ACTIVE_IDLE, sub, cap;
	int rc;

	rc = ww_sat_check_power_mode(x, &mode, st);
	if (rc == 0 && ww_sat_power_mode_is_standby(mode) && !wake) {
		*why = "in standby";
		return 1;
	}
	rc = ww_sat_smart_read_data(x, buf, st);
	if (rc < 0) {
		*why = "SMART READ DATA failed";
		return rc;
	}
	if (ww_decode_ata_smart_data(buf, sizeof(buf), h) < 0) {
		*why = "SMART READ DATA not decodable";
		return -EIO;
	}
	if (h->self_test_now.running) {
		*why = "a self-test is running";
		return -EBUSY;
	}
	/* SMART READ DATA byte 367: bit 0 EXECUTE OFF-LINE IMMEDIATE, bit 4
	 * self-tests, bit 5 conveyance, bit 6 selective (ACS-4 "Off-line data
	 * collection capability"; smartmontools isSupportSelectiveSelfTest) */
	cap = h->ata.offline_capability;
	switch (kind) {
	case WW_STK_SHORT:
		sub = WW_ATA_ST_SHORT;
		cap &= 0x10;
		break;
	case WW_STK_EXTENDED:
		sub = WW_ATA_ST_EXTENDED;
		cap &= 0x10;
		break;
	case WW_STK_CONVEYANCE:
		sub = WW_ATA_ST_CONVEYANCE;
		cap &= 0x20;
		break;
	case WW_STK_OFFLINE:
		sub = WW_ATA_ST_OFFLINE;
		cap &= 0x01;
		break;
	case WW_STK_SELECTIVE:
		sub = WW_ATA_ST_SELECTIVE;
		cap &= 0x40;
		break;
	default:
		cap = 0;
		sub = 0;
	}
	if (!cap) {
		*why = "the drive does not do this test";
		return -ENOTSUP;
	}
	if (kind == WW_STK_SELECTIVE) {
		if (!span) {
			*why = "no span for the selective test";
			return -EINVAL;
		}
		rc = ata_write_span(x, span, st, why);
		if (rc < 0)
			return rc;
	}
	ww_xport_arm_self_test(x);
	rc = ww_sat_start_self_test(x, sub, st);
	*why = rc == 0 ? "started" : "SMART EXECUTE OFF-LINE IMMEDIATE failed";
	return rc;
}

static int nvme_start(ww_xport_t *x, unsigned kind, ww_health_t *h, ww_cmd_status_t *st,
		      const char **why)
{
	uint8_t buf[WW_NVME_SELFTEST_LOG_LEN];
	int rc;

	if (kind != WW_STK_SHORT && kind != WW_STK_EXTENDED) {
		*why = "NVMe has short and extended tests only";
		return -ENOTSUP;
	}
	if (!x->ops->nvme_get_log || !x->ops->nvme_self_test) {
		*why = "the transport cannot send it";
		return -ENOTSUP;
	}
	rc = x->ops->nvme_get_log(x, WW_NVME_LID_SELFTEST, WW_NVME_NSID_ALL_NS, buf, sizeof(buf),
				  st);
	if (rc < 0 || (rc = ww_cmd_errno(st)) < 0) {
		*why = "Get Log Page 06h failed";
		return rc;
	}
	if (ww_decode_nvme_selftest_log(buf, st->data_len, h) < 0) {
		*why = "Device Self-test log not decodable";
		return -EIO;
	}
	if (h->self_test_now.running) {
		*why = "a self-test is running";
		return -EBUSY;
	}
	ww_xport_arm_self_test(x);
	rc = x->ops->nvme_self_test(x, WW_NVME_NSID_ALL_NS, kind == WW_STK_SHORT ? 0x1 : 0x2, st);
	if (rc == 0)
		rc = ww_cmd_errno(st);
	*why = rc == 0 ? "started" : "Device Self-test failed";
	return rc;
}

static int scsi_start(ww_xport_t *x, unsigned kind, ww_health_t *h, ww_cmd_status_t *st,
		      const char **why)
{
	enum {
		ALLOC = 1024
	};
	/* LOG SENSE page 0x10, cumulative values (PC 01b), SP 0 */
	uint8_t ls[10] = { 0x4d, 0, 0x40 | 0x10, 0, 0, 0, 0, ALLOC >> 8, ALLOC & 0xff, 0 };
	/* SEND DIAGNOSTIC, SELF-TEST CODE 001b background short / 010b
	 * background extended (SPC-5 Table "SELF-TEST CODE field") */
	uint8_t sd[6] = { 0x1d, 0, 0, 0, 0, 0 };
	uint8_t *buf;
	int rc;

	if (kind != WW_STK_SHORT && kind != WW_STK_EXTENDED) {
		*why = "SCSI has short and extended tests only";
		return -ENOTSUP;
	}
	if (!x->ops->scsi_in || !x->ops->self_test) {
		*why = "the transport cannot send it";
		return -ENOTSUP;
	}
	buf = malloc(ALLOC);
	if (!buf)
		return -ENOMEM;
	rc = x->ops->scsi_in(x, ls, sizeof(ls), buf, ALLOC, 20, st);
	if (rc == 0)
		rc = ww_cmd_errno(st);
	/* a drive without page 0x10 has no self-test to be running */
	if (rc == 0 && ww_decode_scsi_log_page(buf, st->data_len, h) == 0)
		ww_scsi_finish(h);
	free(buf);
	if (rc < 0 && rc != -ENOTSUP) {
		*why = "LOG SENSE 0x10 failed";
		return rc;
	}
	if (h->self_test_now.running) {
		*why = "a self-test is running";
		return -EBUSY;
	}
	sd[1] = (uint8_t)((kind == WW_STK_SHORT ? 1 : 2) << 5);
	ww_xport_arm_self_test(x);
	rc = x->ops->self_test(x, sd, sizeof(sd), st);
	if (rc == 0)
		rc = ww_cmd_errno(st);
	*why = rc == 0 ? "started" : "SEND DIAGNOSTIC failed";
	return rc;
}

int ww_collect_start_on_xport(ww_xport_t *x, ww_protocol_t proto, unsigned kind,
			      const ww_selftest_span_t *span, bool wake, ww_cmd_status_t *st,
			      const char **why)
{
	ww_health_t *h;
	int rc;

	*why = "";
	if (!x || !x->ops || !st)
		return -EINVAL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	if (proto == WW_PROTO_ATA)
		rc = ata_start(x, kind, span, wake, h, st, why);
	else if (proto == WW_PROTO_NVME)
		rc = nvme_start(x, kind, h, st, why);
	else if (proto == WW_PROTO_SCSI)
		rc = scsi_start(x, kind, h, st, why);
	else {
		*why = "no health interface";
		rc = -EOPNOTSUPP;
	}
	free(h);
	return rc;
}

int ww_collect_start_self_test(const char *sysroot, const ww_drive_t *d, ww_protocol_t proto,
			       unsigned kind, const ww_selftest_span_t *span, bool wake,
			       ww_cmd_status_t *st, const char **why)
{
	ww_xport_t x;
	int rc;

	*why = "";
	if (!d || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	if (d->from_capture) {
		*why = "a capture";
		return -EOPNOTSUPP;
	}
	if (ww_smartctl_type_for(d))
		return ww_collect_start_via_smartctl(sysroot, d, proto, kind, wake, st, why);
	/* never wake a runtime-suspended device */
	if (ww_runtime_suspended(sysroot, d->block) == 1) {
		*why = "runtime-suspended";
		return 1;
	}
	rc = ww_collect_open(sysroot, d, &x);
	if (rc < 0) {
		*why = "open failed";
		return rc;
	}
	rc = ww_collect_start_on_xport(&x, proto, kind, span, wake, st, why);
	ww_xport_close(&x);
	return rc;
}
