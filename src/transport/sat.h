/* SAT ATA PASS-THROUGH(16) (SAT-4, T10/BSR INCITS 491, 12.2.2; CDB opcode 85h)
 * on top of ww_xport_ops.scsi_in. Only these read-only ATA commands can be
 * built here: CHECK POWER MODE (E5h), IDENTIFY DEVICE (ECh), SMART READ DATA
 * (B0h/D0h), SMART READ THRESHOLDS (B0h/D1h), SMART RETURN STATUS (B0h/DAh)
 * and READ LOG EXT (2Fh). Nothing here can enable, disable or write anything.
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
#ifndef WW_TRANSPORT_SAT_H
#define WW_TRANSPORT_SAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wearwatch/record.h"
#include "wearwatch/transport.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WW_SAT_CDB_LEN 16
#define WW_SAT_OPCODE 0x85

/* ATA commands and SMART features this layer sends */
#define WW_ATA_CHECK_POWER_MODE 0xe5
#define WW_ATA_IDENTIFY 0xec
#define WW_ATA_SMART 0xb0
#define WW_ATA_READ_LOG_EXT 0x2f
#define WW_SMART_READ_DATA 0xd0
#define WW_SMART_READ_THRESHOLDS 0xd1
#define WW_SMART_RETURN_STATUS 0xda

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

/** Build an ATA PASS-THROUGH(16) CDB. Pure. The protocol follows from the
 * command: 3 (non-data) for CHECK POWER MODE and SMART RETURN STATUS, 4 (PIO
 * data-in) otherwise, whose transfer is count x 512 bytes (T_DIR=1,
 * BYTE_BLOCK=1, T_LENGTH=2: length in the COUNT field). LBA bytes: CDB 8/10/12
 * = LBA 7:0/15:8/23:16, 7/9/11 = LBA 31:24/39:32/47:40. Only the commands listed above are accepted:
 * returns -EPERM for any other command/feature, else 0. */
int ww_sat_build_cdb(uint8_t cdb[WW_SAT_CDB_LEN], uint8_t command, uint8_t feature,
		     uint16_t count, uint64_t lba, bool extend, bool ck_cond);

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

/** SMART RETURN STATUS (B0h/DAh, non-data, CK_COND=1): LBA mid/high 4Fh/C2h
 * = passed, F4h/2Ch = threshold exceeded; anything else is -ENODATA with
 * *out = WW_SMART_UNKNOWN. */
int ww_sat_smart_return_status(ww_xport_t *x, ww_smart_status_t *out, ww_cmd_status_t *st);

/** Decide SMART RETURN STATUS from returned registers (LBA 15:8 / 23:16).
 * Pure. */
ww_smart_status_t ww_sat_smart_status_from_regs(const ww_ata_regs_t *regs);

/** READ LOG EXT (2Fh, PIO data-in, 48-bit) of `pages` 512-byte pages of log
 * address `log` starting at `page` into buf (len >= pages x 512). */
int ww_sat_read_log_ext(ww_xport_t *x, uint8_t log, uint16_t page, uint16_t pages,
			uint8_t *buf, size_t len, ww_cmd_status_t *st);

#ifdef __cplusplus
}
#endif
#endif
