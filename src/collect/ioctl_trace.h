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
#ifndef WW_COLLECT_IOCTL_TRACE_H
#define WW_COLLECT_IOCTL_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "wearwatch/record.h"

/** Extract the data block of command `name` (e.g. "IDENTIFY DEVICE") into out
 * (at most max bytes). Returns the byte count, -ENOENT when the trace has no
 * such block, -EINVAL on a malformed line. */
int ww_ioctl_trace_block(const char *text, size_t len, const char *name,
			 uint8_t *out, size_t max);

/** Load a trace into h (cleared first) through the ATA decoders: IDENTIFY,
 * SMART READ DATA, SMART READ THRESHOLDS when present, then ww_ata_finish().
 * Returns 0, -ENOENT without an IDENTIFY block, or a decoder's -errno. */
int ww_ioctl_trace_load(const char *text, size_t len, ww_health_t *h);

#endif
