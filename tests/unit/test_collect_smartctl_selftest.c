/* Self-tests through a smartctl child (src/collect/smartctl_selftest.c) and
 * the self-test fields of smartctl's JSON (src/collect/smartctl_json*.c).
 *
 * A shell script stands in for smartctl: it logs the argv of every run and
 * answers the read (-j -x) with a file and the start (-t) with a text and
 * an exit status the test sets. The drives are the two MegaRAID members of
 * scrutiny's smartctl_scan_megaraid.json (`smartctl -j --scan`, smartctl
 * 7.1: /dev/bus/0 megaraid,0 and megaraid,1), the read is that controller's
 * smart-megaraid0.json (WD4000FYYX behind it, smartctl 7.1 `-a -j -d
 * megaraid,0`, exit 4): SMART READ DATA capabilities [123, 3], polling 2,
 * 523 and 5 minutes, no test running. The running test is that file with
 * one field edited: self_test.status.value F9h (byte 363: in progress, 90 %
 * remaining, ACS-4 "SMART READ DATA"), the way smartctl prints it
 * (remaining_percent 90). The start's text is smartctl 7.3's own
 * (ataprint.cpp); its refusal to abort a running test is the sentence of
 * ataprint.cpp and nvmeprint.cpp.
 *
 * The NVMe and SCSI self-test JSON are spec-constructed from the keys
 * smartctl writes (nvmeprint.cpp 7.4 nvme_self_test_log; scsiprint.cpp
 * scsi_self_test_N, 7.3): no public smartctl JSON with them is among the
 * fixtures. The expected values are the numbers written into them. */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "wearwatch/collect.h"
#include "ww_test.h"

static char tmpdir[] = "/tmp/ww-sc-selftest-XXXXXX";
static const char *fix;

static void put(const char *name, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* what the fake smartctl was run with since the last call, one run a line */
static char *runs(void)
{
	static char buf[2048];
	char p[256];
	FILE *f;
	size_t n = 0;

	snprintf(p, sizeof(p), "%s/args", tmpdir);
	buf[0] = '\0';
	f = fopen(p, "r");
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	unlink(p);
	return buf;
}

static void fake(void)
{
	char p[256], body[1024];
	FILE *f;

	snprintf(
		body, sizeof(body),
		"#!/bin/sh\n"
		"printf '%%s\\n' \"$*\" >> %1$s/args\n"
		"case \" $* \" in *\" -t \"*) cat %1$s/start.out; exit $(cat %1$s/start.es);; esac\n"
		"cat %1$s/read.json; exit $(cat %1$s/read.es)\n",
		tmpdir);
	snprintf(p, sizeof(p), "%s/smartctl", tmpdir);
	f = fopen(p, "w");
	fputs(body, f);
	fclose(f);
	chmod(p, 0755);
	ww_smartctl_set_program(p);
}

/* smart-megaraid0.json, with self_test.status.value set to st (0 = as
 * published; else the edit, with remaining_percent rem) and capabilities
 * byte 367 to cap (as published when < 0) */
static void read_json(int st, int rem, int cap)
{
	size_t len;
	char *text = (char *)ww_read_file(fix, "scrutiny/smart-megaraid0.json", &len);
	json_object *j = text ? json_tokener_parse(text) : NULL, *o, *s;

	CHECK(j != NULL);
	if (j && st && json_object_object_get_ex(j, "ata_smart_data", &o) &&
	    json_object_object_get_ex(o, "self_test", &o) &&
	    json_object_object_get_ex(o, "status", &s)) {
		json_object_object_add(s, "value", json_object_new_int(st));
		json_object_object_add(s, "string",
				       json_object_new_string("in progress, 90% remaining"));
		json_object_object_add(s, "remaining_percent", json_object_new_int(rem));
		json_object_object_del(s, "passed");
	}
	if (j && cap >= 0 && json_object_object_get_ex(j, "ata_smart_data", &o) &&
	    json_object_object_get_ex(o, "capabilities", &o) &&
	    json_object_object_get_ex(o, "values", &o))
		json_object_array_put_idx(o, 0, json_object_new_int(cap));
	put("read.json", j ? json_object_to_json_string(j) : "");
	json_object_put(j);
	free(text);
}

static const char *started_text =
	"=== START OF OFFLINE IMMEDIATE AND SELF-TEST SECTION ===\n"
	"Sending command: \"Execute SMART Short self-test routine immediately in off-line mode\".\n"
	"Drive command \"Execute SMART Short self-test routine immediately in off-line mode\" "
	"successful.\nTesting has begun.\nPlease wait 2 minutes for test to complete.\n";

static void members(ww_drive_t *m)
{
	size_t len;
	char *scan = (char *)ww_read_file(fix, "scrutiny/smartctl_scan_megaraid.json", &len);
	ww_smartctl_dev_t *devs = NULL;
	char key[64];

	CHECK(scan && ww_smartctl_scan_parse(scan, len, &devs) == 2);
	CHECK(devs && ww_smartctl_member_drive(&devs[0], &m[0]) == 0);
	CHECK(devs && ww_smartctl_member_drive(&devs[1], &m[1]) == 0);
	CHECK_STR(m[0].smartctl_type, "megaraid,0");
	CHECK_STR(m[1].smartctl_type, "megaraid,1");
	/* one controller: /dev/bus/0 is smartctl's name for SCSI host 0 */
	CHECK(ww_smartctl_controller_key(&m[0], key, sizeof(key)));
	CHECK_STR(key, "host:0");
	CHECK(ww_smartctl_controller_key(&m[1], key, sizeof(key)));
	CHECK_STR(key, "host:0");
	free(devs);
	free(scan);
}

static void test_start(void)
{
	ww_drive_t m[2], native;
	ww_cmd_status_t st;
	const char *why;
	ww_health_t *h = calloc(1, sizeof(*h));
	char key[64];
	size_t len;
	char *text;

	members(m);
	/* a native drive is no smartctl drive: no controller key */
	memset(&native, 0, sizeof(native));
	snprintf(native.dev_path, sizeof(native.dev_path), "/dev/sda");
	CHECK(!ww_smartctl_controller_key(&native, key, sizeof(key)));

	/* the read says what the drive runs and how long, as SMART READ DATA */
	read_json(0, 0, -1);
	text = (char *)ww_read_file(tmpdir, "read.json", &len);
	CHECK(text && ww_smartctl_parse(text, len, h, NULL) == 0);
	free(text);
	CHECK(h->ata.has_smart_caps);
	CHECK_EQ_U64(h->ata.offline_capability, 123);
	CHECK_EQ_U64(h->ata.smart_capability, 3);
	CHECK(h->self_test_now.source && !h->self_test_now.running);
	CHECK_EQ_U64(h->self_test_now.expected_short_s, 2 * 60);
	CHECK_EQ_U64(h->self_test_now.expected_extended_s, 523 * 60);
	CHECK_EQ_U64(h->self_test_now.expected_conveyance_s, 5 * 60);

	/* a short test on member 0: the read, then the start, exactly */
	put("read.es", "4");
	put("start.out", started_text);
	put("start.es", "0");
	runs();
	CHECK_EQ_I64(ww_collect_start_self_test("", &m[0], WW_PROTO_ATA, WW_STK_SHORT, NULL, false,
						&st, &why),
		     0);
	CHECK_STR(why, "started");
	CHECK(st.result == WW_CMD_OK);
	CHECK_STR(runs(),
		  "-j -x -n standby,3 -d megaraid,0 /dev/bus/0\n"
		  "-n standby,3 -t short -d megaraid,0 /dev/bus/0\n");
	/* extended is smartctl's "long", conveyance its own word */
	CHECK_EQ_I64(ww_collect_start_self_test("", &m[1], WW_PROTO_ATA, WW_STK_EXTENDED, NULL,
						false, &st, &why),
		     0);
	CHECK_STR(runs(),
		  "-j -x -n standby,3 -d megaraid,1 /dev/bus/0\n"
		  "-n standby,3 -t long -d megaraid,1 /dev/bus/0\n");
	CHECK_EQ_I64(ww_collect_start_self_test("", &m[1], WW_PROTO_ATA, WW_STK_CONVEYANCE, NULL,
						false, &st, &why),
		     0);
	CHECK_STR(runs(),
		  "-j -x -n standby,3 -d megaraid,1 /dev/bus/0\n"
		  "-n standby,3 -t conveyance -d megaraid,1 /dev/bus/0\n");
	/* no selective span and nothing else off the allow-list: no child */
	CHECK_EQ_I64(ww_collect_start_self_test("", &m[0], WW_PROTO_ATA, WW_STK_SELECTIVE, NULL,
						false, &st, &why),
		     -ENOTSUP);
	CHECK_STR(runs(), "");

	/* in standby (-n standby,3 stopped at it): left alone, no -t */
	put("read.json",
	    "{\"smartctl\":{\"version\":[7,3],\"exit_status\":3,\"messages\":"
	    "[{\"string\":\"Device is in STANDBY mode, exit(3)\"}]}}");
	put("read.es", "3");
	CHECK_EQ_I64(ww_collect_start_self_test("", &m[0], WW_PROTO_ATA, WW_STK_SHORT, NULL, false,
						&st, &why),
		     1);
	CHECK_STR(why, "in standby");
	CHECK_STR(runs(), "-j -x -n standby,3 -d megaraid,0 /dev/bus/0\n");
	/* with self_test_in_standby: the start goes on, waking it (-n never) */
	CHECK_EQ_I64(ww_collect_start_self_test("", &m[0], WW_PROTO_ATA, WW_STK_SHORT, NULL, true,
						&st, &why),
		     0);
	CHECK_STR(runs(),
		  "-j -x -n standby,3 -d megaraid,0 /dev/bus/0\n"
		  "-n never -t short -d megaraid,0 /dev/bus/0\n");
	/* asleep by the start (the -t run's own -n standby,3): still alone */
	read_json(0, 0, -1);
	put("read.es", "4");
	put("start.out", "");
	put("start.es", "3");
	CHECK_EQ_I64(ww_collect_start_self_test("", &m[0], WW_PROTO_ATA, WW_STK_SHORT, NULL, false,
						&st, &why),
		     1);
	CHECK_STR(why, "in standby");
	runs();

	/* a test runs (the administrator's): the read says so, nothing sent */
	read_json(0xf9, 90, -1);
	text = (char *)ww_read_file(tmpdir, "read.json", &len);
	CHECK(text && ww_smartctl_parse(text, len, h, NULL) == 0);
	free(text);
	CHECK(h->self_test_now.running);
	CHECK_EQ_I64(h->self_test_now.remaining_percent, 90);
	CHECK_EQ_U64(h->ata.self_test_exec_status, 0xf9);
	put("start.es", "0");
	CHECK_EQ_I64(ww_collect_start_self_test("", &m[0], WW_PROTO_ATA, WW_STK_SHORT, NULL, false,
						&st, &why),
		     -EBUSY);
	CHECK_STR(why, "a self-test is running");
	CHECK_STR(runs(), "-j -x -n standby,3 -d megaraid,0 /dev/bus/0\n");
	/* one starting between the read and the start: smartctl refuses to
	 * abort it (no -t force), and that is a running test too */
	read_json(0, 0, -1);
	put("start.out",
	    "Can't start self-test without aborting current test (90% remaining),\n"
	    "run 'smartctl -X' to abort test.\n");
	put("start.es", "4");
	CHECK_EQ_I64(ww_collect_start_self_test("", &m[0], WW_PROTO_ATA, WW_STK_SHORT, NULL, false,
						&st, &why),
		     -EBUSY);
	runs();
	/* the start failing otherwise (exit bit 2) */
	put("start.out", "");
	CHECK_EQ_I64(ww_collect_start_self_test("", &m[0], WW_PROTO_ATA, WW_STK_SHORT, NULL, false,
						&st, &why),
		     -EIO);
	CHECK(st.result == WW_CMD_DEVICE_ERROR);
	runs();
	/* byte 367 without bit 5 (7Bh less 20h): no conveyance test, no -t */
	read_json(0, 0, 0x5b);
	CHECK_EQ_I64(ww_collect_start_self_test("", &m[0], WW_PROTO_ATA, WW_STK_CONVEYANCE, NULL,
						false, &st, &why),
		     -ENOTSUP);
	CHECK_STR(runs(), "-j -x -n standby,3 -d megaraid,0 /dev/bus/0\n");
	free(h);
}

/* smartctl 7.4's nvme_self_test_log: an extended test failed at LBA
 * 123456 (result 7, segments failed), then a short one passed, then a test
 * running 30 % of the way */
#define NVME_DOC                                                                                   \
	"{\"smartctl\":{\"version\":[7,4],\"exit_status\":128},"                                   \
	"\"device\":{\"name\":\"/dev/nvme0\",\"type\":\"nvme\",\"protocol\":\"NVMe\"},"            \
	"\"model_name\":\"X\",\"nvme_smart_health_information_log\":{\"temperature\":30},"         \
	"\"nvme_self_test_log\":{\"current_self_test_operation\":{\"value\":%d,"                   \
	"\"string\":\"x\"}%s,\"table\":["                                                          \
	"%s"                                                                                       \
	"{\"self_test_code\":{\"value\":2,\"string\":\"Extended\"},\"self_test_result\":"          \
	"{\"value\":7,\"string\":\"Completed: failed segments\"},\"power_on_hours\":900,"          \
	"\"lba\":123456}]}}"

static void test_nvme_json(void)
{
	const char *passed_short =
		"{\"self_test_code\":{\"value\":1,\"string\":\"Short\"},"
		"\"self_test_result\":{\"value\":0,\"string\":\"Completed without "
		"error\"},\"power_on_hours\":901},";
	const char *passed_long =
		"{\"self_test_code\":{\"value\":2,\"string\":\"Extended\"},"
		"\"self_test_result\":{\"value\":0,\"string\":\"Completed without "
		"error\"},\"power_on_hours\":902},";
	ww_health_t *h = calloc(1, sizeof(*h));
	const ww_selftest_log_t *l = &h->self_tests[WW_SELFTEST_NVME];
	char buf[2048];

	snprintf(buf, sizeof(buf), NVME_DOC, 0, "", "");
	CHECK_EQ_I64(ww_smartctl_parse(buf, strlen(buf), h, NULL), 0);
	CHECK(l->source && l->entries == 1 && l->failed == 1);
	CHECK(l->has_last && l->last_passed == 0 && l->last_kind == WW_STK_EXTENDED);
	CHECK(l->has_open_failure && l->open_has_lba);
	CHECK_EQ_U64(l->open_lba, 123456);
	CHECK_EQ_U64(l->open_hours, 900);
	CHECK(h->self_test_now.source && !h->self_test_now.running);
	/* a passing short test does not clear an extended failure */
	snprintf(buf, sizeof(buf), NVME_DOC, 0, "", passed_short);
	CHECK_EQ_I64(ww_smartctl_parse(buf, strlen(buf), h, NULL), 0);
	CHECK(l->entries == 2 && l->last_passed == 1 && l->has_open_failure);
	/* a passing extended one does */
	snprintf(buf, sizeof(buf), NVME_DOC, 0, "", passed_long);
	CHECK_EQ_I64(ww_smartctl_parse(buf, strlen(buf), h, NULL), 0);
	CHECK(!l->has_open_failure);
	/* running: operation 2h extended, 30 % done */
	snprintf(buf, sizeof(buf), NVME_DOC, 2, ",\"current_self_test_completion_percent\":30", "");
	CHECK_EQ_I64(ww_smartctl_parse(buf, strlen(buf), h, NULL), 0);
	CHECK(h->self_test_now.running && h->self_test_now.kind == WW_STK_EXTENDED);
	CHECK_EQ_I64(h->self_test_now.remaining_percent, 70);
	free(h);
}

/* scsiprint.cpp's scsi_self_test_N: #0 a background extended test
 * (code 2) that failed in its second segment (result 6) at LBA 1000, or a
 * newer background short one in progress (result Fh, hours NOW), or a
 * newer extended one passing */
#define SCSI_DOC                                                                                   \
	"{\"smartctl\":{\"version\":[7,3],\"exit_status\":128},"                                   \
	"\"device\":{\"name\":\"/dev/sdb\",\"type\":\"scsi\",\"protocol\":\"SCSI\"},"              \
	"\"scsi_vendor\":\"X\",\"scsi_model_name\":\"Y\",\"scsi_grown_defect_list\":0,"            \
	"%s"                                                                                       \
	"\"scsi_self_test_%d\":{\"code\":{\"value\":2,\"string\":\"Background long\"},"            \
	"\"result\":{\"value\":6,\"string\":\"Failed in second segment\"},"                        \
	"\"failed_segment\":{\"value\":2,\"aka\":\"self_test_number\"},"                           \
	"\"power_on_time\":{\"hours\":4000,\"aka\":\"accumulated_power_on_hours\"},"               \
	"\"lba_first_failure\":{\"value\":1000,\"aka\":\"address_of_first_failure\"}},"            \
	"\"scsi_extended_self_test_seconds\":6000}"

static void test_scsi_json(void)
{
	const char *running = "\"scsi_self_test_0\":{\"code\":{\"value\":1,\"string\":"
			      "\"Background short\"},\"result\":{\"value\":15,\"string\":"
			      "\"Self test in progress ...\"},\"self_test_in_progress\":true},";
	const char *passed = "\"scsi_self_test_0\":{\"code\":{\"value\":2,\"string\":"
			     "\"Background long\"},\"result\":{\"value\":0,\"string\":"
			     "\"Completed\"},\"power_on_time\":{\"hours\":4010}},";
	ww_health_t *h = calloc(1, sizeof(*h));
	const ww_selftest_log_t *l = &h->self_tests[WW_SELFTEST_SCSI];
	char buf[2048];

	snprintf(buf, sizeof(buf), SCSI_DOC, "", 0);
	CHECK_EQ_I64(ww_smartctl_parse(buf, strlen(buf), h, NULL), 0);
	CHECK(h->protocol == WW_PROTO_SCSI);
	CHECK(l->source && l->entries == 1 && l->failed == 1);
	CHECK(l->has_open_failure && l->open_kind == WW_STK_EXTENDED && l->open_status == 6);
	CHECK(l->open_has_lba);
	CHECK_EQ_U64(l->open_lba, 1000);
	CHECK_EQ_U64(l->open_hours, 4000);
	CHECK(h->self_test_now.source && !h->self_test_now.running);
	CHECK_EQ_U64(h->self_test_now.expected_extended_s, 6000);
	snprintf(buf, sizeof(buf), SCSI_DOC, running, 1);
	CHECK_EQ_I64(ww_smartctl_parse(buf, strlen(buf), h, NULL), 0);
	CHECK(h->self_test_now.running && h->self_test_now.kind == WW_STK_SHORT);
	CHECK(l->entries == 2 && l->has_open_failure);
	snprintf(buf, sizeof(buf), SCSI_DOC, passed, 1);
	CHECK_EQ_I64(ww_smartctl_parse(buf, strlen(buf), h, NULL), 0);
	CHECK(!h->self_test_now.running && !l->has_open_failure && l->last_passed == 1);
	free(h);
}

int main(void)
{
	char cmd[128];

	fix = ww_fixtures_dir();
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	fake();
	test_start();
	test_nvme_json();
	test_scsi_json();
	ww_smartctl_set_program(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return ww_test_done("test_collect_smartctl_selftest");
}
