/* smartctl backend: reads drives the native path cannot reach (MegaRAID,
 * cciss/Smart Array, Areca, 3ware members, USB bridges) by running smartmontools'
 * smartctl as a child process and parsing its JSON (`-j`) with json-c into the
 * same health record the native path fills.
 *
 * Why a child process and not a library: smartmontools has no library API; its
 * per-controller pass-through code (megaraid, cciss, areca, 3ware, jmicron,
 * realtek bridges...) is the product we would otherwise rewrite.
 *
 * The command line is always explicit:
 *     smartctl -j -x -n standby,3 -d TYPE DEVICE
 * -d TYPE because type autodetection itself sends commands that can spin a disk
 * up; -n standby,3 because exit status 2 also means "open failed" and 3 (bits 0
 * and 1 together) cannot be produced otherwise (a command-line error exits
 * before any open).
 *
 * h->backend = "smartctl" on every record this produces. Values smartctl
 * normalised itself name it ("smartctl JSON power_on_time"); values derived by
 * our finish steps from the attributes or logs smartctl relayed keep the
 * native source name ("ATA attribute 187 (raw48)").
 */
#ifndef WW_COLLECT_SMARTCTL_H
#define WW_COLLECT_SMARTCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wearwatch/collect.h"
#include "wearwatch/drive.h"
#include "wearwatch/record.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Exit status that smartctl returns when -n standby,N stopped at a sleeping
 * drive. */
#define WW_SMARTCTL_STANDBY_EXIT 3

/* smartctl(8) "RETURN VALUES": the exit status is a bit mask. */
#define WW_SMARTCTL_BIT_CMDLINE   0x01 /* command line did not parse */
#define WW_SMARTCTL_BIT_OPEN      0x02 /* open failed / low-power mode */
#define WW_SMARTCTL_BIT_CMDFAIL   0x04 /* a SMART/ATA command failed or checksum error */
#define WW_SMARTCTL_BIT_FAILING   0x08 /* SMART status: disk failing */
#define WW_SMARTCTL_BIT_PREFAIL   0x10 /* prefail attribute <= threshold now */
#define WW_SMARTCTL_BIT_PAST      0x20 /* attribute <= threshold in the past */
#define WW_SMARTCTL_BIT_ERRLOG    0x40 /* device error log has records */
#define WW_SMARTCTL_BIT_SELFTEST  0x80 /* self-test log has errors */

/** What the JSON said about the run itself, beside the record. */
typedef struct ww_smartctl_info {
	int exit_status;        /* smartctl.exit_status, -1 when absent */
	int version_major, version_minor; /* smartctl.version, 0 when absent */
	char device_name[64];   /* device.name */
	char device_type[32];   /* device.type ("sat", "megaraid,0", "nvme") */
	char protocol[16];      /* device.protocol ("ATA", "SCSI", "NVMe") */
	bool reached;           /* the JSON describes a device (identity present) */
	bool has_smart;         /* any health data: attributes, NVMe log, SCSI logs, smart_status */
	bool standby;           /* the run stopped at a sleeping drive */
	char message[160];      /* first smartctl.messages[].string, "" if none */
	unsigned n_values;      /* normalised fields set (for reports) */
} ww_smartctl_info_t;

/** Parse one smartctl JSON document (any of smartctl 6.7 to 7.5; every key
 * optional) into h (cleared first). 64-bit integers are read as integers
 * (json_object_get_uint64/int64, or the "_s" / string form), never through
 * double. ATA attribute tables and Device Statistics go into h->ata, the NVMe
 * SMART/Health log into h->nvme_smart, SCSI error counters, temperature,
 * endurance into h->scsi; then the same finish steps as the native path run
 * (ww_ata_finish, ww_nvme_finish, ww_scsi_finish) and smartctl's own
 * normalised keys (temperature.current, power_on_time, power_cycle_count,
 * smart_status.passed) take precedence, because smartctl applies its drive
 * database (attribute 9 in minutes, packed temperatures).
 * info may be NULL. Returns 0, -EINVAL when the text is not a JSON object,
 * -ENODATA when it is JSON but describes no device (smartctl error output). */
int ww_smartctl_parse(const char *json, size_t len, ww_health_t *h,
		      ww_smartctl_info_t *info);

/** Explain an exit status for people: "ok", "standby", or the set bits joined
 * by ", " ("SMART command failed, error log has records"). Returns buf. */
const char *ww_smartctl_exit_explain(int status, char *buf, size_t len);

/* ------------------------------------------------------ running smartctl -- */

/** Program run as smartctl: "smartctl" from PATH unless set (tests point it at
 * a script). NULL restores the default. Not thread-safe; call at start-up. */
void ww_smartctl_set_program(const char *path);

/** Most children running at once (default 3); a read beyond it waits for a
 * slot up to its timeout. Children stuck in the kernel after SIGKILL keep
 * their slot until they are reaped. */
void ww_smartctl_set_max_children(unsigned n);

/** Run `smartctl -j -x -n standby,3 -d TYPE DEV` (or, when argv is non-NULL,
 * smartctl with exactly those arguments after argv[0]), collect stdout up to
 * 4 MiB, wait at most timeout_s. On timeout the child is sent SIGKILL and
 * reaped without blocking (a child in uninterruptible sleep is left for later
 * reaping and keeps its slot). *out is malloc'ed and NUL-terminated (caller
 * frees), *exit_status the child's exit status (-1 when killed).
 * Returns 0, -ETIMEDOUT, -EBUSY (no free slot in time), -ENOENT (program not
 * found), or another -errno. */
int ww_smartctl_run(const char *dev, const char *type, const char *const *argv,
		    int timeout_s, char **out, size_t *out_len, int *exit_status);

/** Reap finished children left over from timed-out runs (WNOHANG). Returns
 * how many are still outstanding. Called by every run; callable anytime. */
unsigned ww_smartctl_reap(void);

/** One device from `smartctl --scan-open -j`. */
typedef struct ww_smartctl_dev {
	char name[64];  /* "/dev/bus/0", "/dev/sda" */
	char type[32];  /* "megaraid,0", "sat", "nvme" */
	char protocol[16];
	char info_name[96];
} ww_smartctl_dev_t;

/** Parse the JSON of `smartctl --scan-open -j` (or --scan). Returns the number
 * of devices written to out (at most max) or -EINVAL. */
int ww_smartctl_scan_parse(const char *json, size_t len, ww_smartctl_dev_t *out,
			   size_t max);

/** Run `smartctl --scan-open -j` and parse it. Returns count or -errno. */
int ww_smartctl_scan(ww_smartctl_dev_t *out, size_t max, int timeout_s);

/* --------------------------------------------------- per-drive config ----- */

/** Force the smartctl backend for a drive. match is a drive id
 * ("ata-...", "wwn-0x..."), a block name ("sda") or a device path
 * ("/dev/sda", "/dev/bus/0"); type is the -d TYPE ("sat", "megaraid,3",
 * "usbjmicron"). Meant for the configuration file reader. Returns 0,
 * -ENOSPC when the table (64 entries) is full, -EINVAL on empty arguments. */
int ww_smartctl_force(const char *match, const char *type);

/** Forget every forced entry. */
void ww_smartctl_force_clear(void);

/** The -d TYPE forced for this drive, or NULL. */
const char *ww_smartctl_forced_type(const ww_drive_t *d);

/** Default -d TYPE for a drive read through smartctl when nothing is forced:
 * "nvme" for NVMe, "sat" for ATA, "scsi" otherwise. */
const char *ww_smartctl_default_type(const ww_drive_t *d);

/** Read one drive through smartctl: run, parse, note the outcome in r (one
 * command "smartctl -d TYPE" with its exit status). d->cmd_path (else
 * dev_path) is the device. Returns 0 when health was read, 1 when the drive
 * was in standby (r->standby set), -ENODATA when smartctl reached the device
 * but it has no SMART ("reached, no SMART"), or -errno. */
int ww_collect_smartctl(const ww_drive_t *d, const char *type, int timeout_s,
			ww_health_t *h, ww_read_report_t *r);

#ifdef __cplusplus
}
#endif
#endif
