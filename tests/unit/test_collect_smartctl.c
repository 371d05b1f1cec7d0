/* smartctl backend without real drives: a shell script stands in for smartctl
 * (its exit status, output, delay and the argv it received are what the test
 * controls); the JSON documents are spec-constructed from smartctl's JSON
 * schema (smartctl 7.3, `-j -x`), the expected values being the literal
 * numbers written into them. */
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ww_test.h"
#include "wearwatch/collect.h"

static char tmpdir[64];

static void script(const char *name, const char *body)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	f = fopen(p, "w");
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(p, 0755);
	ww_smartctl_set_program(p);
}

static const char *ata_json =
	"{\"smartctl\":{\"version\":[7,3],\"exit_status\":68},"
	"\"device\":{\"name\":\"/dev/bus/0\",\"type\":\"megaraid,2\",\"protocol\":\"ATA\"},"
	"\"model_name\":\"WDC WD4000FYYZ\",\"serial_number\":\"WD-X\",\"firmware_version\":\"01.01K02\","
	"\"user_capacity\":{\"blocks\":7814037168,\"bytes\":4000787030016},\"logical_block_size\":512,"
	"\"smart_status\":{\"passed\":true},"
	"\"ata_smart_attributes\":{\"table\":[{\"id\":9,\"value\":50,\"worst\":50,\"thresh\":0,"
	"\"flags\":{\"value\":50},\"raw\":{\"value\":37787,\"string\":\"37787\"}},"
	"{\"id\":194,\"value\":111,\"worst\":99,\"thresh\":0,\"raw\":{\"value\":206158430244,\"string\":\"36 (Min/Max 0/48)\"}},"
	"{\"id\":199,\"value\":200,\"worst\":200,\"thresh\":0,\"raw\":{\"value\":281474976710655}}]},"
	"\"power_on_time\":{\"hours\":37787},\"power_cycle_count\":70,\"temperature\":{\"current\":36},"
	"\"ata_device_statistics\":{\"pages\":[{\"number\":1,\"table\":[{\"offset\":24,\"value\":140737488355328,"
	"\"flags\":{\"value\":192}}]}]}}";

static void test_parse(void)
{
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_smartctl_info_t info;
	const ww_ata_attr_t *a = NULL;
	char buf[160];

	CHECK(ww_smartctl_parse(ata_json, strlen(ata_json), h, &info) == 0);
	CHECK_EQ_I64(info.exit_status, 68);
	CHECK_STR(info.device_type, "megaraid,2");
	CHECK_STR(h->model, "WDC WD4000FYYZ");
	CHECK_STR(h->backend, "smartctl");
	CHECK_EQ_U64(h->power_on_seconds.value, 37787ull * 3600);
	CHECK_EQ_I64(h->temperature_celsius.value, 36);
	CHECK_EQ_U64(h->power_cycles.value, 70);
	CHECK(h->smart_status == WW_SMART_PASSED);
	for (size_t i = 0; i < h->ata.n_attrs; i++)
		if (h->ata.attrs[i].id == 199)
			a = &h->ata.attrs[i];
	CHECK(a && a->raw == 281474976710655ull); /* 2^48 - 1, exact */
	/* 2^47 sectors x 512: exact 64-bit arithmetic, no double */
	CHECK_EQ_U64(h->host_written_bytes.value, 140737488355328ull * 512);
	CHECK_STR(ww_smartctl_exit_explain(68, buf, sizeof(buf)),
		  "SMART command failed or checksum error, error log has records");
	CHECK_STR(ww_smartctl_exit_explain(3, buf, sizeof(buf)), "standby (not woken)");

	/* NVMe counters beyond 64 bits: the "_s" string keeps them whole */
	const char *nv = "{\"device\":{\"protocol\":\"NVMe\",\"type\":\"nvme\"},\"model_name\":\"X\","
			 "\"nvme_smart_health_information_log\":{\"temperature\":45,"
			 "\"data_units_written\":18446744073709551615,"
			 "\"data_units_read\":1,\"data_units_read_s\":\"36893488147419103232\","
			 "\"media_errors\":4294967296,\"percentage_used\":255}}";
	CHECK(ww_smartctl_parse(nv, strlen(nv), h, &info) == 0);
	CHECK(h->protocol == WW_PROTO_NVME);
	CHECK_EQ_U64(h->nvme_smart.data_units_read.hi, 2); /* 2^65 */
	CHECK_EQ_U64(h->nvme_smart.data_units_read.lo, 0);
	CHECK(h->host_read_bytes.saturated && h->host_written_bytes.saturated);
	CHECK_EQ_U64(h->media_errors.value, 4294967296ull);
	CHECK_EQ_U64(h->endurance_used_percent.value, 255);
	CHECK_EQ_U64(h->nvme_smart.composite_temperature_kelvin, 318);

	/* smartctl error output describes no device */
	const char *err = "{\"smartctl\":{\"exit_status\":2,\"messages\":[{\"string\":\"Smartctl open device: /dev/sdz failed: No such device\",\"severity\":\"error\"}]}}";
	CHECK(ww_smartctl_parse(err, strlen(err), h, &info) == -ENODATA);
	CHECK(strstr(info.message, "No such device") != NULL);
	CHECK(ww_smartctl_parse("not json", 8, h, &info) == -EINVAL);
	free(h);
}

static void test_run(void)
{
	ww_drive_t d;
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_read_report_t r;
	char p[256], body[512], *out, args[256] = "";
	size_t len;
	int es;
	FILE *f;
	time_t t0;

	memset(&d, 0, sizeof(d));
	snprintf(d.id, sizeof(d.id), "megaraid-bus0-2");
	snprintf(d.dev_path, sizeof(d.dev_path), "/dev/bus/0");
	CHECK(ww_smartctl_force("megaraid-bus0-2", "megaraid,2") == 0);
	CHECK_STR(ww_smartctl_forced_type(&d), "megaraid,2");

	/* healthy RAID member: exit 4|64, data good */
	snprintf(p, sizeof(p), "%s/ata.json", tmpdir);
	f = fopen(p, "w");
	fputs(ata_json, f);
	fclose(f);
	snprintf(body, sizeof(body), "echo \"$@\" > %s/args; cat %s; exit 68", tmpdir, p);
	script("sc-ok", body);
	memset(&r, 0, sizeof(r));
	CHECK(ww_collect_smartctl(&d, NULL, 10, h, &r) == 0);
	CHECK_EQ_U64(h->power_cycles.value, 70);
	CHECK_EQ_U64(r.n_cmds, 1);
	CHECK_STR(r.cmds[0].what, "smartctl -d megaraid,2");
	CHECK(r.cmds[0].result == WW_CMD_RECOVERED);
	snprintf(p, sizeof(p), "%s/args", tmpdir);
	f = fopen(p, "r");
	if (f) {
		if (!fgets(args, sizeof(args), f))
			args[0] = '\0';
		fclose(f);
	}
	CHECK_STR(args, "-j -x -n standby,3 -d megaraid,2 /dev/bus/0\n");

	/* standby: the distinct exit status, nothing else looked at */
	script("sc-standby", "echo '{\"smartctl\":{\"exit_status\":3}}'; exit 3");
	memset(&r, 0, sizeof(r));
	CHECK(ww_collect_smartctl(&d, "sat", 10, h, &r) == 1);
	CHECK(r.standby);

	/* reached, no SMART (QEMU's megasas member: identity only) */
	script("sc-nosmart", "echo '{\"smartctl\":{\"exit_status\":4},\"device\":{\"protocol\":\"SCSI\"},"
			     "\"scsi_vendor\":\"QEMU\",\"scsi_product\":\"QEMU HARDDISK\"}'; exit 4");
	memset(&r, 0, sizeof(r));
	CHECK(ww_collect_smartctl(&d, "megaraid,0", 10, h, &r) == -ENODATA);
	CHECK_STR(h->model, "QEMU HARDDISK");
	CHECK(r.cmds[0].result == WW_CMD_UNSUPPORTED);

	/* open failed */
	script("sc-open", "echo '{\"smartctl\":{\"exit_status\":2}}'; exit 2");
	memset(&r, 0, sizeof(r));
	CHECK(ww_collect_smartctl(&d, "sat", 10, h, &r) == -ENODEV);

	/* a hung child: killed at the deadline, the caller is not blocked */
	script("sc-hang", "exec sleep 30");
	t0 = time(NULL);
	CHECK(ww_smartctl_run("/dev/x", "sat", NULL, 1, &out, &len, &es) == -ETIMEDOUT);
	CHECK(time(NULL) - t0 <= 3);
	CHECK_EQ_U64(ww_smartctl_reap(), 0);

	ww_smartctl_set_program("/nonexistent/smartctl");
	CHECK(ww_smartctl_run("/dev/x", "sat", NULL, 5, &out, &len, &es) == -ENOENT);
	ww_smartctl_set_program(NULL);
	ww_smartctl_force_clear();
	CHECK(ww_smartctl_forced_type(&d) == NULL);
	free(h);
}

static void test_scan(void)
{
	const char *s = "{\"devices\":[{\"name\":\"/dev/bus/0\",\"info_name\":\"/dev/bus/0 [megaraid_disk_00]\","
			"\"type\":\"megaraid,0\",\"protocol\":\"SCSI\"},{\"name\":\"/dev/sda\",\"type\":\"sat\"}]}";
	ww_smartctl_dev_t *devs = NULL;

	CHECK(ww_smartctl_scan_parse(s, strlen(s), &devs) == 2);
	CHECK_STR(devs[0].type, "megaraid,0");
	CHECK_STR(devs[1].name, "/dev/sda");
	free(devs);
}

/* A drive discovery finds no health interface for (the fake sysfs tree's
 * virtio disk vda) forced to smartctl -d sat: discovery gives it the
 * protocol of its type, and the read goes to smartctl with that type (the
 * poller reads only drives with a protocol; before, such a drive was listed
 * with smartctl_info{type="sat"} and never read). */
static void test_forced_no_interface(void)
{
	const char *src = getenv("WW_SOURCE_DIR");
	char root[4096], p[256], body[512], args[256] = "";
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_drive_t *d = NULL, *vda = NULL;
	ww_read_report_t r;
	int n;
	FILE *f;

	CHECK(ww_smartctl_type_protocol("sat") == WW_PROTO_ATA);
	CHECK(ww_smartctl_type_protocol("sat,12") == WW_PROTO_ATA);
	CHECK(ww_smartctl_type_protocol("usbjmicron,p") == WW_PROTO_ATA);
	CHECK(ww_smartctl_type_protocol("nvme,0x1") == WW_PROTO_NVME);
	CHECK(ww_smartctl_type_protocol("sntjmicron") == WW_PROTO_NVME);
	CHECK(ww_smartctl_type_protocol("scsi") == WW_PROTO_SCSI);
	CHECK(ww_smartctl_type_protocol("megaraid,3") == WW_PROTO_SCSI);
	CHECK(ww_smartctl_type_protocol("") == WW_PROTO_NONE);
	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs/basic", src ? src : ".");

	n = ww_discover_with_members(root, NULL, &d);
	for (int i = 0; i < n; i++)
		if (!strcmp(d[i].block, "vda"))
			vda = &d[i];
	CHECK(vda && vda->protocol == WW_PROTO_NONE && vda->no_health_reason);
	free(d);

	CHECK(ww_smartctl_force("vda", "sat") == 0);
	vda = NULL;
	n = ww_discover_with_members(root, NULL, &d);
	for (int i = 0; i < n; i++)
		if (!strcmp(d[i].block, "vda"))
			vda = &d[i];
	CHECK(vda != NULL);
	if (vda) {
		CHECK(vda->protocol == WW_PROTO_ATA);
		CHECK(vda->no_health_reason == NULL);
		CHECK_STR(vda->smartctl_type, "sat");
		snprintf(p, sizeof(p), "%s/ata.json", tmpdir);
		snprintf(body, sizeof(body), "echo \"$@\" > %s/args; cat %s; exit 68", tmpdir, p);
		script("sc-vda", body);
		memset(&r, 0, sizeof(r));
		CHECK(ww_collect_drive(root, vda, h, &r) == 0);
		CHECK_STR(h->backend, "smartctl");
		CHECK_EQ_U64(h->power_cycles.value, 70);
		CHECK_STR(r.cmds[0].what, "smartctl -d sat");
		snprintf(p, sizeof(p), "%s/args", tmpdir);
		f = fopen(p, "r");
		if (f) {
			if (!fgets(args, sizeof(args), f))
				args[0] = '\0';
			fclose(f);
		}
		CHECK_STR(args, "-j -x -n standby,3 -d sat /dev/vda\n");
	}
	free(d);
	ww_smartctl_set_program(NULL);
	ww_smartctl_force_clear();
	free(h);
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ww-smartctl-XXXXXX");
	if (!mkdtemp(tmpdir))
		return 1;
	test_parse();
	test_run();
	test_forced_no_interface();
	test_scan();
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd))
			fprintf(stderr, "cleanup failed\n");
	}
	return ww_test_done("test_collect_smartctl");
}
