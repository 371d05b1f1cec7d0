/* libFuzzer harness: smartctl `-r ioctl,2` traces (collect/ioctl_trace.c),
 * what users attach to smartmontools tickets, into the ATA decoders. Seeds:
 * the traces of $WW_FIXTURES/smartmontools-trac. */
#include "wearwatch/collect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static ww_health_t h;

	ww_ioctl_trace_load((const char *)data, size, &h);
	return 0;
}
