/* Health state of a drive from its record (see model.h). */
#include <stdio.h>
#include <string.h>

#include "wearwatch/model.h"

const char *ww_health_state_name(ww_health_state_t s)
{
	static const char *const n[] = { "unknown", "ok", "warning", "failed" };

	return (unsigned)s <= WW_STATE_FAILED ? n[s] : "unknown";
}

static void add_reason(char *b, size_t len, const char *r)
{
	size_t n = strlen(b);

	snprintf(b + n, len - n, "%s%s", n ? "; " : "", r);
}

ww_health_state_t ww_health_state_of(const ww_health_t *h, char *reasons, size_t len)
{
	ww_health_state_t s = WW_STATE_OK;
	char buf[96];

	reasons[0] = 0;
	if (!h)
		return WW_STATE_UNKNOWN;
	if (h->smart_status == WW_SMART_FAILED) {
		add_reason(reasons, len, "SMART overall status FAILED");
		s = WW_STATE_FAILED;
	}
	if (h->critical_warning.source && h->critical_warning.value) {
		snprintf(buf, sizeof(buf), "NVMe critical warning 0x%02llx",
			 (unsigned long long)h->critical_warning.value);
		add_reason(reasons, len, buf);
		s = WW_STATE_FAILED;
	}
	if (h->available_spare_percent.source && h->available_spare_threshold_percent.source &&
	    h->available_spare_percent.value < h->available_spare_threshold_percent.value) {
		snprintf(buf, sizeof(buf), "available spare %llu%% below threshold %llu%%",
			 (unsigned long long)h->available_spare_percent.value,
			 (unsigned long long)h->available_spare_threshold_percent.value);
		add_reason(reasons, len, buf);
		if (s < WW_STATE_WARNING)
			s = WW_STATE_WARNING;
	}
	if (h->endurance_used_percent.source && h->endurance_used_percent.value >= 100) {
		snprintf(buf, sizeof(buf), "percentage used %llu%%",
			 (unsigned long long)h->endurance_used_percent.value);
		add_reason(reasons, len, buf);
		if (s < WW_STATE_WARNING)
			s = WW_STATE_WARNING;
	}
	return s;
}
