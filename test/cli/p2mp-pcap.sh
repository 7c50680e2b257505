#!/usr/bin/env bash
# Contract check: in a P2MP run with ACK aggregation at the source ToR, the root's pcap holds
# the aggregated ACKs, and tshark decodes them as InfiniBand ACKNOWLEDGE (BTH opcode 0x11)
# from the ToR's address with the PSNs of the message, 0, 1, 2, 3 in order: one per PSN,
# although seven receivers acknowledged each of them.
#
# Usage: bash p2mp-pcap.sh RUNNER_BINARY SOURCE_DIR
set -u
if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
passed=0
failed=0
check() { # check NAME EXPECTED ACTUAL
    if [[ "$2" == "$3" ]]; then
        passed=$((passed + 1))
        echo "ok   $1"
    else
        failed=$((failed + 1))
        echo "FAIL $1: expected [$2], got [$3]"
    fi
}
if ! command -v tshark >/dev/null 2>&1; then
    echo "FAIL tshark is not installed (bash scripts/setup.sh test installs it)"
    echo "0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/p2mp.json" <<'JSON'
{
  "name": "p2mp-pcap",
  "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 4},
  "p2mp": {"mechanism": "new-protocol", "ack_aggregation": "source-tor"},
  "workloads": [{"type": "broadcast", "root": 0, "bytes": 4096}]
}
JSON
"$runner" "$tmp/p2mp.json" --pcap --quiet --out "$tmp/out" >"$tmp/run.log" 2>&1
check "the run completes" "0" "$?"

# The root's NIC: what it received (ACKs) and sent (data, in the group shim).
acks=$(tshark -r "$tmp/out/host-0.pcap" -Y "infiniband.bth.opcode == 17 && ip.dst == 10.0.0.1" \
    -T fields -e ip.src -e infiniband.bth.psn -e infiniband.aeth.syndrome 2>"$tmp/tshark.err" |
    tr '\t' ' ' | tr '\n' ';')
# Leaf 0 is switch 0: its ACKs come from 10.128.0.0; syndrome 0x1f is an ACK with no credit
# count (RoCEv2's "invalid credit" value).
check "aggregated ACKs: one per PSN, from the ToR" \
    "10.128.0.0 0 31;10.128.0.0 1 31;10.128.0.0 2 31;10.128.0.0 3 31;" "$acks"
info=$(tshark -r "$tmp/out/host-0.pcap" -Y "infiniband.bth.opcode == 17" -T fields \
    -e _ws.col.Info 2>>"$tmp/tshark.err" | sort -u | tr '\n' ';')
check "tshark names them (to the group QPN)" "RC Acknowledge QP=0x800000 ;" "$info"
data=$(tshark -r "$tmp/out/host-0.pcap" -Y "eth.type == 0x88b5" -T fields -e frame.len \
    2>>"$tmp/tshark.err" | tr '\n' ' ')
# 4 packets of 1024 bytes: Ethernet 14 + shim 12 + IPv4 20 + UDP 8 + BTH 12 (+ RETH 16 on
# the first) + 1024 + ICRC 4.
check "one copy per packet leaves the root, in the group shim" "1110 1094 1094 1094 " "$data"
# tshark warns when run as root (as CI is); anything else on stderr is a decoding problem.
errors=$(grep -v 'Running as user' "$tmp/tshark.err" | grep -c .)
check "tshark reported no errors" "0" "$errors"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
