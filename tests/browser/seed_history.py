#!/usr/bin/env python3
"""Seed a wearwatch history database for the dashboard browser test.

usage: seed_history.py HISTORY_DB NOW DRIVE_JSON...

Run after `wearwatch serve --state-dir DIR` has created DIR/history.db (the
service owns the schema, src/history/history.c; this script only inserts rows
by column name). For each drive (a JSON state object from /api/v1/drives) it
writes one raw sample (tier 0) every 6 hours over the 60 days before NOW - 120
s, ending at the drive's current summary values, so the plots join the
service's own samples:
  host_written_bytes  grows linearly to the current value, by half of it over
                      the 60 days (1 TB at NOW when the drive reports none)
  temperature_celsius current value +- 4 degC daily cycle (35 when absent)
  endurance_used_percent steps up by 1 every 20 days to the current value
  unsafe_shutdowns    +1 every 15 days up to the current value (or 4)
  media_errors        0
  present             1
and, at the same times, one probe burst row each (table probe_samples):
  p50_seconds         80 us +- 10 us daily cycle
  p99_seconds         400 us
  max_seconds         1.2 ms (4 ms once a day)
  reads, errors       64, 0
The counts are printed as JSON ({"drive": samples}) for the test to compare
with the plots' data lengths. Values are synthetic by design: the test checks
that the pages plot what the history API returns, not the drives' past.
"""
import json
import sqlite3
import sys

STEP = 6 * 3600
DAYS = 60


def num(v, default):
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def main():
    db, now = sys.argv[1], int(sys.argv[2])
    drives = [json.loads(a) for a in sys.argv[3:]]
    con = sqlite3.connect(db, timeout=10)
    out = {}
    end = now - 120
    times = list(range(end - DAYS * 86400, end + 1, STEP))
    for d in drives:
        s = d.get("summary") or {}
        w_now = num(s.get("host_written_bytes"), 10**12)
        t_now = num(s.get("temperature_celsius"), 35)
        p_now = num(s.get("endurance_used_percent"), 3)
        u_now = num(s.get("unsafe_shutdowns"), 4)
        rows = []
        for t in times:
            age = end - t
            rows.append((d["id"], 0, t, 0,
                         w_now - w_now * age // (2 * DAYS * 86400),
                         None,
                         max(0, p_now - age // (20 * 86400)),
                         t_now + (4 if (t // 3600) % 24 < 12 else -4),
                         None,
                         max(0, u_now - age // (15 * 86400)),
                         0, None, 1))
        con.executemany(
            "INSERT OR REPLACE INTO samples(drive, tier, t, segment, host_written_bytes,"
            " host_read_bytes, endurance_used_percent, temperature_celsius,"
            " power_on_seconds, unsafe_shutdowns, media_errors,"
            " available_spare_percent, present) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        probes = [(d["id"], 0, t, 80e-6 + (10e-6 if (t // 3600) % 24 < 12 else -10e-6),
                   400e-6, 4e-3 if (t // STEP) % 4 == 0 else 1.2e-3, 64, 0)
                  for t in times]
        con.executemany(
            "INSERT OR REPLACE INTO probe_samples(drive, tier, t, p50_seconds, p99_seconds,"
            " max_seconds, reads, errors) VALUES (?,?,?,?,?,?,?,?)", probes)
        out[d["id"]] = len(rows)
    con.commit()
    con.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
