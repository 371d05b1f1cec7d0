/* The spec-constructed SATA drive shared by the ATA reader and the capture
 * round-trip tests: IDENTIFY and SMART sectors built here, the GP log
 * directory and the extended error and self-test logs from
 * tests/fixtures/ata/hgst-huh721010aln600-NAME.hex and the Device Statistics
 * pages from tests/fixtures/ata/samsung-860evo-NAME.hex;
 * device() describes the drive answering with them (a ww_sat_drive_t of
 * ww_fake_device.h, whose blocks ww_cap_sat_drive() writes). Include after
 * ww_fake_device.h and ww_ata_sectors.h. */
#ifndef WW_ATA_SPEC_DRIVE_H
#define WW_ATA_SPEC_DRIVE_H

static uint8_t identify[512], smart_data[512], smart_thr[512], pages[9][512];

static void build(void)
{
	static const uint8_t r9[6] = { 0xd7, 0x38, 0, 0, 0, 0 };   /* 14551 */
	static const uint8_t r194[6] = { 0x24, 0, 0, 0, 0, 0 };    /* 36 */
	static const uint8_t r12[6] = { 13, 0, 0, 0, 0, 0 };

	memset(identify, 0, 512);
	id_str(identify, 10, 10, "SPECSERIAL");
	id_str(identify, 23, 4, "SPECFW");
	id_str(identify, 27, 20, "SPEC SATA SSD");
	id_set(identify, 82, 0x0001);
	id_set(identify, 84, 0x4020);
	id_set(identify, 85, 0x0001);
	id_set(identify, 87, 0x4020);
	id_set(identify, 100, 0x1000);
	id_set(identify, 106, 0x4000);
	id_set(identify, 217, 1);
	id_checksum(identify);

	memset(smart_data, 0, 512);
	smart_data[0] = 1;
	smart_entry(smart_data, 0, 9, 99, 99, r9);
	smart_entry(smart_data, 1, 12, 99, 99, r12);
	smart_entry(smart_data, 2, 194, 64, 43, r194);
	sector_checksum(smart_data);
	memset(smart_thr, 0, 512);
	smart_thr[2] = 9;
	sector_checksum(smart_thr);

	CHECK_EQ_U64(load_hex("hgst-huh721010aln600-gplogdir.hex", pages[0], 512), 512);
	CHECK_EQ_U64(load_hex("samsung-860evo-devstat-p0.hex", pages[1], 512), 512);
	CHECK_EQ_U64(load_hex("samsung-860evo-devstat-p1.hex", pages[2], 512), 512);
	CHECK_EQ_U64(load_hex("samsung-860evo-devstat-p5.hex", pages[3], 512), 512);
	CHECK_EQ_U64(load_hex("samsung-860evo-devstat-p7.hex", pages[4], 512), 512);
	CHECK_EQ_U64(load_hex("samsung-860evo-devstat-p4.hex", pages[5], 512), 512);
	CHECK_EQ_U64(load_hex("samsung-860evo-devstat-p6.hex", pages[6], 512), 512);
	CHECK_EQ_U64(load_hex("hgst-huh721010aln600-xerror.hex", pages[7], 512), 512);
	CHECK_EQ_U64(load_hex("hgst-huh721010aln600-xselftest.hex", pages[8], 512), 512);
}

static void device(ww_sat_drive_t *f, int power_mode)
{
	memset(f, 0, sizeof(*f));
	f->power_mode = power_mode;
	f->identify = identify;
	f->smart_data = smart_data;
	f->smart_thresholds = smart_thr;
	f->smart_status = 1;
	f->log_dir = pages[0];
	f->devstat[0] = pages[1];
	f->devstat[1] = pages[2];
	f->devstat[5] = pages[3];
	f->devstat[7] = pages[4];
	f->devstat[4] = pages[5];
	f->devstat[6] = pages[6];
	f->xerror = pages[7];
	f->xselftest = pages[8];
}

#endif
