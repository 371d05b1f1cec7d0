/* RAID members as drives (src/collect/smartctl_members.c), from a real
 * `smartctl -j --scan` of a MegaRAID host (smartctl 7.1, scrutiny fixture
 * smartctl_scan_megaraid.json: /dev/bus/0 megaraid,0 and megaraid,1, SCSI),
 * and the dispatch rule (members and forced drives go to smartctl). Skips
 * (77) when the fixtures are absent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wearwatch/collect.h"
#include "ww_test.h"

/* `smartctl --scan -j -d scsi` as smartctl 7.3 printed it in the VM with
 * QEMU's megasas and one scsi-hd (tests/vm/checks_30_megaraid.py) */
static const char *vm_scan =
	"{\"devices\":[{\"name\":\"/dev/bus/9\",\"info_name\":\"/dev/bus/9 [megaraid_disk_00]\","
	"\"type\":\"megaraid,0\",\"protocol\":\"SCSI\"}]}";

/* a stand-in smartctl printing `json` (NULL: no such program) */
static void fake_smartctl(const char *dir, const char *json)
{
	char p[256];
	FILE *f;

	if (!json) {
		ww_smartctl_set_program("/nonexistent/smartctl");
		return;
	}
	snprintf(p, sizeof(p), "%s/smartctl", dir);
	unlink(p);
	f = fopen(p, "w");
	if (!f)
		return;
	fprintf(f, "#!/bin/sh\ncat <<'EOF'\n%s\nEOF\n", json);
	fclose(f);
	chmod(p, 0755);
	ww_smartctl_set_program(p);
}

/* the ids discovery gives on the megaraid tree, joined by ' ' */
static void ids(const char *root, char *buf, size_t len)
{
	ww_drive_t *d = NULL;
	int n = ww_discover_with_members(root, NULL, &d);

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? " " : "", d[i].id);
	free(d);
}

/* One entry per physical drive: the block device of a MegaRAID host (its
 * volume, tests/fixtures/sysfs/megaraid: sdc at host 9) is not listed
 * beside the member smartctl reaches behind it; a disk of another host
 * stays. Before, the VM listed sdc and smartctl-bus_9-megaraid_0. */
static void test_one_entry_per_drive(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char root[4096], dir[64] = "/tmp/ww-members-XXXXXX", got[512];
	ww_drive_t vol, other, mem;

	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/megaraid", src ? src : ".");
	CHECK(ww_smartctl_raid_present(root));
	if (!mkdtemp(dir))
		return;

	memset(&mem, 0, sizeof(mem));
	snprintf(mem.dev_path, sizeof(mem.dev_path), "/dev/bus/9");
	memset(&vol, 0, sizeof(vol));
	snprintf(vol.sysfs_path, sizeof(vol.sysfs_path),
		 "/sys/devices/pci0000:00/0000:00:07.0/host9/target9:2:0/9:2:0:0/block/sdc");
	other = vol;
	snprintf(other.sysfs_path, sizeof(other.sysfs_path),
		 "/sys/devices/pci0000:00/0000:00:07.0/host19/target19:2:0/19:2:0:0/block/sdd");
	CHECK(ww_smartctl_member_volume(&vol, &mem, 1));
	CHECK(!ww_smartctl_member_volume(&other, &mem, 1));
	CHECK(!ww_smartctl_member_volume(&vol, &mem, 0));
	snprintf(vol.smartctl_type, sizeof(vol.smartctl_type), "scsi");
	CHECK(!ww_smartctl_member_volume(&vol, &mem, 1)); /* forced: the user's choice */

	/* smartctl missing: no members, the volume is what there is */
	fake_smartctl(dir, NULL);
	ids(root, got, sizeof(got));
	CHECK_STR(got, "dev-sdc ata-QEMU_HARDDISK_QM00003");
	/* the controller lists no member yet (just loaded): not kept for the
	 * rescan interval, so the next discovery sees the members */
	fake_smartctl(dir, "{\"devices\":[]}");
	ids(root, got, sizeof(got));
	CHECK_STR(got, "dev-sdc ata-QEMU_HARDDISK_QM00003");
	fake_smartctl(dir, vm_scan);
	ids(root, got, sizeof(got));
	CHECK_STR(got, "ata-QEMU_HARDDISK_QM00003 smartctl-bus_9-megaraid_0");

	ww_smartctl_set_program(NULL);
	snprintf(got, sizeof(got), "%s/smartctl", dir);
	unlink(got);
	rmdir(dir);
}

int main(void)
{
	const char *fx = getenv("WW_FIXTURES");
	char path[1024], buf[8192];
	ww_smartctl_dev_t *devs = NULL;
	ww_drive_t d, plain;
	size_t n;
	FILE *f;
	int k;

	memset(&plain, 0, sizeof(plain));
	snprintf(plain.id, sizeof(plain.id), "ata-X_1");
	snprintf(plain.block, sizeof(plain.block), "sdz");
	CHECK(ww_smartctl_type_for(&plain) == NULL);
	CHECK_EQ_I64(ww_smartctl_force("sdz", "sat"), 0);
	CHECK_STR(ww_smartctl_type_for(&plain), "sat");
	ww_smartctl_force_clear();
	CHECK(ww_smartctl_type_for(&plain) == NULL);
	CHECK(!ww_smartctl_raid_present("/nonexistent-sysroot"));
	test_one_entry_per_drive();

	snprintf(path, sizeof(path), "%s/scrutiny/smartctl_scan_megaraid.json",
		 fx ? fx : "../shared/fixtures");
	f = fopen(path, "r");
	if (!f) {
		printf("SKIP member tests: %s absent\n", path);
		return ww_t_fail ? 1 : 77;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	k = ww_smartctl_scan_parse(buf, n, &devs);
	CHECK_EQ_I64(k, 2);
	CHECK_EQ_I64(ww_smartctl_member_drive(&devs[1], &d), 0);
	CHECK_STR(d.id, "smartctl-bus_0-megaraid_1");
	CHECK_STR(d.dev_path, "/dev/bus/0");
	CHECK_STR(d.smartctl_type, "megaraid,1");
	CHECK_EQ_I64(d.protocol, WW_PROTO_SCSI);
	CHECK_STR(d.block, "");
	CHECK_STR(ww_smartctl_type_for(&d), "megaraid,1");
	free(devs);
	return ww_test_done("test_collect_smartctl_members");
}
