#!/usr/bin/env python3
"""debian/control's Build-Depends against what the build looks for.

usage: check_build_depends.py SOURCE_DIR

Reads every pkg_check_modules(... REQUIRED ... MODULE), find_library(VAR NAME
... REQUIRED) and find_file(VAR NAME PATHS DIR ...) of CMakeLists.txt and the
*.cmake files it includes (cmake/, web/, contrib/; not tests/, which are not
part of a package build), asks this machine which installed Debian package
holds each (pkg-config's .pc file, the library's .so, the file) with `dpkg
-S`, and fails when such a package is missing from Build-Depends. The
modules a .pc file requires (pkg_check_modules fails without them too) must
come with Build-Depends: named there or installed by their Depends (Debian
12's libnvme-dev requires openssl.pc without depending on libssl-dev). It
also fails when Build-Depends names a package nothing needs that is not one
of the tools the build runs (BUILD_TOOLS). Needs the build dependencies
installed (scripts/deps.sh build); prints "N passed, N failed".
"""
import glob
import os
import re
import subprocess
import sys

# packages the build runs rather than links against
BUILD_TOOLS = {"debhelper-compat", "cmake", "pkg-config", "pkgconf"}


def cmake_files(src):
    files = [os.path.join(src, "CMakeLists.txt")]
    for d in ("cmake", "web", "contrib"):
        files += glob.glob(os.path.join(src, d, "**", "*.cmake"), recursive=True)
    return files


def wanted(src):
    """[(what, path on this machine, named by the build itself)]."""
    text = "\n".join(open(f).read() for f in cmake_files(src))
    text = re.sub(r"#[^\n]*", "", text)
    out = []
    for args in re.findall(r"pkg_check_modules\(([^)]*)\)", text):
        words = args.split()
        mods = [w for w in words[1:] if w not in ("REQUIRED", "QUIET", "IMPORTED_TARGET",
                                                    "GLOBAL", "NO_CMAKE_PATH",
                                                    "NO_CMAKE_ENVIRONMENT_PATH")]
        for m in mods:
            out += [(what, path, i == 0) for i, (what, path) in enumerate(pc_files(m))]
    for var, name in re.findall(r"find_library\((\w+)\s+(\w+)[^)]*REQUIRED", text):
        out.append(("library " + name, so_path(name), True))
    for var, name, paths in re.findall(r"find_file\((\w+)\s+(\S+)\s+PATHS\s+([^)\s]+)", text):
        out.append(("file " + name, os.path.join(paths, name), True))
    return out


def pc_files(module, seen=None):
    """The .pc file of module and of every module it requires (pkg_check_modules
    fails when one of them is missing)."""
    seen = seen if seen is not None else set()
    if module in seen:
        return []
    seen.add(module)
    r = subprocess.run(["pkg-config", "--variable=pcfiledir", module], capture_output=True,
                       text=True)
    if r.returncode:
        return [("pkg-config " + module, None)]
    out = [("pkg-config " + module, os.path.join(r.stdout.strip(), module + ".pc"))]
    for flag in ("--print-requires", "--print-requires-private"):
        req = subprocess.run(["pkg-config", flag, module], capture_output=True, text=True)
        for line in req.stdout.splitlines():
            if line.split():
                out += pc_files(line.split()[0], seen)
    return out


def so_path(name):
    try:
        arch = subprocess.run(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"],
                              capture_output=True, text=True).stdout.strip()
    except FileNotFoundError:   # dpkg-dev absent: the compiler knows it too
        arch = subprocess.run(["cc", "-print-multiarch"], capture_output=True,
                              text=True).stdout.strip()
    for d in ("/usr/lib/" + arch, "/usr/lib", "/lib/" + arch):
        p = os.path.join(d, "lib%s.so" % name)
        if os.path.exists(p):
            return p
    return None


def owner(path):
    r = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
    if r.returncode:
        # merged /usr: dpkg may know the file under /lib
        alt = re.sub(r"^/usr/lib/", "/lib/", path)
        r = subprocess.run(["dpkg", "-S", alt], capture_output=True, text=True)
    if r.returncode:
        return None
    return r.stdout.split(":")[0].split(",")[0].strip()


def closure(pkgs):
    """pkgs and every installed package their Depends/Pre-Depends pull in."""
    seen, todo = set(), list(pkgs)
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        r = subprocess.run(["dpkg-query", "-W", "-f=${Depends}, ${Pre-Depends}", p],
                           capture_output=True, text=True)
        for item in r.stdout.split(","):
            for alt in item.split("|"):
                name = re.sub(r"\(.*?\)", "", alt).strip().split(":")[0]
                if name:
                    todo.append(name)
    return seen


def build_depends(src):
    text = open(os.path.join(src, "debian/control")).read()
    m = re.search(r"^Build-Depends:(.*?)^\S", text, re.S | re.M)
    pkgs = set()
    for item in m.group(1).split(","):
        for alt in item.split("|"):
            name = re.sub(r"\(.*?\)|\[.*?\]|<.*?>", "", alt).strip()
            if name:
                pkgs.add(name)
    return pkgs


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "."
    passed = failed = 0
    bd = build_depends(src)
    pulled = closure(bd)
    needed = set()
    for what, path, direct in wanted(src):
        pkg = owner(path) if path else None
        if not pkg:
            print("FAIL %s: not found on this machine (%s)" % (what, path))
            failed += 1
            continue
        needed.add(pkg)
        if pkg in bd:
            print("ok   %s: %s in Build-Depends" % (what, pkg))
            passed += 1
        elif not direct and pkg in pulled:
            print("ok   %s (required by a .pc file): %s comes with Build-Depends" % (what, pkg))
            passed += 1
        else:
            print("FAIL %s: %s (holds %s) is not in Build-Depends" % (what, pkg, path))
            failed += 1
    for pkg in sorted(bd - needed - BUILD_TOOLS):
        print("FAIL Build-Depends names %s, which nothing the build looks for needs" % pkg)
        failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
