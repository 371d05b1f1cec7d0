/* The redundancy sets a drive belongs to (discover.h ww_drive_sets), from
 * sysfs and udev's database: what keeps two members of one array from
 * self-testing at once. Nothing here opens a device. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wearwatch/discover.h"

#define MAX_DEPTH 4 /* partition -> md -> dm (LVM) -> dm: deeper is unusual */

struct sets {
	char (*out)[WW_SET_KEY];
	size_t n, max;
};

static void add(struct sets *s, const char *kind, const char *name)
{
	char key[WW_SET_KEY];

	snprintf(key, sizeof(key), "%s:%s", kind, name);
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->out[i], key))
			return;
	if (s->n < s->max)
		snprintf(s->out[s->n++], WW_SET_KEY, "%s", key);
}

/* a holder: md arrays by name, LVM devices by their volume group (dm/uuid
 * "LVM-" then the VG UUID's 32 characters, then the LV's), other dm
 * devices by name; then its own holders */
static void holder(const char *sysroot, const char *name, int depth, struct sets *s);

static void holders_of(const char *sysroot, const char *dir, int depth, struct sets *s)
{
	char path[4096];
	DIR *d;
	struct dirent *e;

	if (depth > MAX_DEPTH || ww_sysfs_path(path, sizeof(path), sysroot, "%s/holders", dir))
		return;
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			holder(sysroot, e->d_name, depth, s);
	closedir(d);
}

static void holder(const char *sysroot, const char *name, int depth, struct sets *s)
{
	char path[4096], uuid[160], dir[320];

	if (!strncmp(name, "md", 2)) {
		add(s, "md", name);
	} else if (!strncmp(name, "dm-", 3)) {
		if (!ww_sysfs_path(path, sizeof(path), sysroot, "/sys/block/%s/dm/uuid", name) &&
		    ww_sysfs_read(path, uuid, sizeof(uuid)) >= 36 && !strncmp(uuid, "LVM-", 4)) {
			uuid[36] = 0;
			add(s, "lvm", uuid + 4);
		} else {
			add(s, "dm", name);
		}
	} else {
		add(s, "holder", name);
	}
	snprintf(dir, sizeof(dir), "/sys/block/%s", name);
	holders_of(sysroot, dir, depth + 1, s);
}

/* udev's record of a block device: a ZFS pool member carries the pool's
 * GUID as ID_FS_UUID (blkid's zfs_member probe, cached at the last event) */
static void zfs_member(const char *sysroot, const char *sysdir, struct sets *s)
{
	char path[4096], dev[32], line[256], type[64] = "", pool[128] = "";
	FILE *f;

	if (ww_sysfs_path(path, sizeof(path), sysroot, "%s/dev", sysdir) ||
	    ww_sysfs_read(path, dev, sizeof(dev)) <= 0 ||
	    ww_sysfs_path(path, sizeof(path), sysroot, "/run/udev/data/b%s", dev))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "E:ID_FS_TYPE=", 13))
			snprintf(type, sizeof(type), "%.63s", line + 13);
		else if (!strncmp(line, "E:ID_FS_UUID=", 13))
			snprintf(pool, sizeof(pool), "%.127s", line + 13);
	}
	fclose(f);
	if (!strcmp(type, "zfs_member") && pool[0])
		add(s, "zfs", pool);
}

size_t ww_drive_sets(const char *sysroot, const ww_drive_t *d, char (*out)[WW_SET_KEY], size_t max)
{
	struct sets s = { out, 0, max };
	char dir[320], path[4096], part[4096];
	DIR *dd;
	struct dirent *e;

	if (!d || !d->block[0] || !out)
		return 0;
	snprintf(dir, sizeof(dir), "/sys/block/%s", d->block);
	holders_of(sysroot, dir, 0, &s);
	zfs_member(sysroot, dir, &s);
	if (ww_sysfs_path(path, sizeof(path), sysroot, "%s", dir))
		return s.n;
	dd = opendir(path);
	if (!dd)
		return s.n;
	/* partitions: the subdirectories with a "partition" attribute */
	while ((e = readdir(dd))) {
		char pdir[700];
		uint64_t pn;

		if (e->d_name[0] == '.' || strncmp(e->d_name, d->block, strlen(d->block)))
			continue;
		snprintf(pdir, sizeof(pdir), "%s/%s", dir, e->d_name);
		if (ww_sysfs_path(part, sizeof(part), sysroot, "%s/partition", pdir) ||
		    ww_sysfs_read_u64(part, &pn))
			continue;
		holders_of(sysroot, pdir, 0, &s);
		zfs_member(sysroot, pdir, &s);
	}
	closedir(dd);
	return s.n;
}
