/* libatasmart blobs ("skdump --save" files) as a recorded ATA drive.
 *
 * Format (libatasmart 0.19 atasmart.c, sk_disk_get_blob/sk_disk_set_blob): a
 * sequence of records tag[4] size[4] data[size], tag and size big-endian:
 *   'IDFY' 512 B IDENTIFY DEVICE data
 *   'SMST' 4 B big-endian, nonzero = SMART RETURN STATUS good
 *   'SMDT' 512 B SMART READ DATA
 *   'SMTH' 512 B SMART READ THRESHOLDS
 */
#ifndef WW_COLLECT_ATA_BLOB_H
#define WW_COLLECT_ATA_BLOB_H

#include <stddef.h>
#include <stdint.h>

#include "wearwatch/record.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif
#endif
