#!/usr/bin/env python3
"""A stand-in Prometheus for the fleet page at fleet scale (python http.server).

It holds a synthetic fleet (HOSTS hosts of DRIVES drives each, 100,000 drives
by default) and answers the fleet page's queries (src/http/fleet.c) the way
Prometheus would for those series: the totals, the down targets, the host
list (GET /api/v1/label/instance/values), each family for the problem set
(`... and on (instance, job, drive) (topk(500, health > 0 < 3) or topk(50,
rated) or topk(50, own) or bottomk(50, wearout))`, computed here by those
definitions) or for a page of hosts (`{instance=~"a|b"}`). A family asked
with neither is answered for the whole fleet, as Prometheus would: the log
(StubPrometheus.log: query, series, bytes) shows such an unbounded question.
It is no PromQL engine: anything else gets a Prometheus error answer.

The fleet, deterministic per drive index i (host i // DRIVES):
- verdict: critical for i % 500 == 7, warning for i % 100 == 3, unknown for
  i % 200 == 11, else ok; a critical drive has reason smart_failed, a
  warning one pending_sectors with value i % 90 + 1 (limit 1);
- rated endurance used (i * 7919 % 10000) / 10000, own the same / 2;
  wear-out at NOW + (i * 104729 % 3650 + 30) days; warranty end NOW + 5 y;
- DOWN extra targets (not in the drive set) whose `up` is 0, the last good
  scrape k hours ago.

usage: stub_prometheus.py [--hosts N] [--drives N] [--down N] [--port P]
"""
import argparse
import http.server
import json
import re
import threading
import time
import urllib.parse

DAY = 86400


class Fleet:
    def __init__(self, hosts, drives, down, now):
        self.hosts, self.drives, self.down, self.now = hosts, drives, down, now
        self.n = hosts * drives
        self.names = ["host%05d.example.net:9786" % h for h in range(hosts)]

    def status(self, i):
        if i % 500 == 7:
            return 2
        if i % 100 == 3:
            return 1
        if i % 200 == 11:
            return 3
        return 0

    def labels(self, i):
        h = i // self.drives
        return {"instance": self.names[h], "job": "wearwatch",
                "drive": "nvme-STUB_SSD_%07d" % i}

    def rated(self, i):
        return (i * 7919 % 10000) / 10000.0

    def wearout(self, i):
        return self.now + (i * 104729 % 3650 + 30) * DAY

    def family(self, name, i):
        """[(extra labels, value)] of family name for drive i."""
        st = self.status(i)
        if name == "info":
            return [({"__name__": "wearwatch_drive_info", "model": "STUB SSD 1TB",
                      "serial": "S%07d" % i, "device": "nvme%dn1" % (i % self.drives),
                      "firmware": "1.0", "wwn": "", "transport": "nvme", "protocol": "nvme",
                      "slot": ""}, 1)]
        if name == "health":
            return [({"__name__": "wearwatch_drive_health_status"}, st)]
        if name == "reasons":
            if st == 2:
                return [({"__name__": "wearwatch_drive_health_reason", "reason": "smart_failed",
                          "severity": "critical"}, 1)]
            if st == 1:
                return [({"__name__": "wearwatch_drive_health_reason",
                          "reason": "pending_sectors", "severity": "warning"}, 1)]
            return []
        if name == "reason_values":
            if st != 1:
                return []
            base = {"__name__": "wearwatch_drive_health_reason_value",
                    "reason": "pending_sectors", "unit": "sectors"}
            return [(dict(base, kind="value"), i % 90 + 1), (dict(base, kind="limit"), 1)]
        if name == "rated_used":
            return [({}, self.rated(i))]
        if name == "own_used":
            return [({}, self.rated(i) / 2)]
        if name == "wearout":
            return [({}, self.wearout(i))]
        if name == "warranty_end":
            return [({"__name__": "wearwatch_drive_warranty_end_timestamp_seconds"},
                     self.now + 5 * 365 * DAY)]
        if name == "temperature":
            return [({"__name__": "wearwatch_drive_temperature_celsius"}, 30 + i % 40)]
        if name == "present":
            return [({"__name__": "wearwatch_drive_present"}, 1)]
        raise KeyError(name)

    def problem_set(self):
        """The drives of fleet.c's problem_set, by its definition."""
        idx = range(self.n)
        bad = sorted((i for i in idx if self.status(i) in (1, 2)),
                     key=lambda i: -self.status(i))[:500]
        top = sorted(idx, key=lambda i: -self.rated(i))[:50]
        soon = sorted(idx, key=self.wearout)[:50]
        return sorted(set(bad) | set(top) | set(soon))


FAMILIES = [
    ("reason_values", "wearwatch_drive_health_reason_value"),
    ("reasons", "wearwatch_drive_health_reason"),
    ("health", "wearwatch_drive_health_status"),
    ("info", "wearwatch_drive_info"),
    ("rated_used", "wearwatch_drive_rated_endurance_used_ratio"),
    ("own_used", "wearwatch_drive_endurance_used_ratio"),
    ("wearout", "wearwatch_drive_wearout_timestamp_seconds"),
    ("warranty_end", "wearwatch_drive_warranty_end_timestamp_seconds"),
    ("temperature", "wearwatch_drive_temperature_celsius"),
    ("present", "wearwatch_drive_present"),
]


def fmt(v):
    return repr(float(v)) if isinstance(v, float) else str(v)


class StubPrometheus:
    """Serve in a thread: start(), .url, .log, stop()."""

    def __init__(self, hosts=5000, drives=20, down=30, now=None):
        self.fleet = Fleet(hosts, drives, down, int(now or time.time()))
        self.log = []          # (query, series, bytes)
        self.headers = []      # the request headers of each request
        self._problems = None
        self.srv = None

    def problems(self):
        if self._problems is None:
            self._problems = self.fleet.problem_set()
        return self._problems

    def vector(self, series):
        t = self.fleet.now
        return {"status": "success", "data": {"resultType": "vector", "result": [
            {"metric": m, "value": [t, fmt(v)]} for m, v in series]}}

    def answer(self, path, args):
        fl = self.fleet
        if path == "/api/v1/label/instance/values":
            return {"status": "success", "data": list(fl.names)}, None
        q = args.get("query", [""])[0]
        if q == "count(wearwatch_drive_info)":
            return self.vector([({}, fl.n)]), q
        if q.startswith("count_values("):
            c = {}
            for i in range(fl.n):
                c[fl.status(i)] = c.get(fl.status(i), 0) + 1
            return self.vector([({"status": str(k)}, v) for k, v in sorted(c.items())]), q
        if "up{job=~" in q:
            down = [({"instance": "down%03d.example.net:9786" % k, "job": "wearwatch"},
                     fl.now - 3600 * (k + 1) if k % 3 else 0) for k in range(fl.down)]
            if q.startswith("count("):
                return self.vector([({}, len(down))]), q
            m = re.match(r"topk\((\d+), ", q)
            down.sort(key=lambda x: -x[1])
            return self.vector(down[:int(m.group(1))] if m else down), q
        for name, metric in FAMILIES:
            if metric in q:
                break
        else:
            return {"status": "error", "errorType": "bad_data",
                    "error": "the stub does not know this query"}, q
        m = re.search(r'\{instance=~"((?:[^"\\]|\\.)*)"\}', q)
        if m:
            # the PromQL string, then the regex: \\. is a literal dot
            names = set(re.sub(r"\\(.)", r"\1",
                               m.group(1).encode().decode("unicode_escape")).split("|"))
            hosts = [h for h, n in enumerate(fl.names) if n in names]
            drives = [h * fl.drives + d for h in hosts for d in range(fl.drives)]
        elif "and on (instance, job, drive) (topk(" in q:
            drives = self.problems()
        else:
            drives = range(fl.n)   # unbounded: the whole fleet, as Prometheus would
        out = []
        for i in drives:
            for extra, v in fl.family(name, i):
                out.append((dict(fl.labels(i), **extra), v))
        return self.vector(out), q

    def start(self, port=0):
        stub = self

        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                u = urllib.parse.urlsplit(self.path)
                stub.headers.append(dict(self.headers))
                body, q = stub.answer(u.path, urllib.parse.parse_qs(u.query))
                data = json.dumps(body, separators=(",", ":")).encode()
                n = len(body.get("data", {}).get("result", [])) if isinstance(
                    body.get("data"), dict) else len(body.get("data", []))
                stub.log.append((q or u.path, n, len(data)))
                self.send_response(200 if body["status"] == "success" else 400)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *a):
                pass
        self.srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), H)
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()
        self.url = "http://127.0.0.1:%d" % self.srv.server_address[1]
        return self

    def full_info_bytes(self):
        """Bytes of wearwatch_drive_info for the whole fleet: what one
        unbounded question would bring."""
        body, _ = self.answer("/api/v1/query", {"query": ["wearwatch_drive_info"]})
        return len(json.dumps(body, separators=(",", ":")))

    def stop(self):
        if self.srv:
            self.srv.shutdown()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hosts", type=int, default=5000)
    ap.add_argument("--drives", type=int, default=20)
    ap.add_argument("--down", type=int, default=30)
    ap.add_argument("--port", type=int, default=9090)
    a = ap.parse_args()
    s = StubPrometheus(a.hosts, a.drives, a.down).start(a.port)
    print("stub Prometheus with %d drives at %s" % (s.fleet.n, s.url), flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        s.stop()


if __name__ == "__main__":
    main()
