/* NVMe Identify and SMART / Health log decoders (contracts in nvme.h).
 *
 * Wire layouts are packed structs of byte arrays: alignment 1, so they may be
 * overlaid on any buffer, and every multi-byte field is read with an explicit
 * little-endian helper. static_assert pins each offset to the spec.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "wearwatch/decode.h"

/* NVMe Base 2.0, Figure 207: SMART / Health Information (Log Identifier 02h) */
struct ww_nvme_smart_wire {
	uint8_t critical_warning;		/* 0 */
	uint8_t composite_temp[2];		/* 1-2, Kelvin */
	uint8_t avail_spare;			/* 3 */
	uint8_t avail_spare_thresh;		/* 4 */
	uint8_t percent_used;			/* 5 */
	uint8_t endgrp_crit_warn_summary;	/* 6 */
	uint8_t rsvd7[25];			/* 7-31 */
	uint8_t data_units_read[16];		/* 32-47 */
	uint8_t data_units_written[16];		/* 48-63 */
	uint8_t host_read_cmds[16];		/* 64-79 */
	uint8_t host_write_cmds[16];		/* 80-95 */
	uint8_t ctrl_busy_time[16];		/* 96-111, minutes */
	uint8_t power_cycles[16];		/* 112-127 */
	uint8_t power_on_hours[16];		/* 128-143 */
	uint8_t unsafe_shutdowns[16];		/* 144-159 */
	uint8_t media_errors[16];		/* 160-175 */
	uint8_t err_log_entries[16];		/* 176-191 */
	uint8_t warn_temp_time[4];		/* 192-195, minutes */
	uint8_t crit_temp_time[4];		/* 196-199, minutes */
	uint8_t temp_sensor[8][2];		/* 200-215, Kelvin, 0 = none */
	uint8_t tmt1_count[4];			/* 216-219 */
	uint8_t tmt2_count[4];			/* 220-223 */
	uint8_t tmt1_time[4];			/* 224-227, seconds */
	uint8_t tmt2_time[4];			/* 228-231, seconds */
	uint8_t rsvd232[280];			/* 232-511 */
} __attribute__((packed));

static_assert(sizeof(struct ww_nvme_smart_wire) == WW_NVME_SMART_LOG_LEN, "smart log size");
static_assert(offsetof(struct ww_nvme_smart_wire, composite_temp) == 1, "temp");
static_assert(offsetof(struct ww_nvme_smart_wire, endgrp_crit_warn_summary) == 6, "egcws");
static_assert(offsetof(struct ww_nvme_smart_wire, data_units_read) == 32, "dur");
static_assert(offsetof(struct ww_nvme_smart_wire, data_units_written) == 48, "duw");
static_assert(offsetof(struct ww_nvme_smart_wire, ctrl_busy_time) == 96, "busy");
static_assert(offsetof(struct ww_nvme_smart_wire, power_on_hours) == 128, "poh");
static_assert(offsetof(struct ww_nvme_smart_wire, media_errors) == 160, "mde");
static_assert(offsetof(struct ww_nvme_smart_wire, err_log_entries) == 176, "nele");
static_assert(offsetof(struct ww_nvme_smart_wire, warn_temp_time) == 192, "wctt");
static_assert(offsetof(struct ww_nvme_smart_wire, temp_sensor) == 200, "ts1");
static_assert(offsetof(struct ww_nvme_smart_wire, tmt1_count) == 216, "tmt1c");
static_assert(offsetof(struct ww_nvme_smart_wire, tmt2_time) == 228, "tmt2t");

/* NVMe Base 2.0, Identify Controller data structure (CNS 01h): the fields
 * kept, with the gaps between them as opaque byte runs. */
struct ww_nvme_id_ctrl_wire {
	uint8_t vid[2];				/* 0-1 */
	uint8_t ssvid[2];			/* 2-3 */
	uint8_t sn[20];				/* 4-23, ASCII */
	uint8_t mn[40];				/* 24-63, ASCII */
	uint8_t fr[8];				/* 64-71, ASCII */
	uint8_t rab;				/* 72 */
	uint8_t ieee[3];			/* 73-75 */
	uint8_t cmic;				/* 76 */
	uint8_t mdts;				/* 77 */
	uint8_t cntlid[2];			/* 78-79 */
	uint8_t ver[4];				/* 80-83 */
	uint8_t rtd3r[4];			/* 84-87 */
	uint8_t rtd3e[4];			/* 88-91 */
	uint8_t oaes[4];			/* 92-95 */
	uint8_t ctratt[4];			/* 96-99 */
	uint8_t rsvd100[156];			/* 100-255: RRLS .. NVMe-MI */
	uint8_t oacs[2];			/* 256-257 */
	uint8_t acl;				/* 258 */
	uint8_t aerl;				/* 259 */
	uint8_t frmw;				/* 260 */
	uint8_t lpa;				/* 261 */
	uint8_t elpe;				/* 262 */
	uint8_t npss;				/* 263 */
	uint8_t avscc;				/* 264 */
	uint8_t apsta;				/* 265 */
	uint8_t wctemp[2];			/* 266-267, Kelvin */
	uint8_t cctemp[2];			/* 268-269, Kelvin */
	uint8_t mtfa[2];			/* 270-271 */
	uint8_t hmpre[4];			/* 272-275 */
	uint8_t hmmin[4];			/* 276-279 */
	uint8_t tnvmcap[16];			/* 280-295, bytes */
	uint8_t unvmcap[16];			/* 296-311, bytes */
	uint8_t rpmbs[4];                       /* 312-315 */
	uint8_t edstt[2];                       /* 316-317, minutes */
	uint8_t rsvd318[194];                   /* 318-511: DSTO .. MEGCAP */
	uint8_t sqes;				/* 512 */
	uint8_t cqes;				/* 513 */
	uint8_t maxcmd[2];			/* 514-515 */
	uint8_t nn[4];				/* 516-519 */
	uint8_t oncs[2];			/* 520-521 */
	uint8_t rest[3574];			/* 522-4095 */
} __attribute__((packed));

static_assert(sizeof(struct ww_nvme_id_ctrl_wire) == WW_NVME_IDENTIFY_LEN, "id ctrl size");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, sn) == 4, "sn");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, mn) == 24, "mn");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, fr) == 64, "fr");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, ieee) == 73, "ieee");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, ver) == 80, "ver");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, ctratt) == 96, "ctratt");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, oacs) == 256, "oacs");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, lpa) == 261, "lpa");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, wctemp) == 266, "wctemp");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, cctemp) == 268, "cctemp");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, tnvmcap) == 280, "tnvmcap");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, edstt) == 316, "edstt");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, sqes) == 512, "sqes");
static_assert(offsetof(struct ww_nvme_id_ctrl_wire, nn) == 516, "nn");

/* NVM Command Set 1.0, Identify Namespace data structure (CNS 00h) */
struct ww_nvme_id_ns_wire {
	uint8_t nsze[8];			/* 0-7, blocks */
	uint8_t ncap[8];			/* 8-15 */
	uint8_t nuse[8];			/* 16-23 */
	uint8_t nsfeat;				/* 24 */
	uint8_t nlbaf;				/* 25, zero-based */
	uint8_t flbas;				/* 26 */
	uint8_t mc;				/* 27 */
	uint8_t dpc;				/* 28 */
	uint8_t dps;				/* 29 */
	uint8_t rsvd30[72];			/* 30-101: NMIC .. NVMSETID */
	uint8_t endgid[2];			/* 102-103 */
	uint8_t nguid[16];			/* 104-119 */
	uint8_t eui64[8];			/* 120-127 */
	uint8_t lbaf[64][4];			/* 128-383: MS 0-1, LBADS 2, RP 3 */
	uint8_t vs[3712];			/* 384-4095 */
} __attribute__((packed));

static_assert(sizeof(struct ww_nvme_id_ns_wire) == WW_NVME_IDENTIFY_LEN, "id ns size");
static_assert(offsetof(struct ww_nvme_id_ns_wire, flbas) == 26, "flbas");
static_assert(offsetof(struct ww_nvme_id_ns_wire, endgid) == 102, "endgid");
static_assert(offsetof(struct ww_nvme_id_ns_wire, nguid) == 104, "nguid");
static_assert(offsetof(struct ww_nvme_id_ns_wire, eui64) == 120, "eui64");
static_assert(offsetof(struct ww_nvme_id_ns_wire, lbaf) == 128, "lbaf");

static inline uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static inline ww_u128 le128(const uint8_t *p)
{
	return (ww_u128){ .lo = le64(p), .hi = le64(p + 8) };
}

#define SMART_SRC(bytes) "NVMe SMART/Health log 02h " bytes

/* Temperatures are Kelvin in 16 bits (NVMe Base 2.0, Figures 207 and 275),
 * so a garbage word reads as up to 65262 degrees C. 0 is "not reported".
 * Above 490 K (217 degrees C, where SAC305, the usual lead-free solder,
 * starts to melt: IPC J-STD-006) a board would come apart, so such a word is
 * no reading: it is left out and counted in *implausible. */
static bool kelvin_plausible(uint16_t kelvin, uint32_t *implausible)
{
	if (!kelvin)
		return false;
	if (kelvin > 490) {
		(*implausible)++;
		return false;
	}
	return true;
}

int ww_decode_nvme_smart_log(const uint8_t *buf, size_t len, ww_health_t *h)
{
	const struct ww_nvme_smart_wire *w = (const void *)buf;
	ww_nvme_smart_t *s;

	if (!buf || !h)
		return -EINVAL;
	if (len < sizeof(*w))
		return -EMSGSIZE;

	s = &h->nvme_smart;
	memset(s, 0, sizeof(*s));
	s->critical_warning = w->critical_warning;
	s->composite_temperature_kelvin = le16(w->composite_temp);
	s->available_spare_percent = w->avail_spare;
	s->available_spare_threshold_percent = w->avail_spare_thresh;
	s->percentage_used = w->percent_used;
	s->endurance_group_critical_warning = w->endgrp_crit_warn_summary;
	s->data_units_read = le128(w->data_units_read);
	s->data_units_written = le128(w->data_units_written);
	s->host_read_commands = le128(w->host_read_cmds);
	s->host_write_commands = le128(w->host_write_cmds);
	s->controller_busy_time_minutes = le128(w->ctrl_busy_time);
	s->power_cycles = le128(w->power_cycles);
	s->power_on_hours = le128(w->power_on_hours);
	s->unsafe_shutdowns = le128(w->unsafe_shutdowns);
	s->media_errors = le128(w->media_errors);
	s->error_log_entries = le128(w->err_log_entries);
	s->warning_temperature_time_minutes = le32(w->warn_temp_time);
	s->critical_temperature_time_minutes = le32(w->crit_temp_time);
	for (size_t i = 0; i < 8; i++) {
		uint16_t k = le16(w->temp_sensor[i]);

		/* 0 is the spec's "not implemented"; an implausible reading
		 * is stored as that, so no output shows it as a temperature. */
		s->temperature_sensor_kelvin[i] = kelvin_plausible(k, &h->implausible_values) ? k
											      : 0;
	}
	s->thermal_mgmt_temp1_transitions = le32(w->tmt1_count);
	s->thermal_mgmt_temp2_transitions = le32(w->tmt2_count);
	s->thermal_mgmt_temp1_time_seconds = le32(w->tmt1_time);
	s->thermal_mgmt_temp2_time_seconds = le32(w->tmt2_time);
	h->has_nvme_smart = true;
	h->protocol = WW_PROTO_NVME;

	WW_SET(h->critical_warning, s->critical_warning, SMART_SRC("byte 0"));
	/* smartctl's verdict: any critical warning bit means FAILED. */
	h->smart_status = s->critical_warning ? WW_SMART_FAILED : WW_SMART_PASSED;
	h->smart_status_source = SMART_SRC("byte 0 (critical warning != 0)");
	if (kelvin_plausible(s->composite_temperature_kelvin, &h->implausible_values))
		WW_SET(h->temperature_celsius,
		       (int64_t)s->composite_temperature_kelvin - 273,
		       SMART_SRC("bytes 1-2"));
	/* Available Spare and its threshold are normalised percentages, 0 to
	 * 100 (NVMe Base 2.0, Figure 207, bytes 3 and 4); above that the bytes
	 * are no reading (random bytes made a "spare 29 % below its threshold
	 * 239 %" critical): left out, counted. Percentage Used may exceed 100
	 * (byte 5: up to 255), so it stays. */
	if (s->available_spare_percent <= 100)
		WW_SET(h->available_spare_percent, s->available_spare_percent, SMART_SRC("byte 3"));
	else
		h->implausible_values++;
	if (s->available_spare_threshold_percent <= 100)
		WW_SET(h->available_spare_threshold_percent, s->available_spare_threshold_percent,
		       SMART_SRC("byte 4"));
	else
		h->implausible_values++;
	WW_SET(h->endurance_used_percent, s->percentage_used, SMART_SRC("byte 5"));
	h->endurance_used_percent.label = "nvme_percentage_used";

	/* A data unit is 1000 x 512 bytes whatever the LBA format. */
	h->host_read_bytes = ww_u128_scale(s->data_units_read, 512000,
					   SMART_SRC("bytes 32-47 x 512000"));
	h->host_written_bytes = ww_u128_scale(s->data_units_written, 512000,
					      SMART_SRC("bytes 48-63 x 512000"));
	h->host_read_bytes.label = "nvme_data_units";
	h->host_written_bytes.label = "nvme_data_units";
	h->power_cycles = ww_u128_scale(s->power_cycles, 1, SMART_SRC("bytes 112-127"));
	h->power_on_seconds = ww_u128_scale(s->power_on_hours, 3600,
					    SMART_SRC("bytes 128-143 x 3600"));
	h->unsafe_shutdowns = ww_u128_scale(s->unsafe_shutdowns, 1,
					    SMART_SRC("bytes 144-159"));
	h->media_errors = ww_u128_scale(s->media_errors, 1, SMART_SRC("bytes 160-175"));
	h->error_log_entries = ww_u128_scale(s->error_log_entries, 1,
					     SMART_SRC("bytes 176-191"));
	return 0;
}

/* Copy a fixed-width ASCII field, trimming spaces and NULs on both ends;
 * anything outside printable ASCII becomes '?'. */
static void copy_ascii(char *dst, size_t dst_len, const uint8_t *src, size_t n)
{
	size_t a = 0, b = n, o = 0;

	while (a < b && (src[a] == ' ' || src[a] == 0))
		a++;
	while (b > a && (src[b - 1] == ' ' || src[b - 1] == 0))
		b--;
	for (size_t i = a; i < b && o + 1 < dst_len; i++)
		dst[o++] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : '?';
	if (dst_len)
		dst[o] = 0;
}

#define CTRL_SRC(bytes) "NVMe Identify Controller " bytes

int ww_decode_nvme_id_ctrl(const uint8_t *buf, size_t len, ww_health_t *h)
{
	const struct ww_nvme_id_ctrl_wire *w = (const void *)buf;
	ww_nvme_ctrl_t *c;

	if (!buf || !h)
		return -EINVAL;
	if (len < sizeof(*w))
		return -EMSGSIZE;

	copy_ascii(h->serial, sizeof(h->serial), w->sn, sizeof(w->sn));
	copy_ascii(h->model, sizeof(h->model), w->mn, sizeof(w->mn));
	copy_ascii(h->firmware, sizeof(h->firmware), w->fr, sizeof(w->fr));

	c = &h->nvme_ctrl;
	memset(c, 0, sizeof(*c));
	c->vid = le16(w->vid);
	memcpy(c->ieee_oui, w->ieee, sizeof(c->ieee_oui));
	c->version = le32(w->ver);
	c->ctratt = le32(w->ctratt);
	c->lpa = w->lpa;
	c->elpe = w->elpe;
	c->oacs = (uint16_t)(w->oacs[0] | w->oacs[1] << 8);
	c->wctemp_kelvin = le16(w->wctemp);
	c->cctemp_kelvin = le16(w->cctemp);
	c->tnvmcap_bytes = le128(w->tnvmcap);
	c->nn = le32(w->nn);
	h->has_nvme_ctrl = true;
	h->protocol = WW_PROTO_NVME;
	/* how long its self-tests take: EDSTT (minutes) for the extended one;
	 * a short one completes within two minutes (NVMe Base 2.0, "Short
	 * Device Self-test Operation") */
	if (c->oacs & WW_NVME_OACS_SELFTEST) {
		h->self_test_now.expected_short_s = 120;
		h->self_test_now.expected_extended_s = (uint32_t)le16(w->edstt) * 60;
	}

	if (kelvin_plausible(c->wctemp_kelvin, &h->implausible_values))
		WW_SET(h->temperature_warning_celsius,
		       (int64_t)c->wctemp_kelvin - 273, CTRL_SRC("WCTEMP bytes 266-267"));
	if (kelvin_plausible(c->cctemp_kelvin, &h->implausible_values))
		WW_SET(h->temperature_critical_celsius,
		       (int64_t)c->cctemp_kelvin - 273, CTRL_SRC("CCTEMP bytes 268-269"));
	return 0;
}

int ww_decode_nvme_id_ns(const uint8_t *buf, size_t len, ww_nvme_ns_t *ns)
{
	const struct ww_nvme_id_ns_wire *w = (const void *)buf;
	unsigned fmt, lbads;

	if (!buf || !ns)
		return -EINVAL;
	if (len < sizeof(*w))
		return -EMSGSIZE;

	/* FLBAS bits 3:0 are the low index bits, bits 6:5 the high ones
	 * (NVMe 2.0; zero on older drives, which have at most 16 formats). */
	fmt = (w->flbas & 0x0fu) | ((w->flbas >> 5) & 0x3u) << 4;
	lbads = w->lbaf[fmt][2];
	if (lbads < 9 || lbads > 31)
		return -EINVAL;

	ns->size_blocks = le64(w->nsze);
	ns->lba_bytes = 1u << lbads;
	memcpy(ns->eui64, w->eui64, sizeof(ns->eui64));
	memcpy(ns->nguid, w->nguid, sizeof(ns->nguid));
	ns->endgid = le16(w->endgid);
	return 0;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void hex_id(char *dst, size_t dst_len, const uint8_t *id, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t o = 0;

	if (dst_len < 4 + 2 * n + 1)
		return;
	memcpy(dst, "eui.", 4);
	o = 4;
	for (size_t i = 0; i < n; i++) {
		dst[o++] = digits[id[i] >> 4];
		dst[o++] = digits[id[i] & 0xf];
	}
	dst[o] = 0;
}

void ww_nvme_finish(ww_health_t *h)
{
	unsigned __int128 total = 0;
	bool any = false;

	if (!h)
		return;
	h->protocol = WW_PROTO_NVME;

	for (size_t i = 0; i < h->n_nvme_ns && i < WW_NVME_MAX_NS; i++) {
		const ww_nvme_ns_t *ns = &h->nvme_ns[i];

		if (!ns->lba_bytes)
			continue;
		total += (unsigned __int128)ns->size_blocks * ns->lba_bytes;
		if (!any) {
			WW_SET(h->logical_block_bytes, ns->lba_bytes,
			       "NVMe Identify Namespace LBADS of FLBAS format");
			if (!h->wwn[0] && !all_zero(ns->nguid, sizeof(ns->nguid)))
				hex_id(h->wwn, sizeof(h->wwn), ns->nguid, sizeof(ns->nguid));
			else if (!h->wwn[0] && !all_zero(ns->eui64, sizeof(ns->eui64)))
				hex_id(h->wwn, sizeof(h->wwn), ns->eui64, sizeof(ns->eui64));
		}
		any = true;
	}

	if (any) {
		ww_u128 t = { .lo = (uint64_t)total, .hi = (uint64_t)(total >> 64) };
		h->capacity_bytes = ww_u128_scale(t, 1,
			"NVMe Identify Namespace NSZE x LBA size, summed");
	} else if (h->has_nvme_ctrl &&
		   (h->nvme_ctrl.tnvmcap_bytes.lo || h->nvme_ctrl.tnvmcap_bytes.hi)) {
		h->capacity_bytes = ww_u128_scale(h->nvme_ctrl.tnvmcap_bytes, 1,
			CTRL_SRC("TNVMCAP bytes 280-295"));
	}
	WW_SET(h->rotation_rate_rpm, 1, "NVMe (non-rotating media)");
}
