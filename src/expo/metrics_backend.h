/* Backend and "reached, no SMART" families of the exposition (issue 7,
 * src/expo/metrics_backend.c), called from metrics.c. */
#ifndef WW_EXPO_METRICS_BACKEND_H
#define WW_EXPO_METRICS_BACKEND_H

#include <stdio.h>

#include "wearwatch/store.h"

/** Prometheus families (docs/metrics.md):
 * wearwatch_drive_smartctl_info{drive,type} 1 for each present drive read
 * through smartctl (a RAID member from `smartctl --scan`, or configured with
 * serve --smartctl), type = the -d TYPE;
 * wearwatch_drive_smart_available{drive} 1 when the last read returned health
 * data, 0 when the drive answered but reports no SMART at all ("reached, no
 * SMART"; ww_health_t.no_smart). Drives never read are left out; a family with
 * no drive is not written. */
void ww_metrics_render_backend(FILE *f, const ww_snapshot_t *snap);

#endif
