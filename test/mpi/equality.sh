#!/usr/bin/env bash
# One scenario, one process or several: the same answers. Run by scripts/mpi-check.sh with the
# runner of an ns-3 tree built with MPI; see docs/testing.md.
#
#   bash test/mpi/equality.sh RUNNER
#
# 1. flows-staggered.json (16 hosts, 32 flows with distinct start times, congested: ECN marks,
#    queueing): ops.csv at 2 and 4 ranks is byte-identical to one process's, and so is
#    summary.json but for the keys that describe the run rather than the model (wall time,
#    memory, events, the `distribution` block); at 2 ranks also under hpcc-ecmp, steering
#    (with and without telemetry) and without congestion control; with each frame a message of
#    its own (ns3::RemoteFrameBatcher::Gather=false), the same results in as many messages as
#    frames, where gathered they take under a third as many. The check can fail: with frames
#    from other processes sent and ordered as ns-3 does (a message each, ordered as they
#    arrive: MCAST4AI_REMOTE_ORDER=arrival), the same comparison must find a difference.
# 2. permutation-symmetric.json (128 hosts sending at one instant: every tier sees frames from
#    two processes at the same picosecond, which no ordering can place as one process does).
#    Two runs at 4 ranks give the same bytes (the ties are broken the same way every time); the
#    difference from one process is bounded: every row names the same operation, bytes, hosts
#    and links, no end time differs by more than 1 % of its duration, and the mean duration by
#    more than 0.1 %. The measured figures are printed.
# 3. broadcast-subsets.json (multicast broadcasts from hosts 10 and 11, one rack on rank 1 or
#    2, to 9 of 15 and 5 of 8 ranks per message, beside three unicast flows): at 2 and 4 ranks
#    ops.csv and summary.json are as one process's under the new protocol (a group installed
#    per receiver set, ACKs aggregated at the source ToR), BIER, BIER with the XPU list, and
#    BIER with
#    hop-by-hop ACK aggregation. The check rejects a run without the messages between
#    processes (the receivers' processes then record no delivery, and under the new protocol
#    the groups never reach the other processes' switches).
# 4. allreduce.json (16 ranks, 3 iterations of 1 MiB with barrier): at 2 and 4 ranks ops.csv
#    is one process's byte for byte with the ring, the multicast algorithm (BIER), without
#    barrier, as a reduce-scatter, and over 128 ranks (k = 8), whose parts of an iteration
#    cross in fragments; summary.json too, but for the network counters, which
#    also count what the processes carry after the last arrival while they hear of it (the
#    last messages' ACKs): they may only be larger, and the data packets are the same. The
#    check rejects ranks that start an iteration when their process heard of the last one's
#    end rather than at it (MCAST4AI_BARRIER=heard).
# 5. moe-layer.json (16 ranks, 3 layers) and allreduce.json as a multicast AllGather: every
#    rank sends P2MP messages at one instant, so copies from two processes meet at one
#    picosecond: deterministic (4 ranks twice); against one process the same rows, every end
#    within two frames' time (a frame time per pair of tied frames swapped). The bound
#    rejects MoE layers started when heard.
# 6. A workload type that does not run spread yet, a broadcast relayed by its ranks, the unicast
#    mechanism, new-protocol roots on two processes (a broadcast's, a collective's), a
#    collective whose compute_us does not cover a message's delay, an MoE layer without
#    barrier, and packet spraying are refused with exit 2 naming their keys.
# 7. scripts/mpi-run.sbatch, submitted as a 2-task job to a real single-node SLURM cluster the
#    script starts (test/cli/lib/slurm-cluster.bash; as root), gives the same ops.csv.
set -euo pipefail

runner=$(realpath -- "${1:?usage: bash test/mpi/equality.sh RUNNER}") # the SLURM job runs elsewhere
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=/usr/bin/python3
tmp=$(mktemp -d)
source "$root/test/cli/lib/slurm-cluster.bash"
trap 'stop_cluster; rm -rf "$tmp"' EXIT
# Open MPI refuses root without these, and more ranks than cores without --oversubscribe.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=(mpirun --oversubscribe)
fail=0

run() { # out ranks scenario [env...]
    local out=$1 n=$2 sc=$3
    shift 3
    if [[ $n == 1 ]]; then
        env "$@" "$runner" "$sc" --quiet --out "$out" 2>"$out.err"
    else
        local exports=()
        for kv in "$@"; do exports+=(-x "$kv"); done
        env "$@" "${mpi[@]}" "${exports[@]}" -np "$n" "$runner" "$sc" --quiet --out "$out" 2>"$out.err"
    fi
}

# a b [after-end]: equal but for what describes the run, not the model. After-end (a
# collective, done at its last arrival while its ACKs are on the wire): the network counters of
# b may be larger (its processes ran on until they heard of the end), its data packets the same.
same_summary() {
    "$py" - "$1/summary.json" "$2/summary.json" "${3:-}" <<'EOF'
import json, sys
run_keys = {"wall_s", "events", "events_per_s", "packet_hops_per_s", "peak_rss_mb", "distribution"}
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for s in (a, b):
    for k in run_keys:
        s.pop(k, None)
if not sys.argv[3]:
    sys.exit(0 if a == b else 1)
bad = []
def walk(x, y, path, counters):
    if isinstance(x, dict) and isinstance(y, dict) and x.keys() == y.keys():
        for k in x:
            walk(x[k], y[k], f"{path}.{k}", counters or k in ("network", "packet_hops"))
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (u, v) in enumerate(zip(x, y)):
            walk(u, v, f"{path}[{i}]", counters)
    elif isinstance(x, (int, float)) and isinstance(y, (int, float)):
        ok = y >= x if counters and not path.endswith("data_packets") else x == y
        if not ok:
            bad.append(f"{path}: {x} / {y}")
    elif x != y:
        bad.append(f"{path}: {x} / {y}")
walk(a, b, "", False)
if bad:
    print("\n".join(bad[:5]), file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
}
same_summary_after_end() { same_summary "$1" "$2" after-end; }

ties() { "$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))["distribution"]["cross_rank_ties"])' "$1/summary.json"; }

echo "== flows-staggered: byte-identical at 2 and 4 ranks"
sc=$here/flows-staggered.json
run "$tmp/seq" 1 "$sc"
for n in 2 4; do
    run "$tmp/s$n" "$n" "$sc"
    if cmp -s "$tmp/seq/ops.csv" "$tmp/s$n/ops.csv" && same_summary "$tmp/seq" "$tmp/s$n"; then
        echo "ok   $n ranks: ops.csv and summary.json as one process ($(wc -l <"$tmp/seq/ops.csv") lines)"
    else
        echo "FAIL $n ranks: differs from one process"
        diff "$tmp/seq/ops.csv" "$tmp/s$n/ops.csv" | head -n 6 || true
        fail=1
    fi
done
# The other load-balancing modes and no congestion control, at 2 ranks.
for v in load_balancing.mode=hpcc-ecmp load_balancing.mode=steering \
    "load_balancing.mode=steering load_balancing.telemetry=true" nic.dcqcn.enabled=false; do
    sets=()
    for kv in $v; do sets+=(--set "$kv"); done
    "$runner" "$sc" --quiet --out "$tmp/v1" "${sets[@]}" 2>/dev/null
    "${mpi[@]}" -np 2 "$runner" "$sc" --quiet --out "$tmp/v2" "${sets[@]}" 2>/dev/null
    if cmp -s "$tmp/v1/ops.csv" "$tmp/v2/ops.csv"; then
        echo "ok   2 ranks with $v: ops.csv as one process"
    else
        echo "FAIL 2 ranks with $v: ops.csv differs from one process"
        fail=1
    fi
done
# The batch script as a 2-task job of a real single-node SLURM cluster started here (Open MPI's
# mpirun takes the allocation from SLURM; on this one node it starts both ranks itself, without
# srun); where the daemons cannot run, the script with a 2-task allocation's variables set, and
# the output says which.
chmod 755 "$tmp"
if start_cluster "$tmp/cluster" mpitest; then
    echo "ok   $cluster_up"
    how="a 2-task job of the SLURM cluster"
    (cd "$tmp" && timeout 300 sbatch --wait --quiet --ntasks=2 --output="$tmp/sbatch.log" \
        "$root/scripts/mpi-run.sbatch" "$runner" "$sc" --quiet --out "$tmp/sbatch") \
        >"$tmp/sbatch.err" 2>&1 || cat "$tmp/sbatch.err" >>"$tmp/sbatch.log"
else
    echo "SKIP a real SLURM job: $cluster_why; the allocation's variables set instead"
    how="2 tasks, the allocation's variables set"
    SLURM_NTASKS=2 SLURM_JOB_NODELIST=localhost bash "$root/scripts/mpi-run.sbatch" "$runner" \
        "$sc" --quiet --out "$tmp/sbatch" >"$tmp/sbatch.log" 2>&1 || true
fi
stop_cluster
if cmp -s "$tmp/seq/ops.csv" "$tmp/sbatch/ops.csv"; then
    echo "ok   scripts/mpi-run.sbatch as $how: ops.csv as one process ($(head -n 1 "$tmp/sbatch.log"))"
else
    echo "FAIL scripts/mpi-run.sbatch as $how"
    cat "$tmp/sbatch.log" >&2
    fail=1
fi
# Frames to one process share messages (RemoteFrameBatcher: a frame waits up to the far
# switch's 500 ns latency); each frame a message of its own (ns-3's way) gives the same results.
run "$tmp/alone" 2 "$sc" NS_ATTRIBUTE_DEFAULT=ns3::RemoteFrameBatcher::Gather=false
msgs() { "$py" -c 'import json, sys; d = json.load(open(sys.argv[1]))["distribution"]; print(d["messages"], d["frames"], d["sync_rounds"])' "$1/summary.json"; }
read -r m2 f2 r2 < <(msgs "$tmp/s2")
read -r m0 f0 r0 < <(msgs "$tmp/alone")
if cmp -s "$tmp/seq/ops.csv" "$tmp/alone/ops.csv" && same_summary "$tmp/seq" "$tmp/alone" \
    && ((m0 == f0 && f2 == f0 && 3 * m2 < f2)); then
    echo "ok   frames batched: $f2 frames in $m2 messages ($r2 rounds); each alone: $m0 messages ($r0 rounds), the same results"
else
    echo "FAIL frames batched: $f2 frames in $m2 messages; each alone: $f0 frames in $m0 messages, ops.csv $(cmp -s "$tmp/seq/ops.csv" "$tmp/alone/ops.csv" && echo same || echo differs)"
    fail=1
fi
# ns-3's own way: a message per frame, handed to the engine as it arrives. (Gathered frames
# are scheduled when their message comes, earlier than alone; in arrival order that happens to
# give one process's ops.csv here, which does not make the order right.)
run "$tmp/arrival" 2 "$sc" MCAST4AI_REMOTE_ORDER=arrival NS_ATTRIBUTE_DEFAULT=ns3::RemoteFrameBatcher::Gather=false
if cmp -s "$tmp/seq/ops.csv" "$tmp/arrival/ops.csv"; then
    echo "FAIL the check cannot fail: ns-3's arrival order gives the same ops.csv"
    fail=1
else
    echo "ok   rejects the wrong model: in ns-3's arrival order ops.csv differs ($(diff "$tmp/seq/ops.csv" "$tmp/arrival/ops.csv" | grep -c '^<') rows)"
fi

# seq spread ranks [frames]: the same rows; every end within 1 % of its duration and the mean
# duration within 0.1 %, or with frames, every end within that many 2,048-byte frames' time at
# 100 Gb/s (what swapping tied frames can move it by, a frame time per swap).
within_bound() {
    "$py" - "$1/ops.csv" "$2/ops.csv" "$3" "${4:-0}" <<'EOF'
import sys
import pandas as pd
a, b = pd.read_csv(sys.argv[1]), pd.read_csv(sys.argv[2])
frames = int(sys.argv[4])
ids = ["workload", "op", "phase", "rank", "bytes", "src", "dst", "net_bytes", "switch_hops",
       "outcome"]
assert len(a) == len(b) and (a[ids].astype(str) == b[ids].astype(str)).all().all(), "rows differ"
# The links a row names are the same; their order may differ where two were first used at one
# instant by two processes, and so which eight a row with more names.
whole = ~a.path.str.contains("+more", regex=False)
assert (a.path[whole].str.split().apply(sorted) == b.path[whole].str.split().apply(sorted)).all(), \
    "links differ"
rel = ((a.end_us - b.end_us).abs() / a.duration_us).max()
mean = abs(a.duration_us.mean() - b.duration_us.mean()) / a.duration_us.mean()
rows = (a.astype(str) != b.astype(str)).any(axis=1).sum()
most = (a.end_us - b.end_us).abs().max()
frame_us = 2048 * 8 / 100e3
print(f"     {sys.argv[3]} ranks: {rows} of {len(a)} rows differ; largest end difference "
      f"{rel:.3%} of its duration ({most / frame_us:.2f} frame times), mean duration {mean:.4%}")
if frames:
    sys.exit(0 if most <= frames * frame_us else 1)
sys.exit(0 if rel <= 0.01 and mean <= 0.001 else 1)
EOF
}

echo "== permutation-symmetric: ties across processes, deterministic and bounded"
sc=$here/permutation-symmetric.json
run "$tmp/pseq" 1 "$sc"
for n in 2 4; do
    run "$tmp/p$n" "$n" "$sc"
done
run "$tmp/p4b" 4 "$sc"
if cmp -s "$tmp/p4/ops.csv" "$tmp/p4b/ops.csv"; then
    echo "ok   4 ranks twice: the same ops.csv"
else
    echo "FAIL 4 ranks twice: ops.csv differs between runs"
    fail=1
fi
for n in 2 4; do
    if within_bound "$tmp/pseq" "$tmp/p$n" "$n"; then
        echo "ok   $n ranks: within the bound"
    else
        echo "FAIL $n ranks: outside the bound"
        fail=1
    fi
done

echo "== broadcast-subsets: P2MP messages across processes, as one process"
# scenario summary-check "key=value ...": one process, then 2 and 4 ranks, compared.
as_one_process() {
    local sc=$1 check=$2 v=$3 sets=()
    for kv in $v; do sets+=(--set "$kv"); done
    "$runner" "$sc" --quiet --out "$tmp/o1" "${sets[@]}" 2>/dev/null
    for n in 2 4; do
        "${mpi[@]}" -np "$n" "$runner" "$sc" --quiet --out "$tmp/o$n" "${sets[@]}" 2>"$tmp/o$n.err" || true
        if cmp -s "$tmp/o1/ops.csv" "$tmp/o$n/ops.csv" && "$check" "$tmp/o1" "$tmp/o$n"; then
            echo "ok   $n ranks with ${v:-its own keys}: ops.csv and summary.json as one process"
        else
            echo "FAIL $n ranks with ${v:-its own keys}: differs from one process"
            diff "$tmp/o1/ops.csv" "$tmp/o$n/ops.csv" | head -n 4 || true
            tail -n 3 "$tmp/o$n.err" >&2
            fail=1
        fi
    done
}
for v in p2mp.mechanism=new-protocol p2mp.mechanism=bier p2mp.mechanism=bier-xpu-list \
    "p2mp.mechanism=bier p2mp.ack_aggregation=hop-by-hop"; do
    as_one_process "$here/broadcast-subsets.json" same_summary "$v"
done
# Messages of one instant to one process share MPI messages (RankMessenger): the roots post
# at one instant, so the last run above sent fewer MPI messages than messages. Sent one by
# one, the two counts would be equal.
ctl() { "$py" -c 'import json, sys; d = json.load(open(sys.argv[1]))["distribution"]; print(d["controls"], d["control_messages"])' "$1/summary.json"; }
read -r parts carriers < <(ctl "$tmp/o4")
if ((carriers > 0 && carriers < parts)); then
    echo "ok   control messages gathered: $parts messages in $carriers MPI messages at 4 ranks"
else
    echo "FAIL control messages: $parts messages in $carriers MPI messages at 4 ranks"
    fail=1
fi
sc=$here/broadcast-subsets.json
# The check can fail: without the messages (MCAST4AI_P2MP_MESSAGES=off, a switch for this test
# only) the receivers' processes do not know the root's messages, so they record no delivery;
# under the new protocol the other processes' switches never get the groups' entries either.
for m in bier new-protocol; do
    "$runner" "$sc" --quiet --out "$tmp/b1" --set p2mp.mechanism=$m 2>/dev/null
    set +e
    "${mpi[@]}" -x MCAST4AI_P2MP_MESSAGES=off -np 2 "$runner" "$sc" --quiet --out "$tmp/boff" \
        --set p2mp.mechanism=$m >/dev/null 2>&1
    rc=$?
    set -e
    if [[ $rc == 0 ]] && cmp -s "$tmp/b1/ops.csv" "$tmp/boff/ops.csv" && same_summary "$tmp/b1" "$tmp/boff"; then
        echo "FAIL the broadcast check cannot fail: $m without the messages matches one process"
        fail=1
    else
        echo "ok   rejects the wrong model: $m without the messages between processes $( ((rc == 0)) && echo differs || echo "does not complete (exit $rc)")"
    fi
done

echo "== allreduce: collectives across processes, as one process"
sc=$here/allreduce.json
# The last: 128 ranks, whose iteration parts (254 steps) cross in fragments.
for v in "" "workloads[0].algorithm=multicast" "workloads[0].barrier=false" \
    "workloads[0].type=reducescatter" "topology.k=8 workloads[0].iterations=2"; do
    as_one_process "$sc" same_summary_after_end "$v"
done
"$runner" "$sc" --quiet --out "$tmp/c1" 2>/dev/null
"${mpi[@]}" -x MCAST4AI_BARRIER=heard -np 2 "$runner" "$sc" --quiet --out "$tmp/cheard" 2>/dev/null
if cmp -s "$tmp/c1/ops.csv" "$tmp/cheard/ops.csv"; then
    echo "FAIL the collective check cannot fail: starting when heard matches one process"
    fail=1
else
    echo "ok   rejects the wrong model: iterations started when heard, not when done, differ" \
        "($(diff "$tmp/c1/ops.csv" "$tmp/cheard/ops.csv" | grep -c '^<') rows)"
fi

echo "== chakra: the shipped Chakra trace (multicast AllReduces under BIER), as one process"
root=$(cd "$here/../.." && pwd)
as_one_process "$root/scenarios/collectives/chakra-dp-16.json" same_summary_after_end \
    "workloads[0].trace=$root/scenarios/collectives/traces/dp-16"

echo "== moe-layer, multicast AllGather: P2MP from every rank at one instant, bounded"
# Every end within two frame times of one process's: a frame time per pair of tied frames
# swapped, with room for two. Ranks that start a layer a lookahead late (1 us, 6.1 frame
# times) move the MoE layer's ends by 3.9 frame times; the bound must reject that.
frames=2
for case in "moe-layer.json" "allreduce.json workloads[0].type=allgather workloads[0].algorithm=multicast"; do
    read -r file v <<<"$case"
    sets=()
    for kv in $v; do sets+=(--set "$kv"); done
    "$runner" "$here/$file" --quiet --out "$tmp/mseq" "${sets[@]}" 2>/dev/null
    for n in 2 4; do
        "${mpi[@]}" -np "$n" "$runner" "$here/$file" --quiet --out "$tmp/m$n" "${sets[@]}" 2>/dev/null
    done
    "${mpi[@]}" -np 4 "$runner" "$here/$file" --quiet --out "$tmp/m4b" "${sets[@]}" 2>/dev/null
    if cmp -s "$tmp/m4/ops.csv" "$tmp/m4b/ops.csv"; then
        echo "ok   $file${v:+ $v}, 4 ranks twice: the same ops.csv"
    else
        echo "FAIL $file${v:+ $v}, 4 ranks twice: ops.csv differs between runs"
        fail=1
    fi
    for n in 2 4; do
        if within_bound "$tmp/mseq" "$tmp/m$n" "$n" "$frames"; then
            echo "ok   $file${v:+ $v}, $n ranks: within the bound (cross-rank ties $(ties "$tmp/m$n"))"
        else
            echo "FAIL $file${v:+ $v}, $n ranks: outside the bound"
            fail=1
        fi
    done
done

# The bound can fail: ranks that start a layer when their process heard of the last one's end.
"$runner" "$here/moe-layer.json" --quiet --out "$tmp/mseq" 2>/dev/null
"${mpi[@]}" -x MCAST4AI_BARRIER=heard -np 2 "$runner" "$here/moe-layer.json" --quiet \
    --out "$tmp/mheard" 2>/dev/null
if within_bound "$tmp/mseq" "$tmp/mheard" "started when heard, 2" "$frames"; then
    echo "FAIL the MoE bound cannot fail: layers started when heard stay within it"
    fail=1
else
    echo "ok   rejects the wrong model: MoE layers started when heard fall outside the bound"
fi

echo "== refusals"
refused() { # what key scenario [--set ...]: exit 2 naming key
    local what=$1 key=$2 sc=$3
    shift 3
    set +e
    "${mpi[@]}" -np 2 "$runner" "$sc" --quiet --out "$tmp/r" "$@" 2>"$tmp/r.err"
    local rc=$?
    set -e
    if [[ $rc == 2 ]] && grep -qF "$key" "$tmp/r.err"; then
        echo "ok   $what on 2 ranks: exit 2 naming $key"
    else
        echo "FAIL $what on 2 ranks: exit $rc"
        cat "$tmp/r.err" >&2
        fail=1
    fi
}
printf '%s\n' '{"name": "a", "topology": {"kind": "fat-tree", "k": 4}, "p2mp": {"mechanism": "bier"},' \
    ' "workloads": [{"type": "kv-cache-fanout", "prefill_ranks": [0, 1], "decode_ranks": [2, 3]}]}' \
    >"$tmp/kv.json"
refused "a KV-cache fan-out" "workloads[0].type" "$tmp/kv.json"
refused "an AllReduce whose compute_us is below the lookahead" "workloads[0].compute_us" \
    "$here/allreduce.json" --set 'workloads[0].compute_us=0.5'
refused "an MoE layer without barrier" "workloads[0].barrier" "$here/moe-layer.json" \
    --set 'workloads[0].barrier=false'
refused "new-protocol MoE dispatch from every process" "workloads[0].ranks" "$here/moe-layer.json" \
    --set p2mp.mechanism=new-protocol
refused "a relayed broadcast" "workloads[0].algorithm" "$here/broadcast-subsets.json" \
    --set 'workloads[0].algorithm=tree' --set 'workloads[0].receivers_per_message=0'
refused "the unicast mechanism" "p2mp.mechanism" "$here/broadcast-subsets.json" \
    --set p2mp.mechanism=unicast
refused "new-protocol roots on two processes" "workloads[1].root" "$here/broadcast-subsets.json" \
    --set 'workloads[1].root=2'
refused "spray-random" "load_balancing.mode" "$here/flows-staggered.json" \
    --set load_balancing.mode=spray-random

echo "cross-rank ties: flows-staggered $(ties "$tmp/s2") at 2 ranks, $(ties "$tmp/s4") at 4;" \
    "permutation-symmetric $(ties "$tmp/p2") at 2, $(ties "$tmp/p4") at 4"

((fail == 0)) && echo "all distributed checks passed" || { echo "some distributed checks failed" >&2; exit 1; }
