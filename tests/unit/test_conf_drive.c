/* [drive NAME] settings of wearwatch.conf reach their modules' parsers
 * (src/conf/config.c, probe_conf.c): the probe policy, smartctl forcing,
 * include/exclude, block-name checks, [history] retention. Expected values
 * come from the configuration text; the probe defaults from
 * ww_probe_policy_default. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wearwatch/conf.h"
#include "ww_test.h"

static void test_probe_policy(void)
{
	ww_probe_policy_t p, d;
	char err[200];

	ww_probe_policy_default(&d);
	p = d;
	CHECK(ww_probe_policy_parse(&p, "off", err, sizeof(err)) == 0);
	CHECK(!p.enabled);
	p = d;
	CHECK(ww_probe_policy_parse(&p, "interval=300,qd=4,bs=8k,rotational=never", err,
				    sizeof(err)) == 0);
	CHECK(p.enabled);
	CHECK_EQ_U64(p.interval_s, 300);
	CHECK_EQ_U64(p.queue_depth, 4);
	CHECK_EQ_U64(p.block_bytes, 8192);
	CHECK(p.rotational == WW_PROBE_ROT_NEVER);
	CHECK_EQ_U64(p.count, d.count); /* untouched keys keep the default */
	CHECK(ww_probe_policy_parse(&p, "speed=9", err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "unknown probe key 'speed'") != NULL);
	CHECK(ww_probe_policy_parse(&p, "qd=0", err, sizeof(err)) == -EINVAL);
	CHECK(ww_probe_policy_parse(&p, "maybe", err, sizeof(err)) == -EINVAL);
}

static void test_drive_sections(void)
{
	ww_conf_t *c = calloc(1, sizeof(*c));
	char err[512];

	ww_conf_free(c); /* its lists, before they are reset */
	ww_conf_defaults(c);
	CHECK_EQ_U64(c->retention_s, 0); /* forever unless configured */
	CHECK(ww_conf_load_string(c,
		"[history]\nretention = 30d\nmissing_retention = 2h\n"
		"[drive nvme-QEMU_NVMe_Ctrl_deadbeef]\nrating = 1:5\nwarranty_start = 2024-02-29\n"
		"probe = interval=120\nsmartctl = megaraid,3\n"
		"[drive dm-3]\ninclude = yes\n[drive sdb]\nexclude = yes\n",
		"t.conf", err, sizeof(err)) == 0);
	CHECK_EQ_U64(c->retention_s, 30 * 86400);
	CHECK_EQ_U64(c->missing_retention_s, 7200);
	CHECK_EQ_U64(c->n_drives, 3);
	CHECK_STR(c->drives[0].smartctl, "megaraid,3");
	CHECK_STR(c->drives[0].probe, "interval=120");
	CHECK_EQ_I64(c->drives[1].monitor, 1);
	CHECK_EQ_I64(c->drives[2].monitor, 0);
	CHECK(ww_conf_drive_find(c, "x", "sdb") == &c->drives[2]);

	ww_conf_free(c); /* its lists, before they are reset */
	ww_conf_defaults(c);
	CHECK(ww_conf_load_string(c, "[drive a]\nprobe = qd=999\n", "t.conf", err,
				  sizeof(err)) == -EINVAL);
	CHECK(!strncmp(err, "t.conf:2: probe qd", 18));
	ww_conf_free(c); /* its lists, before they are reset */
	ww_conf_defaults(c);
	CHECK(ww_conf_load_string(c, "[drive /dev/nvme0n1]\nrating = 1:5\n", "t.conf", err,
				  sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "t.conf:2: rating: [drive /dev/nvme0n1] is a block device name"));
	ww_conf_free(c); /* its lists, before they are reset */
	ww_conf_defaults(c);
	CHECK(ww_conf_load_string(c, "[drive a]\nsmartctl = sat;rm\n", "t.conf", err,
				  sizeof(err)) == -EINVAL);
	CHECK(ww_conf_is_block_name("sda") && ww_conf_is_block_name("/dev/nvme12n1") &&
	      ww_conf_is_block_name("dm-0") && ww_conf_is_block_name("md127"));
	CHECK(!ww_conf_is_block_name("nvme-Samsung_SSD_980_S123") &&
	      !ww_conf_is_block_name("S3Z9NB0K123456") && !ww_conf_is_block_name("nvme0n1p1"));
	ww_conf_free(c);
	free(c);
}

int main(void)
{
	test_probe_policy();
	test_drive_sections();
	return ww_test_done("test_conf_drive");
}
