/* Per-drive latency probe policy from the configuration file ([drive NAME]
 * probe = ...), parsed next to issue 4's serve flags (probe_opts.c) with the
 * same value rules: the file and the flags cannot disagree about a value. */
#ifndef WW_DAEMON_PROBE_CONF_H
#define WW_DAEMON_PROBE_CONF_H

#include <stddef.h>

#include "wearwatch/probe.h"

/** Apply `spec` on top of *p. spec is "off" / "no" (no probes on this
 * drive), "on" / "yes", or comma-separated KEY=VALUE with the serve flags'
 * names without "--probe-": interval, count, bs, qd, max-iops,
 * busy-inflight, rotational, window (e.g. "interval=300,qd=4"; "on" may
 * lead). A KEY=VALUE list turns probing on. Returns 0, or -EINVAL with the
 * reason in err. */
int ww_probe_policy_parse(ww_probe_policy_t *p, const char *spec, char *err, size_t errlen);

#endif
