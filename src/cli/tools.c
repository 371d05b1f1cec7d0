/* `wearwatch capture`, `decode` and `verify` (issue 7): thin CLI over
 * src/collect/replay_drive.h, the saved-input loaders and the smartctl
 * backend. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wearwatch/collect.h"
#include "cli/cli.h"
#include "wearwatch/decode.h"
#include "wearwatch/expo.h"

static const char usage_capture[] =
	"usage: wearwatch capture DEVICE DIR [--redact] [--sysroot DIR]\n"
	"\n"
	"Records, read-only, every command a normal read sends and what came back\n"
	"into DIR/<drive-id>.capture (docs/capture-format.md). DEVICE as for\n"
	"`wearwatch show`. --redact replaces the serial number everywhere.\n"
	"\n"
	"exit status: 0 recorded (also when the drive was left alone in standby),\n"
	"             2 usage error or no such drive, 3 read failed,\n"
	"             4 no health interface (only the drive's facts recorded)\n";

int ww_cli_capture(int argc, char **argv)
{
	const char *dev = NULL, *dir = NULL, *sysroot = "";
	bool redact = false;
	ww_drive_t *all = NULL;
	const ww_drive_t *d;
	ww_health_t *h;
	ww_read_report_t *r;
	char path[512];
	int ret, err, code;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_capture, stdout);
			return 0;
		}
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--redact")) {
			redact = true;
		} else if (!strcmp(argv[i], "--sysroot") && i + 1 < argc) {
			sysroot = argv[++i];
		} else if (argv[i][0] != '-' && !dev) {
			dev = argv[i];
		} else if (argv[i][0] != '-' && !dir) {
			dir = argv[i];
		} else {
			fprintf(stderr, "wearwatch: unexpected argument '%s'\n%s", argv[i],
				usage_capture);
			return 2;
		}
	}
	if (!dev || !dir) {
		fputs(usage_capture, stderr);
		return 2;
	}
	d = ww_cli_lookup_drive(sysroot, dev, &all, &err);
	if (!d) {
		if (err)
			fprintf(stderr, "wearwatch: cannot list drives: %s\n", strerror(-err));
		else
			fprintf(stderr, "wearwatch: no drive matches '%s' (see `wearwatch scan`)\n",
				dev);
		free(all);
		return err ? 3 : 2;
	}
	h = calloc(1, sizeof(*h));
	r = calloc(1, sizeof(*r));
	if (!h || !r) {
		free(all);
		free(h);
		free(r);
		return 3;
	}
	ret = ww_capture_drive(sysroot, d, dir, redact, path, h, r);
	printf("%s: %zu commands recorded in %s%s\n", d->id, r->n_cmds, path,
	       ret == 1 ? " (drive left alone: standby/suspended)" : "");
	code = ret < 0 ? 3 : 0;
	if (ret < 0 && d->protocol == WW_PROTO_NONE) {
		fprintf(stderr, "wearwatch: %s: %s; only its facts were recorded\n", d->id,
			d->no_health_reason ? d->no_health_reason : "no health interface");
		code = 4;
	} else if (ret < 0) {
		fprintf(stderr, "wearwatch: reading %s: %s\n", d->id, strerror(-ret));
	}
	free(all);
	free(h);
	free(r);
	return code;
}

static int raw_page(const char *type, const uint8_t *b, size_t n, ww_health_t *h)
{
	int rc;

	if (!strcmp(type, "nvme-smart")) {
		rc = ww_decode_nvme_smart_log(b, n, h);
		h->protocol = WW_PROTO_NVME;
		return rc;
	}
	if (!strcmp(type, "ata-smart")) {
		rc = ww_decode_ata_smart_data(b, n, h);
		ww_ata_finish(h);
		return rc;
	}
	if (!strcmp(type, "ata-devstat")) {
		rc = ww_decode_ata_devstat(b, n, h);
		h->protocol = WW_PROTO_ATA;
		ww_ata_finish(h);
		return rc;
	}
	if (!strcmp(type, "scsi-log")) {
		rc = ww_decode_scsi_log_page(b, n, h);
		h->protocol = WW_PROTO_SCSI;
		ww_scsi_finish(h);
		return rc;
	}
	return -EINVAL;
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

static const char *const raw_types[] = { "nvme-smart", "ata-smart", "ata-devstat",
					 "scsi-log", NULL };

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

static int decode_file(const char *file, const char *type, ww_drive_t *d,
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
			ww_drive_t *all = calloc(1024, sizeof(*all));
			int k;

			if (!all || (k = ww_replay_add(file)) <= 0 ||
			    ww_replay_discover("", NULL, all, 1024) <= 0) {
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
			type = "scsi-log";
		if (!type) {
			fprintf(stderr, "wearwatch: %s: a CSV command line (CDB opcode 0x%02x); "
					"give --type for its response column\n", file, opcode);
			*what = "CSV line";
			free(buf);
			return -EINVAL;
		}
	}
	if (type) {
		*what = type;
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
		rc = ww_smartctl_parse((char *)buf, n, h, NULL);
	} else {
		*what = "unknown";
		rc = -EINVAL;
		fprintf(stderr, "wearwatch: %s: not a capture, libatasmart blob, smartctl -r "
				"ioctl,2 trace or smartctl JSON; for a raw page give --type "
				"(nvme-smart, ata-smart, ata-devstat, scsi-log)\n", file);
	}
	free(buf);
	return rc;
}

static const char usage_decode[] =
	"usage: wearwatch decode FILE [--json] [--config CONF]\n"
	"                        [--type nvme-smart|ata-smart|ata-devstat|scsi-log]\n"
	"\n"
	"Prints the health verdict (thresholds from the [health] and [drive]\n"
	"sections of CONF, else the defaults) and the health record held in FILE:\n"
	"a capture (file or directory), a\n"
	"libatasmart blob, smartctl JSON, a `smartctl -r ioctl,2` trace, or with\n"
	"--type a raw page: hex text, binary, or a libscsicmd-style CSV line\n"
	"\",CDB,,RESPONSE\" (the response column is decoded).\n"
	"\n"
	"exit status: 0 decoded, 1 a capture of a drive left alone (standby),\n"
	"             2 usage error, 3 not decodable\n";

int ww_cli_decode(int argc, char **argv)
{
	const char *file = NULL, *type = NULL, *what = "", *config = NULL;
	bool json = false;
	ww_drive_t d;
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_read_report_t *r = calloc(1, sizeof(*r));
	ww_verdict_t *v = NULL;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage_decode, stdout);
			free(h);
			free(r);
			return 0;
		}
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--type") && i + 1 < argc)
			type = argv[++i];
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config = argv[++i];
		else if (!file)
			file = argv[i];
	}
	if (!file || !h || !r) {
		fputs(usage_decode, stderr);
		free(h);
		free(r);
		return 2;
	}
	if (type) {
		size_t i;

		for (i = 0; raw_types[i] && strcmp(type, raw_types[i]); i++)
			;
		if (!raw_types[i]) {
			fprintf(stderr, "wearwatch: unknown --type '%s'; valid types: nvme-smart, "
					"ata-smart, ata-devstat, scsi-log\n", type);
			free(h);
			free(r);
			return 2;
		}
	}
	h->scsi.protocol_id = 0xff;
	rc = decode_file(file, type, &d, h, r, &what);
	if (d.protocol == WW_PROTO_NONE) {
		d.protocol = h->protocol;
		d.rotational = h->rotation_rate_rpm.value > 1;
	}
	if (rc < 0 && rc != -ENODATA && rc != -ENOTSUP) {
		if (type && rc == -EMSGSIZE)
			fprintf(stderr, "wearwatch: decoding %s (%s): %zu bytes of page data, too "
					"short for a %s page (NVMe SMART/Health and ATA pages are "
					"512 bytes; a SCSI log page is its 4-byte header plus the "
					"page length it gives); is FILE hex text, binary or a "
					"\",CDB,,RESPONSE\" CSV line?\n", file, what, raw_len, type);
		else if (type && rc == -EINVAL)
			fprintf(stderr, "wearwatch: decoding %s: not a valid %s page\n", file, type);
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
