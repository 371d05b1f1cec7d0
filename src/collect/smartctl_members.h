/* RAID members through the smartctl backend (issue 7): discovery of the
 * drives only smartctl reaches, and the dispatch that reads a drive through
 * smartctl when it is such a member or configured to be read that way.
 *
 * Discovery runs `smartctl --scan -j -d scsi` only when a MegaRAID controller
 * (SCSI host proc_name "megaraid_sas") is present, and keeps the entries whose
 * type is "megaraid,N" (name "/dev/bus/H"). Why --scan and not --scan-open:
 * smartmontools takes the MegaRAID member list from the controller itself
 * (MFI DCMD PD_GET_LIST) in both modes, while --scan-open also opens every
 * /dev/sd* and sends INQUIRY/IDENTIFY to guess its type, which resumes a
 * runtime-suspended disk and can spin up a sleeping one. Other RAID types
 * (cciss,N, areca,N, 3ware,N) are not listed by smartctl's Linux scan: they
 * are configured per drive (serve --smartctl DRIVE=TYPE, ww_smartctl_force). */
#ifndef WW_COLLECT_SMARTCTL_MEMBERS_H
#define WW_COLLECT_SMARTCTL_MEMBERS_H

#include <stddef.h>

#include "collect/smartctl.h"
#include "wearwatch/collect.h"
#include "wearwatch/drive.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Turn one scanned device into a drive: id "smartctl-bus_0-megaraid_0"
 * (the name without "/dev/", '/' and ',' as '_'), dev_path = cmd_path = the
 * name, smartctl_type = the type, protocol from the scan's protocol ("SCSI",
 * "ATA", "NVMe"; SCSI when absent), transport unknown, no block device.
 * Returns 0, or -EINVAL when the entry has no name or type. Pure. */
int ww_smartctl_member_drive(const ww_smartctl_dev_t *s, ww_drive_t *d);

/** True when SYSROOT/sys/class/scsi_host/host* has a controller whose members
 * only smartctl reaches (proc_name "megaraid_sas"). */
bool ww_smartctl_raid_present(const char *sysroot);

/** RAID members from `smartctl --scan -j -d scsi` (see above), at most max,
 * written to out. The scan result is kept for rescan_s seconds (the poller
 * rediscovers every poll interval; members change rarely). Returns the count,
 * 0 when no controller is present or smartctl is missing, or -errno. */
int ww_smartctl_members_discover(const char *sysroot, ww_drive_t *out, size_t max,
				 unsigned rescan_s);

/** ww_discover() plus the RAID members (poller discover hook of `serve`).
 * Same contract as ww_discover. */
int ww_discover_with_members(const char *sysroot, const char *const *include,
			     ww_drive_t *out, size_t max);

/** Read a drive through smartctl: d->smartctl_type, else the forced type
 * (ww_smartctl_force). A drive with a block device that is runtime-suspended
 * is left alone (returns 1, like the native path). "Reached, no SMART"
 * (smartctl describes the device but it reports no health data) returns 0
 * with the identity filled and h->no_smart set. Otherwise as
 * ww_collect_smartctl(). Timeout 60 s. */
int ww_collect_via_smartctl(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
			    ww_read_report_t *r);

/** The -d TYPE a drive is read with through smartctl, or NULL when it is
 * read natively. */
const char *ww_smartctl_type_for(const ww_drive_t *d);

#ifdef __cplusplus
}
#endif
#endif
