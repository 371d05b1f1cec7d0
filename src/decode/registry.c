/* The decoder registry (wearwatch/decode.h): one row per page or log. To add
 * a page: its decoder (a LOG SENSE page: a parameter walker in scsi_log.c,
 * declared in scsi_log.h), its fields in the record, and a row here (an NVMe
 * log: where in the read order, with its read-when predicate below; its Log
 * Identifier must be in the transport's allow-list, lid_allowed() in
 * src/transport/nvme.c). Readers, `wearwatch decode --type`, its help and
 * the fuzz harness follow. */
#include <errno.h>
#include <string.h>

#include "decode/scsi_log.h"

/* Identify Namespace decodes into a ww_nvme_ns_t; as a row it appends the
 * namespace to the record (-ENOSPC when WW_NVME_MAX_NS are there). */
static int nvme_id_ns_row(const uint8_t *buf, size_t len, ww_health_t *h)
{
	ww_nvme_ns_t ns = { 0 };
	int rc;

	if (!h)
		return -EINVAL;
	if (h->n_nvme_ns >= WW_NVME_MAX_NS)
		return -ENOSPC;
	rc = ww_decode_nvme_id_ns(buf, len, &ns);
	if (rc == 0)
		h->nvme_ns[h->n_nvme_ns++] = ns;
	return rc;
}

/* VPD 0x00 answers a question (is 0x89 listed) rather than filling the
 * record; as a row it only validates the page. */
static int scsi_vpd_pages_row(const uint8_t *buf, size_t len, ww_health_t *h)
{
	int rc = ww_decode_scsi_vpd_pages(buf, len);

	(void)h;
	return rc < 0 ? rc : 0;
}

/* READ DEFECT DATA (10) / (12): the list header */
static int scsi_defect10_row(const uint8_t *buf, size_t len, ww_health_t *h)
{
	return ww_decode_scsi_defect_header(buf, len, false, h);
}

static int scsi_defect12_row(const uint8_t *buf, size_t len, ww_health_t *h)
{
	return ww_decode_scsi_defect_header(buf, len, true, h);
}

/* Read-when predicates of the NVMe rows: over what the rows before them
 * decoded, as the reader walks them. */

/* Identify Namespace: while the record has room for one more namespace */
static bool nvme_ns_room(const ww_health_t *h, ww_nvme_args_t *a)
{
	(void)a;
	return h->n_nvme_ns < WW_NVME_MAX_NS;
}

/* Endurance Group Information log (09h): only where Identify Controller
 * CTRATT bit 4 says endurance groups exist and a namespace names its group;
 * LSI = the first ENDGID. A controller that rejects it (QEMU 7.2 answers
 * Invalid Log Page) is "unsupported", a capability. */
static bool nvme_endurance_when(const ww_health_t *h, ww_nvme_args_t *a)
{
	uint16_t endgid = 0;

	if (!h->has_nvme_ctrl || !(h->nvme_ctrl.ctratt & WW_NVME_CTRATT_ENDURANCE_GROUPS))
		return false;
	for (size_t i = 0; i < h->n_nvme_ns && !endgid; i++)
		endgid = h->nvme_ns[i].endgid;
	a->lsi = endgid;
	return endgid != 0;
}

/* Error Information log (01h): the newest 16 entries at most, as smartctl
 * reads them; the controller keeps ELPE + 1 (Identify Controller byte 262). */
static bool nvme_error_log_when(const ww_health_t *h, ww_nvme_args_t *a)
{
	size_t n = 16;

	if (!h->has_nvme_ctrl)
		return false;
	if ((size_t)h->nvme_ctrl.elpe + 1 < n)
		n = (size_t)h->nvme_ctrl.elpe + 1;
	a->len = n * WW_NVME_ERROR_ENTRY_LEN;
	return true;
}

/* Device Self-test log (06h): only where Identify Controller OACS bit 4 says
 * the controller has device self-test */
static bool nvme_selftest_when(const ww_health_t *h, ww_nvme_args_t *a)
{
	(void)a;
	return h->has_nvme_ctrl && (h->nvme_ctrl.oacs & WW_NVME_OACS_SELFTEST);
}

/* not formatted: a page or log a row, its macros aligned */
/* clang-format off */
/* An NVMe row: the Identify (CNS) or Get Log Page (LID) the reader sends;
 * the rest are ww_decoder_nvme_t's fields, designated */
#define NVME(c, ident, n, t, l, fn, fl, ...)                                         \
	{ .protocol = WW_PROTO_NVME, .cmd = c, .id = ident, .name = n, .title = t,   \
	  .len = l, .decode = fn, .finish = ww_nvme_finish, .flags = fl,             \
	  .nvme = { __VA_ARGS__ } }
#define ATA(c, ident, subid, n, t, fn)                                               \
	{ .protocol = WW_PROTO_ATA, .cmd = c, .id = ident, .sub = subid, .name = n,  \
	  .title = t, .len = WW_ATA_SECTOR, .decode = fn, .finish = ww_ata_finish }
#define SCSI(c, ident, n, t, l, fn, fl)                                              \
	{ .protocol = WW_PROTO_SCSI, .cmd = c, .id = ident, .name = n, .title = t,   \
	  .len = l, .decode = fn, .finish = ww_scsi_finish, .flags = fl }
#define SCSI_LOG(page, subpage, n, t, walk)                                          \
	{ .protocol = WW_PROTO_SCSI, .cmd = WW_DEC_SCSI_LOG, .id = page,             \
	  .sub = subpage, .name = n, .title = t, .decode = ww_decode_scsi_log_page,  \
	  .log_params = walk, .finish = ww_scsi_finish }

const ww_decoder_t ww_decoders[] = {
	/* NVMe, in the order the reader sends them: Identify Controller first
	 * (the predicates read it), the namespaces (09h needs an ENDGID), the
	 * SMART / Health log without which the read fails, then the rest. C0h
	 * goes to every controller: it is a read, and the only way to learn
	 * whether a drive has the OCP log (ww_decode_ocp_smart_ext checks its
	 * GUID and version); 09h after it, so that where a drive has both, the
	 * standard log's Endurance Estimate and Media Units Written win. */
	NVME(WW_DEC_NVME_IDENTIFY, WW_NVME_CNS_CTRL, "nvme-id-ctrl",
	     "Identify Controller (CNS 01h)", WW_NVME_IDENTIFY_LEN, ww_decode_nvme_id_ctrl, 0,
	     .nsid = 0, .what = "Identify Controller"),
	NVME(WW_DEC_NVME_IDENTIFY, WW_NVME_CNS_NS, "nvme-id-ns", "Identify Namespace (CNS 00h)",
	     WW_NVME_IDENTIFY_LEN, nvme_id_ns_row, WW_DEC_EACH_NS,
	     .when = nvme_ns_room, .what = "Identify Namespace"),
	NVME(WW_DEC_NVME_LOG, WW_NVME_LID_SMART, "nvme-smart",
	     "SMART / Health Information log (02h)", WW_NVME_SMART_LOG_LEN,
	     ww_decode_nvme_smart_log, WW_DEC_REQUIRED,
	     .nsid = WW_NVME_NSID_ALL, .what = "Get Log Page 02h"),
	NVME(WW_DEC_NVME_LOG, WW_NVME_LID_OCP_SMART_EXT, "nvme-ocp-smart-ext",
	     "OCP SMART / Health Information Extended log (C0h)", WW_NVME_OCP_C0_LEN,
	     ww_decode_ocp_smart_ext, 0,
	     .nsid = WW_NVME_NSID_ALL, .what = "Get Log Page C0h", .other_layout = "not OCP"),
	NVME(WW_DEC_NVME_LOG, WW_NVME_LID_ENDURANCE_GROUP, "nvme-endurance-group",
	     "Endurance Group Information log (09h)", WW_NVME_ENDURANCE_LOG_LEN,
	     ww_decode_nvme_endurance_group, 0,
	     .when = nvme_endurance_when, .nsid = 0, .what = "Get Log Page 09h",
	     .lsi_name = "ENDGID"),
	NVME(WW_DEC_NVME_LOG, WW_NVME_LID_ERROR, "nvme-error-log",
	     "Error Information log (01h), 64 bytes per entry", 0, ww_decode_nvme_error_log, 0,
	     .when = nvme_error_log_when, .nsid = WW_NVME_NSID_ALL, .what = "Get Log Page 01h"),
	NVME(WW_DEC_NVME_LOG, WW_NVME_LID_SELFTEST, "nvme-selftest-log",
	     "Device Self-test log (06h)", WW_NVME_SELFTEST_LOG_LEN, ww_decode_nvme_selftest_log, 0,
	     .when = nvme_selftest_when, .nsid = WW_NVME_NSID_ALL, .what = "Get Log Page 06h"),

	ATA(WW_DEC_ATA_IDENTIFY, 0, 0, "ata-identify", "IDENTIFY DEVICE data",
	    ww_decode_ata_identify),
	ATA(WW_DEC_ATA_SMART, 0xd0, 0, "ata-smart", "SMART READ DATA",
	    ww_decode_ata_smart_data),
	ATA(WW_DEC_ATA_SMART, 0xd1, 0, "ata-thresholds", "SMART READ THRESHOLDS",
	    ww_decode_ata_smart_thresholds),
	ATA(WW_DEC_ATA_SMART, 0xd5, 0x01, "ata-error-log",
	    "SMART READ LOG: summary error log (01h)", ww_decode_ata_error_log),
	ATA(WW_DEC_ATA_SMART, 0xd5, 0x06, "ata-selftest-log",
	    "SMART READ LOG: self-test log (06h)", ww_decode_ata_selftest_log),
	ATA(WW_DEC_ATA_LOG, 0x00, 0, "ata-log-directory",
	    "General Purpose Log Directory (log 00h)", ww_decode_ata_log_directory),
	ATA(WW_DEC_ATA_LOG, 0x03, 0, "ata-xerror-log",
	    "Extended Comprehensive SMART Error log (03h)", ww_decode_ata_xerror_log),
	ATA(WW_DEC_ATA_LOG, 0x04, WW_DEC_ANY, "ata-devstat",
	    "Device Statistics log (04h), any page", ww_decode_ata_devstat),
	ATA(WW_DEC_ATA_LOG, 0x04, 0x00, "ata-devstat-list",
	    "Device Statistics: supported pages list (page 00h)",
	    ww_decode_ata_devstat),
	ATA(WW_DEC_ATA_LOG, 0x04, 0x01, "ata-devstat-general",
	    "Device Statistics: General Statistics (page 01h)", ww_decode_ata_devstat),
	ATA(WW_DEC_ATA_LOG, 0x04, 0x02, "ata-devstat-free-fall",
	    "Device Statistics: Free-Fall Statistics (page 02h)", ww_decode_ata_devstat),
	ATA(WW_DEC_ATA_LOG, 0x04, 0x03, "ata-devstat-rotating",
	    "Device Statistics: Rotating Media Statistics (page 03h)", ww_decode_ata_devstat),
	ATA(WW_DEC_ATA_LOG, 0x04, 0x04, "ata-devstat-errors",
	    "Device Statistics: General Errors Statistics (page 04h)", ww_decode_ata_devstat),
	ATA(WW_DEC_ATA_LOG, 0x04, 0x05, "ata-devstat-temperature",
	    "Device Statistics: Temperature Statistics (page 05h)", ww_decode_ata_devstat),
	ATA(WW_DEC_ATA_LOG, 0x04, 0x06, "ata-devstat-transport",
	    "Device Statistics: Transport Statistics (page 06h)", ww_decode_ata_devstat),
	ATA(WW_DEC_ATA_LOG, 0x04, 0x07, "ata-devstat-ssd",
	    "Device Statistics: Solid State Device Statistics (page 07h)",
	    ww_decode_ata_devstat),
	ATA(WW_DEC_ATA_LOG, 0x07, 0, "ata-xselftest-log",
	    "Extended SMART self-test log (07h)", ww_decode_ata_xselftest_log),

	SCSI(WW_DEC_SCSI_INQUIRY, 0, "scsi-inquiry", "standard INQUIRY data", 0,
	     ww_decode_scsi_inquiry, 0),
	SCSI(WW_DEC_SCSI_VPD, 0x00, "scsi-vpd-pages", "Supported VPD Pages (VPD 00h)", 0,
	     scsi_vpd_pages_row, 0),
	SCSI(WW_DEC_SCSI_VPD, 0x80, "scsi-vpd-serial", "Unit Serial Number (VPD 80h)", 0,
	     ww_decode_scsi_vpd_serial, 0),
	SCSI(WW_DEC_SCSI_VPD, 0x83, "scsi-vpd-devid", "Device Identification (VPD 83h)",
	     0, ww_decode_scsi_vpd_devid, 0),
	SCSI(WW_DEC_SCSI_VPD, 0xb1, "scsi-vpd-bdc",
	     "Block Device Characteristics (VPD B1h)", 0, ww_decode_scsi_vpd_bdc,
	     WW_DEC_LISTED_ONLY),
	SCSI(WW_DEC_SCSI_READ_CAPACITY, 0, "scsi-read-capacity",
	     "READ CAPACITY (16) parameter data", 32, ww_decode_scsi_read_capacity16, 0),
	{ .protocol = WW_PROTO_SCSI, .cmd = WW_DEC_SCSI_LOG, .id = WW_DEC_ANY,
	  .sub = WW_DEC_ANY, .name = "scsi-log", .title = "any LOG SENSE page below, by its header",
	  .decode = ww_decode_scsi_log_page, .finish = ww_scsi_finish },
	SCSI_LOG(0x00, 0x00, "scsi-supported-pages", "Supported Log Pages log page (00h)",
		 ww_scsi_log_supported),
	SCSI_LOG(0x00, 0xff, "scsi-supported-subpages",
		 "Supported Log Pages and Subpages log page (00h/FFh)", ww_scsi_log_supported),
	SCSI_LOG(0x02, 0x00, "scsi-write-errors", "Write Error Counter log page (02h)",
		 ww_scsi_log_write_errors),
	SCSI_LOG(0x03, 0x00, "scsi-read-errors", "Read Error Counter log page (03h)",
		 ww_scsi_log_read_errors),
	SCSI_LOG(0x05, 0x00, "scsi-verify-errors", "Verify Error Counter log page (05h)",
		 ww_scsi_log_verify_errors),
	SCSI_LOG(0x06, 0x00, "scsi-non-medium-errors", "Non-Medium Error log page (06h)",
		 ww_scsi_log_non_medium),
	SCSI_LOG(0x0d, 0x00, "scsi-temperature", "Temperature log page (0Dh)",
		 ww_scsi_log_temperature),
	SCSI_LOG(0x0d, 0x01, "scsi-environment", "Environmental Reporting log page (0Dh/01h)",
		 ww_scsi_log_environment),
	SCSI_LOG(0x0e, 0x00, "scsi-start-stop", "Start-Stop Cycle Counter log page (0Eh)",
		 ww_scsi_log_start_stop),
	{ .protocol = WW_PROTO_SCSI, .cmd = WW_DEC_SCSI_LOG, .id = 0x0e, .sub = 0x01,
	  .name = "scsi-utilization", .title = "Utilization log page (0Eh/01h)",
	  .decode = ww_decode_scsi_utilization, .finish = ww_scsi_finish },
	SCSI_LOG(0x10, 0x00, "scsi-self-test", "Self-Test Results log page (10h)",
		 ww_scsi_log_self_test),
	SCSI_LOG(0x11, 0x00, "scsi-ssd-media", "Solid State Media log page (11h)",
		 ww_scsi_log_ssd_media),
	SCSI_LOG(0x15, 0x00, "scsi-background-scan", "Background Scan Results log page (15h)",
		 ww_scsi_log_background_scan),
	SCSI_LOG(0x18, 0x00, "scsi-sas-phy", "Protocol Specific Port log page for SAS (18h)",
		 ww_scsi_log_sas_port),
	SCSI_LOG(0x19, 0x00, "scsi-general-stats",
		 "General Statistics and Performance log page (19h)", ww_scsi_log_general_stats),
	SCSI_LOG(0x1a, 0x00, "scsi-power-conditions",
		 "Power Condition Transitions log page (1Ah)", ww_scsi_log_power_conditions),
	SCSI_LOG(0x2f, 0x00, "scsi-ie", "Informational Exceptions log page (2Fh)",
		 ww_scsi_log_ie),
	SCSI(WW_DEC_SCSI_READ_DEFECT, 10, "scsi-defects-10",
	     "READ DEFECT DATA (10) list header (grown list)", 4, scsi_defect10_row, 0),
	SCSI(WW_DEC_SCSI_READ_DEFECT, 12, "scsi-defects-12",
	     "READ DEFECT DATA (12) list header (grown list)", 8, scsi_defect12_row, 0),
};
/* clang-format on */

const size_t ww_n_decoders = sizeof(ww_decoders) / sizeof(ww_decoders[0]);

const ww_decoder_t *ww_decoder_find(ww_decoder_cmd_t cmd, uint16_t id, uint16_t sub)
{
	for (size_t i = 0; i < ww_n_decoders; i++)
		if (ww_decoders[i].cmd == cmd && ww_decoders[i].id == id &&
		    ww_decoders[i].sub == sub)
			return &ww_decoders[i];
	return NULL;
}

const ww_decoder_t *ww_decoder_by_name(const char *name)
{
	for (size_t i = 0; name && i < ww_n_decoders; i++)
		if (!strcmp(ww_decoders[i].name, name))
			return &ww_decoders[i];
	return NULL;
}

int ww_decoder_run(const ww_decoder_t *d, const uint8_t *buf, size_t len, ww_health_t *h)
{
	uint8_t page, subpage;
	int rc;

	if (!d || !d->decode)
		return -EINVAL;
	if (d->cmd == WW_DEC_SCSI_LOG && d->sub != WW_DEC_ANY) {
		rc = ww_scsi_log_begin(buf, len, &page, &subpage, NULL);
		if (rc)
			return rc;
		if (page != d->id || subpage != d->sub)
			return -EINVAL;
	} else if (d->cmd == WW_DEC_ATA_LOG && d->id == 0x04 && d->sub != WW_DEC_ANY) {
		if (!buf || len < WW_ATA_SECTOR)
			return -EMSGSIZE;
		if (buf[2] != d->sub)
			return -EINVAL;
	}
	return d->decode(buf, len, h);
}
