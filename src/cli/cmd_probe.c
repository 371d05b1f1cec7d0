/* `wearwatch probe DEVICE`: one measurement with the same engine and figures
 * as the service's probes. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <unistd.h>

#include <json-c/json.h>

#include "wearwatch/conf.h"
#include "cli/cli.h"
#include "wearwatch/discover.h"

static const char usage_probe[] =
	"usage: wearwatch probe DEVICE [--bs 4k] [--qd 1] [--count N | --runtime S]\n"
	"                       [--iops N] [--offset BYTES] [--size BYTES] [--json]\n"
	"\n"
	"Sends random aligned O_DIRECT reads (never writes) through io_uring at\n"
	"best-effort I/O priority 7 and prints count, errors, min, mean, max,\n"
	"standard deviation, p50, p90, p99 and (from 10000 reads) p99.9 latency.\n"
	"DEVICE: /dev/sda, sda, a /dev/disk/by-id path, or a regular file.\n"
	"\n"
	"  --bs SIZE       read size, multiple of the logical block size (default 4k)\n"
	"  --qd N          reads in flight (default 1)\n"
	"  --count N       reads to send, 1 or more (default 64)\n"
	"  --runtime S     send reads for S seconds instead of a count (0.5 allowed)\n"
	"  --iops N        at most N reads per second (default back to back)\n"
	"  --offset/--size range of the device probed, bytes (default all of it)\n"
	"  --json          one JSON object\n"
	"\n"
	"exit status: 0 done, 1 drive left alone (runtime-suspended), 2 usage,\n"
	"             3 DEVICE missing, open failed or every read failed\n";

struct cli {
	const char *dev;
	uint64_t bs, qd, count, runtime_ns, iops, offset, size;
	bool json;
};

/* --runtime S: seconds, fractions allowed (0.5), more than 0, at most a day */
static int parse_runtime(const char *s, uint64_t *ns)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || errno || end == s || *end || !(v > 0) || v > 86400)
		return -EINVAL;
	*ns = (uint64_t)(v * 1e9);
	return *ns ? 0 : -EINVAL;
}

static int bad_value(const char *flag, const char *v, const char *want)
{
	fprintf(stderr, "wearwatch probe: %s '%s': %s\n", flag, v, want);
	return -EINVAL;
}

static int parse(int argc, char **argv, struct cli *c)
{
	bool count_set = false;

	memset(c, 0, sizeof(*c));
	c->bs = 4096;
	c->qd = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t *dst = NULL;

		if (!strcmp(a, "--json")) {
			c->json = true;
			continue;
		}
		if (!strcmp(a, "--runtime") && v) {
			if (parse_runtime(v, &c->runtime_ns))
				return bad_value(a, v,
						 "expected seconds, more than 0 "
						 "(fractions allowed: 0.5), at most 86400");
			i++;
			continue;
		}
		if (!strcmp(a, "--bs"))
			dst = &c->bs;
		else if (!strcmp(a, "--qd"))
			dst = &c->qd;
		else if (!strcmp(a, "--count"))
			dst = &c->count, count_set = true;
		else if (!strcmp(a, "--iops"))
			dst = &c->iops;
		else if (!strcmp(a, "--offset"))
			dst = &c->offset;
		else if (!strcmp(a, "--size"))
			dst = &c->size;
		if (dst && v) {
			if (ww_probe_parse_size(v, dst))
				return bad_value(
					a, v, "expected a whole number (k/M/G suffixes allowed)");
			i++;
			continue;
		}
		if (!dst && a[0] != '-' && !c->dev) {
			c->dev = a;
			continue;
		}
		fprintf(stderr, "wearwatch probe: %s '%s'\n%s",
			dst ? "missing value after" : "bad argument", a, usage_probe);
		return -EINVAL;
	}
	if (!c->dev) {
		fprintf(stderr, "wearwatch probe: no DEVICE given\n%s", usage_probe);
		return -EINVAL;
	}
	if (count_set && c->runtime_ns) {
		fprintf(stderr, "wearwatch probe: give --count or --runtime, not both\n");
		return -EINVAL;
	}
	if (count_set && (!c->count || c->count > UINT32_MAX)) {
		fprintf(stderr, "wearwatch probe: --count must be 1 to %u\n", UINT32_MAX);
		return -EINVAL;
	}
	if (!c->qd || c->qd > 256) {
		fprintf(stderr, "wearwatch probe: --qd must be 1 to 256\n");
		return -EINVAL;
	}
	if (!c->bs || c->bs > (64u << 20)) {
		fprintf(stderr,
			"wearwatch probe: --bs must be more than 0 and at most 64M "
			"(a multiple of the logical block size)\n");
		return -EINVAL;
	}
	if (c->iops > UINT32_MAX) {
		fprintf(stderr, "wearwatch probe: --iops must be at most %u\n", UINT32_MAX);
		return -EINVAL;
	}
	if (!c->count && !c->runtime_ns)
		c->count = 64;
	return 0;
}

/* a JSON number printed with 9 significant digits (0.003004064, not
 * 0.0030040639999999999: json-c prints doubles with %.17g) */
static json_object *dbl(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.9g", v);
	return json_object_new_double_s(v, buf);
}

struct acc {
	ww_probe_stats_t st;
};

static void on_read(void *ctx, const ww_probe_read_t *r)
{
	struct acc *a = ctx;

	ww_probe_stats_add(&a->st, r->res > 0, r->lat_ns);
}

static void print_text(const struct cli *c, const char *path, const ww_probe_summary_t *s,
		       const ww_probe_burst_t *b, double secs, double cpu_s)
{
	printf("%s: %" PRIu64 " reads of %" PRIu64 " bytes at queue depth %" PRIu64
	       ", %u errors, %.3f s, %.0f IOPS\n",
	       path, s->reads_total, c->bs, c->qd, b->errors, secs,
	       secs > 0 ? (double)b->completed / secs : 0);
	printf("latency us: min %.1f  mean %.1f  max %.1f  stddev %.1f\n", s->min_s * 1e6,
	       s->mean_s * 1e6, s->max_s * 1e6, s->stddev_s * 1e6);
	printf("            p50 %.1f  p90 %.1f  p99 %.1f", s->p50_s * 1e6, s->p90_s * 1e6,
	       s->p99_s * 1e6);
	if (s->has_p999)
		printf("  p99.9 %.1f", s->p999_s * 1e6);
	printf("\ncpu: %.2f us (user+system) per read\n",
	       b->completed ? cpu_s * 1e6 / b->completed : 0);
	if (b->hung)
		printf("a read did not return within the timeout: drive hung\n");
	if (b->last_error)
		printf("last error: %s\n", strerror(-b->last_error));
}

static void print_json(const struct cli *c, const char *path, const ww_probe_summary_t *s,
		       const ww_probe_burst_t *b, double secs, double cpu_s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "device", json_object_new_string(path));
	json_object_object_add(o, "block_bytes", json_object_new_int64((int64_t)c->bs));
	json_object_object_add(o, "queue_depth", json_object_new_int64((int64_t)c->qd));
	json_object_object_add(o, "reads", json_object_new_int64((int64_t)s->reads_total));
	json_object_object_add(o, "errors", json_object_new_int64(b->errors));
	json_object_object_add(o, "elapsed_seconds", dbl(secs));
	json_object_object_add(o, "min_seconds", dbl(s->min_s));
	json_object_object_add(o, "mean_seconds", dbl(s->mean_s));
	json_object_object_add(o, "max_seconds", dbl(s->max_s));
	json_object_object_add(o, "stddev_seconds", dbl(s->stddev_s));
	json_object_object_add(o, "p50_seconds", dbl(s->p50_s));
	json_object_object_add(o, "p90_seconds", dbl(s->p90_s));
	json_object_object_add(o, "p99_seconds", dbl(s->p99_s));
	if (s->has_p999)
		json_object_object_add(o, "p999_seconds", dbl(s->p999_s));
	json_object_object_add(o, "cpu_seconds_per_read",
			       dbl(b->completed ? cpu_s / b->completed : 0));
	json_object_object_add(o, "hung", json_object_new_boolean(b->hung));
	if (b->last_error)
		json_object_object_add(o, "last_error",
				       json_object_new_string(strerror(-b->last_error)));
	puts(json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static double cpu_now(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
		ru.ru_stime.tv_usec / 1e6;
}

/* The device or file a probe reads, open O_DIRECT, and its geometry. */
struct target {
	char path[PATH_MAX];
	int fd;
	uint64_t bytes;
	unsigned lbs;
};

/* 0 with t->fd open, else the exit status (message printed) */
static int open_target(const char *dev, struct target *t)
{
	char real[PATH_MAX];
	struct stat sb;
	int l = 0;

	t->fd = -1;
	t->lbs = 512;
	t->bytes = 0;
	snprintf(t->path, sizeof(t->path), "%s%s", strchr(dev, '/') ? "" : "/dev/", dev);
	if (stat(t->path, &sb)) { /* not a usage error: the open would fail */
		fprintf(stderr, "wearwatch probe: %s: %s\n", t->path, strerror(errno));
		return 3;
	}
	if (S_ISBLK(sb.st_mode) && realpath(t->path, real) &&
	    ww_runtime_suspended("", basename(real)) == 1) {
		fprintf(stderr, "wearwatch probe: %s is runtime-suspended; not waking it\n",
			t->path);
		return 1;
	}
	t->fd = open(t->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (t->fd < 0) {
		fprintf(stderr, "wearwatch probe: open %s O_RDONLY|O_DIRECT: %s\n", t->path,
			strerror(errno));
		return 3;
	}
	if (S_ISREG(sb.st_mode))
		t->bytes = (uint64_t)sb.st_size;
	else if (S_ISBLK(sb.st_mode) &&
		 (ioctl(t->fd, BLKGETSIZE64, &t->bytes) || ioctl(t->fd, BLKSSZGET, &l) || l <= 0))
		return close(t->fd), 3;
	if (l > 0)
		t->lbs = (unsigned)l;
	return 0;
}

/* --bs/--offset/--size against the target: 0 or exit status 2 */
static int fit_range(struct cli *c, const struct target *t)
{
	if (c->bs % t->lbs || c->offset % c->bs) {
		fprintf(stderr,
			"wearwatch probe: --bs must be a multiple of %u and --offset of "
			"--bs\n",
			t->lbs);
		return 2;
	}
	if (!c->size)
		c->size = t->bytes > c->offset ? t->bytes - c->offset : 0;
	c->size -= c->size % c->bs;
	if (c->size < c->bs || c->offset + c->size > t->bytes) {
		fprintf(stderr, "wearwatch probe: range outside %s (%" PRIu64 " bytes)\n", t->path,
			t->bytes);
		return 2;
	}
	return 0;
}

/* one burst to its end; prints the result; returns the exit status */
static int run_burst(const struct cli *c, const struct target *t, struct acc *a)
{
	ww_probe_engine_t *e;
	ww_probe_burst_t b;
	ww_probe_summary_t sum;
	uint64_t t0;
	double secs, cpu;
	int err = 0;

	e = ww_probe_engine_new((unsigned)c->qd, &err);
	if (!e) {
		fprintf(stderr, "wearwatch probe: io_uring: %s\n", strerror(-err));
		return 3;
	}
	memset(&b, 0, sizeof(b));
	b.fd = t->fd;
	b.range_start = c->offset;
	b.range_len = c->size;
	b.bs = (uint32_t)c->bs;
	b.qd = (uint32_t)c->qd;
	b.count = (uint32_t)c->count;
	b.runtime_ns = c->runtime_ns;
	b.max_iops = (uint32_t)c->iops;
	b.seed = ww_probe_now_ns() | 1;
	b.on_read = on_read;
	b.ctx = a;
	cpu = cpu_now();
	t0 = ww_probe_now_ns();
	err = ww_probe_burst_start(e, &b);
	while (!err && !b.done) {
		int r = ww_probe_engine_step(e, 1000);

		if (r < 0)
			err = r;
	}
	secs = (double)(ww_probe_now_ns() - t0) / 1e9;
	cpu = cpu_now() - cpu;
	ww_probe_engine_free(e);
	if (err) {
		fprintf(stderr, "wearwatch probe: %s\n", strerror(-err));
		return 3;
	}
	memset(&sum, 0, sizeof(sum));
	ww_probe_stats_summary(&a->st, &sum);
	if (c->json)
		print_json(c, t->path, &sum, &b, secs, cpu);
	else
		print_text(c, t->path, &sum, &b, secs, cpu);
	return sum.reads_total ? 0 : 3;
}

int ww_cli_probe(int argc, char **argv)
{
	struct cli c;
	struct target t;
	struct acc a;
	int code;

	if (ww_cli_wants_help(argc, argv)) {
		fputs(usage_probe, stdout);
		return 0;
	}
	if (parse(argc, argv, &c))
		return 2;
	if ((code = open_target(c.dev, &t)))
		return code;
	code = fit_range(&c, &t);
	if (!code && ww_probe_stats_init(&a.st, c.count ? (uint32_t)c.count : 1000000))
		code = 3;
	else if (!code) {
		code = run_burst(&c, &t, &a);
		ww_probe_stats_free(&a.st);
	}
	close(t.fd);
	return code;
}
