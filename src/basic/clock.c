/* The default monotonic clock (see basic.h). */
#include <time.h>

#include "wearwatch/basic.h"

double ww_clock_monotonic(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}
