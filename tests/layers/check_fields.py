#!/usr/bin/env python3
"""Every numeric field of the health record is shown by the JSON and text
renderers: a row of a field table in src/expo/fields.c, or listed in its
ww_fields_by_hand with the reason. A field added to include/wearwatch/record.h
without either fails here, so it cannot reach /metrics alone and stay
invisible in `show`, `decode` and the API.

Numeric: ww_u64, ww_i64, ww_u128 and the C integer types (bool, strings,
pointers and nested sections are not fields; a nested section's struct is
checked on its own). Usage: check_fields.py SOURCE_DIR
"""
import re
import sys

# the sections the renderers show; each has a table (or is by hand)
SECTIONS = [
    "ww_health_t", "ww_nvme_smart_t", "ww_nvme_ctrl_t", "ww_nvme_ns_t", "ww_ata_t",
    "ww_ata_attr_t", "ww_ata_devstat_t", "ww_scsi_t", "ww_scsi_errcnt_t", "ww_sas_phy_t",
    "ww_errlog_t", "ww_selftest_log_t", "ww_selftest_now_t", "ww_link_t",
]
NUMERIC = re.compile(r"^(ww_u64|ww_i64|ww_u128|u?int(8|16|32|64)_t|size_t|unsigned|int)$")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def record_fields(header):
    """{struct: [numeric member, ...]} of the typedef'd structs in record.h"""
    text = strip_comments(header)
    out = {}
    for m in re.finditer(r"typedef\s+struct\s+\w*\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
        body, name = m.group(1), m.group(2)
        members = []
        for decl in body.split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            dm = re.match(r"^(?:const\s+)?(\w+)\s+(.*)$", decl)
            if not dm:
                continue
            typ, names = dm.group(1), dm.group(2)
            if not NUMERIC.match(typ):
                continue
            for n in names.split(","):
                n = n.strip()
                if n.startswith("*"):
                    continue
                members.append(re.sub(r"\[.*$", "", n).strip())
        out[name] = members
    return out


def table_rows(source):
    """set of (struct, member) that fields.c has a row for, and the by-hand list"""
    text = strip_comments(source)
    macro_struct = {}
    for m in re.finditer(r"#define\s+(\w+)\(([^)]*)\)\s*\\?\s*(ROW|ELEM)\((\w+),\s*(\w+)", text):
        name, params, struct, first = m.group(1), m.group(2), m.group(4), m.group(5)
        fixed = None if first in [p.strip() for p in params.split(",")] else first
        macro_struct[name] = (struct, fixed)
    body = re.sub(r"#define[^\n]*(\\\n[^\n]*)*", " ", text)  # rows only, not the macros
    rows = set()
    for m in re.finditer(r"\b(ROW|ELEM)\((ww_\w+_t),\s*(\w+)", body):
        rows.add((m.group(2), m.group(3)))
    for m in re.finditer(r"^\s*(\w+)\((\w+)", body, re.M):
        macro, arg = m.group(1), m.group(2)
        if macro in macro_struct and macro not in ("ROW", "ELEM"):
            struct, fixed = macro_struct[macro]
            rows.add((struct, fixed or arg))
    by_hand = set()
    bh = re.search(r"ww_fields_by_hand\[\]\s*=\s*\{(.*?)\};", source, re.S)
    if bh:
        for s in re.findall(r'"(ww_\w+_t)\.([\w*]+)"', bh.group(1)):
            by_hand.add(s)
    return rows, by_hand


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "."
    with open(f"{src}/include/wearwatch/record.h") as f:
        fields = record_fields(f.read())
    with open(f"{src}/src/expo/fields.c") as f:
        rows, by_hand = table_rows(f.read())
    missing, stale, n = [], [], 0
    for struct in SECTIONS:
        if struct not in fields:
            print(f"record.h has no struct {struct} (check_fields.py SECTIONS is stale)")
            return 1
        whole = (struct, "*") in by_hand
        for mem in fields[struct]:
            n += 1
            if not whole and (struct, mem) not in rows and (struct, mem) not in by_hand:
                missing.append(f"{struct}.{mem}")
    for struct, mem in sorted(rows | by_hand):
        if mem != "*" and mem not in fields.get(struct, []):
            stale.append(f"{struct}.{mem}")
    for m in missing:
        print(f"record.h: {m} is in no field table of src/expo/fields.c and not in "
              f"ww_fields_by_hand: `show`, `decode` and the API would not show it")
    for s in stale:
        print(f"src/expo/fields.c names {s}, which record.h does not have (or is not numeric)")
    if missing or stale:
        return 1
    print(f"{n} numeric fields of {len(SECTIONS)} record sections: every one in a field "
          f"table ({len(rows)} rows) or shown by hand ({len(by_hand)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
