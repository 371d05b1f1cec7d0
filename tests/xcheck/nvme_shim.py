"""What the nvme-cli cross-checks share: nvme-cli's path, a hex fixture's
page written out as bytes, and nvme-cli run on that page through
nvme_log_shim.c (LD_PRELOAD), which answers its Get Log Page from the file
for a device name only the shim knows, so no device is opened."""
import os
import re
import shutil
import subprocess


def nvme_cli():
    """nvme-cli's path, or None when it is not installed"""
    return shutil.which("nvme") or ("/usr/sbin/nvme" if os.path.exists("/usr/sbin/nvme") else None)


def write_page(hexf, binf):
    """the bytes of a hex fixture (# comments and blanks left out) into binf"""
    text = re.sub(r"#.*", "", open(hexf).read())
    with open(binf, "wb") as f:
        f.write(bytes.fromhex("".join(text.split())))


def run_on_page(nvme, args, shim, dev, page, lid):
    """nvme-cli ARGS with dev's Get Log Page `lid` (hex text) answered from
    the file page; its CompletedProcess (text)"""
    env = dict(os.environ, LD_PRELOAD=shim, WW_SHIM_DEV=dev, WW_SHIM_PAGE=page, WW_SHIM_LID=lid)
    return subprocess.run([nvme] + args, env=env, capture_output=True, text=True, timeout=30)
