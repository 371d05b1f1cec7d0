/* libFuzzer harness: smartctl JSON (collect/smartctl_json*.c), the output of
 * a program the collector runs for RAID members and the files of public
 * bug reports. Seeds: the smartctl JSON of $WW_FIXTURES (scrutiny,
 * smartctl_exporter) and tests/fuzz/regress/smartctl-*. */
#include <string.h>

#include "wearwatch/collect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ww_health_t h;
	ww_smartctl_info_t info;

	ww_smartctl_parse((const char *)data, size, &h, &info);
	return 0;
}
