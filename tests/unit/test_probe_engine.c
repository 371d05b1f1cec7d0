/* The io_uring probe engine against a regular file opened O_RDONLY|O_DIRECT
 * (ext4 and xfs accept O_DIRECT; tmpfs before 6.6 does not, so the file is
 * made in the current directory, the build tree). Every 4 KiB block of the
 * file starts with its own byte offset (written here), so each read's bytes
 * prove which block came back. Also: errors counted (reads past EOF), pacing
 * bound, nothing written (content and mtime unchanged), sysfs gates on a
 * constructed sysfs tree. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wearwatch/probe.h"
#include "ww_test.h"

#define FILE_BYTES (4u << 20)
#define BS 4096u

struct seen {
	uint64_t lo, hi;
	unsigned reads, bad_align, bad_range, bad_bytes, errors;
	int asked;                  /* may_issue calls */
};

static bool allow_five(void *ctx)
{
	struct seen *s = ctx;

	return ++s->asked <= 5;
}

static void on_read(void *ctx, const ww_probe_read_t *r)
{
	struct seen *s = ctx;
	uint64_t tag;

	s->reads++;
	if (r->offset % BS)
		s->bad_align++;
	if (r->offset < s->lo || r->offset + BS > s->hi)
		s->bad_range++;
	if (r->res != (int)BS) {
		s->errors++;
		return;
	}
	memcpy(&tag, r->buf, sizeof(tag));
	if (tag != r->offset)
		s->bad_bytes++;
}

static uint64_t fnv(const char *path)
{
	size_t n;
	unsigned char *b = ww_read_file(NULL, path, &n);
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; b && i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	free(b);
	return h;
}

static int run(ww_probe_engine_t *e, ww_probe_burst_t *b)
{
	int r = ww_probe_burst_start(e, b);

	while (!r && !b->done) {
		r = ww_probe_engine_step(e, 1000);
		if (r > 0)
			r = 0;
	}
	return r;
}

static void test_engine(const char *path)
{
	ww_probe_engine_t *e;
	ww_probe_burst_t b;
	struct seen s = { .lo = 64 * 1024, .hi = 64 * 1024 + (1u << 20) };
	struct stat before, after;
	uint64_t h0 = fnv(path), t0;
	int err = 0, fd;

	CHECK(stat(path, &before) == 0);
	fd = open(path, O_RDONLY | O_DIRECT);
	if (fd < 0) {
		/* a filesystem without O_DIRECT is a broken test setup, not a pass */
		fprintf(stderr, "open O_DIRECT %s: %s\n", path, strerror(errno));
		CHECK(fd >= 0);
		return;
	}
	e = ww_probe_engine_new(8, &err);
	CHECK(e != NULL);
	if (!e) {
		close(fd);
		return;
	}

	/* 500 reads at qd 1 inside [64 KiB, 64 KiB + 1 MiB) */
	memset(&b, 0, sizeof(b));
	b.fd = fd;
	b.range_start = s.lo;
	b.range_len = s.hi - s.lo;
	b.bs = BS;
	b.qd = 1;
	b.count = 500;
	b.seed = 42;
	b.on_read = on_read;
	b.ctx = &s;
	CHECK(run(e, &b) == 0);
	CHECK(b.done && !b.hung);
	CHECK_EQ_U64(b.issued, 500);
	CHECK_EQ_U64(b.completed, 500);
	CHECK_EQ_U64(s.reads, 500);
	CHECK_EQ_U64(b.errors, 0);
	CHECK_EQ_U64(s.bad_align, 0);
	CHECK_EQ_U64(s.bad_range, 0);
	CHECK_EQ_U64(s.bad_bytes, 0);
	CHECK(b.max_ns > 0);

	/* queue depth 4 over the whole file, same checks */
	memset(&s, 0, sizeof(s));
	s.hi = FILE_BYTES;
	b.range_start = 0;
	b.range_len = FILE_BYTES;
	b.qd = 4;
	b.count = 400;
	CHECK(run(e, &b) == 0);
	CHECK_EQ_U64(s.reads, 400);
	CHECK_EQ_U64(s.bad_align + s.bad_range + s.bad_bytes + b.errors, 0);

	/* range twice the file: reads past EOF come back short (0 bytes) and
	 * are errors; the burst still completes every read */
	memset(&s, 0, sizeof(s));
	s.hi = 2ull * FILE_BYTES;
	b.range_len = 2ull * FILE_BYTES;
	b.qd = 1;
	b.count = 200;
	CHECK(run(e, &b) == 0);
	CHECK_EQ_U64(b.completed, 200);
	CHECK(b.errors > 20 && b.errors < 180);
	CHECK_EQ_U64(s.errors, b.errors);
	CHECK(b.last_error == -EIO);

	/* pacing: 40 reads at 400 IOPS cannot finish in under 39 x 2.5 ms */
	memset(&s, 0, sizeof(s));
	s.hi = FILE_BYTES;
	b.range_len = FILE_BYTES;
	b.count = 40;
	b.max_iops = 400;
	t0 = ww_probe_now_ns();
	CHECK(run(e, &b) == 0);
	CHECK(ww_probe_now_ns() - t0 >= 39 * 2500000ull);
	CHECK_EQ_U64(s.reads, 40);

	/* may_issue asked before every read: it allows 5, then the drive
	 * "suspends"; the burst ends there with nothing more sent */
	memset(&s, 0, sizeof(s));
	s.hi = FILE_BYTES;
	b.max_iops = 0;
	b.count = 50;
	b.may_issue = allow_five;
	CHECK(run(e, &b) == 0);
	CHECK(b.done && b.stopped && !b.hung);
	CHECK_EQ_U64(b.issued, 5);
	CHECK_EQ_U64(b.completed, 5);
	CHECK_EQ_U64(s.reads, 5);
	CHECK_EQ_U64(s.asked, 6);
	/* and a new burst starts afresh: not stopped while it says yes */
	memset(&s, 0, sizeof(s));
	s.hi = FILE_BYTES;
	s.asked = -1000;
	CHECK(run(e, &b) == 0);
	CHECK(b.done && !b.stopped);
	CHECK_EQ_U64(s.reads, 50);
	b.may_issue = NULL;

	/* invalid bursts are refused */
	b.bs = 1000;
	CHECK(ww_probe_burst_start(e, &b) == -EINVAL);
	b.bs = BS;
	b.qd = 9;                       /* more than the ring holds */
	CHECK(ww_probe_burst_start(e, &b) == -EINVAL);
	CHECK_EQ_U64(ww_probe_engine_active(e), 0);

	ww_probe_engine_free(e);
	close(fd);
	CHECK(stat(path, &after) == 0);
	CHECK(before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
	      before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
	CHECK_EQ_U64(after.st_size, FILE_BYTES);
	CHECK_EQ_U64(fnv(path), h0);
}

static void put(const char *root, const char *rel, const char *text)
{
	char p[4096], cmd[4200];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	if (system(cmd))
		return;
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* sysfs files as the kernel formats them (block/genhd.c part_stat_show,
 * part_inflight_show; Documentation/block/stat.rst) */
static void test_gate(void)
{
	char root[] = "/tmp/ww-probe-sysfs-XXXXXX";
	ww_probe_policy_t p;
	uint64_t ios = 0;

	CHECK(mkdtemp(root) != NULL);
	put(root, "sys/block/sdz/stat",
	    "    1200      3   9600    250      40      0     320     30        0    300    280        0        0        0        0        0        0\n");
	put(root, "sys/block/sdz/inflight", "       0        0\n");
	put(root, "sys/block/sdz/size", "2097152\n");
	put(root, "sys/block/sdz/device/power/runtime_status", "active\n");
	ww_probe_policy_default(&p);

	CHECK(ww_probe_sysfs_ios(root, "sdz", &ios) == 0);
	CHECK_EQ_U64(ios, 1240);
	CHECK_EQ_U64(ww_probe_sysfs_bytes(root, "sdz"), 2097152ull * 512);
	CHECK(ww_probe_gate(root, "sdz", false, &p, 0) == NULL);
	/* rotational, auto: no baseline or no other I/O -> left alone */
	CHECK_STR(ww_probe_gate(root, "sdz", true, &p, 0), "rotational");
	CHECK_STR(ww_probe_gate(root, "sdz", true, &p, 1240), "rotational");
	CHECK(ww_probe_gate(root, "sdz", true, &p, 1100) == NULL);
	p.rotational = WW_PROBE_ROT_NEVER;
	CHECK_STR(ww_probe_gate(root, "sdz", true, &p, 1100), "rotational");
	p.rotational = WW_PROBE_ROT_ALWAYS;
	CHECK(ww_probe_gate(root, "sdz", true, &p, 0) == NULL);

	put(root, "sys/block/sdz/inflight", "       3        2\n");
	CHECK_EQ_I64(ww_probe_sysfs_inflight(root, "sdz"), 5);
	CHECK_STR(ww_probe_gate(root, "sdz", false, &p, 0), "busy");
	p.busy_inflight = 5;
	CHECK(ww_probe_gate(root, "sdz", false, &p, 0) == NULL);

	put(root, "sys/block/sdz/device/power/runtime_status", "suspended\n");
	CHECK_STR(ww_probe_gate(root, "sdz", false, &p, 0), "runtime-suspended");
	p.enabled = false;
	CHECK_STR(ww_probe_gate(root, "sdz", false, &p, 0), "disabled");

	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	char path[] = "ww-probe-engine-XXXXXX";
	unsigned char *blk = malloc(BS);
	int fd = mkstemp(path);

	CHECK(fd >= 0 && blk);
	if (fd < 0 || !blk)
		return ww_test_done("test_probe_engine");
	for (uint64_t off = 0; off < FILE_BYTES; off += BS) {
		for (unsigned i = 0; i < BS; i++)
			blk[i] = (unsigned char)(off / BS * 31 + i);
		memcpy(blk, &off, sizeof(off));
		if (write(fd, blk, BS) != (ssize_t)BS)
			CHECK(!"write test file");
	}
	fsync(fd);
	close(fd);
	free(blk);
	test_engine(path);
	unlink(path);
	test_gate();
	return ww_test_done("test_probe_engine");
}
