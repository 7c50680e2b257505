/*
 * A deferred CNP travels as fields alone: the fields must be exactly what FrameInfo::Parse
 * reads from the bytes RocePacketBuilder writes eagerly, and the bytes built on demand those
 * same bytes, so that pcaps do not depend on who asked for the bytes first.
 */
#include "packet-bytes.h"
#include "rdma/model/rdma-nic.h"
#include "wire/model/bth-header.h"
#include "wire/model/cnp-frame-builder.h"
#include "wire/model/fabric-frame.h"

#include <gtest/gtest.h>

using namespace ns3;
using mcast4ai_test::CopyBytes;

namespace
{
const Mac48Address kSrc("02:00:00:00:00:07");

RocePacketBuilder::Addressing
CnpAddr(uint8_t priority, bool icrc)
{
    RocePacketBuilder::Addressing a;
    a.srcIp = RdmaNic::HostAddress(6).Get();
    a.dstIp = RdmaNic::HostAddress(1000).Get();
    a.srcPort = 0xC123;
    a.priority = priority;
    a.computeIcrc = icrc;
    return a;
}
} // namespace

TEST(CnpFrameBuilder, FieldsAreWhatParseReadsAndBytesWhatTheEagerBuilderWrites)
{
    int cases = 0;
    for (bool icrc : {false, true})
    {
        CnpFrameBuilder builder(kSrc, icrc);
        for (uint8_t priority : {0, 3, 7})
        {
            RocePacketBuilder::Addressing a = CnpAddr(priority, icrc);
            FabricFrame frame = builder.Make(a, 0x800001);
            EXPECT_FALSE(frame.HasBytes());
            Ptr<Packet> eager = RocePacketBuilder::Cnp(0x800001);
            RocePacketBuilder::AddEnvelope(eager, a, kSrc, RdmaNic::HostMac(1000));
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

TEST(CnpFrameBuilder, SourceAndIcrcAreReadWhenTheBytesAreBuilt)
{
    CnpFrameBuilder builder(Mac48Address("02:00:00:00:00:01"), false);
    FabricFrame frame = builder.Make(CnpAddr(3, true), 9);
    builder.SetSource(kSrc);
    builder.SetComputeIcrc(true);
    Ptr<Packet> eager = RocePacketBuilder::Cnp(9);
    RocePacketBuilder::AddEnvelope(eager, CnpAddr(3, true), kSrc, RdmaNic::HostMac(1000));
    mcast4ai_test::Bytes bytes = CopyBytes(frame.GetPacket());
    EXPECT_EQ(bytes, CopyBytes(eager));
    EXPECT_NE(bytes[70] | bytes[71] | bytes[72] | bytes[73], 0); // a real ICRC
}
