"""The log, link and attribute signals of the VM's three drives against the
tools reading the same drives in the same guest (smartctl 7.3, nvme-cli 2.3,
sysfs):

- sata_attribute_flags: every ATA attribute's `flags` label equals smartctl's
  flags.string (trimmed), and the raw value `wearwatch show --json` formats
  (raw_string) equals smartctl's raw.string;
- sata_logs: wearwatch_drive_error_log_errors_total and
  wearwatch_drive_self_tests for each log kind smartctl -x printed
  (ata_smart_error_log / ata_smart_self_test_log: summary/extended,
  standard/extended) equal its count;
- rotation_rate: wherever smartctl prints rotation_rate, the metric equals it
  (smartctl's 0 for solid state is wearwatch's 1);
- interface_speed: where smartctl prints interface_speed, max/current equal
  units_per_second x bits_per_unit;
- nvme_error_log: wearwatch_drive_error_log_entries{log="nvme"} equals the
  entries with a nonzero error_count `nvme error-log -e 16` prints;
- nvme_pcie_link: the PCIe link series equal the controller's sysfs
  attributes (skipped when the emulated bus has none);
- sas_grown_defects: present exactly when smartctl prints
  scsi_grown_defect_list, and equal to it.
The SATA disk is kept on (power/control "on") while smartctl reads it, then
returned to "auto", as checks_21_verify.py does.
"""
import json
import re


def _power(ctx, mode):
    ctx.vm.run(r"""
d=$(readlink -f /sys/block/${SATA#/dev/}/device)
port=$(echo "$d" | sed -n 's#^\(.*/ata[0-9][0-9]*\)/.*#\1#p')
for p in "$port" "$d"; do echo %s >"$p/power/control"; done
sleep 0.5
""" % mode, timeout=60)


def _show(ctx, dev):
    rc, out = ctx.vm.run('"%s" show --json %s 2>/dev/null\n' % (ctx.binary, dev), timeout=120)
    try:
        return json.loads(out[out.index("{"):])
    except ValueError:
        return {}


def _attrs(ctx, samples, sj, sa):
    table = sj.get("ata_smart_attributes", {}).get("table", [])
    shown = {a["id"]: a for a in (_show(ctx, "$SATA").get("ata") or {}).get("attributes", [])}
    bad = []
    for a in table:
        fl = a.get("flags", {}).get("string", "").strip()
        s = ctx.series(samples, "wearwatch_drive_ata_attribute", sa, id=str(a["id"]), kind="raw")
        got = [lb.get("flags") for lb, _ in s] if s else []
        if got != [fl]:
            bad.append("#%d flags %s, smartctl %s" % (a["id"], got, fl))
        rs = (shown.get(a["id"]) or {}).get("raw_string")
        if rs != a["raw"]["string"]:
            bad.append("#%d raw %r, smartctl %r" % (a["id"], rs, a["raw"]["string"]))
    ok = bool(table) and not bad
    return ok, ("%d attributes: flags and raw strings equal smartctl's" % len(table)) if ok else (
        "; ".join(bad[:8]) or "smartctl returned no attribute table")


def _logs(ctx, samples, sj, sa):
    seen, bad = [], []
    for key, metric in (("ata_smart_error_log", "wearwatch_drive_error_log_errors_total"),
                        ("ata_smart_self_test_log", "wearwatch_drive_self_tests")):
        for kind, log in (sj.get(key) or {}).items():
            want = log.get("count")
            got = ctx.one(samples, metric, sa, log=kind)
            seen.append("%s{log=%s} %s/%s" % (metric, kind, got, want))
            if got != want:
                bad.append(seen[-1])
    return (bool(seen) and not bad), "; ".join(seen) or "smartctl printed no logs"


def _rotation(ctx, samples, jsons):
    seen, bad = [], []
    for role, sj in jsons.items():
        if "rotation_rate" not in sj:
            continue
        want = sj["rotation_rate"] or 1
        got = ctx.one(samples, "wearwatch_drive_rotation_rate_rpm", ctx.ids[role])
        seen.append("%s %s/%s" % (role, got, want))
        if got != want:
            bad.append(seen[-1])
    if not seen:
        return None, "smartctl printed no rotation_rate"
    return not bad, "metric/smartctl (0 = solid state = 1): " + ", ".join(seen)


def _speed(ctx, samples, jsons):
    seen, bad = [], []
    for role, sj in jsons.items():
        for kind, e in (sj.get("interface_speed") or {}).items():
            if "units_per_second" not in e:
                continue
            want = e["units_per_second"] * e["bits_per_unit"]
            got = ctx.one(samples, "wearwatch_drive_interface_speed_bits_per_second",
                          ctx.ids[role], kind=kind)
            seen.append("%s %s %s/%s" % (role, kind, got, want))
            if got != want:
                bad.append(seen[-1])
    if not seen:
        return None, "smartctl printed no interface_speed (the emulated link reports none)"
    return not bad, ", ".join(seen)


def _nvme_errlog(ctx, samples):
    nv = ctx.ids["nvme"]
    log = ctx.guest_json(ctx.vm, "nvme error-log $NVME_CTRL -e 16 -o json")
    entries = log.get("errors") or log.get("error_log") or []
    want = sum(1 for e in entries if e.get("error_count"))
    got = ctx.one(samples, "wearwatch_drive_error_log_entries", nv, log="nvme")
    return got == want, "entries %s, nvme-cli entries with an error count %s (of %d)" % (
        got, want, len(entries))


def _pcie(ctx, samples):
    nv = ctx.ids["nvme"]
    rc, out = ctx.vm.run("d=/sys/class/nvme/${NVME_CTRL#/dev/}/device; "
                         "cat $d/current_link_speed $d/current_link_width 2>/dev/null\n")
    m = re.search(r"([\d.]+) GT/s.*\n\s*(\d+)", out)
    if not m:
        return None, "no PCIe link attributes in sysfs on this emulated bus"
    want_t = round(float(m.group(1)) * 1e9)
    want_w = int(m.group(2))
    got_t = ctx.one(samples, "wearwatch_drive_pcie_link_transfers_per_second", nv, kind="current")
    got_w = ctx.one(samples, "wearwatch_drive_pcie_link_width", nv, kind="current")
    return got_t == want_t and got_w == want_w, "current %s x%s, sysfs %s x%s" % (
        got_t, got_w, want_t, want_w)


def _grown(ctx, samples, sj):
    want = sj.get("scsi_grown_defect_list")
    got = ctx.one(samples, "wearwatch_drive_scsi_grown_defects", ctx.ids["sas"])
    return got == want, "metric %s, smartctl scsi_grown_defect_list %s (None = not printed)" % (
        got, want)


def run(ctx):
    _power(ctx, "on")
    try:
        jsons = {role: ctx.guest_json(ctx.vm, "smartctl -j -x %s" % dev)
                 for role, dev in (("nvme", "$NVME_CTRL"), ("sata", "$SATA"), ("sas", "$SAS"))}
        st, text, samples, _ = ctx.c.scrape("signals")
        sa = ctx.ids["sata"]
        ctx.c.check("sata_attribute_flags", lambda: _attrs(ctx, samples, jsons["sata"], sa))
        ctx.c.check("sata_logs", lambda: _logs(ctx, samples, jsons["sata"], sa))
        ctx.c.check("rotation_rate", lambda: _rotation(ctx, samples, jsons))
        ctx.c.check("interface_speed", lambda: _speed(ctx, samples, jsons))
        ctx.c.check("nvme_error_log", lambda: _nvme_errlog(ctx, samples))
        ctx.c.check("nvme_pcie_link", lambda: _pcie(ctx, samples))
        ctx.c.check("sas_grown_defects", lambda: _grown(ctx, samples, jsons["sas"]))
    finally:
        _power(ctx, "auto")
