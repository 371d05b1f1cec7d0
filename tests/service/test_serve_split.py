#!/usr/bin/env python3
"""`wearwatch serve` with the configuration file and the collector/web split
serving the dashboard's requests, no drives needed (an empty sysfs tree):
serve reads --config (file:line on a bad file, flags over the file), honours
web.config basic auth, SIGHUP rebinds a changed listen address and keeps the
last good configuration on a bad file, and keeps the history database of
state_directory; the dashboard's history request
(/api/v1/drives/{drive}/history?metric=&from=&to=&max_points=) answers the
same through web -> collector as from serve, with the rows inserted here
(synthetic values, by column name, as tests/browser/seed_history.py does);
unknown query names are refused; assets and deep links are served by the web
side. usage: test_serve_split.py WEARWATCH_BINARY"""
import json, os, shutil, signal, sqlite3, subprocess, sys, tempfile, time

from svc_common import FAILS, HASH, NOBODY, check, curl, free_port, stop, wait_for

BIN = os.path.abspath(sys.argv[1])
DRIVE = "nvme-TEST_SSD_S0000001"


def main():
    if os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("curl"):
        print("SKIP: needs root, setpriv (util-linux) and curl")
        return 77
    tmp = tempfile.mkdtemp(prefix="ww-split-")
    os.chmod(tmp, 0o755)
    os.makedirs(f"{tmp}/root/sys/block")
    state = f"{tmp}/state"
    conf, webcfg = f"{tmp}/wearwatch.conf", f"{tmp}/web.yml"
    p1, p2, p3 = free_port(), free_port(), free_port()
    with open(webcfg, "w") as f:
        f.write(f"basic_auth_users:\n  alice: '{HASH}'\n")

    def write_conf(port, extra=""):
        with open(conf, "w") as f:
            f.write(f"[web]\nlisten = 127.0.0.1:{port}\nweb_config = {webcfg}\n"
                    f"[collector]\nstate_directory = {state}\nsocket = {tmp}/c.sock\n"
                    f"[poll]\ninterval = 2s\n[history]\nretention = 400d\n{extra}")
        os.chmod(conf, 0o644)

    # --- a bad file stops serve at start with file:line
    write_conf(p1, "[drive ata-X]\nprobe = qd=0\n")
    r = subprocess.run([BIN, "serve", "--config", conf, "--sysroot", f"{tmp}/root"],
                       capture_output=True, text=True, timeout=10)
    check(r.returncode == 2 and f"{conf}:12: probe qd: invalid value '0'" in r.stderr,
          f"serve: bad file -> exit 2 with file:line ({r.returncode}: {r.stderr.strip()[-120:]})")

    write_conf(p1)
    log = open(f"{tmp}/serve.log", "w+")
    srv = subprocess.Popen([BIN, "serve", "--config", conf, "--sysroot", f"{tmp}/root",
                            "--no-probe"], stderr=log)
    try:
        base = f"http://127.0.0.1:{p1}"
        check(wait_for(lambda: curl("-u", "alice:U*U", base + "/healthz")[0] == "200"),
              "serve listens where the file says, with web.config basic auth")
        check(curl(base + "/api/v1/drives")[0] == "401", "serve: no credentials -> 401")
        check(curl("-u", "alice:wrong", base + "/metrics")[0] == "401", "serve: wrong password -> 401")
        check(os.path.exists(f"{state}/history.db"), "serve opens history in [collector] state_directory")
        # rebind on SIGHUP
        write_conf(p2)
        srv.send_signal(signal.SIGHUP)
        check(wait_for(lambda: curl("-u", "alice:U*U", f"http://127.0.0.1:{p2}/healthz")[0] == "200"),
              "serve: SIGHUP rebinds to the new listen address")
        check(curl(f"http://127.0.0.1:{p1}/healthz")[0] == "000", "serve: old address closed")
        # bad file on SIGHUP: last good configuration kept
        with open(conf, "a") as f:
            f.write("[poll]\ninterval = never\n")
        srv.send_signal(signal.SIGHUP)
        time.sleep(1)
        check(curl("-u", "alice:U*U", f"http://127.0.0.1:{p2}/healthz")[0] == "200",
              "serve: bad file on SIGHUP keeps serving")
        log.seek(0)
        text = log.read()
        check(f"{conf}:12: interval: expected a duration" in text and "keeping the last good" in text,
              "serve: reload error names file:line")
    finally:
        check(stop(srv) == 0, "serve exits 0 on SIGTERM")
    # flags win over the file
    write_conf(p1)
    srv = subprocess.Popen([BIN, "serve", "--config", conf, "--sysroot", f"{tmp}/root",
                            "--no-probe", "--listen", f"127.0.0.1:{p3}"], stderr=log)
    try:
        check(wait_for(lambda: curl("-u", "alice:U*U", f"http://127.0.0.1:{p3}/healthz")[0] == "200"),
              "serve: --listen overrides the file")
    finally:
        stop(srv)

    # --- history rows for a drive (the history file and schema are the service's)
    now = int(time.time())
    db = sqlite3.connect(f"{state}/history.db")
    rows = [(DRIVE, 0, now - 3600 * (10 - i), 0, 10**12 + i * 10**9, 1) for i in range(10)]
    db.executemany("INSERT INTO samples(drive, tier, t, segment, host_written_bytes, present)"
                   " VALUES (?,?,?,?,?,?)", rows)
    db.commit()
    db.close()
    q = f"/api/v1/drives/{DRIVE}/history?metric=host_written_bytes&from={now - 86400}&to={now}&max_points=400"

    srv = subprocess.Popen([BIN, "serve", "--config", conf, "--sysroot", f"{tmp}/root",
                            "--no-probe", "--web-config", ""], stderr=log)
    try:
        wait_for(lambda: curl(f"http://127.0.0.1:{p1}/healthz")[0] == "200")
        code, serve_body = curl(f"http://127.0.0.1:{p1}" + q)
        check(code == "200", f"serve answers the dashboard's history request ({code})")
    finally:
        stop(srv)

    sock = f"{tmp}/c.sock"
    col = subprocess.Popen([BIN, "collector", "--config", conf, "--sysroot", f"{tmp}/root"],
                           stderr=log)
    web = None
    try:
        check(wait_for(lambda: os.path.exists(sock)), "collector socket up")
        web = subprocess.Popen(NOBODY + [BIN, "web", "--config", conf, "--web-config", "",
                                         "--dev-dir", f"{tmp}/root"], stderr=log)
        base = f"http://127.0.0.1:{p1}"
        check(wait_for(lambda: curl(base + "/healthz")[0] == "200"), "web up (as nobody)")
        code, body = curl(base + q)
        check(code == "200", f"split: history request through web -> collector ({code} {body[:80]})")
        try:
            pts = json.loads(body).get("points", [])
        except ValueError:
            pts = []
        vals = [p.get("value", p.get("v")) if isinstance(p, dict) else p[1] for p in pts]
        check(len(pts) == 10 and vals[-1] == 10**12 + 9 * 10**9,
              f"split: the 10 inserted samples come back, last {10**12 + 9 * 10**9} ({len(pts)} points)")
        check(body == serve_body, "split and serve return the same history body")
        check(curl(base + f"/api/v1/drives/{DRIVE}/history?metric=host_written_bytes&step=5")[0] == "400",
              "split: unknown query name -> 400")
        check(curl(base + f"/api/v1/drives/{DRIVE}/history?metric=a%27b")[0] == "400",
              "split: bad value byte -> 400")
        check(curl(base + "/api/v1/drives")[0] == "200", "split: /api/v1/drives")
        check(curl(base + "/table")[0] == "200", "split: /table")
        code, page = curl(base + f"/drives/{DRIVE}")
        check(code == "200" and "<html" in page.lower(), "split: deep link /drives/{drive} serves the page")
        check(curl(base + "/assets/app.js")[0] == "200", "split: /assets/app.js from the web side")
    finally:
        if web:
            stop(web)
        stop(col)
    log.seek(0)
    if FAILS:
        print(log.read()[-3000:])
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(FAILS)} failed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
