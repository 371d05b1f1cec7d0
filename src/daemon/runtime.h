/* The collecting half of the service, shared by `wearwatch collector` and
 * `wearwatch serve` so both start, reload and stop the same way: store,
 * poller (with the [drive] include/exclude filter), endurance model and
 * history (ratings and warranty starts from [drive] sections, [history]
 * retention, state directory), latency probes (per-drive policy from
 * [drive] probe =), smartctl forcing ([drive] smartctl =), and the main-loop
 * work: tick, snapshot diff -> events and notification program, STATUS=. */
#ifndef WW_DAEMON_RUNTIME_H
#define WW_DAEMON_RUNTIME_H

#include <stdbool.h>

#include "daemon/config.h"
#include "daemon/endurance_opts.h"
#include "wearwatch/probe.h"
#include "wearwatch/store.h"

/** What only `serve` sets from flags (the collector takes defaults). */
typedef struct ww_runtime_opts {
	bool replay;                   /* drives from --replay captures */
	ww_probe_policy_t probe;       /* default policy (--probe-*, --no-probe) */
	const char *smartctl[16];      /* --smartctl DRIVE=TYPE (checked), before [drive] ones */
	size_t n_smartctl;
	ww_endurance_opts_t *endurance;/* --rating, --ratings-file, --no-history, ...;
					  NULL = defaults. Its overrides are consumed. */
} ww_runtime_opts_t;

typedef struct ww_runtime ww_runtime_t;

/** Parse the [drive] settings owned by other modules (rating +
 * warranty_start through ww_rating_override_parse, probe through
 * ww_probe_policy_parse) and report the first error as "path: [drive NAME]:
 * what". Pure apart from the parsers; used at start and before a reload is
 * accepted. */
int ww_runtime_check_conf(const ww_conf_t *c, char *err, size_t errlen);

/** Start everything (store, history, poller, probes). NULL with err set. */
ww_runtime_t *ww_runtime_start(const ww_conf_t *c, ww_runtime_opts_t *o, char *err,
			       size_t errlen);

ww_store_t *ww_runtime_store(ww_runtime_t *rt);

/** One main-loop step: poller tick, events for a changed snapshot (the
 * notification program on health changes), STATUS=, reap children. */
void ww_runtime_tick(ww_runtime_t *rt);

/** Apply a new configuration: the poller restarts when poll settings,
 * include lists or [drive] sections changed (the store and history stay),
 * probe policies and smartctl forcing are swapped, missing_retention is
 * applied to the store. Ratings, warranty starts, retention and the state
 * directory need a restart (logged). Returns 0 or -errno (then the service
 * cannot continue: the reader threads did not restart). */
int ww_runtime_reload(ww_runtime_t *rt, const ww_conf_t *c);

/** Stop and free (the store only when every reader thread exited). */
void ww_runtime_stop(ww_runtime_t *rt);

#endif
