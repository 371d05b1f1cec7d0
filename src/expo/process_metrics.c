/* The process_* self-metrics every Prometheus client library exports (the
 * Go client's process collector; names, types and help text as it writes
 * them), read from Linux's /proc (proc(5)): /proc/self/stat fields 14-15
 * utime/stime, 22 starttime (clock ticks since boot), 23 vsize (bytes), 24 rss
 * (pages); /proc/stat btime (boot, Unix seconds; else from the clocks); /proc/self/fd entries;
 * RLIMIT_NOFILE. A figure that cannot be read is left out, never invented.
 * In the split deployment these describe the process that serves /metrics
 * (`wearwatch web`); `serve` is one process. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "wearwatch/basic.h"
#include "expo/metrics_table.h"

/* fields 14 (utime) .. 24 (rss) of /proc/self/stat; 0 or -1 */
static int read_stat(unsigned long long v[11])
{
	char buf[1024], *p;
	size_t n;
	FILE *f = fopen("/proc/self/stat", "re");

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* the command name (field 2) may hold spaces and ')': fields 3.. follow
	 * the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	/* to the space before field 14: the one before field 3 (state) and
	 * those after fields 3 to 13 (cmajflt) */
	for (int i = 0; i < 12; i++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -1;
	}
	for (int i = 0; i < 11; i++) {
		char *end;

		v[i] = strtoull(p + 1, &end, 10);
		if (end == p + 1)
			return -1;
		p = end;
	}
	return 0;
}

/* /proc/stat btime; where /proc shows only processes (the web unit's
 * ProcSubset=pid) the same instant from the clocks: now - time since boot
 * (CLOCK_BOOTTIME counts suspend, as starttime does) */
static long long boot_time(void)
{
	char line[256];
	long long bt = -1;
	FILE *f = fopen("/proc/stat", "re");

	while (f && bt < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %lld", &bt) != 1)
			bt = -1;
	if (f)
		fclose(f);
	if (bt < 0)
		bt = ww_clock_boot_time();
	return bt;
}

static long open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	long n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1; /* the directory stream's own descriptor */
}

/* one figure of the process, written as the client libraries do (%.15g) */
static void put(ww_prom_t *w, double v)
{
	ww_prom_sample(w, NULL, NULL, ww_pv_double(v, WW_DBL_G15));
}

static void g_cpu(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	unsigned long long st[11]; /* [0] utime, [1] stime */
	long tck = sysconf(_SC_CLK_TCK);

	if (tck > 0 && !read_stat(st))
		put(w, (double)(st[0] + st[1]) / (double)tck);
}

static void g_vsize(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	unsigned long long st[11]; /* [9] vsize */

	if (!read_stat(st))
		put(w, (double)st[9]);
}

static void g_rss(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	unsigned long long st[11]; /* [10] rss, pages */
	long page = sysconf(_SC_PAGESIZE);

	if (page > 0 && !read_stat(st))
		put(w, (double)st[10] * (double)page);
}

static void g_start(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	unsigned long long st[11]; /* [8] starttime, ticks since boot */
	long tck = sysconf(_SC_CLK_TCK);
	long long bt = boot_time();

	if (tck > 0 && bt > 0 && !read_stat(st))
		put(w, (double)bt + (double)st[8] / (double)tck);
}

static void g_open_fds(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	long fds = open_fds();

	if (fds >= 0)
		put(w, (double)fds);
}

static void g_max_fds(ww_prom_t *w, const ww_metric_t *m, const ww_mdrive_t *d)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY)
		put(w, (double)rl.rlim_cur);
}

const ww_metric_t ww_metrics_self[] = {
	{ .name = "process_cpu_seconds_total", .type = "counter",
	  .help = "Total user and system CPU time spent in seconds.", .get = g_cpu,
	  .no_drive = true },
	{ .name = "process_virtual_memory_bytes", .type = "gauge",
	  .help = "Virtual memory size in bytes.", .get = g_vsize, .no_drive = true },
	{ .name = "process_resident_memory_bytes", .type = "gauge",
	  .help = "Resident memory size in bytes.", .get = g_rss, .no_drive = true },
	{ .name = "process_start_time_seconds", .type = "gauge",
	  .help = "Start time of the process since unix epoch in seconds.", .get = g_start,
	  .no_drive = true },
	{ .name = "process_open_fds", .type = "gauge",
	  .help = "Number of open file descriptors.", .get = g_open_fds, .no_drive = true },
	{ .name = "process_max_fds", .type = "gauge",
	  .help = "Maximum number of open file descriptors.", .get = g_max_fds, .no_drive = true },
	{ 0 }
};
