/* The poll path walks no path: after the first round (discovery, each
 * drive's nodes opened once), rounds of polls of the fake sysfs tree
 * (tests/fixtures/sysfs/basic, copied so that its device nodes can be made
 * as plain files) open, stat or resolve nothing; the drives' command nodes
 * and runtime_status attributes stay open between reads. A device notice
 * (ww_poller_device_event) brings one rediscovery at the next tick and makes
 * only the drive it names open its nodes again. The real poller, discovery
 * and live read path (ww_collect_drive_kept) on a fake clock; every path
 * lookup of our code and libsgutils2's node open are counted through the
 * linker's --wrap (CMakeLists.txt). The commands themselves fail on plain
 * files (not a device), which is not a reason to reopen. */
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ww_test.h"

#include "wearwatch/sched.h"

static char root[4096];
static double fake_now = 1000.0;
static int lookups;              /* every call below but a command node's open */
static int node_opens;           /* opens of an ATA/SCSI drive's command node */
static char last_path[64][4096]; /* paths of the calls, while recording */
static int n_paths;

static void seen(const char *path)
{
	/* an sg or sd node is opened for each read and closed after it (an
	 * open one holds the disk's runtime-PM reference): counted apart */
	if (path && (strstr(path, "/dev/sg") || strstr(path, "/dev/sd"))) {
		__atomic_add_fetch(&node_opens, 1, __ATOMIC_SEQ_CST);
		return;
	}
	__atomic_add_fetch(&lookups, 1, __ATOMIC_SEQ_CST);
	if (path && n_paths < 64)
		snprintf(last_path[n_paths++], sizeof(last_path[0]), "%s", path);
}

/* cppcheck-suppress-begin [funcArgNamesDifferent] */
int __real_open(const char *path, int flags, ...);
int __wrap_open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = (mode_t)va_arg(ap, int);
	va_end(ap);
	seen(path);
	return __real_open(path, flags, mode);
}

DIR *__real_opendir(const char *path);
DIR *__wrap_opendir(const char *path)
{
	seen(path);
	return __real_opendir(path);
}

int __real_scandir(const char *dir, struct dirent ***list, int (*sel)(const struct dirent *),
		   int (*cmp)(const struct dirent **, const struct dirent **));
int __wrap_scandir(const char *dir, struct dirent ***list, int (*sel)(const struct dirent *),
		   int (*cmp)(const struct dirent **, const struct dirent **))
{
	seen(dir);
	return __real_scandir(dir, list, sel, cmp);
}

ssize_t __real_readlink(const char *path, char *buf, size_t len);
ssize_t __wrap_readlink(const char *path, char *buf, size_t len)
{
	seen(path);
	return __real_readlink(path, buf, len);
}

char *__real_realpath(const char *path, char *out);
char *__wrap_realpath(const char *path, char *out)
{
	seen(path);
	return __real_realpath(path, out);
}

int __real_access(const char *path, int mode);
int __wrap_access(const char *path, int mode)
{
	seen(path);
	return __real_access(path, mode);
}

int __real_scsi_pt_open_flags(const char *path, int flags, int verbose);
int __wrap_scsi_pt_open_flags(const char *path, int flags, int verbose)
{
	seen(path);
	return __real_scsi_pt_open_flags(path, flags, verbose);
}
/* cppcheck-suppress-end [funcArgNamesDifferent] */

static double fake_clock(void *ctx)
{
	(void)ctx;
	return fake_now;
}

static time_t fake_wall(void *ctx)
{
	(void)ctx;
	return (time_t)fake_now + 1700000000;
}

static void settle(ww_poller_t *p)
{
	while (ww_poller_busy(p))
		usleep(1000);
}

static uint64_t collections(ww_store_t *s)
{
	ww_snapshot_t *snap = ww_store_acquire(s);
	uint64_t n = 0;

	for (size_t i = 0; i < snap->n; i++)
		n += snap->drives[i]->collections_total;
	ww_snapshot_release(snap);
	return n;
}

/* the copy, with every drive's command node made as a plain file */
static int make_tree(const char *src)
{
	char cmd[12000];
	ww_drive_t *d = NULL;
	int n;

	snprintf(root, sizeof(root), "/tmp/ww-poll-paths.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -a '%s/tests/fixtures/sysfs/basic/.' '%s/'", src, root);
	if (system(cmd))
		return -1;
	n = ww_discover_all(root, NULL, &d);
	for (int i = 0; i < n; i++) {
		char node[4200];
		int fd;

		if (!d[i].cmd_path[0] || d[i].protocol == WW_PROTO_NONE)
			continue;
		snprintf(node, sizeof(node), "%s%s", root, d[i].cmd_path);
		fd = __real_open(node, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (fd >= 0)
			close(fd);
	}
	free(d);
	return n;
}

static void test_no_lookup_on_polls(int n_drives)
{
	ww_store_t *s = ww_store_new(0);
	ww_poller_cfg_t cfg = {
		.sysroot = root,
		.interval_s = 60,
		.interval_rotational_s = 60,
		.rediscover_s = 3600,
		.workers = 2,
		.hung_after_s = 30,
		.clock = fake_clock,
		.wall = fake_wall,
	};
	ww_poller_t *p = ww_poller_start(&cfg, s);
	uint64_t c0;
	const int rounds = 10;
	char sda_node[4200] = "";

	CHECK(p != NULL);
	if (!p)
		return;
	CHECK(!ww_poller_watching(p)); /* not asked: a test tree gets no notices */
	ww_poller_tick(p, NULL);       /* discovery, every drive's first read */
	settle(p);
	CHECK_EQ_U64(ww_poller_discoveries(p), 1);
	c0 = collections(s);
	CHECK(c0 > 0);

	__atomic_store_n(&lookups, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&node_opens, 0, __ATOMIC_SEQ_CST);
	for (int i = 0; i < rounds; i++) {
		fake_now += 60;
		ww_poller_tick(p, NULL);
		settle(p);
	}
	/* every drive read in every round, and not one path looked up */
	CHECK_EQ_U64(collections(s) - c0, (uint64_t)rounds * c0);
	CHECK_EQ_I64(__atomic_load_n(&lookups, __ATOMIC_SEQ_CST), 0);
	/* at most one command node open a read, never a path walk for it */
	CHECK(__atomic_load_n(&node_opens, __ATOMIC_SEQ_CST) <= (int)(rounds * c0));
	CHECK_EQ_U64(ww_poller_discoveries(p), 1);

	/* a notice: the next tick is now, it rediscovers once, and only the
	 * named drive (sda) opens its nodes again at its read */
	ww_poller_device_event(p, "change", "sda");
	ww_poller_device_event(p, "change", "sda");
	CHECK(ww_poller_next_tick(p) == 0);
	ww_poller_tick(p, NULL);
	settle(p);
	CHECK_EQ_U64(ww_poller_discoveries(p), 2);
	CHECK(ww_poller_next_tick(p) > 0);
	fake_now += 60;
	n_paths = 0;
	__atomic_store_n(&lookups, 0, __ATOMIC_SEQ_CST);
	ww_poller_tick(p, NULL);
	settle(p);
	CHECK(lookups >= 1 && lookups <= 2); /* its runtime_status, an NVMe node */
	snprintf(sda_node, sizeof(sda_node), "%s/sys/block/sda/", root);
	for (int i = 0; i < n_paths; i++) {
		bool sda = strstr(last_path[i], "/sys/block/sda/") ||
			strstr(last_path[i], "/dev/sg") || strstr(last_path[i], "/dev/sda");

		if (!sda)
			fprintf(stderr, "opened for another drive: %s\n", last_path[i]);
		CHECK(sda);
	}
	(void)n_drives;
	ww_poller_stop(p, 5);
	ww_store_free(s);
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	int n = make_tree(src ? src : ".");
	char cmd[4200];

	CHECK(n > 0);
	if (n > 0)
		test_no_lookup_on_polls(n);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (root[0] && system(cmd))
		fprintf(stderr, "cannot remove %s\n", root);
	return ww_test_done("test_sched_poll_paths");
}
