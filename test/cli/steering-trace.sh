#!/usr/bin/env bash
# Contract check: output.steering_trace writes steering.csv, one row per change of a sending
# queue pair's UDP source port (docs/results.md "steering.csv").
#
# Usage: bash steering-trace.sh RUNNER_BINARY SOURCE_DIR
#
# On the low-entropy fabric of scenarios/load-balancing/steering-telemetry-8x8.json (hosts 0-7
# under leaf 0 each write one flow to a host under leaf 1), with and without DCQCN:
# - the rows are exactly the repaths summary.json counts, all from hosts 0-7 (receivers
#   steer nothing);
# - per queue pair the rows chain (each leaves the port the one before went to, never for the
#   same port) and are at least min_repath_interval_us (100) apart: the rate limit;
# - under ECMP (low-entropy-8x8.json) nothing steers, and the file is its header alone.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
source_dir=$2

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"

require_runner "$runner"

tmp=$(mktemp -d)
finish_hook() { rm -rf "$tmp"; }
header="time_us,host,qpn,from_port,to_port"

# The rows against summary.json and the rate limit; prints what it checked.
cat >"$tmp/check.py" <<'PY'
import csv, json, sys
d, header = sys.argv[1], sys.argv[2]
with open(d + "/steering.csv") as f:
    first = f.readline().rstrip("\n")
    assert first == header, "header %r, expected %r" % (first, header)
    rows = list(csv.DictReader(f, fieldnames=header.split(",")))
repaths = json.load(open(d + "/summary.json"))["network"]["steering"]["repaths"]
assert len(rows) == repaths, "%d rows, summary.json counts %d repaths" % (len(rows), repaths)
assert repaths > 0, "no repath at all: nothing was checked"
last = {}
for r in rows:
    host, t = int(r["host"]), float(r["time_us"])
    assert 0 <= host <= 7, "a row from host %d, not a sender" % host
    qp = (host, int(r["qpn"]))
    frm, to = int(r["from_port"]), int(r["to_port"])
    assert frm != to, "host %d at %.3f us: from and to are both %d" % (host, t, frm)
    if qp in last:
        pt, pto = last[qp]
        assert frm == pto, "host %d at %.3f us leaves %d, but went to %d before" % (host, t, frm, pto)
        assert t - pt >= 100 - 1e-6, "host %d repathed at %.3f and %.3f us" % (host, pt, t)
    last[qp] = (t, to)
print("%d repaths by %d queue pairs" % (len(rows), len(last)))
PY

check() { # NAME DIR
    local out
    if out=$(/usr/bin/python3 "$tmp/check.py" "$2" "$header" 2>&1); then
        pass "$1: $out"
    else
        fail "$1" "$out"
    fi
}

scenario=$source_dir/scenarios/load-balancing/steering-telemetry-8x8.json
for dcqcn in false true; do
    dir=$tmp/steer-$dcqcn
    if "$runner" "$scenario" --quiet --out "$dir" --seed 7 --set nic.dcqcn.enabled=$dcqcn \
        --set output.steering_trace=true >"$tmp/log" 2>&1; then
        check "steering, seed 7, DCQCN $dcqcn: steering.csv is every repath, 100 us apart at least" \
            "$dir"
    else
        fail "steering run (DCQCN $dcqcn) failed" "$(tail -n 5 "$tmp/log")"
    fi
done

dir=$tmp/ecmp
if "$runner" "$source_dir/scenarios/load-balancing/low-entropy-8x8.json" --quiet --out "$dir" \
    --set output.steering_trace=true >"$tmp/log" 2>&1; then
    if [[ $(cat "$dir/steering.csv") == "$header" ]]; then
        pass "ECMP: steering.csv is its header alone"
    else
        fail "ECMP: steering.csv has rows" "$(head -n 3 "$dir/steering.csv")"
    fi
else
    fail "ECMP run failed" "$(tail -n 5 "$tmp/log")"
fi

finish
