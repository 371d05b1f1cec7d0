/* The default clocks (see basic.h). */
#include <pthread.h>
#include <stdint.h>
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

/* clock c `ns` nanoseconds from now, as pthread_cond_timedwait() takes it */
static struct timespec deadline(clockid_t c, uint64_t ns)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	ns += (uint64_t)ts.tv_nsec;
	ts.tv_sec += (time_t)(ns / 1000000000ull);
	ts.tv_nsec = (long)(ns % 1000000000ull);
	return ts;
}

struct timespec ww_clock_deadline_ms(long long ms)
{
	return deadline(CLOCK_REALTIME, ms > 0 ? (uint64_t)ms * 1000000ull : 0);
}

struct timespec ww_clock_mono_deadline_ns(uint64_t ns)
{
	return deadline(CLOCK_MONOTONIC, ns);
}

int ww_cond_init_monotonic(pthread_cond_t *c)
{
	pthread_condattr_t ca;
	int r;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	r = pthread_cond_init(c, &ca);
	pthread_condattr_destroy(&ca);
	return r;
}

long long ww_clock_boot_time(void)
{
	struct timespec rt, bo;

	if (clock_gettime(CLOCK_REALTIME, &rt) || clock_gettime(CLOCK_BOOTTIME, &bo))
		return -1;
	return (long long)rt.tv_sec - (long long)bo.tv_sec - (rt.tv_nsec < bo.tv_nsec);
}
