#!/usr/bin/env bash
# Contract check of moe-dispatch `gating: recorded` (docs/workloads.md, moe-dispatch): each
# token's experts come from `routing_file` exactly as recorded.
#
# Usage: bash moe-routing.sh RUNNER_BINARY SOURCE_DIR
#
# 8 ranks on a leaf-spine, 16 experts (experts 2r and 2r+1 on rank r), top-2, 4 tokens per
# rank, 2 layers:
# - every token routed to its own rank's two experts: no dispatch byte crosses the fabric,
#   every expert hit is local (64 per layer), expert_load_max_over_mean 1;
# - every token routed to rank 0's experts: rank 0's 8 hits are local, 28 tokens cross, the
#   busiest expert has 8 times the mean, and the layer takes longer than the local one (an
#   incast on rank 0);
# - the shipped example file runs (scenarios/inference/moe-routing-example.txt);
# - a file that misses a token, has a wrong number of experts, an expert out of range or twice,
#   or a token twice; routing_file without `recorded`, `recorded` without routing_file: exit 2
#   naming workloads[0].routing_file (or the file and line).
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"
start_test "$@"
cd "$tmp" || exit 1

cat >base.json <<'JSON'
{
  "name": "moe-routing",
  "seed": 1,
  "stop_time_ms": 50,
  "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
               "host_link": {"rate_gbps": 100, "delay_us": 1},
               "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
  "nic": {"mtu_bytes": 4096},
  "p2mp": {"mechanism": "bier-xpu-list"},
  "workloads": [{"type": "moe-dispatch", "label": "moe", "experts": 16, "top_k": 2,
                 "tokens_per_rank": 4, "hidden": 4096, "iterations": 2,
                 "gating": "recorded", "routing_file": "local.txt"}]
}
JSON

# Token t of rank r is r x 4 + t; rank r holds experts 2r and 2r + 1.
/usr/bin/python3 - <<'PY'
with open("local.txt", "w") as local, open("hot.txt", "w") as hot:
    local.write("# layer token experts: every token to its own rank's experts\n")
    for layer in range(2):
        for token in range(32):
            r = token // 4
            local.write(f"{layer} {token} {2 * r} {2 * r + 1}\n")
            hot.write(f"{layer} {token} 0 1\n")
lines = open("local.txt").read().splitlines()
open("missing.txt", "w").write("\n".join(lines[:-1]) + "\n")
open("three.txt", "w").write("\n".join(lines[:-1] + ["1 31 14 15 3"]) + "\n")
open("range.txt", "w").write("\n".join(lines[:-1] + ["1 31 14 16"]) + "\n")
open("same.txt", "w").write("\n".join(lines[:-1] + ["1 31 14 14"]) + "\n")
open("twice.txt", "w").write("\n".join(lines + ["1 31 14 15"]) + "\n")
PY

figure() {  # DIR KEY: a figure of workloads[0] in summary.json
    /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]+"/summary.json"))["workloads"][0][sys.argv[2]])' "$1" "$2"
}
layer_us() {
    /usr/bin/python3 -c 'import csv,sys; print(max(float(r["duration_us"]) for r in csv.DictReader(open(sys.argv[1]+"/ops.csv")) if r["kind"]=="op"))' "$1"
}

"$runner" base.json --quiet --out local 2>/dev/null >/dev/null
"$runner" base.json --quiet --out hot --set workloads[0].routing_file=hot.txt 2>/dev/null >/dev/null
if [[ $(figure local dispatch_bytes_delivered) == 0.0 &&
    $(figure local local_expert_hits_per_layer) == 64.0 &&
    $(figure local expert_load_max_over_mean) == 1.0 ]]; then
    pass "every token to its own rank's experts: no dispatch byte crosses, 64 local hits per layer, even load"
else
    fail "local routing" "dispatch bytes $(figure local dispatch_bytes_delivered 2>&1)," \
        "local hits $(figure local local_expert_hits_per_layer 2>&1)"
fi
if [[ $(figure hot local_expert_hits_per_layer) == 8.0 &&
    $(figure hot token_copies_per_layer) == 28.0 &&
    $(figure hot expert_load_max_over_mean) == 8.0 ]] &&
    /usr/bin/python3 -c 'import sys; sys.exit(not float(sys.argv[1]) > float(sys.argv[2]))' \
        "$(layer_us hot)" "$(layer_us local)"; then
    pass "every token to rank 0's experts: 8 local hits, 28 token copies, a layer of $(layer_us hot) us against $(layer_us local) us"
else
    fail "hot routing" "local hits $(figure hot local_expert_hits_per_layer 2>&1)," \
        "copies $(figure hot token_copies_per_layer 2>&1), layer $(layer_us hot) against $(layer_us local)"
fi

example=$source_dir/scenarios/inference/moe-routing-example.txt
if "$runner" base.json --quiet --out example --set "workloads[0].routing_file=$example" \
    2>example.err >/dev/null && grep -q ',completed,' example/ops.csv; then
    pass "the shipped example routing file runs"
else
    fail "the shipped example routing file runs" "$(head -3 example.err)"
fi

while IFS='|' read -r sets want; do
    args=()
    for kv in $sets; do args+=(--set "$kv"); done
    expect_exit2 "$want" base.json --out bad "${args[@]}"
done <<'CASES'
workloads[0].routing_file=missing.txt|workloads[0].routing_file: missing.txt: no line for layer 1 token 31
workloads[0].routing_file=three.txt|three.txt line 65: expected 2 experts (top_k)
workloads[0].routing_file=range.txt|range.txt line 65: the experts must be distinct, in 0..15
workloads[0].routing_file=same.txt|same.txt line 65: the experts must be distinct
workloads[0].routing_file=twice.txt|twice.txt line 66: layer 1 token 31 a second time
workloads[0].gating=uniform|workloads[0].routing_file: applies only with workloads[0].gating "recorded"
workloads[0].routing_file=nowhere.txt|workloads[0].routing_file: nowhere.txt: cannot read
CASES
# `recorded` without a file (the example scenario's uniform gating switched over).
expect_exit2 'workloads[0].routing_file: is needed with workloads[0].gating "recorded"' \
    "$source_dir/scenarios/inference/moe-dispatch.json" --out bad \
    --set workloads[0].gating=recorded

finish
