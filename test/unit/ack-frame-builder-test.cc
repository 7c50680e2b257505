/*
 * A deferred ACK (or CNP) travels as fields alone: the fields must be exactly what FrameInfo::Parse
 * reads from the bytes, and the bytes built on demand exactly what RocePacketBuilder writes
 * eagerly, or pcaps and forwarding would depend on who asked for the bytes first.
 */
#include "packet-bytes.h"
#include "rdma/model/rdma-nic.h"
#include "wire/model/ack-frame-builder.h"
#include "wire/model/aeth-header.h"
#include "wire/model/bth-header.h"
#include "wire/model/fabric-address.h"
#include "wire/model/fabric-frame.h"

#include <gtest/gtest.h>

using namespace ns3;
using mcast4ai_test::CopyBytes;

namespace
{
const Mac48Address kSrc("02:00:00:00:00:07");

RocePacketBuilder::Addressing
Addr(uint8_t priority, bool ecnCapable, bool icrc)
{
    RocePacketBuilder::Addressing a;
    a.srcIp = FabricAddress::HostIpv4(6).Get();
    a.dstIp = FabricAddress::HostIpv4(1000).Get();
    a.srcPort = 0xC123;
    a.priority = priority;
    a.ecnCapable = ecnCapable;
    a.computeIcrc = icrc;
    return a;
}
} // namespace

TEST(AckFrameBuilder, FieldsAreWhatParseReadsAndBytesWhatTheEagerBuilderWrites)
{
    int cases = 0;
    for (bool icrc : {false, true})
    {
        AckFrameBuilder builder(kSrc, icrc);
        for (bool nak : {false, true})
        {
            for (uint8_t priority : {0, 3, 7})
            {
                for (bool ecn : {false, true})
                {
                    // PSN at the 24-bit edge; MSN above 24 bits is cut to 24 on the wire.
                    RocePacketBuilder::Addressing a = Addr(priority, ecn, icrc);
                    FabricFrame frame = builder.Make(a, 0x800001, 0xFFFFFF, nak, 0x1234567);
                    EXPECT_FALSE(frame.HasBytes());
                    Ptr<Packet> eager = RocePacketBuilder::AckFrame(
                        a, kSrc, FabricAddress::HostMac(1000), 0x800001, 0xFFFFFF, nak, 0x1234567);
                    FrameInfo parsed;
                    ASSERT_TRUE(parsed.Parse(eager));
                    EXPECT_TRUE(frame.info == parsed)
                        << "icrc " << icrc << " nak " << nak << " prio " << +priority;
                    EXPECT_EQ(frame.info.size, 62u); // 14 + 20 + 8 + 12 + 4 + 4
                    EXPECT_EQ(frame.info.msn, 0x234567u);
                    EXPECT_EQ(frame.info.dscp, 8 * priority);
                    EXPECT_EQ(((frame.info.syndrome >> 5) & 0x3) == 0x3, nak);
                    EXPECT_EQ(CopyBytes(frame.GetPacket()), CopyBytes(eager));
                    EXPECT_TRUE(frame.HasBytes());
                    ++cases;
                }
            }
        }
    }
    EXPECT_EQ(cases, 24);
}

TEST(AckFrameBuilder, DeferredFrameBuildsItsBytesOnceAndCopiesStayDeferred)
{
    AckFrameBuilder builder(kSrc, false);
    FabricFrame frame = builder.Make(Addr(3, false, false), 9, 41, false, 2);
    EXPECT_FALSE(frame.IsEmpty());
    FabricFrame copy(frame);
    FabricFrame moved(std::move(copy));
    EXPECT_TRUE(copy.IsEmpty());
    EXPECT_FALSE(moved.HasBytes());

    Ptr<Packet> first = frame.GetPacket();
    EXPECT_EQ(PeekPointer(frame.GetPacket()), PeekPointer(first)); // kept, not rebuilt
    EXPECT_EQ(first->GetReferenceCount(), 2u);                     // the frame's and ours
    EXPECT_FALSE(moved.HasBytes()); // the copy made before still has only fields

    // A copy of a frame with bytes shares its packet.
    FabricFrame shared(frame);
    EXPECT_EQ(PeekPointer(shared.GetPacket()), PeekPointer(first));
    EXPECT_EQ(CopyBytes(moved.GetPacket()), CopyBytes(first)); // same bytes, its own packet
    EXPECT_NE(PeekPointer(moved.GetPacket()), PeekPointer(first));
}

TEST(AckFrameBuilder, SourceAndIcrcAreReadWhenTheBytesAreBuilt)
{
    AckFrameBuilder builder(Mac48Address("02:00:00:00:00:01"), false);
    FabricFrame frame = builder.Make(Addr(3, false, true), 9, 41, false, 2);
    builder.SetSource(kSrc);
    builder.SetComputeIcrc(true);
    Ptr<Packet> eager = RocePacketBuilder::AckFrame(
        Addr(3, false, true), kSrc, FabricAddress::HostMac(1000), 9, 41, false, 2);
    mcast4ai_test::Bytes bytes = CopyBytes(frame.GetPacket());
    EXPECT_EQ(bytes, CopyBytes(eager));
    // The real ICRC is not zero (the test would not tell the two settings apart otherwise).
    EXPECT_NE(bytes[58] | bytes[59] | bytes[60] | bytes[61], 0);
}

// CNPs: the same contract, for the NIC's congestion notifications.
TEST(AckFrameBuilder, CnpFieldsAreWhatParseReadsAndBytesWhatTheEagerBuilderWrites)
{
    int cases = 0;
    for (bool icrc : {false, true})
    {
        AckFrameBuilder builder(kSrc, icrc);
        for (uint8_t priority : {0, 3, 7})
        {
            RocePacketBuilder::Addressing a = Addr(priority, false, icrc);
            FabricFrame frame = builder.MakeCnp(a, 0x800001);
            EXPECT_FALSE(frame.HasBytes());
            Ptr<Packet> eager = RocePacketBuilder::Cnp(0x800001);
            RocePacketBuilder::AddEnvelope(eager, a, kSrc, FabricAddress::HostMac(1000));
            FrameInfo parsed;
            ASSERT_TRUE(parsed.Parse(eager));
            EXPECT_TRUE(frame.info == parsed) << "icrc " << icrc << " prio " << +priority;
            EXPECT_EQ(frame.info.size, 74u); // 14 + 20 + 8 + 12 + 16 reserved + 4
            EXPECT_EQ(frame.info.opcode, BthHeader::CNP);
            EXPECT_EQ(frame.info.dscp, 8 * priority);
            EXPECT_EQ(CopyBytes(frame.GetPacket()), CopyBytes(eager));
            EXPECT_TRUE(frame.HasBytes());
            ++cases;
        }
    }
    EXPECT_EQ(cases, 6);
}

TEST(AckFrameBuilder, CnpSourceAndIcrcAreReadWhenTheBytesAreBuilt)
{
    AckFrameBuilder builder(Mac48Address("02:00:00:00:00:01"), false);
    FabricFrame frame = builder.MakeCnp(Addr(3, false, true), 9);
    builder.SetSource(kSrc);
    builder.SetComputeIcrc(true);
    Ptr<Packet> eager = RocePacketBuilder::Cnp(9);
    RocePacketBuilder::AddEnvelope(eager, Addr(3, false, true), kSrc, FabricAddress::HostMac(1000));
    mcast4ai_test::Bytes bytes = CopyBytes(frame.GetPacket());
    EXPECT_EQ(bytes, CopyBytes(eager));
    EXPECT_NE(bytes[70] | bytes[71] | bytes[72] | bytes[73], 0); // a real ICRC
}
