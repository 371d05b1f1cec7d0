/* What the subcommands of src/cli/ share (private to the folder). Every
 * subcommand entry takes argv with argv[0] its own name ("scan") and returns
 * the process exit status. */
#ifndef WW_CLI_CLI_H
#define WW_CLI_CLI_H

#include <stdbool.h>

#include "wearwatch/discover.h"
#include "wearwatch/model.h"

/** Exit statuses of the commands that read one drive (show, capture). */
enum {
	WW_EXIT_READ_OK = 0,
	WW_EXIT_STANDBY = 1,
	WW_EXIT_USAGE = 2,
	WW_EXIT_READ_FAILED = 3,
	WW_EXIT_NO_HEALTH = 4,
};

/** True when argv (after argv[0]) asks for --help or -h. */
bool ww_cli_wants_help(int argc, char **argv);

/** [--json] [--sysroot DIR] [--config FILE] and at most one positional
 * argument, as `scan` and `show` take them. */
typedef struct ww_cli_opts {
	bool json;
	const char *sysroot; /* "" = the live system */
	const char *config;  /* wearwatch.conf for the verdict's thresholds, NULL = none */
	const char *arg;     /* the positional argument, NULL when none */
} ww_cli_opts_t;

/** Parse argv into *o; prints `usage` after the offending argument and
 * returns -EINVAL on anything else. */
int ww_cli_parse_opts(int argc, char **argv, ww_cli_opts_t *o, const char *usage);

/** The drive DEVICE names, as `show`, `capture` and `verify` accept it: a
 * bare name or /dev node (block device, sg/controller node, any path or NVMe
 * namespace), a stable id (bare or /dev/disk/by-id/ID), a symlink to a node,
 * or a device scan leaves out (loop, dm, ...). Discovers under sysroot ("" =
 * the real /sys). Returns a pointer into *all (caller frees *all, also on
 * NULL) or NULL when nothing matches, said on stderr; *err is -errno when
 * discovery failed, else 0. (lookup.c) */
const ww_drive_t *ww_cli_lookup_drive(const char *sysroot, const char *want,
				      ww_drive_t **all, int *err);

/** The health verdict of one read of d (rc as ww_collect_drive returned it:
 * 0 with h, 1 left alone, < 0 failed; -ENODATA = reached, identity only),
 * through the same store, endurance service and ww_drive_verdict() as the
 * service: thresholds and rating overrides from config ([health], [drive];
 * NULL = built-in defaults), the built-in ratings table, no history (so no
 * "increased" reasons from one read). With e and has_e, the endurance
 * figures the service would show for that read go to *e (*has_e false when
 * there are none). at: the time of the read (a smartctl JSON's local_time,
 * so projections and the warranty start count from when it was taken; 0 =
 * now). Returns 0, -EINVAL (bad config, printed) or -ENOMEM.
 * (cmd_verdict.c) */
int ww_cli_verdict(const char *config, const ww_drive_t *d, const ww_health_t *h, int rc, time_t at,
		   ww_verdict_t *v, ww_endurance_t *e, bool *has_e);

/** The same with the drive's self-test plan (when its self_test_schedule
 * is set; plan->on false otherwise) into *plan: what `show` prints. */
int ww_cli_verdict_plan(const char *config, const ww_drive_t *d, const ww_health_t *h, int rc,
			ww_verdict_t *v, ww_endurance_t *e, bool *has_e, ww_selftest_plan_t *plan);

/** The plan of cfg's self_test_schedule for drive h at now; false without
 * one. (verdict.c) */
bool ww_cli_self_test_plan(const ww_health_cfg_t *cfg, const ww_health_t *h, time_t now,
			   ww_selftest_plan_t *p);

/** Say on stderr that d has no health interface, in discovery's words:
 * "wearwatch: dev-vda: not monitored: virtio-blk has no health interface"
 * (show, decode of such a capture; exit status WW_EXIT_NO_HEALTH). */
void ww_cli_say_no_health(const ww_drive_t *d);

/* the subcommands, one file each */
int ww_cli_scan(int argc, char **argv);
int ww_cli_show(int argc, char **argv);
int ww_cli_probe(int argc, char **argv);
int ww_cli_capture(int argc, char **argv);
int ww_cli_decode(int argc, char **argv);
int ww_cli_verify(int argc, char **argv);
int ww_cli_notify_test(int argc, char **argv);
int ww_cli_notify_deliver(int argc, char **argv);
int ww_cli_ratings(int argc, char **argv);
int ww_cli_qualify(int argc, char **argv);

#endif
