#!/usr/bin/env bash
# Contract check: the PSN skip of loss-tolerant data (docs/rdma-dcqcn.md "Loss-tolerant
# data") is a well-formed RoCEv2 frame that tshark decodes with tools/wireshark/mcast4ai.lua.
#
# Usage: bash pcap-skip.sh RUNNER_BINARY SOURCE_DIR
#
# One 64 KiB loss-tolerant WRITE (max_retransmissions 0) from host 0 to host 1 across a
# spine whose links lose 5% of frames, on go-back-N NICs: every lost packet but the first is
# given up on by the requester, which sends a skip in its place. Expected, derived from the
# wire format: a skip frame is 14 (Ethernet) + 20 (IPv4) + 8 (UDP) + 12 (BTH, opcode 0xC0)
# + 4 (skip header) + 4 (ICRC) = 62 bytes; it names a WRITE MIDDLE or LAST (0x07, 0x08) of
# 1024 bytes (65536 is 64 full MTUs); its ICRC verifies; host 0's link carries as many skips
# from host 0 as summary.json's skips_sent, and the receiver lost 1024 bytes per packet.
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
cat >"$tmp/skip.json" <<'JSON'
{
  "name": "pcap-skip", "seed": 3, "stop_time_ms": 50,
  "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 1,
               "host_link": {"rate_gbps": 100, "delay_us": 1},
               "fabric_link": {"rate_gbps": 100, "delay_us": 1, "loss_rate": 0.05}},
  "nic": {"mtu_bytes": 1024, "reorder": "go-back-n"},
  "workloads": [{"type": "flows", "pattern": "list", "loss_tolerant": true,
                 "flows": [{"src": 0, "dst": 1, "bytes": 65536}]}]
}
JSON
if ! "$runner" "$tmp/skip.json" --pcap --quiet --out "$tmp/out" >"$tmp/run.log" 2>&1; then
    fail "the run completes" "$(tail -n 3 "$tmp/run.log")"
    finish
fi
pass "the run completes"

tshark -X lua_script:"$lua" -r "$tmp/out/host-0.pcap" -Y "infiniband.bth.opcode == 0xc0" \
    -T fields -E separator=, -e frame.len -e ip.src -e infiniband.bth.psn \
    -e mcast4ai.skip.opcode -e mcast4ai.skip.bytes -e mcast4ai.icrc.status \
    >"$tmp/skips.csv" 2>"$tmp/tshark.err"
if grep -qi "lua" "$tmp/tshark.err"; then
    fail "tshark loads the dissector without a Lua error" "$(head -n 3 "$tmp/tshark.err")"
fi

/usr/bin/python3 - "$tmp/skips.csv" "$tmp/out/summary.json" <<'PY'
import json
import sys

rows = [line.strip().split(",") for line in open(sys.argv[1]) if line.strip()]
summary = json.load(open(sys.argv[2]))
lt = summary["workloads"][0]["loss_tolerant"]
sent = [r for r in rows if r[1] == "10.0.0.1"]
ok = True


def check(name, good, detail=""):
    global ok
    print(("ok   " if good else "FAIL ") + name)
    if not good:
        print("     " + detail)
        ok = False


check("the link carries skips", len(sent) > 0, "no frame with BTH opcode 0xC0 from host 0")
check("skip frames on host 0's link = skips_sent", len(sent) == lt["skips_sent"],
      f"{len(sent)} frames, summary says {lt['skips_sent']}")
bad_len = [r for r in sent if r[0] != "62"]
check("every skip frame is 62 bytes", not bad_len, f"{bad_len[:3]}")
bad_op = [r for r in sent if r[3] not in ("0x07", "0x08", "7", "8")]
check("every skip names a WRITE MIDDLE or LAST", not bad_op, f"{bad_op[:3]}")
bad_bytes = [r for r in sent if r[4] != "1024"]
check("every skip names 1024 bytes", not bad_bytes, f"{bad_bytes[:3]}")
bad_icrc = [r for r in sent if r[5] != "1"]
check("every skip's ICRC verifies", not bad_icrc, f"{bad_icrc[:3]}")
check("lost bytes = 1024 per lost packet", lt["lost_bytes"] == 1024 * lt["lost_packets"]
      and lt["lost_packets"] > 0, json.dumps(lt))
check("the receiver took no more skips than were sent", lt["lost_packets"] <= lt["skips_sent"],
      json.dumps(lt))
sys.exit(0 if ok else 1)
PY
if [[ $? -eq 0 ]]; then
    pass "skip frames decode as derived"
else
    fail "skip frames decode as derived"
fi
finish
