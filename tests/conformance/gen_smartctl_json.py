#!/usr/bin/env python3
"""Expected values for tests/conformance/smartctl-json.tsv, taken from the
smartctl JSON files themselves (never from wearwatch's output).

Usage: gen_smartctl_json.py FIXTURES_DIR [TSV]

Rewrites the rows of the fields listed in GENERATED (and only those) in the
table: for each JSON file under scrutiny/, scrutiny-starosdev/ and
smartctl_exporter/, the value of the smartctl key named in the row's source
column. Rows of a file stay together (the test loads a file once per run of
its rows); files without rows so far get theirs at the end. Other fields'
rows (model, POH, ...) are left as they are. Run it after adding a field
here; review the diff: every value must be what smartctl printed."""
import glob
import json
import os
import sys

DIRS = ("scrutiny", "scrutiny-starosdev", "smartctl_exporter")


def attr_rows(j):
    """ata_smart_attributes.table: RAW_VALUE as smartctl printed it, and the
    flags column (flags.string without its trailing blank)."""
    for a in j.get("ata_smart_attributes", {}).get("table", []):
        i = a.get("id")
        raw = a.get("raw", {}).get("string")
        if raw is not None:
            yield ("#%d raw string" % i, raw,
                   "smartctl ata_smart_attributes.table[id=%d].raw.string" % i)
        fl = a.get("flags", {}).get("string")
        if fl is not None:
            yield ("#%d flags" % i, fl.strip(),
                   "smartctl ata_smart_attributes.table[id=%d].flags.string" % i)


def log_rows(j):
    """ATA error and self-test logs as smartctl counted them."""
    el = j.get("ata_smart_error_log", {})
    for kind in ("summary", "extended"):
        if "count" in el.get(kind, {}):
            yield ("error log count %s" % kind, str(el[kind]["count"]),
                   "smartctl ata_smart_error_log.%s.count" % kind)
    st = j.get("ata_smart_self_test_log", {})
    for kind in ("standard", "extended"):
        log = st.get(kind, {})
        if "count" in log:
            yield ("self-test count %s" % kind, str(log["count"]),
                   "smartctl ata_smart_self_test_log.%s.count" % kind)
        if "error_count_total" in log:
            yield ("self-test errors %s" % kind, str(log["error_count_total"]),
                   "smartctl ata_smart_self_test_log.%s.error_count_total" % kind)
        table = log.get("table", [])
        if table:
            last = table[0]
            yield ("last self-test status %s" % kind, str(last["status"]["value"] >> 4),
                   "smartctl ata_smart_self_test_log.%s.table[0].status.value bits 7-4"
                   % kind)
            yield ("last self-test hours %s" % kind, str(last["lifetime_hours"]),
                   "smartctl ata_smart_self_test_log.%s.table[0].lifetime_hours" % kind)


def identity_rows(j):
    """Rotation rate (1 = solid state, as smartctl's 0), interface speed,
    SAS grown defects and load/unload cycles."""
    if "rotation_rate" in j:
        r = j["rotation_rate"]
        yield ("rotation rate", str(r if r else 1), "smartctl rotation_rate (0 = solid state)")
    sp = j.get("interface_speed", {})
    for kind in ("max", "current"):
        e = sp.get(kind, {})
        if "units_per_second" in e and "bits_per_unit" in e:
            yield ("interface speed %s" % kind,
                   str(e["units_per_second"] * e["bits_per_unit"]),
                   "smartctl interface_speed.%s units_per_second x bits_per_unit" % kind)
    if "scsi_grown_defect_list" in j:
        yield ("grown defects", str(j["scsi_grown_defect_list"]),
               "smartctl scsi_grown_defect_list")
    ss = j.get("scsi_start_stop_cycle_counter", {})
    for key, field in (("accumulated_load_unload_cycles", "load unload cycles"),
                       ("specified_load_unload_count_over_device_lifetime",
                        "specified load unload cycles")):
        if key in ss:
            yield (field, str(ss[key]), "smartctl scsi_start_stop_cycle_counter.%s" % key)


def devstat_rows(j):
    """Device Statistics entry names as smartctl printed them."""
    for page in j.get("ata_device_statistics", {}).get("pages", []):
        for e in page.get("table", []):
            yield ("devstat %d 0x%03x name" % (page["number"], e["offset"]), e["name"],
                   "smartctl ata_device_statistics.pages[number=%d].table[offset=%d].name"
                   % (page["number"], e["offset"]))


GENERATED = (attr_rows, log_rows, identity_rows, devstat_rows)


def generated_field(field):
    return field.startswith("#") and (field.endswith(" raw string") or
                                      field.endswith(" flags")) or \
        field.split(" ")[0] in ("error", "self-test", "last", "rotation", "interface",
                                "grown", "load", "specified", "devstat")


def main():
    fx = sys.argv[1]
    tsv = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(__file__), "smartctl-json.tsv")
    head, order, rows = [], [], {}
    for line in open(tsv, encoding="utf-8").read().splitlines():
        if line.startswith("#") or line.startswith("file\t") or not line:
            head.append(line)
            continue
        f, field = line.split("\t")[:2]
        if f not in rows:
            order.append(f)
            rows[f] = []
        if not generated_field(field):
            rows[f].append(line)
    for d in DIRS:
        for path in sorted(glob.glob(os.path.join(fx, d, "*.json"))):
            rel = os.path.relpath(path, fx)
            try:
                j = json.load(open(path, encoding="utf-8"))
            except ValueError:
                continue
            new = ["%s\t%s\t%s\t%s" % (rel, f, v, s)
                   for gen in GENERATED for f, v, s in gen(j)]
            if not new:
                continue
            if rel not in rows:
                order.append(rel)
                rows[rel] = []
            rows[rel].extend(new)
    with open(tsv, "w", encoding="utf-8") as out:
        for line in head:
            out.write(line + "\n")
        for f in order:
            for line in rows[f]:
                out.write(line + "\n")


if __name__ == "__main__":
    main()
