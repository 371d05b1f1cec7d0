/* Prometheus exposition of a snapshot: exact lines for records decoded from
 * the in-repo NVMe SMART log and ATA Device Statistics fixtures
 * (tests/fixtures/, values and their sources documented there), 128-bit
 * counters printed exactly, label escaping, omission of absent values, and
 * `promtool check metrics` on the whole output when promtool is installed.
 * The ATA attribute table is built by hand: no SMART READ DATA sector is in
 * tests/fixtures (the real ones in ../shared/fixtures are optional). */
#include <sys/wait.h>
#include <unistd.h>

#include "ww_test.h"
#include "wearwatch/decode.h"
#include "wearwatch/expo.h"
#include "wearwatch/store.h"

static const char *src_dir(void)
{
	const char *d = getenv("WW_SOURCE_DIR");

	return d ? d : ".";
}

/* a tests/fixtures hex file -> bytes */
static size_t load_hex(const char *rel, uint8_t *out, size_t max)
{
	char p[1024];

	snprintf(p, sizeof(p), "%s/tests/fixtures/%s", src_dir(), rel);
	return ww_load_hex(p, out, max);
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p += n)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

#define CHECK_LINE(text, line)                                                  \
	do {                                                                    \
		if (has_line(text, line)) {                                     \
			ww_t_pass++;                                            \
		} else {                                                        \
			ww_t_fail++;                                            \
			fprintf(stderr, "%s:%d: missing line: %s\n", __FILE__, __LINE__, line); \
		}                                                               \
	} while (0)

#define CHECK_NO(text, needle)                                                  \
	do {                                                                    \
		if (!strstr(text, needle)) {                                    \
			ww_t_pass++;                                            \
		} else {                                                        \
			ww_t_fail++;                                            \
			fprintf(stderr, "%s:%d: unexpected: %s\n", __FILE__, __LINE__, needle); \
		}                                                               \
	} while (0)

static ww_drive_t mk_drive(const char *id, const char *block, ww_protocol_t p, ww_transport_t t)
{
	ww_drive_t d;

	memset(&d, 0, sizeof(d));
	snprintf(d.id, sizeof(d.id), "%s", id);
	snprintf(d.block, sizeof(d.block), "%s", block);
	snprintf(d.dev_path, sizeof(d.dev_path), "/dev/%s", block);
	d.protocol = p;
	d.transport = t;
	return d;
}

static bool nvme_record(const char *fixture, ww_health_t *h)
{
	uint8_t log[600];
	size_t n = load_hex(fixture, log, sizeof(log));

	memset(h, 0, sizeof(*h));
	CHECK_EQ_U64(n, 512);
	if (n != 512)
		return false;
	CHECK_EQ_I64(ww_decode_nvme_smart_log(log, n, h), 0);
	return true;
}

static void ata_record(ww_health_t *h)
{
	static const char *const pages[] = {
		"ata/samsung-860evo-devstat-p0.hex", "ata/samsung-860evo-devstat-p1.hex",
		"ata/samsung-860evo-devstat-p5.hex", "ata/samsung-860evo-devstat-p7.hex",
	};
	uint8_t pg[600];

	memset(h, 0, sizeof(*h));
	h->protocol = WW_PROTO_ATA;
	WW_SET(h->logical_block_bytes, 512, "test: IDENTIFY words 106/117-118");
	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		size_t n = load_hex(pages[i], pg, sizeof(pg));

		CHECK_EQ_U64(n, 512);
		CHECK_EQ_I64(ww_decode_ata_devstat(pg, n, h), 0);
	}
	/* hand-built attribute table (see the comment at the top) */
	static const struct { uint8_t id, value, worst, thr; uint64_t raw; } a[] = {
		{ 5, 100, 100, 10, 8 },
		{ 9, 97, 97, 0, 14551 },
		{ 197, 100, 100, 0, 2 },
		{ 199, 99, 99, 0, 0x123456789abcull },
	};
	for (size_t i = 0; i < 4; i++) {
		ww_ata_attr_t *at = &h->ata.attrs[h->ata.n_attrs++];

		at->id = a[i].id;
		at->value = a[i].value;
		at->worst = a[i].worst;
		at->threshold = a[i].thr;
		at->has_threshold = a[i].id != 199; /* 199 without threshold */
		at->raw = a[i].raw;
		at->name = ww_ata_attr_name(a[i].id);
	}
	ww_ata_finish(h);
	h->smart_status = WW_SMART_UNKNOWN; /* omitted from the output */
	snprintf(h->model, sizeof(h->model), "Quote\" Back\\slash\nNewline");
	snprintf(h->serial, sizeof(h->serial), "S3Z9NB0K123456");
}

static char *render(ww_store_t *s)
{
	ww_snapshot_t *snap = ww_store_acquire(s);
	size_t len = 0;
	char *txt = ww_metrics_render(&(ww_render_ctx_t){ .snap = snap, .now = 1700000100 }, &len);

	ww_snapshot_release(snap);
	CHECK(txt != NULL);
	CHECK_EQ_U64(txt ? strlen(txt) : 0, len);
	return txt;
}

/* the same in the fleet profile (docs/metrics.md, Profiles) */
static char *render_fleet(ww_store_t *s)
{
	ww_snapshot_t *snap = ww_store_acquire(s);
	size_t len = 0;
	char *txt = ww_metrics_render(
		&(ww_render_ctx_t){ .snap = snap, .now = 1700000100, .fleet_profile = true }, &len);

	ww_snapshot_release(snap);
	CHECK(txt != NULL);
	return txt;
}

/* series of a render */
static size_t n_series(const char *txt)
{
	size_t n = 0;

	for (const char *p = txt; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += *p && *p != '#' && *p != '\n';
	return n;
}

static void promtool_check(const char *txt)
{
	char path[] = "/tmp/ww_metrics_XXXXXX";
	char cmd[256];
	int fd, st;

	if (access("/usr/bin/promtool", X_OK) != 0) {
		printf("SKIP (promtool check only): /usr/bin/promtool not installed\n");
		return;
	}
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ_U64(write(fd, txt, strlen(txt)), strlen(txt));
	close(fd);
	snprintf(cmd, sizeof(cmd), "/usr/bin/promtool check metrics < %s", path);
	st = system(cmd);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	unlink(path);
}

/* SAS phy counters of log page 0x18: the spec-constructed page with the
 * Toshiba AL15SEB060N's figures (tests/fixtures/scsi/log_18_sas_port.hex,
 * values as its smartctl -l sasphy / sg_logs --inhex print them: port A phy 0
 * invalid dwords 16, running disparity 16, loss of dword sync 4, phy reset
 * problems 0; port B phy 1 all 0) as /metrics writes them. */
static void test_sas_phy(void)
{
	ww_store_t *s = ww_store_new(0);
	ww_drive_t d = mk_drive("wwn-0x5000039b48736e9c", "sdc", WW_PROTO_SCSI,
				WW_TRANSPORT_SAS);
	ww_health_t *h = calloc(1, sizeof(*h));
	uint8_t page[512];
	size_t n = load_hex("scsi/log_18_sas_port.hex", page, sizeof(page));
	char *txt;

	CHECK(h && n > 0);
	if (!h || !n)
		goto out;
	h->protocol = WW_PROTO_SCSI;
	CHECK_EQ_I64(ww_decode_scsi_log_page(page, n, h), 0);
	ww_store_sync(s, &d, 1, 1700000000);
	ww_store_update(s, d.id, 0, h, NULL, 0.1, 1700000010);
	txt = render(s);
	if (!txt)
		goto out;
	CHECK_LINE(txt, "# TYPE wearwatch_drive_sas_phy_invalid_dwords_total counter");
	CHECK_LINE(txt, "wearwatch_drive_sas_phy_invalid_dwords_total{drive=\"wwn-0x5000039b48736e9c\",port=\"1\",phy=\"0\"} 16");
	CHECK_LINE(txt, "wearwatch_drive_sas_phy_running_disparity_errors_total{drive=\"wwn-0x5000039b48736e9c\",port=\"1\",phy=\"0\"} 16");
	CHECK_LINE(txt, "wearwatch_drive_sas_phy_loss_of_dword_sync_total{drive=\"wwn-0x5000039b48736e9c\",port=\"1\",phy=\"0\"} 4");
	CHECK_LINE(txt, "wearwatch_drive_sas_phy_reset_problems_total{drive=\"wwn-0x5000039b48736e9c\",port=\"1\",phy=\"0\"} 0");
	CHECK_LINE(txt, "wearwatch_drive_sas_phy_invalid_dwords_total{drive=\"wwn-0x5000039b48736e9c\",port=\"2\",phy=\"1\"} 0");
	CHECK_LINE(txt, "wearwatch_drive_sas_phy_reset_problems_total{drive=\"wwn-0x5000039b48736e9c\",port=\"2\",phy=\"1\"} 0");
	promtool_check(txt);
	free(txt);
out:
	free(h);
	ww_store_free(s);
}

int main(void)
{
	ww_store_t *s = ww_store_new(0);
	ww_drive_t d[4] = {
		mk_drive("nvme-eui.netdata", "nvme0n1", WW_PROTO_NVME, WW_TRANSPORT_NVME),
		mk_drive("nvme-edge", "nvme1n1", WW_PROTO_NVME, WW_TRANSPORT_NVME),
		mk_drive("ata-Samsung_860", "sda", WW_PROTO_ATA, WW_TRANSPORT_SATA),
		mk_drive("wwn-gone", "sdb", WW_PROTO_SCSI, WW_TRANSPORT_SAS),
	};
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_read_report_t r;
	char *txt;

	memset(&r, 0, sizeof(r));
	r.n_unsupported = 2;
	snprintf(d[0].slot, sizeof(d[0].slot), "pci-0000:01:00.0-nvme-1");
	ww_store_sync(s, d, 4, 1700000000);

	if (nvme_record("nvme/netdata-nvme-cli-2.11.hex", h))
		ww_store_update(s, d[0].id, 0, h, &r, 0.125, 1700000010);
	if (nvme_record("nvme/edge-above-2e64.hex", h))
		ww_store_update(s, d[1].id, 0, h, NULL, 0.5, 1700000011);
	ata_record(h);
	ww_store_update(s, d[2].id, 0, h, NULL, 1.5, 1700000012);
	/* wwn-gone: read once, then it disappears: only identity/state remain */
	memset(h, 0, sizeof(*h));
	h->protocol = WW_PROTO_SCSI;
	WW_SET(h->temperature_celsius, 33, "test");
	ww_store_update(s, d[3].id, 0, h, NULL, 0.2, 1700000013);
	ww_store_sync(s, d, 3, 1700000050);

	txt = render(s);
	if (!txt)
		return ww_test_done("test_expo_metrics");

	/* NVMe from the netdata fixture: values stated in tests/fixtures/nvme */
	CHECK_LINE(txt, "# TYPE wearwatch_drive_host_written_bytes_total counter");
	CHECK_LINE(txt, "wearwatch_drive_info{drive=\"nvme-eui.netdata\",device=\"nvme0n1\",model=\"\",serial=\"\",firmware=\"\",wwn=\"\",transport=\"nvme\",protocol=\"nvme\",slot=\"pci-0000:01:00.0-nvme-1\"} 1");
	CHECK_LINE(txt, "wearwatch_drive_host_written_bytes_total{drive=\"nvme-eui.netdata\",source=\"nvme_data_units\"} 987485941760000");
	CHECK_LINE(txt, "wearwatch_drive_host_read_bytes_total{drive=\"nvme-eui.netdata\",source=\"nvme_data_units\"} 91155062272000");
	CHECK_LINE(txt, "wearwatch_drive_temperature_celsius{drive=\"nvme-eui.netdata\"} 51");
	CHECK_LINE(txt, "wearwatch_drive_power_on_seconds_total{drive=\"nvme-eui.netdata\"} 87926400");
	CHECK_LINE(txt, "wearwatch_drive_power_cycles_total{drive=\"nvme-eui.netdata\"} 99");
	CHECK_LINE(txt, "wearwatch_drive_unsafe_shutdowns_total{drive=\"nvme-eui.netdata\"} 49");
	CHECK_LINE(txt, "wearwatch_drive_media_errors_total{drive=\"nvme-eui.netdata\"} 0");
	CHECK_LINE(txt, "wearwatch_drive_endurance_used_ratio{drive=\"nvme-eui.netdata\",source=\"nvme_percentage_used\"} 0.3");
	CHECK_LINE(txt, "wearwatch_drive_available_spare_ratio{drive=\"nvme-eui.netdata\"} 1");
	CHECK_LINE(txt, "wearwatch_drive_available_spare_threshold_ratio{drive=\"nvme-eui.netdata\"} 0.05");
	CHECK_LINE(txt, "wearwatch_drive_critical_warning{drive=\"nvme-eui.netdata\",bit=\"available_spare\"} 0");
	CHECK_LINE(txt, "wearwatch_drive_critical_warning{drive=\"nvme-eui.netdata\",bit=\"persistent_memory_region\"} 0");
	CHECK_LINE(txt, "wearwatch_drive_smart_healthy{drive=\"nvme-eui.netdata\"} 1");
	CHECK_LINE(txt, "wearwatch_drive_nvme_controller_busy_seconds_total{drive=\"nvme-eui.netdata\"} 4172940");
	CHECK_LINE(txt, "wearwatch_drive_nvme_host_read_commands_total{drive=\"nvme-eui.netdata\"} 5808178366");
	CHECK_LINE(txt, "wearwatch_drive_nvme_host_write_commands_total{drive=\"nvme-eui.netdata\"} 24273507789");
	CHECK_LINE(txt, "wearwatch_drive_nvme_error_log_entries_total{drive=\"nvme-eui.netdata\"} 212");
	CHECK_LINE(txt, "wearwatch_drive_nvme_thermal_management_transitions_total{drive=\"nvme-eui.netdata\",limit=\"1\"} 3");
	CHECK_LINE(txt, "wearwatch_drive_nvme_thermal_management_seconds_total{drive=\"nvme-eui.netdata\",limit=\"1\"} 1474");
	CHECK_LINE(txt, "wearwatch_drive_collect_success{drive=\"nvme-eui.netdata\"} 1");
	CHECK_LINE(txt, "wearwatch_drive_collect_duration_seconds{drive=\"nvme-eui.netdata\"} 0.125000");
	CHECK_LINE(txt, "wearwatch_drive_last_collect_timestamp_seconds{drive=\"nvme-eui.netdata\"} 1700000010");
	CHECK_LINE(txt, "wearwatch_drive_unsupported_commands{drive=\"nvme-eui.netdata\"} 2");
	/* sensors 1-8 all report 0 K in this log: omitted; no WCTEMP without Identify */
	CHECK_NO(txt, "wearwatch_drive_nvme_temperature_sensor_celsius{drive=\"nvme-eui.netdata\"");
	CHECK_NO(txt, "wearwatch_drive_temperature_limit_celsius{drive=\"nvme-eui.netdata\"");

	/* edge fixture: counters above 2^64 printed exactly, saturation visible */
	CHECK_LINE(txt, "wearwatch_drive_nvme_data_units_written_total{drive=\"nvme-edge\"} 18446744073709563961");
	CHECK_LINE(txt, "wearwatch_drive_host_written_bytes_total{drive=\"nvme-edge\",source=\"nvme_data_units\"} 18446744073709551615");
	CHECK_LINE(txt, "wearwatch_drive_power_cycles_total{drive=\"nvme-edge\"} 18446744073709551615");
	CHECK_LINE(txt, "wearwatch_drive_endurance_used_ratio{drive=\"nvme-edge\",source=\"nvme_percentage_used\"} 1.01");
	CHECK_LINE(txt, "wearwatch_drive_critical_warning{drive=\"nvme-edge\",bit=\"volatile_memory_backup_failed\"} 1");
	CHECK_LINE(txt, "wearwatch_drive_critical_warning{drive=\"nvme-edge\",bit=\"read_only\"} 0");
	CHECK_LINE(txt, "wearwatch_drive_smart_healthy{drive=\"nvme-edge\"} 0");
	/* its sensor 8 reads 65535 K: no 65262 degrees C exported */
	CHECK_NO(txt, "wearwatch_drive_nvme_temperature_sensor_celsius{drive=\"nvme-edge\"");
	CHECK_LINE(txt, "wearwatch_drive_implausible_values{drive=\"nvme-edge\"} 1");
	CHECK_LINE(txt, "wearwatch_drive_nvme_thermal_management_transitions_total{drive=\"nvme-edge\",limit=\"1\"} 4294967295");
	CHECK_NO(txt, "wearwatch_drive_temperature_celsius{drive=\"nvme-edge\"}"); /* 0 K */

	/* ATA: Device Statistics decoded from fixtures, escaped model label */
	CHECK_LINE(txt, "wearwatch_drive_info{drive=\"ata-Samsung_860\",device=\"sda\",model=\"Quote\\\" Back\\\\slash\\nNewline\",serial=\"S3Z9NB0K123456\",firmware=\"\",wwn=\"\",transport=\"sata\",protocol=\"ata\",slot=\"\"} 1");
	CHECK_LINE(txt, "wearwatch_drive_host_written_bytes_total{drive=\"ata-Samsung_860\",source=\"ata_devstat\"} 33166218315776");
	CHECK_LINE(txt, "wearwatch_drive_host_read_bytes_total{drive=\"ata-Samsung_860\",source=\"ata_devstat\"} 17873686704128");
	CHECK_LINE(txt, "wearwatch_drive_endurance_used_ratio{drive=\"ata-Samsung_860\",source=\"ata_devstat\"} 0.19");
	CHECK_LINE(txt, "wearwatch_drive_temperature_celsius{drive=\"ata-Samsung_860\"} 36");
	CHECK_LINE(txt, "wearwatch_drive_power_on_seconds_total{drive=\"ata-Samsung_860\"} 52383600");
	CHECK_LINE(txt, "wearwatch_drive_ata_attribute{drive=\"ata-Samsung_860\",id=\"5\",name=\"Reallocated_Sector_Ct\",flags=\"------\",kind=\"value\"} 100");
	CHECK_LINE(txt, "wearwatch_drive_ata_attribute{drive=\"ata-Samsung_860\",id=\"5\",name=\"Reallocated_Sector_Ct\",flags=\"------\",kind=\"threshold\"} 10");
	CHECK_LINE(txt, "wearwatch_drive_ata_attribute{drive=\"ata-Samsung_860\",id=\"199\",name=\"UDMA_CRC_Error_Count\",flags=\"------\",kind=\"raw\"} 20015998343868");
	/* raw16(raw16) (the default for 5): word 0 is the count */
	CHECK_LINE(txt, "wearwatch_drive_ata_attribute_raw_decoded{drive=\"ata-Samsung_860\",id=\"5\",name=\"Reallocated_Sector_Ct\"} 8");
	CHECK_NO(txt, "id=\"199\",name=\"UDMA_CRC_Error_Count\",flags=\"------\",kind=\"threshold\"");
	CHECK_LINE(txt, "wearwatch_drive_ata_reallocated_sectors_total{drive=\"ata-Samsung_860\"} 8");
	CHECK_LINE(txt, "wearwatch_drive_ata_current_pending_sectors{drive=\"ata-Samsung_860\"} 2");
	/* the verdict's numbers beside its reasons: the counts above, the
	 * warning level each reached (docs/health.md, Levels) */
	CHECK_LINE(
		txt,
		"wearwatch_drive_health_reason{drive=\"ata-Samsung_860\",reason=\"pending_sectors\",severity=\"warning\"} 1");
	CHECK_LINE(
		txt,
		"wearwatch_drive_health_reason_value{drive=\"ata-Samsung_860\",reason=\"pending_sectors\",kind=\"value\",unit=\"sectors\"} 2");
	CHECK_LINE(
		txt,
		"wearwatch_drive_health_reason_value{drive=\"ata-Samsung_860\",reason=\"pending_sectors\",kind=\"limit\",unit=\"sectors\"} 1");
	CHECK_LINE(
		txt,
		"wearwatch_drive_health_reason_value{drive=\"ata-Samsung_860\",reason=\"reallocated_sectors\",kind=\"value\",unit=\"sectors\"} 8");
	CHECK_NO(txt, "reason=\"pending_sectors\",kind=\"previous\"");
	CHECK_LINE(txt, "wearwatch_drive_ata_udma_crc_errors_total{drive=\"ata-Samsung_860\"} 20015998343868");
	CHECK_NO(txt, "wearwatch_drive_ata_reported_uncorrectable_errors_total{"); /* no 187 */
	CHECK_NO(txt, "wearwatch_drive_smart_healthy{drive=\"ata-Samsung_860\"}"); /* unknown */
	CHECK_NO(txt, "wearwatch_drive_critical_warning{drive=\"ata-Samsung_860\"");

	/* missing drive: identity and state only, no stale values */
	CHECK_LINE(txt, "wearwatch_drive_present{drive=\"wwn-gone\"} 0");
	CHECK_LINE(txt, "wearwatch_drive_present{drive=\"nvme-edge\"} 1");
	CHECK_NO(txt, "wearwatch_drive_temperature_celsius{drive=\"wwn-gone\"}");
	CHECK_LINE(txt, "wearwatch_drive_collections_total{drive=\"wwn-gone\"} 1");

	CHECK_LINE(txt, "wearwatch_build_info{version=\"0.1.0\"} 1");
	/* never NaN, every family declared once */
	CHECK_NO(txt, "NaN");
	{
		const char *p = strstr(txt, "# TYPE wearwatch_drive_info gauge");
		CHECK(p && !strstr(p + 1, "# TYPE wearwatch_drive_info gauge"));
	}
	promtool_check(txt);
	{
		/* the fleet profile: no worst or threshold, raw_decoded only
		 * where it differs from raw (attribute 5's raw48 is its count,
		 * 8: left out), the rest as in the full profile */
		char *lean = render_fleet(s);

		CHECK_NO(lean, "kind=\"worst\"");
		CHECK_NO(lean, "kind=\"threshold\"");
		CHECK_LINE(
			lean,
			"wearwatch_drive_ata_attribute{drive=\"ata-Samsung_860\",id=\"5\",name=\"Reallocated_Sector_Ct\",flags=\"------\",kind=\"value\"} 100");
		CHECK_LINE(
			lean,
			"wearwatch_drive_ata_attribute{drive=\"ata-Samsung_860\",id=\"5\",name=\"Reallocated_Sector_Ct\",flags=\"------\",kind=\"raw\"} 8");
		CHECK_NO(
			lean,
			"wearwatch_drive_ata_attribute_raw_decoded{drive=\"ata-Samsung_860\",id=\"5\",");
		CHECK_LINE(lean,
			   "wearwatch_drive_temperature_celsius{drive=\"nvme-eui.netdata\"} 51");
		CHECK_LINE(
			lean,
			"wearwatch_drive_health_reason_value{drive=\"ata-Samsung_860\",reason=\"pending_sectors\",kind=\"value\",unit=\"sectors\"} 2");
		for (const char *p = strstr(lean, "\nwearwatch_drive_ata_attribute_raw_decoded{");
		     p; p = strstr(p + 1, "\nwearwatch_drive_ata_attribute_raw_decoded{")) {
			char id[16] = "", raw[200], *q;
			unsigned long long dec = 0;

			if (sscanf(p,
				   "\nwearwatch_drive_ata_attribute_raw_decoded{drive=\"ata-Samsung_860\",id=\"%15[0-9]\"",
				   id) != 1)
				continue;
			q = strchr(p + 1, '}');
			dec = q ? strtoull(q + 2, NULL, 10) : 0;
			snprintf(raw, sizeof(raw), "id=\"%s\",", id);
			q = strstr(lean, raw);
			while (q && !strstr(q, "kind=\"raw\"}"))
				q = strstr(q + 1, raw);
			q = q ? strstr(q, "kind=\"raw\"} ") : NULL;
			CHECK(q && strtoull(q + 11, NULL, 10) != dec);
		}
		CHECK(n_series(lean) < n_series(txt));
		promtool_check(lean);
		free(lean);
	}
	free(txt);

	/* empty snapshot: only build info, still valid */
	{
		ww_store_t *e = ww_store_new(0);

		txt = render(e);
		CHECK(txt && !strstr(txt, "wearwatch_drive_"));
		CHECK(txt && has_line(txt, "wearwatch_build_info{version=\"0.1.0\"} 1"));
		if (txt)
			promtool_check(txt);
		free(txt);
		ww_store_free(e);
	}
	free(h);
	ww_store_free(s);
	test_sas_phy();
	return ww_test_done("test_expo_metrics");
}
