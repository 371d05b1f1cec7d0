/* ww_collect_drive's power and error paths on the fake sysfs tree
 * (tests/fixtures/sysfs/basic; device nodes are looked up under it too, so no
 * drive of this machine is opened), and an active drive of that tree read
 * through the replay-backed fake device (ww_collect_on_xport). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ww_test.h"
#include "ww_fake_device.h"
#include "wearwatch/collect.h"
#include "wearwatch/discover.h"

#define MAXD 32

static char root[4096];

static const ww_drive_t *find(const ww_drive_t *d, int n, const char *block)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(d[i].block, block))
			return &d[i];
	return NULL;
}

static void test_collect_paths(void)
{
	ww_drive_t *d = calloc(MAXD, sizeof(*d));
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_read_report_t *r = calloc(1, sizeof(*r));
	const ww_drive_t *x;
	int n;

	if (!d || !h || !r)
		goto out;
	n = ww_discover(root, NULL, d, MAXD);
	CHECK_EQ_I64(n, 7);

	/* runtime-suspended NVMe: nothing opened, nothing sent, identity kept */
	x = find(d, n, "nvme0n1");
	CHECK(x != NULL);
	if (x) {
		CHECK_EQ_I64(ww_collect_drive(root, x, h, r), 1);
		CHECK_EQ_U64(r->n_cmds, 0);
		CHECK_STR(h->model, "Samsung SSD 980 PRO 1TB");
		CHECK_STR(h->firmware, "5B2QGXA7");
		CHECK_EQ_U64(h->capacity_bytes.value, x->capacity_bytes);
		CHECK_EQ_U64(h->protocol, WW_PROTO_NVME);
	}

	/* suspended wins over "no health interface": still not touched */
	x = find(d, n, "sdd");
	if (x) {
		CHECK_EQ_I64(ww_collect_drive(root, x, h, r), 1);
		CHECK_EQ_U64(r->n_cmds, 0);
	}

	/* virtio: not opened, -EOPNOTSUPP; nothing sent, so no command in
	 * the report (it used to note a fake "no health interface" one) */
	x = find(d, n, "vda");
	if (x) {
		CHECK_EQ_I64(ww_collect_drive(root, x, h, r), -EOPNOTSUPP);
		CHECK_EQ_U64(r->n_cmds, 0);
		CHECK_EQ_U64(r->n_unsupported, 0);
		CHECK_EQ_U64(r->n_errors, 0);
		CHECK_STR(h->serial, "overlayblk");
		CHECK_EQ_U64(h->protocol, WW_PROTO_NONE);
	}

	/* active SCSI drive whose sg node is not in the tree: OS error ENOENT
	 * recorded with the node's name, identity from sysfs, no VPD claim */
	x = find(d, n, "sde");
	CHECK(x != NULL);
	if (x) {
		CHECK_EQ_I64(ww_collect_drive(root, x, h, r), -ENOENT);
		CHECK_EQ_U64(r->n_cmds, 1);
		CHECK_STR(r->cmds[0].what, "open /dev/sg4");
		CHECK_EQ_U64(r->cmds[0].result, WW_CMD_OS_ERROR);
		CHECK_EQ_I64(r->cmds[0].os_errno, ENOENT);
		CHECK_EQ_U64(r->n_errors, 1);
		CHECK_STR(h->model, "scsi_debug");
		CHECK_STR(h->vendor, "Linux");
		CHECK_STR(h->wwn, "0x33333330000007d0");
		CHECK_EQ_U64(h->scsi.protocol_id, 0xff);
		/* SAS from discovery (the kernel's cached VPD 0x83), not the read */
		CHECK_EQ_U64(ww_drive_transport(x, h), WW_TRANSPORT_SAS);
	}
	CHECK_EQ_I64(ww_collect_drive(root, NULL, h, r), -EINVAL);

	/* the tree's active SATA drive, its node answered by the fake device
	 * with the VM SATA disk's recorded answers: read through SAT (libata's
	 * vendor "ATA" needs no probe), the device's identity wins over sysfs,
	 * what the device did not report comes from sysfs */
	x = find(d, n, "sda");
	CHECK(x != NULL);
	if (x) {
		char cap[4200];
		ww_fake_t f;
		const char *src = getenv("WW_SOURCE_DIR");

		snprintf(cap, sizeof(cap), "%s/tests/fixtures/captures/sata/"
			 "ata-WWSATA_DISK_WWSATA0001.capture", src ? src : ".");
		CHECK_EQ_U64(x->protocol, WW_PROTO_ATA);
		CHECK(ww_fake_open_file(&f, cap) == 0);
		memset(h, 0, sizeof(*h));
		memset(r, 0, sizeof(*r));
		CHECK_EQ_I64(ww_collect_on_xport(&f.x, x, h, r), 0);
		CHECK_EQ_U64(h->protocol, WW_PROTO_ATA);
		CHECK_STR(h->model, "WWSATA_DISK");
		CHECK_STR(h->serial, "WWSATA0001");
		CHECK_EQ_I64(h->temperature_celsius.value, 31);
		/* CHECK POWER MODE, IDENTIFY, SMART RETURN STATUS, READ DATA,
		 * READ THRESHOLDS, SMART READ LOG 01h and 06h (QEMU keeps both) */
		CHECK_EQ_U64(r->n_cmds, 7);
		CHECK_EQ_U64(r->n_errors, 0);
		CHECK_EQ_U64(r->n_unsupported, 0);
		CHECK_EQ_U64(ww_fake_sent(&f), 7);
		/* what smartctl -x printed for this disk (tests/fixtures/vm/sata/
		 * smartctl-x.json): error log count 0, self-test log count 0 */
		CHECK_EQ_U64(h->error_logs[WW_ERRLOG_ATA_SUMMARY].count, 0);
		CHECK(h->error_logs[WW_ERRLOG_ATA_SUMMARY].source != NULL);
		CHECK_EQ_U64(h->self_tests[WW_SELFTEST_ATA_STANDARD].entries, 0);
		CHECK(h->self_tests[WW_SELFTEST_ATA_STANDARD].source != NULL);
		ww_fake_close(&f);
	}
out:
	free(d);
	free(h);
	free(r);
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");

	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/basic", src ? src : ".");
	test_collect_paths();
	return ww_test_done("test_collect_drive");
}
