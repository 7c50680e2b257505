#!/usr/bin/env bash
# Contract check of the `chakra` workload (docs/chakra.md): Chakra execution traces run as the
# equivalent JSON workloads do, and a bad trace is exit 2 naming the file and the node.
#
# Usage: bash chakra.sh RUNNER_BINARY SOURCE_DIR
#
# On a k = 4 fat-tree (16 hosts, 100 Gb/s), traces written by python/mcast4ai/chakra.py:
# - one ALL_REDUCE node per rank gives the op row of the JSON `allreduce` (ring and multicast
#   algorithms) to the picosecond: times, bytes on the wire, hops, queueing; an ALL_GATHER
#   likewise the JSON `allgather`;
# - a data-parallel trace (compute 50 µs, AllReduce, twice) gives, per AllReduce node, the
#   JSON allreduce's row with start_us 50, compute_us 50 and no barrier; the same trace with
#   twice the comm_size is rejected by the same comparison (it can fail), and gzip-compressed
#   files give the same rows;
# - a send after 10 µs of compute, received by a rank that then computes 10 µs, takes
#   10 + a 4 KiB transfer's time (a 2-rank JSON allgather's) + 10 µs;
# - a 4-stage pipeline of sends and receives runs above its compute-and-serialisation bound,
#   and the same whatever order the file lists its nodes in;
# - traces written by Chakra's own generator (test/data/chakra-generator) load and run: the
#   compute-only ones take their closed form (5 µs; two dependent nodes 10 µs), the 4-rank
#   ALL_REDUCE equals the JSON allreduce, the others complete;
# - process groups (comm_groups, pg_name): 8 pairs' AllReduces each equal the JSON allreduce
#   over a pair, and a data-parallel AllReduce over the even and odd ranks waits for them;
# - malformed traces (unsupported node type or collective, missing rank file, a collective
#   the ranks disagree on, a receive with no send, a cycle, an unknown dependency, a truncated
#   file, more files than ranks, groups entered in crossed orders, an unknown pg_name) and a
#   bad comm_groups file exit 2 with the node or file named.
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"
start_test "$@"
cd "$tmp" || exit 1

chakra() { PYTHONPATH="$source_dir/python" /usr/bin/python3 -m mcast4ai.chakra "$@" >/dev/null; }

cat >base.json <<'JSON'
{
  "name": "chakra-check",
  "seed": 5,
  "stop_time_ms": 50,
  "topology": {"kind": "fat-tree", "k": 4, "host_link": {"rate_gbps": 100, "delay_us": 1},
               "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
  "nic": {"mtu_bytes": 2048, "dcqcn": {"enabled": true, "preset": "paper"}},
  "switch": {"buffer_mb": 32, "latency_ns": 500, "pfc": {"enabled": true},
             "ecn": {"enabled": true}},
  "p2mp": {"mechanism": "bier"},
  "workloads": [{"type": "allreduce", "label": "w", "ranks": "all", "bytes": 1048576}]
}
JSON

# run NAME [--set ...]: the runner on base.json into directory NAME; 0 if it exited 0.
run() {
    local name=$1
    shift
    "$runner" base.json --quiet --set "output.dir=$name" "$@" 2>"$name.err" >/dev/null
}

# same_rows A B WHICH: ops.csv rows of A and B agree on every network and time column. WHICH:
# "op" compares the op rows; "phases-as-ops" compares B's phase rows with A's op rows in order.
cat >same.py <<'PY'
import csv, sys
a, b, which = sys.argv[1:4]
cols = ["start_us", "end_us", "duration_us", "outcome", "net_bytes", "p2mp_net_bytes",
        "switch_hops", "queue_us", "queue_max_us", "queue_max_at", "pause_us", "ecn_marks",
        "retransmissions", "drops"]
def rows(d, kind):
    with open(d + "/ops.csv") as f:
        return [r for r in csv.DictReader(f) if r["kind"] == kind]
ra = rows(a, "op")
rb = rows(b, "op" if which == "op" else "phase")
assert len(ra) == len(rb) and ra, "%d rows against %d" % (len(ra), len(rb))
if which != "op":
    cols = ["start_us", "end_us", "duration_us", "outcome"]
for x, y in zip(ra, rb):
    for c in cols:
        assert x[c] == y[c], "%s: %s against %s" % (c, x[c], y[c])
print("%d rows equal" % len(ra))
PY
same() { /usr/bin/python3 same.py "$@" >"$tmp/same.out" 2>&1; }
# duration DIR: the op row's duration_us.
duration() { /usr/bin/python3 -c 'import csv,sys; print([r for r in csv.DictReader(open(sys.argv[1]+"/ops.csv")) if r["kind"]=="op"][0]["duration_us"])' "$1"; }

# One ALL_REDUCE / ALL_GATHER node per rank against the JSON types.
chakra write dp --ranks 16 --iterations 1 --compute-us 0 --bytes 1048576 --out ar
chakra write dp --ranks 16 --iterations 1 --compute-us 0 --bytes 1048576 --comm all_gather \
    --out ag
for algorithm in ring multicast; do
    if run "json-$algorithm" --set "workloads[0].algorithm=$algorithm" &&
        run "chakra-$algorithm" --set 'workloads[0]={"type":"chakra","label":"w","ranks":"all","trace":"ar"}' \
            --set "workloads[0].algorithm=$algorithm" &&
        same "json-$algorithm" "chakra-$algorithm" op; then
        pass "one ALL_REDUCE node = JSON allreduce, $algorithm: $(cat same.out)"
    else
        fail "one ALL_REDUCE node = JSON allreduce, $algorithm" "$(cat same.out ./*.err 2>/dev/null | head -5)"
    fi
done
if run json-ag --set 'workloads[0].type=allgather' &&
    run chakra-ag --set 'workloads[0]={"type":"chakra","label":"w","ranks":"all","trace":"ag"}' &&
    same json-ag chakra-ag op; then
    pass "one ALL_GATHER node = JSON allgather: $(cat same.out)"
else
    fail "one ALL_GATHER node = JSON allgather" "$(cat same.out json-ag.err chakra-ag.err | head -5)"
fi

# Data parallel: compute then AllReduce, twice; each AllReduce node is a phase of the op.
chakra write dp --ranks 16 --iterations 2 --compute-us 50 --bytes 1048576 --out dp
chakra write dp --ranks 16 --iterations 2 --compute-us 50 --bytes 2097152 --out dp-double
json_dp=(--set 'workloads[0].iterations=2' --set 'workloads[0].compute_us=50'
    --set 'workloads[0].start_us=50' --set 'workloads[0].barrier=false')
if run json-dp "${json_dp[@]}" &&
    run chakra-dp --set 'workloads[0]={"type":"chakra","label":"w","ranks":"all","trace":"dp"}' &&
    same json-dp chakra-dp phases-as-ops; then
    pass "data-parallel trace = JSON allreduce with compute: $(cat same.out)"
else
    fail "data-parallel trace = JSON allreduce with compute" "$(cat same.out json-dp.err chakra-dp.err | head -5)"
fi
if run chakra-dp-double --set 'workloads[0]={"type":"chakra","label":"w","ranks":"all","trace":"dp-double"}' &&
    ! same json-dp chakra-dp-double phases-as-ops; then
    pass "the comparison rejects twice the comm_size: $(tail -1 same.out)"
else
    fail "the comparison rejects twice the comm_size" "$(cat same.out chakra-dp-double.err | head -5)"
fi
mkdir gz && cp dp.*.et gz/ && gzip -q gz/dp.*.et && for f in gz/dp.*.et.gz; do mv "$f" "${f%.gz}"; done
if run chakra-gz --set 'workloads[0]={"type":"chakra","label":"w","ranks":"all","trace":"gz/dp"}' &&
    cmp -s chakra-dp/ops.csv chakra-gz/ops.csv; then
    pass "gzip-compressed traces give the same ops.csv"
else
    fail "gzip-compressed traces give the same ops.csv" "$(head -3 chakra-gz.err)"
fi

# Send and receive: 10 µs of compute, 4 KiB from host 0 to host 1, 10 µs of compute there.
PYTHONPATH="$source_dir/python" /usr/bin/python3 - <<'PY'
from mcast4ai.chakra import Node, NodeType as T, write_trace
attrs = {"comm_size": 4096, "comm_tag": 7}
write_trace("p2p", 0, [Node(0, "c", T.COMP_NODE, duration_micros=10),
                       Node(1, "s", T.COMM_SEND_NODE, [0], attrs=dict(attrs, comm_dst=1))])
write_trace("p2p", 1, [Node(0, "r", T.COMM_RECV_NODE, attrs=dict(attrs, comm_src=0)),
                       Node(1, "c", T.COMP_NODE, [0], duration_micros=10)])
PY
# The reference: a 2-rank ring AllGather of 8 KiB is 4 KiB each way at once (full duplex, one
# switch), so it takes one 4 KiB transfer's time to the receiver (a flow's row would end at
# the sender's ACK instead).
if run pair --set 'workloads[0].type=allgather' --set 'workloads[0].ranks=2' \
    --set 'workloads[0].bytes=8192' &&
    run p2p --set 'workloads[0]={"type":"chakra","label":"w","ranks":2,"trace":"p2p"}'; then
    if /usr/bin/python3 - pair p2p >same.out 2>&1 <<'PY'; then
import csv, sys
op = lambda d: [r for r in csv.DictReader(open(d + "/ops.csv")) if r["kind"] == "op"][0]
pair, p2p = op(sys.argv[1]), op(sys.argv[2])
want = 10 + float(pair["duration_us"]) + 10
got = float(p2p["duration_us"])
assert abs(got - want) < 0.0015, "%.3f us, expected 10 + %s + 10" % (got, pair["duration_us"])
print("%.3f us = 10 + %s + 10" % (got, pair["duration_us"]))
PY
        pass "send and receive: $(cat same.out)"
    else
        fail "send and receive" "$(cat same.out)"
    fi
else
    fail "send and receive ran" "$(cat pair.err p2p.err | head -5)"
fi

# A pipeline (4 stages, 4 microbatches of 20 µs compute, 256 KiB activations) and the same
# nodes listed in reverse: dependencies, not file order, decide. It cannot beat compute alone,
# (stages + microbatches - 1) x 20 = 140 µs, plus three activations' serialisation (63 µs).
chakra write pipeline --ranks 4 --microbatches 4 --compute-us 20 --bytes 262144 --out pipe
PYTHONPATH="$source_dir/python" /usr/bin/python3 - <<'PY'
from mcast4ai.chakra import read_trace, write_trace
for r in range(4):
    write_trace("pipe-reversed", r, read_trace(f"pipe.{r}.et")[1][::-1])
PY
if run pipe --set 'workloads[0]={"type":"chakra","label":"w","ranks":4,"trace":"pipe"}' &&
    run pipe-reversed --set 'workloads[0]={"type":"chakra","label":"w","ranks":4,"trace":"pipe-reversed"}' &&
    cmp -s pipe/ops.csv pipe-reversed/ops.csv &&
    /usr/bin/python3 -c 'import sys; sys.exit(not float(sys.argv[1]) > 140 + 3 * 262144 * 8 / 1e5)' \
        "$(duration pipe)"; then
    pass "pipeline trace: $(duration pipe) us, above its 203 us bound; node order in the file does not matter"
else
    fail "pipeline trace" "$(duration pipe 2>&1) us" "$(head -3 pipe.err pipe-reversed.err)"
fi

# Process groups (comm_groups, pg_name): 8 tensor-parallel pairs, each under one edge switch,
# so each pair's AllReduce is alone on its links: every pair's phase equals the JSON
# allreduce over ranks [0, 1]. Then a data-parallel AllReduce over the even and the odd ranks
# after it: it runs, and it waits for its ranks' pair AllReduce (without the dependency it
# starts at 0).
PYTHONPATH="$source_dir/python" /usr/bin/python3 - <<'PY'
import json
from mcast4ai.chakra import Node, NodeType as T, CommType as C, write_trace
ar = lambda i, size, group, deps=(): Node(i, "ar", T.COMM_COLL_NODE, list(deps), attrs={
    "comm_type": int(C.ALL_REDUCE), "comm_size": size, "pg_name": group})
groups = {f"tp{p}": [2 * p, 2 * p + 1] for p in range(8)}
groups.update({"dp0": list(range(0, 16, 2)), "dp1": list(range(1, 16, 2))})
json.dump(groups, open("groups.json", "w"))
for r in range(16):
    write_trace("tp", r, [ar(0, 1048576, f"tp{r // 2}")])
    write_trace("tpdp", r, [ar(0, 1048576, f"tp{r // 2}"), ar(1, 262144, f"dp{r % 2}", [0])])
    write_trace("tpdp-free", r, [ar(0, 1048576, f"tp{r // 2}"), ar(1, 262144, f"dp{r % 2}")])
PY
groups_set() { echo "workloads[0]={\"type\":\"chakra\",\"label\":\"w\",\"ranks\":\"all\",\"trace\":\"$1\",\"comm_groups\":\"groups.json\"}"; }
if run pair --set 'workloads[0].ranks=[0,1]' && run tp --set "$(groups_set tp)" &&
    /usr/bin/python3 - pair tp >same.out 2>&1 <<'PY'; then
import csv, sys
rows = lambda d: list(csv.DictReader(open(d + "/ops.csv")))
pair = [r for r in rows(sys.argv[1]) if r["kind"] == "op"][0]
phases = [r for r in rows(sys.argv[2]) if r["kind"] == "phase"]
assert len(phases) == 8, "%d phases" % len(phases)
for p in phases:
    for c in ("start_us", "end_us", "net_bytes", "switch_hops"):
        assert p[c] == pair[c], "%s %s: %s against %s" % (p["phase"], c, p[c], pair[c])
print("8 pair phases = JSON allreduce over [0, 1]: %s us" % pair["duration_us"])
PY
    pass "process groups: $(cat same.out)"
else
    fail "process groups: pairs" "$(cat same.out pair.err tp.err | head -5)"
fi
if run tpdp --set "$(groups_set tpdp)" && run tpdp-free --set "$(groups_set tpdp-free)" &&
    /usr/bin/python3 - tpdp tpdp-free >same.out 2>&1 <<'PY'; then
import csv, sys
phases = lambda d: [r for r in csv.DictReader(open(d + "/ops.csv")) if r["kind"] == "phase"]
dp = [p for p in phases(sys.argv[1]) if "#1@" in p["phase"]]
tp_end = min(float(p["end_us"]) for p in phases(sys.argv[1]) if "#0@" in p["phase"])
free = [p for p in phases(sys.argv[2]) if "#1@" in p["phase"]]
assert len(dp) == 2 and all(p["outcome"] == "completed" for p in dp), dp
starts = [float(p["start_us"]) for p in dp]
assert min(starts) > 0.9 * tp_end, "data-parallel starts %s before the pairs end (%s)" % (starts, tp_end)
assert all(float(p["start_us"]) == 0 for p in free), [p["start_us"] for p in free]
print("data-parallel AllReduces start at %s us, after the pairs (first ends %.3f); without the "
      "dependency at 0" % (", ".join("%.3f" % x for x in starts), tp_end))
PY
    pass "process groups: $(cat same.out)"
else
    fail "process groups: data parallel after tensor parallel" "$(cat same.out tpdp.err | head -5)"
fi

# Chakra's own generator's traces (4 ranks).
fixtures=$source_dir/test/data/chakra-generator
for case in one_comp_node:5.000 two_comp_nodes_dependent:10.000; do
    name=${case%%:*}
    want=${case##*:}
    if run "$name" --set "workloads[0]={\"type\":\"chakra\",\"label\":\"w\",\"ranks\":4,\"trace\":\"$fixtures/$name\"}" &&
        [[ $(duration "$name") == "$want" ]]; then
        pass "Chakra generator's $name takes $want us"
    else
        fail "Chakra generator's $name takes $want us" "$(cat "$name.err" | head -3)"
    fi
done
if run json-ar4 --set 'workloads[0].ranks=4' --set 'workloads[0].bytes=65536' &&
    run gen-ar --set "workloads[0]={\"type\":\"chakra\",\"label\":\"w\",\"ranks\":4,\"trace\":\"$fixtures/ALL_REDUCE\"}" &&
    same json-ar4 gen-ar op; then
    pass "Chakra generator's ALL_REDUCE = JSON allreduce of 65536 bytes over 4 ranks"
else
    fail "Chakra generator's ALL_REDUCE = JSON allreduce" "$(cat same.out gen-ar.err | head -5)"
fi
for name in ALL_GATHER REDUCE_SCATTER ALL_TO_ALL; do
    if run "gen-$name" --set "workloads[0]={\"type\":\"chakra\",\"label\":\"w\",\"ranks\":4,\"trace\":\"$fixtures/$name\"}" &&
        grep -q ',completed,' "gen-$name/ops.csv"; then
        pass "Chakra generator's $name runs ($(duration "gen-$name") us)"
    else
        fail "Chakra generator's $name runs" "$(head -3 "gen-$name.err")"
    fi
done

# Knobs the trace gives nothing to do: a warning naming the key.
warn=$("$runner" base.json --quiet --set output.dir=knobs \
    --set "workloads[0]={\"type\":\"chakra\",\"label\":\"w\",\"ranks\":4,\"trace\":\"$fixtures/ALL_TO_ALL\",\"algorithm\":\"multicast\"}" 2>&1 >/dev/null)
warn2=$("$runner" base.json --quiet --set output.dir=knobs2 \
    --set "workloads[0]={\"type\":\"chakra\",\"label\":\"w\",\"ranks\":4,\"trace\":\"$fixtures/one_comp_node\",\"chunk_bytes\":4096}" 2>&1 >/dev/null)
if [[ $warn == *"workloads[0].algorithm: 'multicast' has no effect"* &&
    $warn2 == *"workloads[0].chunk_bytes: has no effect: the trace has no collectives"* ]]; then
    pass "multicast on a trace with nothing to multicast, chunk_bytes without collectives: warnings"
else
    fail "knobs without effect warn" "$warn" "$warn2"
fi

# Malformed traces: exit 2, "error: base.json: workloads[0].trace: FILE: ..." naming the node.
PYTHONPATH="$source_dir/python" /usr/bin/python3 - <<'PY'
from mcast4ai.chakra import Node, NodeType as T, CommType as C, encode_trace, write_trace
from pathlib import Path
ar = lambda i, size, deps=(): Node(i, "ar", T.COMM_COLL_NODE, list(deps),
                                   attrs={"comm_type": int(C.ALL_REDUCE), "comm_size": size})
for r in range(2):
    write_trace("memload", r, [Node(3, "load", T.MEM_LOAD_NODE)])
    write_trace("reduce", r, [Node(5, "red", T.COMM_COLL_NODE,
                                   attrs={"comm_type": int(C.REDUCE), "comm_size": 1024})])
    write_trace("disagree", r, [ar(9, 1024 * (r + 1))])
    write_trace("cycle", r, [Node(1, "a", T.COMP_NODE, [2]), Node(2, "b", T.COMP_NODE, [1])])
    write_trace("three", r, [ar(0, 1024)])
write_trace("norecv", 0, [Node(0, "c", T.COMP_NODE)])
write_trace("norecv", 1, [Node(4, "r", T.COMM_RECV_NODE,
                               attrs={"comm_src": 0, "comm_size": 64, "comm_tag": 1})])
write_trace("three", 2, [ar(0, 1024)])
write_trace("missing", 0, [ar(0, 1024)])
import json
json.dump({"a": [0, 1], "b": [0, 1]}, open("groups2.json", "w"))
grp = lambda i, g, deps=(): Node(i, "g" + g, T.COMM_COLL_NODE, list(deps), attrs={
    "comm_type": int(C.ALL_REDUCE), "comm_size": 64, "pg_name": g})
# Two groups of the same ranks, entered in opposite orders: a deadlock.
write_trace("crossed", 0, [grp(0, "a"), grp(1, "b", [0])])
write_trace("crossed", 1, [grp(0, "b"), grp(1, "a", [0])])
for r in range(2):
    write_trace("nogroup", r, [grp(0, "z")])
for r in range(2):
    Path(f"dangling.{r}.et").write_bytes(encode_trace([Node(6, "c", T.COMP_NODE, [99])]))
    Path(f"cut.{r}.et").write_bytes(encode_trace([ar(0, 1024)])[:-3])
PY
while IFS='|' read -r trace want; do
    "$runner" base.json --quiet --set "output.dir=bad" \
        --set "workloads[0]={\"type\":\"chakra\",\"label\":\"w\",\"ranks\":2,\"trace\":\"$trace\",\"comm_groups\":\"groups2.json\"}" \
        2>bad.err >/dev/null
    code=$?
    first=$(head -1 bad.err)
    if [[ $code -eq 2 && $first == "error: base.json: workloads[0].trace: "*"$want"* ]]; then
        pass "bad trace '$trace': exit 2, $want"
    else
        fail "bad trace '$trace': exit 2 naming '$want'" "exit $code: $first"
    fi
done <<'CASES'
memload|memload.0.et: node 3 ("load"): MEM_LOAD_NODE is not supported
reduce|reduce.0.et: node 5 ("red"): collective REDUCE is not supported
disagree|disagree.1.et: node 9 ("ar"): collective 0 (over every rank) is ALL_REDUCE of 2048 bytes
cycle|cycle.0.et: node 1 ("a"): its dependencies form a cycle
norecv|norecv.1.et: node 4 ("r"): no send from rank 0 with comm_tag 1
dangling|dangling.0.et: node 6 ("c"): depends on node 99, which the file does not have
cut|cut.0.et: message 1
missing|missing.1.et: cannot read
three|three.2.et: the trace has more ranks than the workload's 2
crossed|crossed.0.et: node 0 ("ga"): its collective (process group "a") waits for rank 1, whose next is crossed.1.et: node 0 ("gb")
nogroup|nogroup.0.et: node 0 ("gz"): pg_name "z" is not a group of the workload's comm_groups file
CASES
echo '{"a": [0, 7]}' >bad-groups.json
"$runner" base.json --quiet --set "output.dir=bad" \
    --set 'workloads[0]={"type":"chakra","label":"w","ranks":2,"trace":"three","comm_groups":"bad-groups.json"}' \
    2>bad.err >/dev/null
code=$?
if [[ $code -eq 2 && $(head -1 bad.err) == *'workloads[0].comm_groups: bad-groups.json: group "a": 7 is not a rank of the trace'"'"'s 2'* ]]; then
    pass "bad comm_groups file: exit 2 naming workloads[0].comm_groups"
else
    fail "bad comm_groups file" "exit $code: $(head -1 bad.err)"
fi

finish
