/* Capture and replay round trip, fixture-free: the SPEC-CONSTRUCTED SATA
 * drive of ww_ata_spec_drive.h (IDENTIFY/SMART built there, Device
 * Statistics pages from tests/fixtures/ata/samsung-860evo-*.hex), answering
 * through the replay-backed fake device (ww_fake_device.h), is read through
 * the capture transport; the capture file is then replayed and must give the
 * same record. Also: redaction of the serial (plain and byte-swapped,
 * checksum kept valid), standby recorded and replayed, unrecorded commands
 * answered "unsupported", malformed files rejected. */
#include <unistd.h>

#include "wearwatch/collect.h"
#include "wearwatch/transport.h"
#include "wearwatch/decode.h"
#include "ww_fake_device.h"
#include "ww_ata_sectors.h"

#include "ww_ata_spec_drive.h"

static char dir[64];

static void capture_file(const ww_sat_drive_t *dev, const char *path, const char *const *red,
			 ww_health_t *h, ww_read_report_t *r)
{
	ww_xport_t cap;
	ww_drive_t d;
	ww_fake_t f;
	ww_cap_t c;
	FILE *out = fopen(path, "w");

	memset(&d, 0, sizeof(d));
	snprintf(d.id, sizeof(d.id), "ata-SPEC_SATA_SSD_SPECSERIAL");
	d.protocol = WW_PROTO_ATA;
	fprintf(out, "fact id %s\nfact protocol ata\nfact runtime_status active\n", d.id);
	ww_cap_open(&c);
	ww_cap_sat_drive(&c, dev);
	CHECK(ww_fake_open_cap(&f, &c) == 0);
	ww_cap_free(&c);
	CHECK(ww_xport_capture_wrap(&f.x, out, red, &cap) == 0);
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	CHECK(ww_collect_on_xport(&cap, &d, h, r) >= 0);
	cap.ops->close(&cap); /* closes f.x, and the replay inside it */
	ww_fake_close(&f);
	fclose(out);
}

static void same(const ww_health_t *a, const ww_health_t *b)
{
	CHECK_STR(a->model, b->model);
	CHECK_STR(a->serial, b->serial);
	CHECK_EQ_U64(a->power_on_seconds.value, b->power_on_seconds.value);
	CHECK_EQ_U64(a->host_written_bytes.value, b->host_written_bytes.value);
	CHECK_EQ_I64(a->temperature_celsius.value, b->temperature_celsius.value);
	CHECK_EQ_U64(a->power_cycles.value, b->power_cycles.value);
	CHECK_EQ_U64(a->endurance_used_percent.value, b->endurance_used_percent.value);
	CHECK_EQ_U64(a->ata.n_attrs, b->ata.n_attrs);
	CHECK(a->smart_status == b->smart_status);
}

int main(void)
{
	ww_health_t *live = calloc(1, sizeof(*live)), *rep = calloc(1, sizeof(*rep));
	ww_read_report_t r, rr;
	ww_sat_drive_t f;
	char path[128], cmd[160];
	const char *red[] = { "SPECSERIAL", NULL };
	ww_xport_t x;
	ww_cmd_status_t st;
	uint8_t cdb[16] = { 0x4d }, buf[64];
	FILE *bad;
	int line = 0;

	snprintf(dir, sizeof(dir), "/tmp/ww-capture-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	build();

	/* round trip */
	device(&f, 0xff);
	snprintf(path, sizeof(path), "%s/a.capture", dir);
	capture_file(&f, path, NULL, live, &r);
	CHECK_STR(live->serial, "SPECSERIAL");
	CHECK_EQ_I64(live->temperature_celsius.value, 36); /* devstat page 5 of the 860 EVO */
	CHECK(ww_replay_collect(path, NULL, rep, &rr) == 0);
	same(live, rep);
	CHECK_STR(rep->backend, "replay");
	CHECK_EQ_U64(rr.n_cmds, r.n_cmds);
	for (size_t i = 0; i < r.n_cmds && i < rr.n_cmds; i++) {
		CHECK_STR(rr.cmds[i].what, r.cmds[i].what);
		CHECK(rr.cmds[i].result == r.cmds[i].result);
	}

	/* redacted: serial gone from the bytes, IDENTIFY still checksums */
	snprintf(path, sizeof(path), "%s/red.capture", dir);
	capture_file(&f, path, red, live, &r);
	CHECK(ww_replay_collect(path, NULL, rep, &rr) == 0);
	CHECK_STR(rep->serial, "XXXXXXXXXX");
	CHECK(rep->ata.identify_checksum_ok);
	CHECK_STR(rep->model, "SPEC SATA SSD");

	/* standby recorded: replay stops after CHECK POWER MODE as live did */
	device(&f, 0x00);
	snprintf(path, sizeof(path), "%s/sb.capture", dir);
	capture_file(&f, path, NULL, live, &r);
	CHECK(r.standby);
	CHECK(ww_replay_collect(path, NULL, rep, &rr) == 1);
	CHECK(rr.standby);
	CHECK_EQ_U64(rr.n_cmds, 1);

	/* an unrecorded command is unsupported */
	CHECK(ww_xport_open_replay(path, &x, NULL) == 0);
	CHECK_EQ_U64(ww_replay_n_cmds(&x), 1);
	CHECK(x.ops->scsi_in(&x, cdb, 10, buf, sizeof(buf), 5, &st) == 0);
	CHECK(st.result == WW_CMD_UNSUPPORTED);
	ww_xport_close(&x);

	/* malformed: data shorter than data_len */
	snprintf(path, sizeof(path), "%s/bad.capture", dir);
	bad = fopen(path, "w");
	fputs("cmd scsi_in cdb=12 len=4\nst ret=0 result=ok errno=0 scsi_status=0x00 "
	      "sense_key=0x0 asc=0x00 ascq=0x00 nvme_status=0x0000 nvme_result=0x00000000 "
	      "data_len=4\ndata 0102\nend\n", bad);
	fclose(bad);
	CHECK(ww_xport_open_replay(path, &x, &line) == -EINVAL);
	CHECK_EQ_I64(line, 4);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "cleanup failed\n");
	free(live);
	free(rep);
	return ww_test_done("test_transport_capture_replay");
}
