/* cli: the wearwatch command line: one command table and one file per
 * subcommand (scan, show, probe, capture, decode, verify, notify-test; serve,
 * collector and web start the service). Each entry takes argv with argv[0]
 * the subcommand name and returns the process exit status. */
#ifndef WEARWATCH_CLI_H
#define WEARWATCH_CLI_H


#include "wearwatch/discover.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Subcommand dispatch: scan, show, serve (and later probe, decode, capture). */

/** main() of the wearwatch binary. Returns the process exit code. */
int ww_cli_main(int argc, char **argv);

/** `wearwatch notify-test [--config FILE] [--notify-exec PROG]`: run the
 * program once with WEARWATCH_EVENT=test and wait; exit status 0 when it
 * exited 0. */
int ww_notify_test_main(int argc, char **argv);

/* `wearwatch capture`, `decode`, `verify` (src/daemon/cli_tools.c,
 * cli_verify.c). argv[1] is the subcommand; each returns the exit code. */

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

/* `wearwatch probe`. */

/** `wearwatch probe DEVICE [--bs 4k] [--qd 1] [--count N | --runtime S]
 * [--iops N] [--json]`. argv[1] is "probe". Returns the exit code: 0 done,
 * 1 drive left alone (runtime-suspended), 2 usage, 3 open/read failed. */
int ww_probe_cli_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
