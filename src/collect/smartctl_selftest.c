/* Starting a self-test through a smartctl child (collect.h
 * ww_collect_start_via_smartctl): the drives the native path cannot reach
 * (RAID members, `[drive] smartctl`). smartctl is given one -t TEST of the
 * allow-list below, with -n so a sleeping drive is not woken, and never
 * `-t force` (which aborts a running test), -X (abort) or -C (captive:
 * the drive would serve no I/O until it ends). The read before it is the
 * poller's own (-j -x -n standby,3), so what it says of a running test is
 * what the record says. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/collect.h"

/* the smartctl self-test allow-list: the -t argument for each kind, or
 * NULL (smartctl(8) "-t TEST"; each runs in the background) */
static const char *sc_selftest_allowed(unsigned kind)
{
	switch (kind) {
	case WW_STK_SHORT: /* smartctl -t short */
		return "short";
	case WW_STK_EXTENDED: /* smartctl -t long */
		return "long";
	case WW_STK_CONVEYANCE: /* smartctl -t conveyance */
		return "conveyance";
	case WW_STK_OFFLINE: /* smartctl -t offline */
		return "offline";
	default:
		return NULL;
	}
}

/* whether the drive h describes runs `kind`: ATA by SMART READ DATA byte
 * 367 as smartctl relayed it (bit 0 off-line, bit 4 self-tests, bit 5
 * conveyance; ACS-4), NVMe and SCSI short and extended only */
static bool runs_kind(const ww_health_t *h, unsigned kind)
{
	uint8_t c = h->ata.offline_capability;

	if (h->protocol == WW_PROTO_ATA)
		return h->ata.has_smart_caps &&
			(kind == WW_STK_OFFLINE              ? c & 0x01
				 : kind == WW_STK_CONVEYANCE ? c & 0x20
							     : c & 0x10);
	return kind == WW_STK_SHORT || kind == WW_STK_EXTENDED;
}

/* the read before the start: 0 go on, else the start's return */
static int check(const ww_drive_t *d, const char *type, unsigned kind, bool wake,
		 ww_cmd_status_t *st, const char **why)
{
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_read_report_t *r = calloc(1, sizeof(*r));
	int rc;

	if (!h || !r) {
		free(h);
		free(r);
		return -ENOMEM;
	}
	rc = ww_collect_smartctl(d, type, WW_SMARTCTL_READ_TIMEOUT_S, h, r);
	if (r->n_cmds)
		st->result = r->cmds[0].result;
	if (rc == 1) {
		/* in standby, not woken: with wake the start goes on (-n
		 * never); smartctl itself refuses then to abort a running
		 * ATA or NVMe test */
		*why = "in standby";
		rc = wake ? 0 : 1;
	} else if (rc == -ENODATA) {
		*why = "smartctl reports no SMART data";
		rc = -ENOTSUP;
	} else if (rc < 0) {
		*why = "smartctl read failed";
	} else if (h->self_test_now.running) {
		*why = "a self-test is running";
		rc = -EBUSY;
	} else if (!runs_kind(h, kind)) {
		*why = "the drive does not do this test";
		rc = -ENOTSUP;
	}
	free(h);
	free(r);
	return rc;
}

int ww_collect_start_via_smartctl(const char *sysroot, const ww_drive_t *d, ww_protocol_t proto,
				  unsigned kind, bool wake, ww_cmd_status_t *st, const char **why)
{
	const char *type, *test, *dev;
	char standby[32], *out = NULL;
	int rc, es;

	(void)proto; /* the read says what the drive speaks */
	*why = "";
	if (!d || !st || !(type = ww_smartctl_type_for(d)))
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	if (!(test = sc_selftest_allowed(kind))) {
		*why = "no smartctl test of this kind";
		return -ENOTSUP;
	}
	/* never wake a runtime-suspended device (smartctl's open would) */
	if (*d->block && ww_runtime_suspended(sysroot, d->block) == 1) {
		*why = "runtime-suspended";
		return 1;
	}
	rc = check(d, type, kind, wake, st, why);
	if (rc)
		return rc;

	dev = *d->dev_path ? d->dev_path : d->cmd_path;
	snprintf(standby, sizeof(standby), "standby,%d", WW_SMARTCTL_STANDBY_EXIT);
	{
		const char *argv[] = { "smartctl", "-n", wake ? "never" : standby,
				       "-t",       test, "-d",
				       type,       dev,  NULL };

		rc = ww_smartctl_run(NULL, NULL, argv, WW_SMARTCTL_READ_TIMEOUT_S, &out, NULL, &es);
	}
	if (rc < 0) {
		st->result = rc == -ETIMEDOUT ? WW_CMD_TIMEOUT : WW_CMD_OS_ERROR;
		st->os_errno = -rc;
		*why = "smartctl -t did not finish";
		return rc;
	}
	st->result = WW_CMD_OK;
	if (es == WW_SMARTCTL_STANDBY_EXIT && !wake) {
		*why = "in standby";
		rc = 1;
	} else if (strstr(out, "Can't start self-test without aborting current test")) {
		/* ataprint.cpp, nvmeprint.cpp: smartctl refuses to abort it */
		*why = "a self-test is running";
		rc = -EBUSY;
	} else if (es < 0 ||
		   (es &
		    (WW_SMARTCTL_BIT_CMDLINE | WW_SMARTCTL_BIT_OPEN | WW_SMARTCTL_BIT_CMDFAIL))) {
		/* the command line, the open or the start command failed */
		st->result = WW_CMD_DEVICE_ERROR;
		*why = "smartctl -t failed";
		rc = -EIO;
	} else {
		*why = "started";
	}
	free(out);
	return rc;
}
