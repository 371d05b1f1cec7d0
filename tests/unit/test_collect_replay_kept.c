/* serve --replay keeps each registered capture parsed between polls
 * (ww_replay_collect_fn): the VM captures of tests/fixtures/captures (QEMU's
 * NVMe controller, scsi_debug's SAS disk, QEMU's AHCI disk), read three
 * times each, are parsed once each, and every read gives the values a fresh
 * read of the file gives (ww_replay_collect, the path `decode` takes). A
 * capture swapped under the registry (rename over it, as a test swaps in a
 * drive's next state) or rewritten in place is parsed again and read as the
 * new file, also when renamed aside before its successor took its name, and
 * a symbolic link's target rewritten in another directory; a read with no
 * change in the capture's directory since the last stats nothing (inotify;
 * fstatat counted by --wrap); a
 * recorded runtime-suspended one leaves the drive alone; a
 * removed one fails as the open would. The parses are counted by wrapping
 * ww_replay_load (linked with --wrap). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "wearwatch/collect.h"
#include "wearwatch/transport.h"
#include "ww_test.h"

static unsigned loads;

int __real_ww_replay_load(FILE *f, ww_replay_t **out, int *bad_line);
int __wrap_ww_replay_load(FILE *f, ww_replay_t **out, int *bad_line)
{
	loads++;
	return __real_ww_replay_load(f, out, bad_line);
}

/* stats of a capture's name (the swap check) */
static unsigned name_stats;

int __real_fstatat(int dirfd, const char *path, struct stat *sb, int flags);
int __wrap_fstatat(int dirfd, const char *path, struct stat *sb, int flags)
{
	name_stats++;
	return __real_fstatat(dirfd, path, sb, flags);
}

static char tmp[64];
static unsigned trusted_first; /* of the first three captures */

static void copy(const char *from, const char *to)
{
	char buf[8192];
	FILE *in = fopen(from, "r"), *out = fopen(to, "w");
	size_t n;

	CHECK(in && out);
	while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		CHECK(fwrite(buf, 1, n, out) == n);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

/* the kept read of drive d and a fresh read of its file agree, field for
 * field (values, not bytes: a record copied from a stack temporary carries
 * its padding, which under AddressSanitizer differs from read to read) */
static int read_both(const ww_drive_t *d, ww_health_t *h)
{
	static ww_health_t fresh;
	static ww_read_report_t r, fr;
	int rc = ww_replay_collect_fn("", d, h, &r);
	int frc = ww_replay_collect(ww_replay_file(d->id), d, &fresh, &fr);

	CHECK_EQ_I64(rc, frc);
	CHECK_STR(h->model, fresh.model);
	CHECK_STR(h->serial, fresh.serial);
	CHECK_STR(h->firmware, fresh.firmware);
	CHECK(h->protocol == fresh.protocol && h->smart_status == fresh.smart_status);
	CHECK_EQ_I64(h->temperature_celsius.value, fresh.temperature_celsius.value);
	CHECK_EQ_U64(h->power_on_seconds.value, fresh.power_on_seconds.value);
	CHECK_EQ_U64(h->host_written_bytes.value, fresh.host_written_bytes.value);
	CHECK_EQ_U64(h->capacity_bytes.value, fresh.capacity_bytes.value);
	CHECK_EQ_U64(h->ata.n_attrs, fresh.ata.n_attrs);
	for (size_t i = 0; i < h->ata.n_attrs && i < fresh.ata.n_attrs; i++) {
		CHECK_EQ_U64(h->ata.attrs[i].id, fresh.ata.attrs[i].id);
		CHECK_EQ_U64(h->ata.attrs[i].value, fresh.ata.attrs[i].value);
		CHECK_EQ_U64(h->ata.attrs[i].raw, fresh.ata.attrs[i].raw);
	}
	CHECK_EQ_U64(h->scsi.n_supported_pages, fresh.scsi.n_supported_pages);
	CHECK_EQ_U64(r.n_cmds, fr.n_cmds);
	CHECK_EQ_U64(r.n_errors, fr.n_errors);
	CHECK(r.runtime_suspended == fr.runtime_suspended);
	for (size_t i = 0; i < r.n_cmds && i < fr.n_cmds; i++) {
		CHECK_STR(r.cmds[i].what, fr.cmds[i].what);
		CHECK(r.cmds[i].result == fr.cmds[i].result);
	}
	return rc;
}

static const ww_drive_t *find(const ww_drive_t *list, int n, const char *prefix)
{
	for (int i = 0; i < n; i++)
		if (!strncmp(list[i].id, prefix, strlen(prefix)))
			return &list[i];
	return NULL;
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	const char *kinds[] = { "nvme", "sas", "sata" };
	static ww_health_t h;
	char from[4096], to[256], next[300];
	ww_drive_t *list = NULL;
	const ww_drive_t *sata, *nvme;
	struct timeval tv[2];
	int n;

	snprintf(tmp, sizeof(tmp), "/tmp/ww-replay-kept.XXXXXX");
	CHECK(mkdtemp(tmp) != NULL);
	for (size_t i = 0; i < 3; i++) {
		const char *pick[] = { "nvme/nvme-QEMU_NVMe_Ctrl_WWNVME0001.capture",
				       "sas/wwn-0x33333330000036b0.capture",
				       "sata/ata-WWSATA_DISK_WWSATA0001.capture" };

		snprintf(from, sizeof(from), "%s/tests/fixtures/captures/%s", src ? src : ".",
			 pick[i]);
		snprintf(to, sizeof(to), "%s/%s.capture", tmp, kinds[i]);
		copy(from, to);
	}
	CHECK(ww_replay_add(tmp) == 3);
	n = ww_replay_discover("", NULL, &list);
	CHECK_EQ_I64(n, 3);
	loads = 0;
	name_stats = 0;

	/* three polls of every served drive: one parse each; with inotify, a
	 * stat of each name at its first read only (nothing in the directory
	 * changed since), without it one each read */
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < n; i++)
			CHECK_EQ_I64(read_both(&list[i], &h), 0);
	CHECK_EQ_U64(loads, 3);
	{
		unsigned trusted = 0;
		struct statfs fs;

		for (int i = 0; i < n; i++)
			trusted += ww_replay_trusts_notices(list[i].id);
		/* where a watch can be had (a local filesystem; the library
		 * says whether it holds one) each is stat'ed once, else every
		 * read */
		if (trusted < 3)
			printf("%u of 3 captures watched here (inotify limit or a "
			       "network filesystem): the rest stat every read\n",
			       trusted);
		CHECK_EQ_U64(name_stats, 3 + 2 * (3 - trusted));
		trusted_first = trusted;
		/* on ext4 or tmpfs (CI, this machine) all three are watched */
		if (statfs(tmp, &fs) == 0 &&
		    (fs.f_type == EXT4_SUPER_MAGIC || fs.f_type == TMPFS_MAGIC))
			CHECK_EQ_U64(trusted, 3);
	}

	sata = find(list, n, "ata-WWSATA_DISK_WWSATA0001");
	nvme = find(list, n, "nvme-QEMU_NVMe_Ctrl_WWNVME0001");
	CHECK(sata && nvme);
	if (!sata || !nvme)
		return ww_test_done("test_collect_replay_kept");
	CHECK_EQ_I64(read_both(sata, &h), 0);
	CHECK_STR(h.serial, "WWSATA0001");
	loads = 0;

	/* swapped: the redacted capture of the same disk renamed over it */
	snprintf(from, sizeof(from),
		 "%s/tests/fixtures/captures/sata-redacted/"
		 "ata-WWSATA_DISK_XXXXXXXXXX.capture",
		 src ? src : ".");
	snprintf(to, sizeof(to), "%s/sata.capture", tmp);
	snprintf(next, sizeof(next), "%s.new", to);
	copy(from, next);
	CHECK(rename(next, to) == 0);
	CHECK_EQ_I64(read_both(sata, &h), 0);
	CHECK_STR(h.serial, "XXXXXXXXXX");
	CHECK_EQ_I64(read_both(sata, &h), 0);
	CHECK_EQ_U64(loads, 1);

	/* rewritten in place (same inode, same size): the time tells */
	snprintf(from, sizeof(from),
		 "%s/tests/fixtures/captures/sata/"
		 "ata-WWSATA_DISK_WWSATA0001.capture",
		 src ? src : ".");
	copy(from, to);
	gettimeofday(&tv[0], NULL);
	tv[0].tv_sec += 5;
	tv[1] = tv[0];
	CHECK(utimes(to, tv) == 0);
	CHECK_EQ_I64(read_both(sata, &h), 0);
	CHECK_STR(h.serial, "WWSATA0001");
	CHECK_EQ_U64(loads, 2);

	/* renamed aside, then its successor under the name (a kept
	 * descriptor of the file would still see the old one, linked) */
	snprintf(from, sizeof(from),
		 "%s/tests/fixtures/captures/sata-redacted/"
		 "ata-WWSATA_DISK_XXXXXXXXXX.capture",
		 src ? src : ".");
	{
		char aside[320];

		snprintf(aside, sizeof(aside), "%s.old", to);
		CHECK(rename(to, aside) == 0);
		copy(from, to);
		CHECK_EQ_I64(read_both(sata, &h), 0);
		CHECK_STR(h.serial, "XXXXXXXXXX");
		CHECK_EQ_U64(loads, 3);
		unlink(aside);
	}

	/* recorded runtime-suspended: left alone, as live */
	snprintf(from, sizeof(from),
		 "%s/tests/fixtures/captures/sata-suspended/"
		 "ata-WWSATA_DISK_WWSATA0001.capture",
		 src ? src : ".");
	copy(from, next);
	CHECK(rename(next, to) == 0);
	{
		static ww_read_report_t r;

		CHECK_EQ_I64(ww_replay_collect_fn("", sata, &h, &r), 1);
		CHECK(r.runtime_suspended);
	}

	/* gone: the read fails as the open of the file would; the NVMe drive
	 * is still read from what was kept */
	CHECK(unlink(to) == 0);
	{
		static ww_read_report_t r;

		CHECK_EQ_I64(ww_replay_collect_fn("", sata, &h, &r), -ENOENT);
	}
	loads = 0;
	CHECK_EQ_I64(read_both(nvme, &h), 0);
	CHECK_STR(h.model, "QEMU NVMe Ctrl");
	CHECK_EQ_U64(loads, 0);

	/* a capture swapped for a symbolic link into another directory: the
	 * target rewritten there (no notice in the watched directory) is
	 * still seen, a link's name being stat'ed at every read */
	{
		char dir2[64], dir3[64], target[128], link[128];
		ww_drive_t *l2 = NULL;
		const ww_drive_t *linked;
		int n2;

		snprintf(dir2, sizeof(dir2), "/tmp/ww-replay-link.XXXXXX");
		snprintf(dir3, sizeof(dir3), "/tmp/ww-replay-target.XXXXXX");
		CHECK(mkdtemp(dir2) != NULL && mkdtemp(dir3) != NULL);
		snprintf(target, sizeof(target), "%s/t.capture", dir3);
		snprintf(link, sizeof(link), "%s/linked.capture", dir2);
		snprintf(from, sizeof(from),
			 "%s/tests/fixtures/captures/sata/ata-WWSATA_DISK_WWSATA0001.capture",
			 src ? src : ".");
		copy(from, link); /* a plain file when registered */
		CHECK(ww_replay_add(dir2) == 1);
		n2 = ww_replay_discover("", NULL, &l2);
		linked = n2 > 0 ? &l2[n2 - 1] : NULL;
		CHECK(linked && !strcmp(ww_replay_file(linked->id), link));
		if (linked) {
			char tmp_link[160];

			CHECK_EQ_I64(read_both(linked, &h), 0);
			CHECK_STR(h.serial, "WWSATA0001");
			CHECK(ww_replay_trusts_notices(linked->id) || trusted_first < 3);
			copy(from, target);
			snprintf(tmp_link, sizeof(tmp_link), "%s.new", link);
			CHECK(symlink(target, tmp_link) == 0);
			CHECK(rename(tmp_link, link) == 0);
			CHECK_EQ_I64(read_both(linked, &h), 0);
			CHECK_STR(h.serial, "WWSATA0001");
			CHECK(!ww_replay_trusts_notices(linked->id));
			snprintf(from, sizeof(from),
				 "%s/tests/fixtures/captures/sata-redacted/"
				 "ata-WWSATA_DISK_XXXXXXXXXX.capture",
				 src ? src : ".");
			copy(from, target);
			CHECK_EQ_I64(read_both(linked, &h), 0);
			CHECK_STR(h.serial, "XXXXXXXXXX");
		}
		free(l2);
		unlink(link);
		unlink(target);
		rmdir(dir2);
		rmdir(dir3);
	}

	printf("3 captures, 3 polls each: 3 parses; a swap, a rewrite: 1 parse each\n");
	free(list);
	snprintf(to, sizeof(to), "%s/nvme.capture", tmp);
	unlink(to);
	snprintf(to, sizeof(to), "%s/sas.capture", tmp);
	unlink(to);
	rmdir(tmp);
	return ww_test_done("test_collect_replay_kept");
}
