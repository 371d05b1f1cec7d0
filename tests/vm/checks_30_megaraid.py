"""A MegaRAID member reached through the smartctl backend.

QEMU's `megasas` (an LSI MegaRAID SAS 1078) with one `scsi-hd` disk. The disk
image is attached at boot as a drive without a device (qemu_args); the
controller and its disk are hot-plugged in run() (QMP device_add), so that the
base checks, which expect exactly the three drives, never see them. The guest
loads megaraid_sas (udev does it on the hot-plug; modprobe makes sure).

Expected, from smartmontools on the same guest: `smartctl --scan -j -d scsi`
lists the member as /dev/bus/H type megaraid,N; QEMU's scsi-hd has no SMART
(no log pages, no IE mode page), so the smartctl backend's answer is
"reached, no SMART". The service (discovery every poll) must then list a drive
smartctl-bus_H-megaraid_N with wearwatch_drive_info (model from the member's
INQUIRY as smartctl prints it, the same as `smartctl -j -x -d megaraid,N`'s
model_name), wearwatch_drive_smartctl_info{type="megaraid,N"} 1 and
wearwatch_drive_smart_available 0; its health verdict is unknown (status 3)
with the one reason no_smart_data, never ok (docs/health.md). The disk is
one entry: the controller's /dev/sdX (the megasas logical drive of the same
scsi-hd) is not listed beside the member, present or missing.
"""
import json
import os
import re
import subprocess
import time


def qemu_args(vm, imgdir):
    img = os.path.join(imgdir, "raid.img")
    if os.path.exists(img):
        os.unlink(img)
    subprocess.run(["truncate", "-s", "64M", img], check=True)
    return ["-drive", "file=%s,if=none,id=r1,format=raw" % img]


def run(ctx):
    state = {}

    def hotplug():
        try:
            ctx.vm.qmp.cmd("device_add", driver="megasas", id="ms0")
            ctx.vm.qmp.cmd("device_add", driver="scsi-hd", drive="r1", bus="ms0.0", id="r1d")
        except Exception as e:
            return False, "QMP device_add: %s" % e
        rc, out = ctx.vm.run(r"""
modprobe megaraid_sas; echo "modprobe_rc=$?"
i=0
while [ $i -lt 150 ]; do
	for h in /sys/class/scsi_host/host*; do
		grep -q megaraid_sas $h/proc_name 2>/dev/null && host=${h##*host}
	done
	[ -n "${host:-}" ] && break
	sleep 0.2; i=$((i+1))
done
echo "host=${host:-none}"
sleep 3
echo "blocks=$(ls -d /sys/class/scsi_host/host${host:-none}/device/target*/*/block/* 2>/dev/null | sed 's,.*/,,' | tr '\n' ' ')"
smartctl --scan -j -d scsi; echo "scan_rc=$?"
""", timeout=120)
        m = re.search(r"host=(\d+)", out)
        try:
            js = json.loads(out[out.index("{"):out.rindex("}") + 1])
        except ValueError:
            js = {}
        mem = [d for d in js.get("devices", []) if str(d.get("type", "")).startswith("megaraid,")]
        if mem:
            state["dev"] = mem[0]
        b = re.search(r"blocks=([^\n]*)", out)
        state["blocks"] = b.group(1).split() if b else []
        return bool(m and mem), "megaraid_sas host %s (block devices %s); smartctl --scan members %s" % (
            m.group(1) if m else None, state["blocks"], mem or out[-400:])
    ctx.c.check("megaraid_hotplug_scan", hotplug)

    def smartctl_direct():
        d = state.get("dev")
        if not d:
            return None, "no member listed"
        rc, out = ctx.vm.run('smartctl -j -x -n standby,3 -d %s %s; echo "rc=$?"\n' % (d["type"], d["name"]),
                             timeout=120)
        try:
            js = json.loads(out[out.index("{"):out.rindex("}") + 1])
        except ValueError:
            js = {}
        state["model"] = (js.get("model_name") or js.get("scsi_model_name")
                          or js.get("product") or js.get("scsi_product") or "")
        with open(os.path.join(ctx.vm.art, "megaraid-smartctl-x.json"), "w") as f:
            f.write(out)
        rcm = re.search(r"rc=(\d+)", out)
        return bool(js) and bool(state["model"]), "smartctl -d %s %s: exit %s, model %r, keys %s" % (
            d["type"], d["name"], rcm.group(1) if rcm else "?", state["model"], sorted(js)[:20])
    ctx.c.check("megaraid_smartctl_reaches_member", smartctl_direct)

    def in_metrics():
        d = state.get("dev")
        if not d:
            return None, "no member listed"
        want_id = "smartctl-%s-%s" % (re.sub(r"[/, ]", "_", d["name"][len("/dev/"):]),
                                      re.sub(r"[/, ]", "_", d["type"]))
        deadline = time.time() + 4 * ctx.poll + 40
        info = sc = avail = status = None
        reasons = []
        while time.time() < deadline:
            samples = ctx.c.scrape("megaraid")[2]
            info = ctx.series(samples, "wearwatch_drive_info", want_id)
            sc = ctx.series(samples, "wearwatch_drive_smartctl_info", want_id)
            avail = ctx.one(samples, "wearwatch_drive_smart_available", want_id)
            status = ctx.one(samples, "wearwatch_drive_health_status", want_id)
            reasons = sorted(lb.get("reason") for lb, v in
                             ctx.series(samples, "wearwatch_drive_health_reason", want_id))
            if info and sc and avail is not None and status == 3:
                break
            time.sleep(2)
        model = info[0][0].get("model") if info else None
        # one entry per physical drive: the controller's block device (its
        # volume, the same scsi-hd) is not a drive of its own, present or
        # missing, and no other entry carries the disk's model
        same = sorted(lb.get("drive") for n, lb, v in samples if n == "wearwatch_drive_info"
                      and ("QEMU HARDDISK" in lb.get("model", "")
                           or lb.get("device") in state.get("blocks", [])))
        ok = (bool(info) and bool(sc) and sc[0][0].get("type") == d["type"] and avail == 0
              and model == state.get("model") and status == 3 and reasons == ["no_smart_data"]
              and bool(state.get("blocks")) and same == [want_id])
        return ok, ("drive %s: info %s; smartctl_info %s; smart_available %s (want 0: reached, no SMART); "
                    "model %r (smartctl %r); health status %s reasons %s (want 3, no_smart_data); "
                    "entries for the disk (its block devices %s on the controller) %s (want only %s)"
                    % (want_id, info[0][0] if info else None, sc[0][0] if sc else None, avail,
                       model, state.get("model"), status, reasons, state.get("blocks"), same, want_id))
    ctx.c.check("megaraid_member_reached_no_smart", in_metrics)
