--[[
mcast4ai.lua: Wireshark / tshark dissector for the P2MP headers the mcast4ai simulator writes
into its pcaps (docs/p2mp.md "Wire format"), plus a RoCEv2 ICRC check for every RoCEv2 frame.

  EtherType 0xAB37  BIER, RFC 8296 non-MPLS encapsulation: the 12-octet fixed part
                    (BIFT-id, TC, S, TTL, Nibble, Ver, BSL, Entropy, OAM, Rsv, DSCP, Proto,
                    BFIR-id) and the BitString (BSL codes 1..7 = 64..4096 bits).
                    The same fixed part with BSL code 0xF: mcast4ai's "BIER with an XPU-ID
                    list" (a 16-bit count, that many 16-bit BFR-ids, padded to 4 octets).
  EtherType 0x88B5  the new protocol's group shim (version, flags, NextProto, entropy,
                    group ID, source host) and, with the address-list flag, its per-receiver
                    list (receiver ID, R_Key, virtual address).
  BTH opcode 0xC0   mcast4ai's PSN skip of loss-tolerant data: the skipped opcode and
                    payload bytes (mcast4ai.skip.*).
  BTH opcode 0xC1   mcast4ai's telemetry probe, 0xC3 a probe that also claims its path, and
                    0xC2 their acknowledgement: behind the BTH
                    an IOAM header (RFC 9452's shape) with a pre-allocated trace (RFC 9197):
                    namespace, NodeLen, the O/L/A flags, RemainingLen, trace type, then each
                    hop's hop limit, node ID, interfaces, timestamp, transit delay, egress
                    utilisation, sharers and rank (namespace data) and queue depth
                    (mcast4ai.ioam.*).

Behind each header the packet goes to Wireshark's own dissectors, chosen by the header's
next-protocol field (4 = IPv4 as the simulator sends, also 6 = IPv6, 3 = Ethernet, 1/2 =
MPLS), so the RoCEv2 packet decodes as usual: IPv4, UDP 4791, InfiniBand BTH (opcode, PSN),
RETH, AETH.

Usage:
  tshark -X lua_script:tools/wireshark/mcast4ai.lua -r results/X/host-0.pcap
  Wireshark GUI: copy this file to the personal Lua plugin folder,
  ~/.local/lib/wireshark/plugins/ (Help > About Wireshark > Folders), and restart.

Fields: mcast4ai.* (see the ProtoField definitions below, or
  tshark -G fields -X lua_script:tools/wireshark/mcast4ai.lua | grep mcast4ai).
  mcast4ai.receiver and mcast4ai.root give host indices under the simulator's numbering
  (BFR-id = host + 1; the shim's IDs are host indices). The set identifier of a BitString
  is BIFT-id - 1, the module's provisioning (RFC 8296 leaves the BIFT-id to provisioning).

Preferences (Edit > Preferences > Protocols > MCAST4AI, or tshark -o):
  mcast4ai.verify_icrc  (TRUE)  recompute the ICRC of every RoCEv2 frame (CRC-32 over the
                                masked IPv4/UDP/BTH headers and the payload, IBA Annex A17)
                                and compare it with the trailer: mcast4ai.icrc.status.
                                Costs a CRC per frame in Lua; turn off for huge captures.

Malformed or truncated headers raise expert infos (mcast4ai.expert.*) rather than Lua errors.
Limitation: a Lua dissector hands the carried packet on as a new tvb whose length on the wire
is its captured length, so in a capture cut by a snap length the inner IPv4 packet is reported
as malformed ("IPv4 total length exceeds packet length") instead of "packet size limited
during capture"; the P2MP header itself is then flagged mcast4ai.expert.short if it is cut.
The simulator writes whole frames.

Tested with tshark 4.0.17 (Debian 12, Lua 5.2).
--]]

local PLUGIN_VERSION = "1.0.0"
if set_plugin_info then
    set_plugin_info({
        version = PLUGIN_VERSION,
        description = "mcast4ai P2MP headers: BIER (RFC 8296), BIER with XPU-ID lists, "
            .. "group shim; RoCEv2 ICRC check",
        repository = "tools/wireshark/mcast4ai.lua in the mcast4ai repository",
    })
end

-- Lua 5.2 (Wireshark up to 4.2) has bit32; later Lua versions may have only the native
-- operators, compiled from a string so that Lua 5.2 can still parse this file.
local bit = bit32 or bit or load([[return {
    band = function(a, b) return a & b end,
    bor = function(a, b) return a | b end,
    bxor = function(a, b) return a ~ b end,
    rshift = function(a, n) return (a & 0xFFFFFFFF) >> n end,
    lshift = function(a, n) return (a << n) & 0xFFFFFFFF end,
}]])()
local unpack = table.unpack or unpack
local band, bxor, rshift, lshift = bit.band, bit.bxor, bit.rshift, bit.lshift
local sbyte = string.byte

local ETHERTYPE_BIER = 0xAB37
local ETHERTYPE_SHIM = 0x88B5
local BIER_FIXED = 12
local BSL_XPU_LIST = 0xF
local SHIM_FIXED = 12
local SHIM_LIST_HEADER = 4
local SHIM_ENTRY = 16
local SHIM_VERSION = 1
local FLAG_ADDRESS_LIST = 0x1
local ROCEV2_PORT = 4791

------------------------------------------------------------------------------------------
-- Value strings

local bsl_vals = {
    [0] = "Reserved", [1] = "64 bits", [2] = "128 bits", [3] = "256 bits", [4] = "512 bits",
    [5] = "1024 bits", [6] = "2048 bits", [7] = "4096 bits",
    [8] = "Reserved", [9] = "Reserved", [10] = "Reserved", [11] = "Reserved",
    [12] = "Reserved", [13] = "Reserved", [14] = "Reserved",
    [15] = "XPU-ID list (mcast4ai; unassigned in RFC 8296)",
}

-- IANA "BIER Next Protocol Identifiers"; the shim's NextProto uses the same numbers.
local proto_vals = {
    [0] = "Reserved",
    [1] = "MPLS packet with downstream-assigned label at top of stack",
    [2] = "MPLS packet with upstream-assigned label at top of stack",
    [3] = "Ethernet frame",
    [4] = "IPv4 packet",
    [5] = "OAM packet",
    [6] = "IPv6 packet",
    [7] = "VXLAN payload",
    [8] = "NVGRE payload",
    [9] = "GENEVE payload",
    [63] = "Reserved",
}

local icrc_status_vals = { [0] = "Bad", [1] = "Good", [2] = "Unverified" }

------------------------------------------------------------------------------------------
-- Protocol and fields

local p = Proto("mcast4ai", "mcast4ai P2MP header (BIER, XPU-ID list, group shim)")

local hf = {
    -- common, generated
    kind = ProtoField.string("mcast4ai.kind", "Header kind",
        base.ASCII, "bier, xpu-list or shim"),
    hdr_len = ProtoField.uint16("mcast4ai.hdr_len", "P2MP header length", base.DEC, nil, nil,
        "Octets between the Ethernet header and the packet it carries"),
    root = ProtoField.uint16("mcast4ai.root", "Root host", base.DEC, nil, nil,
        "Sending host index (mcast4ai numbering: BFIR-id - 1, or the shim's source ID)"),
    receiver = ProtoField.uint16("mcast4ai.receiver", "Receiver host", base.DEC, nil, nil,
        "Host index of a receiver the header names (mcast4ai numbering: BFR-id - 1)"),
    receivers = ProtoField.uint16("mcast4ai.receivers", "Receivers named", base.DEC, nil, nil,
        "How many receivers the header names"),

    -- BIER fixed part (RFC 8296 section 2.2, non-MPLS), also the XPU-ID list's
    bift_id = ProtoField.uint32("mcast4ai.bier.bift_id", "BIFT-id", base.DEC, nil, 0xFFFFF000),
    tc = ProtoField.uint32("mcast4ai.bier.tc", "TC", base.DEC, nil, 0x00000E00,
        "Traffic class"),
    s = ProtoField.bool("mcast4ai.bier.s", "S", 32, nil, 0x00000100, "Bottom of stack"),
    ttl = ProtoField.uint32("mcast4ai.bier.ttl", "TTL", base.DEC, nil, 0x000000FF),
    nibble = ProtoField.uint32("mcast4ai.bier.nibble", "Nibble", base.DEC, nil, 0xF0000000,
        "0101 in RFC 8296"),
    ver = ProtoField.uint32("mcast4ai.bier.ver", "Ver", base.DEC, nil, 0x0F000000),
    bsl = ProtoField.uint32("mcast4ai.bier.bsl", "BSL", base.DEC, bsl_vals, 0x00F00000,
        "BitString length code"),
    entropy = ProtoField.uint32("mcast4ai.bier.entropy", "Entropy", base.HEX, nil, 0x000FFFFF),
    oam = ProtoField.uint16("mcast4ai.bier.oam", "OAM", base.DEC, nil, 0xC000),
    rsv = ProtoField.uint16("mcast4ai.bier.rsv", "Rsv", base.DEC, nil, 0x3000),
    dscp = ProtoField.uint16("mcast4ai.bier.dscp", "DSCP", base.DEC, nil, 0x0FC0),
    proto = ProtoField.uint16("mcast4ai.bier.proto", "Proto", base.DEC, proto_vals, 0x003F,
        "Next protocol"),
    bfir_id = ProtoField.uint16("mcast4ai.bier.bfir_id", "BFIR-id", base.DEC),
    bsl_bits = ProtoField.uint16("mcast4ai.bier.bsl_bits", "BitString length (bits)", base.DEC),
    si = ProtoField.uint16("mcast4ai.bier.si", "Set identifier", base.DEC, nil, nil,
        "SI = BIFT-id - 1 (mcast4ai provisioning)"),
    bitstring = ProtoField.bytes("mcast4ai.bier.bitstring", "BitString"),
    bits_set = ProtoField.uint16("mcast4ai.bier.bits_set", "Bits set", base.DEC),
    bitpos = ProtoField.uint16("mcast4ai.bier.bitpos", "BitPosition", base.DEC, nil, nil,
        "A set bit; BitPosition 1 is the last octet's least significant bit"),
    bfr_id = ProtoField.uint16("mcast4ai.bier.bfr_id", "BFR-id", base.DEC, nil, nil,
        "SI x BSL + BitPosition"),

    -- XPU-ID list (BSL code 0xF)
    xpu_count = ProtoField.uint16("mcast4ai.xpu.count", "XPU-ID count", base.DEC),
    xpu_id = ProtoField.uint16("mcast4ai.xpu.id", "XPU-ID (BFR-id)", base.DEC),
    xpu_pad = ProtoField.uint16("mcast4ai.xpu.pad", "Pad", base.HEX),

    -- group shim (EtherType 0x88B5)
    shim_version = ProtoField.uint8("mcast4ai.shim.version", "Version", base.DEC, nil, 0xF0),
    shim_flags = ProtoField.uint8("mcast4ai.shim.flags", "Flags", base.HEX, nil, 0x0F),
    shim_flag_list = ProtoField.bool("mcast4ai.shim.flags.address_list", "Address list", 8,
        nil, 0x01),
    shim_flag_agg = ProtoField.bool("mcast4ai.shim.flags.ack_aggregation", "ACK aggregation",
        8, nil, 0x02),
    shim_flag_free = ProtoField.bool("mcast4ai.shim.flags.ack_free", "ACK-free", 8, nil, 0x04),
    shim_flag_rsv = ProtoField.bool("mcast4ai.shim.flags.reserved", "Reserved", 8, nil, 0x08),
    shim_next = ProtoField.uint8("mcast4ai.shim.next_proto", "NextProto", base.DEC, proto_vals),
    shim_entropy = ProtoField.uint16("mcast4ai.shim.entropy", "Entropy", base.HEX),
    shim_group = ProtoField.uint32("mcast4ai.shim.group_id", "Group ID", base.DEC_HEX),
    shim_source = ProtoField.uint16("mcast4ai.shim.source_id", "Source host ID", base.DEC),
    shim_rsv = ProtoField.uint16("mcast4ai.shim.reserved", "Reserved", base.HEX),
    list_count = ProtoField.uint16("mcast4ai.shim.list.count", "Address-list entries", base.DEC),
    list_rsv = ProtoField.uint16("mcast4ai.shim.list.reserved", "Reserved", base.HEX),
    entry = ProtoField.bytes("mcast4ai.shim.entry", "Entry"),
    entry_rx = ProtoField.uint16("mcast4ai.shim.entry.receiver_id", "Receiver ID", base.DEC),
    entry_rsv = ProtoField.uint16("mcast4ai.shim.entry.reserved", "Reserved", base.HEX),
    entry_rkey = ProtoField.uint32("mcast4ai.shim.entry.rkey", "R_Key", base.HEX),
    entry_va = ProtoField.uint64("mcast4ai.shim.entry.va", "Virtual address", base.HEX),
}

p.fields = {
    hf.kind, hf.hdr_len, hf.root, hf.receiver, hf.receivers,
    hf.bift_id, hf.tc, hf.s, hf.ttl, hf.nibble, hf.ver, hf.bsl, hf.entropy, hf.oam, hf.rsv,
    hf.dscp, hf.proto, hf.bfir_id, hf.bsl_bits, hf.si, hf.bitstring, hf.bits_set, hf.bitpos,
    hf.bfr_id,
    hf.xpu_count, hf.xpu_id, hf.xpu_pad,
    hf.shim_version, hf.shim_flags, hf.shim_flag_list, hf.shim_flag_agg, hf.shim_flag_free,
    hf.shim_flag_rsv, hf.shim_next, hf.shim_entropy, hf.shim_group, hf.shim_source,
    hf.shim_rsv, hf.list_count, hf.list_rsv, hf.entry, hf.entry_rx, hf.entry_rsv,
    hf.entry_rkey, hf.entry_va,
}

local ef = {
    truncated = ProtoExpert.new("mcast4ai.expert.truncated", "P2MP header truncated",
        expert.group.MALFORMED, expert.severity.ERROR),
    short = ProtoExpert.new("mcast4ai.expert.short",
        "P2MP header cut by the capture length limit", expert.group.UNDECODED,
        expert.severity.WARN),
    bad_bsl = ProtoExpert.new("mcast4ai.expert.bad_bsl",
        "BSL code is neither 1..7 (RFC 8296) nor 0xF (XPU-ID list): header length unknown",
        expert.group.MALFORMED, expert.severity.ERROR),
    nibble = ProtoExpert.new("mcast4ai.expert.nibble", "BIER Nibble is not 0101",
        expert.group.PROTOCOL, expert.severity.WARN),
    version = ProtoExpert.new("mcast4ai.expert.version", "Unknown header version",
        expert.group.PROTOCOL, expert.severity.WARN),
    reserved = ProtoExpert.new("mcast4ai.expert.reserved", "Reserved bits are not zero",
        expert.group.PROTOCOL, expert.severity.WARN),
    no_receiver = ProtoExpert.new("mcast4ai.expert.no_receiver", "Header names no receiver",
        expert.group.PROTOCOL, expert.severity.WARN),
    no_set = ProtoExpert.new("mcast4ai.expert.no_set",
        "BIFT-id 0 with a BitString: no set identifier (mcast4ai uses BIFT-id = SI + 1)",
        expert.group.PROTOCOL, expert.severity.WARN),
    ttl = ProtoExpert.new("mcast4ai.expert.ttl", "BIER TTL is 0",
        expert.group.PROTOCOL, expert.severity.WARN),
    bad_id = ProtoExpert.new("mcast4ai.expert.bad_id", "XPU-ID 0 is not a BFR-id",
        expert.group.PROTOCOL, expert.severity.WARN),
    dup_id = ProtoExpert.new("mcast4ai.expert.dup_id", "Receiver listed more than once",
        expert.group.PROTOCOL, expert.severity.WARN),
    next_proto = ProtoExpert.new("mcast4ai.expert.next_proto",
        "Next protocol not dissected", expert.group.UNDECODED, expert.severity.WARN),
    inner = ProtoExpert.new("mcast4ai.expert.inner", "Carried packet could not be dissected",
        expert.group.MALFORMED, expert.severity.ERROR),
}
p.experts = {
    ef.truncated, ef.short, ef.bad_bsl, ef.nibble, ef.version, ef.reserved, ef.no_receiver,
    ef.no_set, ef.ttl, ef.bad_id, ef.dup_id, ef.next_proto, ef.inner,
}

p.prefs.verify_icrc = Pref.bool("Verify RoCEv2 ICRC", true,
    "Recompute the ICRC of every RoCEv2 frame (IPv4/UDP 4791, also behind a P2MP header) " ..
    "and compare it with the trailer (mcast4ai.icrc.status). Costs a CRC-32 per frame.")

-- The ICRC check runs after all dissectors, on every frame that has a BTH.
local picrc = Proto("mcast4ai.icrc", "RoCEv2 ICRC check (mcast4ai)")
local hf_icrc = {
    value = ProtoField.uint32("mcast4ai.icrc.value", "ICRC", base.HEX, nil, nil,
        "The trailer, least significant octet first as RoCEv2 sends it"),
    computed = ProtoField.uint32("mcast4ai.icrc.computed", "Computed ICRC", base.HEX),
    status = ProtoField.uint8("mcast4ai.icrc.status", "ICRC status", base.DEC,
        icrc_status_vals, nil, "0 Bad, 1 Good, 2 Unverified"),
}
picrc.fields = { hf_icrc.value, hf_icrc.computed, hf_icrc.status }
local ef_icrc = {
    bad = ProtoExpert.new("mcast4ai.icrc.bad", "ICRC incorrect",
        expert.group.CHECKSUM, expert.severity.ERROR),
    zero = ProtoExpert.new("mcast4ai.icrc.zero", "ICRC is zero: not computed by its sender",
        expert.group.CHECKSUM, expert.severity.ERROR),
}
picrc.experts = { ef_icrc.bad, ef_icrc.zero }

-- The PSN skip of loss-tolerant data (docs/rdma-dcqcn.md "Loss-tolerant data"): BTH opcode
-- 0xC0, from the manufacturer-specific range, then 4 octets: the opcode of the packet given up
-- on and its payload bytes (24 bits). Wireshark shows them as vendor data; this names them.
local pskip = Proto("mcast4ai.skip", "mcast4ai PSN skip (loss-tolerant data given up on)")
local SKIP_OPCODE = 0xC0
local rc_opcode_vals = {
    [0x00] = "RC SEND First", [0x01] = "RC SEND Middle", [0x02] = "RC SEND Last",
    [0x04] = "RC SEND Only", [0x06] = "RC RDMA WRITE First", [0x07] = "RC RDMA WRITE Middle",
    [0x08] = "RC RDMA WRITE Last", [0x0A] = "RC RDMA WRITE Only",
}
local hf_skip = {
    opcode = ProtoField.uint8("mcast4ai.skip.opcode", "Skipped opcode", base.HEX, rc_opcode_vals,
        nil, "The opcode the packet given up on had"),
    bytes = ProtoField.uint24("mcast4ai.skip.bytes", "Skipped payload bytes", base.DEC, nil,
        nil, "Its payload bytes, which the receiver completes the message without"),
}
pskip.fields = { hf_skip.opcode, hf_skip.bytes }

-- The telemetry probe (docs/load-balancing.md#in-band-telemetry): BTH opcode 0xC1 (probe), 0xC3 (a
-- probe that claims its path) or 0xC2 (the acknowledgement, the trace echoed), then the IOAM
-- header and its pre-allocated trace.
local pioam = Proto("mcast4ai.ioam", "mcast4ai IOAM pre-allocated trace (RFC 9197)")
local PROBE_OPCODE = 0xC1
local PROBE_ACK_OPCODE = 0xC2
local PROBE_CLAIM_OPCODE = 0xC3
local probe_kinds = { [PROBE_OPCODE] = "probe", [PROBE_CLAIM_OPCODE] = "claim",
    [PROBE_ACK_OPCODE] = "probe acknowledgement" }
local IOAM_NODE_WORDS = 7 -- trace type bits 0-6
local ioam_type_vals = { [0] = "Pre-allocated Trace", [1] = "Incremental Trace" }
local hf_ioam = {
    kind = ProtoField.string("mcast4ai.ioam.kind", "Packet", base.ASCII,
        "probe or claim (stamped on the way) or probe acknowledgement (its trace echoed)"),
    probe_id = ProtoField.uint32("mcast4ai.ioam.probe_id", "Probe number", base.DEC, nil, nil,
        "The BTH PSN of the probe and of its acknowledgement"),
    ioam_type = ProtoField.uint8("mcast4ai.ioam.type", "IOAM-Type", base.DEC, ioam_type_vals),
    hdr_len = ProtoField.uint8("mcast4ai.ioam.hdr_len", "IOAM HDR Len", base.DEC, nil, nil,
        "The IOAM header in 4-octet words, its first word included"),
    next = ProtoField.uint8("mcast4ai.ioam.next", "Next protocol", base.DEC),
    namespace = ProtoField.uint16("mcast4ai.ioam.namespace", "Namespace-ID", base.HEX),
    nodelen = ProtoField.uint16("mcast4ai.ioam.nodelen", "NodeLen", base.DEC, nil, 0xF800,
        "4-octet words each node writes"),
    flags = ProtoField.uint16("mcast4ai.ioam.flags", "Flags", base.HEX, nil, 0x0780),
    overflow = ProtoField.bool("mcast4ai.ioam.flags.overflow", "Overflow", 16, nil, 0x0400),
    loopback = ProtoField.bool("mcast4ai.ioam.flags.loopback", "Loopback", 16, nil, 0x0200),
    active = ProtoField.bool("mcast4ai.ioam.flags.active", "Active", 16, nil, 0x0100),
    remaining = ProtoField.uint16("mcast4ai.ioam.remaining", "RemainingLen", base.DEC, nil,
        0x007F, "Free 4-octet words left"),
    trace_type = ProtoField.uint24("mcast4ai.ioam.trace_type", "IOAM-Trace-Type", base.HEX),
    hops = ProtoField.uint8("mcast4ai.ioam.hops", "Hops stamped", base.DEC),
    node = ProtoField.bytes("mcast4ai.ioam.node", "Node data"),
    hop_lim = ProtoField.uint8("mcast4ai.ioam.hop_lim", "Hop_Lim", base.DEC),
    node_id = ProtoField.uint24("mcast4ai.ioam.node_id", "Node ID", base.DEC, nil, nil,
        "The fabric graph's node index: hosts 0..H-1, then the switches"),
    ingress = ProtoField.uint16("mcast4ai.ioam.ingress_if", "Ingress interface", base.DEC),
    egress = ProtoField.uint16("mcast4ai.ioam.egress_if", "Egress interface", base.DEC),
    ts_sec = ProtoField.uint32("mcast4ai.ioam.ts_sec", "Timestamp seconds", base.DEC),
    ts_nsec = ProtoField.uint32("mcast4ai.ioam.ts_nsec", "Timestamp nanoseconds", base.DEC),
    transit = ProtoField.uint32("mcast4ai.ioam.transit_ns", "Transit delay (ns)", base.DEC),
    ns_data = ProtoField.uint32("mcast4ai.ioam.ns_data", "Namespace data", base.HEX, nil, nil,
        "mcast4ai namespace: utilisation (16 bits), sharers (8), rank (8)"),
    util_raw = ProtoField.uint32("mcast4ai.ioam.utilisation_raw", "Utilisation (raw)", base.DEC,
        nil, 0xFFFF0000, "Egress utilisation in 1/16384 of the line rate"),
    util = ProtoField.double("mcast4ai.ioam.utilisation", "Egress utilisation"),
    sharers = ProtoField.uint32("mcast4ai.ioam.sharers", "Sharers", base.DEC, nil, 0x0000FF00,
        "Ingress ports whose data left by this egress port lately, the probe's own counted"),
    rank = ProtoField.uint32("mcast4ai.ioam.rank", "Rank", base.DEC, nil, 0x000000FF,
        "The probe's ingress port among the sharers, 0 for the lowest-numbered"),
    queue = ProtoField.uint32("mcast4ai.ioam.queue_bytes", "Queue depth (bytes)", base.DEC),
}
pioam.fields = { hf_ioam.kind, hf_ioam.probe_id, hf_ioam.ioam_type, hf_ioam.hdr_len,
    hf_ioam.next, hf_ioam.namespace, hf_ioam.nodelen, hf_ioam.flags, hf_ioam.overflow,
    hf_ioam.loopback, hf_ioam.active, hf_ioam.remaining, hf_ioam.trace_type, hf_ioam.hops,
    hf_ioam.node, hf_ioam.hop_lim, hf_ioam.node_id, hf_ioam.ingress, hf_ioam.egress,
    hf_ioam.ts_sec, hf_ioam.ts_nsec, hf_ioam.transit, hf_ioam.ns_data, hf_ioam.util_raw,
    hf_ioam.util, hf_ioam.sharers, hf_ioam.rank, hf_ioam.queue }
local ef_ioam = {
    short = ProtoExpert.new("mcast4ai.ioam.expert.short", "IOAM trace runs past the packet",
        expert.group.MALFORMED, expert.severity.ERROR),
    foreign = ProtoExpert.new("mcast4ai.ioam.expert.foreign",
        "IOAM trace of another type or NodeLen: node data not decoded",
        expert.group.UNDECODED, expert.severity.NOTE),
}
pioam.experts = { ef_ioam.short, ef_ioam.foreign }

------------------------------------------------------------------------------------------
-- Helpers

local next_dissectors = {}
local function next_dissector(proto)
    local name = ({ [1] = "mpls", [2] = "mpls", [3] = "eth_withoutfcs", [4] = "ip",
        [6] = "ipv6" })[proto]
    if not name then
        return nil
    end
    if next_dissectors[name] == nil then
        local ok, d = pcall(Dissector.get, name)
        next_dissectors[name] = ok and d or false
    end
    return next_dissectors[name] or nil
end

local data_dissector = Dissector.get("data")

local function generated(item)
    item:set_generated(true)
    return item
end

-- Hands what follows the P2MP header to Wireshark's dissector for next-protocol value proto.
local function hand_off(tvb, offset, pinfo, tree, top, proto)
    local len = tvb:len()
    if offset >= len then
        return
    end
    local rest = tvb(offset):tvb()
    local d = next_dissector(proto)
    if not d then
        top:add_proto_expert_info(ef.next_proto,
            string.format("Next protocol %d (%s) not dissected", proto,
                proto_vals[proto] or "Unassigned"))
        data_dissector:call(rest, pinfo, tree)
        return
    end
    -- A malformed inner packet is reported by Wireshark itself (_ws.malformed); the call
    -- then raises a Lua error, which is caught here so that it is not reported twice.
    local ok, err = pcall(d.call, d, rest, pinfo, tree)
    if not ok then
        top:add_proto_expert_info(ef.inner, "Carried packet could not be dissected: " ..
            tostring(err))
    end
end

-- A header that ends before `need` octets: cut by the capture's snap length if the frame on
-- the wire was long enough (mcast4ai.expert.short), malformed otherwise.
local function report_short(tvb, pinfo, item, need, what)
    local len, wire = tvb:len(), tvb:reported_len()
    if wire >= need then
        item:add_proto_expert_info(ef.short, string.format(
            "%s: %d octets needed, only %d captured (capture length limit)", what, need, len))
        pinfo.cols.info:append("[cut by the capture length]")
    else
        item:add_proto_expert_info(ef.truncated, string.format(
            "%s truncated: %d octets needed, %d in the frame", what, need, wire))
        pinfo.cols.info:append("[truncated]")
    end
end

local function join(list, max)
    if #list <= max then
        return table.concat(list, ",")
    end
    local head = {}
    for i = 1, max do
        head[i] = list[i]
    end
    return table.concat(head, ",") .. ",...(" .. #list .. ")"
end

------------------------------------------------------------------------------------------
-- BIER fixed part, then BitString or XPU-ID list

-- Adds the 12 fixed octets (the caller made sure they are there) and returns their values.
local function dissect_bier_fixed(tvb, tree)
    local w1 = tvb(0, 4):uint()
    local w2 = tvb(4, 4):uint()
    local h = tvb(8, 2):uint()
    local f = {
        bift_id = rshift(w1, 12),
        ttl = band(w1, 0xFF),
        nibble = rshift(w2, 28),
        ver = band(rshift(w2, 24), 0xF),
        bsl = band(rshift(w2, 20), 0xF),
        entropy = band(w2, 0xFFFFF),
        rsv = band(rshift(h, 12), 0x3),
        proto = band(h, 0x3F),
        bfir_id = tvb(10, 2):uint(),
    }
    tree:add(hf.bift_id, tvb(0, 4))
    tree:add(hf.tc, tvb(0, 4))
    tree:add(hf.s, tvb(0, 4))
    local ttl = tree:add(hf.ttl, tvb(0, 4))
    if f.ttl == 0 then
        ttl:add_proto_expert_info(ef.ttl)
    end
    local nib = tree:add(hf.nibble, tvb(4, 4))
    if f.nibble ~= 5 then
        nib:add_proto_expert_info(ef.nibble)
    end
    local ver = tree:add(hf.ver, tvb(4, 4))
    if f.ver ~= 0 then
        ver:add_proto_expert_info(ef.version, "BIER version " .. f.ver .. " (RFC 8296 defines 0)")
    end
    tree:add(hf.bsl, tvb(4, 4))
    tree:add(hf.entropy, tvb(4, 4))
    tree:add(hf.oam, tvb(8, 2))
    local rsv = tree:add(hf.rsv, tvb(8, 2))
    if f.rsv ~= 0 then
        rsv:add_proto_expert_info(ef.reserved)
    end
    tree:add(hf.dscp, tvb(8, 2))
    tree:add(hf.proto, tvb(8, 2))
    tree:add(hf.bfir_id, tvb(10, 2))
    if f.bfir_id > 0 then
        generated(tree:add(hf.root, tvb(10, 2), f.bfir_id - 1))
    end
    return f
end

-- BitString: octets 12 .. 12 + bits/8 - 1. Returns the header length or nil if truncated.
local function dissect_bitstring(tvb, pinfo, top, f)
    local bits = lshift(64, f.bsl - 1)
    local octets = math.floor(bits / 8)
    generated(top:add(hf.bsl_bits, tvb(4, 4), bits))
    local si
    if f.bift_id == 0 then
        top:add_proto_expert_info(ef.no_set)
    else
        si = f.bift_id - 1
        generated(top:add(hf.si, tvb(0, 4), si))
    end
    local len = tvb:len()
    if len < BIER_FIXED + octets then
        report_short(tvb, pinfo, top, BIER_FIXED + octets,
            string.format("BIER header with a %d-bit BitString", bits))
        if len > BIER_FIXED then
            top:add(hf.bitstring, tvb(BIER_FIXED))
        end
        return nil
    end
    local bs = top:add(hf.bitstring, tvb(BIER_FIXED, octets))
    -- Index k (BitPosition k + 1) is in octet octets - 1 - k/8, bit k % 8 from the LSB.
    local set = {}
    local raw = tvb:raw(BIER_FIXED, octets)
    for o = octets, 1, -1 do
        local b = sbyte(raw, o)
        if b ~= 0 then
            for bitn = 0, 7 do
                if band(b, lshift(1, bitn)) ~= 0 then
                    set[#set + 1] = { pos = (octets - o) * 8 + bitn + 1, octet = o - 1 }
                end
            end
        end
    end
    generated(bs:add(hf.bits_set, tvb(BIER_FIXED, octets), #set))
    local hosts = {}
    for _, e in ipairs(set) do
        local r = tvb(BIER_FIXED + e.octet, 1)
        local item = generated(bs:add(hf.bitpos, r, e.pos))
        if si then
            local bfr = si * bits + e.pos
            generated(item:add(hf.bfr_id, r, bfr))
            generated(item:add(hf.receiver, r, bfr - 1))
            item:append_text(string.format(" (BFR-id %d, host %d)", bfr, bfr - 1))
            hosts[#hosts + 1] = tostring(bfr - 1)
        else
            hosts[#hosts + 1] = "?"
        end
    end
    bs:append_text(string.format(" (%d of %d bits set)", #set, bits))
    generated(top:add(hf.receivers, tvb(BIER_FIXED, octets), #set))
    if #set == 0 then
        bs:add_proto_expert_info(ef.no_receiver)
    end
    top:append_text(string.format(", SI %s, BSL %d, to hosts %s", si and tostring(si) or "?",
        bits, join(hosts, 16)))
    pinfo.cols.info:append(string.format("SI %s [%s] ", si and tostring(si) or "?",
        join(hosts, 8)))
    return BIER_FIXED + octets
end

-- XPU-ID list: count at octets 12-13, then 16-bit IDs, then 2 zero octets if count is even.
local function dissect_xpu_list(tvb, pinfo, top)
    local len = tvb:len()
    if len < BIER_FIXED + 2 then
        report_short(tvb, pinfo, top, BIER_FIXED + 2, "XPU-ID list count")
        return nil
    end
    local n = tvb(BIER_FIXED, 2):uint()
    local hlen = 16 + 4 * math.floor(n / 2)
    local list = top:add(hf.xpu_count, tvb(BIER_FIXED, 2))
    local whole = math.min(n, math.floor((len - BIER_FIXED - 2) / 2))
    -- A list that overruns the frame is shown as far as it goes, without judging its IDs.
    local fits = len >= hlen
    local seen, hosts = {}, {}
    for i = 0, whole - 1 do
        local r = tvb(BIER_FIXED + 2 + 2 * i, 2)
        local id = r:uint()
        local item = list:add(hf.xpu_id, r)
        if id == 0 then
            if fits then
                item:add_proto_expert_info(ef.bad_id)
            end
        else
            generated(item:add(hf.receiver, r, id - 1))
            item:append_text(string.format(" (host %d)", id - 1))
            hosts[#hosts + 1] = tostring(id - 1)
        end
        if seen[id] and fits then
            item:add_proto_expert_info(ef.dup_id)
        end
        seen[id] = true
    end
    if not fits then
        report_short(tvb, pinfo, top, hlen, string.format("XPU-ID list of %d IDs", n))
        return nil
    end
    if n % 2 == 0 then
        local pad = list:add(hf.xpu_pad, tvb(BIER_FIXED + 2 + 2 * n, 2))
        if tvb(BIER_FIXED + 2 + 2 * n, 2):uint() ~= 0 then
            pad:add_proto_expert_info(ef.reserved, "XPU-ID list pad is not zero")
        end
    end
    generated(top:add(hf.receivers, tvb(BIER_FIXED, 2), n))
    if n == 0 then
        list:add_proto_expert_info(ef.no_receiver)
    end
    top:append_text(string.format(", %d XPU-IDs, to hosts %s", n, join(hosts, 16)))
    pinfo.cols.info:append(string.format("[%s] ", join(hosts, 8)))
    return hlen
end

local function dissect_bier(tvb, pinfo, tree)
    local len = tvb:len()
    pinfo.cols.protocol:set("BIER")
    local top = tree:add(p, tvb(0, math.min(len, BIER_FIXED)))
    if len < BIER_FIXED then
        top:set_text("BIER header (truncated)")
        pinfo.cols.info:set("BIER header ")
        report_short(tvb, pinfo, top, BIER_FIXED, "BIER header")
        return len
    end
    local f = dissect_bier_fixed(tvb, top)
    local hlen
    if f.bsl == BSL_XPU_LIST then
        top:set_text("BIER with XPU-ID list (mcast4ai)")
        pinfo.cols.protocol:set("BIER-XPU")
        pinfo.cols.info:set("BIER-XPU ")
        generated(top:add(hf.kind, tvb(4, 4), "xpu-list"))
        hlen = dissect_xpu_list(tvb, pinfo, top)
    elseif f.bsl >= 1 and f.bsl <= 7 then
        top:set_text("BIER (RFC 8296)")
        pinfo.cols.info:set("BIER ")
        generated(top:add(hf.kind, tvb(4, 4), "bier"))
        hlen = dissect_bitstring(tvb, pinfo, top, f)
    else
        top:set_text("BIER (RFC 8296), unknown BSL code " .. f.bsl)
        generated(top:add(hf.kind, tvb(4, 4), "bier"))
        top:add_proto_expert_info(ef.bad_bsl)
        pinfo.cols.info:set("BIER, unknown BSL code " .. f.bsl)
        if len > BIER_FIXED then
            data_dissector:call(tvb(BIER_FIXED):tvb(), pinfo, tree)
        end
        return len
    end
    if not hlen then
        top:set_len(len)
        return len
    end
    top:set_len(hlen)
    generated(top:add(hf.hdr_len, tvb(0, hlen), hlen))
    top:append_text(string.format(", TTL %d, entropy 0x%05x", f.ttl, f.entropy))
    pinfo.cols.info:append("| ")
    pinfo.cols.info:fence()
    hand_off(tvb, hlen, pinfo, tree, top, f.proto)
    return len
end

------------------------------------------------------------------------------------------
-- Group shim

local function dissect_shim(tvb, pinfo, tree)
    local len = tvb:len()
    pinfo.cols.protocol:set("M4AI-SHIM")
    local top = tree:add(p, tvb(0, math.min(len, SHIM_FIXED)), "mcast4ai group shim")
    generated(top:add(hf.kind, tvb(0, math.min(len, SHIM_FIXED)), "shim"))
    if len < SHIM_FIXED then
        pinfo.cols.info:set("Group shim ")
        report_short(tvb, pinfo, top, SHIM_FIXED, "Group shim")
        return len
    end
    local b0 = tvb(0, 1):uint()
    local version, flags = rshift(b0, 4), band(b0, 0xF)
    local next_proto = tvb(1, 1):uint()
    local group = tvb(4, 4):uint()
    local source = tvb(8, 2):uint()
    local ver = top:add(hf.shim_version, tvb(0, 1))
    if version ~= SHIM_VERSION then
        ver:add_proto_expert_info(ef.version, "Shim version " .. version .. " (mcast4ai sends 1)")
    end
    local fl = top:add(hf.shim_flags, tvb(0, 1))
    fl:add(hf.shim_flag_list, tvb(0, 1))
    fl:add(hf.shim_flag_agg, tvb(0, 1))
    fl:add(hf.shim_flag_free, tvb(0, 1))
    local frsv = fl:add(hf.shim_flag_rsv, tvb(0, 1))
    if band(flags, 0x8) ~= 0 then
        frsv:add_proto_expert_info(ef.reserved, "Reserved flag bit set")
    end
    local names = {}
    if band(flags, 0x1) ~= 0 then names[#names + 1] = "address-list" end
    if band(flags, 0x2) ~= 0 then names[#names + 1] = "ack-aggregation" end
    if band(flags, 0x4) ~= 0 then names[#names + 1] = "ack-free" end
    if #names > 0 then
        fl:append_text(" (" .. table.concat(names, ", ") .. ")")
    end
    top:add(hf.shim_next, tvb(1, 1))
    top:add(hf.shim_entropy, tvb(2, 2))
    top:add(hf.shim_group, tvb(4, 4))
    top:add(hf.shim_source, tvb(8, 2))
    generated(top:add(hf.root, tvb(8, 2), source))
    local rsv = top:add(hf.shim_rsv, tvb(10, 2))
    if tvb(10, 2):uint() ~= 0 then
        rsv:add_proto_expert_info(ef.reserved)
    end
    top:append_text(string.format(", group %d, source %d", group, source))
    pinfo.cols.info:set(string.format("Shim group %d ", group))
    local hlen = SHIM_FIXED
    if band(flags, FLAG_ADDRESS_LIST) ~= 0 then
        if len < SHIM_FIXED + SHIM_LIST_HEADER then
            report_short(tvb, pinfo, top, SHIM_FIXED + SHIM_LIST_HEADER, "Address-list count")
            top:set_len(len)
            return len
        end
        local n = tvb(12, 2):uint()
        hlen = SHIM_FIXED + SHIM_LIST_HEADER + SHIM_ENTRY * n
        local list = top:add(hf.list_count, tvb(12, 2))
        local lrsv = list:add(hf.list_rsv, tvb(14, 2))
        if tvb(14, 2):uint() ~= 0 then
            lrsv:add_proto_expert_info(ef.reserved)
        end
        local whole = math.min(n, math.floor((len - SHIM_FIXED - SHIM_LIST_HEADER) / SHIM_ENTRY))
        local fits = whole == n -- else shown as far as it goes, entries not judged
        local seen, hosts = {}, {}
        for i = 0, whole - 1 do
            local off = SHIM_FIXED + SHIM_LIST_HEADER + SHIM_ENTRY * i
            local rx = tvb(off, 2):uint()
            local e = list:add(hf.entry, tvb(off, SHIM_ENTRY))
            e:set_text(string.format("Entry %d: receiver %d, R_Key 0x%08x, VA 0x%s", i, rx,
                tvb(off + 4, 4):uint(), tostring(tvb(off + 8, 8):uint64():tohex())))
            local r = e:add(hf.entry_rx, tvb(off, 2))
            generated(e:add(hf.receiver, tvb(off, 2), rx))
            if seen[rx] and fits then
                r:add_proto_expert_info(ef.dup_id)
            end
            seen[rx] = true
            local ersv = e:add(hf.entry_rsv, tvb(off + 2, 2))
            if tvb(off + 2, 2):uint() ~= 0 and fits then
                ersv:add_proto_expert_info(ef.reserved)
            end
            e:add(hf.entry_rkey, tvb(off + 4, 4))
            e:add(hf.entry_va, tvb(off + 8, 8))
            hosts[#hosts + 1] = tostring(rx)
        end
        if not fits then
            report_short(tvb, pinfo, top, hlen, string.format("Address list of %d entries", n))
            top:set_len(len)
            return len
        end
        generated(top:add(hf.receivers, tvb(12, 2), n))
        if n == 0 then
            list:add_proto_expert_info(ef.no_receiver)
        end
        top:append_text(string.format(", address list of %d", n))
        pinfo.cols.info:append(string.format("list [%s] ", join(hosts, 8)))
    end
    top:set_len(hlen)
    generated(top:add(hf.hdr_len, tvb(0, hlen), hlen))
    pinfo.cols.info:append("| ")
    pinfo.cols.info:fence()
    hand_off(tvb, hlen, pinfo, tree, top, next_proto)
    return len
end

function p.dissector(tvb, pinfo, tree)
    if pinfo.match_uint == ETHERTYPE_SHIM then
        return dissect_shim(tvb, pinfo, tree)
    end
    return dissect_bier(tvb, pinfo, tree)
end

local ethertype = DissectorTable.get("ethertype")
ethertype:add(ETHERTYPE_BIER, p)
ethertype:add(ETHERTYPE_SHIM, p)

------------------------------------------------------------------------------------------
-- RoCEv2 ICRC (IBA vol. 1 Annex A17.3.3): CRC-32 over 8 octets of 0xFF, then the IPv4
-- packet with TOS, TTL, header checksum, UDP checksum and BTH octet 4 (FECN, BECN,
-- reserved) replaced by 0xFF, up to the ICRC; the ICRC is sent least significant octet first.

local CRC_TABLE = {}
for n = 0, 255 do
    local c = n
    for _ = 1, 8 do
        if band(c, 1) ~= 0 then
            c = bxor(rshift(c, 1), 0xEDB88320)
        else
            c = rshift(c, 1)
        end
    end
    CRC_TABLE[n] = c
end

local function crc_update(reg, s, first, last)
    local t = CRC_TABLE
    for k = first, last do
        reg = bxor(rshift(reg, 8), t[band(bxor(reg, sbyte(s, k)), 0xFF)])
    end
    return reg
end

local CRC_AFTER_LRH = crc_update(0xFFFFFFFF, string.rep("\255", 8), 1, 8)

-- ipv4: the IPv4 packet up to (without) the ICRC, as a Lua string.
local function icrc(ipv4, ihl)
    local udp_end = ihl + 8
    local masked = { sbyte(ipv4, 1, udp_end + 12) }
    masked[2] = 0xFF                           -- TOS
    masked[9] = 0xFF                           -- TTL
    masked[11], masked[12] = 0xFF, 0xFF        -- header checksum
    masked[ihl + 7], masked[ihl + 8] = 0xFF, 0xFF -- UDP checksum
    masked[udp_end + 5] = 0xFF                 -- BTH resv8a
    local reg = crc_update(CRC_AFTER_LRH, string.char(unpack(masked)), 1, #masked)
    reg = crc_update(reg, ipv4, #masked + 1, #ipv4)
    return bxor(reg, 0xFFFFFFFF)
end

local f_bth = Field.new("infiniband.bth")
local f_ip = Field.new("ip")

function picrc.dissector(tvb, pinfo, tree)
    if not f_bth() then
        return
    end
    local ips = { f_ip() }
    local ip = ips[#ips]
    if not ip then
        return -- RoCEv1 (GRH) or RoCEv2 over IPv6: not checked
    end
    local off = ip.offset
    local len = tvb:len()
    if off + 20 > len or rshift(tvb(off, 1):uint(), 4) ~= 4 then
        return
    end
    local ihl = band(tvb(off, 1):uint(), 0xF) * 4
    local total = tvb(off + 2, 2):uint()
    if ihl < 20 or tvb(off + 9, 1):uint() ~= 17 or total < ihl + 8 + 12 + 4
        or off + total > len or tvb(off + ihl + 2, 2):uint() ~= ROCEV2_PORT then
        return
    end
    local at = off + total - 4
    local range = tvb(at, 4)
    local value = range:le_uint()
    local t = tree:add(picrc, range)
    t:add_le(hf_icrc.value, range)
    if not p.prefs.verify_icrc then
        local st = generated(t:add(hf_icrc.status, range, 2))
        t:append_text(string.format(": 0x%08x [unverified]", value))
        if value == 0 then
            st:add_proto_expert_info(ef_icrc.zero)
        end
        return
    end
    local computed = icrc(tvb:raw(off, total - 4), ihl)
    generated(t:add(hf_icrc.computed, range, computed))
    local good = computed == value
    local st = generated(t:add(hf_icrc.status, range, good and 1 or 0))
    t:append_text(string.format(": 0x%08x [%s]", value, good and "correct" or "incorrect"))
    if not good then
        if value == 0 then
            st:add_proto_expert_info(ef_icrc.zero, string.format(
                "ICRC is zero: not computed by its sender (should be 0x%08x)", computed))
        else
            st:add_proto_expert_info(ef_icrc.bad, string.format(
                "ICRC incorrect: 0x%08x, should be 0x%08x", value, computed))
        end
    end
end

register_postdissector(picrc)

local f_bth_opcode = Field.new("infiniband.bth.opcode")

function pskip.dissector(tvb, pinfo, tree)
    local ops = { f_bth_opcode() }
    local op = ops[#ops]
    if not op or op.value ~= SKIP_OPCODE then
        return
    end
    local bths = { f_bth() }
    local at = bths[#bths].offset + 12
    if at + 4 > tvb:len() then
        return
    end
    local t = tree:add(pskip, tvb(at, 4))
    t:add(hf_skip.opcode, tvb(at, 1))
    t:add(hf_skip.bytes, tvb(at + 1, 3))
    local skipped = rc_opcode_vals[tvb(at, 1):uint()] or string.format("0x%02x", tvb(at, 1):uint())
    t:append_text(string.format(": %s, %d bytes", skipped, tvb(at + 1, 3):uint()))
    pinfo.cols.info:append(string.format(" [PSN skip: %s, %d bytes]", skipped,
        tvb(at + 1, 3):uint()))
end

register_postdissector(pskip)

local f_bth_psn = Field.new("infiniband.bth.psn")

function pioam.dissector(tvb, pinfo, tree)
    local ops = { f_bth_opcode() }
    local op = ops[#ops]
    if not op or not probe_kinds[op.value] then
        return
    end
    local bths = { f_bth() }
    local at = bths[#bths].offset + 12
    local total = tvb:len() - 4 -- the ICRC ends the packet
    if at + 12 > total then
        return
    end
    local words = tvb(at + 1, 1):uint()
    local len = 4 * words
    local t = tree:add(pioam, tvb(at, math.min(len, total - at)))
    local kind = probe_kinds[op.value]
    generated(t:add(hf_ioam.kind, kind))
    local psns = { f_bth_psn() }
    if #psns > 0 then
        generated(t:add(hf_ioam.probe_id, psns[#psns].value))
    end
    t:add(hf_ioam.ioam_type, tvb(at, 1))
    t:add(hf_ioam.hdr_len, tvb(at + 1, 1))
    t:add(hf_ioam.next, tvb(at + 3, 1))
    t:add(hf_ioam.namespace, tvb(at + 4, 2))
    t:add(hf_ioam.nodelen, tvb(at + 6, 2))
    local ft = t:add(hf_ioam.flags, tvb(at + 6, 2))
    ft:add(hf_ioam.overflow, tvb(at + 6, 2))
    ft:add(hf_ioam.loopback, tvb(at + 6, 2))
    ft:add(hf_ioam.active, tvb(at + 6, 2))
    t:add(hf_ioam.remaining, tvb(at + 6, 2))
    t:add(hf_ioam.trace_type, tvb(at + 8, 3))
    if at + len > total then
        t:add_proto_expert_info(ef_ioam.short)
        return
    end
    local w = tvb(at + 6, 2):uint()
    local nodelen = rshift(w, 11)
    local remaining = band(w, 0x7F)
    local data = words - 3
    if tvb(at, 1):uint() ~= 0 or nodelen ~= IOAM_NODE_WORDS
        or tvb(at + 8, 3):uint() ~= 0xFE0000 or remaining > data
        or (data - remaining) % IOAM_NODE_WORDS ~= 0 then
        t:add_proto_expert_info(ef_ioam.foreign)
        return
    end
    local hops = (data - remaining) / IOAM_NODE_WORDS
    generated(t:add(hf_ioam.hops, hops))
    -- Node data list: the latest hop's data just above the free space, the first hop's last;
    -- shown in path order.
    for h = 0, hops - 1 do
        local o = at + 12 + 4 * remaining + 4 * IOAM_NODE_WORDS * (hops - 1 - h)
        local n = t:add(hf_ioam.node, tvb(o, 4 * IOAM_NODE_WORDS))
        local util = tvb(o + 20, 2):uint() / 16384
        n:set_text(string.format("Hop %d: node %d, interface %d > %d, transit %d ns, "
            .. "utilisation %.3f, sharers %d (rank %d), queue %d bytes", h + 1,
            tvb(o + 1, 3):uint(), tvb(o + 4, 2):uint(), tvb(o + 6, 2):uint(),
            tvb(o + 16, 4):uint(), util, tvb(o + 22, 1):uint(), tvb(o + 23, 1):uint(),
            tvb(o + 24, 4):uint()))
        n:add(hf_ioam.hop_lim, tvb(o, 1))
        n:add(hf_ioam.node_id, tvb(o + 1, 3))
        n:add(hf_ioam.ingress, tvb(o + 4, 2))
        n:add(hf_ioam.egress, tvb(o + 6, 2))
        n:add(hf_ioam.ts_sec, tvb(o + 8, 4))
        n:add(hf_ioam.ts_nsec, tvb(o + 12, 4))
        n:add(hf_ioam.transit, tvb(o + 16, 4))
        local d = n:add(hf_ioam.ns_data, tvb(o + 20, 4))
        d:add(hf_ioam.util_raw, tvb(o + 20, 4))
        generated(d:add(hf_ioam.util, tvb(o + 20, 2), util))
        d:add(hf_ioam.sharers, tvb(o + 20, 4))
        d:add(hf_ioam.rank, tvb(o + 20, 4))
        n:add(hf_ioam.queue, tvb(o + 24, 4))
    end
    t:append_text(string.format(": %s, %d hop%s", kind, hops, hops == 1 and "" or "s"))
    pinfo.cols.info:append(string.format(" [telemetry %s, %d hop%s]", kind, hops,
        hops == 1 and "" or "s"))
end

register_postdissector(pioam)
