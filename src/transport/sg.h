/* SG_IO transport internals shared with tests: sense parsing and the
 * classification of a finished command into ww_cmd_result_t. Pure functions;
 * the live transport itself is ww_xport_open_sg() in transport.h. */
#ifndef WW_TRANSPORT_SG_H
#define WW_TRANSPORT_SG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wearwatch/transport.h"

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

#endif
