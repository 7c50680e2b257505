#!/usr/bin/env bash
# Every shipped example scenario of the collective workloads (and of the relayed broadcasts)
# runs to completion: exit 0 and "complete": true in summary.json, with one ops.csv row per
# iteration (per message for a broadcast).
#
# Usage: bash scenarios.sh RUNNER_BINARY SOURCE_DIR
set -u
if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
for scenario in "$src"/scenarios/collectives/*.json; do
    name=$(basename "$scenario" .json)
    out=$tmp/$name
    if ! "$runner" "$scenario" --quiet --out "$out" > "$tmp/$name.log" 2>&1; then
        echo "FAIL $name: exit $? ($(tail -n 3 "$tmp/$name.log"))"
        failed=$((failed + 1))
        continue
    fi
    verdict=$(/usr/bin/python3 - "$scenario" "$out" <<'PY'
import csv, json, sys
scenario = json.load(open(sys.argv[1]))
summary = json.load(open(sys.argv[2] + "/summary.json"))
rows = list(csv.DictReader(open(sys.argv[2] + "/ops.csv")))
# One operation per iteration of a collective, per message of a broadcast.
ops = sum(w.get("messages", 1) if w["type"] == "broadcast" else w.get("iterations", 1)
          for w in scenario["workloads"])
if not summary["complete"]:
    print("summary.json says the run did not complete")
elif len(rows) != ops:
    print("%d ops.csv rows, expected one per iteration or message (%d)" % (len(rows), ops))
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
