#!/usr/bin/env python3
"""The include directions of src/, checked against the ww_layer() lines of
CMakeLists.txt (the one place a folder's dependencies are written).

A file in src/X/ may include X's own headers ("X/name.h"), its public header
"wearwatch/X.h", and the public header of every folder X depends on directly
or through others. include/wearwatch/X.h may include the public headers of
X's dependencies. Anything else, and any folder of src/ or header of
include/wearwatch/ that is not a declared layer, is reported; so is a
docs/architecture.md layer table that lists other folders or dependencies
than the ww_layer() lines, and a folder holding more than 20 % of the lines
of src/ and include/. The exit status is then 1.

usage: check_includes.py SOURCE_DIR"""
import os
import re
import sys


def layers(cmakelists):
    decl = {}
    for line in open(cmakelists, encoding="utf-8"):
        m = re.match(r"\s*ww_layer\((\w+)((?:\s+[^\s)]+)*)\s*\)", line)
        if m:
            decl[m.group(1)] = m.group(2).split()
    return {k: [d for d in v if d in decl] for k, v in decl.items()}


def closure(deps, x, seen=None):
    seen = set() if seen is None else seen
    for d in deps[x]:
        if d not in seen:
            seen.add(d)
            closure(deps, d, seen)
    return seen


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if m:
                yield n, m.group(1)


def check(src_dir):
    deps = layers(os.path.join(src_dir, "CMakeLists.txt"))
    bad = []
    for name in sorted(os.listdir(os.path.join(src_dir, "src"))):
        if os.path.isdir(os.path.join(src_dir, "src", name)) and name not in deps:
            bad.append(f"src/{name}/: a folder that is no ww_layer() in CMakeLists.txt")
    for name in sorted(os.listdir(os.path.join(src_dir, "include", "wearwatch"))):
        if name.endswith(".h") and name[:-2] not in deps:
            bad.append(f"include/wearwatch/{name}: no folder src/{name[:-2]}/ implements it")
    files = []
    for layer in deps:
        d = os.path.join("src", layer)
        if os.path.isdir(os.path.join(src_dir, d)):
            files += [(layer, os.path.join(d, f)) for f in sorted(os.listdir(os.path.join(src_dir, d)))
                      if f.endswith((".c", ".h"))]
        pub = os.path.join("include", "wearwatch", layer + ".h")
        if os.path.exists(os.path.join(src_dir, pub)):
            files.append((layer, pub))
    files.append(("main", "src/main.c"))
    deps["main"] = ["cli"]
    for layer, rel in files:
        allowed = closure(deps, layer) | {layer}
        for n, inc in includes(os.path.join(src_dir, rel)):
            top, _, rest = inc.partition("/")
            if top == "wearwatch":
                target = rest[:-2] if rest.endswith(".h") else rest
                if target not in allowed:
                    bad.append(f"{rel}:{n}: includes {inc}, but {layer} does not depend on {target} "
                               f"(it may use: {', '.join(sorted(allowed - {layer})) or 'nothing of ours'})")
            elif rest:
                if top != layer:
                    bad.append(f"{rel}:{n}: includes {inc}, a header private to src/{top}/ "
                               f"(use wearwatch/{top}.h)")
            elif not rel.startswith("src/" + layer + "/"):
                bad.append(f"{rel}:{n}: includes {inc} from no folder")
    return bad


def doc_table(src_dir):
    """{folder: [may use...]} from the layer table of docs/architecture.md"""
    rows = {}
    for line in open(os.path.join(src_dir, "docs", "architecture.md"), encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"[a-z]+", cells[0]) and cells[0] != "folder":
            uses = [] if cells[2].startswith("(") else [u.strip() for u in cells[2].split(",")]
            rows[cells[0]] = uses
    return rows


def check_doc(src_dir, deps):
    bad = []
    rows = doc_table(src_dir)
    for layer in sorted(set(deps) | set(rows)):
        if layer not in rows:
            bad.append(f"docs/architecture.md: no row for {layer}")
        elif layer not in deps:
            bad.append(f"docs/architecture.md: row {layer} is no ww_layer()")
        elif sorted(rows[layer]) != sorted(deps[layer]):
            bad.append(f"docs/architecture.md: {layer} may use {', '.join(rows[layer])}; "
                       f"CMakeLists.txt says {', '.join(deps[layer]) or 'nothing'}")
    return bad


def check_sizes(src_dir, deps, limit=0.20):
    lines = {}
    for layer in deps:
        n = 0
        d = os.path.join(src_dir, "src", layer)
        for f in os.listdir(d) if os.path.isdir(d) else []:
            if f.endswith((".c", ".h")):
                n += sum(1 for _ in open(os.path.join(d, f), encoding="utf-8", errors="replace"))
        pub = os.path.join(src_dir, "include", "wearwatch", layer + ".h")
        if os.path.exists(pub):
            n += sum(1 for _ in open(pub, encoding="utf-8", errors="replace"))
        lines[layer] = n
    total = sum(lines.values()) or 1
    return [f"src/{k}/: {v} of {total} lines ({100 * v / total:.0f} %), more than "
            f"{100 * limit:.0f} %" for k, v in sorted(lines.items()) if v > limit * total]


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    deps = layers(os.path.join(sys.argv[1], "CMakeLists.txt"))
    bad = check(sys.argv[1]) + check_doc(sys.argv[1], deps) + check_sizes(sys.argv[1], deps)
    for b in bad:
        print(b)
    if bad:
        print(f"{len(bad)} finding(s) against the layers of CMakeLists.txt")
        return 1
    print("layers: every include follows the ww_layer() lines, docs/architecture.md lists them, "
          "no folder over 20 % of the lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
