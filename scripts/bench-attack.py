#!/usr/bin/env python3
"""The hostile load of scripts/bench-hostile.sh, bounded in count and time and
on loopback only (127.0.0.0/8): for SECONDS it runs
  - 16 clients sending a wrong password in a loop, each from its own address
    (127.0.2.1-16), one request at a time, a new one PACE seconds after the
    last was sent (default 0.1: 160 guesses a second in all, ten times what
    16 clients got through when every check cost a bcrypt on the one HTTP
    thread; 0: as fast as answers come, a connection flood);
  - one history-query loop (the drive's temperature over all of its history,
    10000 points) with the right password, from 127.0.3.1;
  - 300 connections from 30 addresses (127.0.0.10-39, 10 each) that send one
    byte of a request per second, and open again when the server closes them.
Prints one JSON line: requests and statuses per kind.
usage: bench-attack.py PORT USER:PASSWORD DRIVE SECONDS [PACE]"""
import base64, json, socket, sys, threading, time

PORT, AUTH, DRIVE, SECONDS = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
PACE = float(sys.argv[5]) if len(sys.argv) > 5 else 0.1
END = time.time() + SECONDS
stats = {"wrong_password": {}, "history": {}, "trickle_reconnects": 0}
lock = threading.Lock()


def get(path, auth, src):
    hdr = f"GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n"
    hdr += "Authorization: Basic " + base64.b64encode(auth.encode()).decode() + "\r\n\r\n"
    try:
        s = socket.create_connection(("127.0.0.1", PORT), timeout=20, source_address=(src, 0))
        s.sendall(hdr.encode())
        data = b""
        while len(data) < 12:
            b = s.recv(4096)
            if not b:
                break
            data += b
        while s.recv(65536):
            pass
        s.close()
        return data[9:12].decode() or "closed"
    except OSError as e:
        return type(e).__name__


def count(kind, status):
    with lock:
        stats[kind][status] = stats[kind].get(status, 0) + 1


def wrong(src):
    user = AUTH.split(":")[0]
    while time.time() < END:
        t = time.time()
        count("wrong_password", get("/metrics", user + ":wrong-password", src))
        time.sleep(max(0.0, PACE - (time.time() - t)))


def history():
    path = f"/api/v1/drives/{DRIVE}/history?metric=temperature_celsius&from=0&max_points=10000"
    while time.time() < END:
        count("history", get(path, AUTH, "127.0.3.1"))


def trickle():
    socks = {}
    addrs = [f"127.0.0.{i}" for i in range(10, 40)]
    n = 0
    while time.time() < END:
        for a in addrs:
            for k in range(10):
                s = socks.get((a, k))
                try:
                    if s is None:
                        s = socket.create_connection(("127.0.0.1", PORT), timeout=2,
                                                     source_address=(a, 0))
                        socks[(a, k)] = s
                        n += 1
                        s.send(b"G")
                    else:
                        s.send(b"E")
                except OSError:
                    if s is not None:
                        s.close()
                    socks[(a, k)] = None
        time.sleep(1)
    for s in socks.values():
        if s is not None:
            s.close()
    with lock:
        stats["trickle_reconnects"] = n


threads = [threading.Thread(target=wrong, args=(f"127.0.2.{i}",)) for i in range(1, 17)]
threads += [threading.Thread(target=history), threading.Thread(target=trickle)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps(stats, sort_keys=True))
