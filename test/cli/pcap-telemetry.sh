#!/usr/bin/env bash
# Contract check: in-band telemetry (docs/load-balancing.md#in-band-telemetry) puts real IOAM traces
# on the wire, which tshark decodes with tools/wireshark/mcast4ai.lua.
#
# Usage: bash pcap-telemetry.sh RUNNER_BINARY SOURCE_DIR
#
# One 1 MiB steered flow from host 0 to host 1 across two spines with telemetry on. The
# topology numbers hosts 0-1, then leaf0 = 2, leaf1 = 3, spine0 = 4, spine1 = 5; a leaf's
# port 0 is its host, ports 1-2 its uplinks; a spine's port 0 faces leaf0, port 1 leaf1.
# Expected, derived from the wire format and the topology:
# - a probe (BTH opcode 0xC1) pre-allocates 3 hops: 14 + 20 + 8 + 12 (BTH) + 4 (IOAM header)
#   + 8 (trace option) + 3 x 28 (node data) + 4 (ICRC) = 154 bytes, and so does its
#   acknowledgement (0xC2);
# - at the receiver every probe arrives stamped by exactly 3 nodes, in path order leaf0
#   (in 0, out 1 or 2), a spine 4 or 5 (in 0, out 1), leaf1 (in 1 or 2, out 0), with
#   RemainingLen 0, the Active flag and no Overflow, and its ICRC (recomputed by every switch
#   that stamped it) verifies;
# - the namespace data's sharers and rank, as the check below says;
# - the acknowledgements host 0 receives echo those traces, one per probe;
# - host 0 sends as many probes as summary.json counts, all answered;
# - claims (0xC3), on a second fabric where senders leave collisions: see below.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
source_dir=$2
lua=$source_dir/tools/wireshark/mcast4ai.lua

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"

if ! command -v tshark >/dev/null 2>&1; then
    fail "tshark is not installed" "install the Debian package 'tshark'"
    finish
fi
require_runner "$runner"

tmp=$(mktemp -d)
finish_hook() { rm -rf "$tmp"; }
cat >"$tmp/telemetry.json" <<'JSON'
{
  "name": "pcap-telemetry", "seed": 1, "stop_time_ms": 20,
  "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 1,
               "host_link": {"rate_gbps": 100, "delay_us": 1},
               "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
  "nic": {"mtu_bytes": 1024, "reorder": "tolerant"},
  "load_balancing": {"mode": "steering", "message_bytes": 65536, "telemetry": true},
  "workloads": [{"type": "flows", "pattern": "list",
                 "flows": [{"src": 0, "dst": 1, "bytes": 1048576}]}]
}
JSON
if ! "$runner" "$tmp/telemetry.json" --pcap --quiet --out "$tmp/out" >"$tmp/run.log" 2>&1; then
    fail "the run completes" "$(tail -n 3 "$tmp/run.log")"
    finish
fi
pass "the run completes"

fields=(-e frame.len -e ip.src -e infiniband.bth.opcode -e mcast4ai.ioam.probe_id
    -e mcast4ai.ioam.namespace -e mcast4ai.ioam.remaining -e mcast4ai.ioam.flags.active
    -e mcast4ai.ioam.flags.overflow -e mcast4ai.ioam.hops -e mcast4ai.ioam.node_id
    -e mcast4ai.ioam.ingress_if -e mcast4ai.ioam.egress_if -e mcast4ai.ioam.transit_ns
    -e mcast4ai.ioam.utilisation -e mcast4ai.ioam.queue_bytes -e mcast4ai.icrc.status
    -e mcast4ai.ioam.sharers -e mcast4ai.ioam.rank)
for host in 0 1; do
    tshark -X lua_script:"$lua" -r "$tmp/out/host-$host.pcap" \
        -Y "infiniband.bth.opcode == 0xc1 || infiniband.bth.opcode == 0xc2" \
        -T fields -E separator=";" -E aggregator="," "${fields[@]}" \
        >"$tmp/host-$host.csv" 2>"$tmp/tshark-$host.err"
    if grep -qi "lua" "$tmp/tshark-$host.err"; then
        fail "tshark loads the dissector without a Lua error (host $host)" \
            "$(head -n 3 "$tmp/tshark-$host.err")"
    fi
done

# Claims: the 8-flow fabric of scenarios/load-balancing/steering-telemetry-8x8.json, flows cut
# to 1 MiB, DCQCN off. Seed 1's hash puts flows together, so senders leave and claim paths:
# each claim (BTH opcode 0xC3) leaves its sender as a 154-byte probe the dissector names a
# claim, reaches the receiver stamped by 3 switches, and is answered; the senders' pcaps hold
# as many as summary.json counts.
sets=()
for i in 0 1 2 3 4 5 6 7; do
    sets+=(--set "workloads[0].flows[$i].bytes=1048576")
done
if ! "$runner" "$source_dir/scenarios/load-balancing/steering-telemetry-8x8.json" --pcap --quiet \
    --out "$tmp/claims" --set seed=1 --set nic.dcqcn.enabled=false "${sets[@]}" \
    >"$tmp/run.log" 2>&1; then
    fail "the 8-flow run completes" "$(tail -n 3 "$tmp/run.log")"
    finish
fi
: >"$tmp/claims.csv"
for host in $(seq 0 15); do
    tshark -X lua_script:"$lua" -r "$tmp/claims/host-$host.pcap" \
        -Y "infiniband.bth.opcode == 0xc3 || infiniband.bth.opcode == 0xc2" \
        -T fields -E separator=";" -E aggregator="," -e frame.len -e ip.src -e ip.dst \
        -e infiniband.bth.opcode -e mcast4ai.ioam.kind -e mcast4ai.ioam.probe_id \
        -e mcast4ai.ioam.hops -e mcast4ai.icrc.status \
        2>>"$tmp/tshark-claims.err" | sed "s/^/$host;/" >>"$tmp/claims.csv"
done
if grep -qi "lua" "$tmp/tshark-claims.err"; then
    fail "tshark loads the dissector without a Lua error (claims)" \
        "$(head -n 3 "$tmp/tshark-claims.err")"
fi
/usr/bin/python3 - "$tmp/host-0.csv" "$tmp/host-1.csv" "$tmp/out/summary.json" "$tmp/claims.csv" \
    "$tmp/claims/summary.json" <<'PY'
import json
import sys

def rows(path):
    out = []
    for line in open(path):
        if line.strip():
            f = line.rstrip("\n").split(";")
            out.append(dict(len=int(f[0]), src=f[1], op=int(f[2], 0), id=f[3], ns=f[4],
                            remaining=f[5], active=f[6], overflow=f[7], hops=f[8],
                            nodes=f[9].split(","), ins=f[10].split(","),
                            outs=f[11].split(","), transit=f[12], util=f[13],
                            queue=f[14], icrc=f[15], sharers=f[16].split(","),
                            rank=f[17].split(",")))
    return out

host0 = rows(sys.argv[1])
host1 = rows(sys.argv[2])
tel = json.load(open(sys.argv[3]))["network"]["telemetry"]
ok = True


def check(name, good, detail=""):
    global ok
    print(("ok   " if good else "FAIL ") + name)
    if not good:
        print("     " + str(detail))
        ok = False


sent = [r for r in host0 if r["op"] == 0xC1 and r["src"] == "10.0.0.1"]
arrived = [r for r in host1 if r["op"] == 0xC1]
acks = [r for r in host0 if r["op"] == 0xC2]
check("host 0 sends the probes summary.json counts", len(sent) == tel["probes"] > 0,
      f"{len(sent)} on the wire, summary {tel}")
check("every probe is answered", tel["probe_acks"] == tel["probes"] == len(acks), tel)
check("every switch stamped every probe: stamps = 3 x probes, no overflow",
      tel["stamps"] == 3 * tel["probes"] and tel["overflows"] == 0, tel)
check("probes and acknowledgements are 154 bytes",
      all(r["len"] == 154 for r in sent + arrived + acks),
      sorted({r["len"] for r in sent + arrived + acks}))
check("a probe leaves host 0 with nothing stamped and 21 free words",
      all(r["hops"] == "0" and r["remaining"] == "21" for r in sent), sent[:1])
check("every probe reaches host 1", len(arrived) == len(sent), f"{len(arrived)} / {len(sent)}")


def path_ok(r):
    n, i, o = r["nodes"], r["ins"], r["outs"]
    return (r["hops"] == "3" and r["remaining"] == "0" and n[0] == "2" and n[1] in ("4", "5")
            and n[2] == "3" and i[0] == "0" and o[0] in ("1", "2") and i[1] == "0"
            and o[1] == "1" and i[2] in ("1", "2") and o[2] == "0"
            and int(o[0]) == int(n[1]) - 3 and int(i[2]) == int(n[1]) - 3)


bad = [r for r in arrived if not path_ok(r)]
check("every probe is stamped leaf0 > spine > leaf1 with the right interfaces", not bad, bad[:2])
# Sharers: leaf0 and the spine each have one ingress port that sends data out by the probe's
# egress port, the probe's own, so they read 1 sharer at rank 0. At leaf1 both spines' ports
# (1 and 2) feed host 1's port: a probe through the spine the data did not take lately reads
# 2 sharers, and its rank is 0 through port 1 and 1 through port 2.
def sharers_ok(r):
    s, k = r["sharers"], r["rank"]
    last = (s[2] == "1" and k[2] == "0") or (s[2] == "2" and int(k[2]) == int(r["ins"][2]) - 1)
    return s[:2] == ["1", "1"] and k[:2] == ["0", "0"] and last


check("leaf0 and the spine read 1 sharer at rank 0, leaf1 1 or 2 with the port's rank",
      all(sharers_ok(r) for r in arrived), [r for r in arrived if not sharers_ok(r)][:2])
check("some probe finds the other spine's data at leaf1 (2 sharers)",
      any(r["sharers"][2] == "2" for r in arrived), [r["sharers"] for r in arrived])
check("the Active flag is set and Overflow is not",
      all(r["active"] in ("1", "True") and r["overflow"] in ("0", "False") for r in arrived), arrived[:1])
check("every stamped probe's ICRC verifies", all(r["icrc"] == "1" for r in arrived),
      [r["icrc"] for r in arrived][:5])
echo = {r["id"]: r for r in acks}
mism = [r["id"] for r in arrived
        if r["id"] not in echo or (echo[r["id"]]["nodes"], echo[r["id"]]["transit"],
                                   echo[r["id"]]["queue"]) != (r["nodes"], r["transit"], r["queue"])]
check("each acknowledgement echoes its probe's trace", not mism, mism[:5])
check("every acknowledgement's ICRC verifies", all(r["icrc"] == "1" for r in acks), acks[:1])

# Claims, on the 8-flow fabric.
claim_rows = []
for line in open(sys.argv[4]):
    f = line.rstrip("\n").split(";")
    if len(f) == 9:
        claim_rows.append(dict(host=int(f[0]), len=int(f[1]), src=f[2], dst=f[3],
                               op=int(f[4], 0), kind=f[5], id=f[6], hops=f[7], icrc=f[8]))
tel = json.load(open(sys.argv[5]))["network"]["telemetry"]
ip = lambda h: f"10.0.0.{h + 1}"
sent = [r for r in claim_rows if r["op"] == 0xC3 and r["src"] == ip(r["host"])]
arrived = [r for r in claim_rows if r["op"] == 0xC3 and r["dst"] == ip(r["host"])]
answers = {(r["dst"], r["id"]) for r in claim_rows
           if r["op"] == 0xC2 and r["dst"] == ip(r["host"])}
check("the senders send the claims summary.json counts", len(sent) == tel["claims"] > 0,
      f"{len(sent)} on the wire, summary {tel}")
check("a claim is a 154-byte probe the dissector names a claim",
      all(r["len"] == 154 and r["kind"] == "claim" for r in sent + arrived), (sent + arrived)[:2])
check("every claim reaches its receiver stamped by 3 switches, its ICRC verified",
      len(arrived) == len(sent) and all(r["hops"] == "3" and r["icrc"] == "1" for r in arrived),
      arrived[:2])
check("every claim is answered", all((r["src"], r["id"]) in answers for r in sent),
      [r for r in sent if (r["src"], r["id"]) not in answers][:2])
sys.exit(0 if ok else 1)
PY
if [[ $? -eq 0 ]]; then
    pass "telemetry frames and claims decode as derived"
else
    fail "telemetry frames and claims decode as derived"
fi
finish
