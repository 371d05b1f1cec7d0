/* `wearwatch decode FILE`: the health record of saved input (a capture, a
 * libatasmart blob, a smartctl JSON or `-r ioctl` trace, a raw page as hex or
 * binary, a libscsicmd CSV line), each raw page through its decoder registry
 * row. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wearwatch/collect.h"
#include "cli/cli.h"
#include "wearwatch/decode.h"
#include "wearwatch/expo.h"

/* A raw page through its registry row: decode, then the row's finish step. */
static int raw_page(const ww_decoder_t *d, const uint8_t *b, size_t n, ww_health_t *h)
{
	int rc;

	h->protocol = d->protocol;
	rc = ww_decoder_run(d, b, n, h);
	if (d->finish)
		d->finish(h);
	return rc;
}

/* The registry's names, "a, b, c" (for error messages). */
static void print_type_names(FILE *f)
{
	for (size_t i = 0; i < ww_n_decoders; i++)
		fprintf(f, "%s%s", i ? ", " : "", ww_decoders[i].name);
}

/* hex text ("0a 1b", "0a1b", with "NNN-NNN:" or "|...|" columns) or binary */
static size_t maybe_unhex(uint8_t *buf, size_t n)
{
	size_t o = 0;
	int hi = -1;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = buf[i];

		if (c == '|') { /* ASCII column up to end of line */
			while (i < n && buf[i] != '\n')
				i++;
			continue;
		}
		if (c == ':') { /* an offset column ends here: drop it */
			hi = -1;
			continue;
		}
		if (c >= 0x80 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t'))
			return n; /* binary */
	}
	for (size_t i = 0; i < n; i++) {
		int v = -1;
		unsigned char c = buf[i];
		size_t eol;

		if (c == '|' || c == '#') {
			while (i < n && buf[i] != '\n')
				i++;
			continue;
		}
		/* drop "000-015:" offset prefixes */
		for (eol = i; eol < n && buf[eol] != '\n' && buf[eol] != ' '; eol++)
			;
		if (eol > i && buf[eol - 1] == ':') {
			i = eol;
			continue;
		}
		if (c >= '0' && c <= '9')
			v = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v = (c | 0x20) - 'a' + 10;
		if (v < 0) {
			hi = -1;
			continue;
		}
		if (hi < 0) {
			hi = v;
		} else {
			buf[o++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	return o;
}

/* bytes of page data the last raw decode was given, for its error message */
static size_t raw_len;

/* A libscsicmd-style CSV capture line, "COMMENT,CDB,SENSE,RESPONSE" with hex
 * byte columns (e.g. ",4d 00 4d 00 00 00 00 40 00 00,,0d 00 00 78 ..."):
 * moves the RESPONSE column of the first such line to the start of buf and
 * sets *n to its length, *opcode to the CDB's first byte. False when buf is
 * not such text. */
static bool csv_response(uint8_t *buf, size_t *n, unsigned *opcode)
{
	char *line = (char *)buf, *col[4], *p;
	int k = 0;

	if (memchr(buf, 0, *n))
		return false;
	while (*line == '#' || *line == '\n' || *line == '\r') /* comments, blank lines */
		line = strchr(line, '\n') ? strchr(line, '\n') + 1 : line + strlen(line);
	p = line;
	col[k++] = p;
	for (; *p && *p != '\n' && k < 4; p++)
		if (*p == ',')
			col[k++] = p + 1;
	if (k < 4 || sscanf(col[1], "%2x", opcode) != 1)
		return false;
	for (p = col[3]; *p && *p != '\n' && *p != ','; p++)
		;
	*n = (size_t)(p - col[3]);
	memmove(buf, col[3], *n);
	buf[*n] = '\0';
	return true;
}

/* A smartctl JSON document; its exit status decides whether it is a reading
 * (bits 0-1: no, said on stderr; bit 2: partial, in the report) */
static int smartctl_json(const char *file, uint8_t *buf, size_t n, ww_health_t *h,
			 ww_read_report_t *r)
{
	ww_smartctl_info_t info;
	char why[256];
	int rc = ww_smartctl_parse((char *)buf, n, h, &info);

	if (rc == -EIO) {
		fprintf(stderr, "wearwatch: %s: smartctl exit status %d (%s): the read failed, "
				"nothing in it is a reading\n", file, info.exit_status,
			ww_smartctl_exit_explain(info.exit_status, why, sizeof(why)));
		return -EIO;
	}
	if (rc == 0 && ww_smartctl_read_class(info.exit_status, false) == WW_SMARTCTL_READ_PARTIAL)
		r->partial = WW_SMARTCTL_PARTIAL_WHY;
	return rc;
}

static int decode_file(const char *file, const ww_decoder_t *type, ww_drive_t *d,
		       ww_health_t *h, ww_read_report_t *r, const char **what)
{
	struct stat sb;
	uint8_t *buf = NULL;
	size_t n = 0;
	FILE *f;
	unsigned opcode;
	int rc;

	memset(d, 0, sizeof(*d));
	snprintf(d->id, sizeof(d->id), "%s", file);
	if (stat(file, &sb) < 0)
		return -errno;
	/* a FIFO or device would block or never end: files and directories only */
	if (!S_ISDIR(sb.st_mode) && !S_ISREG(sb.st_mode))
		return -EINVAL;
	if (S_ISDIR(sb.st_mode) || strstr(file, ".capture")) {
		*what = "capture";
		if (S_ISDIR(sb.st_mode)) {
			/* the first capture of the directory */
			ww_drive_t *all = NULL;

			if (ww_replay_add(file) <= 0 || ww_replay_discover("", NULL, &all) <= 0) {
				free(all);
				return -ENOENT;
			}
			*d = all[0];
			free(all);
			return ww_replay_collect_fn("", d, h, r);
		}
		if ((rc = ww_replay_load_drive(file, d)) < 0)
			return rc;
		return ww_replay_collect(file, d, h, r);
	}
	f = fopen(file, "rb");
	if (!f)
		return -errno;
	buf = malloc((size_t)sb.st_size + 1);
	if (buf)
		n = fread(buf, 1, (size_t)sb.st_size, f);
	fclose(f);
	if (!buf)
		return -ENOMEM;
	buf[n] = '\0';
	if (csv_response(buf, &n, &opcode)) {
		/* LOG SENSE (SPC-4 6.6): the response is a log page */
		if (!type && opcode == 0x4d)
			type = ww_decoder_find(WW_DEC_SCSI_LOG, WW_DEC_ANY, WW_DEC_ANY);
		if (!type) {
			fprintf(stderr, "wearwatch: %s: a CSV command line (CDB opcode 0x%02x); "
					"give --type for its response column\n", file, opcode);
			*what = "CSV line";
			free(buf);
			return -EINVAL;
		}
	}
	if (type) {
		*what = type->name;
		n = maybe_unhex(buf, n);
		raw_len = n;
		rc = raw_page(type, buf, n, h);
	} else if (n >= 4 && !memcmp(buf, "IDFY", 4)) {
		*what = "libatasmart blob";
		rc = ww_ata_blob_load(buf, n, h);
	} else if (memmem(buf, n, "DATA START (BASE-16)", 20)) {
		*what = "smartctl -r ioctl,2 trace";
		rc = ww_ioctl_trace_load((char *)buf, n, h);
	} else if (n && (buf[strspn((char *)buf, " \t\r\n")] == '{')) {
		*what = "smartctl JSON";
		rc = smartctl_json(file, buf, n, h, r);
	} else {
		*what = "unknown";
		rc = -EINVAL;
		fprintf(stderr, "wearwatch: %s: not a capture, libatasmart blob, smartctl -r "
				"ioctl,2 trace or smartctl JSON; for a raw page give --type (", file);
		print_type_names(stderr);
		fputs(")\n", stderr);
	}
	free(buf);
	return rc;
}

static void usage_decode(FILE *f)
{
	fputs("usage: wearwatch decode FILE [--json] [--config CONF] [--type TYPE]\n"
	      "\n"
	      "Prints the health verdict (thresholds from the [health] and [drive]\n"
	      "sections of CONF, else the defaults) and the health record held in\n"
	      "FILE: a capture (file or directory), a libatasmart blob, smartctl\n"
	      "JSON, a `smartctl -r ioctl,2` trace, or with --type a raw page: hex\n"
	      "text, binary, or a libscsicmd-style CSV line \",CDB,,RESPONSE\" (the\n"
	      "response column is decoded).\n"
	      "\n"
	      "TYPE, a page or log wearwatch decodes:\n", f);
	for (size_t i = 0; i < ww_n_decoders; i++)
		fprintf(f, "  %-24s %s\n", ww_decoders[i].name, ww_decoders[i].title);
	fputs("\n"
	      "exit status: 0 decoded, 1 a capture of a drive left alone (standby),\n"
	      "             2 usage error, 3 not decodable\n", f);
}

/* "too short" for a raw page, saying how long the page should be */
static void too_short(const char *file, const char *what, const ww_decoder_t *type)
{
	fprintf(stderr, "wearwatch: decoding %s (%s): %zu bytes of page data, too short for a "
			"%s page (", file, what, raw_len, type->name);
	if (type->len)
		fprintf(stderr, "%s is %zu bytes", type->title, type->len);
	else
		fprintf(stderr, "%s: its header gives its length", type->title);
	fputs("); is FILE hex text, binary or a \",CDB,,RESPONSE\" CSV line?\n", stderr);
}

int ww_cli_decode(int argc, char **argv)
{
	const char *file = NULL, *tname = NULL, *what = "", *config = NULL;
	const ww_decoder_t *type = NULL;
	bool json = false;
	ww_drive_t d;
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_read_report_t *r = calloc(1, sizeof(*r));
	ww_verdict_t *v = NULL;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage_decode(stdout);
			free(h);
			free(r);
			return 0;
		}
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--type") && i + 1 < argc)
			tname = argv[++i];
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config = argv[++i];
		else if (!file)
			file = argv[i];
	}
	if (!file || !h || !r) {
		usage_decode(stderr);
		free(h);
		free(r);
		return 2;
	}
	if (tname && !(type = ww_decoder_by_name(tname))) {
		fprintf(stderr, "wearwatch: unknown --type '%s'; valid types: ", tname);
		print_type_names(stderr);
		fputc('\n', stderr);
		free(h);
		free(r);
		return 2;
	}
	h->scsi.protocol_id = 0xff;
	rc = decode_file(file, type, &d, h, r, &what);
	if (d.protocol == WW_PROTO_NONE)
		d.protocol = h->protocol; /* no sysfs here: rotational stays unknown */
	if (rc == -EIO && !strcmp(what, "smartctl JSON")) {
		free(h);
		free(r);
		return 3; /* said why above */
	}
	if (rc < 0 && rc != -ENODATA && rc != -ENOTSUP) {
		if (type && rc == -EMSGSIZE)
			too_short(file, what, type);
		else if (type && rc == -EINVAL)
			fprintf(stderr, "wearwatch: decoding %s: not a valid %s page\n", file,
				type->name);
		else
			fprintf(stderr, "wearwatch: decoding %s (%s): %s\n", file, what,
				strerror(-rc));
		free(h);
		free(r);
		return 3;
	}
	/* one read, as the service would judge it (no history: no increases) */
	v = calloc(1, sizeof(*v));
	if (!v || ww_cli_verdict(config, &d, h, rc == -ENOTSUP ? 0 : rc, v) == -EINVAL) {
		free(h);
		free(r);
		free(v);
		return 2;
	}
	if (json) {
		char *js = ww_json_render_health(&d, h, r, v);

		if (js)
			puts(js);
		free(js);
	} else {
		printf("# %s: %s\n", file, what);
		ww_text_render_health(stdout, &d, h, r, v);
	}
	free(h);
	free(r);
	free(v);
	return rc == 1 ? 1 : 0;
}
