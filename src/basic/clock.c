/* The default clocks (see basic.h). */
#include <time.h>

#include "wearwatch/basic.h"

double ww_clock_monotonic(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

time_t ww_clock_wall(void *ctx)
{
	(void)ctx;
	return time(NULL);
}

long long ww_clock_monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

struct timespec ww_clock_wall_ts(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts;
}

struct timespec ww_clock_deadline_ms(long long ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (ms % 1000) * 1000000L;
	ts.tv_sec += ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	return ts;
}

long long ww_clock_boot_time(void)
{
	struct timespec rt, bo;

	if (clock_gettime(CLOCK_REALTIME, &rt) || clock_gettime(CLOCK_BOOTTIME, &bo))
		return -1;
	return (long long)rt.tv_sec - (long long)bo.tv_sec - (rt.tv_nsec < bo.tv_nsec);
}
