#!/usr/bin/env bash
# Contract check of `topology.kind: multi-plane` (docs/multi-plane.md): XPUs with one port into
# each of P disjoint switch planes, transfers spread over the planes by `topology.spread`.
#
# Usage: bash multi-plane.sh RUNNER_BINARY SOURCE_DIR
#
# - One plane of 8 XPUs is a one-switch fabric: ops.csv byte-identical to a leaf-spine with
#   one leaf of 8 hosts.
# - A ring AllReduce of 8 MiB over 8 XPUs at 400 Gb/s per port: its time is 2 (n - 1) steps of
#   a fixed latency plus a chunk's serialisation, and stripe over 4 planes divides the
#   serialisation by 4, so the run is between 3.2 and 4 times faster than on one plane (the
#   latency keeps it under 4). hash puts every transfer whole on one port, so it must not be
#   (the check rejects the wrong rule: under 1.2 times).
# - The MoE layer of docs/multi-plane.md on 64 XPUs and 4 planes completes under every P2MP
#   mechanism and aggregation point with no drop and no unroutable frame; its dispatch bytes
#   equal one plane's; a replicating mechanism sends one copy per plane per message (4), the
#   unicast mechanism 4 times its one-plane copies; the new protocol installs a group per plane
#   (4 times one plane's).
# - Same scenario and seed, same ops.csv.
# - Exit 2: a workload type or straggler that does not spread over planes, planes that do not
#   fill two tiers, more than 65535 XPU ports.
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"
start_test "$@"
cd "$tmp" || exit 1

cat >ring.json <<'JSON'
{
  "name": "multi-plane-ring", "seed": 1, "stop_time_ms": 50,
  "topology": {"kind": "multi-plane", "xpus": 8, "planes": 1,
               "host_link": {"rate_gbps": 400, "delay_us": 0.5},
               "fabric_link": {"rate_gbps": 400, "delay_us": 0.5}},
  "workloads": [{"type": "allreduce", "algorithm": "ring", "bytes": 8388608}]
}
JSON
/usr/bin/python3 - <<'PY'
import json
s = json.load(open("ring.json"))
s["topology"] = {"kind": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 8,
                 "host_link": s["topology"]["host_link"],
                 "fabric_link": s["topology"]["fabric_link"]}
json.dump(s, open("leaf.json", "w"))
PY

op_us() {  # DIR: the longest operation's duration
    /usr/bin/python3 -c 'import csv,sys; print(max(float(r["duration_us"]) for r in csv.DictReader(open(sys.argv[1]+"/ops.csv")) if r["kind"]=="op"))' "$1"
}
ratio_in() {  # A B LO HI: LO <= A / B <= HI
    /usr/bin/python3 -c 'import sys; a,b,lo,hi=map(float,sys.argv[1:]); sys.exit(not lo <= a/b <= hi)' "$@"
}

"$runner" ring.json --quiet --out one 2>/dev/null >/dev/null
"$runner" leaf.json --quiet --out leaf 2>/dev/null >/dev/null
if [[ -s one/ops.csv ]] && cmp -s one/ops.csv leaf/ops.csv; then
    pass "one plane of 8 XPUs: ops.csv identical to a one-leaf leaf-spine ($(op_us one) us)"
else
    fail "one plane against a one-leaf leaf-spine" "$(op_us one 2>&1) against $(op_us leaf 2>&1)"
fi

"$runner" ring.json --quiet --out stripe --set topology.planes=4 2>/dev/null >/dev/null
"$runner" ring.json --quiet --out hash --set topology.planes=4 --set topology.spread=hash \
    2>/dev/null >/dev/null
if ratio_in "$(op_us one)" "$(op_us stripe)" 3.2 4.0; then
    pass "stripe over 4 planes: $(op_us stripe) us against $(op_us one) us on one plane (3.2-4x)"
else
    fail "stripe over 4 planes divides the serialisation by 4" \
        "$(op_us stripe 2>&1) us against $(op_us one 2>&1) us"
fi
if ratio_in "$(op_us one)" "$(op_us hash)" 0.8 1.2; then
    pass "hash over 4 planes: $(op_us hash) us, no faster than one plane (the striping check rejects it)"
else
    fail "hash keeps each transfer on one port" "$(op_us hash 2>&1) us against $(op_us one 2>&1) us"
fi
"$runner" ring.json --quiet --out stripe2 --set topology.planes=4 2>/dev/null >/dev/null
if cmp -s stripe/ops.csv stripe2/ops.csv; then
    pass "same scenario and seed: the same ops.csv"
else
    fail "deterministic over planes"
fi

cat >moe.json <<'JSON'
{
  "name": "multi-plane-moe", "seed": 1, "stop_time_ms": 50,
  "topology": {"kind": "multi-plane", "xpus": 64, "planes": 4,
               "host_link": {"rate_gbps": 400, "delay_us": 0.5},
               "fabric_link": {"rate_gbps": 400, "delay_us": 0.5}},
  "nic": {"mtu_bytes": 4096},
  "p2mp": {"mechanism": "bier-xpu-list", "ack_aggregation": "source-tor", "ack_mode": "per-message"},
  "workloads": [{"type": "moe-dispatch", "experts": 64, "top_k": 8, "tokens_per_rank": 16,
                 "hidden": 7168, "dispatch_token_bytes": 7408, "combine_bytes_per_element": 2,
                 "batching": "per-destination-set", "iterations": 1}]
}
JSON
fig() {  # DIR EXPR over d (summary.json) and w (its first workload)
    /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1]+"/summary.json")); w=d["workloads"][0]; print(eval(sys.argv[2]))' "$1" "$2"
}
for case in "unicast none" "bier none" "bier source-tor" "bier sender-nic" "bier-xpu-list hop-by-hop" \
    "new-protocol source-tor" "new-protocol hop-by-hop"; do
    read -r mech agg <<<"$case"
    for planes in 1 4; do
        "$runner" moe.json --quiet --out "m-$mech-$agg-$planes" --set "p2mp.mechanism=$mech" \
            --set "p2mp.ack_aggregation=$agg" --set "topology.planes=$planes" \
            2>/dev/null >/dev/null
    done
    one=m-$mech-$agg-1
    four=m-$mech-$agg-4
    if [[ $(fig "$four" 'w["completed"]' 2>/dev/null) == 1 &&
        $(fig "$four" 'd["network"]["drops"] + d["network"]["unroutable_drops"]' 2>/dev/null) == 0 &&
        $(fig "$four" 'w["dispatch_bytes_delivered"]') == $(fig "$one" 'w["dispatch_bytes_delivered"]') ]] &&
        ratio_in "$(fig "$four" 'w["uplink_copies_per_message"]')" \
            "$(fig "$one" 'w["uplink_copies_per_message"]')" 4 4 &&
        ratio_in "$(fig "$four" 'd["network"]["group_installs"] + 1')" \
            "$(fig "$one" 'd["network"]["group_installs"] + 1')" 0.99 4.01; then
        pass "MoE over 4 planes, $mech / $agg: completes, $(fig "$four" 'w["uplink_copies_per_message"]') copies per message against $(fig "$one" 'w["uplink_copies_per_message"]'), layer $(fig "$four" 'w["layer_us"]["max"]') us against $(fig "$one" 'w["layer_us"]["max"]')"
    else
        fail "MoE over 4 planes, $mech / $agg" "completed $(fig "$four" 'w["completed"]' 2>&1)" \
            "copies $(fig "$four" 'w["uplink_copies_per_message"]' 2>&1) against $(fig "$one" 'w["uplink_copies_per_message"]' 2>&1)"
    fi
done
if [[ $(fig m-new-protocol-source-tor-4 'd["network"]["group_installs"]') == \
    $(fig m-new-protocol-source-tor-1 'd["network"]["group_installs"] * 4') ]]; then
    pass "the new protocol installs each group once per plane ($(fig m-new-protocol-source-tor-4 'd["network"]["group_installs"]') installs)"
else
    fail "a group per plane" "$(fig m-new-protocol-source-tor-4 'd["network"]["group_installs"]' 2>&1) against 4 x $(fig m-new-protocol-source-tor-1 'd["network"]["group_installs"]' 2>&1)"
fi

cat >flows.json <<'JSON'
{
  "name": "multi-plane-flows", "seed": 1, "stop_time_ms": 5,
  "topology": {"kind": "multi-plane", "xpus": 8, "planes": 2},
  "workloads": [{"type": "flows", "pattern": "permutation", "bytes": 4096}]
}
JSON
cat >straggler.json <<'JSON'
{
  "name": "multi-plane-straggler", "seed": 1, "stop_time_ms": 5,
  "topology": {"kind": "multi-plane", "xpus": 8, "planes": 2},
  "workloads": [{"type": "allreduce", "bytes": 4096}],
  "stragglers": [{"type": "slow-link", "host": 1, "factor": 0.5}]
}
JSON
while IFS='|' read -r file sets want; do
    args=()
    for kv in $sets; do args+=(--set "$kv"); done
    expect_exit2 "$want" "$file" --out bad "${args[@]}"
done <<'CASES'
flows.json||workloads[0].type: 'flows' on a multi-plane topology (2 planes)
straggler.json||stragglers[0].type: 'slow-link' on a multi-plane topology
ring.json|topology.xpus=100|topology.xpus = 100 does not fill two-tier planes
ring.json|topology.xpus=2048 topology.planes=40|at most 65535 are supported
ring.json|topology.switch_ports=7|topology.switch_ports: must be even
CASES
# One plane takes every type: the refusal is about spreading.
if "$runner" flows.json --quiet --out flows1 --set topology.planes=1 2>/dev/null >/dev/null; then
    pass "flows run on a multi-plane topology of one plane"
else
    fail "flows on one plane"
fi

finish
