/* RAID members through the smartctl backend: discovery and dispatch (see
 * smartctl_members.h). */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "wearwatch/basic.h"
#include "wearwatch/collect.h"

#define WW_MEMBERS_TIMEOUT_S 30

int ww_smartctl_member_drive(const ww_smartctl_dev_t *s, ww_drive_t *d)
{
	const char *n;
	char tail[96];
	size_t i;

	if (!s || !d || !*s->name || !*s->type)
		return -EINVAL;
	memset(d, 0, sizeof(*d));
	n = s->name;
	if (!strncmp(n, "/dev/", 5))
		n += 5;
	snprintf(tail, sizeof(tail), "%s-%s", n, s->type);
	for (i = 0; tail[i]; i++)
		if (tail[i] == '/' || tail[i] == ',' || tail[i] == ' ')
			tail[i] = '_';
	snprintf(d->id, sizeof(d->id), "smartctl-%s", tail);
	snprintf(d->dev_path, sizeof(d->dev_path), "%s", s->name);
	snprintf(d->cmd_path, sizeof(d->cmd_path), "%s", s->name);
	snprintf(d->smartctl_type, sizeof(d->smartctl_type), "%s", s->type);
	if (!strcasecmp(s->protocol, "ATA"))
		d->protocol = WW_PROTO_ATA;
	else if (!strcasecmp(s->protocol, "NVMe"))
		d->protocol = WW_PROTO_NVME;
	else
		d->protocol = WW_PROTO_SCSI;
	d->transport = WW_TRANSPORT_OTHER;
	return 0;
}

bool ww_smartctl_raid_present(const char *sysroot)
{
	char p[512], line[64];
	struct dirent *e;
	bool found = false;
	DIR *dir;

	snprintf(p, sizeof(p), "%s/sys/class/scsi_host", sysroot ? sysroot : "");
	dir = opendir(p);
	if (!dir)
		return false;
	while (!found && (e = readdir(dir))) {
		FILE *f;

		if (strncmp(e->d_name, "host", 4))
			continue;
		snprintf(p, sizeof(p), "%s/sys/class/scsi_host/%s/proc_name",
			 sysroot ? sysroot : "", e->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) && !strncmp(line, "megaraid_sas", 12))
			found = true;
		fclose(f);
	}
	closedir(dir);
	return found;
}

/* the last scan, shared by the poller's discovery calls */
static pthread_mutex_t ww_members_lock = PTHREAD_MUTEX_INITIALIZER;
static ww_drive_t *ww_members;
static int ww_n_members;
static time_t ww_members_at;

/* RAID members listed by `smartctl --scan`, as drives, into *out (malloc'd):
 * their number or -errno */
static int scan(ww_drive_t **out)
{
	static const char *const argv[] = { "smartctl", "--scan", "-j", "-d", "scsi", NULL };
	ww_smartctl_dev_t *devs = NULL;
	ww_drive_t *d;
	char *json = NULL;
	size_t len = 0;
	int es, n, k = 0;

	n = ww_smartctl_run(NULL, NULL, argv, WW_MEMBERS_TIMEOUT_S, &json, &len, &es);
	if (n == 0)
		n = ww_smartctl_scan_parse(json, len, &devs);
	free(json);
	if (n < 0)
		return n;
	d = calloc(n ? (size_t)n : 1, sizeof(*d));
	for (int i = 0; d && i < n; i++)
		if (!strncmp(devs[i].type, "megaraid,", 9) &&
		    !ww_smartctl_member_drive(&devs[i], &d[k]))
			k++;
	free(devs);
	if (!d)
		return -ENOMEM;
	*out = d;
	return k;
}

int ww_smartctl_members_discover(const char *sysroot, ww_drive_t **out, unsigned rescan_s)
{
	time_t now = ww_clock_wall(NULL);
	int n;

	if (!out)
		return -EINVAL;
	if (!ww_smartctl_raid_present(sysroot))
		return 0;
	pthread_mutex_lock(&ww_members_lock);
	if (!ww_members_at || now - ww_members_at >= (time_t)rescan_s || now < ww_members_at) {
		ww_drive_t *fresh = NULL;

		n = scan(&fresh);
		/* smartctl missing or failing: no members, try again next time */
		if (n >= 0) {
			free(ww_members);
			ww_members = fresh;
		}
		ww_n_members = n > 0 ? n : 0;
		/* none listed while a controller is there: not ready yet (just
		 * loaded, hot-plugged) as often as empty; look again next time
		 * rather than list its volumes as drives for rescan_s */
		ww_members_at = n > 0 ? now : 0;
	}
	n = ww_n_members;
	*out = malloc(n ? (size_t)n * sizeof(**out) : 1);
	if (*out && n)
		memcpy(*out, ww_members, (size_t)n * sizeof(**out));
	pthread_mutex_unlock(&ww_members_lock);
	return *out ? n : -ENOMEM;
}

/* The SCSI host number in a resolved sysfs path (".../host9/target9:2:0/
 * ..."), or -1 */
static long scsi_host_of(const char *sysfs_path)
{
	for (const char *p = sysfs_path; (p = strstr(p, "/host")); p++) {
		char *end;
		long h = strtol(p + 5, &end, 10);

		if (end != p + 5 && *end == '/')
			return h;
	}
	return -1;
}

bool ww_smartctl_member_volume(const ww_drive_t *d, const ww_drive_t *m, int k)
{
	long h = d && !*d->smartctl_type ? scsi_host_of(d->sysfs_path) : -1;
	char bus[32];

	if (h < 0)
		return false;
	snprintf(bus, sizeof(bus), "/dev/bus/%ld", h);
	for (int i = 0; i < k; i++)
		if (!strcmp(m[i].dev_path, bus))
			return true;
	return false;
}

int ww_discover_with_members(const char *sysroot, const char *const *include,
			     ww_drive_t **out)
{
	ww_drive_t *d = NULL, *m = NULL, *all;
	int n = ww_discover_all(sysroot, include, &d), k;

	if (n < 0)
		return n;
	/* a drive forced to smartctl carries its type from here on, so what is
	 * shown of it (the store, /metrics) needs no lookup in this layer. One
	 * discovery found no health interface for (a USB bridge, virtio: where
	 * `-d sat` is the usual escape) has one now, the smartctl child: the
	 * poller reads only drives with a protocol. */
	for (int i = 0; i < n; i++) {
		const char *t = ww_smartctl_forced_type(&d[i]);

		if (!t || *d[i].smartctl_type)
			continue;
		snprintf(d[i].smartctl_type, sizeof(d[i].smartctl_type), "%s", t);
		if (d[i].protocol == WW_PROTO_NONE) {
			d[i].protocol = ww_smartctl_type_protocol(t);
			d[i].no_health_reason = NULL;
		}
	}
	k = ww_smartctl_members_discover(sysroot, &m, 300);
	if (k <= 0) {
		free(m);
		*out = d;
		return n;
	}
	/* one entry per physical drive: the controller's block devices are its
	 * volumes (or pass-through disks its member list has too) */
	int kept = 0;

	for (int i = 0; i < n; i++)
		if (!ww_smartctl_member_volume(&d[i], m, k))
			d[kept++] = d[i];
	n = kept;
	all = realloc(d, ((size_t)n + (size_t)k) * sizeof(*all));
	if (!all) {
		free(m);
		*out = d; /* the native drives at least */
		return n;
	}
	memcpy(all + n, m, (size_t)k * sizeof(*all));
	free(m);
	*out = all;
	return n + k;
}

bool ww_smartctl_controller_key(const ww_drive_t *d, char *out, size_t len)
{
	const char *type = ww_smartctl_type_for(d), *node;
	char *end;
	long h;

	if (!type || !out || !len)
		return false;
	node = *d->dev_path ? d->dev_path : d->cmd_path;
	/* /dev/bus/N: smartctl's name for SCSI host N (os_linux.cpp) */
	if (!strncmp(node, "/dev/bus/", 9)) {
		h = strtol(node + 9, &end, 10);
		if (end != node + 9 && !*end) {
			snprintf(out, len, "host:%ld", h);
			return true;
		}
	}
	h = scsi_host_of(d->sysfs_path);
	if (h >= 0) {
		snprintf(out, len, "host:%ld", h);
		return true;
	}
	/* a member index (cciss,N, areca,N, 3ware,N): the controller's node */
	if (strchr(type, ',') && *node) {
		snprintf(out, len, "ctl:%s", node);
		return true;
	}
	return false;
}

const char *ww_smartctl_type_for(const ww_drive_t *d)
{
	if (!d)
		return NULL;
	if (*d->smartctl_type)
		return d->smartctl_type;
	return ww_smartctl_forced_type(d);
}

int ww_collect_via_smartctl(const char *sysroot, const ww_drive_t *d, ww_health_t *h,
			    ww_read_report_t *r)
{
	const char *type = ww_smartctl_type_for(d);
	int ret;

	if (!d || !h || !r || !type)
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	memset(r, 0, sizeof(*r));
	/* never wake a runtime-suspended device (smartctl's open would) */
	if (*d->block && ww_runtime_suspended(sysroot, d->block) == 1) {
		h->protocol = d->protocol;
		h->backend = "smartctl";
		r->standby = true;
		r->runtime_suspended = true;
		return 1;
	}
	ret = ww_collect_smartctl(d, type, WW_SMARTCTL_READ_TIMEOUT_S, h, r);
	if (ret == -ENODATA) {
		/* the identity smartctl printed is kept; no health values */
		h->no_smart = true;
		h->backend = "smartctl";
		return 0;
	}
	return ret;
}
