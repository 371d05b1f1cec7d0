"""Helpers shared by the service tests (test_service.py, test_serve_split.py)."""
import signal
import socket
import subprocess
import time

# Openwall crypt_blowfish test vector: "U*U" with salt CCC... (cost 05)
HASH = "$2y$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
# the web side's credentials: nobody, no capabilities
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
          "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
FAILS = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        FAILS.append(what)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def read_all(s):
    """Everything a socket sends until it closes; the socket is closed."""
    data = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        data += b
    s.close()
    return data


def ipc(path, req):
    """One request on the collector's Unix socket; the whole reply."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(5)
    s.connect(path)
    s.sendall(req.encode())
    return read_all(s).decode()


def stop(p):
    """SIGTERM a daemon and wait for it (10 s, then SIGKILL); its exit status."""
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        try:
            return p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    return p.returncode


def wait_for(pred, timeout=8.0, step=0.05):
    end = time.time() + timeout
    while time.time() < end:
        if pred():
            return True
        time.sleep(step)
    return False


def curl(*args):
    r = subprocess.run(["curl", "-s", "-o", "-", "-w", "\n%{http_code}", "--max-time", "5"] +
                       list(args), capture_output=True, text=True)
    body, _, code = r.stdout.rpartition("\n")
    return code, body
