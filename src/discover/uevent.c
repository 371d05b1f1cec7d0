/* Device add/remove/change notices from udev (see discover.h): libudev's
 * monitor on udev's netlink group, so a notice comes after udev's rules ran
 * and the /dev/disk links discovery reads exist. libudev, not libsystemd's
 * sd-device: the same monitor code, but libudev.so.1 needs libc only, where
 * libsystemd maps five compression and crypto libraries (libgcrypt,
 * libgpg-error, liblzma, libzstd, liblz4: ~0.95 MiB resident with
 * libsystemd itself) into the network-less collector. The caller polls the
 * monitor's own socket (non-blocking) and drains it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libudev.h>

#include "wearwatch/discover.h"

struct ww_uevents {
	struct udev *udev;
	struct udev_monitor *mon;
};

/* the subsystems whose nodes discovery lists or health commands go to */
static const struct {
	const char *subsystem, *devtype;
} watched[] = {
	{ "block", "disk" },     /* sdX, nvmeXnY, vdX (partitions left out) */
	{ "nvme", NULL },        /* the controller's character node */
	{ "scsi_generic", NULL } /* sgN, where SG_IO goes */
};

void ww_uevents_close(ww_uevents_t *u)
{
	if (!u)
		return;
	udev_monitor_unref(u->mon);
	udev_unref(u->udev);
	free(u);
}

ww_uevents_t *ww_uevents_open(int *err)
{
	ww_uevents_t *u = calloc(1, sizeof(*u));
	int rc = 0;

	errno = 0;
	if (!u || !(u->udev = udev_new()) ||
	    !(u->mon = udev_monitor_new_from_netlink(u->udev, "udev")))
		rc = errno ? -errno : -ENOMEM;
	for (size_t i = 0; rc >= 0 && i < sizeof(watched) / sizeof(watched[0]); i++)
		rc = udev_monitor_filter_add_match_subsystem_devtype(u->mon, watched[i].subsystem,
								     watched[i].devtype);
	if (rc >= 0)
		rc = udev_monitor_enable_receiving(u->mon);
	if (rc < 0) {
		if (err)
			*err = rc;
		ww_uevents_close(u);
		return NULL;
	}
	return u;
}

int ww_uevents_fd(ww_uevents_t *u)
{
	return udev_monitor_get_fd(u->mon);
}

int ww_uevents_drain(ww_uevents_t *u, ww_uevent_fn fn, void *arg)
{
	int seen = 0;

	/* the socket is non-blocking: udev_monitor_receive_device returns NULL
	 * with EAGAIN once it is empty (notices its filter drops are skipped) */
	for (;;) {
		struct udev_device *d;
		const char *name, *a, *act = "change";

		errno = 0;
		d = udev_monitor_receive_device(u->mon);
		if (!d) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || !errno)
				return seen;
			if (errno != ENOBUFS)
				return -errno;
			/* the queue overflowed: some notices are lost, so one
			 * that names no device (the caller rediscovers all) */
			seen++;
			if (fn)
				fn(arg, "change", NULL);
			continue;
		}
		name = udev_device_get_sysname(d);
		a = udev_device_get_action(d);
		if (a && (!strcmp(a, "add") || !strcmp(a, "remove")))
			act = a;
		if (name) {
			seen++;
			if (fn)
				fn(arg, act, name);
		}
		udev_device_unref(d);
	}
}
