/* NVMe decoders: Identify Controller, Identify Namespace and the SMART /
 * Health Information log, from the bytes a Get Log Page / Identify returned
 * into the health record.
 *
 * Pure functions: no I/O, no allocation, no logging, no clock. Every decoder
 * reads only inside [buf, buf + len) and returns 0 or a negative errno:
 *   -EMSGSIZE  len shorter than the structure (nothing is written then)
 *   -EINVAL    NULL arguments or a value the spec forbids
 *
 * Source for every layout: NVM Express Base Specification 2.0 (SMART / Health
 * Information log: Figure 207; the Identify Controller data structure, CNS
 * 01h) and NVM Command Set Specification 1.0 (the Identify Namespace data
 * structure, CNS 00h). All multi-byte fields are little-endian on the wire.
 */
#ifndef WEARWATCH_DECODE_NVME_H
#define WEARWATCH_DECODE_NVME_H

#include <stddef.h>
#include <stdint.h>

#include "wearwatch/record.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WW_NVME_SMART_LOG_LEN 512u	/* Log Identifier 02h */
#define WW_NVME_IDENTIFY_LEN 4096u	/* every Identify data structure */
#define WW_NVME_LID_SMART 0x02
#define WW_NVME_CNS_NS 0x00
#define WW_NVME_CNS_CTRL 0x01
#define WW_NVME_NSID_ALL 0xFFFFFFFFu	/* controller-wide SMART log */

/** Decode the SMART / Health Information log (LID 02h, 512 bytes).
 *
 * Fills h->nvme_smart with every defined field (128-bit counters kept whole,
 * temperatures in Kelvin as on the wire) and sets h->has_nvme_smart; then the
 * normalised fields, each with a source naming the log and byte range:
 *   temperature_celsius       bytes 1-2 minus 273 (absent when 0 K)
 *   host_read/written_bytes   data units x 512000 (a data unit is 1000 x 512 B
 *                             whatever the LBA format), saturating at 2^64-1
 *   power_on_seconds          hours x 3600, saturating
 *   power_cycles, unsafe_shutdowns, media_errors, error_log_entries
 *                             128-bit counters, saturating (->saturated set)
 *   endurance_used_percent    byte 5 (0-255, may exceed 100)
 *   available_spare(_threshold)_percent, critical_warning
 *   smart_status              FAILED when critical warning byte != 0, else
 *                             PASSED. This follows smartctl, which flags every
 *                             set bit including 5 (PMR read-only) and the
 *                             reserved bits 6-7 that later specs may define.
 * len >= 512 (extra bytes are ignored). Errors: -EMSGSIZE, -EINVAL (NULL). */
int ww_decode_nvme_smart_log(const uint8_t *buf, size_t len, ww_health_t *h);

/** Decode Identify Controller (CNS 01h, 4096 bytes).
 *
 * model (MN, bytes 24-63), serial (SN, 4-23) and firmware (FR, 64-71) are
 * copied with leading/trailing spaces and NULs removed; bytes outside printable
 * ASCII become '?'. h->nvme_ctrl gets VID (0-1), IEEE OUI (73-75, wire order:
 * ieee_oui[0] = byte 73), VER (80-83), CTRATT (96-99), LPA (261), WCTEMP
 * (266-267) and CCTEMP (268-269) in Kelvin, TNVMCAP (280-295, 128-bit bytes)
 * and NN (516-519); has_nvme_ctrl is set. temperature_warning_celsius and
 * temperature_critical_celsius are set from WCTEMP/CCTEMP when non-zero.
 * Sets h->protocol = WW_PROTO_NVME. Errors: -EMSGSIZE (len < 4096), -EINVAL. */
int ww_decode_nvme_id_ctrl(const uint8_t *buf, size_t len, ww_health_t *h);

/** Decode Identify Namespace (CNS 00h, 4096 bytes) into *ns.
 *
 * size_blocks = NSZE (bytes 0-7); lba_bytes = 2^LBADS of the LBA format FLBAS
 * (byte 26) selects: index = bits 3:0 | bits 6:5 << 4 (NVMe 2.0 allows up to
 * 64 formats; LBAF n is at bytes 128 + 4n, LBADS is its byte 2); NGUID (104-119),
 * EUI64 (120-127), ENDGID (102-103). nsid and block_name are not touched (the
 * caller knows them). Errors: -EMSGSIZE (len < 4096); -EINVAL when the
 * selected LBADS is below 9 (the spec's minimum, 512 bytes) or above 31, which
 * is also what an inactive namespace (all zero) returns. */
int ww_decode_nvme_id_ns(const uint8_t *buf, size_t len, ww_nvme_ns_t *ns);

/** Derive record fields that need several NVMe structures, after the
 * decoders above ran (h->nvme_ns[0..n_nvme_ns) filled):
 *   capacity_bytes       sum over namespaces of NSZE x LBA size (saturating);
 *                        TNVMCAP only when no namespace was decoded and it is
 *                        non-zero (it counts NVM capacity, not host-visible
 *                        blocks, and is 0 on many drives)
 *   logical_block_bytes  LBA size of the first namespace
 *   rotation_rate_rpm    1 (NVMe media is non-rotating by definition here)
 *   wwn                  when empty: the first namespace's identifier the way
 *                        the kernel writes sysfs "wwid" (and udev the
 *                        by-id "nvme-eui.*" links): "eui." + NGUID in hex when
 *                        non-zero, else "eui." + EUI64; left empty when both
 *                        are zero (the kernel then builds "nvme.<vid>-..."
 *                        from the serial, which is not a world-wide name).
 * Also sets h->protocol = WW_PROTO_NVME. Never fails; NULL is ignored. */
void ww_nvme_finish(ww_health_t *h);

#ifdef __cplusplus
}
#endif
#endif
