/*
 * The in-band telemetry wire format: the IOAM pre-allocated trace (RFC 9197 §4.4) behind its
 * 4-octet IOAM header, checked byte for byte against the layout spelled out from the RFC, and
 * the telemetry probe that carries it (BTH opcode 0xC1) and its acknowledgement (0xC2).
 */
#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "packet-bytes.h"
#include "wire/model/bth-header.h"
#include "wire/model/frame-info.h"
#include "wire/model/icrc-trailer.h"
#include "wire/model/ioam-trace-header.h"
#include "wire/model/probe-frame-builder.h"
#include "wire/model/reth-header.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

using mcast4ai_test::Bytes;
using mcast4ai_test::CopyBytes;
using mcast4ai_test::HeaderBytes;

uint32_t
Word(const Bytes& b, std::size_t at)
{
    return (uint32_t(b[at]) << 24) | (uint32_t(b[at + 1]) << 16) | (uint32_t(b[at + 2]) << 8)
           | b[at + 3];
}

IoamTraceHeader::NodeData
Node(uint32_t id)
{
    IoamTraceHeader::NodeData n;
    n.hopLimit = 64;
    n.nodeId = id;
    n.ingressIf = static_cast<uint16_t>(id + 1);
    n.egressIf = static_cast<uint16_t>(id + 2);
    n.seconds = 1;
    n.nanoseconds = 2000 + id;
    n.transitDelayNs = 500 + id;
    n.utilisation = IoamTraceHeader::UTILISATION_ONE / 2;
    n.sharers = static_cast<uint8_t>(id / 10 + 1);
    n.rank = static_cast<uint8_t>(id / 10);
    n.queueDepthBytes = 1024 * id;
    return n;
}

IoamTraceHeader
RoundTrip(const IoamTraceHeader& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    IoamTraceHeader out;
    EXPECT_EQ(p->RemoveHeader(out), h.GetSerializedSize());
    return out;
}

RocePacketBuilder::Addressing
Addressing(bool icrc)
{
    RocePacketBuilder::Addressing a;
    a.srcIp = FrameInfo::HOST_ADDRESS_BASE;
    a.dstIp = FrameInfo::HOST_ADDRESS_BASE + 8;
    a.srcPort = 0xC123;
    a.priority = 3;
    a.computeIcrc = icrc;
    return a;
}

Ptr<Packet>
ThreeHopProbe(bool icrc)
{
    return ProbeFrameBuilder::Probe(Addressing(icrc),
                                    Mac48Address("02:00:00:00:00:01"),
                                    Mac48Address("02:00:00:00:00:09"),
                                    0x12,
                                    7,
                                    1,
                                    3);
}

/// The ICRC a receiver computes over a frame (Ethernet excluded, the ICRC itself excluded).
uint32_t
IcrcOf(const Bytes& frame)
{
    return IcrcTrailer::Compute(frame.data() + FrameInfo::ETH_BYTES,
                                frame.size() - FrameInfo::ETH_BYTES - IcrcTrailer::SIZE);
}

/// The ICRC stored in a frame's last four bytes (least significant byte first).
uint32_t
StoredIcrc(const Bytes& frame)
{
    std::size_t n = frame.size();
    return frame[n - 4] | (frame[n - 3] << 8) | (frame[n - 2] << 16)
           | (uint32_t(frame[n - 1]) << 24);
}

} // namespace

TEST(IoamTraceHeader, PreallocatesRoomForEveryHopAsRfc9197Lays)
{
    IoamTraceHeader h;
    h.Allocate(3);
    h.SetNamespaceId(0x0001);
    h.SetFlags(IoamTraceHeader::FLAG_ACTIVE);
    // 4 + 8 octets of headers, then 3 hops x 7 words.
    EXPECT_EQ(h.GetSerializedSize(), 12u + 3 * 28);
    EXPECT_EQ(IoamTraceHeader::SizeFor(3), 96u);
    Bytes b = HeaderBytes(h);
    ASSERT_EQ(b.size(), 96u);
    // IOAM-Type 0 (pre-allocated trace), HDR Len 24 words, reserved, next protocol 0.
    EXPECT_EQ(Word(b, 0), 0x00180000u);
    // Namespace-ID 1 | NodeLen 7 (bits 16-20) | Flags 0b0010 (Active) | RemainingLen 21.
    EXPECT_EQ(Word(b, 4), (0x0001u << 16) | (7u << 11) | (0x2u << 7) | 21u);
    // Trace type bits 0-6 set, then 8 reserved bits.
    EXPECT_EQ(Word(b, 8), 0xFE000000u);
    for (std::size_t i = 12; i < b.size(); ++i)
    {
        EXPECT_EQ(b[i], 0) << "free space is zero at " << i;
    }
}

TEST(IoamTraceHeader, EachNodeWritesJustAboveTheFreeSpaceFirstHopLast)
{
    IoamTraceHeader h;
    h.Allocate(3);
    ASSERT_TRUE(h.AddNode(Node(10)));
    ASSERT_TRUE(h.AddNode(Node(20)));
    EXPECT_EQ(h.GetRemainingWords(), 7u);
    Bytes b = HeaderBytes(h);
    // The first hop's 7 words end the header; the second's sit right above them.
    const std::size_t first = b.size() - 28;
    const std::size_t second = first - 28;
    EXPECT_EQ(Word(b, first), (64u << 24) | 10u);     // Hop_Lim | node ID
    EXPECT_EQ(Word(b, first + 4), (11u << 16) | 12u); // ingress | egress
    EXPECT_EQ(Word(b, first + 8), 1u);                // seconds
    EXPECT_EQ(Word(b, first + 12), 2010u);            // nanoseconds
    EXPECT_EQ(Word(b, first + 16), 510u);             // transit delay
    // Namespace data: utilisation 0.5 = 8192 in the high 16 bits, 2 sharers, rank 1.
    EXPECT_EQ(Word(b, first + 20), (8192u << 16) | (2u << 8) | 1u);
    EXPECT_EQ(Word(b, first + 24), 10240u); // queue depth
    EXPECT_EQ(Word(b, second), (64u << 24) | 20u);
    for (std::size_t i = 12; i < second; ++i)
    {
        EXPECT_EQ(b[i], 0) << "the third hop's room is still free at " << i;
    }
    EXPECT_EQ(Word(b, 4) & 0x7F, 7u) << "RemainingLen";
}

TEST(IoamTraceHeader, RoundTripsInPathOrder)
{
    IoamTraceHeader h;
    h.Allocate(5);
    h.SetNamespaceId(42);
    for (uint32_t id : {3, 1, 4})
    {
        ASSERT_TRUE(h.AddNode(Node(id)));
    }
    IoamTraceHeader out = RoundTrip(h);
    EXPECT_TRUE(out.IsWellFormed());
    EXPECT_EQ(out.GetNamespaceId(), 42);
    EXPECT_EQ(out.GetRemainingWords(), 14u);
    ASSERT_EQ(out.GetNodes().size(), 3u);
    EXPECT_EQ(out.GetNodes()[0], Node(3));
    EXPECT_EQ(out.GetNodes()[1], Node(1));
    EXPECT_EQ(out.GetNodes()[2], Node(4));
    EXPECT_EQ(HeaderBytes(out), HeaderBytes(h));
}

TEST(IoamTraceHeader, NamespaceDataCarriesUtilisationSharersAndRankWhole)
{
    // Each of the word's three fields at its largest and next to a field at zero, so a shift
    // or mask that spills into a neighbour shows.
    IoamTraceHeader h;
    h.Allocate(2);
    IoamTraceHeader::NodeData a = Node(1);
    a.utilisation = 0xFFFF;
    a.sharers = 0;
    a.rank = IoamTraceHeader::SHARERS_MAX;
    IoamTraceHeader::NodeData b = Node(2);
    b.utilisation = 0;
    b.sharers = IoamTraceHeader::SHARERS_MAX;
    b.rank = 0;
    ASSERT_TRUE(h.AddNode(a));
    ASSERT_TRUE(h.AddNode(b));
    Bytes bytes = HeaderBytes(h);
    EXPECT_EQ(Word(bytes, bytes.size() - 28 + 20), 0xFFFF00FFu);
    EXPECT_EQ(Word(bytes, bytes.size() - 56 + 20), 0x0000FF00u);
    IoamTraceHeader out = RoundTrip(h);
    ASSERT_EQ(out.GetNodes().size(), 2u);
    EXPECT_EQ(out.GetNodes()[0], a);
    EXPECT_EQ(out.GetNodes()[1], b);
}

TEST(IoamTraceHeader, AFullTraceSetsOverflowAndKeepsItsData)
{
    IoamTraceHeader h;
    h.Allocate(1);
    ASSERT_TRUE(h.AddNode(Node(1)));
    Bytes before = HeaderBytes(h);
    EXPECT_FALSE(h.AddNode(Node(2)));
    EXPECT_EQ(h.GetFlags() & IoamTraceHeader::FLAG_OVERFLOW, IoamTraceHeader::FLAG_OVERFLOW);
    Bytes after = HeaderBytes(h);
    EXPECT_EQ(after.size(), before.size());
    EXPECT_EQ(Word(after, 4) >> 7 & 0xF, 0x8u) << "the O bit, first of the four flags";
    after[6] = before[6]; // NodeLen and the O, L, A flags share this byte; nothing else moved
    EXPECT_EQ(after, before);
}

TEST(IoamTraceHeader, RemainingLenCapsTheRoomAtEighteenHops)
{
    // 7 bits of RemainingLen: at most 127 words, 18 hops of 7.
    IoamTraceHeader h;
    h.Allocate(40);
    EXPECT_EQ(h.GetSerializedSize(), 12u + 4 * 127);
    for (uint32_t i = 0; i < 18; ++i)
    {
        EXPECT_TRUE(h.AddNode(Node(i)));
    }
    EXPECT_FALSE(h.AddNode(Node(18)));
    EXPECT_EQ(RoundTrip(h).GetNodes().size(), 18u);
}

TEST(IoamTraceHeader, AnotherTraceTypeIsKeptAsItCameAndNotWrittenInto)
{
    IoamTraceHeader h;
    h.Allocate(2);
    Bytes b = HeaderBytes(h);
    b[8] = 0x80; // trace type bit 0 only: NodeLen 7 no longer describes it
    Ptr<Packet> p = Create<Packet>(b.data(), b.size());
    IoamTraceHeader foreign;
    p->RemoveHeader(foreign);
    EXPECT_FALSE(foreign.IsWellFormed());
    EXPECT_TRUE(foreign.GetNodes().empty());
    EXPECT_FALSE(foreign.AddNode(Node(1)));
    EXPECT_EQ(foreign.GetFlags() & IoamTraceHeader::FLAG_OVERFLOW, 0);
    EXPECT_EQ(HeaderBytes(foreign), b);
}

TEST(ProbeFrameBuilder, AProbeIsARoceFrameWithItsTraceBehindTheBth)
{
    Ptr<Packet> p = ThreeHopProbe(true);
    // Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + IOAM 96 + ICRC 4.
    EXPECT_EQ(p->GetSize(), 154u);
    EXPECT_EQ(ProbeFrameBuilder::FrameBytes(3), 154u);
    FrameInfo fi;
    ASSERT_TRUE(fi.Parse(p));
    EXPECT_TRUE(fi.roce);
    EXPECT_EQ(fi.opcode, BthHeader::RC_PROBE);
    EXPECT_EQ(fi.psn, 7u);
    EXPECT_EQ(fi.destQp, 0x12u);
    EXPECT_EQ(fi.srcPort, 0xC123);
    EXPECT_EQ(fi.dscp, 3u << 3) << "in its queue pair's class";
    EXPECT_FALSE(BthHeader::IsRequest(fi.opcode)) << "no responder takes it for data";
    IoamTraceHeader trace;
    ASSERT_TRUE(ProbeFrameBuilder::ReadTrace(p, trace));
    EXPECT_EQ(trace.GetFlags(), IoamTraceHeader::FLAG_ACTIVE);
    EXPECT_EQ(trace.GetRemainingWords(), 21u);
    Bytes b = CopyBytes(p);
    EXPECT_EQ(StoredIcrc(b), IcrcOf(b));
}

TEST(ProbeFrameBuilder, AClaimIsTheSameProbeUnderOpcode0xC3AndIsStampedAlike)
{
    Ptr<Packet> probe = ThreeHopProbe(true);
    Ptr<Packet> claim = ProbeFrameBuilder::Probe(Addressing(true),
                                                 Mac48Address("02:00:00:00:00:01"),
                                                 Mac48Address("02:00:00:00:00:09"),
                                                 0x12,
                                                 7,
                                                 1,
                                                 3,
                                                 true);
    EXPECT_EQ(claim->GetSize(), 154u);
    FrameInfo fi;
    ASSERT_TRUE(fi.Parse(claim));
    EXPECT_EQ(fi.opcode, 0xC3);
    EXPECT_EQ(BthHeader::OpcodeName(fi.opcode), std::string("RC_PROBE_CLAIM"));
    EXPECT_TRUE(BthHeader::IsProbe(fi.opcode));
    EXPECT_FALSE(BthHeader::IsRequest(fi.opcode)) << "no responder takes it for data";
    // Byte for byte the probe but for the opcode, the BTH's first byte, and so the ICRC.
    Bytes c = CopyBytes(claim);
    Bytes p = CopyBytes(probe);
    ASSERT_EQ(c.size(), p.size());
    const std::size_t opcodeAt = FrameInfo::BTH_OFFSET;
    for (std::size_t i = 0; i + IcrcTrailer::SIZE < c.size(); ++i)
    {
        EXPECT_EQ(c[i], i == opcodeAt ? 0xC3 : p[i]) << "byte " << i;
    }
    EXPECT_EQ(StoredIcrc(c), IcrcOf(c));
    Ptr<Packet> stamped;
    ASSERT_EQ(ProbeFrameBuilder::Stamp(claim, 1, Node(17), stamped), ProbeFrameBuilder::STAMPED);
    IoamTraceHeader trace;
    ASSERT_TRUE(ProbeFrameBuilder::ReadTrace(stamped, trace));
    ASSERT_EQ(trace.GetNodes().size(), 1u);
    EXPECT_EQ(trace.GetNodes()[0].nodeId, 17u);
}

TEST(ProbeFrameBuilder, AStampAddsTheHopAndKeepsTheIcrcRight)
{
    Ptr<Packet> p = ThreeHopProbe(true);
    IoamTraceHeader::NodeData n = Node(17);
    n.hopLimit = 0; // the stamp takes it from the IPv4 TTL
    Ptr<Packet> stamped;
    ASSERT_EQ(ProbeFrameBuilder::Stamp(p, 1, n, stamped), ProbeFrameBuilder::STAMPED);
    EXPECT_EQ(stamped->GetSize(), p->GetSize()) << "pre-allocated: the frame keeps its size";
    IoamTraceHeader trace;
    ASSERT_TRUE(ProbeFrameBuilder::ReadTrace(stamped, trace));
    ASSERT_EQ(trace.GetNodes().size(), 1u);
    n.hopLimit = 64;
    EXPECT_EQ(trace.GetNodes()[0], n);
    Bytes b = CopyBytes(stamped);
    EXPECT_EQ(StoredIcrc(b), IcrcOf(b)) << "recomputed over the new trace";
    EXPECT_NE(StoredIcrc(b), StoredIcrc(CopyBytes(p)));
    FrameInfo before;
    FrameInfo after;
    before.Parse(p);
    after.Parse(stamped);
    EXPECT_TRUE(before == after) << "the fields forwarding reads are unchanged";
}

TEST(ProbeFrameBuilder, AZeroIcrcStaysZeroAndAForeignNamespaceIsLeftAlone)
{
    Ptr<Packet> p = ThreeHopProbe(false);
    Ptr<Packet> stamped;
    ASSERT_EQ(ProbeFrameBuilder::Stamp(p, 1, Node(1), stamped), ProbeFrameBuilder::STAMPED);
    EXPECT_EQ(StoredIcrc(CopyBytes(stamped)), 0u);
    Ptr<Packet> other;
    EXPECT_EQ(ProbeFrameBuilder::Stamp(p, 2, Node(1), other), ProbeFrameBuilder::UNTOUCHED);
    EXPECT_EQ(other, nullptr);
}

TEST(ProbeFrameBuilder, AFourthHopOnAThreeHopTraceOverflows)
{
    Ptr<Packet> p = ThreeHopProbe(true);
    for (uint32_t hop = 0; hop < 3; ++hop)
    {
        Ptr<Packet> next;
        ASSERT_EQ(ProbeFrameBuilder::Stamp(p, 1, Node(hop), next), ProbeFrameBuilder::STAMPED);
        p = next;
    }
    Ptr<Packet> full;
    ASSERT_EQ(ProbeFrameBuilder::Stamp(p, 1, Node(3), full), ProbeFrameBuilder::OVERFLOW);
    IoamTraceHeader trace;
    ASSERT_TRUE(ProbeFrameBuilder::ReadTrace(full, trace));
    EXPECT_EQ(trace.GetNodes().size(), 3u);
    EXPECT_EQ(trace.GetNodes()[2].nodeId, 2u) << "path order";
    EXPECT_TRUE(trace.GetFlags() & IoamTraceHeader::FLAG_OVERFLOW);
    Bytes b = CopyBytes(full);
    EXPECT_EQ(StoredIcrc(b), IcrcOf(b));
}

TEST(ProbeFrameBuilder, TheAcknowledgementEchoesTheTrace)
{
    Ptr<Packet> p = ThreeHopProbe(true);
    Ptr<Packet> stamped;
    ProbeFrameBuilder::Stamp(p, 1, Node(5), stamped);
    IoamTraceHeader trace;
    ASSERT_TRUE(ProbeFrameBuilder::ReadTrace(stamped, trace));
    Ptr<Packet> ack = ProbeFrameBuilder::Ack(Addressing(true),
                                             Mac48Address("02:00:00:00:00:09"),
                                             Mac48Address("02:00:00:00:00:01"),
                                             0x34,
                                             7,
                                             trace);
    FrameInfo fi;
    ASSERT_TRUE(fi.Parse(ack));
    EXPECT_EQ(fi.opcode, BthHeader::RC_PROBE_ACK);
    EXPECT_EQ(fi.psn, 7u);
    EXPECT_EQ(ack->GetSize(), stamped->GetSize());
    IoamTraceHeader echoed;
    ASSERT_TRUE(ProbeFrameBuilder::ReadTrace(ack, echoed));
    EXPECT_EQ(HeaderBytes(echoed), HeaderBytes(trace));
}

TEST(ProbeFrameBuilder, ATruncatedProbeHasNoTrace)
{
    Bytes b = CopyBytes(ThreeHopProbe(true));
    for (std::size_t cut : {std::size_t{40}, std::size_t{60}, b.size() - 5})
    {
        Ptr<Packet> p = Create<Packet>(b.data(), cut);
        IoamTraceHeader trace;
        EXPECT_FALSE(ProbeFrameBuilder::ReadTrace(p, trace)) << cut << " bytes";
        Ptr<Packet> out;
        EXPECT_EQ(ProbeFrameBuilder::Stamp(p, 1, Node(1), out), ProbeFrameBuilder::UNTOUCHED);
    }
}

TEST(ProbeFrameBuilder, AFrameThatIsNotAnIpv4ProbeIsLeftAlone)
{
    Bytes b = CopyBytes(ThreeHopProbe(true));
    Bytes notIpv4 = b;
    notIpv4[FrameInfo::ETH_BYTES] = 0x65; // version 6
    Bytes badIhl = b;
    badIhl[FrameInfo::ETH_BYTES] = 0x44; // IHL 4: shorter than an IPv4 header
    Bytes notProbe = b;
    notProbe[FrameInfo::BTH_OFFSET] = BthHeader::RC_PROBE_ACK; // acknowledgements go unstamped
    for (const Bytes& frame : {notIpv4, badIhl, notProbe})
    {
        Ptr<Packet> out;
        EXPECT_EQ(
            ProbeFrameBuilder::Stamp(Create<Packet>(frame.data(), frame.size()), 1, Node(1), out),
            ProbeFrameBuilder::UNTOUCHED);
    }
    EXPECT_FALSE(IcrcTrailer::CanCompute(notIpv4.data() + FrameInfo::ETH_BYTES, 136));
    EXPECT_FALSE(IcrcTrailer::CanCompute(badIhl.data() + FrameInfo::ETH_BYTES, 136));
    EXPECT_TRUE(IcrcTrailer::CanCompute(b.data() + FrameInfo::ETH_BYTES, 136));
    EXPECT_FALSE(IcrcTrailer::CanCompute(b.data() + FrameInfo::ETH_BYTES, 39)); // IPv4+UDP+BTH-1
}

namespace
{

IoamTraceHeader::NodeData
IntNode(uint32_t i)
{
    IoamTraceHeader::NodeData n;
    n.nanoseconds = 1000 + i;
    n.transitDelayNs = 300 + i;
    n.queueDepthBytes = 4096 * i;
    n.txBytes = 0xFFFFFF00u + i; // near the wrap: a counter modulo 2^32
    n.linkRateMbps = 400000;
    return n;
}

/// A WRITE FIRST of 256 payload bytes whose BTH announces a telemetry trace for three hops.
Ptr<Packet>
TelemetryWrite(bool icrc)
{
    Ptr<Packet> p = Create<Packet>(256);
    RethHeader reth;
    reth.SetDmaLength(65536);
    p->AddHeader(reth);
    IoamTraceHeader trace;
    trace.SetNamespaceId(1);
    trace.Allocate(3, IoamTraceHeader::INT_TRACE_TYPE);
    p->AddHeader(trace);
    BthHeader bth;
    bth.SetOpcode(BthHeader::RC_WRITE_FIRST);
    bth.SetDestQp(0x21);
    bth.SetPsn(5);
    bth.SetTelemetry(true);
    p->AddHeader(bth);
    RocePacketBuilder::AddEnvelope(
        p, Addressing(icrc), Mac48Address("02:00:00:00:00:01"), Mac48Address("02:00:00:00:00:09"));
    return p;
}

} // namespace

TEST(IoamTraceHeader, TheIntTraceTypeWritesItsFourFieldsInBitOrder)
{
    EXPECT_EQ(IoamTraceHeader::NodeWords(IoamTraceHeader::TRACE_TYPE), 7u);
    EXPECT_EQ(IoamTraceHeader::NodeWords(IoamTraceHeader::INT_TRACE_TYPE), 5u);
    EXPECT_EQ(IoamTraceHeader::NodeWords(0x001000), 0u) << "bit 11 is not one of ours";
    IoamTraceHeader h;
    h.Allocate(3, IoamTraceHeader::INT_TRACE_TYPE);
    EXPECT_EQ(h.GetSerializedSize(), 12u + 3 * 20);
    EXPECT_EQ(IoamTraceHeader::SizeFor(3, IoamTraceHeader::INT_TRACE_TYPE), 72u);
    ASSERT_TRUE(h.AddNode(IntNode(1)));
    Bytes b = HeaderBytes(h);
    EXPECT_EQ(b[1], 72 / 4) << "HDR Len";
    EXPECT_EQ((Word(b, 4) >> 11) & 0x1F, 5u) << "NodeLen";
    EXPECT_EQ(Word(b, 4) & 0x7F, 10u) << "RemainingLen: two hops' room left";
    EXPECT_EQ(Word(b, 8) >> 8, IoamTraceHeader::INT_TRACE_TYPE);
    // The first hop's data ends the header: bits 3, 4, 6, then 10's two words.
    EXPECT_EQ(Word(b, 52), 1001u) << "timestamp, nanoseconds";
    EXPECT_EQ(Word(b, 56), 301u) << "transit delay";
    EXPECT_EQ(Word(b, 60), 4096u) << "queue depth";
    EXPECT_EQ(Word(b, 64), 0xFFFFFF01u) << "wide namespace data: bytes sent";
    EXPECT_EQ(Word(b, 68), 400000u) << "wide namespace data: line rate in Mb/s";
    ASSERT_TRUE(h.AddNode(IntNode(2)));
    IoamTraceHeader back = RoundTrip(h);
    ASSERT_TRUE(back.IsWellFormed());
    ASSERT_EQ(back.GetNodes().size(), 2u);
    EXPECT_EQ(back.GetNodes()[0], IntNode(1));
    EXPECT_EQ(back.GetNodes()[1], IntNode(2));
}

TEST(ProbeFrameBuilder, ADataPacketWithTheTelemetryBitCarriesItsTraceBeforeTheReth)
{
    Ptr<Packet> p = TelemetryWrite(true);
    FrameInfo fi;
    ASSERT_TRUE(fi.Parse(p));
    EXPECT_EQ(fi.traceWords, 18u);
    EXPECT_EQ(fi.dmaLength, 65536u) << "the RETH is read behind the trace";
    EXPECT_EQ(fi.PayloadBytes(), 256u);
    Bytes b = CopyBytes(p);
    EXPECT_EQ(b[FrameInfo::BTH_OFFSET + 8] & BthHeader::TELEMETRY_BIT, BthHeader::TELEMETRY_BIT);
    IoamTraceHeader::NodeData n = IntNode(3);
    Ptr<Packet> stamped;
    ASSERT_EQ(ProbeFrameBuilder::Stamp(p, 1, n, stamped), ProbeFrameBuilder::STAMPED);
    FrameInfo after;
    ASSERT_TRUE(after.Parse(stamped));
    EXPECT_TRUE(fi == after) << "the fields forwarding reads are unchanged";
    IoamTraceHeader trace;
    ASSERT_TRUE(ProbeFrameBuilder::ReadTrace(stamped, trace));
    ASSERT_EQ(trace.GetNodes().size(), 1u);
    EXPECT_EQ(trace.GetNodes()[0].txBytes, n.txBytes);
    EXPECT_EQ(trace.GetNodes()[0].queueDepthBytes, n.queueDepthBytes);
    Bytes s = CopyBytes(stamped);
    EXPECT_EQ(StoredIcrc(s), IcrcOf(s));
    // Without the bit the same frame is not stamped: a data packet's bytes are its own.
    b[FrameInfo::BTH_OFFSET + 8] &= static_cast<uint8_t>(~BthHeader::TELEMETRY_BIT);
    Ptr<Packet> plain = Create<Packet>(b.data(), b.size());
    EXPECT_EQ(ProbeFrameBuilder::Stamp(plain, 1, n, stamped), ProbeFrameBuilder::UNTOUCHED);
}

TEST(ProbeFrameBuilder, AnAckEchoesADataPacketsTraceBeforeItsAeth)
{
    IoamTraceHeader trace;
    trace.SetNamespaceId(1);
    trace.Allocate(3, IoamTraceHeader::INT_TRACE_TYPE);
    trace.AddNode(IntNode(1));
    trace.AddNode(IntNode(2));
    Ptr<Packet> ack = RocePacketBuilder::AckFrame(Addressing(false),
                                                  Mac48Address("02:00:00:00:00:09"),
                                                  Mac48Address("02:00:00:00:00:01"),
                                                  0x21,
                                                  5,
                                                  false,
                                                  7,
                                                  &trace);
    FrameInfo fi;
    ASSERT_TRUE(fi.Parse(ack));
    EXPECT_EQ(fi.opcode, BthHeader::RC_ACKNOWLEDGE);
    EXPECT_EQ(fi.traceWords, 18u);
    EXPECT_EQ(fi.msn, 7u) << "the AETH is read behind the trace";
    EXPECT_EQ((fi.syndrome >> 5) & 0x3, 0u) << "an ACK";
    EXPECT_EQ(ack->GetSize(), 14u + 20 + 8 + 12 + 72 + 4 + 4);
    IoamTraceHeader back;
    ASSERT_TRUE(ProbeFrameBuilder::ReadTrace(ack, back));
    EXPECT_EQ(back.GetNodes(), trace.GetNodes());
}
