/* Capture a drive to a file and read it back (docs/capture-format.md).
 *
 * A capture file is the transport log of src/transport/capture.h preceded by
 * "fact KEY VALUE" lines holding what discovery knew about the drive (the
 * ww_drive_t fields, one per line) and its sysfs runtime power status, so a
 * replayed drive goes through the same reader and decoders as the live one. */
#ifndef WW_COLLECT_REPLAY_DRIVE_H
#define WW_COLLECT_REPLAY_DRIVE_H

#include <stdbool.h>
#include <stdio.h>

#include "wearwatch/collect.h"
#include "wearwatch/drive.h"


/** Capture drive d into DIR/<id>.capture (id with '/' replaced; redacted when
 * `redact`: the serial from sysfs and from the first read is replaced by 'X'
 * in facts, id and recorded bytes). Read-only: the same commands as a normal
 * read, nothing else; a runtime-suspended drive gets facts only. Writes the
 * file path to path_out (>= 512 bytes) when non-NULL. Returns what the read
 * returned (0, 1 standby/suspended, -errno) or -errno of the file. */
int ww_capture_drive(const char *sysroot, const ww_drive_t *d, const char *dir,
		     bool redact, char *path_out, ww_health_t *h, ww_read_report_t *r);

/** Load the facts of a capture file into d. Returns 0, -ENOENT, -EINVAL. */
int ww_replay_load_drive(const char *file, ww_drive_t *d);

/** Read a captured drive through the replay transport. Returns as
 * ww_collect_drive (1 when recorded runtime-suspended or in standby);
 * h->backend = "replay". */
int ww_replay_collect(const char *file, const ww_drive_t *d, ww_health_t *h,
		      ww_read_report_t *r);

/* --- serve --replay: poller hooks (ww_discover_fn / ww_collect_fn) --- */

/** Register the *.capture files of dir and of its subdirectories, three
 * levels down (or dir itself when it is a file); other files are skipped.
 * Returns how many were added (total at most 1024), 0 when none, or -errno
 * (-EINVAL: a file that is not a capture). */
int ww_replay_add(const char *dir);

/** ww_discover_fn: the registered captures as drives (sysroot, include
 * ignored). */
int ww_replay_discover(const char *sysroot, const char *const *include,
		       ww_drive_t *out, size_t max);

/** ww_collect_fn: reads a registered drive from its capture. -ENOENT when d
 * is not a registered capture. */
int ww_replay_collect_fn(const char *sysroot, const ww_drive_t *d,
			 ww_health_t *h, ww_read_report_t *r);

#endif
