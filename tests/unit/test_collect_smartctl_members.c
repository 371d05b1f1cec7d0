/* RAID members as drives (src/collect/smartctl_members.c), from a real
 * `smartctl -j --scan` of a MegaRAID host (smartctl 7.1, scrutiny fixture
 * smartctl_scan_megaraid.json: /dev/bus/0 megaraid,0 and megaraid,1, SCSI),
 * and the dispatch rule (members and forced drives go to smartctl). Skips
 * (77) when the fixtures are absent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/collect.h"
#include "ww_test.h"

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
