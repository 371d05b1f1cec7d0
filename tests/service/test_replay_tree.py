#!/usr/bin/env python3
"""`wearwatch serve --replay DIR` on a tree of captures (a user report).

`--replay tests/fixtures/captures` (README.md plus one subdirectory per VM
drive) must load every capture below it and skip README.md; a directory with
no capture, and a file that is not one, stop serve with exit 2 and a message
naming the argument. The five expected drive ids are the `fact id` lines of
tests/fixtures/captures/*/*.capture (made by tests/vm/checks_20_capture.py).
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from svc_common import FAILS, check, curl, free_port, wait_for  # noqa: E402

BIN = sys.argv[1]
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAPS = os.path.join(SRC, "tests", "fixtures", "captures")
WANT = {"nvme-QEMU_NVMe_Ctrl_WWNVME0001", "wwn-0x33333330000036b0",
        "ata-WWSATA_DISK_WWSATA0001", "ata-WWSATA_DISK_XXXXXXXXXX"}

with tempfile.TemporaryDirectory() as tmp:
    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    r = subprocess.run([BIN, "serve", "--replay", empty], capture_output=True, text=True,
                       timeout=10)
    check(r.returncode == 2 and "no *.capture files in it or its subdirectories" in r.stderr,
          f"--replay of a directory without captures: exit 2, says so ({r.returncode}: "
          f"{r.stderr.strip()[-160:]})")
    r = subprocess.run([BIN, "serve", "--replay", os.path.join(CAPS, "README.md")],
                       capture_output=True, text=True, timeout=10)
    check(r.returncode == 2 and "README.md: not a capture" in r.stderr,
          f"--replay of a non-capture file: exit 2, says so ({r.returncode})")

    port = free_port()
    with open(os.path.join(tmp, "log"), "w") as log:
        srv = subprocess.Popen([BIN, "serve", "--replay", CAPS, "--no-probe",
                                "--listen", f"127.0.0.1:{port}", "--web-config", "",
                                "--state-dir", tmp], stderr=log)
        try:
            base = f"http://127.0.0.1:{port}"
            ids = set()

            def loaded():
                global ids
                code, body = curl(base + "/api/v1/drives")
                if code != "200":
                    return False
                doc = json.loads(body)
                rows = doc.get("drives", doc) if isinstance(doc, dict) else doc
                ids = {d.get("id") or d.get("drive", {}).get("id") for d in rows}
                return len(ids) >= 5
            check(wait_for(loaded, timeout=15),
                  f"--replay tests/fixtures/captures serves 5 drives ({sorted(ids)})")
            check(WANT <= ids, "the nvme, sas, sata and sata-redacted captures are among them")
            check(any(i and i.startswith("ata-WWSATA_DISK_WWSATA0001-r") for i in ids),
                  "sata-suspended (same id as sata) is served under a distinct id")
            check(wait_for(lambda: os.path.exists(os.path.join(tmp, "history.db"))),
                  "--replay with an explicit --state-dir keeps history there")
        finally:
            srv.terminate()
            try:
                srv.wait(timeout=30)
            except subprocess.TimeoutExpired:
                srv.kill()
                srv.wait()

    # Without --state-dir, --replay keeps no history: the default state
    # directory is the installed collector's (/var/lib/wearwatch). The default
    # is faked through the configuration file's state_directory (what serve
    # would otherwise use), so nothing under /var/lib is written by the test;
    # the real default is only looked at.
    fake = os.path.join(tmp, "default-state")
    conf = os.path.join(tmp, "wearwatch.conf")
    with open(conf, "w") as f:
        f.write(f"[collector]\nstate_directory = {fake}\n")
    real = "/var/lib/wearwatch/history.db"

    def stamp(p):
        try:
            st = os.stat(p)
            return (st.st_size, st.st_mtime_ns)
        except FileNotFoundError:
            return None
    before = stamp(real)
    port = free_port()
    with open(os.path.join(tmp, "log2"), "w+") as log:
        srv = subprocess.Popen([BIN, "serve", "--replay", CAPS, "--no-probe", "--config", conf,
                                "--listen", f"127.0.0.1:{port}", "--web-config", ""],
                               stderr=log)
        try:
            base = f"http://127.0.0.1:{port}"

            def read_all():
                code, body = curl(base + "/api/v1/drives")
                return code == "200" and len(json.loads(body)) >= 5 and all(
                    d.get("last_collect") for d in json.loads(body))
            check(wait_for(read_all, timeout=15), "--replay without --state-dir serves the drives")
            code, _ = curl(base + "/api/v1/drives/wwn-0x33333330000036b0/history"
                           "?metric=temperature_celsius")
            check(code == "503", f"without --state-dir the history API says none is kept ({code})")
        finally:
            srv.terminate()
            try:
                srv.wait(timeout=30)
            except subprocess.TimeoutExpired:
                srv.kill()
                srv.wait()
        log.seek(0)
        text = log.read()
    check("replay: no history kept (--state-dir DIR keeps" in text,
          "serve --replay logs that it keeps no history: " +
          next((ln for ln in text.splitlines() if "history" in ln), "(no line about history)"))
    check("]: history in " not in text, "no history database opened")
    check(not os.path.exists(fake),
          f"nothing created under the (faked) default state directory {fake}")
    check(stamp(real) == before, f"{real} untouched ({before} -> {stamp(real)})")

    # A capture of a drive with no health interface (virtio, from the fake
    # sysfs tree) replays with the reason it recorded, as `show` and
    # `decode` give it: no_health_interface in discovery's words.
    nohealth = os.path.join(tmp, "nohealth")
    r = subprocess.run([BIN, "capture", "vda", nohealth, "--sysroot",
                        os.path.join(SRC, "tests", "fixtures", "sysfs", "basic")],
                       capture_output=True, text=True, timeout=10)
    check(r.returncode == 4, f"capture of the virtio drive: exit 4 ({r.returncode})")
    port = free_port()
    srv = subprocess.Popen([BIN, "serve", "--replay", nohealth, "--no-probe",
                            "--listen", f"127.0.0.1:{port}", "--web-config", ""],
                           stderr=subprocess.DEVNULL)
    try:
        got = {}

        def listed():
            global got
            code, body = curl(f"http://127.0.0.1:{port}/api/v1/drives")
            rows = json.loads(body) if code == "200" else []
            got = rows[0] if rows else {}
            return bool(got)
        check(wait_for(listed, timeout=15), "the virtio capture is served")
        reasons = (got.get("verdict") or {}).get("reasons") or []
        check(got.get("no_health_reason") == "virtio-blk has no health interface" and
              [(x.get("code"), x.get("text")) for x in reasons] ==
              [("no_health_interface", "not monitored: virtio-blk has no health interface")],
              f"served with the recorded reason ({got.get('no_health_reason')}, {reasons})")
    finally:
        srv.terminate()
        try:
            srv.wait(timeout=30)
        except subprocess.TimeoutExpired:
            srv.kill()
            srv.wait()


    # The same virtio drive forced to smartctl (`--smartctl vda=sat`, the
    # usual escape for bridges and virtual disks) is read through smartctl
    # with that type: a stand-in smartctl first on PATH answers with a
    # spec-constructed `smartctl -j` document (smartctl 7.3 JSON schema; the
    # expected values are the numbers written into it) and records its
    # arguments. Before, the drive stayed "no health interface" while
    # wearwatch_drive_smartctl_info{type="sat"} said it was read that way.
    fake = os.path.join(tmp, "fakebin")
    os.mkdir(fake)
    calls = os.path.join(tmp, "smartctl-calls")
    with open(os.path.join(fake, "smartctl"), "w") as f:
        f.write("#!/bin/sh\n"
                f"echo \"$@\" >> {calls}\n"
                "echo '{\"smartctl\":{\"version\":[7,3],\"exit_status\":0},"
                "\"device\":{\"name\":\"/dev/vda\",\"type\":\"sat\",\"protocol\":\"ATA\"},"
                "\"model_name\":\"WW FORCED SAT\",\"serial_number\":\"overlayblk\","
                "\"smart_status\":{\"passed\":true},\"ata_smart_attributes\":{\"table\":"
                "[{\"id\":12,\"value\":100,\"worst\":100,\"thresh\":0,\"raw\":{\"value\":7}}]},"
                "\"power_cycle_count\":7}'\n")
    os.chmod(os.path.join(fake, "smartctl"), 0o755)
    port = free_port()
    env = dict(os.environ, PATH=fake + os.pathsep + os.environ.get("PATH", ""))
    srv = subprocess.Popen([BIN, "serve", "--sysroot",
                            os.path.join(SRC, "tests", "fixtures", "sysfs", "basic"),
                            "--smartctl", "vda=sat", "--no-probe", "--no-history",
                            "--listen", f"127.0.0.1:{port}", "--web-config", ""],
                           stderr=subprocess.DEVNULL, env=env)
    try:
        text = ""

        def read_vda():
            global text
            code, text = curl(f"http://127.0.0.1:{port}/metrics")
            return code == "200" and 'smart_available{drive="virtio-overlayblk"}' in text
        check(wait_for(read_vda, timeout=15), "the forced virtio drive is read")
        lines = [ln for ln in text.splitlines() if 'drive="virtio-overlayblk"' in ln]
        check('wearwatch_drive_smart_available{drive="virtio-overlayblk"} 1' in lines and
              'wearwatch_drive_power_cycles_total{drive="virtio-overlayblk"} 7' in lines and
              'wearwatch_drive_smartctl_info{drive="virtio-overlayblk",type="sat"} 1' in lines,
              f"its values are smartctl's, through -d sat ({lines})")
        with open(calls) as f:
            argv = f.read().splitlines()
        check(argv and all(a == "-j -x -n standby,3 -d sat /dev/vda" for a in argv),
              f"smartctl ran with -d sat on /dev/vda ({argv[:2]})")
    finally:
        srv.terminate()
        try:
            srv.wait(timeout=30)
        except subprocess.TimeoutExpired:
            srv.kill()
            srv.wait()


sys.exit(1 if FAILS else 0)
