/* Endurance logs the issue-3 model uses: NVMe Endurance Group Information log
 * (Log Identifier 09h) and the OCP Datacenter NVMe SSD SMART / Health
 * Information Extended log (C0h). Pure functions like decode/nvme.h: no I/O,
 * no allocation, no clock; return 0 or a negative errno (-EMSGSIZE short
 * buffer, -EINVAL NULL, -ENOTSUP for a C0h page that is not the OCP layout).
 *
 * Sources:
 *  - 09h: NVM Express Base Specification 2.0, Endurance Group Information log
 *    page (Figure 209): byte 0 Critical Warning, 3 Available Spare, 4 Available
 *    Spare Threshold, 5 Percentage Used, bytes 32-47 Endurance Estimate and
 *    80-95 Media Units Written, both "in units of one billion bytes" (10^9,
 *    NOT the 512,000-byte data units of log 02h), 48-63 Data Units Read,
 *    64-79 Data Units Written, 128-143 Media and Data Integrity Errors. The log
 *    exists only when Identify Controller CTRATT bit 4 (Endurance Groups) is
 *    set, and is read with Log Specific Identifier = the namespace's ENDGID.
 *  - C0h: OCP Datacenter NVMe SSD Specification 2.0, SMART / Health
 *    Information Extended log: bytes 0-15 Physical Media Units Written (bytes),
 *    128-129 Capacitor Health (%), 160-175 PLP Start Count, 176-191 Endurance
 *    Estimate (bytes), 494-495 Log Page Version, 496-511 Log Page GUID
 *    AFD514C97C6F4F9CA4F2BFEA2810AFC5 (stored little-endian: C5 AF 10 28 ...).
 *    Other vendors use C0h for unrelated layouts, so nothing is decoded unless
 *    the GUID matches; Endurance Estimate / PLP Start Count need version >= 3
 *    (the 2.0 layout).
 */
#ifndef WEARWATCH_DECODE_NVME_ENDURANCE_H
#define WEARWATCH_DECODE_NVME_ENDURANCE_H

#include <stddef.h>
#include <stdint.h>

#include "wearwatch/record.h"

#define WW_NVME_LID_ENDURANCE_GROUP 0x09
#define WW_NVME_LID_OCP_SMART_EXT 0xC0
#define WW_NVME_ENDURANCE_LOG_LEN 512u
#define WW_NVME_OCP_C0_LEN 512u
#define WW_NVME_CTRATT_ENDURANCE_GROUPS (1u << 4)

/** Bytes of the OCP C0h Log Page GUID as they appear at offsets 496-511. */
extern const uint8_t ww_ocp_c0_guid[16];

/** Decode log 09h into h->endurance_estimate_bytes and h->media_written_bytes
 * (x 10^9, saturating; absent when the field is 0 = not reported).
 * Errors: -EMSGSIZE (len < 512), -EINVAL. */
int ww_decode_nvme_endurance_group(const uint8_t *buf, size_t len, ww_health_t *h);

/** Decode OCP C0h after checking its GUID (-ENOTSUP otherwise, nothing
 * written) and version (>= 1): media_written_bytes (bytes 0-15), capacitor
 * health; with version >= 3 also endurance_estimate_bytes (label "ocp_c0")
 * and plp_start_count. 128-bit values saturate at 2^64-1.
 * Errors: -EMSGSIZE (len < 512), -EINVAL, -ENOTSUP. */
int ww_decode_ocp_smart_ext(const uint8_t *buf, size_t len, ww_health_t *h);

/** SCSI Utilization log page (0x0E subpage 0x01, SBC-4 "Utilization log
 * page"): parameter 0x0000 Workload Utilization, 2 bytes, in 0.01 % of the
 * vendor's annual workload rating (reads and writes). Sets
 * h->workload_utilization_centipercent. Errors: -EMSGSIZE, -EINVAL (wrong
 * page code/subpage), -ENOENT (parameter absent). */
int ww_decode_scsi_utilization(const uint8_t *buf, size_t len, ww_health_t *h);

#endif
