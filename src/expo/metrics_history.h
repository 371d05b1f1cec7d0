/* Metrics of the history database itself. */
#ifndef WW_EXPO_METRICS_HISTORY_H
#define WW_EXPO_METRICS_HISTORY_H

#include <stdio.h>

/** wearwatch_history_write_errors_total (counter): sample and probe-burst
 * writes that failed since start (ww_history_write_errors). Nothing when
 * history is disabled or the endurance service is not running. */
void ww_metrics_render_history(FILE *f);

#endif
