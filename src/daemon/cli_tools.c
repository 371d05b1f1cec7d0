/* `wearwatch capture`, `decode` and `verify` (issue 7): thin CLI over
 * src/collect/replay_drive.h, the saved-input loaders and the smartctl
 * backend. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collect/ata_blob.h"
#include "collect/ioctl_trace.h"
#include "collect/replay_drive.h"
#include "collect/smartctl.h"
#include "daemon/cli_tools.h"
#include "decode/ata.h"
#include "decode/nvme.h"
#include "decode/scsi.h"
#include "wearwatch/expo.h"

#define WW_TOOLS_MAX_DRIVES 256

static const ww_drive_t *find(ww_drive_t *d, int n, const char *want)
{
	const char *base = strrchr(want, '/');

	for (int i = 0; i < n; i++)
		if (!strcmp(want, d[i].id) || !strcmp(want, d[i].block) ||
		    !strcmp(want, d[i].dev_path) || !strcmp(want, d[i].cmd_path) ||
		    (base && !strcmp(base + 1, d[i].id)))
			return &d[i];
	return NULL;
}

static const ww_drive_t *lookup(const char *want, ww_drive_t **all)
{
	int n;

	*all = calloc(WW_TOOLS_MAX_DRIVES, sizeof(ww_drive_t));
	if (!*all)
		return NULL;
	n = ww_discover("", NULL, *all, WW_TOOLS_MAX_DRIVES);
	return n > 0 ? find(*all, n, want) : NULL;
}

int ww_cli_capture(int argc, char **argv)
{
	const char *dev = NULL, *dir = NULL;
	bool redact = false;
	ww_drive_t *all = NULL;
	const ww_drive_t *d;
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_read_report_t *r = calloc(1, sizeof(*r));
	char path[512];
	int ret;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--redact"))
			redact = true;
		else if (!dev)
			dev = argv[i];
		else if (!dir)
			dir = argv[i];
	}
	if (!dev || !dir || !h || !r) {
		fputs("usage: wearwatch capture DEVICE DIR [--redact]\n"
		      "  records, read-only, every command a normal read sends and what came\n"
		      "  back into DIR/<drive-id>.capture (docs/capture-format.md)\n", stderr);
		free(h);
		free(r);
		return 2;
	}
	d = lookup(dev, &all);
	if (!d) {
		fprintf(stderr, "wearwatch: no drive matches '%s'\n", dev);
		free(all);
		free(h);
		free(r);
		return 2;
	}
	ret = ww_capture_drive("", d, dir, redact, path, h, r);
	printf("%s: %zu commands recorded in %s%s\n", d->id, r->n_cmds, path,
	       ret == 1 ? " (drive left alone: standby/suspended)" : "");
	if (ret < 0)
		fprintf(stderr, "wearwatch: reading %s: %s\n", d->id, strerror(-ret));
	free(all);
	free(h);
	free(r);
	return ret < 0 ? 3 : 0;
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

static int decode_file(const char *file, const char *type, ww_drive_t *d,
		       ww_health_t *h, ww_read_report_t *r, const char **what)
{
	struct stat sb;
	uint8_t *buf = NULL;
	size_t n = 0;
	FILE *f;
	int rc;

	memset(d, 0, sizeof(*d));
	snprintf(d->id, sizeof(d->id), "%s", file);
	if (stat(file, &sb) < 0)
		return -errno;
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
	if (type) {
		*what = type;
		n = maybe_unhex(buf, n);
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
		fprintf(stderr, "wearwatch: %s: not a capture, blob, trace or smartctl JSON; "
				"give --type for a raw page\n", file);
	}
	free(buf);
	return rc;
}

int ww_cli_decode(int argc, char **argv)
{
	const char *file = NULL, *type = NULL, *what = "";
	bool json = false;
	ww_drive_t d;
	ww_health_t *h = calloc(1, sizeof(*h));
	ww_read_report_t *r = calloc(1, sizeof(*r));
	int rc;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--type") && i + 1 < argc)
			type = argv[++i];
		else if (!file)
			file = argv[i];
	}
	if (!file || !h || !r) {
		fputs("usage: wearwatch decode FILE [--json] [--type nvme-smart|ata-smart|ata-devstat|scsi-log]\n"
		      "  FILE: a capture (file or directory), a libatasmart blob, smartctl JSON,\n"
		      "  a smartctl -r ioctl,2 trace, or a raw page in hex or binary (--type)\n", stderr);
		free(h);
		free(r);
		return 2;
	}
	h->scsi.protocol_id = 0xff;
	rc = decode_file(file, type, &d, h, r, &what);
	if (d.protocol == WW_PROTO_NONE) {
		d.protocol = h->protocol;
		d.rotational = h->rotation_rate_rpm.value > 1;
	}
	if (rc < 0 && rc != -ENODATA && rc != -ENOTSUP) {
		fprintf(stderr, "wearwatch: decoding %s (%s): %s\n", file, what, strerror(-rc));
		free(h);
		free(r);
		return 3;
	}
	if (json) {
		char *js = ww_json_render_health(&d, h, r);

		if (js)
			puts(js);
		free(js);
	} else {
		printf("# %s: %s\n", file, what);
		ww_text_render_health(stdout, &d, h, r);
	}
	free(h);
	free(r);
	return rc == 1 ? 1 : 0;
}
