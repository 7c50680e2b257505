/*
 * libFuzzer target: every frame parser and header parser on arbitrary bytes, and the frame
 * builders against the parser.
 *
 * Each input is read as a whole frame (FrameInfo::Parse, which every switch and NIC runs on
 * every frame), and as each header at the front and behind an Ethernet header. A header that
 * parses is written out again and must read back to the same bytes (parser and writer agree).
 * The first bytes also give the fields of an ACK, a NAK and a CNP, whose bytes the builders
 * write; parsed back, they must give exactly those fields. Built with -fsanitize=fuzzer,
 * address,undefined (MCAST4AI_FUZZ): any out-of-bounds read, undefined behaviour or failed
 * check is a crash.
 */
#include "ns3/buffer.h"
#include "ns3/packet.h"
#include "wire/model/ack-frame-builder.h"
#include "wire/model/aeth-header.h"
#include "wire/model/bier-header.h"
#include "wire/model/bth-header.h"
#include "wire/model/cnp-header.h"
#include "wire/model/frame-info.h"
#include "wire/model/group-shim-header.h"
#include "wire/model/icrc-trailer.h"
#include "wire/model/ioam-trace-header.h"
#include "wire/model/pfc-header.h"
#include "wire/model/probe-frame-builder.h"
#include "wire/model/reth-header.h"
#include "wire/model/skip-header.h"
#include "wire/model/xpu-list-header.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace ns3;

namespace
{

#define FUZZ_CHECK(cond)                                                                   \
    do                                                                                     \
    {                                                                                      \
        if (!(cond))                                                                       \
        {                                                                                  \
            std::fprintf(stderr, "check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
            __builtin_trap();                                                              \
        }                                                                                  \
    } while (false)

/// The bytes of a header as it writes itself.
template<typename H>
std::vector<uint8_t>
Written(const H& h)
{
    Buffer b;
    b.AddAtStart(h.GetSerializedSize());
    h.Serialize(b.Begin());
    std::vector<uint8_t> out(b.GetSize());
    b.CopyData(out.data(), out.size());
    return out;
}

/**
 * Parse H from the front of the bytes; if it parses, write it out, parse that, write it again:
 * both writes must be equal. `fixed`: the header's size when it has one (the caller of a
 * fixed-size Deserialize guarantees the bytes, as Packet::RemoveHeader does), 0 when the header
 * sizes itself from its fields and must check what it reads.
 */
template<typename H>
void
RoundTrip(const uint8_t* data, size_t size, uint32_t fixed)
{
    if (size < fixed)
    {
        return;
    }
    Buffer b;
    b.AddAtStart(size);
    b.Begin().Write(data, size);
    H h;
    const uint32_t n = h.Deserialize(b.Begin());
    FUZZ_CHECK(n <= size);
    if (n == 0)
    {
        return;
    }
    const std::vector<uint8_t> once = Written(h);
    Buffer again;
    again.AddAtStart(once.size());
    again.Begin().Write(once.data(), once.size());
    H h2;
    FUZZ_CHECK(h2.Deserialize(again.Begin()) == once.size());
    FUZZ_CHECK(Written(h2) == once);
}

/// Every header parser, on bytes starting at `data`.
void
Headers(const uint8_t* data, size_t size)
{
    RoundTrip<BthHeader>(data, size, BthHeader::SIZE);
    RoundTrip<RethHeader>(data, size, FrameInfo::RETH_BYTES);
    RoundTrip<AethHeader>(data, size, FrameInfo::AETH_BYTES);
    RoundTrip<SkipHeader>(data, size, SkipHeader().GetSerializedSize());
    RoundTrip<CnpHeader>(data, size, CnpHeader().GetSerializedSize());
    RoundTrip<PfcHeader>(data, size, PfcHeader().GetSerializedSize());
    RoundTrip<BierHeader>(data, size, 0);
    RoundTrip<XpuListHeader>(data, size, 0);
    RoundTrip<GroupShimHeader>(data, size, 0);
}

uint32_t
Take(const uint8_t*& p, size_t& left, unsigned bytes)
{
    uint32_t v = 0;
    for (unsigned k = 0; k < bytes; ++k)
    {
        v = (v << 8) | (left ? *p : 0);
        if (left)
        {
            ++p;
            --left;
        }
    }
    return v;
}

/**
 * A telemetry trace read from the frame stays inside it and writes back the same; a stamp
 * keeps the frame's size and forwarding fields, and adds one hop or sets Overflow.
 */
void
Telemetry(Ptr<Packet> frame)
{
    IoamTraceHeader trace;
    if (ProbeFrameBuilder::ReadTrace(frame, trace))
    {
        FUZZ_CHECK(ProbeFrameBuilder::TRACE_OFFSET + trace.GetSerializedSize()
                       + FrameInfo::ICRC_BYTES
                   <= frame->GetSize());
        const std::vector<uint8_t> once = Written(trace);
        Buffer again;
        again.AddAtStart(once.size());
        again.Begin().Write(once.data(), once.size());
        IoamTraceHeader back;
        FUZZ_CHECK(back.Deserialize(again.Begin()) == once.size());
        FUZZ_CHECK(Written(back) == once);
    }
    IoamTraceHeader::NodeData node;
    node.nodeId = 7;
    Ptr<Packet> stamped;
    ProbeFrameBuilder::StampResult r
        = ProbeFrameBuilder::Stamp(frame, trace.GetNamespaceId(), node, stamped);
    if (r == ProbeFrameBuilder::UNTOUCHED)
    {
        return;
    }
    FUZZ_CHECK(stamped->GetSize() == frame->GetSize());
    FrameInfo before;
    FrameInfo after;
    before.Parse(frame);
    after.Parse(stamped);
    FUZZ_CHECK(before == after);
    IoamTraceHeader out;
    FUZZ_CHECK(ProbeFrameBuilder::ReadTrace(stamped, out));
    FUZZ_CHECK(out.GetNodes().size()
               == trace.GetNodes().size() + (r == ProbeFrameBuilder::STAMPED ? 1 : 0));
    FUZZ_CHECK(r == ProbeFrameBuilder::STAMPED
               || (out.GetFlags() & IoamTraceHeader::FLAG_OVERFLOW));
}

/// The builders against the parser: fields in, bytes out, the same fields read back.
void
Builders(const uint8_t* data, size_t size)
{
    const uint8_t* p = data;
    size_t left = size;
    RocePacketBuilder::Addressing a;
    a.srcIp = Take(p, left, 4);
    a.dstIp = Take(p, left, 4);
    a.srcPort = static_cast<uint16_t>(Take(p, left, 2));
    const uint32_t flags = Take(p, left, 1);
    a.priority = flags & 0x7;
    a.ecnCapable = (flags & 0x8) != 0;
    a.computeIcrc = (flags & 0x10) != 0;
    const bool nak = (flags & 0x20) != 0;
    const uint32_t qp = Take(p, left, 3);
    const uint32_t psn = Take(p, left, 3);
    const uint32_t msn = Take(p, left, 3);
    AckFrameBuilder builder(Mac48Address("02:00:00:00:00:01"), a.computeIcrc);

    const FrameInfo ack = AckFrameBuilder::Fields(a, qp, psn, nak, msn);
    FrameInfo read;
    read.Parse(builder.BuildFrame(ack));
    FUZZ_CHECK(read == ack);

    const FrameInfo cnp = AckFrameBuilder::CnpFields(a, qp);
    FrameInfo readCnp;
    readCnp.Parse(builder.BuildFrame(cnp));
    FUZZ_CHECK(readCnp == cnp);
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    Ptr<Packet> frame = Create<Packet>(data, static_cast<uint32_t>(size));
    FrameInfo info;
    const bool ipv4 = info.Parse(frame);
    FUZZ_CHECK(info.size == size);
    // Whatever it reports, it read from the frame: an IPv4 header and UDP ports behind the
    // P2MP header, a BTH behind those.
    FUZZ_CHECK(!ipv4
               || size >= FrameInfo::ETH_BYTES + info.p2mpBytes + FrameInfo::IPV4_BYTES
                              + FrameInfo::UDP_BYTES);
    FUZZ_CHECK(!info.roce || size >= FrameInfo::BTH_OFFSET + info.p2mpBytes + BthHeader::SIZE);

    Headers(data, size);
    if (size > FrameInfo::ETH_BYTES)
    {
        Headers(data + FrameInfo::ETH_BYTES, size - FrameInfo::ETH_BYTES);
    }
    if (size >= IcrcTrailer().GetSerializedSize())
    {
        Buffer b;
        b.AddAtStart(size);
        b.Begin().Write(data, size);
        IcrcTrailer t;
        FUZZ_CHECK(t.Deserialize(b.End()) == t.GetSerializedSize());
    }
    Builders(data, size);
    Telemetry(frame);
    return 0;
}
