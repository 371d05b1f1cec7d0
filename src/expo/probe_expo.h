/* Latency-probe parts of the exposition (src/expo/probe_expo.c), called from
 * metrics.c and json.c. */
#ifndef WW_EXPO_PROBE_H
#define WW_EXPO_PROBE_H

#include <stdio.h>

#include "wearwatch/store.h"

/** Prometheus families of the probe summaries in snap (see docs/metrics.md):
 * wearwatch_probe_read_latency_seconds (histogram, WW_PROBE_N_BUCKETS fixed
 * buckets 10 us..10 s plus +Inf), _max_seconds (last burst), the window
 * quantiles and wearwatch_probe_errors_total. Drives without a summary are
 * left out; a family with no drive is not written. */
void ww_metrics_render_probe(FILE *f, const ww_snapshot_t *snap);

/** The "probe" object of one drive for the JSON API (a json_object * as
 * void *), or NULL when the drive has no probe summary. */
void *ww_json_probe_object(const ww_drive_state_t *st);

#endif
