#!/usr/bin/env python3
"""Which SSD models of the real-drive fixtures the shipped ratings table covers.

    scripts/ratings-coverage.py [--fixtures DIR] [--ratings DIR] [--all]

Walks DIR (default ../shared/fixtures next to the source tree) and reads every
model string a drive reports there:
  * smartctl JSON (-j): model_name (ATA, NVMe) or scsi_vendor + scsi_product (SAS);
    SSD when NVMe, rotation_rate 0, or SAS with rotation_rate 0;
  * smartctl text (-x/-a): "Device Model:", "Model Number:", "Vendor:" + "Product:";
    SSD when NVMe or "Rotation Rate: Solid State Device";
  * libatasmart blobs (skdump --save): the IDENTIFY record, model words 27-46,
    SSD when word 217 (nominal media rotation rate) is 1;
  * NVMe Identify Controller dumps (4096 bytes, *.bin): MN at bytes 24-63.
Files that carry no model (LOG SENSE pages, nvme-cli smart-log, scan lists) are
skipped.

Datacenter or not is decided by product line (DATACENTER below: the part-number
prefixes of the vendors' datacenter / enterprise lines, from their product
briefs); everything else is "client". A table row matches as in
src/model/ratings.c (ww_ratings_match): rows in file-name order, the first whose
interface is empty or equal and whose pattern matches the model. Python's re
stands in for PCRE2: the shipped patterns use only the syntax both share
(anchors, classes, alternation, counted repeats).

Prints one line per distinct SSD model (interface, class, family, the matching
row's file:line or "-") and the coverage of the datacenter models. Exit 0;
77 with a message when the fixtures are absent (so a test can skip).
"""
import argparse
import glob
import json
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

# (regex on the model as reported, family). Datacenter / enterprise product lines only.
DATACENTER = [
    (r"^INTEL SSDSC2B[ABX]|^INTEL SSDSC2BB|^SSDSCKJB|^INTEL SSDSCKJB", "Intel DC S3xxx SATA"),
    (r"^INTEL SSDSC2K[BG]|^INTEL SSDSCKK[BG]", "Intel/Solidigm D3 S45xx/S46xx SATA"),
    (r"^INTEL SSDPE2K[XE]|^INTEL SSDPEDK[XE]", "Intel DC P45xx/P46xx NVMe"),
    (r"^INTEL SSDPF2K[XE]|^INTEL SSDPF2N", "Intel/Solidigm D7-P55xx NVMe"),
    (r"^INTEL SSDPE2M[DX]|^INTEL SSDPEDM[DX]", "Intel DC P3xxx NVMe"),
    (r"^INTEL SSDPE21|^INTEL SSDPED1", "Intel Optane DC P48xx NVMe"),
    (r"^Micron_5[1-4]00|^Micron_52[01]0", "Micron 5xxx SATA"),
    (r"^Micron_[79][0-9]{3}|^MTFDHA[LX]|^MTFDKC", "Micron 7xxx/9xxx NVMe"),
    (r"^SAMSUNG MZ7(LH|L3|KH|KM|WD|GE|LM|KE)", "Samsung datacenter SATA (SM/PM8xx)"),
    (r"^SAMSUNG MZ(QL|QLB|1L|PL|WL|QJ|PJ|WJ|4L)", "Samsung datacenter NVMe (PM9xx/PM17xx)"),
    (r"Express Flash NVMe PM17", "Samsung PM17xx (Dell)"),
    (r"^(TOSHIBA )?(THNSN8|THNSNJ[0-9A-Z]{3,4}PC|KHK|KPM|KSM|PX0)", "Toshiba/Kioxia enterprise SATA/SAS"),
    (r"^(TOSHIBA )?KCD|^KCM|^KCE|^KXD|^(TOSHIBA )?KXD", "Kioxia/Toshiba datacenter NVMe"),
    (r"^HUSMR|^HUSMM|^HUSSL|^HUSMH|^WUS[34]|^HGST HUS[MS]", "HGST/WD Ultrastar SSD"),
    (r"^(HPE? )?[VMEL][OKB][0-9]{6}[A-Z]{5}", "HPE relabelled SSD"),
    (r"^ST[0-9]+(FM|NX|NM)[0-9]{4}$|^XS[0-9]", "Seagate Nytro"),
]

NOT_SSD_MODELS = re.compile(r"^(Intel Raid|X SSD)")  # RAID volume, anonymised model


def iface_of_json(d):
    proto = (d.get("device") or {}).get("protocol", "")
    return {"NVMe": "nvme", "ATA": "sata", "SCSI": "sas"}.get(proto, "")


def from_json(path, d):
    iface = iface_of_json(d)
    if d.get("scsi_vendor") and d.get("scsi_product"):
        model = "%s %s" % (d["scsi_vendor"].strip(), d["scsi_product"].strip())
    else:
        model = d.get("model_name") or d.get("scsi_model_name")
    if not model:
        return None
    rot = d.get("rotation_rate")
    ssd = iface == "nvme" or rot == 0
    cap = (d.get("user_capacity") or {}).get("bytes") or d.get("nvme_total_capacity")
    if iface == "sas" and d.get("scsi_vendor") is None and " " in model:
        pass  # older smartctl put vendor and product into model_name
    return model.strip(), iface, ssd, cap


def from_text(text):
    def field(name):
        m = re.search(r"^%s:\s+(.*?)\s*$" % re.escape(name), text, re.M)
        return m.group(1) if m else None

    cap = None
    if field("Model Number"):
        model, iface, ssd = field("Model Number"), "nvme", True
        c = field("Total NVM Capacity") or field("Namespace 1 Size/Capacity")
    elif field("Device Model"):
        model, iface = field("Device Model"), "sata"
        ssd = "Solid State" in (field("Rotation Rate") or "")
        c = field("User Capacity")
    elif field("Product"):
        model, iface = "%s %s" % (field("Vendor") or "", field("Product")), "sas"
        ssd = "Solid State" in (field("Rotation Rate") or "")
        c = field("User Capacity")
    else:
        return None
    if c:
        m = re.match(r"([0-9,]+)", c)
        cap = int(m.group(1).replace(",", "")) if m else None
    return model.strip(), iface, ssd, cap


def ata_string(ident, first, last):
    raw = b"".join(ident[2 * w:2 * w + 2][::-1] for w in range(first, last + 1))
    return raw.decode("ascii", "replace").strip()


def from_blob(data):
    """libatasmart blob: records tag[4] size[4] data (big-endian)."""
    off = 0
    while off + 8 <= len(data):
        tag, size = data[off:off + 4], struct.unpack(">I", data[off + 4:off + 8])[0]
        body = data[off + 8:off + 8 + size]
        if tag == b"IDFY" and size >= 512:
            rot = struct.unpack("<H", body[434:436])[0]
            return ata_string(body, 27, 46), "sata", rot == 1, None
        off += 8 + size
    return None


def from_nvme_identify(data):
    if len(data) != 4096:
        return None
    mn = data[24:64].decode("ascii", "replace").strip()
    return (mn, "nvme", True, None) if mn and mn.isprintable() else None


def walk(fixtures):
    for path in sorted(glob.glob(os.path.join(fixtures, "**", "*"), recursive=True)):
        if not os.path.isfile(path) or "skdump-decoded" in path:
            continue
        with open(path, "rb") as f:
            data = f.read()
        rel = os.path.relpath(path, fixtures)
        got = None
        if path.endswith(".json"):
            try:
                got = from_json(path, json.loads(data))
            except ValueError:
                got = None
        elif data[:4] == b"IDFY":
            got = from_blob(data)
        elif path.endswith(".bin"):
            got = from_nvme_identify(data)
        else:
            try:
                got = from_text(data.decode("utf-8"))
            except UnicodeDecodeError:
                got = None
        if got:
            yield rel, got


def load_table(ratings_dir):
    rows = []
    for path in sorted(glob.glob(os.path.join(ratings_dir, "*.tsv"))):
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.rstrip("\r\n")
                if not line or line.startswith("#"):
                    continue
                col = line.split("\t")
                rows.append((re.compile(col[0]), col[1], "%s:%d" % (os.path.basename(path), n)))
    return rows


def match(rows, model, iface):
    for rx, riface, where in rows:
        if riface and iface and riface.lower() != iface:
            continue
        if rx.search(model):
            return where
    return None


def family(model):
    for rx, fam in DATACENTER:
        if re.search(rx, model):
            return fam
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fixtures", default=os.path.join(TOP, "..", "shared", "fixtures"))
    ap.add_argument("--ratings", default=os.path.join(TOP, "data", "ratings"))
    ap.add_argument("--all", action="store_true", help="list client models too")
    a = ap.parse_args()
    if not os.path.isdir(a.fixtures):
        print("skip: no fixtures at %s" % a.fixtures)
        return 77
    rows = load_table(a.ratings)
    seen = {}
    for rel, (model, iface, ssd, cap) in walk(a.fixtures):
        if not ssd or NOT_SSD_MODELS.search(model):
            continue
        seen.setdefault((model, iface), rel)
    dc = hit = 0
    for (model, iface), rel in sorted(seen.items()):
        fam = family(model)
        where = match(rows, model, iface)
        if fam:
            dc += 1
            hit += bool(where)
        if fam or a.all:
            print("%-44s %-4s %-10s %-40s %s" % (model, iface, "datacenter" if fam else "client",
                                                 fam or "-", where or "-"))
    print("distinct SSD models: %d, datacenter: %d, with a rating row: %d (%.0f %%)"
          % (len(seen), dc, hit, 100.0 * hit / dc if dc else 0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
