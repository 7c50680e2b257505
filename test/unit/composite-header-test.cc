/*
 * Frames written in one step (CompositeHeader, RocePacketBuilder::AckFrame / AddEnvelope) must
 * be the same bytes as the same headers added one by one, with lengths that add up.
 */
#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/udp-header.h"
#include "packet-bytes.h"
#include "wire/model/aeth-header.h"
#include "wire/model/bth-header.h"
#include "wire/model/composite-header.h"
#include "wire/model/frame-info.h"
#include "wire/model/icrc-trailer.h"
#include "wire/model/reth-header.h"
#include "wire/model/roce-packet-builder.h"

#include <gtest/gtest.h>

using namespace ns3;
using mcast4ai_test::Bytes;
using mcast4ai_test::CopyBytes;

namespace
{
RocePacketBuilder::Addressing
Addr(bool icrc)
{
    RocePacketBuilder::Addressing a;
    a.srcIp = 0x0A000005; // 10.0.0.5
    a.dstIp = 0x0A000102; // 10.0.1.2
    a.srcPort = 0xC123;
    a.priority = 6;
    a.ecnCapable = false;
    a.computeIcrc = icrc;
    return a;
}

const Mac48Address kSrc("02:00:00:00:00:05");
const Mac48Address kDst("02:00:00:00:01:02");

/// ICRC, UDP, IPv4 and Ethernet added one header at a time, as ns-3 would.
void
WrapHeaderByHeader(Ptr<Packet> p, const RocePacketBuilder::Addressing& a)
{
    p->AddTrailer(IcrcTrailer());
    UdpHeader udp;
    udp.SetSourcePort(a.srcPort);
    udp.SetDestinationPort(4791);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address(a.srcIp));
    ip.SetDestination(Ipv4Address(a.dstIp));
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    ip.SetTtl(64);
    ip.SetDontFragment();
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(a.priority << 3));
    ip.SetEcn(a.ecnCapable ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT);
    ip.EnableChecksum();
    p->AddHeader(ip);
    if (a.computeIcrc)
    {
        Bytes l3 = CopyBytes(p);
        IcrcTrailer icrc;
        p->RemoveTrailer(icrc);
        icrc.SetIcrc(IcrcTrailer::Compute(l3.data(), l3.size() - IcrcTrailer::SIZE));
        p->AddTrailer(icrc);
    }
    EthernetHeader eth(false);
    eth.SetSource(kSrc);
    eth.SetDestination(kDst);
    eth.SetLengthType(0x0800);
    p->AddHeader(eth);
}

/// The ACK as the builder made it before CompositeHeader: one header at a time.
Ptr<Packet>
AckHeaderByHeader(const RocePacketBuilder::Addressing& a, uint32_t qp, uint32_t psn, bool nak)
{
    Ptr<Packet> p = Create<Packet>();
    AethHeader aeth;
    if (nak)
    {
        aeth.SetNak(AethHeader::PSN_SEQUENCE_ERROR);
    }
    else
    {
        aeth.SetAck();
    }
    aeth.SetMsn(7);
    p->AddHeader(aeth);
    BthHeader bth;
    bth.SetOpcode(BthHeader::RC_ACKNOWLEDGE);
    bth.SetDestQp(qp);
    bth.SetPsn(psn);
    p->AddHeader(bth);
    WrapHeaderByHeader(p, a);
    return p;
}
} // namespace

TEST(CompositeHeader, SerialisesItsComponentsBackToBack)
{
    BthHeader bth;
    bth.SetOpcode(BthHeader::RC_WRITE_ONLY);
    bth.SetDestQp(0x123456);
    bth.SetPsn(0xABCDEF);
    RethHeader reth;
    reth.SetVirtualAddress(0x1122334455667788ULL);
    reth.SetRkey(0x99AABBCC);
    reth.SetDmaLength(4096);
    CompositeHeader both;
    both.Append(bth);
    both.Append(reth);
    EXPECT_EQ(both.GetSerializedSize(), 12u + 16u);
    Bytes expected = mcast4ai_test::HeaderBytes(bth);
    Bytes rethBytes = mcast4ai_test::HeaderBytes(reth);
    expected.insert(expected.end(), rethBytes.begin(), rethBytes.end());
    EXPECT_EQ(mcast4ai_test::HeaderBytes(both), expected);
}

TEST(CompositeHeader, AckFrameIsTheSameBytesAsHeaderByHeader)
{
    for (bool icrc : {false, true})
    {
        for (bool nak : {false, true})
        {
            RocePacketBuilder::Addressing a = Addr(icrc);
            Ptr<Packet> one
                = RocePacketBuilder::AckFrame(a, kSrc, kDst, 0x800001, 0x00FFFE, nak, 7);
            Bytes frame = CopyBytes(one);
            ASSERT_EQ(frame.size(), 62u); // 14 + 20 + 8 + 12 + 4 + 4
            EXPECT_EQ(frame, CopyBytes(AckHeaderByHeader(a, 0x800001, 0x00FFFE, nak)))
                << "icrc " << icrc << " nak " << nak;
            EXPECT_EQ((frame[16] << 8) | frame[17], 48); // IPv4 total length
            EXPECT_EQ((frame[38] << 8) | frame[39], 28); // UDP length: 8 + 12 + 4 + 4
            FrameInfo fi;
            ASSERT_TRUE(fi.Parse(one));
            EXPECT_TRUE(fi.roce);
            EXPECT_EQ(fi.opcode, BthHeader::RC_ACKNOWLEDGE);
            EXPECT_EQ(fi.psn, 0x00FFFEu);
            EXPECT_EQ(fi.destQp, 0x800001u);
            EXPECT_EQ(fi.msn, 7u);
        }
    }
}

TEST(CompositeHeader, EnvelopeIsTheSameBytesAsHeaderByHeader)
{
    for (bool icrc : {false, true})
    {
        RocePacketBuilder::Addressing a = Addr(icrc);
        a.ecnCapable = true;
        auto inner = []()
        {
            Ptr<Packet> p = Create<Packet>(1024); // payload as a zero area, as the NIC sends it
            RethHeader reth;
            reth.SetDmaLength(1024);
            p->AddHeader(reth);
            BthHeader bth;
            bth.SetOpcode(BthHeader::RC_WRITE_ONLY);
            bth.SetDestQp(0x11);
            bth.SetPsn(3);
            p->AddHeader(bth);
            return p;
        };
        Ptr<Packet> oneStep = inner();
        RocePacketBuilder::AddEnvelope(oneStep, a, kSrc, kDst);
        Ptr<Packet> headerByHeader = inner();
        WrapHeaderByHeader(headerByHeader, a);
        Bytes frame = CopyBytes(oneStep);
        ASSERT_EQ(frame.size(), 14u + 20 + 8 + 12 + 16 + 1024 + 4);
        EXPECT_EQ(frame, CopyBytes(headerByHeader)) << "icrc " << icrc;
        EXPECT_EQ((frame[16] << 8) | frame[17], 20 + 8 + 12 + 16 + 1024 + 4);
        EXPECT_EQ((frame[38] << 8) | frame[39], 8 + 12 + 16 + 1024 + 4);
    }
}
