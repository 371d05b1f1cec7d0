/* Drive discovery from sysfs and /dev/disk (see drive.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wearwatch/discover.h"

/* Truncating string copies without snprintf's truncation warnings. */
static void cat2(char *dst, size_t len, const char *a, const char *b)
{
	size_t la = strnlen(a, len - 1), lb = strnlen(b, len - 1 - la);

	memmove(dst, a, la);
	memcpy(dst + la, b, lb);
	dst[la + lb] = 0;
}
#define SCOPY(dst, src) cat2((dst), sizeof(dst), "", (src))

static bool starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* "sda1", "nvme0n1p2", "mmcblk0p1": a partition has a `partition` attribute. */
static bool is_partition(const char *root, const char *name)
{
	char p[PATH_MAX];

	if (ww_sysfs_path(p, sizeof(p), root, "/sys/block/%s/partition", name))
		return false;
	return access(p, F_OK) == 0;
}

static bool skipped_by_name(const char *name)
{
	static const char *const skip[] = { "loop", "ram", "zram", "dm-", "md",
					    "sr", "nbd", "fd", NULL }; /* fd: floppy */

	for (const char *const *s = skip; *s; s++)
		if (starts(name, *s))
			return true;
	return false;
}

static bool included(const char *const *include, const char *name)
{
	for (; include && *include; include++)
		if (!strcmp(*include, name))
			return true;
	return false;
}

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	while (isspace((unsigned char)s[i]))
		i++;
	if (i)
		memmove(s, s + i, n - i + 1);
}

/* Copy n bytes of space-padded ASCII, trimmed. */
static void copy_padded(char *dst, size_t dlen, const char *src, size_t n)
{
	if (n >= dlen)
		n = dlen - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
	trim(dst);
}

/* What udev does to ID_SERIAL before making a by-id name: whitespace runs
 * become one '_', characters outside its safe set become '_'. */
static void udev_safe(char *dst, size_t len, const char *src)
{
	size_t o = 0;
	bool ws = false;

	while (isspace((unsigned char)*src))
		src++;
	for (; *src && o + 1 < len; src++) {
		unsigned char c = (unsigned char)*src;

		if (isspace(c)) {
			ws = true;
			continue;
		}
		if (ws && o + 1 < len)
			dst[o++] = '_';
		ws = false;
		if (o + 1 >= len)
			break;
		dst[o++] = (isalnum(c) || strchr("#+-.:=@_", c) || c >= 0x80) ? (char)c : '_';
	}
	dst[o] = 0;
}

static int read_attr(const char *root, char *buf, size_t len, const char *name,
		     const char *attr)
{
	char p[PATH_MAX];

	buf[0] = 0;
	if (ww_sysfs_path(p, sizeof(p), root, "/sys/block/%s/%s", name, attr))
		return -ENAMETOOLONG;
	int n = ww_sysfs_read(p, buf, len);
	if (n < 0)
		buf[0] = 0;
	else
		trim(buf);
	return n;
}

static uint64_t read_attr_u64(const char *root, const char *name, const char *attr)
{
	char p[PATH_MAX];
	uint64_t v = 0;

	if (ww_sysfs_path(p, sizeof(p), root, "/sys/block/%s/%s", name, attr))
		return 0;
	if (ww_sysfs_read_u64(p, &v))
		return 0;
	return v;
}

/* Binary VPD page as exposed in device/vpd_pgXX. Returns bytes read or -errno. */
static ssize_t read_vpd(const char *root, const char *name, const char *page,
			uint8_t *buf, size_t len)
{
	char p[PATH_MAX];
	ssize_t n;
	int fd;

	if (ww_sysfs_path(p, sizeof(p), root, "/sys/block/%s/device/%s", name, page))
		return -ENAMETOOLONG;
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n;
}

/* VPD 0x80: unit serial number, bytes 4.. (length in byte 3). */
static void serial_from_vpd80(const char *root, const char *name, char *out, size_t len)
{
	uint8_t b[256];
	ssize_t n = read_vpd(root, name, "vpd_pg80", b, sizeof(b));

	if (n < 4 || b[1] != 0x80)
		return;
	size_t l = b[3];
	if (l > (size_t)n - 4)
		l = (size_t)n - 4;
	copy_padded(out, len, (const char *)b + 4, l);
}

/* VPD 0x83: libata's SAT "T10 vendor ID" designator is "ATA     " + the full
 * 40-byte model + 20-byte serial (SAT-5 10.4.3.3); INQUIRY's product field
 * keeps only 16 bytes of the model. */
static bool ata_ident_from_vpd83(const char *root, const char *name, char *model,
				 size_t mlen, char *serial, size_t slen)
{
	uint8_t b[1024];
	ssize_t n = read_vpd(root, name, "vpd_pg83", b, sizeof(b));

	if (n < 4 || b[1] != 0x83)
		return false;
	size_t end = 4 + ((size_t)b[2] << 8 | b[3]);
	if (end > (size_t)n)
		end = (size_t)n;
	for (size_t o = 4; o + 4 <= end;) {
		size_t dl = b[o + 3];

		if (o + 4 + dl > end)
			break;
		if ((b[o + 1] & 0x0f) == 1 && dl >= 68 &&
		    !memcmp(b + o + 4, "ATA     ", 8)) {
			copy_padded(model, mlen, (const char *)b + o + 12, 40);
			copy_padded(serial, slen, (const char *)b + o + 52, 20);
			return true;
		}
		o += 4 + dl;
	}
	return false;
}

/* VPD 0x83 as the kernel cached it at scan time (reading it sends no
 * command): the PROTOCOL IDENTIFIER of the first designator with PIV = 1 and
 * association target port or target device (SPC-5 Device Identification VPD
 * page; 6 = SAS), else -1. Lets a SAS device without a sysfs SAS transport
 * class (scsi_debug, some HBAs) be named SAS before any read. */
static int protocol_from_vpd83(const char *root, const char *name)
{
	uint8_t b[1024];
	ssize_t n = read_vpd(root, name, "vpd_pg83", b, sizeof(b));

	if (n < 4 || b[1] != 0x83)
		return -1;
	size_t end = 4 + ((size_t)b[2] << 8 | b[3]);
	if (end > (size_t)n)
		end = (size_t)n;
	for (size_t o = 4; o + 4 <= end;) {
		uint8_t assoc = (b[o + 1] >> 4) & 3;

		if (o + 4 + b[o + 3] > end)
			break;
		if ((b[o + 1] & 0x80) && (assoc == 1 || assoc == 2))
			return b[o] >> 4;
		o += 4 + (size_t)b[o + 3];
	}
	return -1;
}

/* Resolved /sys/devices/... path of a block device, sysroot removed. */
static void resolve_sysfs(const char *root, const char *name, char *out, size_t len)
{
	char p[PATH_MAX], rp[PATH_MAX], rsys[PATH_MAX];

	out[0] = 0;
	if (ww_sysfs_path(p, sizeof(p), root, "/sys/block/%s", name) || !realpath(p, rp))
		return;
	if (ww_sysfs_path(p, sizeof(p), root, "/sys") || !realpath(p, rsys))
		return;
	size_t rl = strlen(rsys);
	if (!strncmp(rp, rsys, rl) && rp[rl] == '/')
		cat2(out, len, "/sys", rp + rl);
}

/* Basename of a symlink's target, or "" */
static void link_base(const char *path, char *out, size_t len)
{
	char t[PATH_MAX];
	ssize_t n = readlink(path, t, sizeof(t) - 1);

	out[0] = 0;
	if (n <= 0)
		return;
	t[n] = 0;
	const char *b = strrchr(t, '/');
	cat2(out, len, "", b ? b + 1 : t);
}

/* Rank of a by-id name; lower is preferred. */
static int id_rank(const char *id)
{
	if (starts(id, "wwn-0x"))
		return 0;
	if (starts(id, "nvme-eui."))
		return 1;
	if (starts(id, "ata-"))
		return 2;
	if (starts(id, "scsi-"))
		return 3;
	if (starts(id, "nvme-"))
		return 4;
	if (starts(id, "dev-") || !*id)
		return 9;
	return 5;
}

/* Best /dev/disk/<dir> entry pointing at block `name`. Returns 0, -ENOENT
 * when none, -errno when the directory cannot be read. */
static int dev_disk_link(const char *root, const char *dir, const char *name,
			 bool rank, char *out, size_t len)
{
	char p[PATH_MAX], lp[PATH_MAX], tgt[64];
	struct dirent **ents;
	int n, best = 100, ret = -ENOENT;

	if (ww_sysfs_path(p, sizeof(p), root, "/dev/disk/%s", dir))
		return -ENAMETOOLONG;
	n = scandir(p, &ents, NULL, alphasort);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		const char *e = ents[i]->d_name;

		if (e[0] == '.' || (size_t)snprintf(lp, sizeof(lp), "%s/%s", p, e) >= sizeof(lp))
			continue;
		link_base(lp, tgt, sizeof(tgt));
		if (strcmp(tgt, name))
			continue;
		int r = rank ? id_rank(e) : 0;
		if (r < best) {
			best = r;
			cat2(out, len, "", e);
			ret = 0;
		}
	}
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return ret;
}

/* The by-id name udev would make, from sysfs alone (no udev in the VM). */
static void build_id(ww_drive_t *d)
{
	char a[72], b[72];

	if (starts(d->sysfs_wwn, "naa.")) {
		cat2(d->id, sizeof(d->id), "wwn-0x", d->sysfs_wwn + 4);
		return;
	}
	if (d->protocol == WW_PROTO_NVME || d->transport == WW_TRANSPORT_NVME) {
		if (starts(d->sysfs_wwn, "eui.")) {
			cat2(d->id, sizeof(d->id), "nvme-", d->sysfs_wwn);
			return;
		}
		if (*d->sysfs_model && *d->sysfs_serial) {
			udev_safe(a, sizeof(a), d->sysfs_model);
			udev_safe(b, sizeof(b), d->sysfs_serial);
			snprintf(d->id, sizeof(d->id), "nvme-%s_%s", a, b);
			return;
		}
		if (*d->sysfs_wwn) {
			cat2(d->id, sizeof(d->id), "nvme-", d->sysfs_wwn);
			return;
		}
	}
	if (!strcmp(d->sysfs_vendor, "ATA") && *d->sysfs_model && *d->sysfs_serial) {
		udev_safe(a, sizeof(a), d->sysfs_model);
		udev_safe(b, sizeof(b), d->sysfs_serial);
		snprintf(d->id, sizeof(d->id), "ata-%s_%s", a, b);
		return;
	}
	cat2(d->id, sizeof(d->id), "dev-", d->block);
}

/* "8.0 GT/s PCIe" (or "2.5 GT/s") to transfers per second; 0 for
 * "Unknown" and anything else */
static uint64_t pcie_transfers(const char *s)
{
	unsigned long whole = 0, frac = 0, scale = 1;
	char *end;

	whole = strtoul(s, &end, 10);
	if (end == s)
		return 0;
	if (*end == '.') {
		const char *f = end + 1;

		frac = strtoul(f, &end, 10);
		for (const char *c = f; c < end; c++)
			scale *= 10;
	}
	if (strncmp(end, " GT/s", 5))
		return 0;
	return (uint64_t)whole * 1000000000ull + (uint64_t)frac * (1000000000ull / scale);
}

/* The PCIe link of an NVMe controller: attributes of its PCI device
 * (/sys/block/NAME/device/device/...), plain sysfs files the PCI core fills
 * from the link status registers; no command reaches the drive. */
static void pcie_link(const char *root, const char *name, ww_drive_t *d)
{
	char v[64];

	if (read_attr(root, v, sizeof(v), name, "device/device/current_link_speed") > 0)
		d->pcie_cur_transfers = pcie_transfers(v);
	if (read_attr(root, v, sizeof(v), name, "device/device/max_link_speed") > 0)
		d->pcie_max_transfers = pcie_transfers(v);
	if (read_attr(root, v, sizeof(v), name, "device/device/current_link_width") > 0)
		d->pcie_cur_width = (uint8_t)strtoul(v, NULL, 10);
	if (read_attr(root, v, sizeof(v), name, "device/device/max_link_width") > 0)
		d->pcie_max_width = (uint8_t)strtoul(v, NULL, 10);
}

static void probe_nvme(const char *root, const char *name, ww_drive_t *d)
{
	char p[PATH_MAX], ctrl[64];

	if (!ww_sysfs_path(p, sizeof(p), root, "/sys/block/%s/device", name))
		link_base(p, ctrl, sizeof(ctrl));
	else
		ctrl[0] = 0;
	if (!starts(ctrl, "nvme") || starts(ctrl, "nvme-subsys")) {
		/* multipath head or no link: nvme<C>n<N> names the controller */
		size_t i = 4;
		while (isdigit((unsigned char)name[i]))
			i++;
		snprintf(ctrl, sizeof(ctrl), "%.*s", (int)i, name);
	}
	SCOPY(d->ctrl, ctrl);
	cat2(d->cmd_path, sizeof(d->cmd_path), "/dev/", ctrl);
	d->transport = WW_TRANSPORT_NVME;
	d->protocol = WW_PROTO_NVME;
	read_attr(root, d->sysfs_model, sizeof(d->sysfs_model), name, "device/model");
	read_attr(root, d->sysfs_serial, sizeof(d->sysfs_serial), name, "device/serial");
	read_attr(root, d->sysfs_firmware, sizeof(d->sysfs_firmware), name,
		  "device/firmware_rev");
	read_attr(root, d->sysfs_wwn, sizeof(d->sysfs_wwn), name, "wwid");
	pcie_link(root, name, d);
	SCOPY(d->namespaces[0], name);
	d->n_namespaces = 1;
}

static void probe_other(const char *root, const char *name, ww_drive_t *d)
{
	const char *sp = d->sysfs_path;
	char p[PATH_MAX], sg[64];
	bool sd = starts(name, "sd");

	read_attr(root, d->sysfs_vendor, sizeof(d->sysfs_vendor), name, "device/vendor");
	read_attr(root, d->sysfs_model, sizeof(d->sysfs_model), name, "device/model");
	read_attr(root, d->sysfs_firmware, sizeof(d->sysfs_firmware), name, "device/rev");
	if (read_attr(root, d->sysfs_wwn, sizeof(d->sysfs_wwn), name, "device/wwid") < 0)
		read_attr(root, d->sysfs_wwn, sizeof(d->sysfs_wwn), name, "wwid");
	if (read_attr(root, d->sysfs_serial, sizeof(d->sysfs_serial), name, "device/serial") < 0)
		serial_from_vpd80(root, name, d->sysfs_serial, sizeof(d->sysfs_serial));
	if (!*d->sysfs_serial)
		read_attr(root, d->sysfs_serial, sizeof(d->sysfs_serial), name, "serial");

	if (starts(name, "vd") || strstr(sp, "/virtio")) {
		d->transport = WW_TRANSPORT_VIRTIO;
		d->sysfs_vendor[0] = 0; /* virtio's vendor attr is a PCI id */
	} else if (strstr(sp, "/usb")) {
		d->transport = WW_TRANSPORT_USB;
	} else if (!strcmp(d->sysfs_vendor, "ATA") || strstr(sp, "/ata")) {
		d->transport = WW_TRANSPORT_SATA;
	} else if (strstr(sp, "/end_device-") || strstr(sp, "/expander-") ||
		   protocol_from_vpd83(root, name) == 6) {
		d->transport = WW_TRANSPORT_SAS; /* SPC-5: protocol identifier 6h = SAS */
	} else {
		d->transport = WW_TRANSPORT_OTHER;
	}

	if (!strcmp(d->sysfs_vendor, "ATA")) {
		char m[64] = "", s[64] = "";

		if (ata_ident_from_vpd83(root, name, m, sizeof(m), s, sizeof(s))) {
			if (*m)
				SCOPY(d->sysfs_model, m);
			if (*s)
				SCOPY(d->sysfs_serial, s);
		}
	}

	if (sd) {
		cat2(d->cmd_path, sizeof(d->cmd_path), "/dev/", name);
		if (!ww_sysfs_path(p, sizeof(p), root, "/sys/block/%s/device/scsi_generic", name)) {
			DIR *dir = opendir(p);
			struct dirent *e;

			while (dir && (e = readdir(dir))) {
				if (starts(e->d_name, "sg")) {
					SCOPY(sg, e->d_name);
					cat2(d->cmd_path, sizeof(d->cmd_path), "/dev/", sg);
					break;
				}
			}
			if (dir)
				closedir(dir);
		}
	}

	if (d->transport == WW_TRANSPORT_VIRTIO) {
		d->protocol = WW_PROTO_NONE;
		d->no_health_reason = "virtio-blk has no health interface";
	} else if (d->transport == WW_TRANSPORT_USB) {
		d->protocol = WW_PROTO_NONE;
		d->no_health_reason = "USB bridge: ATA pass-through not known safe";
	} else if (sd) {
		d->protocol = !strcmp(d->sysfs_vendor, "ATA") ? WW_PROTO_ATA : WW_PROTO_SCSI;
	} else {
		d->protocol = WW_PROTO_NONE;
		d->no_health_reason = "no health interface known for this device type";
	}
}

static void probe_block(const char *root, const char *name, ww_drive_t *d)
{
	memset(d, 0, sizeof(*d));
	SCOPY(d->block, name);
	cat2(d->dev_path, sizeof(d->dev_path), "/dev/", name);
	SCOPY(d->paths[0], name);
	d->n_paths = 1;
	d->capacity_bytes = read_attr_u64(root, name, "size") * 512;
	d->logical_block_bytes = (uint32_t)read_attr_u64(root, name, "queue/logical_block_size");
	d->physical_block_bytes = (uint32_t)read_attr_u64(root, name, "queue/physical_block_size");
	d->rotational = read_attr_u64(root, name, "queue/rotational") != 0;
	resolve_sysfs(root, name, d->sysfs_path, sizeof(d->sysfs_path));

	if (starts(name, "nvme"))
		probe_nvme(root, name, d);
	else
		probe_other(root, name, d);

	if (dev_disk_link(root, "by-id", name, true, d->id, sizeof(d->id)) < 0)
		build_id(d);
	if (dev_disk_link(root, "by-path", name, false, d->slot, sizeof(d->slot)) < 0)
		d->slot[0] = 0;
}

/* Same physical drive as an earlier one? Then fold `n` into it. */
static bool merge(ww_drive_t *out, size_t nout, const ww_drive_t *n)
{
	for (size_t i = 0; i < nout; i++) {
		ww_drive_t *o = &out[i];

		if (n->protocol == WW_PROTO_NVME && o->protocol == WW_PROTO_NVME) {
			if (strcmp(o->ctrl, n->ctrl))
				continue;
			if (o->n_namespaces < WW_NVME_MAX_NS)
				SCOPY(o->namespaces[o->n_namespaces++], n->block);
			o->capacity_bytes += n->capacity_bytes;
			return true;
		}
		if (o->protocol == WW_PROTO_NVME || n->protocol == WW_PROTO_NVME ||
		    !starts(o->block, "sd") || !starts(n->block, "sd"))
			continue;
		bool same = (*o->sysfs_wwn && !strcmp(o->sysfs_wwn, n->sysfs_wwn)) ||
			    (id_rank(o->id) < 9 && !strcmp(o->id, n->id));
		if (!same)
			continue;
		if (o->n_paths < WW_MAX_PATHS)
			SCOPY(o->paths[o->n_paths++], n->block);
		if (id_rank(n->id) < id_rank(o->id))
			SCOPY(o->id, n->id);
		if (!*o->slot)
			SCOPY(o->slot, n->slot);
		return true;
	}
	return false;
}

/* Writes at most max drives to out; *found counts every drive there is (an
 * upper bound when out is full: paths of drives not stored are not merged). */
static int discover_into(const char *sysroot, const char *const *include, ww_drive_t *out,
			 size_t max, size_t *found)
{
	char p[PATH_MAX];
	struct dirent **ents;
	ww_drive_t *d;
	size_t count = 0;
	int n, ret = 0;

	if (!out && max)
		return -EINVAL;
	if (ww_sysfs_path(p, sizeof(p), sysroot, "/sys/block"))
		return -ENAMETOOLONG;
	n = scandir(p, &ents, NULL, versionsort);
	if (n < 0)
		return -errno;
	d = malloc(sizeof(*d));
	if (!d) {
		ret = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;

		if (name[0] == '.')
			continue;
		if (!included(include, name) &&
		    (skipped_by_name(name) || is_partition(sysroot, name)))
			continue;
		probe_block(sysroot, name, d);
		if (merge(out, count, d))
			continue;
		if (count < max)
			out[count++] = *d;
		(*found)++;
	}
out:
	free(d);
	for (int i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return ret ? ret : (int)count;
}

int ww_discover(const char *sysroot, const char *const *include, ww_drive_t *out, size_t max)
{
	size_t found = 0;

	return discover_into(sysroot, include, out, max, &found);
}

int ww_discover_all(const char *sysroot, const char *const *include, ww_drive_t **out)
{
	size_t cap = 64, found;
	ww_drive_t *d = NULL;
	int n;

	for (;;) {
		ww_drive_t *nd = realloc(d, cap * sizeof(*d));

		if (!nd) {
			free(d);
			return -ENOMEM;
		}
		d = nd;
		found = 0;
		n = discover_into(sysroot, include, d, cap, &found);
		if (n < 0 || found <= cap)
			break;
		cap = found; /* drives came and went, or more than fitted: again */
	}
	if (n < 0) {
		free(d);
		return n;
	}
	*out = d;
	return n;
}

ww_transport_t ww_drive_transport(const ww_drive_t *d, const ww_health_t *h)
{
	/* SPC-5 table 444: protocol identifier 6h = SAS Serial SCSI Protocol */
	if (d->transport == WW_TRANSPORT_OTHER && h && h->protocol == WW_PROTO_SCSI &&
	    h->scsi.protocol_id == 6)
		return WW_TRANSPORT_SAS;
	return d->transport;
}

const char *ww_drive_protocol_label(const ww_drive_t *d, char *buf, size_t len)
{
	switch (d->protocol) {
	case WW_PROTO_NVME:
		snprintf(buf, len, "nvme admin");
		break;
	case WW_PROTO_ATA:
		snprintf(buf, len, "ata via sat");
		break;
	case WW_PROTO_SCSI:
		snprintf(buf, len, "scsi log sense");
		break;
	default:
		snprintf(buf, len, "none: %s",
			 d->no_health_reason ? d->no_health_reason : "no health interface");
		break;
	}
	return buf;
}
