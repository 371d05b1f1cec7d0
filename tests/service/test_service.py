#!/usr/bin/env python3
"""Service daemons end to end, no drives needed (an empty sysfs tree):
sd_notify order against a test NOTIFY_SOCKET, config good/bad files, SIGHUP
reload (good and bad), the web side's privilege check (CapEff 0, cannot open
a drive node), TLS and bcrypt basic auth with curl, listener rebinding, and
`wearwatch notify-test`. usage: test_service.py WEARWATCH_BINARY"""
import json, os, shutil, signal, socket, subprocess, sys, tempfile, threading, time

from svc_common import FAILS, HASH, NOBODY, check, curl, free_port, ipc, wait_for

BIN = os.path.abspath(sys.argv[1])


def main():
    if os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("curl"):
        print("SKIP: needs root, setpriv (util-linux) and curl")
        return 77
    tmp = tempfile.mkdtemp(prefix="ww-svc-")
    os.chmod(tmp, 0o755)
    os.makedirs(f"{tmp}/root/sys/block")
    os.makedirs(f"{tmp}/root/dev/disk/by-id")
    sock = f"{tmp}/collector.sock"
    conf = f"{tmp}/wearwatch.conf"
    port1, port2 = free_port(), free_port()

    def write_conf(interval="60s", port=port1, webcfg="", extra=""):
        with open(conf, "w") as f:
            f.write(f"[web]\nlisten = 127.0.0.1:{port}\n" +
                    (f"web_config = {webcfg}\n" if webcfg else "") +
                    f"[collector]\nsocket = {sock}\nstate_directory = {tmp}/state\n"
                    f"[poll]\ninterval = {interval}\n"
                    f"[drive ata-TEST_DISK_1]\nwarranty_start = 2024-02-29\nrating = 600TB:5\n"
                    f"[drive sdz]\nprobe = off\n{extra}")
        os.chmod(conf, 0o644)

    # --- bad files: file:line and exit 2
    bad = f"{tmp}/bad.conf"
    for text, line, msg in [
        ("[poll]\ninterval = 60s\n\ninterval_rotational = soon\n", 4, "interval_rotational: expected a duration"),
        ("[web]\nlisten = 127.0.0.1:9786\n[nosuch]\nx = 1\n", 4, "unknown section [nosuch]"),
        ("[drive sda]\nwarranty_start = 2023-02-29\n", 2, "warranty_start: expected YYYY-MM-DD"),
        ("[poll]\nthis line has no equals sign\n", 2, "syntax error"),
        ("[drive sda]\ninclude = yes\nrating = lots\n", 3, "rating: "),  # ww_rating_override_parse
    ]:
        with open(bad, "w") as f:
            f.write(text)
        r = subprocess.run([BIN, "collector", "--config", bad, "--sysroot", f"{tmp}/root"],
                           capture_output=True, text=True, timeout=10)
        check(r.returncode == 2 and f"{bad}:{line}: {msg}" in r.stderr,
              f"bad config -> exit 2 and '{bad}:{line}: {msg}' (got {r.returncode}: {r.stderr.strip()})")
    r = subprocess.run([BIN, "collector", "--config", f"{tmp}/missing.conf"],
                       capture_output=True, text=True, timeout=10)
    check(r.returncode != 0 and "missing.conf: No such file" in r.stderr, "explicit missing --config is an error")

    # --- collector under a test NOTIFY_SOCKET
    write_conf()
    nsock = f"{tmp}/notify"
    ns = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    ns.bind(nsock)
    ns.settimeout(0.2)
    env = dict(os.environ, NOTIFY_SOCKET=nsock, WATCHDOG_USEC="1000000")
    env.pop("JOURNAL_STREAM", None)
    log = open(f"{tmp}/collector.log", "w+")
    col = subprocess.Popen([BIN, "collector", "--config", conf, "--sysroot", f"{tmp}/root"],
                           env=env, stderr=log)
    msgs = []

    # Read the notify socket all the time, as systemd does: a datagram
    # socket queues 10 (net.unix.max_dgram_qlen) and the sender never
    # blocks, so a reader that waits between checks loses what comes after
    # (WATCHDOG=1 twice a second fills it while the web checks run).
    rx_stop = threading.Event()

    def rx():
        while not rx_stop.is_set():
            try:
                msgs.append(ns.recv(4096).decode())
            except socket.timeout:
                pass

    rx_thread = threading.Thread(target=rx, daemon=True)
    rx_thread.start()

    def drain(seconds):
        time.sleep(seconds)

    try:
        drain(2.5)
        check(len(msgs) >= 3, f"collector sent {len(msgs)} notify datagrams")
        check(msgs and msgs[0].startswith("READY=1\nSTATUS="), f"first datagram is READY=1 + STATUS ({msgs[:1]})")
        st = [m for m in msgs if m.startswith("STATUS=")]
        check(any("0 drives (0 present" in m for m in st), f"STATUS carries drive counts ({st[:1]})")
        wd = [i for i, m in enumerate(msgs) if m == "WATCHDOG=1"]
        check(len(wd) >= 3 and wd[0] > 0, f"WATCHDOG=1 after READY, every ~0.5 s for WatchdogSec=1s ({len(wd)} in 2.5 s)")
        check(os.stat(sock).st_mode & 0o777 == 0o666, "collector socket is 0666")
        check(ipc(sock, "GET /healthz\n") == "WW2 200 3 0 text/plain; charset=utf-8\nok\n", "collector answers GET /healthz")
        check(ipc(sock, "GET /etc/passwd\n").startswith("WW2 400 0"), "collector rejects a path outside the route list")
        check(ipc(sock, "GET /api/v1/drives\n").endswith("\n[]"), "collector /api/v1/drives over the socket: [] for an empty tree")
        # a render-cache body asked for by its own tag: a 304 header, no body
        head = ipc(sock, "GET /metrics\n").split("\n", 1)[0].split(" ")
        check(head[:2] == ["WW2", "200"] and int(head[3]) > 0, f"collector /metrics comes with a tag ({' '.join(head[:4])})")
        again = ipc(sock, f"GET /metrics {head[3]}\n")
        check(again.startswith(f"WW2 304 0 {head[3]} ") and again.count("\n") == 1 and again.endswith("\n"),
              "collector answers 304 and no body to the tag of the body it would send")

        # --- SIGHUP with a good file: RELOADING=1 then READY=1, new interval
        msgs.clear()
        write_conf(interval="2m")
        col.send_signal(signal.SIGHUP)
        drain(1.0)
        seq = [m for m in msgs if m in ("RELOADING=1", "READY=1")]
        check(seq[:2] == ["RELOADING=1", "READY=1"], f"reload notifies RELOADING=1 then READY=1 ({seq})")
        log.seek(0)
        check("poll 120 s" in log.read().split("reloaded")[-1], "reload applied interval = 2m (120 s)")
        # --- SIGHUP with a bad file: file:line, last good config kept, still serving
        with open(conf, "a") as f:
            f.write("[poll]\ninterval = never\n")
        bad_line = open(conf).read().count("\n")  # the last line is the bad one
        col.send_signal(signal.SIGHUP)
        time.sleep(0.8)
        log.seek(0)
        text = log.read()
        check(f"reload: {conf}:{bad_line}: interval: expected a duration" in text and
              "keeping the last good configuration" in text, "bad reload: file:line and last good kept")
        check(col.poll() is None and ipc(sock, "GET /healthz\n").endswith("ok\n"), "collector still serving after a bad reload")

        # --- web: privilege check
        dev = f"{tmp}/dev"
        os.mkdir(dev)
        os.mknod(f"{dev}/sda", 0o660 | 0o060000, os.makedev(7, 0))  # block 7:0 (loop0)
        write_conf()
        r = subprocess.run([BIN, "web", "--config", conf, "--dev-dir", dev],
                           capture_output=True, text=True, timeout=10)
        check(r.returncode == 1 and "refusing to run with capabilities" in r.stderr, "web as root refuses to start")
        r = subprocess.run(NOBODY + ["python3", "-c", f"open('{dev}/sda','rb')"],
                           capture_output=True, text=True, timeout=10)
        check(r.returncode != 0 and "PermissionError" in r.stderr, "with the web's credentials the drive node does not open (EACCES)")
        wlog = open(f"{tmp}/web.log", "w+")
        web = subprocess.Popen(NOBODY + [BIN, "web", "--config", conf, "--dev-dir", dev],
                               stderr=wlog)
        try:
            check(wait_for(lambda: curl(f"http://127.0.0.1:{port1}/healthz")[0] == "200"), "web answers /healthz")
            with open(f"/proc/{web.pid}/status") as f:
                status = dict(l.split(":", 1) for l in f.read().splitlines() if ":" in l)
            check(status["CapEff"].strip() == "0000000000000000", f"web CapEff = {status['CapEff'].strip()}")
            check(status["Uid"].split()[0] == "65534", "web runs as uid 65534")
            wlog.seek(0)
            check("0 of 1 drive nodes" in wlog.read(), "web privilege check: 0 of 1 drive nodes accessible")
            code, body = curl(f"http://127.0.0.1:{port1}/metrics")
            check(code == "200" and "# HELP wearwatch_" in body, "GET /metrics through the web side")
            check(curl(f"http://127.0.0.1:{port1}/api/v1/drives/..%2Fx")[0] == "404", "web rejects an encoded path")
            check(curl("-X", "POST", f"http://127.0.0.1:{port1}/metrics")[0] == "405", "web: POST is 405")
            check("\nprocess_resident_memory_bytes " in body and "\nprocess_start_time_seconds " in body,
                  "the web side exports process_* metrics")
            code, body = curl(f"http://127.0.0.1:{port1}/api/v1/host")
            check(code == "200" and json.loads(body) == {"host": socket.gethostname(), "fleet": False},
                  f"/api/v1/host names the host: {body}")
            code, body = curl(f"http://127.0.0.1:{port1}/api/v1/fleet")
            check(code == "200" and json.loads(body) == {"configured": False},
                  f"/api/v1/fleet without [fleet]: {body}")
            # [fleet] naming a Prometheus that is not there: 502 with the reason,
            # answered by the web side (the collector has no network)
            write_conf(extra=f"[fleet]\nprometheus = http://127.0.0.1:{free_port()}\ntimeout = 2s\n")
            web.send_signal(signal.SIGHUP)
            check(wait_for(lambda: json.loads(curl(f"http://127.0.0.1:{port1}/api/v1/host")[1] or "{}")
                           .get("fleet") is True), "reload picks up [fleet]")
            def maps_curl():
                with open(f"/proc/{web.pid}/maps") as f:
                    return "libcurl" in f.read()
            check(not maps_curl(), "libcurl is not mapped before the fleet page asks Prometheus")
            code, body = curl(f"http://127.0.0.1:{port1}/api/v1/fleet")
            fl = json.loads(body) if code == "502" else {}
            check(maps_curl(), "libcurl loaded for the fleet page's first query")
            # libcurl's words only: the first query's name ("info: ") meant
            # nothing to the page, which shows "Prometheus: " + the error
            check(fl.get("configured") is True and
                  fl.get("errors") == ["Couldn't connect to server"],
                  f"/api/v1/fleet with Prometheus unreachable: 502 and why ({code} {body})")

            # --- reload onto TLS + basic auth, then onto another port
            key, crt = f"{tmp}/server.key", f"{tmp}/server.crt"
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                            "-keyout", key, "-out", crt], check=True, capture_output=True)
            for p in (key, crt):
                os.chmod(p, 0o644)
            wc = f"{tmp}/web.config"
            with open(wc, "w") as f:
                f.write("# exporter-toolkit format\ntls_server_config:\n  cert_file: server.crt\n"
                        f"  key_file: server.key\nbasic_auth_users:\n  alice: '{HASH}'\n")
            os.chmod(wc, 0o644)
            write_conf(webcfg=wc)
            web.send_signal(signal.SIGHUP)
            https = f"https://127.0.0.1:{port1}/metrics"
            check(wait_for(lambda: curl("--cacert", crt, https)[0] == "401"), "TLS: no credentials -> 401")
            check(curl("--cacert", crt, "-u", "alice:wrong", https)[0] == "401", "TLS: wrong password -> 401")
            check(curl("--cacert", crt, "-u", "bob:U*U", https)[0] == "401", "TLS: unknown user -> 401")
            code, body = curl("--cacert", crt, "-u", "alice:U*U", https)
            check(code == "200" and "# HELP wearwatch_" in body, "TLS: alice with the right password -> 200 metrics")
            check(curl(f"http://127.0.0.1:{port1}/metrics")[0] != "200", "plain HTTP no longer served")
            write_conf(port=port2)
            web.send_signal(signal.SIGHUP)
            check(wait_for(lambda: curl(f"http://127.0.0.1:{port2}/healthz")[0] == "200"), f"reload rebinds to port {port2}")
            check(curl(f"https://127.0.0.1:{port1}/healthz", "-k")[0] == "000", f"old port {port1} closed")
            with open(wc, "w") as f:
                f.write("tls_server_config:\n  cert_file: server.crt\n  min_version: TLS13\n")
            write_conf(port=port2, webcfg=wc)
            web.send_signal(signal.SIGHUP)
            time.sleep(0.8)
            wlog.seek(0)
            check(f"{wc}:3: tls_server_config: 'min_version' is not supported" in wlog.read(), "unsupported web.config key reported with file:line")
            check(curl(f"http://127.0.0.1:{port2}/healthz")[0] == "200", "web keeps the last good configuration")
        finally:
            web.terminate()
            web.wait(10)
    finally:
        col.terminate()
        check(col.wait(30) == 0, "collector exits 0 on SIGTERM")  # systemd allows 90 s; under a parallel .deb build fsync is slow
    drain(0.3)
    rx_stop.set()
    rx_thread.join(1)
    check("STOPPING=1" in msgs, "STOPPING=1 on SIGTERM")

    # --- notify-test: the program sees the event in its environment
    out = f"{tmp}/env.out"
    prog = f"{tmp}/notify.sh"
    with open(prog, "w") as f:
        f.write(f"#!/bin/sh\nenv | grep '^WEARWATCH_' | sort > {out}\n")
    os.chmod(prog, 0o755)
    r = subprocess.run([BIN, "notify-test", "--config", conf, "--notify-exec", prog],
                       capture_output=True, text=True, timeout=10)
    env_out = open(out).read() if os.path.exists(out) else ""
    check(r.returncode == 0 and "WEARWATCH_EVENT=test\n" in env_out and
          "WEARWATCH_MESSAGE_ID=4943aef8bf1d48ee9cd023768583368e\n" in env_out and
          "WEARWATCH_NEW_STATE=warning\n" in env_out, "notify-test runs the program with WEARWATCH_* set")
    shutil.rmtree(tmp)
    print(f"{len(FAILS)} failed")
    return 1 if FAILS else 0


sys.exit(main())
