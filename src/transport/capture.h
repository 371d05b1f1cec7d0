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
#ifndef WW_TRANSPORT_CAPTURE_H
#define WW_TRANSPORT_CAPTURE_H

#include <stdbool.h>
#include <stdio.h>

#include "wearwatch/transport.h"

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

/** Number of blocks loaded into a replay transport (0 for other kinds). */
size_t ww_replay_n_cmds(const ww_xport_t *x);

#endif
