/* The write guard of `qualify` (qualify.h): a profile that writes runs only
 * on a whole block device that nothing uses, that carries no signature
 * libblkid knows, that the collector is not told to monitor, and whose own
 * serial the operator typed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <blkid.h>

#include "wearwatch/discover.h"
#include "wearwatch/qualify.h"

/* not formatted: one name a check */
/* clang-format off */
static const char *const check_names[] = {
	[WW_GUARD_OK]           = "ok",
	[WW_GUARD_DESTROY_FLAG] = "destroy-data",
	[WW_GUARD_PARTITIONS]   = "partitions",
	[WW_GUARD_HOLDERS]      = "holders",
	[WW_GUARD_MOUNTED]      = "mounted",
	[WW_GUARD_SWAP]         = "swap",
	[WW_GUARD_SIGNATURE]    = "signature",
	[WW_GUARD_MONITORED]    = "monitored",
	[WW_GUARD_SERIAL]       = "serial",
	[WW_GUARD_EXCL]         = "exclusive-open",
};
/* clang-format on */

const char *ww_qualify_guard_name(enum ww_qualify_guard_check c)
{
	return (unsigned)c < sizeof(check_names) / sizeof(check_names[0]) ? check_names[c] : "?";
}

#define MAX_DEVS 64

/* The device and its partitions: names and device numbers from sysfs. */
struct devs {
	char name[MAX_DEVS][256];
	dev_t dev[MAX_DEVS];
	unsigned n;
};

static int read_devno(const char *sysroot, const char *rel, dev_t *out)
{
	char p[512], buf[32];
	unsigned ma, mi;

	if (ww_sysfs_path(p, sizeof(p), sysroot, "%s/dev", rel) ||
	    ww_sysfs_read(p, buf, sizeof(buf)) < 0)
		return -ENOENT;
	if (sscanf(buf, "%u:%u", &ma, &mi) != 2)
		return -EINVAL;
	*out = makedev(ma, mi);
	return 0;
}

static void list_devs(const char *sysroot, const char *block, struct devs *d)
{
	char p[512];
	DIR *dir;
	struct dirent *e;

	d->n = 0;
	snprintf(d->name[0], sizeof(d->name[0]), "%s", block);
	snprintf(p, sizeof(p), "/sys/block/%s", block);
	if (read_devno(sysroot, p, &d->dev[0]))
		d->dev[0] = 0;
	d->n = 1;
	if (ww_sysfs_path(p, sizeof(p), sysroot, "/sys/block/%s", block) || !(dir = opendir(p)))
		return;
	while ((e = readdir(dir)) && d->n < MAX_DEVS) {
		char q[512];
		struct stat st;

		if (strncmp(e->d_name, block, strlen(block)) || !e->d_name[strlen(block)])
			continue;
		if (ww_sysfs_path(q, sizeof(q), sysroot, "/sys/block/%s/%s/partition", block,
				  e->d_name) ||
		    stat(q, &st))
			continue;
		snprintf(d->name[d->n], sizeof(d->name[0]), "%s", e->d_name);
		snprintf(q, sizeof(q), "/sys/block/%s/%s", block, e->d_name);
		if (read_devno(sysroot, q, &d->dev[d->n]))
			d->dev[d->n] = 0;
		d->n++;
	}
	closedir(dir);
}

/* First entry of /sys/block/X[/PART]/holders, "" when empty. */
static bool holder_of(const char *sysroot, const char *block, const char *part, char *out,
		      size_t len)
{
	char p[512];
	DIR *dir;
	struct dirent *e;
	bool found = false;

	if (part ? ww_sysfs_path(p, sizeof(p), sysroot, "/sys/block/%s/%s/holders", block, part)
		 : ww_sysfs_path(p, sizeof(p), sysroot, "/sys/block/%s/holders", block))
		return false;
	if (!(dir = opendir(p)))
		return false;
	while (!found && (e = readdir(dir)))
		if (e->d_name[0] != '.') {
			snprintf(out, len, "%s", e->d_name);
			found = true;
		}
	closedir(dir);
	return found;
}

/* mountinfo line: ID PARENT MAJ:MIN ROOT MOUNTPOINT ... - FSTYPE SOURCE ... */
static bool mounted(const char *path, const struct devs *d, char *why, size_t len)
{
	FILE *f = fopen(path ? path : "/proc/self/mountinfo", "re");
	char line[4096];
	bool hit = false;

	if (!f) {
		snprintf(why, len, "cannot read %s: %s", path ? path : "/proc/self/mountinfo",
			 strerror(errno));
		return true; /* cannot tell: refuse */
	}
	while (!hit && fgets(line, sizeof(line), f)) {
		unsigned ma, mi;
		char mp[1024];

		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &ma, &mi, mp) != 3)
			continue;
		for (unsigned i = 0; i < d->n && !hit; i++)
			if (d->dev[i] && d->dev[i] == makedev(ma, mi)) {
				snprintf(why, len, "/dev/%s is mounted on %s", d->name[i], mp);
				hit = true;
			}
	}
	fclose(f);
	return hit;
}

static bool swapped(const char *path, const struct devs *d, char *why, size_t len)
{
	FILE *f = fopen(path ? path : "/proc/swaps", "re");
	char line[1024];
	bool hit = false;

	if (!f) {
		if (errno == ENOENT && !path)
			return false; /* no swap support */
		snprintf(why, len, "cannot read %s: %s", path ? path : "/proc/swaps",
			 strerror(errno));
		return true;
	}
	while (!hit && fgets(line, sizeof(line), f)) {
		char name[1024];
		struct stat st;

		if (sscanf(line, "%1023s", name) != 1 || name[0] != '/' || stat(name, &st) ||
		    !S_ISBLK(st.st_mode))
			continue;
		for (unsigned i = 0; i < d->n && !hit; i++)
			if (d->dev[i] && st.st_rdev == d->dev[i]) {
				snprintf(why, len, "/dev/%s is in use as swap (%s)", d->name[i],
					 name);
				hit = true;
			}
	}
	fclose(f);
	return hit;
}

/* libblkid's full probe: filesystems, RAID members (md, ZFS, LVM are
 * "raid" usage in libblkid), crypto, and partition tables. */
static bool signature(const char *dev_path, char *why, size_t len)
{
	blkid_probe pr = blkid_new_probe_from_filename(dev_path);
	const char *type = NULL, *usage = NULL;
	int r;

	if (!pr) {
		snprintf(why, len, "libblkid cannot probe %s: %s", dev_path, strerror(errno));
		return true;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	r = blkid_do_safeprobe(pr);
	if (r == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			snprintf(why, len, "%s carries a %s signature (libblkid: TYPE=%s%s%s)",
				 dev_path, usage ? usage : "known", type, usage ? " USAGE=" : "",
				 usage ? usage : "");
		} else if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0) {
			snprintf(why, len, "%s carries a partition table (libblkid: PTTYPE=%s)",
				 dev_path, type);
		} else {
			snprintf(why, len, "%s carries a signature libblkid names no type of",
				 dev_path);
		}
	} else if (r == -2) {
		snprintf(why, len, "%s carries more than one signature (libblkid: ambivalent)",
			 dev_path);
	} else if (r < 0) {
		snprintf(why, len, "libblkid could not probe %s", dev_path);
	}
	blkid_free_probe(pr);
	return r != 1;
}

enum ww_qualify_guard_check ww_qualify_guard_check(const ww_qualify_guard_in_t *in, int *fd,
						   char *why, size_t len)
{
	struct devs *d = calloc(1, sizeof(*d));
	char h[256], p[512];
	struct stat st;
	enum ww_qualify_guard_check c = WW_GUARD_OK;
	const char *want;

	*fd = -1;
	why[0] = 0;
	if (!d) {
		snprintf(why, len, "out of memory");
		return WW_GUARD_DESTROY_FLAG;
	}
	want = in->serial && in->serial[0] ? in->serial : in->id;
	if (!in->destroy_data) {
		snprintf(why, len,
			 "this profile writes: it destroys the data on %s; run again with "
			 "--destroy-data=%s (the drive's %s) if that is what you want",
			 in->dev_path, want, in->serial && in->serial[0] ? "serial" : "id");
		c = WW_GUARD_DESTROY_FLAG;
		goto out;
	}
	if (!ww_sysfs_path(p, sizeof(p), in->sysroot, "/sys/class/block/%s/partition", in->block) &&
	    !stat(p, &st)) {
		snprintf(why, len, "%s is a partition; qualify writes only to a whole device",
			 in->dev_path);
		c = WW_GUARD_PARTITIONS;
		goto out;
	}
	list_devs(in->sysroot, in->block, d);
	if (d->n > 1) {
		snprintf(why, len, "%s has %u partition%s (/dev/%s%s)", in->dev_path, d->n - 1,
			 d->n > 2 ? "s" : "", d->name[1], d->n > 2 ? ", ..." : "");
		c = WW_GUARD_PARTITIONS;
		goto out;
	}
	if (holder_of(in->sysroot, in->block, NULL, h, sizeof(h))) {
		snprintf(why, len, "%s is held by %s (/sys/block/%s/holders)", in->dev_path, h,
			 in->block);
		c = WW_GUARD_HOLDERS;
		goto out;
	}
	if (mounted(in->mountinfo, d, why, len)) {
		c = WW_GUARD_MOUNTED;
		goto out;
	}
	if (swapped(in->swaps, d, why, len)) {
		c = WW_GUARD_SWAP;
		goto out;
	}
	if (signature(in->dev_path, why, len)) {
		c = WW_GUARD_SIGNATURE;
		goto out;
	}
	if (in->monitored) {
		snprintf(why, len,
			 "%s is a drive the collector monitors (%s); to qualify it, add "
			 "[drive %s] exclude = yes first",
			 in->dev_path, in->monitored_why ? in->monitored_why : "configuration",
			 in->id);
		c = WW_GUARD_MONITORED;
		goto out;
	}
	if (strcmp(in->destroy_data, want)) {
		snprintf(why, len, "--destroy-data=%s does not name this drive: the %s of %s is %s",
			 in->destroy_data,
			 in->serial && in->serial[0] ? "serial" : "id (it reports no serial)",
			 in->dev_path, want);
		c = WW_GUARD_SERIAL;
		goto out;
	}
	/* last, so that no check above runs with our descriptor held */
	*fd = open(in->dev_path, O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC);
	if (*fd < 0) {
		snprintf(why, len, "open(%s, O_EXCL) failed: %s%s", in->dev_path, strerror(errno),
			 errno == EBUSY ? " (something holds it open exclusively)" : "");
		c = WW_GUARD_EXCL;
		goto out;
	}
	if (fstat(*fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != d->dev[0]) {
		snprintf(why, len, "%s is not the block device /sys/block/%s", in->dev_path,
			 in->block);
		close(*fd);
		*fd = -1;
		c = WW_GUARD_EXCL;
	}
out:
	free(d);
	return c;
}
