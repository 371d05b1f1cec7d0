#!/usr/bin/env python3
"""Names that say where a thing is.

- No two .c files under src/ share a base name: "decode.c" in a backtrace,
  a profile or a grep then names one file, not one per folder.
- Every global symbol a library of ours defines (nm -g --defined-only over
  BUILD_DIR/libww_<folder>.a for each folder of src/) starts with "ww_":
  the libraries are linked into one binary and into tests beside other
  code, so an unprefixed name (a helper shared by two files of a folder)
  can collide with anyone's. Such a helper is static when one file uses it,
  else prefixed with its folder's name.

Without BUILD_DIR only the file names are checked. Anything reported makes
the exit status 1.

usage: check_names.py SOURCE_DIR [BUILD_DIR [NM]]"""
import os
import subprocess
import sys


def duplicate_bases(src):
    seen = {}
    for folder, _, files in os.walk(src):
        for f in files:
            if f.endswith(".c"):
                seen.setdefault(f, []).append(os.path.relpath(os.path.join(folder, f), src))
    return {b: sorted(p) for b, p in seen.items() if len(p) > 1}


def unprefixed(src, build, nm):
    """(library, [symbol...]) per library, and the folders with no library"""
    bad, missing = {}, []
    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    for d in folders:
        lib = os.path.join(build, "libww_%s.a" % d)
        if not os.path.exists(lib):
            missing.append(d)
            continue
        out = subprocess.run([nm, "-g", "--defined-only", lib], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            # "<address> <type> <name>"; object headers and blank lines skipped;
            # the sanitizer build's own symbols (__odr_asan.ww_x, __asan_*,
            # __ubsan_*, coverage counters) are the compiler's, not ours
            if len(parts) == 3 and not parts[2].startswith("ww_") and \
                    not parts[2].startswith("__"):
                bad.setdefault(os.path.basename(lib), []).append(
                    "%s (%s)" % (parts[2], parts[1]))
    return bad, missing


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    src = os.path.join(argv[1], "src")
    rc = 0
    for base, paths in sorted(duplicate_bases(src).items()):
        print("src/: %s is the name of %d files: %s" % (base, len(paths),
              ", ".join("src/" + p for p in paths)))
        rc = 1
    if len(argv) > 2:
        bad, missing = unprefixed(src, argv[2], argv[3] if len(argv) > 3 else "nm")
        for d in missing:
            print("%s: no libww_%s.a (build first)" % (argv[2], d))
            rc = 1
        for lib, syms in sorted(bad.items()):
            print("%s exports %d symbols without the ww_ prefix: %s" %
                  (lib, len(syms), ", ".join(sorted(syms))))
            rc = 1
    if not rc:
        print("names: every .c base name once%s" %
              ("; every exported symbol starts with ww_" if len(argv) > 2 else ""))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
