#!/usr/bin/env python3
"""The fleet page's data against a stand-in Prometheus of 100,000 drives.

usage: test_fleet_scale.py WEARWATCH_BINARY [--bench]

Starts stub_prometheus.py (5,000 hosts of 20 drives, 30 targets down) and
`wearwatch serve` (no drives of its own) whose [fleet] names it, with a
tenant header, then asks GET /api/v1/fleet for the first, a middle and a
past-the-end page. Checks what the page must do whatever the fleet's size:
- every question to Prometheus is bounded: a family asked for the problem
  set or for one page of hosts, never for the whole fleet (the stub answers
  an unbounded question for all 100,000 drives, and the test fails on any
  answer of more than 1,000 drive series or 1 MiB);
- the problem set holds every critical drive (200) and the first warning
  ones up to 500, and the 50 first in endurance used and in wear-out;
- the host list is paged: 100 pages of 50 hosts, page 37 is hosts
  1800-1849 of the sorted list, a page past the end is the last;
- the down targets are listed, the most recently lost first;
- the tenant header ([fleet] header) reaches Prometheus with every request;
- the reasons' numbers are in the answer.
With --bench it also prints the time of each page answer (cold: not from the
cache) and the serve process's peak resident memory, the figures of
docs/benchmarks.md; the checks never depend on them.
Exits 0 when every check passed, 1 otherwise.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fleet as F  # noqa: E402
import stub_prometheus as S  # noqa: E402
from fleet import PASSED, FAILED, check  # noqa: E402


def cpu_s(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid, key):
    for line in open("/proc/%d/status" % pid):
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return -1


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    binary, bench = os.path.abspath(sys.argv[1]), sys.argv[2:] == ["--bench"]
    stub = S.StubPrometheus(hosts=5000, drives=20, down=30).start()
    fl = stub.fleet
    with tempfile.TemporaryDirectory(prefix="ww-fleet-scale-") as work:
        empty = os.path.join(work, "none")
        os.makedirs(empty)
        conf = os.path.join(work, "wearwatch.conf")
        with open(conf, "w") as f:
            f.write("[probe]\nenabled = no\n[fleet]\nprometheus = %s\ntimeout = 60s\n"
                    "header = X-Scope-OrgID: tenant-a\n" % stub.url)
        port = F.free_port("127.0.0.1")
        log = open(os.path.join(work, "serve.log"), "w")
        p = subprocess.Popen([binary, "serve", "--config", conf, "--listen", "127.0.0.1:%d" % port,
                              "--state-dir", work, "--sysroot", empty, "--no-history"],
                             stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        base = "http://127.0.0.1:%d" % port
        try:
            ok = F.wait_for(lambda: urllib.request.urlopen(base + "/api/v1/host", timeout=2), 20)
            check(ok, "wearwatch serve answers")
            rss0 = rss_kib(p.pid, "VmRSS")
            cpu0 = cpu_s(p.pid)
            times = {}

            def get(page):
                t0 = time.time()
                b = F.http_json(base + "/api/v1/fleet" + ("?page=%d" % page if page else ""),
                                timeout=120)
                times[page] = time.time() - t0
                return b
            first = get(0)
            mid = get(37)
            past = get(500)
            q = first.get("queries", {})
            check(first.get("errors") == [], "every query answered", str(first.get("errors")))
            # bounded answers
            # the host list is names only (about 30 bytes a host): it grows
            # with the hosts, not the drives
            names = [x for x in stub.log if x[0] == "/api/v1/label/instance/values"]
            check(names and all(x[1] == 5000 and x[2] < 40 * 5000 for x in names),
                  "the host list is instance names only (%d bytes for 5,000 hosts)" % names[0][2])
            drives = [x for x in stub.log if x not in names]
            worst = max(drives, key=lambda x: x[1])
            big = [x for x in drives if x[1] > 1000 or x[2] > (1 << 20)]
            check(not big, "every answer bounded (at most 1,000 series and 1 MiB; largest %d "
                  "series, %d bytes: %s)" % (worst[1], worst[2], worst[0][:60]),
                  "; ".join("%s: %d series, %d bytes" % (x[0][:80], x[1], x[2]) for x in big))
            # problems
            keys = lambda rows: {x["metric"]["drive"] for x in rows}
            crit = {fl.labels(i)["drive"] for i in range(fl.n) if fl.status(i) == 2}
            health = q.get("problems", {}).get("health", [])
            check(len(crit) == 200 and crit <= keys(health),
                  "the problem set holds every critical drive (%d)" % len(crit))
            bad = [x for x in health if x["value"][1] in ("1", "2")]
            check(len(bad) == 500, "and warning ones up to 500 in all (%d)" % len(bad))
            top = {fl.labels(i)["drive"] for i in sorted(range(fl.n), key=lambda i: -fl.rated(i))[:50]}
            soon = {fl.labels(i)["drive"] for i in sorted(range(fl.n), key=fl.wearout)[:50]}
            check(top <= keys(q["problems"].get("rated_used", [])) and
                  soon <= keys(q["problems"].get("wearout", [])),
                  "and the 50 first in endurance used and in projected wear-out")
            nums = q["problems"].get("reason_values", [])
            check(nums and all(x["metric"]["reason"] == "pending_sectors" for x in nums),
                  "the reasons' numbers are in the answer (%d series)" % len(nums))
            # paging
            check(first.get("hosts_total") == 5000 and first.get("pages") == 100 and
                  first.get("page") == 1 and first.get("page_hosts") == fl.names[:50],
                  "page 1 of 100: the first 50 hosts")
            check(len(q.get("page", {}).get("info", [])) == 1000,
                  "page 1 holds the 1,000 drives of its 50 hosts")
            check(mid.get("page") == 37 and mid.get("page_hosts") == fl.names[1800:1850] and
                  {x["metric"]["instance"] for x in mid["queries"]["page"]["info"]} ==
                  set(fl.names[1800:1850]), "page 37: hosts 1800-1849, their drives only")
            check(past.get("page") == 100 and past.get("page_hosts") == fl.names[4950:],
                  "a page past the end is the last")
            # down targets
            down = q.get("down", [])
            check(len(down) == 30 and down[0]["metric"]["instance"] == "down001.example.net:9786"
                  and q.get("down_total", [{}])[0].get("value", [0, ""])[1] == "30",
                  "the 30 down targets, the most recently lost first")
            check(stub.headers and all(h.get("X-Scope-OrgID") == "tenant-a" for h in stub.headers),
                  "the tenant header goes with every request (%d)" % len(stub.headers))
            if bench:
                body = json.dumps(first)
                print("bench: %d drives on %d hosts; %d queries per page; answers %d bytes in all, "
                      "largest %d series; page body %d bytes; the whole fleet's wearwatch_drive_info "
                      "alone would be %d bytes" % (
                          fl.n, fl.hosts, len(stub.log) // 3, sum(x[2] for x in stub.log) // 3,
                          worst[1], len(body), stub.full_info_bytes()))
                print("bench: page 1 %.2f s, page 37 %.2f s, page 500 %.2f s (cold each, the stub's "
                      "Python answering included); serve CPU %.2f s for the three; serve RSS "
                      "%d KiB before, %d KiB after, peak %d KiB" % (
                          times[0], times[37], times[500], cpu_s(p.pid) - cpu0, rss0,
                          rss_kib(p.pid, "VmRSS"), rss_kib(p.pid, "VmHWM")))
        except (OSError, RuntimeError, KeyError) as e:
            check(False, "fleet page answers", repr(e))
        finally:
            p.terminate()
            p.wait(timeout=10)
            stub.stop()
            if FAILED:
                print(open(os.path.join(work, "serve.log")).read()[-2000:])
    print("%d passed, %d failed" % (len(PASSED), len(FAILED)))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
