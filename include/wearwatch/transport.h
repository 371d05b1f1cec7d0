/* Transport: sends one command to a device and returns the bytes that arrived
 * plus a classified status. No decoding, no logging above debug.
 *
 * A ww_xport is a small vtable so that live devices (SG_IO through libsgutils2,
 * NVMe admin ioctls, linux/nvme_ioctl.h) and recorded ones (replay) share the same
 * read path. Every operation but one is a read: nothing here can send a
 * write, LOG SELECT, MODE SELECT or SMART ENABLE; the SAT layer only builds
 * the ATA commands listed below (SAT section). The exception is its own
 * class: starting a self-test (ww_xport_ops.self_test / self_test_out /
 * nvme_self_test, their own allow-lists, and refused with -EPERM unless the
 * caller armed the transport with ww_xport_arm_self_test(); the reads never
 * do). Its one data-out command is SMART WRITE LOG of the ATA Selective
 * self-test log 09h, which names the span a selective self-test reads.
 */
#ifndef WEARWATCH_TRANSPORT_H
#define WEARWATCH_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wearwatch/record.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Everything known about how one command ended. */
typedef struct ww_cmd_status {
	ww_cmd_result_t result;
	int os_errno;           /* positive errno when result == WW_CMD_OS_ERROR */
	uint8_t scsi_status;    /* SAM status byte */
	uint8_t sense[64];
	size_t sense_len;
	uint8_t sense_key, asc, ascq;
	uint16_t nvme_status;   /* NVMe completion status field (SCT<<8|SC) */
	uint32_t nvme_result;   /* completion dword 0 */
	size_t data_len;        /* bytes that actually arrived (request - residual) */
	uint64_t duration_ns;
} ww_cmd_status_t;

typedef struct ww_xport ww_xport_t;

/** Operations a transport offers. Each returns 0 when the command was issued
 * (look at st->result for its outcome) or a negative errno when it could not
 * be issued at all. buf receives at most len bytes; st->data_len says how many
 * are valid. */
typedef struct ww_xport_ops {
	/** SCSI command with data-in (or none when len == 0), through SG_IO. */
	int (*scsi_in)(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len,
		       uint8_t *buf, size_t len, int timeout_s,
		       ww_cmd_status_t *st);
	/** NVMe Identify (CNS, NSID) into a 4096-byte buffer. */
	int (*nvme_identify)(ww_xport_t *x, uint8_t cns, uint32_t nsid,
			     uint8_t *buf, size_t len, ww_cmd_status_t *st);
	/** NVMe Get Log Page (LID, NSID, LSP=0, RAE=1) of len bytes. */
	int (*nvme_get_log)(ww_xport_t *x, uint8_t lid, uint32_t nsid,
			    uint8_t *buf, size_t len, ww_cmd_status_t *st);
	void (*close)(ww_xport_t *x);
	/** NVMe Get Log Page with a Log Specific Identifier (CDW11 bits 31:16),
	 * e.g. the Endurance Group Information log 09h for ENDGID lsi. NULL on
	 * transports that cannot send it (the reader records "unsupported"). */
	int (*nvme_get_log_lsi)(ww_xport_t *x, uint8_t lid, uint32_t nsid, uint16_t lsi,
				uint8_t *buf, size_t len, ww_cmd_status_t *st);
	/** The self-test class: a non-data SCSI CDB that starts a self-test
	 * (SEND DIAGNOSTIC background short/extended, or ATA PASS-THROUGH(16)
	 * SMART EXECUTE OFF-LINE IMMEDIATE in off-line mode), checked against
	 * its own allow-list. NULL where a transport cannot send it. -EPERM
	 * unless armed, or for anything else. */
	int (*self_test)(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len, ww_cmd_status_t *st);
	/** NVMe Device Self-test (admin 14h) with Self-test Code stc (1h
	 * short, 2h extended only) on nsid. NULL where not sent; -EPERM unless
	 * armed or for another code. */
	int (*nvme_self_test)(ww_xport_t *x, uint32_t nsid, uint8_t stc, ww_cmd_status_t *st);
	/** The self-test class's one data-out command: ATA PASS-THROUGH(16)
	 * PIO data-out SMART WRITE LOG of log 09h (Selective self-test log),
	 * one sector: len 512 bytes from buf. NULL where not sent; -EPERM
	 * unless armed, or for anything else. */
	int (*self_test_out)(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len, const uint8_t *buf,
			     size_t len, ww_cmd_status_t *st);
} ww_xport_ops_t;

struct ww_xport {
	const ww_xport_ops_t *ops;
	int fd;                /* live transports; -1 otherwise */
	char path[256];
	void *priv;            /* backend data (replay, capture) */
	bool self_test_armed;  /* ww_xport_arm_self_test(): the self-test
				  class may be sent on this one */
};

/** Let this transport send the self-test class (its ops still hold the
 * command to their allow-list). Only the scheduler's start of a configured
 * test calls it (collect's ww_collect_start_self_test). */
void ww_xport_arm_self_test(ww_xport_t *x);

/** Open a live SG_IO transport on an sd/sg/bsg node, read-only (O_RDONLY |
 * O_NONBLOCK; SG_IO needs no write access). Returns 0 or -errno (-EPERM on this
 * machine's /dev/vda, -ENOENT, -EACCES). */
int ww_xport_open_sg(const char *path, ww_xport_t *out);

/** Open a live NVMe transport on a controller (/dev/nvme0) or namespace node,
 * read-only. Returns 0 or -errno. */
int ww_xport_open_nvme(const char *path, ww_xport_t *out);

/** Fill *st for a command that could not be issued at all (rc is the
 * operation's -errno): "unsupported" for -ENOTSUP (the backend has no such
 * operation, a replay never recorded it), else an OS error carrying -rc. */
void ww_cmd_status_not_issued(ww_cmd_status_t *st, int rc);

/** The negative errno a reader returns for a finished command: 0 when data
 * came (ok, recovered), -ENOTSUP unsupported, -ETIMEDOUT, the OS error's
 * errno (else -EIO), -EIO for device and transport errors. */
int ww_cmd_errno(const ww_cmd_status_t *st);

/** Close and release. Safe on a zeroed struct. */
void ww_xport_close(ww_xport_t *x);

/* SG_IO transport internals shared with tests: sense parsing and the
 * classification of a finished command into ww_cmd_result_t. Pure functions;
 * the live transport itself is ww_xport_open_sg() in transport.h. */

/** Sense key, ASC and ASCQ of fixed (response code 70h/71h: byte 2 bits 3-0,
 * bytes 12, 13) or descriptor (72h/73h: byte 1 bits 3-0, bytes 2, 3) sense
 * data (SPC-5 sense data formats). *ata_status is the ATA STATUS of an ATA Status Return
 * descriptor (09h, byte 13; SAT-4) or of fixed-format ATA PASS THROUGH
 * INFORMATION AVAILABLE sense (ASC/ASCQ 00h/1Dh, INFORMATION byte 4 = sense
 * byte 4), else -1. Returns 0, -EMSGSIZE when too short for its format,
 * -EINVAL for an unknown response code. Outputs are zeroed on error. */
int ww_sg_parse_sense(const uint8_t *sense, size_t len, uint8_t *key,
		      uint8_t *asc, uint8_t *ascq, int *ata_status);

/** How an SG_IO command ended, as the pass-through layer reports it. */
typedef struct ww_sg_outcome {
	int os_err;            /* errno of open/ioctl, 0 if none */
	bool timed_out;        /* do_scsi_pt() said SCSI_PT_DO_TIMEOUT */
	int host_status;       /* Linux host byte (DID_*), 0 = ok */
	bool driver_error;     /* driver byte other than DRIVER_SENSE */
	uint8_t scsi_status;   /* SAM status */
} ww_sg_outcome_t;

/** Classify: fills st->result, os_errno, scsi_status, sense_key/asc/ascq from
 * `o` and the raw sense already in st->sense/st->sense_len. Order: OS error
 * (ETIMEDOUT -> TIMEOUT; ENOTTY/EOPNOTSUPP/ENOSYS -> UNSUPPORTED; else
 * OS_ERROR), timeout (do_scsi_pt, DID_TIME_OUT = 03h) -> TIMEOUT, other host
 * or driver status -> TRANSPORT_ERROR, then SCSI status and sense:
 * ILLEGAL REQUEST with ASC 20h (invalid opcode) or 24h (invalid field in CDB)
 * -> UNSUPPORTED; RECOVERED ERROR, NO SENSE, or an ATA status return whose
 * status has neither ERR (bit 0) nor DF (bit 5) -> RECOVERED; other CHECK
 * CONDITION or a status other than GOOD/CONDITION MET -> DEVICE_ERROR. */
void ww_sg_classify(const ww_sg_outcome_t *o, ww_cmd_status_t *st);

/* SAT ATA PASS-THROUGH(16) (SAT-4, T10/BSR INCITS 491, 12.2.2; CDB opcode 85h)
 * on top of ww_xport_ops.scsi_in. Only these read-only ATA commands can be
 * built here: CHECK POWER MODE (E5h), IDENTIFY DEVICE (ECh), SMART READ DATA
 * (B0h/D0h), SMART READ THRESHOLDS (B0h/D1h), SMART READ LOG (B0h/D5h),
 * SMART RETURN STATUS (B0h/DAh) and READ LOG EXT (2Fh). Nothing here can
 * enable, disable or write anything (not SMART WRITE LOG D6h); SMART
 * EXECUTE OFF-LINE IMMEDIATE (D4h) and SMART WRITE LOG of the Selective
 * self-test log 09h are the self-test class's own builders,
 * ww_sat_build_selftest_cdb() and ww_sat_build_selftest_log_cdb(), sent only
 * on an armed transport.
 *
 * Every command function returns 0 when the command was issued and completed
 * (its output is valid), or a negative errno:
 *   -ENOTSUP  the SATL or the drive refused it (INVALID OPCODE/FIELD, or ATA
 *             status ERR with error ABRT); st->result is WW_CMD_UNSUPPORTED
 *   -EIO      the command ended in another error; st says how
 *   -ENODATA  a non-data command completed but no ATA registers came back
 *   other     the transport could not issue it (scsi_in's own -errno)
 * st is always filled when the transport was reached.
 */

#define WW_SAT_CDB_LEN 16
#define WW_SAT_OPCODE 0x85

/* ATA commands and SMART features this layer sends */
#define WW_ATA_CHECK_POWER_MODE 0xe5
#define WW_ATA_IDENTIFY 0xec
#define WW_ATA_SMART 0xb0
#define WW_ATA_READ_LOG_EXT 0x2f
#define WW_SMART_READ_DATA 0xd0
#define WW_SMART_READ_THRESHOLDS 0xd1
#define WW_SMART_READ_LOG 0xd5
#define WW_SMART_RETURN_STATUS 0xda
#define WW_SMART_EXECUTE_OFFLINE 0xd4 /* the self-test class only */
#define WW_SMART_WRITE_LOG 0xd6       /* the self-test class only: log 09h */
#define WW_ATA_LOG_SELECTIVE 0x09     /* SMART log address: Selective self-test log */

/* SMART EXECUTE OFF-LINE IMMEDIATE subcommands (LBA 7:0; ACS-4 Table
 * "Off-line mode and captive mode subcommands"): off-line mode only, so the
 * drive keeps answering while it tests; never captive (81h-84h) or abort
 * (7Fh) */
#define WW_ATA_ST_OFFLINE 0x00
#define WW_ATA_ST_SHORT 0x01
#define WW_ATA_ST_EXTENDED 0x02
#define WW_ATA_ST_CONVEYANCE 0x03
#define WW_ATA_ST_SELECTIVE 0x04 /* the spans of log 09h */

/* Power mode (CHECK POWER MODE count register, ACS-4 7.3) */
#define WW_ATA_PM_STANDBY 0x00
#define WW_ATA_PM_STANDBY_Y 0x01
#define WW_ATA_PM_NV_STANDBY 0x40 /* ATA8-ACS: NV cache mode, spindle down */
#define WW_ATA_PM_IDLE 0x80
#define WW_ATA_PM_ACTIVE_IDLE 0xff

/** ATA registers returned by a SATL (the ATA Status Return descriptor or the
 * fixed-format equivalent). count/lba hold all bits the format carries: 16/48
 * in descriptor format with EXTEND, 8/24 in fixed format (where only the
 * "upper nonzero" flags tell about the rest). */
typedef struct ww_ata_regs {
	uint8_t error, status, device;
	uint16_t count;
	uint64_t lba;
	bool extend;
	bool count_upper_nonzero, lba_upper_nonzero; /* fixed format only */
	bool fixed_format;
} ww_ata_regs_t;

/** Parse the ATA return registers from sense data. Pure.
 *  - Descriptor format (response code 72h/73h): the ATA Status Return
 *    descriptor (code 09h, additional length 0Ch; SAT-4 12.2.2.6): byte 2 bit 0
 *    EXTEND, 3 ERROR, 4/5 COUNT 15:8/7:0, 6/7 LBA 31:24/7:0, 8/9 LBA 39:32/15:8,
 *    10/11 LBA 47:40/23:16, 12 DEVICE, 13 STATUS.
 *  - Fixed format (70h/71h; SAT-4 "ATA PASS-THROUGH fixed format sense data"):
 *    INFORMATION bytes 3-6 = ERROR, STATUS, DEVICE, COUNT 7:0; COMMAND-SPECIFIC
 *    bytes 8-11 = flags (bit 7 EXTEND, bit 6 COUNT UPPER NONZERO, bit 5 LBA
 *    UPPER NONZERO), LBA 7:0, 15:8, 23:16. Taken only when ASC/ASCQ is 00h/1Dh
 *    (ATA PASS THROUGH INFORMATION AVAILABLE) or the sense key is ABORTED
 *    COMMAND (how libata reports a failed pass-through command).
 * Returns 0, -ENOENT when the sense carries no ATA registers, -EMSGSIZE when
 * it is cut short, -EINVAL on NULL. */
int ww_sat_parse_sense(const uint8_t *sense, size_t len, ww_ata_regs_t *regs);

/** The ATA commands the read path may send (the one list: the builder below
 * and sg.c's CDB guard both ask it): CHECK POWER MODE, IDENTIFY DEVICE and
 * READ LOG EXT with feature 0; SMART (B0h) READ DATA, READ THRESHOLDS, READ
 * LOG and RETURN STATUS. Pure; true when (command, feature) is one of them. */
bool ww_sat_read_allowed(uint8_t command, uint8_t feature);

/** Build an ATA PASS-THROUGH(16) CDB. Pure. The protocol follows from the
 * command: 3 (non-data) for CHECK POWER MODE and SMART RETURN STATUS, 4 (PIO
 * data-in) otherwise, whose transfer is count x 512 bytes (T_DIR=1,
 * BYTE_BLOCK=1, T_LENGTH=2: length in the COUNT field). LBA bytes: CDB 8/10/12
 * = LBA 7:0/15:8/23:16, 7/9/11 = LBA 31:24/39:32/47:40. Only the commands
 * ww_sat_read_allowed() lets through: -EPERM for any other, else 0. */
int ww_sat_build_cdb(uint8_t cdb[WW_SAT_CDB_LEN], uint8_t command, uint8_t feature,
		     uint16_t count, uint64_t lba, bool extend, bool ck_cond);

/** The self-test class: ATA PASS-THROUGH(16) of SMART EXECUTE OFF-LINE
 * IMMEDIATE (B0h/D4h, non-data, LBA mid/high 4Fh/C2h, LBA low = one of the
 * WW_ATA_ST_* subcommands). Pure. -EPERM for any other subcommand. */
int ww_sat_build_selftest_cdb(uint8_t cdb[WW_SAT_CDB_LEN], uint8_t subcommand);

/** Send it on an armed transport (ww_xport_arm_self_test); the return as
 * the command functions below. */
int ww_sat_start_self_test(ww_xport_t *x, uint8_t subcommand, ww_cmd_status_t *st);

/** The self-test class's data-out command: ATA PASS-THROUGH(16) of SMART
 * WRITE LOG (B0h/D6h, PIO data-out, COUNT 1 sector, LBA low = log, LBA
 * mid/high 4Fh/C2h; ACS-4 "SMART WRITE LOG"). Pure. -EPERM for any log but
 * WW_ATA_LOG_SELECTIVE. */
int ww_sat_build_selftest_log_cdb(uint8_t cdb[WW_SAT_CDB_LEN], uint8_t log);

/** Write buf (512 bytes: a whole Selective self-test log, checksum in byte
 * 511) to log 09h on an armed transport, through ops->self_test_out; the
 * return as the command functions below (-ENODEV without the op). */
int ww_sat_write_selective_log(ww_xport_t *x, const uint8_t buf[512], ww_cmd_status_t *st);

/** CHECK POWER MODE (non-data, CK_COND=1). *mode = count register (see
 * WW_ATA_PM_*). */
int ww_sat_check_power_mode(ww_xport_t *x, uint8_t *mode, ww_cmd_status_t *st);

/** True for the power modes the reader must not disturb (00h, 01h, 40h). */
bool ww_sat_power_mode_is_standby(uint8_t mode);

/** IDENTIFY DEVICE (PIO data-in, CK_COND=0: QEMU's AHCI disk aborts it with
 * CK_COND=1) into buf[512]. */
int ww_sat_identify(ww_xport_t *x, uint8_t buf[512], ww_cmd_status_t *st);

/** SMART READ DATA (B0h/D0h, LBA mid/high 4Fh/C2h) into buf[512]. */
int ww_sat_smart_read_data(ww_xport_t *x, uint8_t buf[512], ww_cmd_status_t *st);

/** SMART READ THRESHOLDS (B0h/D1h) into buf[512]. */
int ww_sat_smart_read_thresholds(ww_xport_t *x, uint8_t buf[512], ww_cmd_status_t *st);

/** SMART READ LOG (B0h/D5h, LBA low = log address, one 512-byte sector,
 * LBA mid/high 4Fh/C2h) of SMART log `log` (01h summary error log, 06h
 * self-test log) into buf[512]. */
int ww_sat_smart_read_log(ww_xport_t *x, uint8_t log, uint8_t buf[512], ww_cmd_status_t *st);

/** SMART RETURN STATUS (B0h/DAh, non-data, CK_COND=1) into *regs: the
 * verdict is in LBA 23:8 (ww_decode_ata_smart_status in decode). -ENODATA
 * when the command completed without returning registers. */
int ww_sat_smart_return_status(ww_xport_t *x, ww_ata_regs_t *regs, ww_cmd_status_t *st);

/** READ LOG EXT (2Fh, PIO data-in, 48-bit) of `pages` 512-byte pages of log
 * address `log` starting at `page` into buf (len >= pages x 512). */
int ww_sat_read_log_ext(ww_xport_t *x, uint8_t log, uint16_t page, uint16_t pages,
			uint8_t *buf, size_t len, ww_cmd_status_t *st);

/* Capture and replay at the transport boundary (docs/capture-format.md).
 *
 * A capture file is text, one command per block, so that two captures of the
 * same drive diff line by line:
 *     cmd scsi_in cdb=<hex> len=<n>
 *     cmd nvme_identify cns=<n> nsid=<n> len=<n>
 *     cmd nvme_get_log lid=<n> nsid=<n> len=<n>
 *     st ret=<int> result=<name> errno=<n> scsi_status=0x.. sense_key=0x. asc=0x.. ascq=0x.. nvme_status=0x.... nvme_result=0x........ data_len=<n>
 *     sense <hex>                  (only when sense_len > 0)
 *     data <64 hex digits>         (32 bytes per line, data_len bytes)
 *     end
 * Lines starting with '#' and "fact KEY VALUE" lines are ignored here (the
 * collect layer keeps identity and sysfs facts in them). Durations are not
 * recorded. */

/** Wrap a live transport: every command goes to `inner` and is appended to
 * `out` (not closed) as one block. Closing `outer` closes `inner`. redact:
 * NUL-terminated ASCII strings (serial numbers) replaced by 'X' in the
 * recorded data, also byte-swapped per 16-bit word as ATA IDENTIFY stores
 * them (the IDENTIFY checksum byte is recomputed); NULL-terminated list, may
 * be NULL. Returns 0 or -ENOMEM. */
int ww_xport_capture_wrap(ww_xport_t *inner, FILE *out, const char *const *redact,
			  ww_xport_t *outer);

/** Open a replay transport answering from a capture file: a command whose
 * request line matches a recorded block gets the recorded status and bytes
 * (repeated blocks are answered in order, the last one repeating); any other
 * command gets WW_CMD_UNSUPPORTED. Returns 0, -ENOENT, -EINVAL (malformed
 * block, with the line number in *bad_line when non-NULL), -ENOMEM. */
int ww_xport_open_replay(const char *file, ww_xport_t *out, int *bad_line);

/** The same from a capture already open for reading (rewound first, so the
 * caller may have read its facts); `file` names it. The caller closes f. */
int ww_xport_open_replay_stream(FILE *f, const char *file, ww_xport_t *out, int *bad_line);

/** A capture's blocks parsed once, for a caller that replays the same file
 * again and again (serve --replay reads each capture every poll; parsing
 * its hex lines was most of a replayed read's CPU). */
typedef struct ww_replay ww_replay_t;

/** Parse the blocks of a capture open for reading (rewound first) into
 * *out (the caller frees it with ww_replay_free). Returns 0, -EINVAL
 * (malformed block, its line in *bad_line when non-NULL) or -ENOMEM. */
int ww_replay_load(FILE *f, ww_replay_t **out, int *bad_line);
void ww_replay_free(ww_replay_t *r);

/** A replay transport answering from r, as ww_xport_open_replay answers
 * from the file r was parsed from: every block is unserved again, so
 * repeated blocks are answered in order from the first. Closing it leaves
 * r to its owner. One transport on r at a time (the served counts are
 * r's). Returns 0 or -EINVAL. */
int ww_xport_open_replay_loaded(ww_replay_t *r, const char *file, ww_xport_t *out);

/** Number of blocks loaded into a replay transport (0 for other kinds). */
size_t ww_replay_n_cmds(const ww_xport_t *x);

#ifdef __cplusplus
}
#endif
#endif
