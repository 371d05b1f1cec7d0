/* The one fake device of the reader tests: the project's own replay
 * transport (src/transport/replay.c) answering from capture text
 * (docs/capture-format.md), wrapped in the capture transport
 * (src/transport/capture.c) so that what the reader sent comes back in the
 * same text. A reader under test runs its real read path against recorded
 * command/answer pairs: a capture of a VM drive (tests/fixtures/captures),
 * or blocks a test builds (ww_cap_*) where no capture has the answer it
 * needs (a standby CHECK POWER MODE, an aborted command, a given sense);
 * those are spec-constructed and the test says from which spec.
 *
 * A command no block records is answered "unsupported" (replay.c); a request
 * recorded several times is answered in order, the last answer repeating.
 * One `st` line per block: replay.c's parser does not take a second one.
 * Not a test itself (only tests/unit/test_*.c are built as tests). */
#ifndef WW_FAKE_DEVICE_H
#define WW_FAKE_DEVICE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ww_test.h"
#include "wearwatch/transport.h"

/* ------------------------------------------------- capture text builder --- */

typedef struct ww_cap {
	FILE *f;
	char *text;
	size_t len;
} ww_cap_t;

static inline void ww_cap_open(ww_cap_t *c)
{
	c->text = NULL;
	c->len = 0;
	c->f = open_memstream(&c->text, &c->len);
	if (c->f)
		fputs("# wearwatch capture 1 (docs/capture-format.md)\n", c->f);
}

/** The text so far (valid until the next ww_cap_* call). */
static inline const char *ww_cap_text(ww_cap_t *c)
{
	fflush(c->f);
	return c->text ? c->text : "";
}

static inline void ww_cap_free(ww_cap_t *c)
{
	if (c->f)
		fclose(c->f);
	free(c->text);
	c->f = NULL;
	c->text = NULL;
}

/** One block as src/transport/capture.c writes it: `req` is the request
 * line without "cmd ", `st` the status (data_len bytes of `data`, sense_len
 * bytes of st->sense), `ret` the transport's return value. */
static inline void ww_cap_block(ww_cap_t *c, const char *req, int ret,
				const ww_cmd_status_t *st, const uint8_t *data)
{
	FILE *f = c->f;

	fprintf(f, "cmd %s\n", req);
	fprintf(f, "st ret=%d result=%s errno=%d scsi_status=0x%02x sense_key=0x%x "
		   "asc=0x%02x ascq=0x%02x nvme_status=0x%04x nvme_result=0x%08x data_len=%zu\n",
		ret, ww_cmd_result_name(st->result), st->os_errno, st->scsi_status,
		st->sense_key, st->asc, st->ascq, st->nvme_status, st->nvme_result,
		st->data_len);
	if (st->sense_len) {
		fputs("sense ", f);
		for (size_t i = 0; i < st->sense_len && i < sizeof(st->sense); i++)
			fprintf(f, "%02x", st->sense[i]);
		fputc('\n', f);
	}
	for (size_t off = 0; data && off < st->data_len; off += 32) {
		fputs("data ", f);
		for (size_t i = off; i < st->data_len && i < off + 32; i++)
			fprintf(f, "%02x", data[i]);
		fputc('\n', f);
	}
	fputs("end\n", f);
}

/** A command that completed with `len` bytes of `data`. */
static inline void ww_cap_ok(ww_cap_t *c, const char *req, const uint8_t *data, size_t len)
{
	ww_cmd_status_t st = { .result = WW_CMD_OK, .data_len = len };

	ww_cap_block(c, req, 0, &st, data);
}

/** A SCSI command that ended in CHECK CONDITION with this sense; key, ASC
 * and ASCQ are read from it by the transport's own parser, the result is
 * the transport's classification (ww_sg_classify). */
static inline void ww_cap_sense(ww_cap_t *c, const char *req, const uint8_t *sense,
				size_t sense_len)
{
	ww_sg_outcome_t o = { .scsi_status = 0x02 };
	ww_cmd_status_t st = { 0 };

	memcpy(st.sense, sense, sense_len);
	st.sense_len = sense_len;
	ww_sg_classify(&o, &st);
	ww_cap_block(c, req, 0, &st, NULL);
}

/** An NVMe admin command that completed with this status field (SCT << 8 |
 * SC) and the transport's result for it. */
static inline void ww_cap_nvme_status(ww_cap_t *c, const char *req, ww_cmd_result_t result,
				      uint16_t nvme_status)
{
	ww_cmd_status_t st = { .result = result, .nvme_status = nvme_status };

	ww_cap_block(c, req, 0, &st, NULL);
}

/* Request lines as the transports spell them (docs/capture-format.md). */
static inline const char *ww_req_scsi(char *buf, size_t len, const uint8_t *cdb, size_t cdb_len,
				      size_t alloc)
{
	size_t o = (size_t)snprintf(buf, len, "scsi_in cdb=");

	for (size_t i = 0; i < cdb_len && o + 3 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%02x", cdb[i]);
	snprintf(buf + o, len - o, " len=%zu", alloc);
	return buf;
}

static inline const char *ww_req_nvme_identify(char *buf, size_t len, unsigned cns,
					       uint32_t nsid)
{
	snprintf(buf, len, "nvme_identify cns=%u nsid=%u len=4096", cns, nsid);
	return buf;
}

static inline const char *ww_req_nvme_log(char *buf, size_t len, unsigned lid, uint32_t nsid,
					  size_t bytes)
{
	snprintf(buf, len, "nvme_get_log lid=%u nsid=%u len=%zu", lid, nsid, bytes);
	return buf;
}

/* -------------------------------------------- SAT ATA PASS-THROUGH blocks --- */

/** Sense data carrying ATA registers as a SATL returns them (SAT-4 12.2.2.6):
 * descriptor format 72h with the ATA Status Return descriptor 09h, or fixed
 * format 70h (INFORMATION = ERROR, STATUS, DEVICE, COUNT; COMMAND-SPECIFIC =
 * LBA 7:0, 15:8, 23:16). Returns the sense length. */
static inline size_t ww_sat_sense(uint8_t *s, bool fixed, uint8_t key, uint8_t asc,
				  uint8_t ascq, uint8_t status, uint8_t error, uint8_t count,
				  uint32_t lba)
{
	memset(s, 0, 22);
	if (fixed) {
		s[0] = 0x70;
		s[2] = key;
		s[3] = error;
		s[4] = status;
		s[6] = count;
		s[7] = 10;
		s[9] = (uint8_t)lba;
		s[10] = (uint8_t)(lba >> 8);
		s[11] = (uint8_t)(lba >> 16);
		s[12] = asc;
		s[13] = ascq;
		return 18;
	}
	s[0] = 0x72;
	s[1] = key;
	s[2] = asc;
	s[3] = ascq;
	s[7] = 14;
	s[8] = 0x09;
	s[9] = 0x0c;
	s[11] = error;
	s[13] = count;
	s[15] = (uint8_t)lba;
	s[17] = (uint8_t)(lba >> 8);
	s[19] = (uint8_t)(lba >> 16);
	s[21] = status;
	return 22;
}

/** Request line of an ATA PASS-THROUGH(16) the SAT layer builds for this
 * command (transport.h: non-data commands with CK_COND and no transfer,
 * data-in ones count x 512 bytes). */
static inline const char *ww_req_sat(char *buf, size_t len, uint8_t cmd, uint8_t feature,
				     uint16_t count, uint64_t lba, bool extend)
{
	uint8_t cdb[WW_SAT_CDB_LEN];
	bool nondata = cmd == WW_ATA_CHECK_POWER_MODE ||
		       (cmd == WW_ATA_SMART && feature == WW_SMART_RETURN_STATUS);

	if (ww_sat_build_cdb(cdb, cmd, feature, count, lba, extend, nondata) < 0)
		snprintf(buf, len, "scsi_in cdb=refused len=0");
	else
		ww_req_scsi(buf, len, cdb, sizeof(cdb), nondata ? 0 : (size_t)count * 512);
	return buf;
}

/** The command completed and returned registers (CK_COND): RECOVERED ERROR,
 * ATA PASS THROUGH INFORMATION AVAILABLE (00h/1Dh), STATUS 50h. */
static inline void ww_cap_sat_regs(ww_cap_t *c, const char *req, bool fixed, uint8_t count,
				   uint32_t lba)
{
	uint8_t s[22];
	ww_cmd_status_t st = { .result = WW_CMD_RECOVERED, .scsi_status = 0x02,
			       .sense_key = 0x01, .ascq = 0x1d };

	st.sense_len = ww_sat_sense(s, fixed, 0x01, 0x00, 0x1d, 0x50, 0x00, count, lba);
	memcpy(st.sense, s, st.sense_len);
	ww_cap_block(c, req, 0, &st, NULL);
}

/** The drive aborted the command: ABORTED COMMAND, STATUS 51h (ERR), ERROR
 * 04h (ABRT), as libata reports it. */
static inline void ww_cap_sat_abort(ww_cap_t *c, const char *req, bool fixed)
{
	uint8_t s[22];
	ww_cmd_status_t st = { .result = WW_CMD_DEVICE_ERROR, .scsi_status = 0x02,
			       .sense_key = 0x0b };

	st.sense_len = ww_sat_sense(s, fixed, 0x0b, 0x00, 0x00, 0x51, 0x04, 0, 0);
	memcpy(st.sense, s, st.sense_len);
	ww_cap_block(c, req, 0, &st, NULL);
}

/** A SATA drive behind a SATL, described by what it answers. */
typedef struct ww_sat_drive {
	int power_mode;                 /* CHECK POWER MODE count; -1: aborts it */
	const uint8_t *identify, *smart_data, *smart_thresholds; /* NULL: aborts */
	int smart_status;               /* 1 passed, 0 failed (LBA 2CF4h), -1 aborts */
	const uint8_t *log_dir;         /* GP log directory; NULL: aborts */
	const uint8_t *devstat[8];      /* pages of log 04h; NULL: aborts */
	const uint8_t *xerror, *xselftest; /* logs 03h, 07h page 0; NULL: aborts */
	const uint8_t *error_log, *selftest_log; /* SMART logs 01h, 06h; NULL: aborts */
	bool fixed_sense;               /* fixed (70h) instead of descriptor (72h) */
} ww_sat_drive_t;

static inline void ww_cap_sat_sector(ww_cap_t *c, const char *req, const uint8_t *sector,
				     bool fixed)
{
	if (sector)
		ww_cap_ok(c, req, sector, 512);
	else
		ww_cap_sat_abort(c, req, fixed);
}

/** Blocks for every command the ATA reader may send to drive `d`. SMART
 * commands carry LBA mid/high 4Fh/C2h (ACS-4 7.45); READ LOG EXT is 48-bit,
 * LBA 7:0 = log address, 15:8 = page. */
static inline void ww_cap_sat_drive(ww_cap_t *c, const ww_sat_drive_t *d)
{
	char req[128];
	bool fx = d->fixed_sense;

	ww_req_sat(req, sizeof(req), WW_ATA_CHECK_POWER_MODE, 0, 0, 0, false);
	if (d->power_mode < 0)
		ww_cap_sat_abort(c, req, fx);
	else
		ww_cap_sat_regs(c, req, fx, (uint8_t)d->power_mode, 0);
	ww_cap_sat_sector(c, ww_req_sat(req, sizeof(req), WW_ATA_IDENTIFY, 0, 1, 0, false),
			  d->identify, fx);
	ww_req_sat(req, sizeof(req), WW_ATA_SMART, WW_SMART_RETURN_STATUS, 0, 0xc24f00, false);
	if (d->smart_status < 0)
		ww_cap_sat_abort(c, req, fx);
	else
		ww_cap_sat_regs(c, req, fx, 0, d->smart_status ? 0xc24f00 : 0x2cf400);
	ww_cap_sat_sector(c, ww_req_sat(req, sizeof(req), WW_ATA_SMART, WW_SMART_READ_DATA, 1,
					0xc24f00, false), d->smart_data, fx);
	ww_cap_sat_sector(c, ww_req_sat(req, sizeof(req), WW_ATA_SMART,
					WW_SMART_READ_THRESHOLDS, 1, 0xc24f00, false),
			  d->smart_thresholds, fx);
	ww_cap_sat_sector(c, ww_req_sat(req, sizeof(req), WW_ATA_READ_LOG_EXT, 0, 1, 0x00, true),
			  d->log_dir, fx);
	for (unsigned p = 0; p < 8; p++)
		ww_cap_sat_sector(c, ww_req_sat(req, sizeof(req), WW_ATA_READ_LOG_EXT, 0, 1,
						0x04 | p << 8, true), d->devstat[p], fx);
	ww_cap_sat_sector(c, ww_req_sat(req, sizeof(req), WW_ATA_READ_LOG_EXT, 0, 1, 0x03, true),
			  d->xerror, fx);
	ww_cap_sat_sector(c, ww_req_sat(req, sizeof(req), WW_ATA_READ_LOG_EXT, 0, 1, 0x07, true),
			  d->xselftest, fx);
	ww_cap_sat_sector(c, ww_req_sat(req, sizeof(req), WW_ATA_SMART, WW_SMART_READ_LOG, 1,
					0xc24f01, false), d->error_log, fx);
	ww_cap_sat_sector(c, ww_req_sat(req, sizeof(req), WW_ATA_SMART, WW_SMART_READ_LOG, 1,
					0xc24f06, false), d->selftest_log, fx);
}

/* ------------------------------------------------------------ the device --- */

#define WW_FAKE_MAX_SENT 64

typedef struct ww_fake {
	ww_xport_t x;              /* give this to the reader */
	ww_xport_t replay;         /* the replay transport inside */
	char file[64];             /* capture written by ww_fake_open_text, else "" */
	FILE *log_f;               /* what was sent, in capture format */
	char *log;
	size_t log_len;
	/* after ww_fake_sent(): the request lines sent, in order, and the CDB
	 * of each scsi_in (zeros for other commands) */
	char sent[WW_FAKE_MAX_SENT][128];
	uint8_t cdbs[WW_FAKE_MAX_SENT][16];
	size_t n_sent;
} ww_fake_t;

/** Open the fake on a capture file. Returns 0 or the replay transport's
 * -errno (with the bad line on stderr). The struct must not move while open. */
static inline int ww_fake_open_file(ww_fake_t *f, const char *capture)
{
	int bad = 0, rc;

	memset(f, 0, sizeof(*f));
	rc = ww_xport_open_replay(capture, &f->replay, &bad);
	if (rc < 0) {
		fprintf(stderr, "replay %s: %s (line %d)\n", capture, strerror(-rc), bad);
		return rc;
	}
	f->log_f = open_memstream(&f->log, &f->log_len);
	if (!f->log_f || ww_xport_capture_wrap(&f->replay, f->log_f, NULL, &f->x) < 0) {
		ww_xport_close(&f->replay);
		return -ENOMEM;
	}
	return 0;
}

/** Open the fake on capture text (written to a temporary file). */
static inline int ww_fake_open_text(ww_fake_t *f, const char *text)
{
	char file[64] = "/tmp/ww-fake-XXXXXX";
	int fd = mkstemp(file), rc;
	size_t n = strlen(text);

	if (fd < 0)
		return -errno;
	rc = write(fd, text, n) == (ssize_t)n ? 0 : -EIO;
	close(fd);
	if (!rc)
		rc = ww_fake_open_file(f, file);
	if (rc < 0) {
		unlink(file);
		return rc;
	}
	snprintf(f->file, sizeof(f->file), "%s", file);
	return 0;
}

/** Open the fake on a ww_cap_t's text. */
static inline int ww_fake_open_cap(ww_fake_t *f, ww_cap_t *c)
{
	return ww_fake_open_text(f, ww_cap_text(c));
}

/** Read back what was sent so far into f->sent / f->cdbs; returns how many
 * commands. */
static inline size_t ww_fake_sent(ww_fake_t *f)
{
	const char *p;

	fflush(f->log_f);
	f->n_sent = 0;
	memset(f->cdbs, 0, sizeof(f->cdbs));
	for (p = f->log; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		size_t n = strcspn(p, "\n");

		if (strncmp(p, "cmd ", 4) || f->n_sent >= WW_FAKE_MAX_SENT)
			continue;
		snprintf(f->sent[f->n_sent], sizeof(f->sent[0]), "%.*s", (int)(n - 4), p + 4);
		if (!strncmp(p + 4, "scsi_in cdb=", 12)) {
			char hex[40];

			snprintf(hex, sizeof(hex), "%.*s", (int)strcspn(p + 16, " \n"), p + 16);
			ww_hex_to_bytes(hex, f->cdbs[f->n_sent], 16);
		}
		f->n_sent++;
	}
	return f->n_sent;
}

static inline void ww_fake_close(ww_fake_t *f)
{
	ww_xport_close(&f->x); /* closes the replay inside */
	if (f->log_f)
		fclose(f->log_f);
	free(f->log);
	f->log_f = NULL;
	f->log = NULL;
	if (f->file[0])
		unlink(f->file);
	f->file[0] = '\0';
}

#endif
