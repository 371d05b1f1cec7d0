/* process_* self-metrics (src/expo/process_metrics.c, written by ww_metrics_render) against what other
 * interfaces of the kernel say about the same process: getrusage() for CPU
 * time, /proc/self/statm for resident pages, getrlimit() for the descriptor
 * limit, a descriptor opened and closed for the open count, and the clock for
 * the start time; names and types as Prometheus' client libraries write
 * them. */
#include <fcntl.h>
#include <math.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "ww_test.h"
#include "wearwatch/expo.h"
#include "wearwatch/store.h"

/* /metrics of a service with no drive: the process-wide families only */
static char *render(void)
{
	ww_store_t *s = ww_store_new(0);
	ww_snapshot_t *snap = s ? ww_store_acquire(s) : NULL;
	char *txt = snap
		? ww_metrics_render(&(ww_render_ctx_t){ .snap = snap, .now = time(NULL) }, NULL)
		: NULL;

	ww_snapshot_release(snap);
	if (s)
		ww_store_free(s);
	return txt;
}

/* the value of the sample line "name VALUE", NAN when absent */
static double value(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == ' ')
			return strtod(p + n + 1, NULL);
	return NAN;
}

static void burn_cpu(void)
{
	struct timespec a, b;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	} while (b.tv_sec - a.tv_sec + (b.tv_nsec - a.tv_nsec) / 1e9 < 0.2);
}

int main(void)
{
	struct rusage ru;
	struct rlimit rl;
	long page = sysconf(_SC_PAGESIZE);
	unsigned long long size = 0, resident = 0;
	FILE *statm;
	char *t;
	int fd;

	burn_cpu();
	t = render();
	CHECK(t != NULL);
	if (!t)
		return ww_test_done("test_expo_process_metrics");
	CHECK(strstr(t, "# TYPE process_cpu_seconds_total counter\n") != NULL);
	CHECK(strstr(t, "# TYPE process_resident_memory_bytes gauge\n") != NULL);
	CHECK(strstr(t, "# TYPE process_start_time_seconds gauge\n") != NULL);

	/* CPU: the kernel's clock-tick counts against getrusage's figure (two
	 * ticks apart at most: each is rounded to a tick) */
	getrusage(RUSAGE_SELF, &ru);
	double cpu = value(t, "process_cpu_seconds_total");
	double ru_cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	CHECK(cpu >= 0.15);
	CHECK(fabs(cpu - ru_cpu) <= 2.0 / sysconf(_SC_CLK_TCK) + 0.05);

	/* memory: /proc/self/statm (pages) is another view of the same counts.
	 * The kernel keeps RSS in per-CPU counters that are folded lazily, so
	 * two reads a moment apart can differ by many pages on a machine with
	 * many CPUs; the check is for the unit (a KiB or page count instead of
	 * bytes is off by 1024x or 4096x), so within a factor of two is exact
	 * enough and never flaky. */
	statm = fopen("/proc/self/statm", "r");
	CHECK(statm && fscanf(statm, "%llu %llu", &size, &resident) == 2);
	if (statm)
		fclose(statm);
	double rss = value(t, "process_resident_memory_bytes");
	CHECK(rss > 0 && rss >= 0.5 * (double)(resident * page) &&
	      rss <= 2.0 * (double)(resident * page));
	double vsz = value(t, "process_virtual_memory_bytes");
	CHECK(vsz >= 0.5 * (double)(size * page) && vsz <= 2.0 * (double)(size * page));

	/* descriptors: the soft limit, and one more while a file is open */
	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur != RLIM_INFINITY)
		CHECK(value(t, "process_max_fds") == (double)rl.rlim_cur);
	double fds = value(t, "process_open_fds");
	fd = open("/proc/self/stat", O_RDONLY);
	free(t);
	t = render();
	CHECK(fds >= 3 && value(t, "process_open_fds") == fds + 1);
	close(fd);

	/* started after boot, not in the future, within this test's life (at
	 * most a minute ago) */
	double start = value(t, "process_start_time_seconds");
	time_t now = time(NULL);
	CHECK(start <= (double)now + 1 && start > (double)now - 60);
	free(t);
	return ww_test_done("test_expo_process_metrics");
}
