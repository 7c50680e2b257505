#!/usr/bin/env bash
# Contract check of output.timeline (docs/timeline.md): timeline.json follows the Trace Event
# Format's rules (python/mcast4ai/timeline.py, which pytest shows rejects each breakage), and
# its request segments add up to ops.csv.
#
# Usage: bash timeline.sh RUNNER_BINARY SOURCE_DIR
#
# - The KV-cache fan-out example: a valid timeline whose 64 requests' segments (queueing,
#   prefill, kv-transfer, first-token, decode, replicas) each add up to the request's ops.csv
#   duration, with an arrow from each request's KV transfer to its prefill host's sending;
#   ops.csv and summary.json (but wall-clock figures) are those of the run without it.
# - The same check rejects the file with one segment a microsecond longer, and with an
#   operation's end removed.
# - timeline_max_mb 1: counters keep to half the bound, the file stays valid and keeps every
#   request, and otherData counts what was dropped.
# - A ring AllReduce: valid, with compute, waiting-for-data and sending slices per host and
#   port counters.
# - timeline_sample_us without timeline warns that it has no effect.
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"
start_test "$@"
check() { (cd "$source_dir/python" && /usr/bin/python3 -m mcast4ai.timeline check "$@"); }

kv=$source_dir/scenarios/inference/kv-cache-fanout.json
"$runner" "$kv" --quiet --out "$tmp/kv" --set output.timeline=true 2>/dev/null >/dev/null
"$runner" "$kv" --quiet --out "$tmp/plain" 2>/dev/null >/dev/null

if out=$(check "$tmp/kv/timeline.json" --ops "$tmp/kv/ops.csv") &&
    [[ $out == *"64 f, 64 s; 64 operations' segments"* ]]; then
    pass "KV fan-out: valid, 64 requests' segments = ops.csv durations, 64 arrows"
else
    fail "KV fan-out timeline" "$out"
fi
strip() { grep -v '"wall\|rss\|per_s' "$1"; }
if cmp -s "$tmp/kv/ops.csv" "$tmp/plain/ops.csv" &&
    diff -q <(strip "$tmp/kv/summary.json") <(strip "$tmp/plain/summary.json") >/dev/null; then
    pass "a timeline changes nothing: ops.csv and summary.json as without it"
else
    fail "a timeline changes nothing" "$(diff <(strip "$tmp/kv/summary.json") <(strip "$tmp/plain/summary.json") | head -5)"
fi

# Negative controls: the same check on broken copies.
/usr/bin/python3 - "$tmp/kv/timeline.json" "$tmp" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
longer = json.loads(json.dumps(doc))
seg = next(e for e in longer["traceEvents"] if e.get("cat") == "segment")
seg["dur"] += 1.0
json.dump(longer, open(sys.argv[2] + "/longer.json", "w"))
events = doc["traceEvents"]
i = next(i for i, e in enumerate(events) if e["ph"] == "e" and e.get("cat") == "op")
del events[i]
json.dump(doc, open(sys.argv[2] + "/unended.json", "w"))
PY
if ! out1=$(check "$tmp/longer.json" --ops "$tmp/kv/ops.csv") && [[ $out1 == *"add up to"* ]] &&
    ! out2=$(check "$tmp/unended.json") && [[ $out2 == *"never ended"* ]]; then
    pass "the check rejects a segment 1 us longer and an operation without its end"
else
    fail "the check rejects broken copies" "$out1" "$out2"
fi

"$runner" "$kv" --quiet --out "$tmp/small" --set output.timeline=true \
    --set output.timeline_max_mb=1 2>/dev/null >/dev/null
dropped=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["otherData"]["dropped_events"])' "$tmp/small/timeline.json")
size=$(stat -c %s "$tmp/small/timeline.json")
if out=$(check "$tmp/small/timeline.json" --ops "$tmp/small/ops.csv") && ((dropped > 0)) &&
    ((size < 1000000)) && [[ $out == *"64 operations' segments"* ]]; then
    pass "timeline_max_mb 1: $size bytes, $dropped counter samples dropped, every request kept"
else
    fail "timeline_max_mb 1" "size $size, dropped $dropped" "$out"
fi

"$runner" "$source_dir/scenarios/collectives/allreduce-ring.json" --quiet --out "$tmp/ar" \
    --set output.timeline=true 2>/dev/null >/dev/null
kinds=$(/usr/bin/python3 - "$tmp/ar/timeline.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = sorted({e["name"] for e in ev if e["ph"] == "X" and e.get("cat") == "host"})
counters = sum(1 for e in ev if e["ph"] == "C")
print(",".join(names), counters > 0)
PY
)
if out=$(check "$tmp/ar/timeline.json") && [[ $kinds == "compute,sending,waiting for data True" ]]; then
    pass "ring AllReduce: valid, host slices ($kinds) and port counters"
else
    fail "ring AllReduce timeline" "$kinds" "$out"
fi

warn=$("$runner" "$kv" --quiet --out "$tmp/w" --set output.timeline_sample_us=5 \
    --set workloads[0].requests=2 2>&1 >/dev/null)
if [[ $warn == *"output.timeline_sample_us: has no effect without output.timeline"* ]]; then
    pass "timeline_sample_us without timeline warns"
else
    fail "timeline_sample_us without timeline warns" "$warn"
fi

finish
