#!/usr/bin/env python3
"""A normal scraper's /metrics latency, quiet and under each attack on the
connection slots and the login checks, one after the other against one
running service (scripts/bench-hostile.sh starts it). Loopback only
(127.0.0.0/8), bounded in time and count. The scraper asks for /metrics
with the right password every 0.25 s on a new connection from 127.0.4.1,
as a Prometheus whose kept-alive connection was closed does; a scrape that
fails or takes over 10 s counts as 10 s. Attacks (each SECONDS long):
  keepalive  valid clients from 25 addresses (127.0.5.1-25), 64 connections
             each (the per-address limit), kept alive: each asks /healthz
             with the right password once, then again every 5 s;
  trickle    100 addresses (127.0.6.1-100), 12 connections each, a byte of
             a request a second, reconnecting when closed;
  rotate     wrong passwords, one request at a time from each of 8 threads,
             every request from the next of 2000 addresses (127.0.7-14.x),
             more than the per-address slots the guard keeps.
The attack runs in a process of its own at nice ATTACK_NICE (default 19):
in life the attackers' CPU is other machines', and in one Python process
their threads held the interpreter lock the scraper's timing waited for
(the rotate attack's 8 busy threads took the scraper's p50 from 1 to 9 ms
whatever the server did). What the scraper measures is then the server's
cost. With SERVER_PID set, the server's CPU seconds over each condition are
printed too (utime + stime from /proc).
Prints one JSON line per condition: scrapes, failures, p50, p99 (s) and
the attackers' counts.
usage: [ATTACK_NICE=N] [SERVER_PID=PID] bench-slots.py PORT USER:PASSWORD SECONDS [CONDITION...]"""
import base64, json, multiprocessing, os, socket, sys, threading, time

PORT, AUTH, SECONDS = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
CONDS = sys.argv[4:] or ["quiet", "keepalive", "quiet", "trickle", "quiet", "rotate"]
HDR = "Authorization: Basic " + base64.b64encode(AUTH.encode()).decode() + "\r\n"
WRONG = "Authorization: Basic " + base64.b64encode(
    (AUTH.split(":")[0] + ":wrong").encode()).decode() + "\r\n"


def request(path, auth_hdr, src, keep=False, sock=None, timeout=10):
    """(status or error name, socket kept or None)"""
    try:
        s = sock or socket.create_connection(("127.0.0.1", PORT), timeout=timeout,
                                             source_address=(src, 0))
        s.settimeout(timeout)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: b\r\n{auth_hdr}Connection: "
                  f"{'keep-alive' if keep else 'close'}\r\n\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data:
            b = s.recv(65536)
            if not b:
                raise ConnectionResetError
            data += b
        head, _, body = data.partition(b"\r\n\r\n")
        n = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                n = int(line.split(b":")[1])
        while len(body) < n:
            b = s.recv(65536)
            if not b:
                break
            body += b
        if not keep:
            s.close()
            s = None
        return head[9:12].decode(), s
    except (OSError, ValueError) as e:
        if sock is None:
            try:
                s.close()
            except Exception:
                pass
        return type(e).__name__, None


def scraper(end, lat):
    while time.time() < end:
        t = time.time()
        st, _ = request("/metrics", HDR, "127.0.4.1")
        dt = time.time() - t
        lat.append(dt if st == "200" else 10.0)
        time.sleep(max(0.0, 0.25 - dt))


def keepalive(end, stats, stop):
    socks = []
    for a in range(1, 26):
        for _ in range(64):
            st, s = request("/healthz", HDR, f"127.0.5.{a}", keep=True)
            stats[st] = stats.get(st, 0) + 1
            if s:
                socks.append(s)
    stats["open"] = len(socks)
    while time.time() < end and not stop.is_set():
        time.sleep(5)
        for i, s in enumerate(socks):
            if s is None:
                continue
            st, s2 = request("/healthz", HDR, None, keep=True, sock=s)
            if s2 is None:  # closed by the server: a valid client reconnects
                s.close()
                st, s2 = request("/healthz", HDR, f"127.0.5.{1 + i // 64}", keep=True)
                stats["reconnects"] = stats.get("reconnects", 0) + 1
            stats[st] = stats.get(st, 0) + 1
            socks[i] = s2
    for s in socks:
        if s:
            s.close()


def trickle(end, stats, stop):
    socks = {}
    while time.time() < end and not stop.is_set():
        for a in range(1, 101):
            for k in range(12):
                s = socks.get((a, k))
                try:
                    if s is None:
                        s = socket.create_connection(("127.0.0.1", PORT), timeout=2,
                                                     source_address=(f"127.0.6.{a}", 0))
                        socks[(a, k)] = s
                        stats["connects"] = stats.get("connects", 0) + 1
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


def rotate(end, stats, stop):
    lock = threading.Lock()
    nxt = [0]

    def one():
        while time.time() < end and not stop.is_set():
            with lock:
                i = nxt[0] = (nxt[0] + 1) % 2000
            st, _ = request("/metrics", WRONG, f"127.0.{7 + i // 250}.{1 + i % 250}")
            with lock:
                stats[st] = stats.get(st, 0) + 1
    ths = [threading.Thread(target=one) for _ in range(8)]
    for t in ths:
        t.start()
    for t in ths:
        t.join()


def server_cpu_s():
    """the server's utime + stime in seconds, or None without SERVER_PID"""
    pid = os.environ.get("SERVER_PID")
    if not pid:
        return None
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def attack(cond, end, stop, out):
    """child process: one attack until END or STOP, its counts sent on OUT"""
    os.nice(int(os.environ.get("ATTACK_NICE", "19")))
    stats = {}
    globals()[cond](end, stats, stop)
    out.put(stats)


for cond in CONDS:
    lat, stats = [], {}
    lead = 2 if cond != "keepalive" else 8  # the attack in place first
    att = out = None
    stop = multiprocessing.Event()
    if cond != "quiet":
        out = multiprocessing.Queue()
        att = multiprocessing.Process(target=attack, args=(
            cond, time.time() + lead + SECONDS + 5, stop, out))
        att.start()
        time.sleep(lead)
    cpu0 = server_cpu_s()
    scraper(time.time() + SECONDS, lat)
    cpu1 = server_cpu_s()
    stop.set()
    if att:
        stats = out.get(timeout=60)
        att.join()
    lat.sort()
    line = {"condition": cond, "scrapes": len(lat),
            "failed": sum(1 for x in lat if x >= 10.0),
            "p50_s": round(lat[len(lat) // 2], 4),
            "p99_s": round(lat[min(len(lat) - 1, int(len(lat) * 0.99))], 4),
            "attackers": stats}
    if cpu0 is not None:
        line["server_cpu_s"] = round(cpu1 - cpu0, 2)
    print(json.dumps(line, sort_keys=True), flush=True)
