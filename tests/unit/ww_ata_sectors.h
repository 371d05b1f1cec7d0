/* Spec-constructed ATA sectors for the ATA tests: a loader for
 * tests/fixtures/ata/NAME.hex (lines starting with '#' are the header),
 * IDENTIFY DEVICE words and strings (ACS-4 7.12.7 word layout), the 512-byte
 * sector checksum, and SMART attribute entries (12 bytes from offset 2).
 * Not a test itself (only tests/unit/test_*.c are built as tests). */
#ifndef WW_ATA_SECTORS_H
#define WW_ATA_SECTORS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ww_test.h"

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
