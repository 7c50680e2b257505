#!/usr/bin/env bash
# Contract check: the watchdog (docs/robustness.md "Watchdog") stops a deadlocked run with
# exit 3, stopped_by "limits.watchdog_us" and a report, and says on stderr what is stuck.
#
# Usage: bash watchdog.sh RUNNER_BINARY SOURCE_DIR
#
# scenarios/robustness/pfc-deadlock-ring.json: five switches in a ring, each host sending
# two hops clockwise, so each ring port waits for the next (a cyclic buffer dependency).
# Expected, derived:
# - exit 3; summary.json's watchdog block names the five flows and the clockwise cycle
#   sw0>sw1 ... sw4>sw0; stderr prints the cycle closed on its first link;
# - it is noticed within 1 to 1.25 timeouts (10,000 µs by default) of the last progress seen;
# - with limits.watchdog_us 0 the same run goes on to stop_time_ms (20 ms here) instead;
# - a watchdog not longer than nic.rto_us is a validation warning; a negative one exit 2.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
src=$2

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"
require_runner "$runner"

tmp=$(mktemp -d)
finish_hook() { rm -rf "$tmp"; }
scenario=$src/scenarios/robustness/pfc-deadlock-ring.json

run() {  # NAME [--set ...]: run into $tmp/NAME, keep stderr, echo the exit code
    local name=$1
    shift
    "$runner" "$scenario" --quiet --out "$tmp/$name" "$@" >/dev/null 2>"$tmp/$name.err"
    echo $?
}

rc=$(run deadlock)
check=$(/usr/bin/python3 - "$tmp/deadlock/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
w = s.get("watchdog", {})
ring = ["sw0>sw1", "sw1>sw2", "sw2>sw3", "sw3>sw4", "sw4>sw0"]
problems = []
if s["stopped_by"] != "limits.watchdog_us" or s["complete"]:
    problems.append("stopped_by %s complete %s" % (s["stopped_by"], s["complete"]))
if w.get("pause_cycle") != ring:
    problems.append("pause_cycle %s" % w.get("pause_cycle"))
if sorted((o["src"], o["dst"]) for o in w.get("stuck_operations", [])) != \
        [(0, 2), (1, 3), (2, 4), (3, 0), (4, 1)]:
    problems.append("stuck_operations %s" % w.get("stuck_operations"))
waited = w.get("detected_us", 0) - w.get("last_progress_us", 0)
if not 10000 <= waited <= 12500 or w.get("timeout_us") != 10000:
    problems.append("waited %s us with timeout %s" % (waited, w.get("timeout_us")))
print("; ".join(problems) or "ok")
PY
)
if [[ $rc -eq 3 && $check == ok ]]; then
    pass "the ring deadlock stops with exit 3 and summary.json names the flows and the cycle"
else
    fail "the ring deadlock stops with exit 3 and names the flows and the cycle" "exit $rc, $check"
fi
if grep -q "run stopped by limits.watchdog_us: .*(a PFC deadlock): sw0>sw1 -> sw1>sw2 -> sw2>sw3 -> sw3>sw4 -> sw4>sw0 -> sw0>sw1;" "$tmp/deadlock.err" &&
    grep -q "op 4 (host 4 -> 1, 16777216 B) started, not completed" "$tmp/deadlock.err"; then
    pass "stderr names the cycle and the stuck flows"
else
    fail "stderr names the cycle and the stuck flows" "$(head -n 2 "$tmp/deadlock.err")"
fi

rc=$(run off --set limits.watchdog_us=0 --set stop_time_ms=20)
by=$(/usr/bin/python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(s['stopped_by'], 'watchdog' in s, s['sim_time_s'])" "$tmp/off/summary.json")
if [[ $rc -eq 3 && $by == "stop_time_ms False 0.02" ]]; then
    pass "watchdog_us 0: the deadlocked run goes on to stop_time_ms"
else
    fail "watchdog_us 0: the deadlocked run goes on to stop_time_ms" "exit $rc, $by"
fi

rc=$(run short --set limits.watchdog_us=500)
if grep -q "^warning: .*limits.watchdog_us: 500 us is not longer than nic.rto_us (1000 us)" "$tmp/short.err"; then
    pass "a watchdog not longer than the RTO is a warning"
else
    fail "a watchdog not longer than the RTO is a warning" "$(head -n 1 "$tmp/short.err")"
fi

rc=$(run negative --set limits.watchdog_us=-1)
if [[ $rc -eq 2 ]] && grep -q "limits.watchdog_us" "$tmp/negative.err"; then
    pass "a negative watchdog is exit 2 naming limits.watchdog_us"
else
    fail "a negative watchdog is exit 2 naming limits.watchdog_us" "exit $rc, $(head -n 1 "$tmp/negative.err")"
fi
finish
