#!/usr/bin/env python3
"""The include directions of src/, checked against the ww_layer() lines of
CMakeLists.txt (the one place a folder's dependencies are written).

A file in src/X/ may include X's own headers ("X/name.h"), its public header
"wearwatch/X.h", and the public header of every folder X depends on directly
or through others. include/wearwatch/X.h may include the public headers of
X's dependencies. Anything else, and any folder of src/ or header of
include/wearwatch/ that is not a declared layer, is reported; the exit
status is then 1.

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


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    bad = check(sys.argv[1])
    for b in bad:
        print(b)
    if bad:
        print(f"{len(bad)} include(s) against the layer directions in CMakeLists.txt")
        return 1
    print("include directions: every include follows the ww_layer() lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
