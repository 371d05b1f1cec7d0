/* The smartctl backend as a drive reader: per-drive forcing, the -d TYPE
 * choice, and one read with its report (see smartctl.h). */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/collect.h"

#define WW_SMARTCTL_MAX_FORCED 64

struct ww_sc_forced {
	char match[160];
	char type[32];
};

static pthread_mutex_t ww_sc_force_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ww_sc_forced ww_sc_forced[WW_SMARTCTL_MAX_FORCED];
static size_t ww_sc_n_forced;

int ww_smartctl_force(const char *match, const char *type)
{
	int ret = 0;

	if (!match || !*match || !type || !*type)
		return -EINVAL;
	pthread_mutex_lock(&ww_sc_force_lock);
	if (ww_sc_n_forced >= WW_SMARTCTL_MAX_FORCED) {
		ret = -ENOSPC;
	} else {
		struct ww_sc_forced *f = &ww_sc_forced[ww_sc_n_forced++];

		snprintf(f->match, sizeof(f->match), "%s", match);
		snprintf(f->type, sizeof(f->type), "%s", type);
	}
	pthread_mutex_unlock(&ww_sc_force_lock);
	return ret;
}

void ww_smartctl_force_clear(void)
{
	pthread_mutex_lock(&ww_sc_force_lock);
	ww_sc_n_forced = 0;
	pthread_mutex_unlock(&ww_sc_force_lock);
}

const char *ww_smartctl_forced_type(const ww_drive_t *d)
{
	const char *t = NULL;

	if (!d)
		return NULL;
	pthread_mutex_lock(&ww_sc_force_lock);
	for (size_t i = 0; i < ww_sc_n_forced && !t; i++) {
		const char *m = ww_sc_forced[i].match;

		if (!strcmp(m, d->id) || !strcmp(m, d->block) ||
		    !strcmp(m, d->dev_path) || !strcmp(m, d->cmd_path))
			t = ww_sc_forced[i].type; /* entries are never freed */
	}
	pthread_mutex_unlock(&ww_sc_force_lock);
	return t;
}

const char *ww_smartctl_default_type(const ww_drive_t *d)
{
	if (d && d->protocol == WW_PROTO_NVME)
		return "nvme";
	if (d && d->protocol == WW_PROTO_ATA)
		return "sat";
	return "scsi";
}

/* the type's name (before its ",ARGS" or "+TYPE") is `name` */
static bool type_is(const char *type, size_t n, const char *name)
{
	return n == strlen(name) && !strncmp(type, name, n);
}

ww_protocol_t ww_smartctl_type_protocol(const char *type)
{
	size_t n = type ? strcspn(type, ",+") : 0;

	if (!n)
		return WW_PROTO_NONE;
	/* smartctl(8) 7.3 "-d TYPE": nvme and the USB-to-NVMe bridges (snt*)
	 * speak NVMe; scsi and the controllers whose pass-through smartctl
	 * opens as a SCSI device first (megaraid, aacraid, cciss) and auto
	 * start as SCSI; the rest are ATA behind SAT, a USB bridge or a
	 * controller (ata, sat, usb*, jmb39x, jms56x, intelliprop, marvell,
	 * areca, 3ware, hpt). The read's JSON says what the drive is. */
	if (type_is(type, n, "nvme") || !strncmp(type, "snt", 3))
		return WW_PROTO_NVME;
	if (type_is(type, n, "scsi") || type_is(type, n, "megaraid") ||
	    type_is(type, n, "aacraid") || type_is(type, n, "cciss") || type_is(type, n, "auto"))
		return WW_PROTO_SCSI;
	return WW_PROTO_ATA;
}

static void note(ww_read_report_t *r, const char *type, ww_cmd_result_t res,
		 int err)
{
	ww_cmd_status_t st;
	char what[48];

	memset(&st, 0, sizeof(st));
	st.result = res;
	st.os_errno = err;
	snprintf(what, sizeof(what), "smartctl -d %.32s", type);
	ww_report_cmd(r, what, &st);
}

int ww_collect_smartctl(const ww_drive_t *d, const char *type, int timeout_s,
			ww_health_t *h, ww_read_report_t *r)
{
	ww_smartctl_info_t info;
	const char *dev;
	char *json = NULL;
	size_t len = 0;
	int es, ret;

	if (!d || !h || !r)
		return -EINVAL;
	if (!type)
		type = ww_smartctl_forced_type(d);
	if (!type)
		type = ww_smartctl_default_type(d);
	dev = *d->dev_path ? d->dev_path : d->cmd_path;
	memset(h, 0, sizeof(*h));
	h->backend = "smartctl";

	ret = ww_smartctl_run(dev, type, NULL, timeout_s, &json, &len, &es);
	if (ret < 0) {
		note(r, type, ret == -ETIMEDOUT ? WW_CMD_TIMEOUT : WW_CMD_OS_ERROR, -ret);
		return ret;
	}
	ret = ww_smartctl_parse(json, len, h, &info);
	free(json);
	h->backend = "smartctl";
	if (es == WW_SMARTCTL_STANDBY_EXIT || info.standby) {
		note(r, type, WW_CMD_OK, 0);
		r->standby = true;
		return 1;
	}
	if (ret == -EINVAL) {
		note(r, type, WW_CMD_DEVICE_ERROR, 0);
		r->n_decode_errors++;
		return -EINVAL;
	}
	if (ret == -ENODATA || !info.reached) {
		/* nothing describes a device: open failed or no such member */
		note(r, type, WW_CMD_OS_ERROR, ENODEV);
		return -ENODEV;
	}
	if (ret == -EIO) {
		/* exit status bit 0 or 1: command line or device open failed;
		 * nothing the JSON holds is a reading */
		note(r, type, WW_CMD_DEVICE_ERROR, 0);
		return -EIO;
	}
	if (!info.has_smart) {
		/* reached, no SMART (QEMU's megasas disk, virtual volumes) */
		note(r, type, WW_CMD_UNSUPPORTED, 0);
		return -ENODATA;
	}
	/* bit 2: partial, named (common on healthy SAS and RAID members: the
	 * data that came is good); bits 3-7 are facts in the record */
	if (ww_smartctl_read_class(es, true) == WW_SMARTCTL_READ_PARTIAL) {
		note(r, type, WW_CMD_RECOVERED, 0);
		r->partial = WW_SMARTCTL_PARTIAL_WHY;
	} else {
		note(r, type, WW_CMD_OK, 0);
	}
	return 0;
}
