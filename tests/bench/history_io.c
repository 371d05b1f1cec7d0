/* Bytes the history writes to the host's disk, per drive per day, with the
 * service's defaults: N drives, one sample and one probe burst per drive per
 * poll (60 s), for DAYS simulated days on a fake clock, through the real
 * ww_history (commits, checkpoints, hourly thinning). Used by
 * scripts/bench-cost.sh; not a test.
 *
 * The clock is simulated, the disk is not: the kernel counts a page in
 * /proc/PID/io write_bytes when it becomes dirty, and a page dirtied again
 * before writeback (30 s) is not counted again. In the service, polls are
 * 60 s apart, so every commit's pages are written back before the next one;
 * here syncfs() after each round that dirtied anything does the same. The
 * figure is write_bytes over the run / drives / days.
 *
 * usage: history_io DB DRIVES DAYS [START [ID_PREFIX]]
 *   DB        history file (created, or an aged one from
 *             scripts/mkhistory.py, whose drives are ID_PREFIX0..N-1)
 *   START     first simulated time (default: now)
 * prints: "history_io: drives N days D bytes B per_drive_day X cpu_us_per_sample Y" */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "wearwatch/history.h"

static long long io_write_bytes(void)
{
	FILE *f = fopen("/proc/self/io", "r");
	char line[128];
	long long v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "write_bytes: %lld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int main(int argc, char **argv)
{
	ww_history_t *h;
	char err[256], id[128];
	static ww_health_t rec;
	long drives, days, rounds;
	time_t start;
	const char *prefix;
	long long b0, last;
	double c0;
	int fd;

	if (argc < 4) {
		fprintf(stderr, "usage: history_io DB DRIVES DAYS [START [ID_PREFIX]]\n");
		return 2;
	}
	drives = atol(argv[2]);
	days = atol(argv[3]);
	start = argc > 4 && atoll(argv[4]) ? (time_t)atoll(argv[4]) : time(NULL);
	prefix = argc > 5 ? argv[5] : "nvme-bench-";
	if (ww_history_open(argv[1], NULL, &h, err, sizeof(err)) < 0) {
		fprintf(stderr, "history_io: %s\n", err);
		return 1;
	}
	fd = open(argv[1], O_RDONLY);
	rounds = days * 86400 / 60;
	syncfs(fd);
	b0 = last = io_write_bytes();
	c0 = cpu_s();
	for (long r = 0; r < rounds; r++) {
		time_t now = start + r * 60;
		long long b;

		for (long d = 0; d < drives; d++) {
			ww_hprobe_t p = { .has_latency = true, .p50_s = 80e-6, .p99_s = 400e-6,
					  .max_s = 1e-3, .reads = 64 };

			snprintf(id, sizeof(id), "%s%ld", prefix, d);
			memset(&rec, 0, sizeof(rec));
			WW_SET(rec.host_written_bytes, (uint64_t)(now - 1600000000) * 600000 + d, "b");
			WW_SET(rec.host_read_bytes, (uint64_t)(now - 1600000000) * 900000 + d, "b");
			WW_SET(rec.power_on_seconds, (uint64_t)(now - 1600000000), "b");
			WW_SET(rec.temperature_celsius, 30 + r % 7, "b");
			WW_SET(rec.endurance_used_percent, 3, "b");
			WW_SET(rec.unsafe_shutdowns, 4, "b");
			WW_SET(rec.media_errors, 0, "b");
			WW_SET(rec.available_spare_percent, 100, "b");
			ww_history_append(h, id, &rec, true, now, NULL);
			ww_history_append_probe(h, id, &p, now);
		}
		b = io_write_bytes();
		if (b != last) { /* what the kernel writes back before the next poll */
			syncfs(fd);
			last = b;
		}
	}
	ww_history_close(h);
	syncfs(fd);
	close(fd);
	{
		long long bytes = io_write_bytes() - b0;

		printf("history_io: drives %ld days %ld bytes %lld per_drive_day %.0f"
		       " cpu_us_per_sample %.2f\n", drives, days, bytes,
		       (double)bytes / drives / days, (cpu_s() - c0) * 1e6 / (rounds * drives));
	}
	return 0;
}
