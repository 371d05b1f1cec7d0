/* `wearwatch decode FILE`: the health record of saved input (a capture, a
 * libatasmart blob, a smartctl JSON or `-r ioctl` trace, a raw page as hex or
 * binary, a libscsicmd CSV line), each raw page through its decoder registry
 * row. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wearwatch/basic.h"
#include "wearwatch/collect.h"
#include "cli/cli.h"
#include "wearwatch/decode.h"
#include "wearwatch/expo.h"

#include <json-c/json.h>

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
	/* the CDB column is hex bytes only: one-line JSON (smartctl --json=c,
	 * jq -c) has commas too, and its second "column" is no CDB */
	for (p = col[1]; k == 4 && *p != ','; p++)
		if (!isxdigit((unsigned char)*p) && *p != ' ')
			return false;
	if (k < 4 || *line == '{' || sscanf(col[1], "%2x", opcode) != 1)
		return false;
	for (p = col[3]; *p && *p != '\n' && *p != ','; p++)
		;
	*n = (size_t)(p - col[3]);
	memmove(buf, col[3], *n);
	buf[*n] = '\0';
	return true;
}

/* One thing decoded: a file, or one capture of a directory. */
struct dec {
	const char *file; /* the file the record came from */
	const char *what; /* what it was taken for: "capture", "smartctl JSON", ... */
	bool said;        /* why it failed is printed already */
	time_t at;        /* when the read was taken (smartctl's local_time), 0 = unknown */
	ww_drive_t d;
	ww_health_t *h;
	ww_read_report_t *r;
};

/* What smartctl's JSON says of the drive's transport: NVMe by its protocol
 * or -d type (device.protocol "NVMe", device.type "nvme"); else unknown. */
static ww_transport_t smartctl_transport(const ww_smartctl_info_t *info)
{
	if (!strcmp(info->protocol, "NVMe") || !strncmp(info->device_type, "nvme", 4))
		return WW_TRANSPORT_NVME;
	return WW_TRANSPORT_OTHER;
}

/* A smartctl JSON document: smartctl's own (its "smartctl" object), one
 * drive's (not a --scan list), and a reading by its exit status (bits 0-1:
 * no, smartctl says why in its messages; bit 2: partial, in the report) */
static int smartctl_json(struct dec *x, uint8_t *buf, size_t n)
{
	ww_smartctl_info_t info;
	char why[256];
	int rc = ww_smartctl_parse((char *)buf, n, x->h, &info);

	x->said = true;
	x->at = info.local_time;
	if (rc == -EINVAL || (rc != -ENOMEM && !info.smartctl_json)) {
		fprintf(stderr,
			"wearwatch: %s: not smartctl JSON (%s); decode reads what "
			"`smartctl -j` prints for one drive\n",
			x->file,
			rc == -EINVAL
				? "not a JSON object"
				: "no top-level \"smartctl\" object with \"version\" and \"exit_status\"");
		return -EINVAL;
	}
	if (info.standby) {
		/* smartctl -n standby left the drive alone: what the service
		 * does too, not a failed read */
		x->said = false;
		x->r->standby = true;
		x->d.from_capture = true; /* the file has no time: "when captured" */
		x->d.transport = smartctl_transport(&info);
		return 1;
	}
	if (info.device_list) {
		fprintf(stderr,
			"wearwatch: %s: a `smartctl --scan` device list, not one drive's "
			"smartctl JSON\n",
			x->file);
		return -EINVAL;
	}
	if (ww_smartctl_read_class(info.exit_status, false) == WW_SMARTCTL_READ_FAILED &&
	    (rc == -EIO || rc == -ENODATA)) {
		fprintf(stderr,
			"wearwatch: %s: smartctl exit status %d (%s): the read failed, "
			"nothing in it is a reading%s%s\n",
			x->file, info.exit_status,
			ww_smartctl_exit_explain(info.exit_status, why, sizeof(why)),
			*info.message ? "; smartctl said: " : "", info.message);
		return -EIO;
	}
	if (rc == -ENODATA) {
		fprintf(stderr, "wearwatch: %s: smartctl JSON that describes no drive\n", x->file);
		return -ENODATA;
	}
	x->said = false;
	x->d.transport = smartctl_transport(&info);
	if (rc == 0 && ww_smartctl_read_class(info.exit_status, false) == WW_SMARTCTL_READ_PARTIAL)
		x->r->partial = WW_SMARTCTL_PARTIAL_WHY;
	return rc;
}

/* A file's bytes: a CSV line, a raw page of `type`, or what the content
 * says (libatasmart blob, ioctl trace, smartctl JSON). */
static int decode_bytes(struct dec *x, uint8_t *buf, size_t n, const ww_decoder_t *type)
{
	unsigned opcode;

	if (csv_response(buf, &n, &opcode)) {
		/* LOG SENSE (SPC-4 6.6): the response is a log page */
		if (!type && opcode == 0x4d)
			type = ww_decoder_find(WW_DEC_SCSI_LOG, WW_DEC_ANY, WW_DEC_ANY);
		if (!type) {
			fprintf(stderr,
				"wearwatch: %s: a CSV command line (CDB opcode 0x%02x); "
				"give --type for its response column\n",
				x->file, opcode);
			x->what = "CSV line";
			x->said = true;
			return -EINVAL;
		}
	}
	if (type) {
		x->what = type->name;
		n = maybe_unhex(buf, n);
		raw_len = n;
		return raw_page(type, buf, n, x->h);
	}
	if (n >= 4 && !memcmp(buf, "IDFY", 4)) {
		x->what = "libatasmart blob";
		return ww_ata_blob_load(buf, n, x->h);
	}
	if (memmem(buf, n, "DATA START (BASE-16)", 20)) {
		x->what = "smartctl -r ioctl,2 trace";
		return ww_ioctl_trace_load((char *)buf, n, x->h);
	}
	if (n && (buf[strspn((char *)buf, " \t\r\n")] == '{')) {
		x->what = "smartctl JSON";
		return smartctl_json(x, buf, n);
	}
	x->what = "unknown";
	x->said = true;
	fprintf(stderr,
		"wearwatch: %s: not a capture, libatasmart blob, smartctl -r "
		"ioctl,2 trace or smartctl JSON; for a raw page give --type (",
		x->file);
	print_type_names(stderr);
	fputs(")\n", stderr);
	return -EINVAL;
}

/* A file that is not a capture (sb: its stat) */
static int decode_file(struct dec *x, const struct stat *sb, const ww_decoder_t *type)
{
	uint8_t *buf;
	size_t n = 0;
	FILE *f;
	int rc;

	f = ww_fopen_regular(x->file);
	if (!f)
		return -errno;
	buf = malloc((size_t)sb->st_size + 1);
	if (buf)
		n = fread(buf, 1, (size_t)sb->st_size, f);
	fclose(f);
	if (!buf)
		return -ENOMEM;
	buf[n] = '\0';
	rc = decode_bytes(x, buf, n, type);
	free(buf);
	return rc;
}

static void usage_decode(FILE *f)
{
	fputs("usage: wearwatch decode FILE|DIR [--json] [--config CONF] [--type TYPE]\n"
	      "\n"
	      "Prints the health verdict (thresholds from the [health] and [drive]\n"
	      "sections of CONF, else the defaults) and the health record held in\n"
	      "FILE: a capture, a libatasmart blob, smartctl JSON (`smartctl -j` of one\n"
	      "drive), a `smartctl -r ioctl,2` trace, or with --type a raw page: hex\n"
	      "text, binary, or a libscsicmd-style CSV line \",CDB,,RESPONSE\" (the\n"
	      "response column is decoded). DIR: every capture in it and its\n"
	      "subdirectories, one block per drive (--json: an array).\n"
	      "\n"
	      "TYPE, a page or log wearwatch decodes (raw pages only, not captures):\n",
	      f);
	for (size_t i = 0; i < ww_n_decoders; i++)
		fprintf(f, "  %-24s %s\n", ww_decoders[i].name, ww_decoders[i].title);
	fputs("\n"
	      "exit status: 0 decoded, 1 a capture of a drive left alone (standby),\n"
	      "             2 usage error, 3 not decodable, 4 a capture of a drive with\n"
	      "             no health interface (as `show` on it); for DIR the highest\n"
	      "             of its captures'\n",
	      f);
}

/* "too short" for a raw page, saying how long the page should be */
static void too_short(const char *file, const ww_decoder_t *type)
{
	fprintf(stderr,
		"wearwatch: decoding %s (%s): %zu bytes of page data, too short for a "
		"%s page (",
		file, type->name, raw_len, type->name);
	if (type->len)
		fprintf(stderr, "%s is %zu bytes", type->title, type->len);
	else
		fprintf(stderr, "%s: its header gives its length", type->title);
	fputs("); is FILE hex text, binary or a \",CDB,,RESPONSE\" CSV line?\n", stderr);
}

/* Why x did not decode (rc < 0), unless said already. */
static void say_failure(const struct dec *x, const ww_decoder_t *type, int rc)
{
	if (x->said)
		return;
	if (type && rc == -EMSGSIZE)
		too_short(x->file, type);
	else if (type && rc == -EINVAL)
		fprintf(stderr, "wearwatch: decoding %s: not a valid %s page\n", x->file,
			type->name);
	else if (x->what)
		fprintf(stderr, "wearwatch: decoding %s (%s): %s\n", x->file, x->what,
			strerror(-rc));
	else
		fprintf(stderr, "wearwatch: %s: %s\n", x->file, strerror(-rc));
}

/* x's record with the verdict of one read, as the service would judge it
 * (no history: no increases); into out when it is an array (--json of a
 * directory), else printed. Returns the exit status of x. */
static int judge(struct dec *x, int rc, const ww_decoder_t *type, const char *config, bool json,
		 json_object *out)
{
	/* a drive recorded with no health interface: nothing was read */
	bool no_iface = rc == -EOPNOTSUPP && x->d.protocol == WW_PROTO_NONE && *x->d.block;
	ww_verdict_t *v;
	ww_endurance_t *e;
	bool has_e = false;
	int code;

	if (x->d.protocol == WW_PROTO_NONE && !no_iface)
		x->d.protocol = x->h->protocol; /* no sysfs here: rotational stays unknown */
	if (rc < 0 && rc != -ENODATA && rc != -ENOTSUP) {
		say_failure(x, type, rc);
		return 3;
	}
	v = calloc(1, sizeof(*v));
	e = calloc(1, sizeof(*e));
	if (!v || !e ||
	    ww_cli_verdict(config, &x->d, x->h, no_iface || rc != -ENOTSUP ? rc : 0, x->at, v, e,
			   &has_e) == -EINVAL) {
		free(v);
		free(e);
		return 2;
	}
	if (json) {
		char *js = ww_json_render_health(&x->d, x->h, x->r, v, has_e ? e : NULL);

		if (js && out)
			json_object_array_add(out, json_tokener_parse(js));
		else if (js)
			puts(js);
		free(js);
	} else {
		char when[32] = "";

		if (x->at > 0) {
			struct tm tm;

			gmtime_r(&x->at, &tm);
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
		}
		/* projections count from the read, not from today */
		printf("# %s: %s%s%s%s\n", x->file, x->what, *when ? ", taken " : "", when,
		       *when ? " (dates projected from then)" : "");
		ww_text_render_health(stdout, &x->d, x->h, x->r, v, has_e ? e : NULL);
	}
	free(v);
	free(e);
	code = rc == 1 ? 1 : 0;
	if (no_iface) {
		ww_cli_say_no_health(&x->d);
		code = WW_EXIT_NO_HEALTH;
	}
	return code;
}

/* Every capture below dir, in ww_replay_add's order: one block each (one
 * array for --json). Returns the highest exit status. */
static int decode_dir(const char *dir, struct dec *x, const char *config, bool json)
{
	json_object *arr = json ? json_object_new_array() : NULL;
	ww_drive_t *all = NULL;
	int n, worst = 0, rc;

	if ((n = ww_replay_add(dir)) > 0)
		n = ww_replay_discover("", NULL, &all);
	if (n <= 0) {
		fprintf(stderr, "wearwatch: %s: no *.capture files in it or its subdirectories\n",
			dir);
		free(all);
		json_object_put(arr);
		return 3;
	}
	for (int i = 0; i < n; i++) {
		x->d = all[i];
		x->file = ww_replay_file(all[i].id);
		x->what = "capture";
		x->said = false;
		rc = ww_replay_collect_fn("", &x->d, x->h, x->r);
		rc = judge(x, rc, NULL, config, json, arr);
		if (rc > worst)
			worst = rc;
	}
	if (arr)
		puts(json_object_to_json_string_ext(
			arr, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(arr);
	free(all);
	return worst;
}

/* one file or directory: its exit status */
static int decode_path(struct dec *x, const ww_decoder_t *type, const char *config, bool json)
{
	struct stat sb;
	int rc;

	if (stat(x->file, &sb) < 0) {
		fprintf(stderr, "wearwatch: %s: %s\n", x->file, strerror(errno));
		return 3;
	}
	/* a FIFO or device would block or never end: files and directories only */
	if (!S_ISDIR(sb.st_mode) && !S_ISREG(sb.st_mode)) {
		fprintf(stderr, "wearwatch: %s: not a file or directory\n", x->file);
		return 3;
	}
	if (type && (S_ISDIR(sb.st_mode) || strstr(x->file, ".capture"))) {
		fprintf(stderr, "wearwatch: --type is for raw pages, not captures: %s is %s\n",
			x->file, S_ISDIR(sb.st_mode) ? "a directory of captures" : "a capture");
		return 2;
	}
	if (S_ISDIR(sb.st_mode))
		return decode_dir(x->file, x, config, json);
	if (strstr(x->file, ".capture")) {
		x->what = "capture";
		rc = ww_replay_load_drive(x->file, &x->d);
		if (rc == 0)
			rc = ww_replay_collect(x->file, &x->d, x->h, x->r);
	} else {
		snprintf(x->d.id, sizeof(x->d.id), "%s", x->file);
		rc = decode_file(x, &sb, type);
	}
	return judge(x, rc, type, config, json, NULL);
}

int ww_cli_decode(int argc, char **argv)
{
	const char *tname = NULL, *config = NULL;
	const ww_decoder_t *type = NULL;
	struct dec x = { 0 };
	bool json = false;
	int code = 2;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage_decode(stdout);
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
		else if (!x.file && (argv[i][0] != '-' || !argv[i][1]))
			x.file = argv[i];
		else {
			fprintf(stderr, "wearwatch decode: unexpected argument '%s' (one FILE)\n",
				argv[i]);
			return 2;
		}
	}
	if (!x.file) {
		usage_decode(stderr);
		return 2;
	}
	if (tname && !(type = ww_decoder_by_name(tname))) {
		fprintf(stderr, "wearwatch: unknown --type '%s'; valid types: ", tname);
		print_type_names(stderr);
		fputc('\n', stderr);
		return 2;
	}
	x.h = calloc(1, sizeof(*x.h));
	x.r = calloc(1, sizeof(*x.r));
	if (x.h && x.r) {
		x.h->scsi.protocol_id = 0xff;
		code = decode_path(&x, type, config, json);
	}
	free(x.h);
	free(x.r);
	return code;
}
