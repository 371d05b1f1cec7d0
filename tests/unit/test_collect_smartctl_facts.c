/* What the smartctl backend takes from public smartctl JSON files
 * (../shared/fixtures, SOURCES.md), and how the readers' new facts are shown:
 *  - exit status: scrutiny/smart-fail2.json (exit_status 216 = bits 3, 4, 6,
 *    7) is a reading, the status kept; the same document with exit_status 7
 *    (bits 0-2: command line, open failed, command failed) is not (-EIO, and
 *    `wearwatch decode` exits 3 saying why); 4 (bit 2 alone,
 *    scrutiny/smart-megaraid0.json) is a reading, partial;
 *  - names: smartctl_exporter/sat-HGST_Ultrastar_He10-HGST_HUH721008ALE604-
 *    sde.json attribute 22 is "Helium_Level" as smartctl printed it, not our
 *    default "Unknown_Attribute";
 *  - absent fields: smartctl_exporter/nvme-null-CT250P2SSD8-nvme0.json has no
 *    thermal management counters and no endurance group warning: the text,
 *    JSON and /metrics outputs leave them out instead of printing 0;
 *  - the checksum line: a JSON document carries no SMART data checksum, so
 *    `decode` says nothing of one.
 * `wearwatch` is the binary built next to this test. */
#include <sys/wait.h>
#include <unistd.h>

#include "ww_test.h"
#include "wearwatch/collect.h"
#include "wearwatch/decode.h"
#include "wearwatch/expo.h"

static const char *fx;

static char *load(const char *rel, size_t *len)
{
	return (char *)ww_read_file(fx, rel, len);
}

static void test_exit_status(void)
{
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_smartctl_info_t info;
	size_t len;
	char *j = load("scrutiny/smart-fail2.json", &len), *p;

	if (!j || !h)
		goto out;
	CHECK_EQ_I64(ww_smartctl_parse(j, len, h, &info), 0);
	CHECK(h->has_smartctl_exit && h->smartctl_exit == 216);
	CHECK_EQ_I64(ww_smartctl_read_class(216, false), WW_SMARTCTL_READ_OK);
	/* the same document had smartctl failed to open the drive */
	p = strstr(j, "\"exit_status\": 216");
	CHECK(p != NULL);
	if (p) {
		memcpy(p, "\"exit_status\":   7", 18);
		CHECK_EQ_I64(ww_smartctl_parse(j, len, h, &info), -EIO);
		CHECK_EQ_I64(info.exit_status, 7);
		memcpy(p, "\"exit_status\":   4", 18);
		CHECK_EQ_I64(ww_smartctl_parse(j, len, h, &info), 0);
		CHECK_EQ_I64(ww_smartctl_read_class(4, false), WW_SMARTCTL_READ_PARTIAL);
		/* bit 3 without smart_status: the verdict is FAILED */
		memcpy(p, "\"exit_status\":   8", 18);
		p = strstr(j, "\"smart_status\"");
		CHECK(p != NULL);
		if (p)
			memcpy(p, "\"smart_xtatus\"", 14);
		CHECK_EQ_I64(ww_smartctl_parse(j, len, h, &info), 0);
		CHECK(h->smart_status == WW_SMART_FAILED);
		CHECK(strstr(h->smart_status_source, "bit 3") != NULL);
	}
	CHECK_EQ_I64(ww_smartctl_read_class(3, true), WW_SMARTCTL_READ_OK); /* standby */
	CHECK_EQ_I64(ww_smartctl_read_class(2, false), WW_SMARTCTL_READ_FAILED);
out:
	free(j);
	free(h);
}

static void test_names(void)
{
	ww_health_t *h = calloc(1, sizeof(*h));
	const ww_ata_attr_t *a;
	size_t len;
	char *j = load("smartctl_exporter/sat-HGST_Ultrastar_He10-HGST_HUH721008ALE604-sde.json",
		       &len);

	if (!j || !h)
		goto out;
	CHECK_EQ_I64(ww_smartctl_parse(j, len, h, NULL), 0);
	a = ww_ata_find_attr(h, 22);
	CHECK_STR(a ? a->name : NULL, "Helium_Level");
	CHECK(a && a->name_from_source);
out:
	free(j);
	free(h);
}

static void test_absent_nvme(void)
{
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_drive_t d = { 0 };
	ww_read_report_t r = { 0 };
	char *js, *txt = NULL;
	size_t len, tl = 0;
	char *j = load("smartctl_exporter/nvme-null-CT250P2SSD8-nvme0.json", &len);
	FILE *f;

	if (!j || !h)
		goto out;
	CHECK_EQ_I64(ww_smartctl_parse(j, len, h, NULL), 0);
	CHECK(!ww_nvme_smart_present(&h->nvme_smart,
				     offsetof(ww_nvme_smart_t, thermal_mgmt_temp1_transitions)));
	CHECK(ww_nvme_smart_present(&h->nvme_smart, offsetof(ww_nvme_smart_t, power_cycles)));
	snprintf(d.id, sizeof(d.id), "nvme-test");
	js = ww_json_render_health(&d, h, &r, NULL, NULL);
	CHECK(js && !strstr(js, "thermal_mgmt") && strstr(js, "\"power_cycles\":8"));
	CHECK(js && !strstr(js, "endurance_group_critical_warning"));
	free(js);
	f = open_memstream(&txt, &tl);
	ww_text_render_health(f, &d, h, &r, NULL, NULL);
	fclose(f);
	CHECK(txt && !strstr(txt, "thermal mgmt") && strstr(txt, "power cycles"));
	CHECK(txt && !strstr(txt, "rotational")); /* no sysfs read for a file */
	free(txt);
out:
	free(j);
	free(h);
}

/* `wearwatch decode FILE` (stdout and stderr) into out; its exit status */
static int decode(const char *file, char *out, size_t max)
{
	const char *bin = getenv("WW_BINARY") ? getenv("WW_BINARY") : "./wearwatch";
	char cmd[8800];
	size_t n;
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd), "'%s' decode '%s' 2>&1", bin, file);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, max - 1, p);
	out[n] = 0;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* `wearwatch decode` of the documents: no checksum talk, a failed read says why */
static void test_decode_cli(void)
{
	static char out[65536], path[4200], tmp[] = "/tmp/ww-smartctl-XXXXXX";
	size_t len;
	char *j, *p;
	int fd;

	snprintf(path, sizeof(path), "%s/scrutiny/smart-ata-full.json", fx);
	CHECK_EQ_I64(decode(path, out, sizeof(out)), 0);
	CHECK(strstr(out, "SMART Attributes Data Structure\n") != NULL);
	CHECK(strstr(out, "checksum") == NULL);
	/* exit_status 7: no reading, exit 3, the bits named */
	j = load("scrutiny/smart-fail2.json", &len);
	p = j ? strstr(j, "\"exit_status\": 216") : NULL;
	fd = mkstemp(tmp);
	CHECK(p != NULL && fd >= 0);
	if (p && fd >= 0) {
		memcpy(p, "\"exit_status\":   7", 18);
		CHECK(write(fd, j, len) == (ssize_t)len);
		CHECK_EQ_I64(decode(tmp, out, sizeof(out)), 3);
		CHECK(strstr(out, "device open failed") && strstr(out, "the read failed"));
		CHECK(strstr(out, "PASSED") == NULL);
	}
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	free(j);
}

int main(void)
{
	fx = ww_fixtures_dir();
	test_exit_status();
	test_names();
	test_absent_nvme();
	test_decode_cli();
	return ww_test_done("test_collect_smartctl_facts");
}
