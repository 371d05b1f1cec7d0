/* `wearwatch qualify DEVICE`: the reviews' load tests of one drive through
 * the qualify library, its health before and after, and the reports. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include <json-c/json.h>

#include "cli/cli.h"
#include "wearwatch/collect.h"
#include "wearwatch/conf.h"
#include "wearwatch/qualify.h"

#ifndef WW_VERSION_STRING
#define WW_VERSION_STRING "unknown"
#endif

static const char usage_qualify[] =
	"usage: wearwatch qualify --list-profiles\n"
	"       wearwatch qualify DEVICE --profile NAME | --custom BS,READ%,random|sequential\n"
	"                 [--load TxQ[,TxQ...] | --sweep] [--seconds N] [--json FILE]\n"
	"                 [--csv FILE] [--html FILE] [--compare OLD.json]\n"
	"                 [--precondition [--precondition-load TxQ] [--round-seconds N]]\n"
	"                 [--destroy-data=SERIAL] [--config FILE] [--offset B] [--size B]\n"
	"\n"
	"Runs a workload profile at each load point (T threads x Q I/Os in flight,\n"
	"io_uring, O_DIRECT) for N seconds and reports per second and per point:\n"
	"IOPS, MB/s, mean, max, standard deviation, p50/p99/p99.9 latency, reads and\n"
	"writes apart; the drive's health record before and after. A profile that\n"
	"reads only opens DEVICE read-only and never writes.\n"
	"\n"
	"A profile that writes DESTROYS THE DATA on DEVICE. It is refused unless\n"
	"DEVICE is a whole block device without partitions, holders, mounts, swap\n"
	"or any signature libblkid knows (filesystem, LVM, md, ZFS, partition table),\n"
	"opens O_EXCL, is not monitored by the collector's configuration (add\n"
	"[drive ID] exclude = yes), and --destroy-data names its serial (its id\n"
	"when it has none). --precondition writes too (a sequential fill).\n"
	"\n"
	"  --list-profiles     the built-in profiles: name, sizes, read %, pattern\n"
	"  --load LIST         load points, e.g. 2T2Q,16T16Q (default: --sweep)\n"
	"  --sweep             the reviews' sweep: T and Q each 2, 4, 8, 16\n"
	"  --seconds N         per load point (default 60)\n"
	"  --precondition      sequential 128k fill, then rounds of the workload\n"
	"                      until steady state (SNIA PTS: 5-round window, range\n"
	"                      <= 20 %, fitted slope <= 10 % of the average; 25 rounds\n"
	"                      at most)\n"
	"  --precondition-load TxQ   load of the rounds (default 16T16Q)\n"
	"  --round-seconds N   length of a round (default 60)\n"
	"  --compare OLD.json  print this run against an earlier report\n"
	"  --config FILE       wearwatch.conf deciding what is monitored\n"
	"                      (default /etc/wearwatch/wearwatch.conf, if present)\n"
	"\n"
	"exit status: 0 done, 1 drive left alone (runtime-suspended), 2 usage,\n"
	"             3 DEVICE missing, open failed or every I/O failed,\n"
	"             4 refused by the write guard, 5 stopped (signal, I/O errors)\n";

enum {
	EXIT_REFUSED = 4,
	EXIT_STOPPED = 5
};

#define MAX_POINTS 64

struct opts {
	const char *dev, *profile, *custom, *json, *csv, *html, *compare, *destroy, *config;
	const char *sysroot;
	unsigned threads[MAX_POINTS], depth[MAX_POINTS], n_points;
	unsigned seconds, round_seconds, pc_threads, pc_depth;
	uint64_t offset, size;
	bool list, precondition;
};

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static int bad(const char *flag, const char *v, const char *want)
{
	fprintf(stderr, "wearwatch qualify: %s '%s': %s\n", flag, v ? v : "", want);
	return -EINVAL;
}

static int parse_loads(const char *s, struct opts *o)
{
	char buf[512], *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return bad("--load", s, "too long");
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (o->n_points == MAX_POINTS)
			return bad("--load", s, "at most 64 load points");
		if (ww_qualify_parse_load(t, &o->threads[o->n_points], &o->depth[o->n_points]))
			return bad("--load", t, "expected TxQ, e.g. 2T2Q or 16x16 (each 1..256)");
		o->n_points++;
	}
	return o->n_points ? 0 : bad("--load", s, "no load point");
}

static int parse_uint(const char *flag, const char *v, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = v ? strtoul(v, &end, 10) : 0;
	if (!v || !*v || *end || errno || x < lo || x > hi) {
		char want[64];

		snprintf(want, sizeof(want), "a whole number %u..%u", lo, hi);
		return bad(flag, v, want);
	}
	*out = (unsigned)x;
	return 0;
}

static int parse(int argc, char **argv, struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sysroot = "";
	o->seconds = 60;
	o->round_seconds = 60;
	o->pc_threads = o->pc_depth = 16;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		const char **s = NULL;

		if (!strcmp(a, "--list-profiles")) {
			o->list = true;
			continue;
		}
		if (!strcmp(a, "--precondition")) {
			o->precondition = true;
			continue;
		}
		if (!strcmp(a, "--sweep")) {
			for (unsigned t = 2; t <= 16; t *= 2)
				for (unsigned q = 2; q <= 16; q *= 2)
					if (o->n_points < MAX_POINTS) {
						o->threads[o->n_points] = t;
						o->depth[o->n_points++] = q;
					}
			continue;
		}
		if (!strncmp(a, "--destroy-data=", 15)) {
			o->destroy = a + 15;
			continue;
		}
		if (!strcmp(a, "--load")) {
			if (!v || parse_loads(v, o))
				return v ? -EINVAL : bad(a, v, "missing value");
			i++;
			continue;
		}
		if (!strcmp(a, "--seconds") || !strcmp(a, "--round-seconds")) {
			if (parse_uint(a, v, 1, 86400,
				       a[2] == 's' ? &o->seconds : &o->round_seconds))
				return -EINVAL;
			i++;
			continue;
		}
		if (!strcmp(a, "--precondition-load")) {
			if (!v || ww_qualify_parse_load(v, &o->pc_threads, &o->pc_depth))
				return bad(a, v, "expected TxQ, e.g. 16T16Q");
			i++;
			continue;
		}
		if (!strcmp(a, "--offset") || !strcmp(a, "--size")) {
			if (!v || ww_probe_parse_size(v, a[2] == 'o' ? &o->offset : &o->size))
				return bad(a, v, "expected bytes (k/M/G suffixes allowed)");
			i++;
			continue;
		}
		if (!strcmp(a, "--profile"))
			s = &o->profile;
		else if (!strcmp(a, "--custom"))
			s = &o->custom;
		else if (!strcmp(a, "--json"))
			s = &o->json;
		else if (!strcmp(a, "--csv"))
			s = &o->csv;
		else if (!strcmp(a, "--html"))
			s = &o->html;
		else if (!strcmp(a, "--compare"))
			s = &o->compare;
		else if (!strcmp(a, "--destroy-data"))
			s = &o->destroy;
		else if (!strcmp(a, "--config"))
			s = &o->config;
		else if (!strcmp(a, "--sysroot"))
			s = &o->sysroot;
		if (s && v) {
			*s = v;
			i++;
			continue;
		}
		if (!s && a[0] != '-' && !o->dev) {
			o->dev = a;
			continue;
		}
		fprintf(stderr, "wearwatch qualify: %s '%s'\n%s",
			s ? "missing value after" : "bad argument", a, usage_qualify);
		return -EINVAL;
	}
	if (o->list)
		return 0;
	if (!o->dev) {
		fprintf(stderr, "wearwatch qualify: no DEVICE given\n%s", usage_qualify);
		return -EINVAL;
	}
	if (!o->profile == !o->custom) {
		fprintf(stderr,
			"wearwatch qualify: give one of --profile NAME (see "
			"--list-profiles) or --custom BS,READ%%,random|sequential\n");
		return -EINVAL;
	}
	return 0;
}

static void list_profiles(void)
{
	printf("%-16s %-28s %6s  %-10s %s\n", "name", "block size", "read%", "pattern", "source");
	for (size_t i = 0; i < ww_qualify_n_profiles; i++) {
		const ww_qualify_profile_t *p = &ww_qualify_profiles[i];
		char sz[128];

		printf("%-16s %-28s %6u  %-10s %s\n", p->name,
		       ww_qualify_sizes_label(p, sz, sizeof(sz)), p->read_percent,
		       p->random ? "random" : "sequential", p->source);
	}
}

/* Whether the collector, run with this configuration, would monitor the
 * drive: discovery lists it (with the configuration's include lists) and no
 * [drive] section excludes it. */
static int monitored(const char *config, const char *sysroot, const ww_drive_t *x, bool *out,
		     char *why, size_t len)
{
	ww_conf_t *c = calloc(1, sizeof(*c));
	const char **include = NULL;
	const char *path = config ? config : WW_CONF_DEFAULT_PATH;
	ww_drive_t *all = NULL;
	char err[512];
	size_t n = 0;
	int r, nd;

	*out = false;
	if (!c)
		return -ENOMEM;
	ww_conf_defaults(c);
	r = ww_conf_load(c, path, !config, err, sizeof(err));
	if (r) {
		fprintf(stderr, "wearwatch qualify: %s\n", r == -EINVAL ? err : strerror(-r));
		ww_conf_free(c);
		free(c);
		return -EINVAL;
	}
	include = calloc(c->n_include + c->n_drives + 1, sizeof(*include));
	if (!include) {
		ww_conf_free(c);
		free(c);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->n_include; i++)
		include[n++] = c->include[i];
	for (size_t i = 0; i < c->n_drives; i++)
		if (c->drives[i].monitor == 1 && ww_conf_is_block_name(c->drives[i].name))
			include[n++] = strncmp(c->drives[i].name, "/dev/", 5)
				? c->drives[i].name
				: c->drives[i].name + 5;
	include[n] = NULL;
	nd = ww_discover_all(sysroot, include, &all);
	for (int i = 0; i < nd && !*out; i++) {
		bool same = !strcmp(all[i].id, x->id);

		for (size_t k = 0; k < all[i].n_paths && !same; k++)
			same = !strcmp(all[i].paths[k], x->block);
		if (!same)
			continue;
		const ww_conf_drive_t *d = ww_conf_drive_find(c, all[i].id, all[i].block);

		if (d && d->monitor == 0)
			break;
		*out = true;
		snprintf(why, len,
			 "with %s, discovery lists it and no [drive %s] exclude = yes "
			 "leaves it out",
			 c->path[0] ? c->path : "the built-in defaults", all[i].id);
	}
	free(all);
	free(include);
	ww_conf_free(c);
	free(c);
	return nd < 0 ? nd : 0;
}

static const char *health_read(const char *sysroot, const ww_drive_t *x, ww_health_t *h,
			       ww_read_report_t *rep, char *buf, size_t len)
{
	int r;

	if (x->protocol == WW_PROTO_NONE) {
		snprintf(buf, len, "no health interface: %s",
			 x->no_health_reason ? x->no_health_reason : "none known");
		return buf;
	}
	r = ww_collect_drive(sysroot, x, h, rep);
	if (r == 1)
		return "left alone: standby or runtime-suspended";
	if (r < 0) {
		snprintf(buf, len, "read failed: %s", strerror(-r));
		return buf;
	}
	return NULL;
}

static int write_file(const char *path, const char *what, int (*fn)(FILE *, const void *),
		      const void *arg)
{
	FILE *f = fopen(path, "we");
	int r;

	if (!f) {
		fprintf(stderr, "wearwatch qualify: %s %s: %s\n", what, path, strerror(errno));
		return -errno;
	}
	r = fn(f, arg);
	if (fclose(f) && !r)
		r = -errno;
	if (r)
		fprintf(stderr, "wearwatch qualify: writing %s %s: %s\n", what, path, strerror(-r));
	return r;
}

static int put_json(FILE *f, const void *arg)
{
	return fputs(arg, f) < 0 || fputc('\n', f) < 0 ? -EIO : 0;
}

static int put_csv(FILE *f, const void *arg)
{
	return ww_qualify_report_csv(f, arg);
}

static int put_html(FILE *f, const void *arg)
{
	return ww_qualify_report_html(f, arg);
}

static void summary(const ww_qualify_report_t *r)
{
	printf("%s on %s: %u load point%s of %u s\n", r->profile->name, r->dev_path, r->n_points,
	       r->n_points == 1 ? "" : "s", r->seconds);
	printf("%-8s %-5s %10s %9s %9s %9s %9s %9s %9s %9s\n", "load", "kind", "IOPS", "MB/s",
	       "avg ms", "max ms", "sd ms", "p50 ms", "p99 ms", "p99.9 ms");
	for (unsigned i = 0; i < r->n_points; i++) {
		const ww_qualify_point_t *p = &r->points[i];
		char load[24];

		snprintf(load, sizeof(load), "%uT%uQ", p->threads, p->depth);
		for (int k = 0; k < 2; k++) {
			ww_qualify_stats_t s;

			ww_qualify_acc_stats(k ? &p->wr : &p->rd, p->elapsed_s, &s);
			if (!s.ios && !s.errors)
				continue;
			printf("%-8s %-5s %10.0f %9.1f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f", load,
			       k ? "write" : "read", s.iops, s.mb_per_s, s.mean_s * 1e3,
			       s.max_s * 1e3, s.stddev_s * 1e3, s.p50_s * 1e3, s.p99_s * 1e3,
			       s.p999_s * 1e3);
			if (s.errors)
				printf("  %" PRIu64 " errors", s.errors);
			putchar('\n');
		}
	}
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 65536 > cap) {
			char *g;

			if (cap > 256u * 1048576) { /* a report is far smaller */
				errno = EFBIG;
				break;
			}
			g = realloc(buf, cap = cap * 2 + 65536);
			if (!g)
				break;
			buf = g;
		}
		size_t k = fread(buf + n, 1, cap - n, f);

		n += k;
		if (!k) {
			fclose(f);
			*len = n;
			return buf;
		}
	}
	fclose(f);
	free(buf);
	return NULL;
}

int ww_cli_qualify(int argc, char **argv)
{
	struct opts o;
	ww_drive_t *all = NULL;
	const ww_drive_t *x;
	ww_qualify_profile_t custom;
	ww_qualify_report_t rep = { 0 };
	ww_qualify_job_t job = { 0 };
	ww_health_t *hb = NULL, *ha = NULL;
	ww_read_report_t *rr = NULL;
	json_object *old = NULL;
	char note_b[256], note_a[256], why[1024];
	struct stat sb;
	uint64_t dev_bytes = 0;
	int fd = -1, lbs = 512, err, code = 0, r;
	struct sigaction sa;

	if (ww_cli_wants_help(argc, argv)) {
		fputs(usage_qualify, stdout);
		return 0;
	}
	if (parse(argc, argv, &o))
		return WW_EXIT_USAGE;
	if (o.list) {
		list_profiles();
		return 0;
	}
	if (o.custom) {
		if (ww_qualify_profile_parse(o.custom, &custom, why, sizeof(why))) {
			fprintf(stderr, "wearwatch qualify: --custom %s\n", why);
			return WW_EXIT_USAGE;
		}
		rep.profile = &custom;
	} else if (!(rep.profile = ww_qualify_profile_find(o.profile))) {
		fprintf(stderr,
			"wearwatch qualify: no profile '%s' (wearwatch qualify "
			"--list-profiles)\n",
			o.profile);
		return WW_EXIT_USAGE;
	}
	if (!o.n_points) {
		for (unsigned t = 2; t <= 16; t *= 2)
			for (unsigned q = 2; q <= 16; q *= 2) {
				o.threads[o.n_points] = t;
				o.depth[o.n_points++] = q;
			}
	}
	if (o.compare) {
		size_t len = 0;
		char *text = slurp(o.compare, &len);

		if (!text) {
			fprintf(stderr, "wearwatch qualify: --compare %s: %s\n", o.compare,
				strerror(errno));
			return WW_EXIT_USAGE;
		}
		old = ww_qualify_compare_parse(text, len, why, sizeof(why));
		free(text);
		if (!old) {
			fprintf(stderr, "wearwatch qualify: --compare %s: %s\n", o.compare, why);
			return WW_EXIT_USAGE;
		}
		rep.compare = old;
		rep.compare_path = o.compare;
	}
	x = ww_cli_lookup_drive(o.sysroot, o.dev, &all, &err);
	if (!x) {
		free(all);
		json_object_put(old);
		return err ? 3 : WW_EXIT_USAGE;
	}
	rep.writes = ww_qualify_profile_writes(rep.profile) || o.precondition;
	if (ww_runtime_suspended(o.sysroot, x->block) == 1) {
		fprintf(stderr, "wearwatch qualify: %s is runtime-suspended; not waking it\n",
			x->dev_path);
		code = 1;
		goto out;
	}
	if (rep.writes) {
		ww_qualify_guard_in_t in = {
			.sysroot = o.sysroot,
			.block = x->block,
			.dev_path = x->dev_path,
			.serial = x->sysfs_serial,
			.id = x->id,
			.destroy_data = o.destroy,
		};
		char mwhy[512] = "";
		enum ww_qualify_guard_check c;

		if (monitored(o.config, o.sysroot, x, &in.monitored, mwhy, sizeof(mwhy))) {
			code = WW_EXIT_USAGE;
			goto out;
		}
		in.monitored_why = mwhy;
		c = ww_qualify_guard_check(&in, &fd, why, sizeof(why));
		if (c != WW_GUARD_OK) {
			fprintf(stderr, "wearwatch qualify: refused (%s): %s\n",
				ww_qualify_guard_name(c), why);
			code = EXIT_REFUSED;
			goto out;
		}
	} else {
		fd = open(x->dev_path, O_RDONLY | O_DIRECT | O_CLOEXEC);
		if (fd < 0) {
			fprintf(stderr, "wearwatch qualify: open %s: %s\n", x->dev_path,
				strerror(errno));
			code = 3;
			goto out;
		}
	}
	if (fstat(fd, &sb) || !S_ISBLK(sb.st_mode) || ioctl(fd, BLKGETSIZE64, &dev_bytes) ||
	    ioctl(fd, BLKSSZGET, &lbs) || lbs <= 0) {
		fprintf(stderr, "wearwatch qualify: %s: not a block device of known size\n",
			x->dev_path);
		code = 3;
		goto out;
	}
	for (unsigned i = 0; i < rep.profile->n_sizes; i++)
		if (rep.profile->sizes[i].bytes % (unsigned)lbs) {
			fprintf(stderr,
				"wearwatch qualify: %s moves %u bytes; %s has %d-byte "
				"logical blocks\n",
				rep.profile->name, rep.profile->sizes[i].bytes, x->dev_path, lbs);
			code = WW_EXIT_USAGE;
			goto out;
		}
	job.range_start = (o.offset + (uint64_t)lbs - 1) / (uint64_t)lbs * (uint64_t)lbs;
	job.range_len = o.size                ? o.size
		: dev_bytes > job.range_start ? dev_bytes - job.range_start
					      : 0;
	if (job.range_start + job.range_len > dev_bytes)
		job.range_len = dev_bytes > job.range_start ? dev_bytes - job.range_start : 0;
	job.range_len = job.range_len / 131072 * 131072; /* whole largest transfers */
	if (!job.range_len) {
		fprintf(stderr, "wearwatch qualify: %s: nothing to test in that range\n",
			x->dev_path);
		code = WW_EXIT_USAGE;
		goto out;
	}
	hb = calloc(1, sizeof(*hb));
	ha = calloc(1, sizeof(*ha));
	rr = calloc(1, sizeof(*rr));
	rep.points = calloc(o.n_points, sizeof(*rep.points));
	if (!hb || !ha || !rr || !rep.points) {
		code = 3;
		goto out;
	}
	rep.before_note = health_read(o.sysroot, x, hb, rr, note_b, sizeof(note_b));
	rep.before = rep.before_note ? NULL : hb;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	job.fd = fd;
	job.profile = rep.profile;
	job.lbs = (uint32_t)lbs;
	job.seed = (uint64_t)time(NULL);
	job.stop = &stop_flag;
	job.progress = stderr;
	rep.version = WW_VERSION_STRING;
	rep.dev_path = x->dev_path;
	rep.block = x->block;
	rep.id = x->id;
	rep.serial = x->sysfs_serial;
	rep.model = x->sysfs_model;
	rep.firmware = x->sysfs_firmware;
	rep.capacity_bytes = dev_bytes;
	rep.lbs = (uint32_t)lbs;
	rep.seconds = o.seconds;
	rep.started = (long long)time(NULL);

	r = 0;
	if (o.precondition) {
		static const ww_qualify_profile_t fill = { "fill", { { 131072, 100 } }, 1, 0,
							   false,  "sequential fill" };
		ww_qualify_job_t fj = job;

		rep.preconditioned = true;
		rep.round_seconds = o.round_seconds;
		rep.fill = calloc(1, sizeof(*rep.fill));
		rep.rounds = calloc(WW_PTS_MAX_ROUNDS, sizeof(*rep.rounds));
		if (!rep.fill || !rep.rounds) {
			code = 3;
			goto out;
		}
		fj.profile = &fill;
		fj.fill_once = true;
		fj.phase = "precondition: fill";
		rep.fill->threads = 1;
		rep.fill->depth = o.pc_depth;
		r = ww_qualify_run_point(&fj, rep.fill, &rep.tally);
		double y[WW_PTS_MAX_ROUNDS];

		for (unsigned k = 0; !r && !rep.tally.stopped && k < WW_PTS_MAX_ROUNDS; k++) {
			ww_qualify_point_t *p = &rep.rounds[k];
			char phase[64];

			snprintf(phase, sizeof(phase), "precondition: round %u", k + 1);
			job.phase = phase;
			p->threads = o.pc_threads;
			p->depth = o.pc_depth;
			p->seconds = o.round_seconds;
			r = ww_qualify_run_point(&job, p, &rep.tally);
			rep.n_rounds = k + 1;
			y[k] = p->elapsed_s > 0 ? (double)(p->rd.ios + p->wr.ios) / p->elapsed_s
						: 0;
			ww_qualify_steady_check(y, k + 1, &rep.steady);
			if (rep.steady.reached)
				break;
		}
		job.phase = NULL;
		if (!rep.tally.stopped)
			fprintf(stderr, "precondition: %s after %u rounds\n",
				rep.steady.reached ? "steady state" : "no steady state",
				rep.n_rounds);
	}
	for (unsigned i = 0; !r && !rep.tally.stopped && i < o.n_points; i++) {
		ww_qualify_point_t *p = &rep.points[i];

		p->threads = o.threads[i];
		p->depth = o.depth[i];
		p->seconds = o.seconds;
		r = ww_qualify_run_point(&job, p, &rep.tally);
		rep.n_points = i + 1;
	}
	rep.finished = (long long)time(NULL);
	close(fd);
	fd = -1;
	rep.after_note = health_read(o.sysroot, x, ha, rr, note_a, sizeof(note_a));
	rep.after = rep.after_note ? NULL : ha;
	if (r)
		fprintf(stderr, "wearwatch qualify: %s: %s\n", x->dev_path, strerror(-r));

	summary(&rep);
	if (old)
		ww_qualify_compare_print(stdout, old, &rep);
	if (rep.tally.writes)
		fprintf(stderr,
			"wearwatch qualify: wrote %" PRIu64 " bytes in %" PRIu64 " writes (%" PRIu64
			" of them failed) to %s, between byte offsets %" PRIu64 " and %" PRIu64
			"\n",
			rep.tally.bytes_written, rep.tally.writes, rep.tally.write_errors,
			x->dev_path, rep.tally.lowest_written, rep.tally.highest_written);
	if (rep.tally.stopped)
		fprintf(stderr, "wearwatch qualify: stopped (%s)%s%s\n", rep.tally.stopped,
			rep.tally.last_error ? ": last error " : "",
			rep.tally.last_error ? strerror(-rep.tally.last_error) : "");
	if (o.json) {
		char *js = ww_qualify_report_json(&rep);

		if (!js || write_file(o.json, "JSON report", put_json, js))
			code = 3;
		free(js);
	}
	if (o.csv && write_file(o.csv, "CSV", put_csv, &rep))
		code = 3;
	if (o.html && write_file(o.html, "HTML report", put_html, &rep))
		code = 3;
	if (!code && rep.tally.stopped)
		code = EXIT_STOPPED;
	if (!code && (r || (rep.tally.errors && !rep.tally.bytes_read && !rep.tally.bytes_written)))
		code = 3;
out:
	if (fd >= 0)
		close(fd);
	for (unsigned i = 0; i < rep.n_points; i++)
		ww_qualify_point_free(&rep.points[i]);
	for (unsigned i = 0; i < rep.n_rounds; i++)
		ww_qualify_point_free(&rep.rounds[i]);
	if (rep.fill)
		ww_qualify_point_free(rep.fill);
	free(rep.fill);
	free(rep.rounds);
	free(rep.points);
	free(hb);
	free(ha);
	free(rr);
	free(all);
	json_object_put(old);
	return code;
}
