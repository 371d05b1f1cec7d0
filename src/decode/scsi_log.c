/* LOG SENSE page decoders (wearwatch/decode.h): one parameter walker per
 * page (declared in scsi_log.h), found through the page's row of the decoder
 * registry (registry.c) and run on a copy of ww_scsi_t that is committed only
 * when the whole page decoded. */
#include <errno.h>
#include <string.h>

#include "decode/scsi_log.h"

uint64_t ww_scsi_be_counter(const uint8_t *p, size_t n, bool *saturated)
{
	uint64_t v = 0;
	bool sat = false;

	for (size_t i = 0; i < n; i++) {
		if (v >> 56) {
			sat = true;
			break;
		}
		v = v << 8 | p[i];
	}
	if (saturated)
		*saturated = sat;
	return sat ? UINT64_MAX : v;
}

int ww_scsi_log_begin(const uint8_t *buf, size_t len, uint8_t *page,
		      uint8_t *subpage, ww_scsi_log_iter_t *it)
{
	size_t end;

	if (!buf || len < 4)
		return -EMSGSIZE;
	if (!(buf[0] & 0x40) && buf[1] != 0)
		return -EINVAL;
	end = 4 + (size_t)(buf[2] << 8 | buf[3]);
	if (end > len)
		return -EMSGSIZE;
	if (page)
		*page = buf[0] & 0x3f;
	if (subpage)
		*subpage = buf[1];
	if (it) {
		it->buf = buf;
		it->off = 4;
		it->end = end;
	}
	return 0;
}

int ww_scsi_log_next(ww_scsi_log_iter_t *it, ww_scsi_log_param_t *p)
{
	const uint8_t *q;

	if (it->off >= it->end)
		return 0;
	if (it->end - it->off < 4)
		goto bad;
	q = it->buf + it->off;
	if (it->end - it->off - 4 < q[3])
		goto bad;
	p->code = (uint16_t)(q[0] << 8 | q[1]);
	p->control = q[2];
	p->len = q[3];
	p->data = q + 4;
	it->off += 4 + (size_t)q[3];
	return 1;
bad:
	it->off = it->end; /* the walk stops here */
	return -EINVAL;
}

/* Counter parameter into a ww_u64 with its source. */
static void set_counter(ww_u64 *f, const ww_scsi_log_param_t *p, const char *src)
{
	bool sat;

	if (p->len == 0)
		return;
	f->value = ww_scsi_be_counter(p->data, p->len, &sat);
	f->saturated = sat;
	f->source = src;
}

int ww_scsi_log_supported(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	/* subpage 0x00: one page code per byte; 0xFF: (page, subpage) pairs */
	const uint8_t *buf = it->buf;
	size_t end = it->end, step = buf[1] == 0xff ? 2 : 1;

	it->off = end; /* no parameters: the list is read here */
	if (step == 2 && (end - 4) % 2)
		return -EINVAL;
	for (size_t i = 4; i + step <= end; i += step) {
		uint16_t v = (uint16_t)((buf[i] & 0x3f) << 8 | (step == 2 ? buf[i + 1] : 0));
		bool dup = false;

		for (size_t k = 0; k < s->n_supported_pages; k++)
			dup |= s->supported_pages[k] == v;
		if (!dup && s->n_supported_pages < WW_SCSI_MAX_PAGES)
			s->supported_pages[s->n_supported_pages++] = v;
	}
	return 0;
}

static const char *const errcnt_src[3][3] = {
	{ "SCSI log page 0x02 param 0x0003", "SCSI log page 0x02 param 0x0005",
	  "SCSI log page 0x02 param 0x0006" },
	{ "SCSI log page 0x03 param 0x0003", "SCSI log page 0x03 param 0x0005",
	  "SCSI log page 0x03 param 0x0006" },
	{ "SCSI log page 0x05 param 0x0003", "SCSI log page 0x05 param 0x0005",
	  "SCSI log page 0x05 param 0x0006" },
};

static int walk_errcnt(ww_scsi_log_iter_t *it, ww_scsi_errcnt_t *e, int which)
{
	ww_scsi_log_param_t p;
	int rc;

	while ((rc = ww_scsi_log_next(it, &p)) > 0) {
		if (p.code == 0x0003)
			set_counter(&e->corrected_total, &p, errcnt_src[which][0]);
		else if (p.code == 0x0005)
			set_counter(&e->bytes_processed, &p, errcnt_src[which][1]);
		else if (p.code == 0x0006)
			set_counter(&e->uncorrected, &p, errcnt_src[which][2]);
	}
	return rc;
}

int ww_scsi_log_write_errors(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	return walk_errcnt(it, &s->write_errors, 0);
}

int ww_scsi_log_read_errors(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	return walk_errcnt(it, &s->read_errors, 1);
}

int ww_scsi_log_verify_errors(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	return walk_errcnt(it, &s->verify_errors, 2);
}

int ww_scsi_log_temperature(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	ww_scsi_log_param_t p;
	int rc;

	while ((rc = ww_scsi_log_next(it, &p)) > 0) {
		/* byte 5 of the parameter = data[1]; 0xFF = not available */
		if (p.len < 2 || p.data[1] == 0xff)
			continue;
		if (p.code == 0x0000)
			WW_SET(s->temperature_celsius, p.data[1],
			       "SCSI log page 0x0D param 0x0000");
		else if (p.code == 0x0001)
			WW_SET(s->reference_temperature_celsius, p.data[1],
			       "SCSI log page 0x0D param 0x0001");
	}
	return rc;
}

int ww_scsi_log_environment(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	ww_scsi_log_param_t p;
	int rc;

	while ((rc = ww_scsi_log_next(it, &p)) > 0) {
		/* temperature report 0x0000: byte 5 signed, 0x80 = not valid */
		if (p.code == 0x0000 && p.len >= 2 && p.data[1] != 0x80)
			WW_SET(s->env_temperature_celsius, (int8_t)p.data[1],
			       "SCSI log page 0x0D/0x01 param 0x0000");
	}
	return rc;
}

static bool all_digits(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return true;
}

int ww_scsi_log_start_stop(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	ww_scsi_log_param_t p;
	int rc;

	while ((rc = ww_scsi_log_next(it, &p)) > 0) {
		switch (p.code) {
		case 0x0001: /* YYYY then WW, ASCII; blanks when not set */
			if (p.len >= 6 && all_digits(p.data, 6)) {
				memcpy(s->manufacture_year, p.data, 4);
				s->manufacture_year[4] = 0;
				memcpy(s->manufacture_week, p.data + 4, 2);
				s->manufacture_week[2] = 0;
			}
			break;
		case 0x0003:
			set_counter(&s->specified_start_stop_cycles, &p,
				    "SCSI log page 0x0E param 0x0003");
			break;
		case 0x0004:
			set_counter(&s->start_stop_cycles, &p,
				    "SCSI log page 0x0E param 0x0004");
			break;
		case 0x0005:
			set_counter(&s->specified_load_unload_cycles, &p,
				    "SCSI log page 0x0E param 0x0005");
			break;
		case 0x0006:
			set_counter(&s->load_unload_cycles, &p,
				    "SCSI log page 0x0E param 0x0006");
			break;
		}
	}
	return rc;
}

int ww_scsi_log_ssd_media(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	ww_scsi_log_param_t p;
	int rc;

	while ((rc = ww_scsi_log_next(it, &p)) > 0)
		if (p.code == 0x0001 && p.len >= 4) /* byte 7 = data[3] */
			WW_SET(s->percentage_used, p.data[3],
			       "SCSI log page 0x11 param 0x0001");
	return rc;
}

int ww_scsi_log_non_medium(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	ww_scsi_log_param_t p;
	int rc;

	while ((rc = ww_scsi_log_next(it, &p)) > 0)
		if (p.code == 0x0000)
			set_counter(&s->non_medium_errors, &p, "SCSI log page 0x06 param 0x0000");
	return rc;
}

int ww_scsi_log_background_scan(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	ww_scsi_log_param_t p;
	int rc;

	while ((rc = ww_scsi_log_next(it, &p)) > 0)
		if (p.code == 0x0000 && p.len >= 4) /* bytes 4-7 = data[0..3] */
			WW_SET(s->power_on_minutes, ww_scsi_be_counter(p.data, 4, NULL),
			       "SCSI log page 0x15 param 0x0000");
	return rc;
}

/* One SAS phy log descriptor at d (left bytes remain in its parameter);
 * *used = its length. */
static int sas_phy(const uint8_t *d, size_t left, uint16_t port, ww_scsi_t *s, size_t *used)
{
	ww_sas_phy_t *p;

	if (left < 48)
		return -EINVAL;
	*used = d[3] < 44 ? 48 : (size_t)d[3] + 4;
	if (*used > left)
		return -EINVAL;
	if (s->n_sas_phys >= WW_SCSI_MAX_SAS_PHYS) {
		s->n_sas_phys_dropped++;
		return 0;
	}
	p = &s->sas_phys[s->n_sas_phys++];
	p->port = port;
	p->phy = d[1];
	p->sas_address = ww_scsi_be_counter(d + 8, 8, NULL);
	p->invalid_dwords = (uint32_t)ww_scsi_be_counter(d + 32, 4, NULL);
	p->running_disparity_errors = (uint32_t)ww_scsi_be_counter(d + 36, 4, NULL);
	p->loss_of_dword_sync = (uint32_t)ww_scsi_be_counter(d + 40, 4, NULL);
	p->phy_reset_problems = (uint32_t)ww_scsi_be_counter(d + 44, 4, NULL);
	p->link_rate = d[5] & 0x0f;
	return 0;
}

int ww_scsi_log_sas_port(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	ww_scsi_log_param_t p;
	int rc;

	s->n_sas_phys = s->n_sas_phys_dropped = 0;
	while ((rc = ww_scsi_log_next(it, &p)) > 0) {
		/* parameter byte 4 = data[0]; descriptors from byte 8 = data[4] */
		if (p.len < 4 || (p.data[0] & 0x0f) != 0x6)
			continue;
		for (size_t off = 4, used; off < p.len; off += used) {
			rc = sas_phy(p.data + off, p.len - off, p.code, s, &used);
			if (rc)
				return rc;
		}
	}
	if (rc == 0)
		s->sas_phys_source = "SCSI log page 0x18 SAS phy log descriptors";
	return rc;
}

/* One Self-Test Results parameter (data = byte 4 on) into the log summary;
 * false for an unused parameter (all of code, result, number and hours 0). */
static bool self_test_entry(const uint8_t *d, ww_selftest_log_t *l, bool newest, unsigned *passed,
			    ww_selftest_now_t *n)
{
	uint8_t res = d[0] & 0x0f;
	uint64_t lba = ww_scsi_be_counter(d + 4, 8, NULL);
	bool failed = res >= 3 && res <= 7; /* unknown error .. segment failed */
	/* SELF-TEST CODE, byte 0 bits 7-5: 1/5 short, 2/6 extended
	 * (background/foreground; SPC-5 "SEND DIAGNOSTIC") */
	unsigned code = d[0] >> 5 & 3,
		 kind = code == 1 ? WW_STK_SHORT
		: code == 2       ? WW_STK_EXTENDED
				  : WW_STK_NONE;

	if (!d[0] && !d[1] && !d[2] && !d[3])
		return false;
	if (newest) {
		/* result Fh: the self-test is in progress */
		n->source = "SCSI log page 0x10 parameter 0001h SELF-TEST RESULTS";
		n->running = res == 0x0f;
		n->kind = (uint8_t)(n->running ? kind : WW_STK_NONE);
		n->remaining_percent = -1;
	}
	/* power-on hours at bytes 2-3; the first failure, when it names one */
	ww_selftest_entry(l, passed, newest, kind, res, failed, (uint64_t)d[2] << 8 | d[3],
			  lba != UINT64_MAX, lba);
	return true;
}

int ww_scsi_log_self_test(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	ww_selftest_log_t l = { 0 };
	ww_selftest_now_t n = { 0 };
	ww_scsi_log_param_t p;
	unsigned passed = 0;
	int rc;

	/* parameters 0001h (newest) to 0014h, in order */
	while ((rc = ww_scsi_log_next(it, &p)) > 0)
		if (p.code >= 0x0001 && p.code <= 0x0014 && p.len >= 16)
			self_test_entry(p.data, &l, p.code == 0x0001, &passed, &n);
	if (rc == 0) {
		l.source = "SCSI log page 0x10 Self-Test Results";
		s->self_test = l;
		if (n.source)
			s->self_test_now = n;
	}
	return rc;
}

int ww_scsi_log_power_conditions(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	static const char *const src[6] = {
		"SCSI log page 0x1A param 0x0001", "SCSI log page 0x1A param 0x0002",
		"SCSI log page 0x1A param 0x0003", "SCSI log page 0x1A param 0x0004",
		"SCSI log page 0x1A param 0x0008", "SCSI log page 0x1A param 0x0009",
	};
	static const uint16_t codes[6] = { 0x0001, 0x0002, 0x0003, 0x0004, 0x0008, 0x0009 };
	ww_scsi_log_param_t p;
	int rc;

	while ((rc = ww_scsi_log_next(it, &p)) > 0)
		for (int i = 0; i < 6; i++)
			if (p.code == codes[i])
				set_counter(&s->power_transitions[i], &p, src[i]);
	return rc;
}

int ww_scsi_log_general_stats(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	ww_scsi_log_param_t p;
	int rc;

	while ((rc = ww_scsi_log_next(it, &p)) > 0) {
		if (p.code != 0x0001 || p.len < 32)
			continue;
		/* bytes 20-27 blocks received, 28-35 blocks transmitted */
		WW_SET(s->logical_blocks_written, ww_scsi_be_counter(p.data + 16, 8, NULL),
		       "SCSI log page 0x19 param 0x0001 logical blocks received");
		WW_SET(s->logical_blocks_read, ww_scsi_be_counter(p.data + 24, 8, NULL),
		       "SCSI log page 0x19 param 0x0001 logical blocks transmitted");
	}
	return rc;
}

int ww_scsi_log_ie(ww_scsi_log_iter_t *it, ww_scsi_t *s)
{
	ww_scsi_log_param_t p;
	int rc;

	while ((rc = ww_scsi_log_next(it, &p)) > 0) {
		if (p.code != 0x0000 || p.len < 2)
			continue;
		WW_SET(s->ie_asc, p.data[0], "SCSI log page 0x2F param 0x0000 byte 4");
		WW_SET(s->ie_ascq, p.data[1], "SCSI log page 0x2F param 0x0000 byte 5");
		if (p.len >= 3 && p.data[2] != 0xff)
			WW_SET(s->ie_temperature_celsius, p.data[2],
			       "SCSI log page 0x2F param 0x0000 byte 6");
	}
	return rc;
}

int ww_decode_scsi_log_page(const uint8_t *buf, size_t len, ww_health_t *h)
{
	const ww_decoder_t *d;
	ww_scsi_log_iter_t it;
	uint8_t page, subpage;
	ww_scsi_t s;
	int rc;

	if (!h)
		return -EINVAL;
	rc = ww_scsi_log_begin(buf, len, &page, &subpage, &it);
	if (rc)
		return rc;
	d = ww_decoder_find(WW_DEC_SCSI_LOG, page, subpage);
	if (!d)
		return -ENOTSUP;
	if (!d->log_params) /* a page with a decoder of its own */
		return d->decode && d->decode != ww_decode_scsi_log_page ?
			d->decode(buf, len, h) : -ENOTSUP;
	s = h->scsi;
	rc = d->log_params(&it, &s);
	if (rc == 0)
		h->scsi = s;
	return rc;
}

bool ww_scsi_page_supported(const ww_health_t *h, uint8_t page, uint8_t subpage)
{
	uint16_t v = (uint16_t)(page << 8 | subpage);

	for (size_t i = 0; i < h->scsi.n_supported_pages && i < WW_SCSI_MAX_PAGES; i++)
		if (h->scsi.supported_pages[i] == v)
			return true;
	return false;
}

static void add_sat(ww_u64 *sum, const ww_u64 *x)
{
	if (!WW_HAS(*x))
		return;
	if (x->saturated || __builtin_add_overflow(sum->value, x->value, &sum->value)) {
		sum->value = UINT64_MAX;
		sum->saturated = true;
	}
	sum->source = "SCSI log pages 0x02/0x03/0x05 param 0x0006 (sum)";
}

static void blocks_to_bytes(ww_u64 *out, const ww_u64 *blocks, const ww_u64 *bs,
			    const ww_u64 *fallback, const char *src)
{
	uint64_t v;

	if (WW_HAS(*blocks) && WW_HAS(*bs) && bs->value) {
		bool sat = __builtin_mul_overflow(blocks->value, bs->value, &v);
		WW_SET(*out, sat ? UINT64_MAX : v, src);
		out->saturated = sat;
		out->label = "scsi_general_statistics";
	} else if (WW_HAS(*fallback)) {
		*out = *fallback;
		out->label = "scsi_bytes_processed";
	}
}

/* The fastest negotiated link rate of the drive's phys (page 0x18), in
 * bit/s: SPL-4 NEGOTIATED LOGICAL LINK RATE 8h-Ch = 1.5, 3, 6, 12, 22.5
 * Gbit/s (smartctl's current interface speed for SAS). */
static void scsi_link_speed(ww_health_t *h)
{
	static const uint64_t bps[5] = { 1500000000ull, 3000000000ull, 6000000000ull,
					 12000000000ull, 22500000000ull };
	uint64_t best = 0;

	for (size_t i = 0; i < h->scsi.n_sas_phys && i < WW_SCSI_MAX_SAS_PHYS; i++) {
		uint8_t r = h->scsi.sas_phys[i].link_rate;

		if (r >= 0x8 && r <= 0xc && bps[r - 8] > best)
			best = bps[r - 8];
	}
	if (best)
		WW_SET(h->link.current_bps, best,
		       "SCSI log page 0x18 NEGOTIATED LOGICAL LINK RATE (fastest phy)");
}

void ww_scsi_finish(ww_health_t *h)
{
	ww_scsi_t *s = &h->scsi;

	/* smartctl's precedence (7.3+ prints the environmental reporting
	 * subpage when the drive has it): the headline agrees with smartctl,
	 * the other readings stay in h->scsi with their sources */
	if (WW_HAS(s->env_temperature_celsius))
		h->temperature_celsius = s->env_temperature_celsius;
	else if (WW_HAS(s->temperature_celsius))
		h->temperature_celsius = s->temperature_celsius;
	else if (WW_HAS(s->ie_temperature_celsius))
		h->temperature_celsius = s->ie_temperature_celsius;
	if (WW_HAS(s->reference_temperature_celsius))
		h->temperature_reference_celsius = s->reference_temperature_celsius;

	blocks_to_bytes(&h->host_written_bytes, &s->logical_blocks_written,
			&h->logical_block_bytes, &s->write_errors.bytes_processed,
			"SCSI log page 0x19 param 0x0001 logical blocks received x logical block size");
	blocks_to_bytes(&h->host_read_bytes, &s->logical_blocks_read,
			&h->logical_block_bytes, &s->read_errors.bytes_processed,
			"SCSI log page 0x19 param 0x0001 logical blocks transmitted x logical block size");

	if (WW_HAS(s->power_on_minutes)) {
		/* 32-bit minutes x 60 cannot overflow 64 bits */
		WW_SET(h->power_on_seconds, s->power_on_minutes.value * 60,
		       "SCSI log page 0x15 param 0x0000 accumulated power on minutes x 60");
	}

	ww_u64 media = { 0 };
	add_sat(&media, &s->write_errors.uncorrected);
	add_sat(&media, &s->read_errors.uncorrected);
	add_sat(&media, &s->verify_errors.uncorrected);
	if (WW_HAS(media))
		h->media_errors = media;

	if (WW_HAS(s->percentage_used)) {
		h->endurance_used_percent = s->percentage_used;
		h->endurance_used_percent.label = "scsi_ssd_media";
	}

	if (s->self_test.source)
		h->self_tests[WW_SELFTEST_SCSI] = s->self_test;
	if (s->self_test_now.source)
		h->self_test_now = s->self_test_now;
	scsi_link_speed(h);

	if (WW_HAS(s->ie_asc)) {
		if (s->ie_asc.value == 0x00)
			h->smart_status = WW_SMART_PASSED;
		else if (s->ie_asc.value == 0x5d)
			h->smart_status = WW_SMART_FAILED;
		else
			h->smart_status = WW_SMART_UNKNOWN;
		h->smart_status_source = "SCSI log page 0x2F param 0x0000 ASC";
	}
}
