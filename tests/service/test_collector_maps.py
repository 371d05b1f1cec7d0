#!/usr/bin/env python3
"""What the collector and serve map: the collector has no network, so no
HTTP server, TLS or crypto library may be in its address space
(libmicrohttpd and GnuTLS with the libraries behind it, libcurl, OpenSSL's
libcrypto and libssl, which libnvme would bring: src/transport/nvme_admin.c),
and no compression or crypto library libsystemd would bring (libsystemd,
libgcrypt, libgpg-error, liblzma, libzstd, liblz4: the journal, the
watchdog, socket activation and udev's notices go without it,
src/basic/sdnotify.c, src/basic/log.c, src/discover/uevent.c); serve loads libmicrohttpd when its web front starts (src/http/mhd.h) and
takes the login cache's HMAC from the GnuTLS that brings, so it maps no
libcrypto either (until the fleet page loads libcurl). Reads /proc/PID/maps of a
running `wearwatch collector` on a copy of the fake sysfs tree
(tests/fixtures/sysfs/basic, its device nodes made as plain files: the
drives are listed and read, the commands fail with ENOTTY) after it answered
/api/v1/drives with the tree's drives, and of `serve --replay` after it
answered /metrics.

usage: test_collector_maps.py BINARY
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from svc_common import FAILS, check, curl, free_port, ipc, stop, wait_for  # noqa: E402

BIN = sys.argv[1]
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# the network side's libraries (ldd of a build that linked libmicrohttpd
# and libcurl: the server, its TLS stack and what GnuTLS needs)
NETWORK = ("libmicrohttpd.so", "libgnutls.so", "libnettle.so", "libhogweed.so", "libgmp.so",
           "libp11-kit.so", "libtasn1.so", "libidn2.so", "libunistring.so", "libcurl.so",
           "libcrypto.so", "libssl.so")

# libsystemd and what it links (ldd of a build that linked it)
SYSTEMD = ("libsystemd.so", "libgcrypt.so", "libgpg-error.so", "liblzma.so", "libzstd.so",
           "liblz4.so")


def libraries(pid):
    with open(f"/proc/{pid}/maps") as f:
        return {os.path.basename(line.split()[5]) for line in f
                if len(line.split()) >= 6 and ".so" in line.split()[5]}


def has(libs, soname):
    """a file of that library (maps name the file: libnvme.so.1.3.0)"""
    return any(lib == soname or lib.startswith(soname + ".") for lib in libs)


def network(libs):
    return sorted(lib for lib in libs if lib.startswith(NETWORK))


def systemd(libs):
    return sorted(lib for lib in libs if lib.startswith(SYSTEMD))


with tempfile.TemporaryDirectory() as tmp:
    root = os.path.join(tmp, "root")
    shutil.copytree(os.path.join(SRC, "tests", "fixtures", "sysfs", "basic"), root, symlinks=True)
    for n in ("nvme0", "sg0", "sg1", "sg4", "sg5"):
        open(os.path.join(root, "dev", n), "w").close()
    open(os.path.join(tmp, "empty.conf"), "w").close()   # not /etc/wearwatch's
    sock = os.path.join(tmp, "collector.sock")
    with open(os.path.join(tmp, "collector.log"), "w") as log:
        col = subprocess.Popen([BIN, "collector", "--socket", sock, "--sysroot", root,
                                "--state-dir", os.path.join(tmp, "state"), "--no-probe",
                                "--config", os.path.join(tmp, "empty.conf")], stderr=log)
    try:
        def listed():
            try:
                return "nvme-eui.0025388b91b3a2c1" in ipc(sock, "GET /api/v1/drives\n")
            except OSError:
                return False
        check(wait_for(listed, timeout=15), "the collector lists the fake tree's NVMe namespace")
        libs = libraries(col.pid)
        check(has(libs, "libsqlite3.so") and has(libs, "libsgutils2-1.46.so"),
              f"the collector's maps are read: its history and SCSI libraries ({len(libs)} libraries)")
        check(not has(libs, "libnvme.so"), "the collector maps no libnvme (the kernel's ioctl instead)")
        check(not network(libs), f"the collector maps no HTTP or TLS library ({network(libs)})")
        check(has(libs, "libudev.so"), "the collector maps libudev (udev's notices)")
        check(not systemd(libs),
              f"the collector maps no libsystemd, nor its compression and crypto ({systemd(libs)})")
    finally:
        stop(col)

    port = free_port()
    with open(os.path.join(tmp, "serve.log"), "w") as log:
        srv = subprocess.Popen([BIN, "serve", "--replay", os.path.join(SRC, "tests", "fixtures", "captures"),
                                "--no-probe", "--listen", f"127.0.0.1:{port}", "--web-config", "",
                                "--config", os.path.join(tmp, "empty.conf")], stderr=log)
    try:
        check(wait_for(lambda: curl(f"http://127.0.0.1:{port}/metrics")[0] == "200", timeout=15),
              "serve answers /metrics")
        libs = libraries(srv.pid)
        check(has(libs, "libmicrohttpd.so.12"), "serve loaded libmicrohttpd for its web front")
        check(not has(libs, "libcrypto.so") and not has(libs, "libssl.so"),
              "serve maps no OpenSSL (the login cache's HMAC is GnuTLS's)")
        check(not systemd(libs), f"serve maps no libsystemd, nor what it links ({systemd(libs)})")
    finally:
        stop(srv)

sys.exit(1 if FAILS else 0)
