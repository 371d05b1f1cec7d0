/* Device add/remove/change notices from udev (see discover.h): sd-device's
 * monitor on udev's netlink group, so a notice comes after udev's rules ran
 * and the /dev/disk links discovery reads exist. The event loop is
 * sd-event's, driven by the caller's poll() on ww_uevents_fd(). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <systemd/sd-device.h>
#include <systemd/sd-event.h>

#include "wearwatch/discover.h"

struct ww_uevents {
	sd_event *ev;
	sd_device_monitor *mon;
	ww_uevent_fn fn;
	void *arg;
	unsigned seen;
};

/* the subsystems whose nodes discovery lists or health commands go to */
static const struct {
	const char *subsystem, *devtype;
} watched[] = {
	{ "block", "disk" },     /* sdX, nvmeXnY, vdX (partitions left out) */
	{ "nvme", NULL },        /* the controller's character node */
	{ "scsi_generic", NULL } /* sgN, where SG_IO goes */
};

static int on_device(sd_device_monitor *m, sd_device *d, void *userdata)
{
	ww_uevents_t *u = userdata;
	sd_device_action_t a = _SD_DEVICE_ACTION_INVALID;
	const char *name = NULL, *act = "change";

	(void)m;
	if (sd_device_get_sysname(d, &name) < 0 || !name)
		return 0;
	if (sd_device_get_action(d, &a) >= 0)
		act = a == SD_DEVICE_ADD ? "add" : a == SD_DEVICE_REMOVE ? "remove" : "change";
	u->seen++;
	if (u->fn)
		u->fn(u->arg, act, name);
	return 0;
}

void ww_uevents_close(ww_uevents_t *u)
{
	if (!u)
		return;
	sd_device_monitor_unref(u->mon);
	sd_event_unref(u->ev);
	free(u);
}

ww_uevents_t *ww_uevents_open(int *err)
{
	ww_uevents_t *u = calloc(1, sizeof(*u));
	int rc = u ? sd_event_new(&u->ev) : -ENOMEM;

	if (rc >= 0)
		rc = sd_device_monitor_new(&u->mon);
	for (size_t i = 0; rc >= 0 && i < sizeof(watched) / sizeof(watched[0]); i++)
		rc = sd_device_monitor_filter_add_match_subsystem_devtype(
			u->mon, watched[i].subsystem, watched[i].devtype);
	if (rc >= 0)
		rc = sd_device_monitor_attach_event(u->mon, u->ev);
	if (rc >= 0)
		rc = sd_device_monitor_start(u->mon, on_device, u);
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
	return sd_event_get_fd(u->ev);
}

int ww_uevents_drain(ww_uevents_t *u, ww_uevent_fn fn, void *arg)
{
	int rc;

	u->fn = fn;
	u->arg = arg;
	u->seen = 0;
	/* without waiting: what the fd said is there, then nothing */
	while ((rc = sd_event_run(u->ev, 0)) > 0)
		;
	u->fn = NULL;
	return rc < 0 ? rc : (int)u->seen;
}
