/* Collect: reads one drive once. Joins transport (commands) and decode (bytes
 * to record) in the order each protocol needs; runs on worker threads only,
 * never on the HTTP or timer thread.
 *
 * Power rules every reader keeps: the caller has already checked sysfs runtime
 * status (ww_runtime_suspended); the ATA reader sends CHECK POWER MODE first and
 * stops when the drive is in standby. Nothing here writes to a drive.
 */
#ifndef WEARWATCH_COLLECT_H
#define WEARWATCH_COLLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "wearwatch/discover.h"
#include "wearwatch/record.h"
#include "wearwatch/transport.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Append a command outcome to the report and count it. */
void ww_report_cmd(ww_read_report_t *r, const char *what, const ww_cmd_status_t *st);

/** NVMe: the NVMe rows of the decoder registry (wearwatch/decode.h,
 * ww_decoders[]) in their order, each sent when its read-when predicate says
 * so over what was decoded before it: Identify Controller, Identify
 * Namespace for each namespace in d->namespaces, SMART / Health log (02h,
 * NSID FFFFFFFFh), the OCP SMART extended log C0h (every controller; decoded
 * only when its GUID/version match, else noted "unsupported"), the Endurance
 * Group Information log 09h (LSI = first namespace ENDGID, where CTRATT bit
 * 4 is set), the Error Information log (01h, up to 16 entries, ELPE + 1 at
 * most) and, where OACS bit 4 is set, the Device Self-test log (06h). Nothing
 * after 02h is sent when 02h fails. x is the controller.
 * Returns 0 when the SMART log was read, -errno otherwise (report says why). */
int ww_read_nvme(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h, ww_read_report_t *r);

/** ATA through SAT: CHECK POWER MODE (stop if standby: returns 0 with
 * r->standby set), IDENTIFY DEVICE, SMART RETURN STATUS, SMART READ DATA,
 * SMART READ THRESHOLDS, READ LOG EXT of the GP log directory and the Device
 * Statistics pages, then the error and self-test logs (READ LOG EXT 03h/07h
 * where the directory lists them, else SMART READ LOG 01h/06h where the
 * drive says it keeps them). Returns 0 when IDENTIFY succeeded, -errno
 * otherwise. */
int ww_read_ata(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h, ww_read_report_t *r);

/** SCSI: INQUIRY, VPD 0x80/0x83/0xB1, READ CAPACITY(16), LOG SENSE (SP=0,
 * PC=01b) of page 0x00 and every supported page of 0x02, 0x03, 0x05, 0x0D
 * (and 0x0D/0x01), 0x0E, 0x11, 0x15, 0x19, 0x2F. Returns 0 when INQUIRY
 * succeeded, -errno otherwise. */
int ww_read_scsi(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h, ww_read_report_t *r);

/** Ask an SG device whether it is an ATA device behind a SAT layer: standard
 * INQUIRY vendor is "ATA" and VPD page 0x00 lists page 0x89 (ATA Information;
 * scsi_debug lists 0x89 too, so the page alone is not proof). *is_ata set;
 * returns 0 or -errno. */
int ww_scsi_probe_ata(ww_xport_t *x, bool *is_ata);

/** Read one drive on an already open transport (live, capture or replay): the
 * protocol dispatch (SAT probe for SG devices), then identity the device did
 * not report filled from sysfs. h and r are not cleared first. Returns as
 * ww_collect_drive. */
int ww_collect_on_xport(ww_xport_t *x, const ww_drive_t *d, ww_health_t *h,
			ww_read_report_t *r);

/** Open d's command node read-only with the transport its protocol needs
 * (NVMe admin for NVMe; SG_IO for ATA and SCSI). The node is d->cmd_path
 * under sysroot ("" for the live system), so that a test tree never reaches
 * the machine's own devices. Returns 0, -EOPNOTSUPP for a drive with no
 * health interface, or the open's -errno. */
int ww_collect_open(const char *sysroot, const ww_drive_t *d, ww_xport_t *x);

/** The read of a drive with no health interface (d->protocol
 * WW_PROTO_NONE: virtio, USB bridge, ...): nothing is sent and nothing is
 * noted in r; h gets the protocol and what sysfs knew of the identity.
 * Returns -EOPNOTSUPP. ww_collect_drive and a replayed capture of such a
 * drive both end here. */
int ww_collect_no_interface(const ww_drive_t *d, ww_health_t *h, ww_read_report_t *r);

/** Start a self-test of `kind` (ww_selftest_kind_t) on d, whose protocol
 * as its latest read found it is `proto` (a SATA drive behind a SAS HBA is
 * ATA). The scheduler's one call (src/sched/selftest_sched.c); nothing else
 * sends the self-test class. Right before the start it reads again: the
 * runtime power status (suspended: left alone), ATA CHECK POWER MODE
 * (standby: left alone unless wake), and whether a test runs now (ATA SMART
 * READ DATA byte 363, NVMe log 06h, SCSI page 0x10), then arms the
 * transport and sends SMART EXECUTE OFF-LINE IMMEDIATE (off-line mode),
 * NVMe Device Self-test (NSID FFFFFFFFh) or SEND DIAGNOSTIC (background).
 * A drive read through smartctl (a RAID member, `[drive] smartctl`) starts
 * it through a smartctl child instead (ww_collect_start_via_smartctl).
 * A selective test (WW_STK_SELECTIVE, ATA only, when SMART READ DATA byte
 * 367 bit 6 says the drive does them) reads `span` (NULL for other kinds):
 * the Selective self-test log 09h is read (SMART READ LOG), written back
 * with span 1 = *span (ww_ata_selective_log_build, SMART WRITE LOG) and the
 * test started with subcommand 04h; a failed write starts nothing.
 * Returns 0 started, 1 left alone, -EBUSY a test runs, -ENOTSUP the drive
 * does not do that kind, -EOPNOTSUPP a capture, -EINVAL a selective test
 * without a span, or the failing command's -errno; *why says which in a
 * few words (static), st holds the last command's status. */
int ww_collect_start_self_test(const char *sysroot, const ww_drive_t *d, ww_protocol_t proto,
			       unsigned kind, const ww_selftest_span_t *span, bool wake,
			       ww_cmd_status_t *st, const char **why);

/** The same on an open transport (tests: a fake device). */
int ww_collect_start_on_xport(ww_xport_t *x, ww_protocol_t proto, unsigned kind,
			      const ww_selftest_span_t *span, bool wake, ww_cmd_status_t *st,
			      const char **why);

/** Read one drive once: checks runtime status, opens the right transport
 * read-only, dispatches by protocol, closes. Returns 0, 1 when the drive was
 * left alone because it is runtime-suspended or in standby, -EOPNOTSUPP for
 * a drive with no health interface (ww_collect_no_interface), or -errno.
 * sysroot is "" for the live system. */
int ww_collect_drive(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
		     ww_read_report_t *r);

/** What a long-running reader keeps open for one drive between its reads:
 * the command node (an open transport) and the runtime_status attribute, so
 * a poll is the power check's pread and the device commands, with no path
 * lookup. Zero it (ww_collect_keep_init) before the first read; close it
 * when the drive goes away or its nodes changed. */
typedef struct ww_collect_keep {
	ww_xport_t x;                                         /* x.fd < 0: not open */
	char node[sizeof(((ww_drive_t *)0)->cmd_path) + 256]; /* what x was opened on */
	int pm_fd;                                            /* runtime_status, < 0: not open */
	char pm_block[32]; /* the block device pm_fd belongs to */
	unsigned opens;    /* nodes and attributes opened so far */
} ww_collect_keep_t;

void ww_collect_keep_init(ww_collect_keep_t *k);
void ww_collect_keep_close(ww_collect_keep_t *k);

/** ww_collect_drive on what k keeps open: opened at the first read, again
 * when d's command node or block device is no longer the one k holds, and
 * after a read that said the device is gone (ENODEV, ENXIO, EBADF on the
 * node or the attribute). Same returns as ww_collect_drive. */
int ww_collect_drive_kept(const char *sysroot, const ww_drive_t *d, ww_collect_keep_t *k,
			  ww_health_t *h, ww_read_report_t *r);

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

/** Exit status that smartctl returns when -n standby,N stopped at a sleeping
 * drive. */
#define WW_SMARTCTL_STANDBY_EXIT 3

/** Deadline of one smartctl read of a drive (and of a self-test start), s. */
#define WW_SMARTCTL_READ_TIMEOUT_S 60

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
	bool smartctl_json;     /* a top-level "smartctl" object with "version" or
				   "exit_status": smartctl wrote it (not
				   nvme-cli's or another tool's JSON) */
	bool device_list;       /* a top-level "devices" array and no "device":
				   `smartctl --scan -j` output, no drive's */
	unsigned n_values;      /* normalised fields set (for reports) */
	time_t local_time;      /* local_time.time_t: when smartctl ran (UTC
				   seconds); 0 when absent or not positive */
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
 * The exit status (smartctl.exit_status) is kept in h->smartctl_exit; bit 3
 * (SMART status failing) sets smart_status FAILED when the JSON has no
 * smart_status. info may be NULL. Returns 0, -EINVAL when the text is not a
 * JSON object, -ENODATA when it is JSON but describes no device (smartctl
 * error output), -EIO when the exit status makes the read a failure (bit 0
 * or 1, ww_smartctl_read_class; h holds what the JSON had, info says why). */
int ww_smartctl_parse(const char *json, size_t len, ww_health_t *h,
		      ww_smartctl_info_t *info);

/** What a smartctl exit status makes of a read (smartctl(8) RETURN VALUES):
 * bit 0 (command line) or 1 (device open failed, no IDENTIFY, low-power
 * mode) make it a failure: nothing in the JSON is health data; bit 2 (a
 * SMART or other command failed, or a checksum was wrong) makes it
 * partial: the data that came is kept and the report names why; bits 3-7
 * are facts about the drive, carried in the record. A run of ours with
 * `-n standby,3` that exits 3 is standby, not a failure (standby_run). */
typedef enum ww_smartctl_read {
	WW_SMARTCTL_READ_OK = 0,
	WW_SMARTCTL_READ_PARTIAL,
	WW_SMARTCTL_READ_FAILED,
} ww_smartctl_read_t;

ww_smartctl_read_t ww_smartctl_read_class(int exit_status, bool standby_run);

/** The report's reason for a partial read (exit status bit 2). */
#define WW_SMARTCTL_PARTIAL_WHY \
	"smartctl exit status bit 2: a SMART or other command failed, or a checksum was wrong"

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

/** Parse the JSON of `smartctl --scan-open -j` (or --scan): every entry of
 * "devices" that has a name, in order, into *out (malloc'd, the caller
 * frees it, also when 0 are returned). Returns their number, -EINVAL (not
 * a JSON object) or -ENOMEM. */
int ww_smartctl_scan_parse(const char *json, size_t len, ww_smartctl_dev_t **out);


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

/* RAID members through the smartctl backend (the native path cannot reach
 * them behind a RAID controller): discovery of the
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

/** Turn one scanned device into a drive: id "smartctl-bus_0-megaraid_0"
 * (the name without "/dev/", '/' and ',' as '_'), dev_path = cmd_path = the
 * name, smartctl_type = the type, protocol from the scan's protocol ("SCSI",
 * "ATA", "NVMe"; SCSI when absent), transport unknown, no block device.
 * Returns 0, or -EINVAL when the entry has no name or type. Pure. */
int ww_smartctl_member_drive(const ww_smartctl_dev_t *s, ww_drive_t *d);

/** True when SYSROOT/sys/class/scsi_host/host* has a controller whose members
 * only smartctl reaches (proc_name "megaraid_sas"). */
bool ww_smartctl_raid_present(const char *sysroot);

/** RAID members from `smartctl --scan -j -d scsi` (see above) into *out
 * (malloc'd, the caller frees it). A scan that lists members is kept for
 * rescan_s seconds (the poller rediscovers every poll interval; members
 * change rarely); one that lists none (a controller just loaded) is not. Returns the count (with *out set), 0 when no controller is present
 * or smartctl is missing (*out then untouched), or -errno. */
int ww_smartctl_members_discover(const char *sysroot, ww_drive_t **out, unsigned rescan_s);

/** True when d, a drive of ww_discover_all(), is a block device of a
 * controller whose members m[0..k) (ww_smartctl_members_discover()) list:
 * its sysfs path is under SCSI host H and a member is "/dev/bus/H". Such a
 * /dev/sdX is a logical volume of the MegaRAID controller, or a pass-through
 * disk that is also one of the members; the members are the physical
 * drives. A drive forced to smartctl is never one. Pure. */
bool ww_smartctl_member_volume(const ww_drive_t *d, const ww_drive_t *m, int k);

/** ww_discover_all() plus the RAID members (the service's discover hook, a
 * ww_discover_fn): every drive into *out (malloc'd, the caller frees it),
 * without the controller's own block devices when its members are listed
 * (ww_smartctl_member_volume());
 * drives forced to smartctl (ww_smartctl_force) carry their type in
 * smartctl_type, and one discovery found no health interface for gets the
 * protocol of ww_smartctl_type_protocol() (no_health_reason NULL), so it is
 * read like any other. Returns the count or -errno. */
int ww_discover_with_members(const char *sysroot, const char *const *include,
			     ww_drive_t **out);

/** Read a drive through smartctl: d->smartctl_type, else the forced type
 * (ww_smartctl_force). A drive with a block device that is runtime-suspended
 * is left alone (returns 1, like the native path). "Reached, no SMART"
 * (smartctl describes the device but it reports no health data) returns 0
 * with the identity filled and h->no_smart set. Otherwise as
 * ww_collect_smartctl(). Timeout 60 s. */
int ww_collect_via_smartctl(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
			    ww_read_report_t *r);

/** The command set smartctl -d TYPE speaks to a drive (smartctl(8) 7.3):
 * WW_PROTO_NVME for nvme and snt*, WW_PROTO_SCSI for scsi, megaraid,
 * aacraid, cciss and auto, WW_PROTO_ATA for the rest (sat, ata, usb*, ATA
 * RAID controllers); WW_PROTO_NONE for NULL or "". A drive discovery found
 * no health interface for gets it when forced to smartctl. Pure. */
ww_protocol_t ww_smartctl_type_protocol(const char *type);

/** The controller a drive read through smartctl sits behind, as a set key
 * (discover.h WW_SET_KEY) for the self-test stagger: "host:N" for a node
 * /dev/bus/N (smartctl's MegaRAID device) or a sysfs path under SCSI host
 * N, else "ctl:NODE" for a type with a member index (cciss,N, areca,N) on
 * NODE. false for a native drive or one with neither. Pure. */
bool ww_smartctl_controller_key(const ww_drive_t *d, char *out, size_t len);

/** Start a self-test of `kind` through a smartctl child (see
 * ww_collect_start_self_test, which calls it for drives read through
 * smartctl). First the read every poll makes (`smartctl -j -x -n
 * standby,3 -d TYPE DEV`): standby there leaves the drive alone unless
 * wake, a running test (the fields ww_smartctl_parse fills) returns
 * -EBUSY, a kind the drive does not run -ENOTSUP; then `smartctl -n
 * standby,3 -t TEST -d TYPE DEV` (`-n never` with wake), TEST from the
 * smartctl self-test allow-list (src/collect/smartctl_selftest.c: short,
 * long, conveyance, offline; never force, -X or captive -C). st notes the
 * last child's outcome (WW_CMD_OK, DEVICE_ERROR, TIMEOUT). Returns as
 * ww_collect_start_self_test. */
int ww_collect_start_via_smartctl(const char *sysroot, const ww_drive_t *d, ww_protocol_t proto,
				  unsigned kind, bool wake, ww_cmd_status_t *st, const char **why);

/** The -d TYPE a drive is read with through smartctl, or NULL when it is
 * read natively. */
const char *ww_smartctl_type_for(const ww_drive_t *d);

/* Capture a drive to a file and read it back (docs/capture-format.md).
 *
 * A capture file is the transport log of src/transport/capture.h preceded by
 * "fact KEY VALUE" lines holding what discovery knew about the drive (the
 * ww_drive_t fields, one per line) and its sysfs runtime power status, so a
 * replayed drive goes through the same reader and decoders as the live one. */

/** Capture drive d into DIR/<id>.capture (DIR is created when its parent
 * exists; id with '/' replaced; redacted when `redact`: the serial from
 * sysfs and from the first read is replaced by 'X' in facts, id and
 * recorded bytes). Read-only: the same commands as a normal read, nothing
 * else; a runtime-suspended drive gets facts only. The file is created
 * before any command is sent. Writes the file path to path_out (>= 512
 * bytes) when non-NULL. *write_err (when non-NULL) is 0, or -errno when the
 * file could not be created or written (then nothing is sent, or the broken
 * file is removed). Returns what the read returned (0, 1
 * standby/suspended, -errno), or *write_err when the file could not be
 * created. */
int ww_capture_drive(const char *sysroot, const ww_drive_t *d, const char *dir,
		     bool redact, char *path_out, int *write_err, ww_health_t *h,
		     ww_read_report_t *r);

/** Load the facts of a capture file into d (no_health_reason, when the
 * capture has one, points to a copy kept for the life of the process).
 * Returns 0, -ENOENT, -EINVAL. */
int ww_replay_load_drive(const char *file, ww_drive_t *d);

/** Read a captured drive through the replay transport. Returns as
 * ww_collect_drive (1 when recorded runtime-suspended or in standby,
 * -EOPNOTSUPP when recorded with no health interface);
 * h->backend = "replay". */
int ww_replay_collect(const char *file, const ww_drive_t *d, ww_health_t *h,
		      ww_read_report_t *r);

/* --- serve --replay: poller hooks (ww_discover_fn / ww_collect_fn) --- */

/** Register the *.capture files of dir and of its subdirectories, three
 * levels down (or dir itself when it is a file); other files, and captures
 * with a malformed block (the whole file is read here), are skipped and
 * told to the skip hook. Returns how many were added (no limit), 0 when
 * none, or -errno (-EINVAL: a file that is not a capture). */
int ww_replay_add(const char *dir);

/** Told about each file ww_replay_add skips: its path and why ("not a
 * *.capture file", "line 4: not a capture block ..."). NULL: not told. */
typedef void (*ww_replay_skip_fn)(const char *path, const char *why);
void ww_replay_set_skip_hook(ww_replay_skip_fn fn);

/** ww_discover_fn: the registered captures as drives into *out (malloc'd,
 * the caller frees it; sysroot, include ignored). Returns the count or
 * -ENOMEM. */
int ww_replay_discover(const char *sysroot, const char *const *include, ww_drive_t **out);

/** The capture file a registered drive id is read from (a path as
 * ww_replay_add found it), or NULL. */
const char *ww_replay_file(const char *id);

/** Whether the capture of drive `id` is taken as unchanged while its
 * directory's inotify watch gives no notice (no stat per read): its last
 * look found a plain file with one name, on a local filesystem, watched.
 * False for an unknown id. For tests and diagnostics. */
bool ww_replay_trusts_notices(const char *id);

/** ww_collect_fn: reads a registered drive from its capture. -ENOENT when d
 * is not a registered capture. */
int ww_replay_collect_fn(const char *sysroot, const ww_drive_t *d,
			 ww_health_t *h, ww_read_report_t *r);

/* libatasmart blobs ("skdump --save" files) as a recorded ATA drive.
 *
 * Format (libatasmart 0.19 atasmart.c, sk_disk_get_blob/sk_disk_set_blob): a
 * sequence of records tag[4] size[4] data[size], tag and size big-endian:
 *   'IDFY' 512 B IDENTIFY DEVICE data
 *   'SMST' 4 B big-endian, nonzero = SMART RETURN STATUS good
 *   'SMDT' 512 B SMART READ DATA
 *   'SMTH' 512 B SMART READ THRESHOLDS
 */

#define WW_ATA_BLOB_IDFY 0x49444659u /* 'IDFY' */
#define WW_ATA_BLOB_SMST 0x534d5354u /* 'SMST' */
#define WW_ATA_BLOB_SMDT 0x534d4454u /* 'SMDT' */
#define WW_ATA_BLOB_SMTH 0x534d5448u /* 'SMTH' */

/** The sectors a blob carries (pointers into the blob; NULL when absent). */
typedef struct ww_ata_blob {
	const uint8_t *identify, *smart_data, *smart_thresholds;
	int smart_status; /* -1 absent, 0 bad, 1 good */
} ww_ata_blob_t;

/** Split a blob into its records. Unknown tags are skipped. Returns 0,
 * -EMSGSIZE when a record runs past the end, -EINVAL when a known record has
 * the wrong size or IDFY is missing. */
int ww_ata_blob_parse(const uint8_t *blob, size_t len, ww_ata_blob_t *out);

/** Load a blob into h through the ATA decoders (identify, SMART data, then
 * thresholds, SMST as SMART RETURN STATUS), then ww_ata_finish(). h is
 * cleared first. Returns 0 or the first -errno of parse/decoders. */
int ww_ata_blob_load(const uint8_t *blob, size_t len, ww_health_t *h);

/** Ask libatasmart whether it accepts the blob (sk_disk_open(NULL) +
 * sk_disk_set_blob). Returns 0 or -errno. A validation aid and test
 * cross-check only: libatasmart 0.19 cannot be the live path because it sends
 * every pass-through with CK_COND=1 (QEMU's AHCI disk aborts IDENTIFY that
 * way), understands only one sense format, sends IDENTIFY before any power
 * check (waking a standby drive), and has no GP log / Device Statistics
 * support; on QEMU's AHCI disk skdump says "ATA SMART not supported" where
 * smartctl works. */
int ww_ata_blob_validate(const uint8_t *blob, size_t len);

/* smartctl `-r ioctl,2` traces (what users attach to smartmontools tickets)
 * as a recorded ATA drive.
 *
 * Format (smartmontools 7.x, ata_cmd_io / dumpdata in atacmds.cpp): each data
 * transfer is printed between
 *     ===== [COMMAND NAME] DATA START (BASE-16) =====
 *     000-015: 7a 42 ff 3f ... |zB.?...|
 *     ===== [COMMAND NAME] DATA END (512 Bytes) =====
 * with 16 bytes per line after "NNN-NNN:" and an ASCII column after '|'.
 * Command names used: IDENTIFY DEVICE, SMART READ ATTRIBUTE VALUES, SMART READ
 * ATTRIBUTE THRESHOLDS. */

/** Extract the data block of command `name` (e.g. "IDENTIFY DEVICE") into out
 * (at most max bytes). Returns the byte count, -ENOENT when the trace has no
 * such block, -EINVAL on a malformed line. */
int ww_ioctl_trace_block(const char *text, size_t len, const char *name,
			 uint8_t *out, size_t max);

/** Load a trace into h (cleared first) through the ATA decoders: IDENTIFY,
 * SMART READ DATA, SMART READ THRESHOLDS when present, then ww_ata_finish().
 * Returns 0, -ENOENT without an IDENTIFY block, or a decoder's -errno. */
int ww_ioctl_trace_load(const char *text, size_t len, ww_health_t *h);

#ifdef __cplusplus
}
#endif
#endif
