/* One read of one drive: power check, open, dispatch, close; or on nodes kept
 * open between reads (see collect.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wearwatch/collect.h"
#include "wearwatch/discover.h"

static void note(ww_read_report_t *r, const char *what, ww_cmd_result_t res, int err)
{
	ww_cmd_status_t st;

	memset(&st, 0, sizeof(st));
	st.result = res;
	st.os_errno = err;
	ww_report_cmd(r, what, &st);
}

/* Identity the device did not report, from sysfs; device values win. */
static void fill_from_sysfs(const ww_drive_t *d, ww_health_t *h)
{
	if (!*h->model && *d->sysfs_model)
		snprintf(h->model, sizeof(h->model), "%s", d->sysfs_model);
	if (!*h->serial && *d->sysfs_serial)
		snprintf(h->serial, sizeof(h->serial), "%s", d->sysfs_serial);
	if (!*h->firmware && *d->sysfs_firmware)
		snprintf(h->firmware, sizeof(h->firmware), "%s", d->sysfs_firmware);
	if (!*h->vendor && *d->sysfs_vendor)
		snprintf(h->vendor, sizeof(h->vendor), "%s", d->sysfs_vendor);
	if (!*h->wwn && !strncmp(d->sysfs_wwn, "naa.", 4))
		snprintf(h->wwn, sizeof(h->wwn), "0x%s", d->sysfs_wwn + 4);
	if (!WW_HAS(h->capacity_bytes) && d->capacity_bytes)
		WW_SET(h->capacity_bytes, d->capacity_bytes, "sysfs size x 512");
	if (!WW_HAS(h->logical_block_bytes) && d->logical_block_bytes)
		WW_SET(h->logical_block_bytes, d->logical_block_bytes,
		       "sysfs queue/logical_block_size");
	if (!WW_HAS(h->physical_block_bytes) && d->physical_block_bytes)
		WW_SET(h->physical_block_bytes, d->physical_block_bytes,
		       "sysfs queue/physical_block_size");
}

static int read_sg(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h,
		   ww_read_report_t *r)
{
	bool is_ata = d->protocol == WW_PROTO_ATA;

	if (!is_ata) {
		/* SAT layers other than libata (HBAs, some SAS expanders) show a
		 * vendor other than "ATA"; VPD 0x89 tells. */
		int ret = ww_scsi_probe_ata(x, &is_ata);

		if (ret < 0 && ret != -ENOTSUP && ret != -EOPNOTSUPP)
			note(r, "INQUIRY VPD 0x00 (probe ATA)", WW_CMD_OS_ERROR, -ret);
		if (ret < 0)
			is_ata = false;
	}
	h->protocol = is_ata ? WW_PROTO_ATA : WW_PROTO_SCSI;
	return is_ata ? ww_read_ata(x, d, h, r) : ww_read_scsi(x, d, h, r);
}

static bool has_health_interface(const ww_drive_t *d)
{
	return d->protocol == WW_PROTO_NVME || d->protocol == WW_PROTO_ATA ||
	       d->protocol == WW_PROTO_SCSI;
}

int ww_collect_open(const char *sysroot, const ww_drive_t *d, ww_xport_t *x)
{
	char node[sizeof(d->cmd_path) + 4096];

	if (!has_health_interface(d))
		return -EOPNOTSUPP;
	if (ww_sysfs_path(node, sizeof(node), sysroot, "%s", d->cmd_path))
		return -ENAMETOOLONG;
	return d->protocol == WW_PROTO_NVME ? ww_xport_open_nvme(node, x)
					    : ww_xport_open_sg(node, x);
}

int ww_collect_no_interface(const ww_drive_t *d, ww_health_t *h, ww_read_report_t *r)
{
	/* not a command: nothing is noted in r (no "commands sent") */
	(void)r;
	h->protocol = WW_PROTO_NONE;
	fill_from_sysfs(d, h);
	return -EOPNOTSUPP;
}

int ww_collect_drive(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
		     ww_read_report_t *r)
{
	ww_xport_t x;
	int ret;

	if (!d || !h || !r)
		return -EINVAL;
	/* RAID members and drives configured for it: the smartctl backend */
	if (ww_smartctl_type_for(d))
		return ww_collect_via_smartctl(sysroot, d, h, r);
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	memset(&x, 0, sizeof(x));
	x.fd = -1;
	h->protocol = d->protocol;
	h->scsi.protocol_id = 0xff; /* none until VPD 0x83 says */

	/* never wake a runtime-suspended device; a read error means "may touch" */
	if (ww_runtime_suspended(sysroot, d->block) == 1) {
		r->runtime_suspended = true;
		fill_from_sysfs(d, h);
		return 1;
	}

	if (!has_health_interface(d))
		return ww_collect_no_interface(d, h, r);
	ret = ww_collect_open(sysroot, d, &x);
	if (ret < 0) {
		char what[48];

		snprintf(what, sizeof(what), "open %.40s", d->cmd_path);
		note(r, what, WW_CMD_OS_ERROR, -ret);
		fill_from_sysfs(d, h);
		return ret;
	}

	ret = ww_collect_on_xport(&x, d, h, r);
	ww_xport_close(&x);
	return ret;
}

int ww_collect_on_xport(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h,
			ww_read_report_t *r)
{
	int ret;

	h->protocol = d->protocol;
	if (d->protocol == WW_PROTO_NVME)
		ret = ww_read_nvme(x, d, h, r);
	else
		ret = read_sg(x, d, h, r);
	fill_from_sysfs(d, h);
	if (ret < 0)
		return ret;
	return r->standby ? 1 : 0;
}

void ww_collect_keep_init(ww_collect_keep_t *k)
{
	memset(k, 0, sizeof(*k));
	k->x.fd = -1;
	k->pm_fd = -1;
}

void ww_collect_keep_close(ww_collect_keep_t *k)
{
	ww_xport_close(&k->x);
	if (k->pm_fd >= 0)
		close(k->pm_fd);
	k->x.fd = -1;
	k->pm_fd = -1;
	k->node[0] = 0;
	k->pm_block[0] = 0;
}

/* errors that say the node no longer is the device it was opened on */
static bool gone(int err)
{
	return err == ENODEV || err == ENXIO || err == EBADF;
}

static bool report_says_gone(const ww_read_report_t *r)
{
	for (size_t i = 0; i < r->n_cmds; i++)
		if (r->cmds[i].result == WW_CMD_OS_ERROR && gone(r->cmds[i].os_errno))
			return true;
	return false;
}

int ww_collect_drive_kept(const char *sysroot, const ww_drive_t *d, ww_collect_keep_t *k,
			  ww_health_t *h, ww_read_report_t *r)
{
	char node[sizeof(k->node)];
	int ret, pm;

	if (!d || !h || !r || !k)
		return -EINVAL;
	if (ww_smartctl_type_for(d))
		return ww_collect_via_smartctl(sysroot, d, h, r);
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	h->protocol = d->protocol;
	h->scsi.protocol_id = 0xff; /* none until VPD 0x83 says */

	if (k->pm_fd >= 0 && strcmp(k->pm_block, d->block)) {
		close(k->pm_fd);
		k->pm_fd = -1;
	}
	if (k->pm_fd < 0 && *d->block) {
		k->pm_fd = ww_runtime_status_open(sysroot, d->block);
		k->opens++;
		snprintf(k->pm_block, sizeof(k->pm_block), "%s", d->block);
	}
	/* never wake a runtime-suspended device; a read error means "may touch" */
	pm = k->pm_fd >= 0 ? ww_runtime_suspended_fd(k->pm_fd) : k->pm_fd;
	if (pm < 0 && k->pm_fd >= 0 && gone(-pm)) {
		close(k->pm_fd); /* the device went: opened again next time */
		k->pm_fd = -1;
	}
	if (pm == 1) {
		r->runtime_suspended = true;
		fill_from_sysfs(d, h);
		return 1;
	}
	if (!has_health_interface(d))
		return ww_collect_no_interface(d, h, r);

	if (ww_sysfs_path(node, sizeof(node), sysroot, "%s", d->cmd_path))
		return -ENAMETOOLONG;
	if (k->x.fd >= 0 && strcmp(k->node, node))
		ww_xport_close(&k->x);
	if (k->x.fd < 0) {
		ret = ww_collect_open(sysroot, d, &k->x);
		k->opens++;
		if (ret < 0) {
			char what[48];

			k->x.fd = -1;
			snprintf(what, sizeof(what), "open %.40s", d->cmd_path);
			note(r, what, WW_CMD_OS_ERROR, -ret);
			fill_from_sysfs(d, h);
			return ret;
		}
		snprintf(k->node, sizeof(k->node), "%s", node);
	}
	ret = ww_collect_on_xport(&k->x, d, h, r);
	/* Only an NVMe controller node stays open between reads. An open sg or
	 * sd node holds a runtime-PM reference until it is closed (Linux
	 * sg_open: scsi_autopm_get_device) and its driver's module: a disk
	 * kept open never autosuspends, which keeps a sleeping disk from
	 * sleeping, and scsi_debug could not be unloaded. */
	if ((ret < 0 && gone(-ret)) || report_says_gone(r) || d->protocol != WW_PROTO_NVME)
		ww_xport_close(&k->x);
	return ret;
}
