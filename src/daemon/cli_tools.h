/* `wearwatch capture`, `decode`, `verify` (src/daemon/cli_tools.c,
 * cli_verify.c). argv[1] is the subcommand; each returns the exit code. */
#ifndef WW_DAEMON_CLI_TOOLS_H
#define WW_DAEMON_CLI_TOOLS_H

#include "wearwatch/drive.h"

/** The drive DEVICE names, as `show`, `capture` and `verify` accept it: a
 * bare name or /dev node (block device, sg/controller node, any path or NVMe
 * namespace), a stable id (bare or /dev/disk/by-id/ID), a symlink to a node,
 * or a device scan leaves out (loop, dm, ...). Discovers under sysroot ("" =
 * the real /sys). Returns a pointer into *all (caller frees *all, also on
 * NULL) or NULL when nothing matches; *err is -errno when discovery failed,
 * else 0. (src/daemon/cli_lookup.c) */
const ww_drive_t *ww_cli_lookup_drive(const char *sysroot, const char *want,
				      ww_drive_t **all, int *err);

int ww_cli_capture(int argc, char **argv);
int ww_cli_decode(int argc, char **argv);
int ww_cli_verify(int argc, char **argv);

#endif
