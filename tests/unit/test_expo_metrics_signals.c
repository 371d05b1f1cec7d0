/* The log, link and drive-kind families (src/expo/metrics_signals.c), the
 * SCSI temperature pages and the wwn label, rendered for the VM captures
 * (tests/fixtures/captures, replayed through the real readers). Expected
 * values are what the tools printed for the same drives in the same guest
 * (tests/fixtures/vm: smartctl 7.3, sg_logs, sysfs):
 *  - scsi_debug: smartctl 7.3 "Current temperature = 40" (environmental
 *    subpage), sg_logs page 0x0D 38 (log-0d.txt), rotation_rate 0 (= 1 here),
 *    READ DEFECT DATA answered INVALID OPCODE: no grown defect series;
 *  - QEMU AHCI disk: smartctl -x ata_smart_error_log.summary.count 0,
 *    ata_smart_self_test_log.standard.count 0; no WWN (its sysfs wwid is the
 *    t10 string): wwn="";
 *  - QEMU NVMe: PCIe 2.5 GT/s x1 (the guest's sysfs, recorded as a capture
 *    fact), Error Information log with no used entry (nvme-cli error-log). */
#include "ww_test.h"
#include "ww_fleet.h"
#include "wearwatch/expo.h"

/* the rendering holds the sample fmt (with the drive id) formats */
#define LINE(txt, fmt, ...)                                                    \
	do {                                                                   \
		char w_[512];                                                  \
		snprintf(w_, sizeof(w_), fmt, __VA_ARGS__);                    \
		CHECK((txt) && strstr((txt), w_));                             \
		if ((txt) && !strstr((txt), w_))                               \
			fprintf(stderr, "missing: %s\n", w_);                  \
	} while (0)

static char *render(const char *kind, char *id, size_t idlen)
{
	const char *kinds[] = { kind, NULL };
	ww_fleet_opts_t o = { .kinds = kinds, .n = 1 };
	ww_store_t *s = ww_store_new(0);
	ww_snapshot_t *snap;
	char *txt = NULL;
	size_t len;

	o.src_dir = getenv("WW_SOURCE_DIR") ? getenv("WW_SOURCE_DIR") : ".";
	if (s && ww_fleet_build(s, &o) == 0) {
		snap = ww_store_acquire(s);
		snprintf(id, idlen, "%s", snap->n ? snap->drives[0]->drive->id : "");
		txt = ww_metrics_render(&(ww_render_ctx_t){ .snap = snap, .now = WW_FLEET_T0 + 60 },
					&len);
		ww_snapshot_release(snap);
	}
	CHECK(txt != NULL);
	ww_store_free(s);
	return txt;
}

int main(void)
{
	char id[256];
	char *t = render("sas", id, sizeof(id));

	LINE(t, "wearwatch_drive_temperature_celsius{drive=\"%s\"} 40\n", id);
	LINE(t, "wearwatch_drive_scsi_temperature_celsius{drive=\"%s\",page=\"0x0d\"} 38\n", id);
	LINE(t, "wearwatch_drive_scsi_temperature_celsius{drive=\"%s\",page=\"0x0d/0x01\"} 40\n",
	     id);
	LINE(t, "wearwatch_drive_rotation_rate_rpm{drive=\"%s\"} 1\n", id);
	LINE(t, "wearwatch_drive_info{drive=\"%s\",device=\"sdb\"", id);
	CHECK(t && !strstr(t, "wearwatch_drive_scsi_grown_defects{"));
	CHECK(t && strstr(t, "transport=\"sas\""));
	free(t);

	t = render("sata", id, sizeof(id));
	LINE(t, "wearwatch_drive_error_log_errors_total{drive=\"%s\",log=\"summary\"} 0\n", id);
	LINE(t, "wearwatch_drive_self_tests{drive=\"%s\",log=\"standard\"} 0\n", id);
	LINE(t, "wearwatch_drive_self_test_failures{drive=\"%s\",log=\"standard\"} 0\n", id);
	CHECK(t && strstr(t, "wwn=\"\""));
	CHECK(t && !strstr(t, "wwn=\"t10."));
	free(t);

	t = render("nvme", id, sizeof(id));
	LINE(t, "wearwatch_drive_pcie_link_transfers_per_second{drive=\"%s\",kind=\"current\"} 2500000000\n",
	     id);
	LINE(t, "wearwatch_drive_pcie_link_width{drive=\"%s\",kind=\"max\"} 1\n", id);
	LINE(t, "wearwatch_drive_error_log_entries{drive=\"%s\",log=\"nvme\"} 0\n", id);
	LINE(t, "wearwatch_drive_rotation_rate_rpm{drive=\"%s\"} 1\n", id);
	/* QEMU's log 02h carries thermal counters (native read): present */
	CHECK(t && strstr(t, "wearwatch_drive_nvme_thermal_management_transitions_total{"));
	free(t);
	return ww_test_done("test_expo_metrics_signals");
}
