#!/usr/bin/env bash
# Every shipped example scenario of the collective, broadcast, straggler, background and inference
# workloads runs to completion: exit 0 and "complete": true in summary.json, one ops.csv row
# per iteration (per message for a broadcast, per request for a KV-cache fan-out) of the
# foreground workloads, at least one row
# per background workload, and stragglers.csv when there are stragglers. Run from the source
# directory, as the README runs them.
#
# Usage: bash scenarios.sh RUNNER_BINARY SOURCE_DIR
set -u
if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d)
# Scenarios name their files (a chakra workload's trace) from the repository's root.
cd "$src" || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
for scenario in "$src"/scenarios/{collectives,stragglers,background,inference}/*.json; do
    name=$(basename "$scenario" .json)
    out=$tmp/$name
    if ! "$runner" "$scenario" --quiet --out "$out" > "$tmp/$name.log" 2>&1; then
        echo "FAIL $name: exit $? ($(tail -n 3 "$tmp/$name.log"))"
        failed=$((failed + 1))
        continue
    fi
    verdict=$(/usr/bin/python3 - "$scenario" "$out" <<'PY'
import csv, json, os, sys
out = sys.argv[2]
scenario = json.load(open(out + "/scenario.json"))  # resolved: every label filled in
summary = json.load(open(out + "/summary.json"))
rows = list(csv.DictReader(open(out + "/ops.csv")))
fore = [w for w in scenario["workloads"] if w["type"] != "background"]
back = {w["label"] for w in scenario["workloads"] if w["type"] == "background"}
# One operation per iteration of a collective, per message of a broadcast; background
# messages are as many as their arrivals, and at least one.
per = {"broadcast": "messages", "kv-cache-fanout": "requests"}
ops = sum(w.get(per.get(w["type"], "iterations"), 1) for w in fore)
counted = [r for r in rows if r["workload"] not in back and r["kind"] == "op"]
if not summary["complete"]:
    print("summary.json says the run did not complete")
elif len(counted) != ops:
    print("%d ops.csv rows, expected one per iteration, message or request (%d)" % (len(counted), ops))
elif any(not any(r["workload"] == b for r in rows) for b in back):
    print("a background workload has no ops.csv row")
elif scenario["stragglers"] and not os.path.exists(out + "/stragglers.csv"):
    print("stragglers but no stragglers.csv")
else:
    print("ok")
PY
)
    if [[ $verdict == ok ]]; then
        echo "ok   $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name: $verdict"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 && $passed -gt 0 ]]
