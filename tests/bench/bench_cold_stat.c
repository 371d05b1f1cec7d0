/* What a file check costs on a cold cache, as at the start of a round after
 * the service slept a poll interval: a stat of a path (every directory of it
 * walked), an fstatat of its last component from a directory descriptor,
 * and an fstat of a descriptor kept open. Before each timed call the cache
 * is pushed out (a walk over a buffer larger than the last-level cache)
 * and the thread sleeps 2 ms, so the kernel's path walk, its permission
 * and security hooks and the inode start cold, as they do once per round.
 * Prints the mean of each, in ns.
 *
 *   build/bench_cold_stat [-n SAMPLES] [-b BUFFER_MIB] FILE
 *
 * FILE: a file some directories deep (the service's history file's -wal,
 * a capture under /var/tmp). Defaults: 300 samples, a 32 MiB buffer. */
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile unsigned char *junk;
static size_t junk_len;

/* the caches pushed out, then a short sleep (a switch away and back) */
static void go_cold(void)
{
	struct timespec nap = { 0, 2000000 };

	for (size_t i = 0; i < junk_len; i += 64)
		junk[i]++;
	nanosleep(&nap, NULL);
}

int main(int argc, char **argv)
{
	long samples = 300, mib = 32;
	double t_path = 0, t_at = 0, t_fd = 0, t;
	char dir[4096], base[4096];
	const char *leaf;
	struct stat sb;
	int opt, dfd, fd;

	while ((opt = getopt(argc, argv, "n:b:")) != -1) {
		if (opt == 'n')
			samples = atol(optarg);
		else if (opt == 'b')
			mib = atol(optarg);
		else
			return 2;
	}
	if (optind >= argc || samples <= 0 || mib <= 0) {
		fprintf(stderr, "usage: %s [-n SAMPLES] [-b BUFFER_MIB] FILE\n", argv[0]);
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s", argv[optind]);
	snprintf(base, sizeof(base), "%s", argv[optind]);
	junk_len = (size_t)mib << 20;
	junk = malloc(junk_len);
	leaf = basename(base);
	dfd = open(dirname(dir), O_PATH | O_DIRECTORY | O_CLOEXEC);
	fd = open(argv[optind], O_RDONLY | O_CLOEXEC);
	if (!junk || dfd < 0 || fd < 0) {
		perror(argv[optind]);
		return 1;
	}
	memset((void *)junk, 1, junk_len);
	for (long i = 0; i < samples; i++) {
		go_cold();
		t = now_ns();
		if (stat(argv[optind], &sb) < 0)
			return 1;
		t_path += now_ns() - t;
		go_cold();
		t = now_ns();
		if (fstatat(dfd, leaf, &sb, 0) < 0)
			return 1;
		t_at += now_ns() - t;
		go_cold();
		t = now_ns();
		if (fstat(fd, &sb) < 0)
			return 1;
		t_fd += now_ns() - t;
	}
	printf("cold, %ld samples each: stat of the path %.0f ns, fstatat from its directory"
	       " %.0f ns, fstat of an open descriptor %.0f ns\n",
	       samples, t_path / samples, t_at / samples, t_fd / samples);
	close(fd);
	close(dfd);
	free((void *)junk);
	return 0;
}
