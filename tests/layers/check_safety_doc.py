#!/usr/bin/env python3
"""The transport's allow-lists as docs/architecture.md's safety rules name
them (and the one opt-in class of writes, qualify's, by the checks of its
guard; no other file of src/ prepares an io_uring write): every command cdb_allowed() (src/transport/sg.c), ww_sat_read_allowed()
(src/transport/sat.c: the builder's and cdb_allowed()'s ATA list) and lid_allowed() (src/transport/nvme_admin.c) let
through is in the doc's table, and the table names nothing they refuse; the
same for the self-test class, selftest_cdb_allowed() (sg.c),
ww_sat_build_selftest_cdb() and ww_sat_build_selftest_log_cdb() (sat.c),
stc_allowed() (nvme_admin.c) and the smartctl child's sc_selftest_allowed()
(src/collect/smartctl_selftest.c), whose case comments name what they let
through. A command added to an allow-list
without its line in the safety rules fails here.
Usage: check_safety_doc.py SOURCE_DIR
"""
import re
import sys


def switch_body(text, func):
    """the text of the first switch in function func"""
    m = re.search(r"\b" + func + r"\s*\([^)]*\)\s*\{", text)
    if not m:
        raise SystemExit(f"no function {func}")
    i = text.index("switch", m.end())
    depth, j = 0, text.index("{", i)
    for k in range(j, len(text)):
        depth += {"{": 1, "}": -1}.get(text[k], 0)
        if depth == 0:
            return text[j:k]
    raise SystemExit(f"{func}: unbalanced braces")


def scsi_allowed(src):
    body = switch_body(open(f"{src}/src/transport/sg.c").read(), "cdb_allowed")
    return {m.group(1).split(":")[0].strip()
            for m in re.finditer(r"case 0x[0-9a-fA-F]+:\s*/\*\s*([^*]+?)\s*\*/", body)}


def ata_allowed(src):
    body = switch_body(open(f"{src}/src/transport/sat.c").read(), "ww_sat_read_allowed")
    names = set()
    for m in re.finditer(r"case (WW_ATA_\w+):", body):
        if m.group(1) != "WW_ATA_SMART":
            names.add(m.group(1)[len("WW_ATA_"):].replace("_", " "))
    for m in re.finditer(r"feature == (WW_SMART_\w+)", body):
        names.add("SMART " + m.group(1)[len("WW_SMART_"):].replace("_", " "))
    return names


def lid_allowed(src):
    body = switch_body(open(f"{src}/src/transport/nvme_admin.c").read(), "lid_allowed")
    return {f"{int(m.group(1), 16):02X}h" for m in re.finditer(r"case 0x([0-9a-fA-F]+):", body)}


def qualify_checks(src):
    """the write guard's checks, by name, from check_names[] of write_guard.c"""
    text = open(f"{src}/src/qualify/write_guard.c").read()
    return {m.group(1) for m in re.finditer(r'\[WW_GUARD_(?!OK\])\w+\]\s*=\s*"([^"]+)"', text)}


def device_writes(src):
    """files of src/ that prepare an io_uring write: qualify's workers only"""
    import os
    hits = []
    for d, _, files in os.walk(f"{src}/src"):
        for f in files:
            if f.endswith(".c") and re.search(r"io_uring_prep_write|IORING_OP_WRITE",
                                              open(os.path.join(d, f)).read()):
                hits.append(os.path.relpath(os.path.join(d, f), src))
    return sorted(hits)


def commented_cases(src, path, func, colon):
    """the comment of every case of func's switch (up to a colon when colon)"""
    body = switch_body(open(f"{src}/{path}").read(), func)
    out = set()
    for m in re.finditer(r"case [\w]+:\s*/\*\s*(.+?)\s*\*/", body, re.S):
        text = " ".join(m.group(1).split())
        out.add(text.split(":")[0].strip() if colon else text)
    return out


def doc_rows(src):
    text = open(f"{src}/docs/architecture.md").read()
    rows = {}
    for m in re.finditer(r"^\s*\| `(\w+)\(\)`[^|]*\| ([^|]+) \|\s*$", text, re.M):
        rows[m.group(1)] = {it.strip() for it in m.group(2).split(";")}
    return rows


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "."
    doc = doc_rows(src)
    code = {"cdb_allowed": scsi_allowed(src), "ww_sat_read_allowed": ata_allowed(src),
            "lid_allowed": lid_allowed(src), "ww_qualify_guard_check": qualify_checks(src),
            "selftest_cdb_allowed": commented_cases(src, "src/transport/sg.c",
                                                    "selftest_cdb_allowed", True),
            "ww_sat_build_selftest_cdb": commented_cases(src, "src/transport/sat.c",
                                                         "ww_sat_build_selftest_cdb", False),
            "ww_sat_build_selftest_log_cdb": commented_cases(src, "src/transport/sat.c",
                                                             "ww_sat_build_selftest_log_cdb",
                                                             False),
            "stc_allowed": commented_cases(src, "src/transport/nvme_admin.c", "stc_allowed",
                                           False),
            "sc_selftest_allowed": commented_cases(src, "src/collect/smartctl_selftest.c",
                                                   "sc_selftest_allowed", False)}
    bad = 0
    writers = device_writes(src)
    if writers != ["src/qualify/run.c"]:
        print(f"io_uring writes are prepared in {writers}; only src/qualify/run.c, behind "
              f"ww_qualify_guard_check(), may write to a device")
        bad += 1
    for name, allowed in code.items():
        listed = doc.get(name)
        if listed is None:
            print(f"docs/architecture.md: the safety rules have no row for {name}()")
            bad += 1
            continue
        for c in sorted(allowed - listed):
            print(f"{name}() lets {c} through, but docs/architecture.md's safety rules "
                  f"do not list it")
            bad += 1
        for c in sorted(listed - allowed):
            print(f"docs/architecture.md lists {c} for {name}(), which the code refuses")
            bad += 1
    if bad:
        return 1
    print("safety rules: " + "; ".join(f"{n}() {len(a)} entries" for n, a in code.items()) +
          ", as the code lets through")
    return 0


if __name__ == "__main__":
    sys.exit(main())
