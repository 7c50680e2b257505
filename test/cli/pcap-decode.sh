#!/usr/bin/env bash
# Contract check: the pcaps written with --pcap decode in tshark as RoCEv2 (InfiniBand over
# UDP port 4791) with the right opcodes, PSNs, sizes and priorities, and PFC frames decode as
# MAC control opcode 0x0101.
#
# Usage: bash pcap-decode.sh RUNNER_BINARY SOURCE_DIR
#
# The scenario (written to a temp dir): one leaf with 12 hosts.
#   - one RDMA WRITE of 4 x 1024 + 102 bytes from host 10 to host 11: five packets,
#     WRITE FIRST (with RETH), three MIDDLE, LAST (102 bytes + 2 bytes of pad), PSNs 0..4,
#     each acknowledged (ack_every 1);
#   - an 8-to-1 incast of 256 KiB per sender into host 0 through a 2 MB switch buffer,
#     which crosses the XOFF threshold, so the switch sends PFC pause and resume frames.
#     DCQCN is off so that rate control cannot keep the queues below XOFF; ECN marking
#     stays on, so CE-marked frames (whose IPv4 checksum the switch rewrites) are checked.
# A second run, of the incast alone with DCQCN on, checks the CNPs the receiver sends.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"

finish_hook() {
    # tshark failures happen inside command substitutions (subshells): collected in a file.
    if [[ -s ${tmp:-/nonexistent}/tshark-failures ]]; then
        while IFS= read -r line; do
            fail "$line"
        done <"$tmp/tshark-failures"
    fi
}

# expect NAME ACTUAL EXPECTED
expect() {
    if [[ "$2" == "$3" ]]; then
        pass "$1"
    else
        fail "$1" "got:      $2" "expected: $3"
    fi
}

if ! command -v tshark >/dev/null 2>&1; then
    fail "tshark is not installed" \
        "install the Debian package 'tshark' (bash scripts/setup.sh test does it)"
    finish
fi
require_runner "$runner"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# tshark FILE FILTER FIELD...: one line per matching frame, fields separated by spaces.
# tshark's own failures count as test failures (its "running as root" notice is ignored);
# they are recorded in a file because this runs in subshells.
tshark_fields() {
    local file=$1 filter=$2
    shift 2
    local args=()
    local field
    for field in "$@"; do
        args+=(-e "$field")
    done
    if ! tshark -r "$file" -o ip.check_checksum:TRUE -Y "$filter" -T fields \
        -E separator=' ' -E occurrence=f "${args[@]}" 2>"$tmp/tshark.err"; then
        echo "tshark -r $(basename "$file") -Y '$filter' failed:" \
            "$(grep -v -i 'running as user' "$tmp/tshark.err" | head -n 3 | tr '\n' ' ')" \
            >>"$tmp/tshark-failures"
        return 1
    fi
}

# One field of every matching frame, as a single space-separated line.
column() {
    tshark_fields "$1" "$2" "$3" | tr '\n' ' ' | sed 's/ $//'
}

count() {
    tshark_fields "$1" "$2" frame.number | wc -l
}

# Host h has IPv4 address 10.0.0.(h + 1).
cat >"$tmp/pcap-decode.json" <<'EOF'
{
  "name": "pcap-decode",
  "seed": 1,
  "stop_time_ms": 20,
  "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 12},
  "nic": {"mtu_bytes": 1024, "ack_every": 1, "dcqcn": {"enabled": false}},
  "switch": {"buffer_mb": 2, "pfc": {"enabled": true}},
  "workloads": [
    {"type": "flows", "label": "write", "pattern": "list",
     "flows": [{"src": 10, "dst": 11, "bytes": 4198}]},
    {"type": "flows", "label": "incast", "pattern": "incast", "senders": 8, "receiver": 0,
     "bytes": 262144}
  ]
}
EOF

out="$tmp/out"
timeout 120 "$runner" "$tmp/pcap-decode.json" --pcap --quiet --out "$out" \
    >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
if [[ $rc -ne 0 ]]; then
    fail "runner exits 0 with --pcap" "exit code $rc" "stderr: $(head -n 3 "$tmp/stderr")"
    finish
fi
pass "runner exits 0 with --pcap"

sender="$out/host-10.pcap"
receiver="$out/host-11.pcap"
shopt -s nullglob
switch_pcaps=("$out"/switch-*-port-*.pcap)
shopt -u nullglob
missing=()
for f in "$sender" "$receiver" "$out/summary.json"; do
    [[ -f $f ]] || missing+=("$(basename "$f")")
done
[[ ${#switch_pcaps[@]} -gt 0 ]] || missing+=("switch-*-port-*.pcap")
if [[ ${#missing[@]} -gt 0 ]]; then
    fail "pcaps written for every host and switch port" "missing: ${missing[*]}"
    finish
fi
pass "pcaps written for every host and switch port"

# --- RoCEv2 decoding ---------------------------------------------------------------------
# No "-d udp.port==4791,infiniband": tshark maps UDP port 4791 to InfiniBand by itself, as
# Wireshark does for users opening these files.
for f in "$sender" "$receiver"; do
    name=$(basename "$f")
    ip=$(count "$f" "ip")
    ib=$(count "$f" "ip && udp.dstport == 4791 && infiniband.bth")
    if [[ $ip -gt 0 && $ip -eq $ib ]]; then
        pass "$name: all $ip IPv4 frames are InfiniBand (BTH) over UDP port 4791"
    else
        fail "$name: every IPv4 frame decodes as InfiniBand over UDP port 4791" \
            "$ip IPv4 frames, $ib of them UDP 4791 with a BTH"
    fi
done

data="ip.src == 10.0.0.11 && infiniband.bth"
acks="ip.src == 10.0.0.12 && infiniband.bth"

expect "WRITE opcodes FIRST, MIDDLE x3, LAST" \
    "$(column "$sender" "$data" infiniband.bth.opcode)" "6 7 7 7 8"
expect "WRITE PSNs 0..4" "$(column "$sender" "$data" infiniband.bth.psn)" "0 1 2 3 4"
expect "WRITE frame bytes: 58 of headers + payload (+16 RETH, +pad)" \
    "$(column "$sender" "$data" frame.len)" "1098 1082 1082 1082 162"
expect "RETH on WRITE FIRST carries the message length" \
    "$(column "$sender" "$data && infiniband.bth.opcode == 6" infiniband.reth.dmalen)" "4198"
expect "WRITE LAST pads its 102-byte payload by 2" \
    "$(column "$sender" "$data && infiniband.bth.opcode == 8" infiniband.bth.padcnt)" "2"
expect "only WRITE LAST requests an ACK" \
    "$(column "$sender" "$data" infiniband.bth.a)" "0 0 0 0 1"
expect "data rides priority 3 (DSCP 24) as ECT(0)" \
    "$(tshark_fields "$sender" "$data" ip.dsfield.dscp ip.dsfield.ecn | sort -u)" "24 2"

expect "ACK opcodes (17) at the sender" \
    "$(column "$sender" "$acks" infiniband.bth.opcode)" "17 17 17 17 17"
expect "ACK PSNs 0..4 (ack_every 1)" "$(column "$sender" "$acks" infiniband.bth.psn)" \
    "0 1 2 3 4"
expect "ACKs are 62-byte frames with an AETH ACK syndrome, priority 6 (DSCP 48)" \
    "$(tshark_fields "$sender" "$acks" frame.len infiniband.aeth.syndrome.opcode \
        ip.dsfield.dscp | sort -u)" "62 0 48"
expect "the last ACK carries MSN 1 (one message completed)" \
    "$(column "$sender" "$acks" infiniband.aeth.msn | awk '{print $NF}')" "1"

# The receiver's pcap holds the same conversation from the other end.
expect "receiver saw the same opcode/PSN sequence" \
    "$(tshark_fields "$receiver" "$data" infiniband.bth.opcode infiniband.bth.psn | tr '\n' ,)" \
    "$(tshark_fields "$sender" "$data" infiniband.bth.opcode infiniband.bth.psn | tr '\n' ,)"
expect "receiver sent ACKs for the same PSNs" \
    "$(column "$receiver" "$acks" infiniband.bth.psn)" "0 1 2 3 4"

bad=0
for f in "$sender" "$receiver" "$out"/host-0.pcap; do
    bad=$((bad + $(count "$f" 'ip.checksum.status == "Bad"')))
done
expect "IPv4 header checksums verify (also after ECN marking)" "$bad" "0"

malformed=0
for f in "$out"/*.pcap; do
    malformed=$((malformed + $(count "$f" "_ws.malformed")))
done
expect "no malformed frames in any pcap" "$malformed" "0"

# --- PFC -----------------------------------------------------------------------------------
# Hosts never send PFC and there is a single leaf, so every MAC-control frame in a switch
# port's pcap is one that port sent.
: >"$tmp/pfc"
for f in "${switch_pcaps[@]}"; do
    tshark_fields "$f" "macc" frame.len eth.dst eth.type macc.opcode macc.cbfc.enbv \
        macc.cbfc.pause_time.c3 >>"$tmp/pfc"
done
total=$(wc -l <"$tmp/pfc")
if [[ $total -gt 0 ]]; then
    pass "switch ports sent MAC-control frames ($total)"
else
    fail "switch ports sent MAC-control frames" "none found in ${#switch_pcaps[@]} switch pcaps"
fi
expect "every MAC-control frame is PFC: 60 bytes to 01:80:c2:00:00:01, EtherType 0x8808, opcode 0x0101, priority 3 only" \
    "$(awk '{print $1, $2, $3, $4, $5}' "$tmp/pfc" | sort -u)" \
    "60 01:80:c2:00:00:01 0x8808 0x0101 0x0008"
xoff=$(awk '$6 > 0' "$tmp/pfc" | wc -l)
xon=$(awk '$6 == 0' "$tmp/pfc" | wc -l)
pfc_pauses=$(/usr/bin/python3 -c \
    'import json, sys; print(json.load(open(sys.argv[1]))["network"]["pfc_pauses"])' \
    "$out/summary.json")
expect "XOFF frames (pause time 65535) match summary.json network.pfc_pauses" \
    "$xoff $(awk '$6 > 0 {print $6}' "$tmp/pfc" | sort -u)" "$pfc_pauses 65535"
if [[ $xon -gt 0 ]]; then
    pass "XON frames (pause time 0) resume the senders ($xon)"
else
    fail "XON frames (pause time 0) resume the senders" "none found"
fi

# --- CNPs ----------------------------------------------------------------------------------
# The same incast alone with DCQCN on: CE-marked arrivals make host 0 send CNPs to the senders.
cat >"$tmp/cnp.json" <<'EOF'
{
  "name": "pcap-decode-cnp",
  "seed": 1,
  "stop_time_ms": 20,
  "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 12},
  "nic": {"mtu_bytes": 1024, "ack_every": 1,
          "dcqcn": {"enabled": true, "cnp_interval_us": 50}},
  "switch": {"buffer_mb": 2},
  "workloads": [
    {"type": "flows", "label": "incast", "pattern": "incast", "senders": 8, "receiver": 0,
     "bytes": 262144}
  ]
}
EOF
out2="$tmp/out-cnp"
timeout 120 "$runner" "$tmp/cnp.json" --pcap --quiet --out "$out2" \
    >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
if [[ $rc -ne 0 || ! -f $out2/host-0.pcap ]]; then
    fail "runner exits 0 with --pcap and DCQCN on" "exit code $rc" \
        "stderr: $(head -n 3 "$tmp/stderr")"
    finish
fi
cnps=$(/usr/bin/python3 -c \
    'import json, sys; print(json.load(open(sys.argv[1]))["network"]["cnps"])' \
    "$out2/summary.json")
cnp="ip.src == 10.0.0.1 && infiniband.bth.opcode == 129"
sent=$(count "$out2/host-0.pcap" "$cnp")
if [[ $cnps -gt 0 && $sent -eq $cnps ]]; then
    pass "the receiver's pcap holds every CNP it sent ($cnps, as summary.json network.cnps)"
else
    fail "the receiver's pcap holds every CNP it sent" \
        "summary.json network.cnps = $cnps, CNP frames from host 0 in host-0.pcap = $sent"
fi
# infiniband.bth is the raw header in hex: byte 0 the opcode (81), byte 4 FECN/BECN (40: BECN).
expect "CNPs: 74 bytes, UDP 4791, opcode 0x81 with BECN, priority 6 (DSCP 48), Not-ECT" \
    "$(tshark_fields "$out2/host-0.pcap" "$cnp" frame.len udp.dstport infiniband.bth \
        ip.dsfield.dscp ip.dsfield.ecn |
        awk '{print $1, $2, substr($3, 1, 2), substr($3, 9, 2), $4, $5}' | sort -u)" \
    "74 4791 81 40 48 0"
# At most one CNP per receiving QP per cnp_interval_us (50 us; pcap times are whole us).
gaps=$(tshark_fields "$out2/host-0.pcap" "$cnp" ip.dst frame.time_relative |
    sort -k1,1 -k2,2n |
    awk '$1 == prev && ($2 - last) < 0.000049 {n++} {prev = $1; last = $2} END {print n + 0}')
expect "no two CNPs to the same QP less than cnp_interval_us apart" "$gaps" "0"

finish
