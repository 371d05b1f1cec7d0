/* Test-local helpers for the ATA tests: a fake ww_xport that answers SAT ATA
 * PASS-THROUGH(16) from given sectors (and records every CDB it saw), a loader
 * for tests/fixtures/ata/NAME.hex (lines starting with '#' are the header), and
 * a builder of spec-constructed IDENTIFY data (ACS-4 7.12.7 word layout).
 * Not a test itself (only tests/unit/test_*.c are built as tests). */
#ifndef WW_TEST_ATA_FAKE_H
#define WW_TEST_ATA_FAKE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ww_test.h"
#include "wearwatch/transport.h"

#define FAKE_MAX_CDBS 64

typedef struct fake_ata {
	/* what the device answers */
	int power_mode;                 /* -1: aborts CHECK POWER MODE */
	const uint8_t *identify, *smart_data, *smart_thresholds;
	int smart_status;               /* 1 passed, 0 failed, -1 aborts */
	const uint8_t *log_dir;         /* NULL: aborts READ LOG EXT */
	const uint8_t *devstat[8];      /* pages of log 04h, NULL: aborts */
	bool fixed_sense;               /* fixed (70h) instead of descriptor (72h) */
	/* what it saw */
	uint8_t cdbs[FAKE_MAX_CDBS][16];
	size_t n_cdbs;
} fake_ata_t;

/* ATA registers into sense data, per SAT-4 (descriptor 09h / fixed layout) */
static void fake_sense(fake_ata_t *f, ww_cmd_status_t *st, uint8_t key, uint8_t asc,
		       uint8_t ascq, uint8_t status, uint8_t error, uint8_t count, uint32_t lba)
{
	uint8_t *s = st->sense;

	memset(s, 0, sizeof(st->sense));
	if (f->fixed_sense) {
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
		st->sense_len = 18;
	} else {
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
		st->sense_len = 22;
	}
	st->scsi_status = 0x02;
	st->sense_key = key;
	st->asc = asc;
	st->ascq = ascq;
}

static void fake_regs_ok(fake_ata_t *f, ww_cmd_status_t *st, uint8_t count, uint32_t lba)
{
	fake_sense(f, st, 0x01, 0x00, 0x1d, 0x50, 0x00, count, lba);
	st->result = WW_CMD_RECOVERED;
}

static void fake_abort(fake_ata_t *f, ww_cmd_status_t *st)
{
	fake_sense(f, st, 0x0b, 0x00, 0x00, 0x51, 0x04, 0, 0);
	st->result = WW_CMD_DEVICE_ERROR;
}

static void fake_data(ww_cmd_status_t *st, uint8_t *buf, size_t len, const uint8_t *src)
{
	size_t n = len < 512 ? len : 512;

	memcpy(buf, src, n);
	st->result = WW_CMD_OK;
	st->data_len = n;
}

static int fake_scsi_in(ww_xport_t *x, const uint8_t *cdb, size_t cdb_len, uint8_t *buf,
			size_t len, int timeout_s, ww_cmd_status_t *st)
{
	fake_ata_t *f = x->priv;
	uint8_t cmd, feat, log, page;

	if (f->n_cdbs < FAKE_MAX_CDBS)
		memcpy(f->cdbs[f->n_cdbs++], cdb, cdb_len < 16 ? cdb_len : 16);
	memset(st, 0, sizeof(*st));
	if (cdb_len != 16 || cdb[0] != 0x85) {
		fake_sense(f, st, 0x05, 0x20, 0x00, 0, 0, 0, 0);
		st->result = WW_CMD_UNSUPPORTED;
		return 0;
	}
	cmd = cdb[14];
	feat = cdb[4];
	log = cdb[8];
	page = cdb[10];
	if (cmd == 0xe5) {
		if (f->power_mode < 0)
			fake_abort(f, st);
		else
			fake_regs_ok(f, st, (uint8_t)f->power_mode, 0);
	} else if (cmd == 0xec && f->identify) {
		fake_data(st, buf, len, f->identify);
	} else if (cmd == 0xb0 && feat == 0xd0 && f->smart_data) {
		fake_data(st, buf, len, f->smart_data);
	} else if (cmd == 0xb0 && feat == 0xd1 && f->smart_thresholds) {
		fake_data(st, buf, len, f->smart_thresholds);
	} else if (cmd == 0xb0 && feat == 0xda && f->smart_status >= 0) {
		fake_regs_ok(f, st, 0, f->smart_status ? 0xc24f00 : 0x2cf400);
	} else if (cmd == 0x2f && log == 0x00 && f->log_dir) {
		fake_data(st, buf, len, f->log_dir);
	} else if (cmd == 0x2f && log == 0x04 && page < 8 && f->devstat[page]) {
		fake_data(st, buf, len, f->devstat[page]);
	} else {
		fake_abort(f, st);
	}
	return 0;
}

static const ww_xport_ops_t fake_ops = { .scsi_in = fake_scsi_in };

static inline void fake_xport(ww_xport_t *x, fake_ata_t *f)
{
	memset(x, 0, sizeof(*x));
	x->ops = &fake_ops;
	x->fd = -1;
	x->priv = f;
}

/* Load a tests/fixtures/ata/NAME.hex file (header lines start with '#'). */
static inline size_t load_hex(const char *name, uint8_t *out, size_t max)
{
	char path[4096];
	const char *src = getenv("WW_SOURCE_DIR");
	unsigned char *txt;
	size_t len, n;
	char *line, *save = NULL;

	snprintf(path, sizeof(path), "%s/tests/fixtures/ata/%s", src ? src : ".", name);
	txt = ww_read_file(NULL, path, &len);
	if (!txt)
		return 0;
	n = 0;
	for (line = strtok_r((char *)txt, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		n += ww_hex_to_bytes(line, out + n, max - n);
	}
	free(txt);
	return n;
}

/* Spec-constructed IDENTIFY DEVICE data (ACS-4 7.12.7). */
static inline void id_set(uint8_t *id, unsigned word, uint16_t v)
{
	id[2 * word] = (uint8_t)v;
	id[2 * word + 1] = (uint8_t)(v >> 8);
}

static inline void id_str(uint8_t *id, unsigned word, unsigned words, const char *s)
{
	size_t l = strlen(s);

	for (unsigned i = 0; i < 2 * words; i++) {
		char c = i < l ? s[i] : ' ';
		/* first character of each word in bits 15:8 */
		id[2 * word + (i ^ 1)] = (uint8_t)c;
	}
}

static inline void id_checksum(uint8_t *id)
{
	uint8_t s = 0;

	id[510] = 0xa5;
	for (int i = 0; i < 511; i++)
		s = (uint8_t)(s + id[i]);
	id[511] = (uint8_t)(0x100 - s);
}

/* 512-byte sector checksum (byte 511) for SMART data/thresholds */
static inline void sector_checksum(uint8_t *b)
{
	uint8_t s = 0;

	for (int i = 0; i < 511; i++)
		s = (uint8_t)(s + b[i]);
	b[511] = (uint8_t)(0x100 - s);
}

static inline void smart_entry(uint8_t *b, int slot, uint8_t id, uint8_t value,
			       uint8_t worst, const uint8_t raw[6])
{
	uint8_t *e = b + 2 + 12 * slot;

	e[0] = id;
	e[1] = 0x32;
	e[3] = value;
	e[4] = worst;
	memcpy(e + 5, raw, 6);
}

#endif
