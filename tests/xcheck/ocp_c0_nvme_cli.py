#!/usr/bin/env python3
"""OCP C0h log page versions 2-5: wearwatch and nvme-cli decode the same bytes.

usage: ocp_c0_nvme_cli.py WEARWATCH SHIM.so SRCDIR

For each spec-constructed page tests/fixtures/nvme/ocp-c0-v{2,3,4,5}.hex
(gen_ocp_c0.py: offsets and revisions), `nvme ocp smart-add-log -o json`
(nvme-cli, Debian's package) reads the page through nvme_log_shim.c, which
answers its Get Log Page C0h from the file (no device is opened), and
`wearwatch decode --type nvme-ocp-smart-ext --json` decodes the same bytes.
Both must give the Endurance Estimate and PLP Start Count the generator put
there, the same in every version, and wearwatch's rating must be that
estimate with source ocp_c0. Exit 77 (skipped) without nvme-cli.
"""
import json
import os
import subprocess
import sys
import tempfile

from nvme_shim import nvme_cli, run_on_page, write_page

EXPECT_EE = 7008000000000000  # gen_ocp_c0.py ENDURANCE
EXPECT_PLP = 7
FAKE = "/dev/nvme-ww-replayed-c0"  # a name only the shim answers


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
    with tempfile.TemporaryDirectory(prefix="ww-c0-") as tmp:
        for v in (2, 3, 4, 5):
            hexf = os.path.join(src, "tests/fixtures/nvme/ocp-c0-v%d.hex" % v)
            binf = os.path.join(tmp, "c0-v%d.bin" % v)
            write_page(hexf, binf)
            cli = run_on_page(nvme, ["ocp", "smart-add-log", FAKE, "-o", "json"], shim, FAKE,
                              binf, "c0")
            try:
                nc = json.loads(cli.stdout)
            except ValueError:
                print("FAIL: v%d: nvme-cli gave no JSON (exit %d): %s %s"
                      % (v, cli.returncode, cli.stdout[:200], cli.stderr[:200]))
                failed += 1
                continue
            wwr = subprocess.run([ww, "decode", "--type", "nvme-ocp-smart-ext", hexf, "--json"],
                                 capture_output=True, text=True, timeout=30)
            d = json.loads(wwr.stdout)
            vals = d["values"]
            rating = d["endurance"]["rating"]
            ee_ww = rating.get("rated_written_bytes")
            plp_ww = vals.get("plp_start_count", {}).get("value")
            row = ("v%d: nvme-cli: Log page version %s, Endurance estimate %s, PLP start count %s;"
                   " wearwatch: rating %s source %s, plp_start_count %s"
                   % (v, nc.get("Log page version"), nc.get("Endurance estimate"),
                      nc.get("PLP start count"), ee_ww, rating.get("source"), plp_ww))
            ok = (nc.get("Log page version") == v and int(nc.get("Endurance estimate")) == EXPECT_EE
                  and int(nc.get("PLP start count")) == EXPECT_PLP and ee_ww == EXPECT_EE
                  and rating.get("source") == "ocp_c0" and plp_ww == EXPECT_PLP)
            print(("ok   " if ok else "FAIL ") + row)
            failed += not ok
    print("%d of 4 versions differ" % failed if failed else "all 4 versions agree")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
