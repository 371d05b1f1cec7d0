"""The VM lab of tests/vm/test_vm.py: the kernel to boot, QMP, and one QEMU
guest with an NVMe drive, an AHCI SATA disk and scsi_debug running
`wearwatch serve` (tests/vm/guest.sh); python3 standard library only."""
import glob
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

SKIP = 77
GUEST_PORT = 9786


def log(msg):
    print(msg, flush=True)


# ----------------------------------------------------- helpers of checks --

def wait(pred, seconds, step=0.5):
    """pred()'s first truthy value within `seconds`, polled every `step`; None"""
    end = time.time() + seconds
    while time.time() < end:
        r = pred()
        if r:
            return r
        time.sleep(step)
    return None


def _find(o, key, want, depth=0):
    if depth > 8:
        return None
    if isinstance(o, dict):
        if key in o and want(o[key]):
            return o[key]
        vals = o.values()
    elif isinstance(o, list):
        vals = o
    else:
        return None
    for v in vals:
        r = _find(v, key, want, depth + 1)
        if r is not None:
            return r
    return None


def find_obj(o, key):
    """the first object under `key` anywhere in a JSON document"""
    return _find(o, key, lambda v: isinstance(v, dict))


def find_val(o, key):
    """the first value under `key` that is neither an object nor a list"""
    return _find(o, key, lambda v: not isinstance(v, (dict, list)))


# ------------------------------------------------------------------ setup --

def find_kernel():
    """Newest /boot/vmlinuz-KVER with /lib/modules/KVER present."""
    cands = []
    for p in glob.glob("/boot/vmlinuz-*"):
        kver = p[len("/boot/vmlinuz-"):]
        if os.path.isdir("/lib/modules/" + kver):
            cands.append((kver, p))
    if not cands:
        return None, None
    def key(c):
        return [int(x) if x.isdigit() else 0 for x in re.split(r"[.-]", c[0])]
    cands.sort(key=key)
    return cands[-1]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class QMP:
    """Minimal QMP client over a unix socket."""

    def __init__(self, path, timeout=30):
        deadline = time.time() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        self.sock.settimeout(30)
        self.buf = b""
        self.events = []
        self._read()  # greeting
        self.cmd("qmp_capabilities")

    def _read(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("QMP closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def cmd(self, name, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            r = self._read()
            if "event" in r:
                self.events.append(r)
                continue
            if "error" in r:
                raise RuntimeError("QMP %s: %s" % (name, r["error"]))
            return r.get("return")

    def wait_event(self, name, timeout):
        deadline = time.time() + timeout
        while True:
            for e in self.events:
                if e.get("event") == name:
                    self.events.remove(e)
                    return e
            left = deadline - time.time()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                r = self._read()
                if "event" in r:
                    self.events.append(r)
            except socket.timeout:
                return None
            finally:
                self.sock.settimeout(30)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def die_with_parent():
    """In the QEMU child: get SIGKILL when the test process dies (PR_SET_PDEATHSIG)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    except Exception:
        pass


class VM:
    def __init__(self, args, kver, kernel, serve):
        self.args = args
        self.art = args.artifacts
        self.share = os.path.join(self.art, "share")
        self.kver, self.kernel, self.serve = kver, kernel, serve
        self.proc = None
        self.qmp = None
        self.port = None
        self.seq = 0
        self.devices = {}

    def start(self):
        os.makedirs(self.share, exist_ok=True)
        imgdir = os.path.join(self.art, "images")
        os.makedirs(imgdir, exist_ok=True)
        for name in ("nvme.img", "sata.img"):
            p = os.path.join(imgdir, name)
            if os.path.exists(p):
                os.unlink(p)
            subprocess.run(["truncate", "-s", "256M", p], check=True)
        initrd = os.path.join(self.art, "initramfs.cpio.gz")
        subprocess.run(["sh", os.path.join(self.args.source, "tests/vm/mkinitramfs.sh"),
                        self.kver, initrd], check=True)
        with open(os.path.join(self.share, "config.env"), "w") as f:
            extra = []
            for mod in getattr(self, "plugins", []):
                extra += getattr(mod, "SERVE_ARGS", [])
            f.write("WW_BINARY=%s\nWW_POLL=%d\nWW_PORT=%d\nWW_SERVE=%d\nWW_SERVE_EXTRA='%s'\n" % (
                os.path.abspath(self.args.binary) if self.args.binary else "",
                self.args.poll, GUEST_PORT, 1 if self.serve else 0, " ".join(extra)))
        self.port = free_port()
        self.qmp_path = os.path.join(self.art, "qmp.sock")
        if os.path.exists(self.qmp_path):
            os.unlink(self.qmp_path)
        guest = os.path.join(os.path.abspath(self.args.source), "tests/vm/guest.sh")
        cmd = [
            "qemu-system-x86_64", "-accel", "tcg", "-m", "1024", "-smp", "1",
            # -nodefaults: no floppy, CD-ROM or VGA; only the drives below
            "-nodefaults", "-nographic", "-serial", "stdio", "-no-reboot",
            "-kernel", self.kernel, "-initrd", initrd,
            "-append", "console=ttyS0 panic=-1 quiet loglevel=4 ww.guest=" + guest
            + (" ww.keep=" + os.path.abspath(self.args.binary) if self.args.binary else ""),
            "-virtfs", "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap",
            "-virtfs", "local,path=%s,mount_tag=artifacts,security_model=none,multidevs=remap" % self.share,
            "-drive", "file=%s,if=none,id=nv0,format=raw" % os.path.join(imgdir, "nvme.img"),
            "-device", "nvme,serial=WWNVME0001,drive=nv0,id=nvme0",
            "-device", "ahci,id=ahci0",
            "-drive", "file=%s,if=none,id=sa0,format=raw" % os.path.join(imgdir, "sata.img"),
            "-device", "ide-hd,drive=sa0,bus=ahci0.0,model=WWSATA_DISK,serial=WWSATA0001",
            "-netdev", "user,id=n0,hostfwd=tcp:127.0.0.1:%d-:%d" % (self.port, GUEST_PORT),
            "-device", "e1000,netdev=n0",
            "-qmp", "unix:%s,server,nowait" % self.qmp_path,
        ]
        for mod in getattr(self, "plugins", []):
            if hasattr(mod, "qemu_args"):
                cmd += mod.qemu_args(self, imgdir)
        with open(os.path.join(self.art, "qemu-cmdline.txt"), "w") as f:
            f.write(" ".join(cmd) + "\n")
        self.console = open(os.path.join(self.art, "console.log"), "wb")
        self.t0 = time.time()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=self.console,
                                     stderr=subprocess.STDOUT, start_new_session=True,
                                     preexec_fn=die_with_parent)
        self.qmp = QMP(self.qmp_path)

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def wait_ready(self, timeout):
        p = os.path.join(self.share, "ready")
        deadline = time.time() + timeout
        while time.time() < deadline:
            if os.path.exists(p):
                env = {}
                with open(os.path.join(self.share, "devices.env")) as f:
                    for line in f:
                        if "=" in line:
                            k, v = line.strip().split("=", 1)
                            env[k] = v
                self.devices = env
                return True
            if not self.alive():
                return False
            time.sleep(0.5)
        return False

    def run(self, script, timeout=120):
        """Run a shell script in the guest; returns (rc, output)."""
        self.seq += 1
        ctl = os.path.join(self.share, "ctl")
        os.makedirs(ctl, exist_ok=True)
        base = os.path.join(ctl, "%03d" % self.seq)
        with open(base + ".sh.tmp", "w") as f:
            f.write("set -u\n")
            for k, v in self.devices.items():
                f.write("%s=%s\n" % (k, v))
            f.write(script)
        os.rename(base + ".sh.tmp", base + ".sh")
        deadline = time.time() + timeout
        while time.time() < deadline:
            if os.path.exists(base + ".rc"):
                with open(base + ".rc") as f:
                    rc = int(f.read().strip() or "-1")
                with open(base + ".out", errors="replace") as f:
                    return rc, f.read()
            if not self.alive():
                return -1, "VM died"
            time.sleep(0.1)
        return -1, "timeout after %ds" % timeout

    def http(self, path, timeout=20):
        """GET path from the service; (status, body str, headers) or (None, error, {})."""
        url = "http://127.0.0.1:%d%s" % (self.port, path)
        try:
            with urllib.request.urlopen(url, timeout=timeout) as r:
                return r.status, r.read().decode("utf-8", "replace"), dict(r.headers)
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8", "replace"), dict(e.headers)
        except Exception as e:  # connection refused, reset, timeout
            return None, str(e), {}

    def stop(self):
        if self.proc is None:
            return
        if self.alive():
            try:
                open(os.path.join(self.share, "ctl", "poweroff"), "w").close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pass
        if self.alive():
            try:
                self.qmp.cmd("quit")
            except Exception:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        if self.alive():
            self.proc.kill()
            self.proc.wait()
        if self.qmp:
            self.qmp.close()
        self.console.close()
        log("vm: QEMU ended after %.1f s (rc %s)" % (time.time() - self.t0, self.proc.returncode))
