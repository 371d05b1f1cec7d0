/* Latency probes in the daemon: the `wearwatch probe` command, the probe
 * flags of `wearwatch serve` and the scheduler thread that runs one
 * ww_probe engine for every drive (src/daemon/probe_cli.c, probe_sched.c). */
#ifndef WW_DAEMON_PROBE_H
#define WW_DAEMON_PROBE_H

#include <getopt.h>
#include <stdio.h>

#include "wearwatch/history.h"
#include "wearwatch/probe.h"
#include "wearwatch/store.h"

/** `wearwatch probe DEVICE [--bs 4k] [--qd 1] [--count N | --runtime S]
 * [--iops N] [--json]`. argv[1] is "probe". Returns the exit code: 0 done,
 * 1 drive left alone (runtime-suspended), 2 usage, 3 open/read failed. */
int ww_probe_cli_main(int argc, char **argv);

/** Parse a size with optional k/m/g suffix (binary units): "4k" = 4096.
 * Returns 0 or -EINVAL. */
int ww_probe_parse_size(const char *s, uint64_t *out);

/* ----------------------------------------------------- serve integration --- */

/** getopt_long option values for serve's probe flags; serve's table ends its
 * own entries with WW_PROBE_SERVE_OPTIONS. */
enum {
	WW_OPT_PROBE_FIRST = 512,
	WW_OPT_PROBE_INTERVAL = WW_OPT_PROBE_FIRST,
	WW_OPT_PROBE_COUNT,
	WW_OPT_PROBE_BS,
	WW_OPT_PROBE_QD,
	WW_OPT_PROBE_IOPS,
	WW_OPT_PROBE_BUSY,
	WW_OPT_PROBE_ROT,
	WW_OPT_PROBE_WINDOW,
	WW_OPT_NO_PROBE,
	WW_OPT_PROBE_LAST = WW_OPT_NO_PROBE,
};

#define WW_PROBE_SERVE_OPTIONS                                                 \
	{ "probe-interval", required_argument, NULL, WW_OPT_PROBE_INTERVAL },  \
	{ "probe-count", required_argument, NULL, WW_OPT_PROBE_COUNT },        \
	{ "probe-bs", required_argument, NULL, WW_OPT_PROBE_BS },              \
	{ "probe-qd", required_argument, NULL, WW_OPT_PROBE_QD },              \
	{ "probe-max-iops", required_argument, NULL, WW_OPT_PROBE_IOPS },      \
	{ "probe-busy-inflight", required_argument, NULL, WW_OPT_PROBE_BUSY }, \
	{ "probe-rotational", required_argument, NULL, WW_OPT_PROBE_ROT },     \
	{ "probe-window", required_argument, NULL, WW_OPT_PROBE_WINDOW },      \
	{ "no-probe", no_argument, NULL, WW_OPT_NO_PROBE }

/** Help text lines for those flags. */
void ww_probe_serve_usage(FILE *f);

/** Apply one probe flag to the policy. Returns 0 or -EINVAL (message
 * printed). */
int ww_probe_serve_opt(int opt, const char *arg, ww_probe_policy_t *p);

typedef struct ww_probe_sched ww_probe_sched_t;

/** Per-drive policy lookup (the configuration file fills it later); NULL
 * lookup or NULL return = the default policy. */
typedef const ww_probe_policy_t *(*ww_probe_policy_fn)(void *ctx, const ww_drive_t *d);

typedef struct ww_probe_sched_cfg {
	const char *sysroot;             /* "" = live system */
	ww_probe_policy_t policy;        /* default for every drive */
	ww_probe_policy_fn lookup;
	void *lookup_ctx;
	/* called on the probe thread after each finished burst (NULL = none):
	 * that burst's own p50/p99/max and counts, for the history database */
	void (*after_burst)(void *arg, const char *id, const ww_hprobe_t *p, time_t now);
	void *after_burst_arg;
} ww_probe_sched_cfg_t;

/** Start the probe thread: every second it takes the store's snapshot, sends
 * bursts to drives that are due and pass ww_probe_gate() (and are not in
 * standby or hung per the store), and writes summaries with
 * ww_store_set_probe(). One burst runs at a time (the next due drive starts
 * when it ends), and the runtime power status is read again before each read
 * (a drive suspended meanwhile ends its burst, skip reason
 * "runtime-suspended"). Returns NULL when disabled or on failure (*err). */
ww_probe_sched_t *ww_probe_sched_start(const ww_probe_sched_cfg_t *cfg, ww_store_t *store,
				       int *err);
/** Stop and join the thread (reads hung in the kernel are left to it). */
void ww_probe_sched_stop(ww_probe_sched_t *s);

#endif
