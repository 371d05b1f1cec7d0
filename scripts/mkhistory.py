#!/usr/bin/env python3
"""Write an aged history database: what DAYS days of the default settings
(a sample and a probe burst per drive every 60 s, raw rows kept 7 days, then
the last sample of each hour until 90 days, then the last of each day, as the
service's thinning leaves them) would leave, for benchmarks.

usage: mkhistory.py DB NOW DAYS DRIVE_ID[=WRITTEN,POWER_ON_S]...

With =WRITTEN,POWER_ON_S the drive's bytes written and power-on seconds
end at those values at NOW (a drive's own counters, so the service's next
sample continues the history instead of starting a new segment).

DB: an existing file made by wearwatch (schema 2: rows go straight into
drives/sample_rows/probe_rows), or a new path: then the tables are created as
schema version 1 wrote them (samples, probe_samples, user_version 1), which
any wearwatch opens (and migrates). Values are synthetic: 50 GB written and
80 GB read a day, power-on time, a temperature with a daily cycle,
percentage used growing 1 per 30 days; probe p50 80 us, p99 400 us, max 1 ms.
Prints the rows written per drive as JSON.
"""
import json
import os
import sqlite3
import sys

RAW_S, HOURLY_S, POLL = 7 * 86400, 90 * 86400, 60


def times(now, days):
    """(tier, t) of the rows thinning keeps, oldest first"""
    start = now - days * 86400
    cut0 = (now - RAW_S) // 3600 * 3600
    cut1 = (now - HOURLY_S) // 86400 * 86400
    out = []
    t = start
    while t < cut1:                      # daily: the last poll of each day
        day_end = min((t // 86400 + 1) * 86400, cut1)
        last = t + (day_end - 1 - t) // POLL * POLL
        out.append((2, last))
        t = last + POLL
    while t < cut0:                      # hourly: the last poll of each hour
        hour_end = min((t // 3600 + 1) * 3600, cut0)
        last = t + (hour_end - 1 - t) // POLL * POLL
        out.append((1, last))
        t = last + POLL
    while t <= now:                      # raw
        out.append((0, t))
        t += POLL
    return out


V1 = """
CREATE TABLE samples(drive TEXT NOT NULL, tier INTEGER NOT NULL, t INTEGER NOT NULL,
 segment INTEGER NOT NULL, host_written_bytes INTEGER, host_read_bytes INTEGER,
 endurance_used_percent INTEGER, temperature_celsius INTEGER, power_on_seconds INTEGER,
 unsafe_shutdowns INTEGER, media_errors INTEGER, available_spare_percent INTEGER,
 present INTEGER, PRIMARY KEY(drive, tier, t)) WITHOUT ROWID;
CREATE INDEX samples_t ON samples(drive, t);
CREATE TABLE probe_samples(drive TEXT NOT NULL, tier INTEGER NOT NULL, t INTEGER NOT NULL,
 p50_seconds REAL, p99_seconds REAL, max_seconds REAL, reads INTEGER NOT NULL,
 errors INTEGER NOT NULL, PRIMARY KEY(drive, tier, t)) WITHOUT ROWID;
PRAGMA user_version=1;
"""


def main():
    db, now, days, ids = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    new = not os.path.exists(db)
    con = sqlite3.connect(db, timeout=30)
    con.execute("PRAGMA journal_mode=WAL")
    if new:
        con.executescript(V1)
    direct = con.execute("SELECT count(*) FROM sqlite_master WHERE name='sample_rows'").fetchone()[0]
    tt = times(now, days)
    born = now - days * 86400
    out = {}
    con.execute("BEGIN")
    for i, arg in enumerate(ids):
        d, _, end = arg.partition("=")
        w_end, poh_end = (int(x) for x in end.split(",")) if end else (None, None)

        def sample(tier, t):
            age = t - born
            w = 10**12 + age * 50 * 10**9 // 86400 + i
            poh = 10**7 + age
            if w_end is not None:
                w = max(0, w_end - (now - t) * 50 * 10**9 // 86400)
                poh = max(0, poh_end - (now - t))
            return (tier, t, 0, w, 2 * 10**12 + age * 80 * 10**9 // 86400, 1 + age // (30 * 86400),
                    35 + (4 if (t // 3600) % 24 < 12 else -4), poh, 4, 0, 100, 1)

        def burst(tier, t):
            n = 1 if tier == 0 else 60 if tier == 1 else 1440
            return (tier, t, 80e-6, 400e-6, 1e-3, 64 * n, 0)
        if direct:
            con.execute("INSERT INTO drives(id) SELECT ? WHERE NOT EXISTS"
                        " (SELECT 1 FROM drives WHERE id=?)", (d, d))
            n = con.execute("SELECT n FROM drives WHERE id=?", (d,)).fetchone()[0]
            con.executemany("INSERT OR REPLACE INTO sample_rows(n, tier, t, segment,"
                            " host_written_bytes, host_read_bytes, endurance_used_percent,"
                            " temperature_celsius, power_on_seconds, unsafe_shutdowns,"
                            " media_errors, available_spare_percent, present)"
                            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                            [(n,) + sample(*x) for x in tt])
            con.executemany("INSERT OR REPLACE INTO probe_rows(n, tier, t, p50_seconds,"
                            " p99_seconds, max_seconds, reads, errors) VALUES (?,?,?,?,?,?,?,?)",
                            [(n,) + burst(*x) for x in tt])
        else:
            con.executemany("INSERT OR REPLACE INTO samples(drive, tier, t, segment,"
                            " host_written_bytes, host_read_bytes, endurance_used_percent,"
                            " temperature_celsius, power_on_seconds, unsafe_shutdowns,"
                            " media_errors, available_spare_percent, present)"
                            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                            [(d,) + sample(*x) for x in tt])
            con.executemany("INSERT OR REPLACE INTO probe_samples(drive, tier, t, p50_seconds,"
                            " p99_seconds, max_seconds, reads, errors) VALUES (?,?,?,?,?,?,?,?)",
                            [(d,) + burst(*x) for x in tt])
        out[d] = len(tt)
    con.execute("COMMIT")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
