/* Latency-probe parts of the exposition (src/expo/probe_expo.c): the
 * Prometheus families are rows of ww_metrics_probe (metrics_table.h); the
 * JSON object is used by json.c. */
#ifndef WW_EXPO_PROBE_H
#define WW_EXPO_PROBE_H

#include "wearwatch/store.h"

/** The "probe" object of one drive for the JSON API (a json_object * as
 * void *), or NULL when the drive has no probe summary. */
void *ww_json_probe_object(const ww_drive_state_t *st);

#endif
