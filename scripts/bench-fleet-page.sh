#!/bin/sh
# The fleet page (/api/v1/fleet) against a stand-in Prometheus of 100,000
# drives on 5,000 hosts (tests/prometheus/stub_prometheus.py): time of three
# cold page answers, the web side's CPU for them, its resident memory, the
# bytes Prometheus sends (docs/benchmarks.md, "The fleet page at 100,000 drives").
# usage: scripts/bench-fleet-page.sh [BINARY]   (default build/wearwatch)
set -eu
uptime
exec python3 "$(dirname "$0")/../tests/prometheus/test_fleet_scale.py" "${1:-build/wearwatch}" --bench
