#!/usr/bin/env bash
# Contract check: tools/wireshark/mcast4ai.lua makes tshark decode every frame the simulator
# writes in P2MP runs (BIER, BIER with an XPU-ID list, the new protocol's shim, with their
# ACK aggregation and ACK modes) down to the BTH opcode and PSN, with field values that match
# numbers derived on paper from the scenario, and reports malformed headers as expert infos,
# never as Lua errors.
#
# Usage: bash pcap-dissector.sh RUNNER_BINARY SOURCE_DIR
#
# Every scenario runs on one fabric: 2 leaves of 36 hosts (hosts 0-35 on leaf 0 = switch 0,
# 36-71 on leaf 1 = switch 1) under one spine (switch 2); a switch's ports are its hosts in
# order, then its uplink (port 36); the spine's port l goes to leaf l. Host 1 broadcasts
# 3000 bytes at MTU 1024, i.e. n = ceil(3000 / 1024) = 3 packets (WRITE FIRST 1024 bytes with
# RETH, MIDDLE 1024, LAST 952), to hosts 2, 5 (local) and 40, 66, 71 (behind the spine):
#
#   A  bier, BSL 64, no aggregation: hosts 66 and 71 are BFR-ids 67 and 72, beyond 64, in
#      set identifier 1: two copies of every packet leave the root (BIFT-ids 1 and 2).
#   B  bier, BSL 256 (one set), hop-by-hop aggregation.
#   C  bier-xpu-list, source-ToR aggregation.
#   D  bier-xpu-list, hop-by-hop aggregation, per-message ACKs, 2 messages.
#   E  new-protocol, source-ToR aggregation, per-receiver address lists, 2 messages.
#   F  new-protocol, ACK-free, address lists, 4 messages to 3 random receivers each
#      (a group per receiver set).
#   G  A's BIER broadcast of 64 KiB (64 packets) while 8 hosts of leaf 1 send 256 KiB each to
#      receiver 40: PFC pauses, CE marks on BIER frames, CNPs and unicast RoCEv2 as well.
#
# Expected values, per link (each link's frames are in the pcaps at both of its ends):
#   - the root's link carries every receiver (BIER: one frame per set identifier, BitString
#     with exactly the receivers' bits: host h is BFR-id h + 1, in SI floor(h / BSL) at
#     BitPosition h mod BSL + 1); leaf 0's uplink and the spine's port 1 carry the remote
#     receivers; a receiver's own link carries only it. The TTL of BIER and of the XPU-ID
#     list (the same fixed header) is 64 at the root and loses one per replicating switch
#     (63 after leaf 0, 62 after the spine, 61 after leaf 1).
#   - frame.len = 14 + P2MP header + 20 + 8 + 12 (+ 16 RETH on FIRST) + payload + 4, the
#     P2MP header being 12 + BSL/8 (BIER), 16 + 4 floor(N/2) for N listed IDs (XPU-ID
#     list), 12 or, with an address list on a message's first packet, 16 + 16N (shim).
#   - PSNs run 0 .. messages * n - 1 at the root, message m having PSNs m n .. m n + n - 1.
#   - ACKs (BTH opcode 17 to the group QPN 0x800000) on each link: a receiver's on its own
#     link, then toward the root: all of them without aggregation; one aggregated ACK per PSN
#     from 10.128.0.0 (leaf 0) on the root's link with source-ToR (the remote receivers'
#     ACKs still cross the spine); hop by hop one per PSN from the next switch on every link
#     (10.128.0.1 from leaf 1, 10.128.0.2 from the spine, 10.128.0.0 from leaf 0); with
#     per-message ACKs only the last PSN of each message; ACK-free none at all.
#   - the shim carries group 0 for a fixed receiver set, version 1, NextProto 4, the
#     source host, flags ack-aggregation (0x2, not with ACK-free), ACK-free (0x4) and
#     address-list (0x1, first packets only);
#     a group's ID is the same in every frame, its MAC is 01:00:5e + the ID, and the hosts
#     that receive a group's frames are exactly the receivers its address list names.
#   - every RoCEv2 frame's ICRC verifies (the dissector recomputes it), the aggregated ACKs
#     that switches make included, and every IPv4 header checksum, also of frames CE-marked
#     behind a BIER header.
# Last, 20 frames cut short or damaged from the roots' first frames must each raise their
# expert info (mcast4ai.expert.*, mcast4ai.icrc.*) and no Lua error, and the ICRC of a CNP
# captured from real hardware must verify.
#
# Each run's pcaps are merged into one file with one interface per pcap (mergecap -I none)
# and decoded by a single tshark; the checks themselves are in Python below.
set -u

if [[ $# -ne 2 ]]; then
    echo "usage: bash $0 RUNNER_BINARY SOURCE_DIR" >&2
    exit 2
fi
runner=$1
source_dir=$2
lua=$source_dir/tools/wireshark/mcast4ai.lua

source "$(dirname "${BASH_SOURCE[0]}")/lib/harness.bash"

if ! command -v tshark >/dev/null 2>&1 || ! command -v mergecap >/dev/null 2>&1 ||
    ! command -v capinfos >/dev/null 2>&1; then
    fail "tshark, mergecap and capinfos are not installed" \
        "install the Debian package 'tshark' (bash scripts/setup.sh test does it)"
    finish
fi
if ! tshark -v 2>/dev/null | grep -q "with Lua"; then
    fail "tshark is built without Lua: the dissector cannot be loaded" "$(tshark -v | head -n 1)"
    finish
fi
require_runner "$runner"
if [[ ! -f $lua ]]; then
    fail "dissector $lua is missing"
    finish
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# tshark with the dissector; anything on stderr but the "running as root" notice is a failure.
tshark_lua() {
    local err=$tmp/tshark.err
    tshark -X lua_script:"$lua" -o ip.check_checksum:TRUE "$@" 2>"$err"
    local rc=$?
    local noise
    noise=$(grep -v -i 'running as user' "$err" | head -n 3)
    if [[ $rc -ne 0 || -n $noise ]]; then
        echo "tshark $* exited $rc: $noise" >>"$tmp/tshark-failures"
    fi
    return $rc
}

finish_hook() {
    if [[ -s $tmp/tshark-failures ]]; then
        while IFS= read -r line; do
            fail "tshark ran cleanly" "$line"
        done <"$tmp/tshark-failures"
    fi
}

# --- The dissector loads and registers its fields ------------------------------------------
tshark -G fields -X lua_script:"$lua" >"$tmp/glossary" 2>"$tmp/glossary.err"
noise=$(grep -v -i 'running as user' "$tmp/glossary.err" | head -n 3)
nfields=$(awk -F'\t' '$1 == "F" && $3 ~ /^mcast4ai\./' "$tmp/glossary" | wc -l)
missing=()
for field in mcast4ai.bier.bsl mcast4ai.bier.bitstring mcast4ai.bier.bitpos \
    mcast4ai.xpu.count mcast4ai.xpu.id mcast4ai.shim.group_id mcast4ai.shim.entry.va \
    mcast4ai.receiver mcast4ai.icrc.status; do
    awk -F'\t' -v f="$field" '$3 == f {found = 1} END {exit !found}' "$tmp/glossary" ||
        missing+=("$field")
done
if [[ -z $noise && $nfields -gt 40 && ${#missing[@]} -eq 0 ]]; then
    pass "the dissector loads and registers $nfields mcast4ai.* fields"
else
    fail "the dissector loads and registers its fields" "$nfields mcast4ai.* fields" \
        "missing: ${missing[*]}" "stderr: $noise"
fi

# --- Scenarios -----------------------------------------------------------------------------
# scenario NAME BYTES P2MP BROADCAST_EXTRA [NIC_EXTRA [SWITCH [MORE_WORKLOADS]]]
scenario() {
    cat >"$tmp/$1.json" <<EOF
{
  "name": "pcap-dissector-$1", "seed": 1, "stop_time_ms": 20,
  "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 36},
  "nic": {"mtu_bytes": 1024${5:-}},
  "switch": {${6:-}},
  "p2mp": $3,
  "workloads": [{"type": "broadcast", "root": 1, "ranks": [1, 2, 5, 40, 66, 71],
                 "bytes": $2$4}${7:-}]
}
EOF
}
scenario A 3000 '{"mechanism": "bier", "bier": {"bsl_bits": 64}, "ack_aggregation": "none"}' ''
scenario B 3000 '{"mechanism": "bier", "bier": {"bsl_bits": 256},
                  "ack_aggregation": "hop-by-hop"}' ''
scenario C 3000 '{"mechanism": "bier-xpu-list", "ack_aggregation": "source-tor"}' ''
scenario D 3000 '{"mechanism": "bier-xpu-list", "ack_aggregation": "hop-by-hop",
                  "ack_mode": "per-message"}' ', "messages": 2'
scenario E 3000 '{"mechanism": "new-protocol", "ack_aggregation": "source-tor",
                  "address_mapping": "per-receiver-list"}' ', "messages": 2'
scenario F 3000 '{"mechanism": "new-protocol", "ack_mode": "ack-free",
                  "address_mapping": "per-receiver-list"}' \
    ', "messages": 4, "receivers_per_message": 3'
incast=""
for s in 41 42 43 44 45 46 47 48; do
    incast+="${incast:+, }{\"src\": $s, \"dst\": 40, \"bytes\": 262144}"
done
scenario G 65536 '{"mechanism": "bier", "bier": {"bsl_bits": 64},
                   "ack_aggregation": "source-tor"}' '' \
    ', "dcqcn": {"enabled": true}' '"buffer_mb": 5, "pfc": {"enabled": true}' \
    ", {\"type\": \"flows\", \"label\": \"incast\", \"pattern\": \"list\", \"flows\": [$incast]}"

fields=(frame.interface_id frame.len eth.type eth.dst frame.protocols
    mcast4ai.kind mcast4ai.hdr_len mcast4ai.bier.si mcast4ai.bier.bsl mcast4ai.bier.bsl_bits
    mcast4ai.bier.ttl mcast4ai.bier.bfir_id mcast4ai.bier.nibble mcast4ai.bier.ver
    mcast4ai.bier.proto mcast4ai.bier.bift_id mcast4ai.bier.bitpos mcast4ai.bier.bfr_id
    mcast4ai.xpu.count mcast4ai.xpu.id
    mcast4ai.shim.version mcast4ai.shim.flags mcast4ai.shim.next_proto mcast4ai.shim.group_id
    mcast4ai.shim.source_id mcast4ai.shim.list.count mcast4ai.shim.entry.receiver_id
    mcast4ai.shim.entry.rkey mcast4ai.shim.entry.va mcast4ai.receiver
    ip.src ip.dst ip.dsfield.ecn ip.checksum.status infiniband.bth.opcode infiniband.bth.psn
    infiniband.bth.destqp infiniband.reth.dmalen infiniband.aeth.syndrome
    mcast4ai.icrc.status _ws.malformed _ws.lua.error _ws.expert.message)
field_args=()
for f in "${fields[@]}"; do
    field_args+=(-e "$f")
done

# run NAME: simulate with --pcap, merge every pcap into one file (one interface per pcap,
# in the order of NAME.index) and decode it once into NAME.tsv.
run() {
    local name=$1 out=$tmp/out-$1
    if ! timeout 120 "$runner" "$tmp/$name.json" --pcap --quiet --out "$out" \
        >"$tmp/$name.log" 2>&1; then
        fail "scenario $name runs with --pcap" "$(head -n 3 "$tmp/$name.log")"
        return 1
    fi
    local files=("$out"/*.pcap)
    printf '%s\n' "${files[@]}" | xargs -n 1 basename | sed 's/\.pcap$//' >"$tmp/$name.index"
    # -I none keeps one interface per input file, so frame.interface_id names the pcap.
    mergecap -I none -a -F pcapng -w "$tmp/$name.pcapng" "${files[@]}"
    capinfos -T -c -r "${files[@]}" | awk '{print $2}' >"$tmp/$name.counts"
    tshark_lua -r "$tmp/$name.pcapng" -T fields -E separator=/t -E occurrence=a \
        -E aggregator=, "${field_args[@]}" >"$tmp/$name.tsv"
}

cat >"$tmp/check.py" <<'PY'
"""Checks one scenario's decoded frames against values derived from the scenario."""
import collections
import json
import math
import sys

tmp, name = sys.argv[1], sys.argv[2]
FIELDS = sys.argv[3].split()

# The scenario, with the defaults of docs/scenario-reference.md for the keys it leaves out.
scenario = json.load(open(f"{tmp}/{name}.json"))
topo, p2mp_cfg, bcast = scenario["topology"], scenario["p2mp"], scenario["workloads"][0]
H, SPINE = topo["hosts_per_leaf"], topo["leaves"]  # the spine is the switch after the leaves
MTU, GROUP_QPN = scenario["nic"]["mtu_bytes"], "0x800000"  # workloads[0]'s group QPN
mech = p2mp_cfg["mechanism"]
agg = p2mp_cfg.get("ack_aggregation", "source-tor" if mech == "new-protocol" else "none")
ack_mode = p2mp_cfg.get("ack_mode", "per-packet")
bsl = p2mp_cfg.get("bier", {}).get("bsl_bits", 256)
with_list = p2mp_cfg.get("address_mapping") == "per-receiver-list"
ROOT, msg_bytes = bcast["root"], bcast["bytes"]
messages, per_message = bcast.get("messages", 1), bcast.get("receivers_per_message", 0)
receivers = sorted(set(bcast["ranks"]) - {ROOT})

def check(label, ok, *detail):
    """One result line for the harness: status, label, details, tab-separated."""
    detail = [str(d).replace("\t", " ") for d in detail if d]
    print("\t".join(["ok" if ok else "FAIL", f"{name}: {label}"] + detail), flush=True)

index = open(f"{tmp}/{name}.index").read().split()
counts = [int(c) for c in open(f"{tmp}/{name}.counts").read().split()]
frames = []
for line in open(f"{tmp}/{name}.tsv"):
    f = dict(zip(FIELDS, line.rstrip("\n").split("\t")))
    f["pcap"] = index[int(f["frame.interface_id"])]
    frames.append(f)
hosts = topo["leaves"] * H
pcaps = [f"host-{h}" for h in range(hosts)] + [
    f"switch-{s}-port-{p}" for s in range(topo["leaves"]) for p in range(H + 1)] + [
    f"switch-{SPINE}-port-{l}" for l in range(topo["leaves"])]
check(f"a pcap for each of the {hosts} hosts and {len(pcaps) - hosts} switch ports",
      sorted(index) == sorted(pcaps), f"{len(index)} pcaps")
per_if = collections.Counter(f["pcap"] for f in frames)
check("every pcap's frames decoded once (mergecap interface = pcap)",
      all(per_if[p] == c for p, c in zip(index, counts)) and len(frames) == sum(counts),
      f"{len(frames)} frames decoded, {sum(counts)} in the pcaps")

def ints(v):
    return [int(x, 0) for x in v.split(",")] if v else []

def num(v, default=-1):
    return int(v, 0) if v else default

def ip(host):
    return f"10.0.0.{host + 1}"

leaf = lambda h: h // H
host_link = lambda h: (f"host-{h}", f"switch-{leaf(h)}-port-{h % H}")
uplink = lambda l: (f"switch-{l}-port-{H}", f"switch-{SPINE}-port-{l}")
switch_ip = lambda s: f"10.128.0.{s}"
n = math.ceil(msg_bytes / MTU)
payload = [MTU] * (n - 1) + [msg_bytes - MTU * (n - 1)]
opcodes = [10] if n == 1 else [6] + [7] * (n - 2) + [8]

# --- (a), (b): everything decodes ----------------------------------------------------------
p2mp = [f for f in frames if f["eth.type"] in ("0xab37", "0x88b5")]
unknown = [f for f in frames
           if "infiniband" not in f["frame.protocols"] and f["frame.protocols"] != "eth:ethertype:macc"]
check("no frame decodes as unknown or data only (every one is RoCEv2, P2MP or PFC)",
      not unknown, *[f"{f['pcap']}: {f['frame.protocols']}" for f in unknown[:3]])
bad = [f for f in frames if f["_ws.malformed"] or f["_ws.lua.error"]]
check("no malformed frame, no Lua error", not bad,
      *[f"{f['pcap']}: {f['_ws.expert.message']}" for f in bad[:3]])
icrc_msgs = ("ICRC is zero", "ICRC incorrect")
experts = [f for f in frames
           if any(m and not m.startswith(icrc_msgs) for m in f["_ws.expert.message"].split(","))]
check("no expert info (other than ICRC) on any frame", not experts,
      *[f"{f['pcap']}: {f['_ws.expert.message']}" for f in experts[:3]])
kind = {"bier": "bier", "bier-xpu-list": "xpu-list", "new-protocol": "shim"}[mech]
nodec = [f for f in p2mp if f["mcast4ai.kind"] != kind or not f["infiniband.bth.opcode"]
         or not f["infiniband.bth.psn"]]
check(f"all {len(p2mp)} P2MP frames decode as {kind} down to the BTH opcode and PSN",
      p2mp and not nodec,
      *[f"{f['pcap']}: {f['frame.protocols']} kind={f['mcast4ai.kind']}" for f in nodec[:3]])
badsum = [f for f in frames if f["ip.checksum.status"] not in ("", "1")]
check("IPv4 header checksums verify, behind P2MP headers too", not badsum,
      *[f"{f['pcap']}: {f['frame.protocols']}" for f in badsum[:3]])
roce = [f for f in frames if f["infiniband.bth.opcode"]]
from_hosts = [f for f in roce if not f["ip.src"].startswith("10.128.")]
bad_host = [f for f in from_hosts if f["mcast4ai.icrc.status"] != "1"]
check(f"ICRC verifies on all {len(from_hosts)} RoCEv2 frames sent by hosts",
      from_hosts and not bad_host,
      *[f"{f['pcap']}: {f['ip.src']} opcode {f['infiniband.bth.opcode']} "
        f"psn {f['infiniband.bth.psn']}: {f['_ws.expert.message']}" for f in bad_host[:3]])
from_switches = [f for f in roce if f["ip.src"].startswith("10.128.")]
if from_switches:
    bad_sw = [f for f in from_switches if f["mcast4ai.icrc.status"] != "1"]
    check(f"ICRC verifies on all {len(from_switches)} aggregated ACKs made by switches",
          not bad_sw,
          f"{len(bad_sw)} bad, e.g. {bad_sw[0]['pcap']}: {bad_sw[0]['ip.src']} psn "
          f"{bad_sw[0]['infiniband.bth.psn']}: {bad_sw[0]['_ws.expert.message']}" if bad_sw else "")

# --- the messages' receiver sets ------------------------------------------------------------
root_data = [f for f in p2mp if f["pcap"] == f"host-{ROOT}"]
if per_message:
    # Drawn by the simulator: read from the address list of each message's first packet.
    firsts = sorted((num(f["infiniband.bth.psn"]), f) for f in root_data
                    if f["infiniband.bth.opcode"] in ("6", "10"))
    sets = [sorted(ints(f["mcast4ai.shim.entry.receiver_id"])) for _, f in firsts]
    check(f"{messages} messages, each to {per_message} of the ranks",
          len(sets) == messages
          and all(len(s) == per_message and set(s) <= set(receivers) for s in sets), sets)
else:
    sets = [receivers] * messages

# Group IDs: numbered from 0 in the order receiver sets first appear (new protocol).
group_of, groups = [], {}
for s in sets:
    groups.setdefault(tuple(s), len(groups))
    group_of.append(groups[tuple(s)])

# --- (c) data frames on every link, derived on paper ---------------------------------------
def hdr_len(listed, first):
    if mech == "bier":
        return 12 + bsl // 8
    if mech == "bier-xpu-list":
        return 16 + 4 * (len(listed) // 2)
    return 16 + 16 * len(listed) if (with_list and first) else 12

def signature(kind_, psn, op, length, rx, si="", ttl="", ids="", group="", flags="", entries=""):
    return (f"{kind_} psn={psn} op={op} len={length} rx={','.join(map(str, rx))} si={si} "
            f"ttl={ttl} ids={ids} group={group} flags={flags} entries={entries}")

def frames_on_link(m, rx, ttl, message_rx):
    """Signatures of the frames of message m on a link toward receivers rx."""
    sigs = []
    for i in range(n):
        psn, first = m * n + i, i == 0
        length = 14 + 20 + 8 + 12 + (16 if first else 0) + payload[i] + 4
        if mech == "bier":
            by_si = collections.defaultdict(list)
            for h in rx:
                by_si[h // bsl].append(h)
            for si, hs in sorted(by_si.items()):
                bits = ",".join(str(h % bsl + 1) for h in hs)
                sigs.append(signature("bier", psn, opcodes[i], length + hdr_len(hs, first), hs,
                                      si=si, ttl=ttl, ids=bits))
        elif mech == "bier-xpu-list":
            sigs.append(signature("xpu-list", psn, opcodes[i], length + hdr_len(rx, first), rx,
                                  ttl=ttl, ids=",".join(str(h + 1) for h in rx)))
        else:
            listed = with_list and first
            # ACK-free sets up no aggregation, whatever the aggregation point says.
            aggregates = agg in ("source-tor", "hop-by-hop") and ack_mode != "ack-free"
            flags = (0x1 if listed else 0) | (0x2 if aggregates else 0) \
                | (0x4 if ack_mode == "ack-free" else 0)
            entries = ",".join(f"{h}:{h:#010x}:{0x7F0000000000 + (h << 32):#018x}"
                               for h in message_rx) if listed else ""
            rx_named = message_rx if listed else []
            sigs.append(signature("shim", psn, opcodes[i],
                                  length + hdr_len(message_rx, first), rx_named,
                                  group=group_of[m], flags=f"{flags:#04x}", entries=entries))
    return sigs

expected = collections.defaultdict(list)
for m, s in enumerate(sets):
    local = [h for h in s if leaf(h) == leaf(ROOT)]
    remote = [h for h in s if leaf(h) != leaf(ROOT)]
    links = [(host_link(ROOT), s, 64)] + [(host_link(h), [h], 63) for h in local]
    if remote:
        links.append((uplink(leaf(ROOT)), remote, 63))
        for l in sorted({leaf(h) for h in remote}):
            behind = [h for h in remote if leaf(h) == l]
            links.append((uplink(l), behind, 62))
            links += [(host_link(h), [h], 61) for h in behind]
    for ends, rx, ttl in links:
        for pcap in ends:
            expected[pcap] += frames_on_link(m, rx, ttl, s)

def actual_signature(f):
    k = f["mcast4ai.kind"]
    rx = ints(f["mcast4ai.receiver"])
    common = dict(psn=f["infiniband.bth.psn"], op=f["infiniband.bth.opcode"],
                  length=f["frame.len"], rx=rx)
    if k == "bier":
        return signature(k, si=f["mcast4ai.bier.si"], ttl=f["mcast4ai.bier.ttl"],
                         ids=f["mcast4ai.bier.bitpos"], **common)
    if k == "xpu-list":
        return signature(k, ttl=f["mcast4ai.bier.ttl"], ids=f["mcast4ai.xpu.id"], **common)
    entries = ""
    if f["mcast4ai.shim.list.count"]:
        entries = ",".join(f"{r}:{k_}:{va}" for r, k_, va in zip(
            f["mcast4ai.shim.entry.receiver_id"].split(","),
            f["mcast4ai.shim.entry.rkey"].split(","), f["mcast4ai.shim.entry.va"].split(",")))
    flags = f"{num(f['mcast4ai.shim.flags']):#04x}"
    return signature(k, group=f["mcast4ai.shim.group_id"], flags=flags,
                     entries=entries, **common)

actual = collections.defaultdict(list)
for f in p2mp:
    actual[f["pcap"]].append(actual_signature(f))
wrong = []
for pcap in index:
    e, a = sorted(expected.get(pcap, [])), sorted(actual.get(pcap, []))
    if e != a:
        missing = [x for x in e if x not in a][:1]
        extra = [x for x in a if x not in e][:1]
        wrong.append(f"{pcap}: {len(a)} frames, {len(e)} expected; missing {missing} "
                     f"unexpected {extra}")
what = {"bier": "set identifier, BitPosition list, TTL",
        "bier-xpu-list": "XPU-ID list, TTL",
        "new-protocol": "group ID, flags, address list"}[mech]
check(f"every pcap holds exactly the P2MP frames derived on paper (PSN, opcode, length, "
      f"receivers, {what})", not wrong, *wrong[:3])

# Closed form of the frame count: each packet crosses, per copy, the root's link, each local
# receiver's link, leaf 0's and the remote leaf's uplinks and each remote receiver's link,
# and every link is in two pcaps.
def copies(s):
    local = [h for h in s if leaf(h) == leaf(ROOT)]
    remote = [h for h in s if leaf(h) != leaf(ROOT)]
    per = (lambda hs: len({h // bsl for h in hs})) if mech == "bier" else (lambda hs: 1 if hs else 0)
    return per(s) + len(local) + 2 * per(remote) + len(remote)
closed = 2 * n * sum(copies(s) for s in sets)
check(f"{len(p2mp)} P2MP frames in all pcaps = 2 x {n} packets x link copies = {closed}",
      len(p2mp) == closed)

# Fields every P2MP frame shares.
def same(field, value, frames_=p2mp):
    return all(f[field] == value for f in frames_)
common = [
    ("ip.src", ip(ROOT)), ("ip.dst", "239.128.0.0"), ("infiniband.bth.destqp", GROUP_QPN)]
if mech == "bier":
    common += [("mcast4ai.bier.nibble", "5"), ("mcast4ai.bier.ver", "0"),
               ("mcast4ai.bier.proto", "4"), ("mcast4ai.bier.bfir_id", str(ROOT + 1)),
               ("mcast4ai.bier.bsl", str(int(math.log2(bsl)) - 5)),
               ("mcast4ai.bier.bsl_bits", str(bsl)), ("eth.dst", "01:00:5e:00:00:01")]
elif mech == "bier-xpu-list":
    common += [("mcast4ai.bier.nibble", "5"), ("mcast4ai.bier.ver", "0"),
               ("mcast4ai.bier.proto", "4"), ("mcast4ai.bier.bfir_id", str(ROOT + 1)),
               ("mcast4ai.bier.bsl", "15"), ("mcast4ai.bier.bift_id", "0"),
               ("eth.dst", "01:00:5e:00:00:01")]
else:
    common += [("mcast4ai.shim.version", "1"), ("mcast4ai.shim.next_proto", "4"),
               ("mcast4ai.shim.source_id", str(ROOT))]
off = [f"{k} != {v}: {sorted({f[k] for f in p2mp if f[k] != v})}" for k, v in common
       if not same(k, v)]
check("constant fields: " + ", ".join(f"{k}={v}" for k, v in common), not off, *off)
if mech == "bier":
    check("BIFT-id = SI + 1, BFR-id = SI x BSL + BitPosition",
          all(num(f["mcast4ai.bier.bift_id"]) == num(f["mcast4ai.bier.si"]) + 1
              and ints(f["mcast4ai.bier.bfr_id"]) == [num(f["mcast4ai.bier.si"]) * bsl + b
                                                      for b in ints(f["mcast4ai.bier.bitpos"])]
              for f in p2mp))
if mech == "bier-xpu-list":
    roots = [f for f in root_data]
    check(f"the root lists all {len(sets[0])} receivers (XPU-ID count)",
          all(num(f["mcast4ai.xpu.count"]) == len(sets[0]) for f in roots) and roots)
if mech == "new-protocol":
    bad_mac = [f for f in p2mp
               if f["eth.dst"] != "01:00:5e:00:00:%02x" % num(f["mcast4ai.shim.group_id"], 0)]
    check("a group's MAC is 01:00:5e + its group ID", not bad_mac)
    got = collections.defaultdict(set)
    for f in p2mp:
        if f["pcap"].startswith("host-") and f["pcap"] != f"host-{ROOT}":
            got[num(f["mcast4ai.shim.group_id"])].add(int(f["pcap"][5:]))
    want = {g: set(s) for s, g in groups.items()}
    check(f"group IDs {sorted(want)}: the hosts that receive a group's frames are the "
          "receivers its address list names", dict(got) == want, f"got {dict(got)}",
          f"want {want}")
firsts = [f for f in root_data if f["infiniband.bth.opcode"] in ("6", "10")]
check(f"RETH DMA length {msg_bytes} on every first packet",
      firsts and all(f["infiniband.reth.dmalen"] == str(msg_bytes) for f in firsts))
psns = sorted({num(f["infiniband.bth.psn"]) for f in root_data})
check(f"the root's PSNs run 0..{messages * n - 1} ({messages} x {n} packets)",
      psns == list(range(messages * n)), psns)

# --- ACKs on every link ---------------------------------------------------------------------
acks = collections.defaultdict(list)
for f in frames:
    if f["infiniband.bth.opcode"] == "17" and f["infiniband.bth.destqp"] == GROUP_QPN:
        acks[f["pcap"]].append((f["ip.src"], num(f["infiniband.bth.psn"])))
want_acks = collections.defaultdict(list)
def acked(m):  # PSNs of message m a receiver acknowledges
    if ack_mode == "ack-free":
        return []
    return [m * n + n - 1] if ack_mode == "per-message" else [m * n + i for i in range(n)]
def add(link, src, psn_list):
    for pcap in link:
        want_acks[pcap] += [(src, p) for p in psn_list]
for m, s in enumerate(sets):
    remote = [h for h in s if leaf(h) != leaf(ROOT)]
    for h in s:
        add(host_link(h), ip(h), acked(m))
        if agg != "hop-by-hop" and leaf(h) != leaf(ROOT):
            add(uplink(leaf(h)), ip(h), acked(m))
            add(uplink(leaf(ROOT)), ip(h), acked(m))
        if agg in ("none", "sender-nic"):
            add(host_link(ROOT), ip(h), acked(m))
    if agg in ("source-tor", "hop-by-hop"):
        add(host_link(ROOT), switch_ip(leaf(ROOT)), acked(m))
    if agg == "hop-by-hop" and remote:
        for l in sorted({leaf(h) for h in remote}):
            add(uplink(l), switch_ip(l), acked(m))
        add(uplink(leaf(ROOT)), switch_ip(SPINE), acked(m))
wrong = [f"{p}: {sorted(acks.get(p, []))[:6]} vs {sorted(want_acks.get(p, []))[:6]}"
         for p in index if sorted(acks.get(p, [])) != sorted(want_acks.get(p, []))]
total = sum(len(v) for v in want_acks.values())
check(f"ACKs on every link as {agg} aggregation with {ack_mode} ACKs implies "
      f"({total} in all pcaps, {len(want_acks.get(f'host-{ROOT}', []))} at the root)",
      not wrong, *wrong[:3])
agg_acks = [f for f in frames if f["ip.src"].startswith("10.128.")]
if agg_acks:
    check(f"the {len(agg_acks)} aggregated ACKs are RoCEv2 ACKs (syndrome 0x1f) to the group QPN",
          all(f["infiniband.bth.opcode"] == "17" and f["infiniband.aeth.syndrome"] == "31"
              and f["infiniband.bth.destqp"] == GROUP_QPN for f in agg_acks))

# --- other frame kinds (G) ------------------------------------------------------------------
if len(scenario["workloads"]) > 1:
    kinds = collections.Counter()
    for f in frames:
        if f["frame.protocols"] == "eth:ethertype:macc":
            kinds["PFC"] += 1
        elif f["infiniband.bth.opcode"] == "129":
            kinds["CNP"] += 1
        elif f["eth.type"] == "0x0800" and f["infiniband.bth.opcode"] in ("6", "7", "8"):
            kinds["unicast WRITE"] += 1
    check("the congested run also holds PFC, CNP and unicast WRITE frames, all decoded: "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())),
          all(kinds[k] > 0 for k in ("PFC", "CNP", "unicast WRITE")), dict(kinds))
    ce = [f for f in p2mp if f["ip.dsfield.ecn"] == "3"]
    check(f"{len(ce)} BIER frames were CE-marked behind the BIER header (IPv4 checksum and "
          "ICRC checked above)", ce)

PY

# check_scenario NAME: run the scenario and the checks, reporting each through the harness.
check_scenario() {
    local name=$1
    run "$name" || return
    /usr/bin/python3 "$tmp/check.py" "$tmp" "$name" "${fields[*]}" \
        >"$tmp/$name.checks" 2>"$tmp/$name.pyerr"
    if [[ -s $tmp/$name.pyerr ]]; then
        fail "$name: checks ran" "$(tail -n 3 "$tmp/$name.pyerr")"
    fi
    local status label rest
    while IFS=$'\t' read -r status label rest; do
        if [[ $status == ok ]]; then
            pass "$label"
        else
            IFS=$'\t' read -r -a details <<<"$rest"
            fail "$label" "${details[@]}"
        fi
    done <"$tmp/$name.checks"
}

for name in A B C D E F G; do
    check_scenario "$name"
done

# --- Malformed headers: expert infos, not Lua errors ---------------------------------------
# The roots' first data frames of A (BIER, BSL 64: fixed part at octets 14-25, BitString at
# 26-33), C (XPU-ID list of 5: count at 26, IDs at 28-37) and E (shim: version and flags at
# 14, reserved at 24-25, list count at 26), each cut short or damaged in one way; "short" is
# cut by the capture length only (the frame on the wire was whole). Plus a CNP captured on a
# ConnectX-4 Lx (Scapy's RoCE tests, also in test/unit/wire-headers-test.cc), whose ICRC the
# dissector must find correct.
cat >"$tmp/mutants.py" <<'PY'
import struct
import sys

tmp, mode = sys.argv[1], sys.argv[2]

def first_frame(path):
    data = open(path, "rb").read()
    incl = struct.unpack("<I", data[24 + 8:24 + 12])[0]
    return bytearray(data[24 + 16:24 + 16 + incl])

def edit(frame, **at):
    f = bytearray(frame)
    for off, val in at.items():
        f[int(off[1:])] = val
    return f

bier = first_frame(f"{tmp}/out-A/host-1.pcap")
xpu = first_frame(f"{tmp}/out-C/host-1.pcap")
shim = first_frame(f"{tmp}/out-E/host-1.pcap")
cx4_cnp = bytes.fromhex(
    "e41d2dab2bc27cfe90643b320800" "45c2003c718c4000401191610a0011010a001201"
    "000012b700280000" "8100ffff4000011800000000" + "00" * 16 + "82fd002a")
cases = [  # (what the frame must show, frame bytes, length on the wire)
    ("mcast4ai.expert.truncated", bier[:14 + 6], None),
    ("mcast4ai.expert.truncated", bier[:14 + 16], None),
    ("mcast4ai.expert.inner", bier[:14 + 20 + 30], None),
    ("mcast4ai.expert.short", bier[:14 + 16], len(bier)),
    ("mcast4ai.expert.bad_bsl", edit(bier, o19=(bier[19] & 0x0F) | 0x90), None),
    ("mcast4ai.expert.nibble", edit(bier, o18=0x40), None),
    ("mcast4ai.expert.version", edit(bier, o18=0x51), None),
    ("mcast4ai.expert.no_receiver", bier[:26] + bytes(8) + bier[34:], None),
    ("mcast4ai.expert.next_proto", edit(bier, o23=(bier[23] & 0xC0) | 5), None),
    ("mcast4ai.expert.no_set", edit(bier, o14=0, o15=0, o16=bier[16] & 0x0F), None),
    ("mcast4ai.expert.reserved", edit(bier, o22=bier[22] | 0x10), None),
    ("mcast4ai.icrc.bad", edit(bier, o200=bier[200] ^ 0xFF), None),
    ("mcast4ai.icrc.zero", bier[:-4] + bytes(4), None),
    ("mcast4ai.expert.truncated", edit(xpu, o26=0x03, o27=0xE8), None),
    ("mcast4ai.expert.dup_id", edit(xpu, o30=xpu[28], o31=xpu[29]), None),
    ("mcast4ai.expert.bad_id", edit(xpu, o28=0, o29=0), None),
    ("mcast4ai.expert.truncated", shim[:14 + 10], None),
    ("mcast4ai.expert.truncated", edit(shim, o26=0, o27=100), None),
    ("mcast4ai.expert.version", edit(shim, o14=0x23), None),
    ("mcast4ai.expert.reserved", edit(shim, o24=0xAB), None),
    ("mcast4ai.icrc.status == 1", cx4_cnp, None),
]
columns = ["frame.number", "_ws.lua.error", "mcast4ai.icrc.status"] + sorted(
    {want for want, _, _ in cases if "==" not in want})
if mode == "write":
    with open(f"{tmp}/mutants.pcap", "wb") as out:
        out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, (_, frame, wire) in enumerate(cases):
            out.write(struct.pack("<IIII", i, 0, len(frame), wire or len(frame)))
            out.write(frame)
    print(" ".join(f"-e {c}" for c in columns))
    sys.exit(0)
rows = [line.rstrip("\n").split("|") for line in open(f"{tmp}/mutants.tsv")]
wrong = []
for (want, _, _), row in zip(cases, rows):
    got = dict(zip(columns, row))
    ok = got.get("mcast4ai.icrc.status") == "1" if "==" in want else got.get(want) == "1"
    if not ok or got.get("_ws.lua.error"):
        wrong.append(f"frame {got['frame.number']}: want {want}, got {got}")
if len(rows) == len(cases) and not wrong:
    print(f"ok\t{len(cases) - 1} damaged BIER, XPU-ID list and shim frames raise their expert "
          "infos, no Lua error; a ConnectX-4 CNP's ICRC verifies")
else:
    print("\t".join(["FAIL\tdamaged frames raise their expert infos, no Lua error",
                     f"{len(rows)} of {len(cases)} frames decoded"] + wrong[:3]))
PY
if [[ -f $tmp/out-A/host-1.pcap && -f $tmp/out-C/host-1.pcap && -f $tmp/out-E/host-1.pcap ]] &&
    columns=$(/usr/bin/python3 "$tmp/mutants.py" "$tmp" write); then
    # shellcheck disable=SC2086 # columns is a list of -e options
    tshark_lua -r "$tmp/mutants.pcap" -T fields -E 'separator=|' $columns >"$tmp/mutants.tsv"
    while IFS=$'\t' read -r status label rest; do
        if [[ $status == ok ]]; then
            pass "$label"
        else
            IFS=$'\t' read -r -a details <<<"$rest"
            fail "$label" "${details[@]}"
        fi
    done < <(/usr/bin/python3 "$tmp/mutants.py" "$tmp" check)
else
    fail "damaged frames built from the roots' first data frames"
fi

finish
