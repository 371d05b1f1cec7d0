#!/usr/bin/env python3
"""Write an md RAID member superblock, version 1.2, onto FILE (4 KiB from the
start, as mdadm --create --metadata=1.2 puts it), so libblkid reports
TYPE=linux_raid_member without the kernel's md driver. Spec-constructed from
the kernel's struct mdp_superblock_1 (include/uapi/linux/raid/md_p.h:
magic 0xa92b4efc, major_version 1, the device roles after the 256-byte
header) and mdadm's calc_sb_1_csum (super1.c: 32-bit little-endian sum over
256 + 2 * max_dev bytes with sb_csum zero, folded to 32 bits).
Usage: md_superblock.py FILE
"""
import struct
import sys
import uuid


def superblock(size_sectors):
    max_dev = 2
    sb = bytearray(256 + 2 * max_dev)
    struct.pack_into("<IIII", sb, 0, 0xA92B4EFC, 1, 0, 0)   # magic, major, feature_map, pad0
    sb[16:32] = uuid.UUID("0a1b2c3d-4e5f-4061-8273-948596a7b8c9").bytes   # set_uuid
    sb[32:64] = b"wearwatch:test".ljust(32, b"\0")          # set_name
    struct.pack_into("<Q", sb, 64, 1700000000)              # ctime
    struct.pack_into("<iI", sb, 72, 1, 0)                   # level 1 (mirror), layout
    struct.pack_into("<Q", sb, 80, size_sectors - 2048)     # size (sectors)
    struct.pack_into("<II", sb, 88, 0, 2)                   # chunksize, raid_disks
    struct.pack_into("<QQQQ", sb, 128, 2048, size_sectors - 2048, 8, 0)  # data_offset, data_size, super_offset, recovery
    struct.pack_into("<I", sb, 160, 0)                      # dev_number
    sb[168:184] = uuid.UUID("11111111-2222-4333-8444-555555555555").bytes  # device_uuid
    struct.pack_into("<Q", sb, 192, 1700000000)             # utime
    struct.pack_into("<Q", sb, 200, 1)                      # events
    struct.pack_into("<I", sb, 220, max_dev)                # max_dev
    struct.pack_into("<HH", sb, 256, 0, 1)                  # dev_roles
    total = sum(struct.unpack_from("<%dI" % (len(sb) // 4), sb))
    csum = (total & 0xFFFFFFFF) + (total >> 32)
    struct.pack_into("<I", sb, 216, csum & 0xFFFFFFFF)      # sb_csum
    return bytes(sb)


def main():
    path = sys.argv[1]
    with open(path, "r+b") as f:
        f.seek(0, 2)
        sectors = f.tell() // 512
        f.seek(4096)
        f.write(superblock(sectors))
    return 0


if __name__ == "__main__":
    sys.exit(main())
