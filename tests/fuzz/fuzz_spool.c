/* libFuzzer harness: the notification spool files `wearwatch notify-deliver`
 * reads (ww_events_spool_parse: NUL-separated WEARWATCH_NAME=value). The
 * spool directory is root's, but a file in it may be cut short, left by an
 * older version or put there by hand. Seeds: tests/fuzz/regress/spool-*. */
#include <stdint.h>
#include <string.h>

#include "wearwatch/service.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ww_event_t ev = { 0 };

	if (ww_events_spool_parse((const char *)data, size, &ev) == 0) {
		/* each variable is a NAME=value string of the input */
		for (size_t i = 0; i < ev.n; i++)
			if (strncmp(ev.vars[i], "WEARWATCH_", 10) || !strchr(ev.vars[i], '='))
				__builtin_trap();
		ww_event_clear(&ev);
	}
	return 0;
}
