#!/usr/bin/env python3
"""Writes the Grafana dashboards of contrib/grafana/ (fleet, host, drive).

usage: make_dashboards.py [OUT_DIR]   (default: this script's directory)

The JSON files are what users import (Grafana > Dashboards > Import, or file
provisioning); this script is where they are edited, so the three stay
consistent: one datasource variable, job and instance variables, queries
only on wearwatch series and the recording rules of
contrib/prometheus/wearwatch-rules.yml. tests/prometheus/test_fleet.py runs
every query (with the variables filled in) against a real Prometheus
scraping replayed wearwatch instances and fails on one that returns nothing;
it also fails when the committed files differ from this script's output.
The drive dashboard's queries are checked per drive kind (NVMe, SATA, SAS):
a query for some kinds only says which in its panel's description (data_for
below), and the test holds every other query to have data for each kind.
Grafana 9 or later (schemaVersion 37).
"""
import json
import os
import re
import sys

DS = {"type": "prometheus", "uid": "${datasource}"}


def var_datasource():
    return {"name": "datasource", "label": "Prometheus", "type": "datasource",
            "query": "prometheus", "current": {}, "hide": 0, "refresh": 1}


def var_query(name, label, query, multi=False, include_all=False, all_value=None):
    v = {"name": name, "label": label, "type": "query", "datasource": DS,
         "query": {"query": query, "refId": "PrometheusVariableQueryEditor-VariableQuery"},
         "definition": query, "refresh": 2, "sort": 1, "hide": 0,
         "multi": multi, "includeAll": include_all, "current": {}, "options": []}
    if all_value:
        v["allValue"] = all_value
    return v


def target(expr, legend="", ref="A", instant=False, fmt="time_series"):
    t = {"datasource": DS, "expr": expr, "refId": ref, "legendFormat": legend,
         "format": fmt, "range": not instant, "instant": instant}
    return t


class Layout:
    """Panels placed left to right on Grafana's 24-column grid."""

    def __init__(self):
        self.panels, self.x, self.y, self.row_h, self.next_id = [], 0, 0, 0, 1

    def add(self, panel, w, h):
        if self.x + w > 24:
            self.x, self.y, self.row_h = 0, self.y + self.row_h, 0
        panel["id"] = self.next_id
        panel["gridPos"] = {"x": self.x, "y": self.y, "w": w, "h": h}
        self.next_id += 1
        self.x += w
        self.row_h = max(self.row_h, h)
        self.panels.append(panel)


def panel(kind, title, targets, unit=None, desc="", **extra):
    p = {"type": kind, "title": title, "description": desc, "datasource": DS,
         "targets": targets, "fieldConfig": {"defaults": {}, "overrides": []}, "options": {}}
    if unit:
        p["fieldConfig"]["defaults"]["unit"] = unit
    p.update(extra)
    return p


HEALTH_MAPPING = [{"type": "value", "options": {
    "0": {"text": "ok", "color": "green"}, "1": {"text": "warning", "color": "orange"},
    "2": {"text": "critical", "color": "red"}, "3": {"text": "unknown", "color": "grey"}}}]


def table(title, targets, desc="", overrides=None):
    """Instant queries merged into one row per series (Grafana's merge)."""
    p = panel("table", title, targets, desc=desc)
    p["transformations"] = [
        {"id": "merge", "options": {}},
        {"id": "organize", "options": {"excludeByName": {"Time": True, "__name__": True},
                                       "renameByName": {}}}]
    p["fieldConfig"]["overrides"] = overrides or []
    return p


def by_name(field, unit=None, mapping=None, display=None):
    props = []
    if unit:
        props.append({"id": "unit", "value": unit})
    if mapping:
        props.append({"id": "mappings", "value": mapping})
        props.append({"id": "custom.cellOptions", "value": {"type": "color-text"}})
    if display:
        props.append({"id": "displayName", "value": display})
    return {"matcher": {"id": "byName", "options": field}, "properties": props}


def dashboard(uid, title, desc, variables, layout, links=True):
    d = {"uid": uid, "title": title, "description": desc, "tags": ["wearwatch"],
         "timezone": "", "editable": True, "schemaVersion": 37, "version": 1,
         "refresh": "1m", "time": {"from": "now-7d", "to": "now"},
         "templating": {"list": variables}, "annotations": {"list": []},
         "panels": layout.panels}
    if links:
        d["links"] = [{"title": "wearwatch", "type": "dashboards", "tags": ["wearwatch"],
                       "asDropdown": True, "includeVars": True, "keepTime": True}]
    return d


JOB = 'job=~"$job"'
INST = 'job=~"$job",instance=~"$instance"'
ONE = 'job=~"$job",instance="$instance"'
DRV = 'job=~"$job",instance="$instance",drive="$drive"'


def fleet():
    L = Layout()
    for status, color in (("critical", "red"), ("warning", "orange"), ("ok", "green")):
        p = panel("stat", "Drives %s" % status,
                  [target('sum(instance:wearwatch_drive_health_status:count{%s,status="%s"})'
                          % (INST, status), instant=True)],
                  desc="wearwatch's verdict (wearwatch_drive_health_status) per drive, "
                       "counted by the recording rule instance:wearwatch_drive_health_status:count")
        p["fieldConfig"]["defaults"]["color"] = {"mode": "fixed", "fixedColor": color}
        L.add(p, 4, 4)
    L.add(panel("stat", "Drives with a known rating",
                [target("job:wearwatch_drive_rating_known:ratio{%s}" % JOB, instant=True)],
                unit="percentunit",
                desc="rated endurance and write-rate wear-out need a rating (data/drive-"
                     "ratings.tsv, [endurance] ratings_file, [drive] rating)"), 4, 4)
    L.add(panel("stat", "Drives wearing out before their warranty ends",
                [target("sum(instance:wearwatch_drive_wearout_before_warranty_end:count{%s})"
                        % INST, instant=True)]), 4, 4)
    L.add(panel("stat", "Hosts not answering",
                [target('count(up{%s} == 0) or vector(0)' % INST, instant=True)],
                desc="wearwatch targets whose scrape fails (alert WearwatchTargetDown)"), 4, 4)
    L.add(panel("bargauge", "Drives by health per host",
                [target("instance:wearwatch_drive_health_status:count{%s}" % INST,
                        "{{instance}} {{status}}", instant=True)],
                options={"orientation": "horizontal", "displayMode": "basic"}), 12, 8)
    L.add(panel("table", "Firing wearwatch alerts",
                [target('ALERTS{alertname=~"Wearwatch.*",alertstate="firing",%s}' % INST,
                        instant=True, fmt="table")]), 12, 8)
    L.add(panel("bargauge", "Top drives by rated endurance used",
                [target("job:wearwatch_drive_rated_endurance_used_ratio:topk10{%s}" % JOB,
                        "{{instance}} {{drive}}", instant=True)], unit="percentunit",
                desc="host bytes written / rated bytes written"), 12, 8)
    L.add(panel("bargauge", "Top drives by the drive's own endurance used",
                [target("job:wearwatch_drive_endurance_used_ratio:topk10{%s}" % JOB,
                        "{{instance}} {{drive}}", instant=True)], unit="percentunit",
                desc="NVMe Percentage Used, ATA Device Statistics, SCSI page 0x11"), 12, 8)
    L.add(table("Soonest projected wear-out", [
        target("bottomk(20, instance_drive:wearwatch_drive_wearout_remaining_seconds:min{%s})"
               % INST, instant=True, fmt="table")],
        overrides=[by_name("Value", "s", display="wear-out in")]), 12, 8)
    L.add(table("Wearing out before warranty end", [
        target("instance_drive:wearwatch_drive_wearout_after_warranty_end_seconds:min{%s} < 0"
               % INST, instant=True, fmt="table")],
        overrides=[by_name("Value", "s", display="wear-out minus warranty end")]), 12, 8)
    L.add(panel("timeseries", "Bytes written per day per host",
                [target("instance:wearwatch_drive_host_written_bytes:increase1d{%s}" % INST,
                        "{{instance}}")], unit="decbytes"), 12, 8)
    L.add(panel("bargauge", "Hottest drives",
                [target("topk(10, wearwatch_drive_temperature_celsius{%s})" % INST,
                        "{{instance}} {{drive}}", instant=True)], unit="celsius"), 12, 8)
    return dashboard("wearwatch-fleet", "wearwatch / Fleet",
                     "Every drive of every wearwatch host: health, endurance, wear-out.",
                     [var_datasource(),
                      var_query("job", "Job", "label_values(wearwatch_build_info, job)",
                                multi=True, include_all=True, all_value=".+"),
                      var_query("instance", "Host", 'label_values(wearwatch_build_info{job=~"$job"}, instance)',
                                multi=True, include_all=True, all_value=".+")], L)


def host():
    L = Layout()
    for status, color in (("critical", "red"), ("warning", "orange"), ("ok", "green")):
        p = panel("stat", "Drives %s" % status,
                  [target('instance:wearwatch_drive_health_status:count{%s,status="%s"}'
                          % (ONE, status), instant=True)])
        p["fieldConfig"]["defaults"]["color"] = {"mode": "fixed", "fixedColor": color}
        L.add(p, 4, 4)
    L.add(panel("stat", "Bytes written, last day",
                [target("instance:wearwatch_drive_host_written_bytes:increase1d{%s}" % ONE,
                        instant=True)], unit="decbytes"), 4, 4)
    L.add(panel("stat", "wearwatch version",
                [target("wearwatch_build_info{%s}" % ONE, "{{version}}", instant=True)],
                options={"textMode": "name", "reduceOptions": {"calcs": ["lastNotNull"]}}), 4, 4)
    L.add(panel("stat", "Up", [target("up{%s}" % ONE, instant=True)]), 4, 4)
    L.add(table("Drives", [
        target("wearwatch_drive_info{%s}" % ONE, ref="A", instant=True, fmt="table"),
        target("wearwatch_drive_health_status{%s}" % ONE, ref="B", instant=True, fmt="table"),
        target("instance_drive:wearwatch_drive_rated_endurance_used_ratio:max{%s}" % ONE,
               ref="C", instant=True, fmt="table"),
        target("instance_drive:wearwatch_drive_endurance_used_ratio:max{%s}" % ONE,
               ref="D", instant=True, fmt="table"),
        target("instance_drive:wearwatch_drive_wearout_remaining_seconds:min{%s}" % ONE,
               ref="E", instant=True, fmt="table"),
        target("wearwatch_drive_temperature_celsius{%s}" % ONE, ref="F", instant=True,
               fmt="table")],
        overrides=[by_name("Value #A", display="info"),
                   by_name("Value #B", mapping=HEALTH_MAPPING, display="health"),
                   by_name("Value #C", "percentunit", display="rated endurance used"),
                   by_name("Value #D", "percentunit", display="drive's own endurance used"),
                   by_name("Value #E", "s", display="wear-out in"),
                   by_name("Value #F", "celsius", display="temperature")]), 24, 9)
    L.add(panel("timeseries", "Temperature",
                [target("wearwatch_drive_temperature_celsius{%s}" % ONE, "{{drive}}")],
                unit="celsius"), 12, 8)
    L.add(panel("timeseries", "Host writes",
                [target("rate(wearwatch_drive_host_written_bytes_total{%s}[$__rate_interval])"
                        % ONE, "{{drive}}")], unit="Bps"), 12, 8)
    L.add(panel("timeseries", "Drive writes per day (wearwatch's windows)",
                [target("wearwatch_drive_writes_per_day{%s}" % ONE, "{{drive}} {{window}}")],
                desc="from wearwatch's own history: 1d, 7d, 30d windows and lifetime"), 12, 8)
    L.add(panel("timeseries", "Health reasons",
                [target("wearwatch_drive_health_reason{%s}" % ONE, "{{drive}} {{reason}}")]),
          12, 8)
    L.add(panel("timeseries", "Last read succeeded",
                [target("wearwatch_drive_collect_success{%s}" % ONE, "{{drive}}")],
                desc="1: the last read of the drive returned data (or found it in standby); "
                     "0: it failed (alert WearwatchCollectionFailing)"), 12, 8)
    L.add(panel("timeseries", "Collection time",
                [target("wearwatch_drive_collect_duration_seconds{%s}" % ONE, "{{drive}}")],
                unit="s"), 12, 8)
    L.add(panel("timeseries", "wearwatch CPU",
                [target("rate(process_cpu_seconds_total{%s}[$__rate_interval])" % ONE,
                        "{{instance}}")], unit="percentunit"), 12, 8)
    L.add(panel("timeseries", "wearwatch memory",
                [target("process_resident_memory_bytes{%s}" % ONE, "resident")],
                unit="bytes"), 12, 8)
    return dashboard("wearwatch-host", "wearwatch / Host",
                     "The drives of one wearwatch host.",
                     [var_datasource(),
                      var_query("job", "Job", "label_values(wearwatch_build_info, job)",
                                multi=True, include_all=True, all_value=".+"),
                      var_query("instance", "Host", 'label_values(wearwatch_build_info{job=~"$job"}, instance)')],
                     L)


# The drive dashboard's queries for some drives only say so at the end of
# their panel's description: "Data for: NVMe, SAS." (every query of the
# panel) or "Query B data for: rated drives." (one query); a panel without it
# has data for every drive. The words are drive kinds, or "rated drives"
# (a rating from a table or the configuration, not one derived from the
# drive's own wear). tests/prometheus/test_fleet.py reads these sentences and
# fails when a query that is for a drive returns nothing for it.
KINDS = ("NVMe", "SATA", "SAS")
RATED = "rated drives"


def data_for(p, kinds, ref=None):
    """Append the "Data for" sentence of kinds (of KINDS and RATED) to p."""
    assert set(kinds) <= set(KINDS + (RATED,)), kinds
    text = ("Query %s data for: " % ref if ref else "Data for: ") + ", ".join(kinds) + "."
    desc = p["description"].rstrip()
    p["description"] = (desc + ("" if desc.endswith(".") else ".") + " " if desc else "") + text
    return p


SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "model")


def verdict_attributes():
    """The ATA attributes the verdict judges, from the model's own tables:
    the raw counts of src/model/verdict_ata.c (counted[]: 5, 10, 187, ...)
    and the vendor wear attributes by name of src/model/endurance.c
    (wear_names[]), so the highlighted rows follow the code."""
    ata = open(os.path.join(SRC, "verdict_ata.c")).read()
    body = ata[ata.index("} counted[] = {"):]
    ids = re.findall(r"\{ (\d+), WW_R_", body[:body.index("};")])
    end = open(os.path.join(SRC, "endurance.c")).read()
    body = end[end.index("wear_names[] = {"):]
    names = re.findall(r'"(\w+)"', body[:body.index("};")])
    assert ids and names, "src/model tables not found"
    return ids, names


def attribute_table():
    """SMART attributes, one row per attribute; the rows the verdict reads
    coloured (ids it counts, vendor wear attributes by name, pre-fail flags)."""
    ids, names = verdict_attributes()
    q = "max by (id, name, flags) (wearwatch_drive_ata_attribute{%s,kind=\"%s\"})"
    p = table("ATA SMART attributes", [
        target(q % (DRV, "value"), ref="A", instant=True, fmt="table"),
        target(q % (DRV, "worst"), ref="B", instant=True, fmt="table"),
        target(q % (DRV, "threshold"), ref="C", instant=True, fmt="table"),
        target(q % (DRV, "raw"), ref="D", instant=True, fmt="table")],
        desc="SMART READ DATA / THRESHOLDS as smartctl -A lists them. Coloured: the "
             "rows the health verdict reads: the raw counts it weighs (ids %s: "
             "reallocated, pending and offline-uncorrectable sectors and the like, "
             "docs/health.md), the vendor wear attributes it reads as percentage used "
             "(by name), and pre-fail attributes (flags P), whose value at or below "
             "the threshold is critical. worst and threshold are series of the full "
             "profile only (docs/metrics.md); raw is smartctl's raw48."
             % ", ".join(ids),
        overrides=[
            by_name("Value #A", display="value"), by_name("Value #B", display="worst"),
            by_name("Value #C", display="threshold"), by_name("Value #D", display="raw"),
            {"matcher": {"id": "byName", "options": "id"}, "properties": [
                {"id": "mappings", "value": [{"type": "value", "options": {
                    i: {"color": "orange", "index": k} for k, i in enumerate(ids)}}]},
                {"id": "custom.cellOptions",
                 "value": {"type": "color-background", "applyToRow": True}}]},
            {"matcher": {"id": "byName", "options": "name"}, "properties": [
                {"id": "mappings", "value": [{"type": "value", "options": {
                    n: {"color": "purple", "index": k} for k, n in enumerate(names)}}]},
                {"id": "custom.cellOptions",
                 "value": {"type": "color-background", "applyToRow": True}}]},
            {"matcher": {"id": "byName", "options": "flags"}, "properties": [
                {"id": "mappings", "value": [{"type": "regex", "options": {
                    "pattern": "^P.*", "result": {"color": "blue", "index": 0}}}]},
                {"id": "custom.cellOptions", "value": {"type": "color-background"}}]}])
    p["transformations"][1]["options"]["excludeByName"]["Time"] = True
    p["transformations"] += [
        {"id": "convertFieldType", "options": {"conversions": [
            {"targetField": "id", "destinationType": "number"}]}},
        {"id": "sortBy", "options": {"sort": [{"field": "id"}]}}]
    return data_for(p, ("SATA",))


def drive():
    L = Layout()
    p = panel("stat", "Health", [target("wearwatch_drive_health_status{%s}" % DRV, instant=True)])
    p["fieldConfig"]["defaults"]["mappings"] = HEALTH_MAPPING
    L.add(p, 4, 4)
    rated = "needs a rating (data/drive-ratings.tsv, [endurance] ratings_file, [drive] " \
            "rating)"
    own = "needs a rating or the drive's own wear (NVMe percentage used): hard disks " \
          "have neither"
    L.add(data_for(panel(
        "stat", "Rated endurance used",
        [target("instance_drive:wearwatch_drive_rated_endurance_used_ratio:max{%s}" % DRV,
                instant=True)], unit="percentunit", desc="host bytes written / rated bytes; "
        + rated), (RATED,)), 4, 4)
    L.add(data_for(panel(
        "stat", "Drive's own endurance used",
        [target("instance_drive:wearwatch_drive_endurance_used_ratio:max{%s}" % DRV,
                instant=True)], unit="percentunit",
        desc="NVMe Percentage Used, ATA Device Statistics or a vendor wear attribute, SCSI "
             "page 0x11: solid-state drives"), ("NVMe",)), 4, 4)
    L.add(data_for(panel(
        "stat", "Projected wear-out in",
        [target("instance_drive:wearwatch_drive_wearout_remaining_seconds:min{%s}" % DRV,
                instant=True)], unit="s", desc=own), ("NVMe",)), 4, 4)
    L.add(data_for(panel(
        "stat", "Wear-out minus warranty end",
        [target("instance_drive:wearwatch_drive_wearout_after_warranty_end_seconds:min{%s}"
                % DRV, instant=True)], unit="s",
        desc="negative: the drive wears out before its warranty ends; " + rated),
        (RATED,)), 4, 4)
    L.add(panel("stat", "Power-on time",
                [target("wearwatch_drive_power_on_seconds_total{%s}" % DRV, instant=True)],
                unit="s"), 4, 4)
    L.add(panel("table", "Identity",
                [target("wearwatch_drive_info{%s}" % DRV, instant=True, fmt="table")]), 12, 5)
    L.add(panel("table", "Health reasons",
                [target('wearwatch_drive_health_reason{%s} or label_replace('
                        'wearwatch_drive_health_status{%s} == 0, "reason", "none", "", "")'
                        % (DRV, DRV), instant=True, fmt="table")],
                desc="the verdict's active reasons (docs/health.md); reason none: the "
                     "verdict is ok"), 12, 5)
    L.add(data_for(panel(
        "timeseries", "Temperature and the drive's limits",
        [target("wearwatch_drive_temperature_celsius{%s}" % DRV, "temperature"),
         target("wearwatch_drive_temperature_limit_celsius{%s}" % DRV, "{{kind}} limit",
                ref="B")], unit="celsius",
        desc="limits: NVMe WCTEMP and CCTEMP, SCSI page 0x0D reference; ATA has none"),
        ("NVMe", "SAS"), ref="B"), 12, 8)
    L.add(data_for(panel(
        "timeseries", "Host bytes written",
        [target("wearwatch_drive_host_written_bytes_total{%s}" % DRV, "{{source}}")],
        unit="decbytes", desc="an ATA drive says only with Device Statistics or attribute "
        "241, which many hard disks lack"), ("NVMe", "SAS")), 12, 8)
    L.add(data_for(data_for(panel(
        "timeseries", "Drive writes per day against the rating",
        [target("wearwatch_drive_writes_per_day{%s}" % DRV, "{{window}}"),
         target("wearwatch_drive_rated_writes_per_day{%s}" % DRV, "rated ({{source}})",
                ref="B")], desc="writes: from the host bytes written; rated: " + rated),
        ("NVMe", "SAS"), ref="A"), (RATED,), ref="B"), 12, 8)
    L.add(data_for(data_for(panel(
        "timeseries", "Endurance used",
        [target("instance_drive:wearwatch_drive_rated_endurance_used_ratio:max{%s}" % DRV,
                "rated"),
         target("instance_drive:wearwatch_drive_endurance_used_ratio:max{%s}" % DRV,
                "drive's own", ref="B")], unit="percentunit",
        desc="rated: " + rated + "; the drive's own: solid-state drives"), (RATED,), ref="A"),
        ("NVMe",), ref="B"), 12, 8)
    L.add(attribute_table(), 24, 10)
    L.add(data_for(panel(
        "timeseries", "Bad sectors and error counts (ATA)",
        [target("wearwatch_drive_ata_reallocated_sectors_total{%s} or "
                "wearwatch_drive_ata_current_pending_sectors{%s} or "
                "wearwatch_drive_ata_offline_uncorrectable_sectors{%s} or "
                "wearwatch_drive_ata_reported_uncorrectable_errors_total{%s} or "
                "wearwatch_drive_ata_command_timeouts_total{%s} or "
                "wearwatch_drive_ata_udma_crc_errors_total{%s}" % ((DRV,) * 6),
                "{{__name__}}")],
        desc="attributes 5 reallocated, 197 current pending, 198 offline uncorrectable "
             "sectors, 187 reported uncorrectable errors, 188 command timeouts, 199 UDMA CRC "
             "errors (cabling), as counts under the drive database's format; each only "
             "where the drive has the attribute"), ("SATA",)), 12, 8)
    L.add(data_for(panel(
        "timeseries", "SAS grown defects and uncorrected errors",
        [target("wearwatch_drive_scsi_grown_defects{%s}" % DRV, "grown defect list"),
         target("wearwatch_drive_scsi_uncorrected_errors_total{%s}" % DRV,
                "uncorrected {{operation}}", ref="B")],
        desc="READ DEFECT DATA's grown list (the first media failure signal of a SAS "
             "drive) and the uncorrected errors of the error counter pages 0x02/0x03/0x05"), ("SAS",)), 12, 8)
    p = data_for(panel(
        "timeseries", "Media and data integrity errors",
        [target("wearwatch_drive_media_errors_total{%s}" % DRV, "media errors")],
        desc="NVMe media and data integrity errors; SCSI uncorrected errors summed; ATA "
             "attribute 187 where the drive has it"), ("NVMe", "SAS"))
    L.add(p, 12, 8)
    p = panel("timeseries", "NVMe available spare",
              [target("wearwatch_drive_available_spare_ratio{%s}" % DRV, "available spare"),
               target("wearwatch_drive_available_spare_threshold_ratio{%s}" % DRV,
                      "spare threshold", ref="B")],
              unit="percentunit", desc="SMART / Health Information log 02h bytes 3 and 4")
    L.add(data_for(p, ("NVMe",)), 12, 8)
    L.add(data_for(data_for(panel(
        "timeseries", "Error log",
        [target("wearwatch_drive_error_log_errors_total{%s}" % DRV, "{{log}} errors counted"),
         target("wearwatch_drive_error_log_entries{%s}" % DRV, "{{log}} entries held",
                ref="B"),
         target("wearwatch_drive_nvme_error_log_entries_total{%s}" % DRV,
                "NVMe error log entries (SMART log)", ref="C")],
        desc="ATA SMART error logs (01h summary, 03h extended) and the NVMe Error "
             "Information log: errors the drive counted over its life and the entries "
             "it holds; the NVMe SMART log's count of error log entries; a SAS drive "
             "keeps error counters instead (the panel above)"),
        ("NVMe", "SATA")), ("NVMe",), ref="C"), 12, 8)
    L.add(data_for(table("Self-tests", [
        target("max by (log) (wearwatch_drive_self_tests{%s})" % DRV, ref="A", instant=True,
               fmt="table"),
        target("max by (log) (wearwatch_drive_self_test_failures{%s})" % DRV, ref="B",
               instant=True, fmt="table"),
        target("max by (log) (wearwatch_drive_self_test_last_passed{%s})" % DRV, ref="C",
               instant=True, fmt="table"),
        target("max by (log) (wearwatch_drive_self_test_last_power_on_seconds{%s})" % DRV,
               ref="D", instant=True, fmt="table")],
        desc="the drive's self-test log (ATA 06h/07h, SCSI page 0x10, NVMe 06h): tests "
             "held, of them failed, the newest passed (1) or failed (0), and the "
             "power-on time it ran at; empty for a drive whose log is empty or unread",
        overrides=[by_name("Value #A", display="tests"),
                   by_name("Value #B", display="failed"),
                   by_name("Value #C", display="newest passed"),
                   by_name("Value #D", "s", display="newest at power-on time")]),
        KINDS), 24, 6)
    return dashboard("wearwatch-drive", "wearwatch / Drive",
                     "One drive on one host: health, endurance, and each drive kind's "
                     "signals (ATA attributes and bad sectors, SAS grown defects, NVMe "
                     "media errors and spare, error and self-test logs).",
                     [var_datasource(),
                      var_query("job", "Job", "label_values(wearwatch_build_info, job)",
                                multi=True, include_all=True, all_value=".+"),
                      var_query("instance", "Host", 'label_values(wearwatch_build_info{job=~"$job"}, instance)'),
                      var_query("drive", "Drive", 'label_values(wearwatch_drive_info{job=~"$job",instance="$instance"}, drive)')],
                     L)


DASHBOARDS = {"wearwatch-fleet.json": fleet, "wearwatch-host.json": host,
              "wearwatch-drive.json": drive}


def render():
    return {name: json.dumps(fn(), indent=1, sort_keys=True) + "\n"
            for name, fn in DASHBOARDS.items()}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for name, text in render().items():
        with open(os.path.join(out, name), "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
