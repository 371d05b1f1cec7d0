/* Discovery against the fake sysfs trees in tests/fixtures/sysfs (see gen.py
 * there for how each device is shaped) and, lightly, the live machine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ww_test.h"
#include "wearwatch/collect.h"
#include "wearwatch/discover.h"

#define MAXD 32

static char root_basic[4096], root_nodev[4096];

static const ww_drive_t *find(const ww_drive_t *d, int n, const char *block)
{
	for (int i = 0; i < n; i++)
		for (size_t p = 0; p < d[i].n_paths; p++)
			if (!strcmp(d[i].paths[p], block))
				return &d[i];
	return NULL;
}

static void test_basic(void)
{
	ww_drive_t d[MAXD];
	int n = ww_discover(root_basic, NULL, d, MAXD);
	const ww_drive_t *x;

	/* nvme0 (2 ns), sda, sdb+sdc, sdd, sde, sdf, vda */
	CHECK_EQ_I64(n, 7);
	if (n < 0)
		return;

	x = find(d, n, "nvme0n1");
	CHECK(x != NULL);
	if (x) {
		CHECK_STR(x->id, "nvme-eui.0025388b91b3a2c1");
		CHECK_STR(x->ctrl, "nvme0");
		CHECK_STR(x->cmd_path, "/dev/nvme0");
		CHECK_STR(x->dev_path, "/dev/nvme0n1");
		CHECK_EQ_U64(x->transport, WW_TRANSPORT_NVME);
		CHECK_EQ_U64(x->protocol, WW_PROTO_NVME);
		CHECK_EQ_U64(x->n_namespaces, 2);
		CHECK_STR(x->namespaces[0], "nvme0n1");
		CHECK_STR(x->namespaces[1], "nvme0n2");
		CHECK_EQ_U64(x->capacity_bytes, (1000215216ULL + 953869ULL) * 512);
		CHECK_STR(x->sysfs_model, "Samsung SSD 980 PRO 1TB");
		CHECK_STR(x->sysfs_serial, "S5GXNF0R123456X");
		/* the PCI device's link attributes: "8.0 GT/s PCIe" x2 of 16 x4 */
		CHECK_EQ_U64(x->pcie_cur_transfers, 8000000000ull);
		CHECK_EQ_U64(x->pcie_cur_width, 2);
		CHECK_EQ_U64(x->pcie_max_transfers, 16000000000ull);
		CHECK_EQ_U64(x->pcie_max_width, 4);
		CHECK_STR(x->sysfs_firmware, "5B2QGXA7");
		CHECK_STR(x->sysfs_wwn, "eui.0025388b91b3a2c1");
		CHECK_STR(x->slot, "pci-0000:00:04.0-nvme-1");
		CHECK(!x->rotational);
	}
	CHECK(find(d, n, "nvme0n2") == NULL); /* folded, not a path */

	x = find(d, n, "sda");
	CHECK(x != NULL);
	if (x) {
		CHECK_STR(x->id, "wwn-0x5002538f42a1b2c3");
		CHECK_EQ_U64(x->transport, WW_TRANSPORT_SATA);
		CHECK_EQ_U64(x->protocol, WW_PROTO_ATA);
		CHECK_STR(x->cmd_path, "/dev/sg0");
		CHECK_STR(x->slot, "pci-0000:00:1f.2-ata-1");
		/* full ATA model from VPD 0x83, not INQUIRY's 16 bytes */
		CHECK_STR(x->sysfs_model, "Samsung SSD 870 EVO 1TB");
		CHECK_STR(x->sysfs_serial, "S6PUNX0R123456A");
		CHECK_STR(x->sysfs_vendor, "ATA");
		CHECK_EQ_U64(x->capacity_bytes, 1953525168ULL * 512);
		CHECK_EQ_U64(x->n_paths, 1);
	}

	x = find(d, n, "sdb");
	CHECK(x != NULL);
	if (x) {
		CHECK(x == find(d, n, "sdc"));
		CHECK_EQ_U64(x->n_paths, 2);
		CHECK_STR(x->paths[0], "sdb");
		CHECK_STR(x->paths[1], "sdc");
		CHECK_STR(x->id, "wwn-0x5000c500a1b2c3d4");
		CHECK_EQ_U64(x->transport, WW_TRANSPORT_SAS);
		CHECK_EQ_U64(x->protocol, WW_PROTO_SCSI);
		CHECK_STR(x->cmd_path, "/dev/sg1");
		CHECK_STR(x->sysfs_serial, "WFK0ABCD");
		CHECK_STR(x->sysfs_vendor, "SEAGATE");
		CHECK_STR(x->slot, "pci-0000:00:05.0-sas-exp0x500605b0000272bf-phy0-lun-0");
		CHECK_EQ_U64(x->capacity_bytes, 2344225968ULL * 512); /* not doubled */
		CHECK_EQ_U64(x->physical_block_bytes, 4096);
		CHECK(x->rotational);
	}

	x = find(d, n, "sdd");
	CHECK(x != NULL);
	if (x) {
		CHECK_STR(x->id, "usb-JMicron_Generic_0123456789ABCDEF-0:0");
		CHECK_EQ_U64(x->transport, WW_TRANSPORT_USB);
		CHECK_EQ_U64(x->protocol, WW_PROTO_NONE);
		CHECK_STR(x->no_health_reason, "USB bridge: ATA pass-through not known safe");
	}

	x = find(d, n, "sde");
	CHECK(x != NULL);
	if (x) {
		CHECK_STR(x->id, "wwn-0x33333330000007d0"); /* no link: built */
		/* no SAS transport class in sysfs, but the cached VPD 0x83 page
		 * (the VM's scsi_debug bytes) names SAS on its target port */
		CHECK_EQ_U64(x->transport, WW_TRANSPORT_SAS);
		CHECK_EQ_U64(x->protocol, WW_PROTO_SCSI);
		CHECK_STR(x->slot, "");
		CHECK_STR(x->sysfs_path, "/sys/devices/pseudo_0/adapter0/host7/target7:0:0/7:0:0:0/block/sde");
		/* VPD 0x83 protocol identifier 6 (SAS) refines OTHER after a read */
		ww_health_t *h = calloc(1, sizeof(*h));
		ww_drive_t other = *x;

		other.transport = WW_TRANSPORT_OTHER; /* as without the cached page */
		if (h) {
			h->protocol = WW_PROTO_SCSI;
			h->scsi.protocol_id = 6;
			CHECK_EQ_U64(ww_drive_transport(&other, h), WW_TRANSPORT_SAS);
			h->scsi.protocol_id = 0xff;
			CHECK_EQ_U64(ww_drive_transport(&other, h), WW_TRANSPORT_OTHER);
			free(h);
		}
	}

	x = find(d, n, "sdf");
	CHECK(x != NULL);
	if (x) {
		CHECK_STR(x->id, "ata-QEMU_HARDDISK_QM00003");
		CHECK_STR(x->sysfs_model, "QEMU HARDDISK");
		CHECK_STR(x->sysfs_serial, "QM00003");
		CHECK_EQ_U64(x->protocol, WW_PROTO_ATA);
	}

	x = find(d, n, "vda");
	CHECK(x != NULL);
	if (x) {
		CHECK_STR(x->id, "virtio-overlayblk");
		CHECK_EQ_U64(x->transport, WW_TRANSPORT_VIRTIO);
		CHECK_EQ_U64(x->protocol, WW_PROTO_NONE);
		CHECK_STR(x->no_health_reason, "virtio-blk has no health interface");
		CHECK_STR(x->sysfs_serial, "overlayblk");
		CHECK_EQ_U64(x->capacity_bytes, 536870912ULL * 512);
		CHECK_EQ_U64(x->logical_block_bytes, 512);
		CHECK_EQ_U64(x->physical_block_bytes, 4096);
	}

	CHECK(find(d, n, "sda1") == NULL);
	CHECK(find(d, n, "loop0") == NULL);
	CHECK(find(d, n, "fd0") == NULL);
	CHECK(find(d, n, "dm-0") == NULL);

	char lbl[128];
	x = find(d, n, "vda");
	if (x)
		CHECK_STR(ww_drive_protocol_label(x, lbl, sizeof(lbl)),
			  "none: virtio-blk has no health interface");
	x = find(d, n, "sda");
	if (x)
		CHECK_STR(ww_drive_protocol_label(x, lbl, sizeof(lbl)), "ata via sat");
}

static void test_include_and_max(void)
{
	const char *inc[] = { "loop0", "dm-0", "sda1", NULL };
	ww_drive_t d[MAXD];
	int n = ww_discover(root_basic, inc, d, MAXD);

	CHECK_EQ_I64(n, 10);
	const ww_drive_t *x = find(d, n, "loop0");
	CHECK(x != NULL);
	if (x) {
		CHECK_EQ_U64(x->protocol, WW_PROTO_NONE);
		CHECK(x->no_health_reason != NULL);
		CHECK_STR(x->id, "dev-loop0");
	}
	CHECK(find(d, n, "dm-0") != NULL);
	CHECK(find(d, n, "sda1") != NULL);

	/* max bounds what is written */
	n = ww_discover(root_basic, NULL, d, 2);
	CHECK_EQ_I64(n, 2);
	CHECK_EQ_I64(ww_discover("/nonexistent-root", NULL, d, MAXD), -ENOENT);
}

/* No /dev/disk (the VM has no udev): ids built from sysfs the way udev would. */
static void test_nodev(void)
{
	ww_drive_t d[MAXD];
	int n = ww_discover(root_nodev, NULL, d, MAXD);
	const ww_drive_t *x;

	CHECK_EQ_I64(n, 7);
	if (n < 0)
		return;
	x = find(d, n, "nvme0n1");
	CHECK(x && !strcmp(x->id, "nvme-eui.0025388b91b3a2c1"));
	x = find(d, n, "sda");
	CHECK(x && !strcmp(x->id, "wwn-0x5002538f42a1b2c3"));
	x = find(d, n, "sdf");
	CHECK(x && !strcmp(x->id, "ata-QEMU_HARDDISK_QM00003"));
	x = find(d, n, "sdb");
	CHECK(x && !strcmp(x->id, "wwn-0x5000c500a1b2c3d4") && x->n_paths == 2);
	x = find(d, n, "vda");
	CHECK(x && !strcmp(x->id, "dev-vda") && !strcmp(x->slot, ""));
	x = find(d, n, "sdd");
	CHECK(x && !strcmp(x->id, "dev-sdd") && x->transport == WW_TRANSPORT_USB);
	/* transports come from sysfs, not from /dev/disk */
	x = find(d, n, "sdc");
	CHECK(x && x->transport == WW_TRANSPORT_SAS);
}

static void test_runtime(void)
{
	/* nvme: the PCI function (controller's device) says suspended, the
	 * controller class device says unsupported */
	CHECK_EQ_I64(ww_runtime_suspended(root_basic, "nvme0n1"), 1);
	CHECK_EQ_I64(ww_runtime_suspended(root_basic, "sda"), 0);
	CHECK_EQ_I64(ww_runtime_suspended(root_basic, "sdd"), 1);
	CHECK_EQ_I64(ww_runtime_suspended(root_basic, "vda"), 0); /* unsupported */
	CHECK(ww_runtime_suspended(root_basic, "loop0") < 0);       /* no device/ */
	CHECK_EQ_I64(ww_runtime_suspended(root_basic, "../x"), -EINVAL);
}

/* This machine's own sysfs: discovery lists no loop or zram device. Only
 * /sys is read; no device node is opened. */
static void test_live_discovery(void)
{
	ww_drive_t *d = calloc(MAXD, sizeof(*d));
	int n;

	if (!d)
		return;
	n = ww_discover("", NULL, d, MAXD);
	CHECK(n >= 0);
	for (int i = 0; i < n; i++) {
		CHECK(strncmp(d[i].block, "loop", 4) != 0);
		CHECK(strncmp(d[i].block, "zram", 4) != 0);
	}
	free(d);
}

/* The build VM's /dev/vda (its sysfs copied into the basic tree): virtio, no
 * health interface. Discovery must list it; collecting must fail cleanly,
 * and forcing it through SG_IO fails at the open (the node is looked up in
 * the tree, where there is none), recorded as an OS error. */
static void test_virtio(void)
{
	ww_drive_t *d = calloc(MAXD, sizeof(*d));
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_read_report_t *r = calloc(1, sizeof(*r));
	int n;

	if (!d || !h || !r)
		goto out;
	n = ww_discover(root_basic, NULL, d, MAXD);
	CHECK(n >= 0);
	const ww_drive_t *x = n > 0 ? find(d, n, "vda") : NULL;
	CHECK(x != NULL);
	if (!x)
		goto out;
	CHECK_EQ_U64(x->protocol, WW_PROTO_NONE);
	CHECK_EQ_U64(x->transport, WW_TRANSPORT_VIRTIO);
	CHECK(x->capacity_bytes > 0);
	for (int i = 0; i < n; i++) {
		CHECK(strncmp(d[i].block, "loop", 4) != 0);
		CHECK(strncmp(d[i].block, "zram", 4) != 0);
	}

	/* nothing sent, and no command claimed in the report (show printed
	 * "Commands sent (1) / no health interface unsupported") */
	int ret = ww_collect_drive(root_basic, x, h, r);
	CHECK_EQ_I64(ret, -EOPNOTSUPP);
	CHECK_EQ_U64(r->n_cmds, 0);
	/* identity still filled from sysfs */
	CHECK(WW_HAS(h->capacity_bytes));
	CHECK_EQ_U64(h->capacity_bytes.value, x->capacity_bytes);

	/* forced through SG_IO anyway: the open fails, recorded as an OS error */
	ww_drive_t forced = *x;
	forced.protocol = WW_PROTO_SCSI;
	snprintf(forced.cmd_path, sizeof(forced.cmd_path), "/dev/vda");
	ret = ww_collect_drive(root_basic, &forced, h, r);
	CHECK(ret < 0);
	CHECK_EQ_I64(ret, -ENOENT);
	CHECK(r->n_cmds >= 1);
	if (r->n_cmds) {
		CHECK_EQ_U64(r->cmds[0].result, WW_CMD_OS_ERROR);
		CHECK_EQ_I64(r->cmds[0].os_errno, -ret);
		CHECK_STR(r->cmds[0].what, "open /dev/vda");
	}
	CHECK(r->n_errors >= 1);
out:
	free(d);
	free(h);
	free(r);
}

int main(void)
{
	const char *src = getenv("WW_SOURCE_DIR");

	if (!src)
		src = ".";
	snprintf(root_basic, sizeof(root_basic), "%s/tests/fixtures/sysfs/basic", src);
	snprintf(root_nodev, sizeof(root_nodev), "%s/tests/fixtures/sysfs/nodev", src);
	test_basic();
	test_include_and_max();
	test_nodev();
	test_runtime();
	test_live_discovery();
	test_virtio();
	return ww_test_done("test_discover_drives");
}
