/* discover: what the system says a drive is, before any command is sent.
 * Built from sysfs and /dev/disk/by-id, by-path only; opening devices is the
 * collector's job. udev's notices of devices coming and going. Also the small sysfs readers (runtime power status,
 * attribute files) that the collector and the probe gate read before they
 * touch a drive. */
#ifndef WEARWATCH_DISCOVER_H
#define WEARWATCH_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wearwatch/record.h"

#ifdef __cplusplus
extern "C" {
#endif


#define WW_MAX_PATHS 4

/** One physical drive. A dual-ported SAS drive seen twice is one ww_drive with
 * two block devices in `paths`; an NVMe controller is one ww_drive whose
 * namespaces are listed in `namespaces`. */
typedef struct ww_drive {
	char id[160];          /* stable id: the /dev/disk/by-id name without
				  directory ("wwn-0x5000...", "nvme-eui.00...",
				  "ata-MODEL_SERIAL", "scsi-..."), else "dev-sdX" */
	char block[32];        /* first block device name: "sda", "nvme0n1" */
	char dev_path[64];     /* "/dev/sda", "/dev/nvme0n1" */
	char cmd_path[64];     /* node health commands go to: "/dev/sg0" or
				  "/dev/sda" for SG_IO, "/dev/nvme0" for NVMe */
	char ctrl[32];         /* "nvme0" for NVMe */
	char slot[160];        /* /dev/disk/by-path name, "" if none */
	char paths[WW_MAX_PATHS][32]; /* every block device of this drive */
	size_t n_paths;
	char namespaces[WW_NVME_MAX_NS][32];
	size_t n_namespaces;
	ww_transport_t transport;
	ww_protocol_t protocol;     /* how health will be read */
	const char *no_health_reason; /* set when protocol == WW_PROTO_NONE */
	bool rotational;
	uint64_t capacity_bytes;     /* sysfs size x 512 */
	uint32_t logical_block_bytes, physical_block_bytes;
	char sysfs_model[64], sysfs_serial[64], sysfs_vendor[16];
	char sysfs_wwn[128];         /* sysfs wwid as the kernel writes it: "naa.",
					"eui.", "t10." (ATA: model and serial
					padded), NVMe "nvme.VID-SERIAL-MODEL-NSID"
					(over 64 characters) */
	char sysfs_firmware[32];     /* NVMe firmware_rev, SCSI INQUIRY rev */
	char sysfs_path[256];        /* resolved /sys/devices/... path of
					`block`, relative to sysroot */
	/* NVMe: the controller's PCIe link from sysfs (current_link_speed /
	 * _width, max_link_speed / _width of its PCI device; read without a
	 * command). Transfers per second ("8.0 GT/s" = 8e9) and lanes; 0 =
	 * not known (not PCIe, or "Unknown"). */
	uint64_t pcie_cur_transfers, pcie_max_transfers;
	uint8_t pcie_cur_width, pcie_max_width;
	char smartctl_type[32];      /* "-d TYPE" when the drive is read
					through smartctl (a RAID member from
					`smartctl --scan`: "megaraid,0"); "" = native
					(src/collect/smartctl_members.c) */
	bool from_capture;           /* a recorded drive (serve --replay,
					decode): its answers are a capture's,
					whose time is not recorded */
} ww_drive_t;

/** List drives under sysroot ("" or "/" for the live system; a test tree
 * otherwise). Skips partitions, loop, ram, zram, dm-* and md unless the block
 * name is in `include` (NULL-terminated, may be NULL). Returns the number of
 * drives (>= 0) written to out (at most max), or -errno. */
int ww_discover(const char *sysroot, const char *const *include,
		ww_drive_t *out, size_t max);

/** Every drive under sysroot, as ww_discover, in an array of the size
 * needed (no limit on the number of drives): *out is malloc'd (the caller
 * frees it) when the return value (the number of drives) is >= 0; -errno
 * otherwise, with *out untouched. */
int ww_discover_all(const char *sysroot, const char *const *include, ww_drive_t **out);

/** Runtime power status of a block device from
 * /sys/block/NAME/device/power/runtime_status: "active", "suspended",
 * "suspending", "resuming" or "unsupported". Returns 1 when the device must not
 * be touched (suspended/suspending), 0 when it may, -errno on read failure
 * (treated by callers as "may touch"). */
int ww_runtime_suspended(const char *sysroot, const char *block);

/** The same attribute opened once, for a caller that checks it before every
 * read of a drive it keeps: an O_RDONLY descriptor (the caller closes it) or
 * -errno. */
int ww_runtime_status_open(const char *sysroot, const char *block);

/** ww_runtime_suspended on a descriptor from ww_runtime_status_open: the
 * attribute read again from offset 0 (pread; no path lookup). Same returns;
 * -ENODEV and the like once the device went away. */
int ww_runtime_suspended_fd(int fd);

/** Transport as best known after a read: discovery's, refined by the VPD 0x83
 * PROTOCOL IDENTIFIER the SCSI reader stored (6 = SAS, as scsi_debug reports)
 * when sysfs could not tell (WW_TRANSPORT_OTHER). h may be NULL. */
ww_transport_t ww_drive_transport(const ww_drive_t *d, const ww_health_t *h);

/** How health is read, for people: "nvme admin", "ata via sat",
 * "scsi log sense", "none: <reason>". Returns buf. */
const char *ww_drive_protocol_label(const ww_drive_t *d, char *buf, size_t len);

/* Device notices: udev's add/remove/change of the block disks (no
 * partitions), NVMe controllers and SCSI generic nodes, so a caller
 * rediscovers when something changed instead of walking sysfs on a timer. */

typedef struct ww_uevents ww_uevents_t;

/** Told about one notice: action "add", "remove" or "change" (every other
 * udev action, "bind" included, is "change") and the kernel name ("sdb",
 * "nvme1", "nvme1n1", "sg3"); sysname NULL (action "change") when notices
 * were lost (the socket's queue overflowed, ENOBUFS): any drive may have
 * changed. */
typedef void (*ww_uevent_fn)(void *arg, const char *action, const char *sysname);

/** Subscribe to udev's netlink group (libudev's monitor).
 * NULL with *err = -errno when the socket cannot be had (no netlink in a
 * sandbox, no udev: notices never come, callers keep a periodic
 * rediscovery either way). */
ww_uevents_t *ww_uevents_open(int *err);

/** The descriptor to poll() for POLLIN; notices are read by
 * ww_uevents_drain. */
int ww_uevents_fd(ww_uevents_t *u);

/** Hand every notice received so far to fn, without waiting. Returns how
 * many, or -errno. */
int ww_uevents_drain(ww_uevents_t *u, ww_uevent_fn fn, void *arg);

void ww_uevents_close(ww_uevents_t *u);

/** Bytes of one set key of ww_drive_sets. */
#define WW_SET_KEY 64

/** The redundancy sets drive d belongs to, from sysfs and udev's database
 * alone (no command): for its block device and each partition, every
 * holder (/sys/block/X/holders, /sys/block/X/XN/holders) and their holders
 * in turn: an md array "md:md0", an LVM device by its volume group
 * "lvm:VGUUID" (dm/uuid "LVM-" + the VG's 32 characters), another dm
 * device "dm:dm-3"; a ZFS pool member (udev's E:ID_FS_TYPE=zfs_member with
 * E:ID_FS_UUID, the pool GUID, in /run/udev/data/bMAJ:MIN) "zfs:GUID".
 * Two drives sharing a key are members of one set. Writes at most max keys,
 * returns how many. */
size_t ww_drive_sets(const char *sysroot, const ww_drive_t *d, char (*out)[WW_SET_KEY], size_t max);

/* Small sysfs readers (discovery, power status, the probe gate). */

/** Join sysroot ("" or "/" for the live system) and an absolute path built
 * from fmt. Returns 0 or -ENAMETOOLONG. */
int ww_sysfs_path(char *buf, size_t len, const char *sysroot, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/** Read a sysfs attribute (one line, trailing whitespace trimmed) into buf.
 * Returns the length or -errno. */
int ww_sysfs_read(const char *path, char *buf, size_t len);

/** Read an attribute again through a descriptor kept open (pread from
 * offset 0), as ww_sysfs_read does. Returns the length or -errno. */
int ww_sysfs_pread(int fd, char *buf, size_t len);

/** Read an attribute as an unsigned decimal. Returns 0 or -errno. */
int ww_sysfs_read_u64(const char *path, uint64_t *v);

#ifdef __cplusplus
}
#endif
#endif
