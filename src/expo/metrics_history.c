/* wearwatch_history_write_errors_total (see metrics_history.h). */
#include <inttypes.h>

#include "expo/metrics_history.h"
#include "wearwatch/store.h"
#include "wearwatch/history.h"

void ww_metrics_render_history(FILE *f)
{
	ww_history_t *h = ww_endurance_history(ww_endurance_global());

	if (!h)
		return;
	fprintf(f, "# HELP wearwatch_history_write_errors_total History samples and probe bursts "
		   "that could not be written (disk full, read-only database); see the log.\n"
		   "# TYPE wearwatch_history_write_errors_total counter\n"
		   "wearwatch_history_write_errors_total %" PRIu64 "\n",
		ww_history_write_errors(h));
}
