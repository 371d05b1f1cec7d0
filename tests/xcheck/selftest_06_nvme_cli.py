#!/usr/bin/env python3
"""NVMe Device Self-test log 06h: wearwatch and nvme-cli decode the same bytes.

usage: selftest_06_nvme_cli.py WEARWATCH SHIM.so SRCDIR

For the spec-constructed pages tests/fixtures/nvme/selftest-06-{failed,
cleared}.hex (a newest extended test failed at an LBA; then a newer one
passed), `nvme self-test-log -o json` (nvme-cli, Debian's package) reads the
page through nvme_log_shim.c, which answers its Get Log Page 06h from the
file (no device is opened), and `wearwatch decode --type nvme-selftest-log
--json` decodes the same bytes. Both must give the same number of tests,
the newest one's result, Self-test Code and power-on hours, and the first
failed test's Failing LBA; wearwatch's open failure is there for the failed
page only. Exit 77 (skipped) without nvme-cli.
"""
import json
import os
import subprocess
import sys
import tempfile

from nvme_shim import nvme_cli, run_on_page, write_page

FAKE = "/dev/nvme-ww-replayed-06"  # a name only the shim answers
KIND = {1: "short", 2: "extended", 0xE: "vendor"}
FAILED = (5, 6, 7)  # NVMe results counted as failures (decode.h)


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    ww, shim, src = sys.argv[1:]
    nvme = nvme_cli()
    if not nvme:
        print("SKIP: nvme-cli (nvme) not installed; scripts/deps.sh test installs it")
        return 77
    failed = 0
    with tempfile.TemporaryDirectory(prefix="ww-06-") as tmp:
        for name, want_open in (("failed", True), ("cleared", False)):
            hexf = os.path.join(src, "tests/fixtures/nvme/selftest-06-%s.hex" % name)
            binf = os.path.join(tmp, "06-%s.bin" % name)
            write_page(hexf, binf)
            cli = run_on_page(nvme, ["self-test-log", FAKE, "-o", "json"], shim, FAKE, binf,
                              "06")
            try:
                reports = [r for r in json.loads(cli.stdout)["List of Valid Reports"]
                           if r.get("Self test result") != 0xF]
            except (ValueError, KeyError):
                print("FAIL: %s: nvme-cli gave no report list (exit %d): %s %s"
                      % (name, cli.returncode, cli.stdout[:200], cli.stderr[:200]))
                failed += 1
                continue
            wwr = subprocess.run([ww, "decode", "--type", "nvme-selftest-log", hexf, "--json"],
                                 capture_output=True, text=True, timeout=30)
            log = json.loads(wwr.stdout)["logs"]["self_tests"]["nvme"]
            new = reports[0]
            first_failed = next((r for r in reports if r.get("Self test result") in FAILED), {})
            row = ("%s: nvme-cli %d tests, newest result %s code %s at %s h, first failed LBA %s;"
                   " wearwatch %s tests, last_status %s last_kind %s at %s h, failing_lba %s,"
                   " open_failure %s"
                   % (name, len(reports), new.get("Self test result"), new.get("Self test code"),
                      new.get("Power on hours"), first_failed.get("Failing LBA"), log.get("tests"),
                      log.get("last_status"), log.get("last_kind"), log.get("last_power_on_hours"),
                      log.get("failing_lba"), log.get("open_failure")))
            ok = (log.get("tests") == len(reports)
                  and log.get("last_status") == new.get("Self test result")
                  and log.get("last_kind") == KIND.get(new.get("Self test code"))
                  and log.get("last_power_on_hours") == new.get("Power on hours")
                  and log.get("failing_lba") == first_failed.get("Failing LBA")
                  and (log.get("open_failure") is not None) == want_open)
            print(("ok   " if ok else "FAIL ") + row)
            failed += not ok
    print("%d of 2 pages differ" % failed if failed else "both pages agree")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
