/*
 * A CE mark is in a frame's fields at once and in its bytes when they are read: the bytes
 * must then be the frame's own (a copy sharing the packet keeps its unmarked bytes), differ
 * only in the IPv4 TOS byte and checksum, and carry a valid checksum.
 */
#include "ns3/ipv4-header.h"
#include "packet-bytes.h"
#include "rdma/model/rdma-nic.h"
#include "wire/model/fabric-address.h"
#include "wire/model/fabric-frame.h"

#include <gtest/gtest.h>

using namespace ns3;
using mcast4ai_test::CopyBytes;

namespace
{
/// An ECN-capable RoCEv2 frame (an ACK: any IPv4/UDP frame is marked alike).
Ptr<Packet>
EctFrame()
{
    RocePacketBuilder::Addressing a;
    a.srcIp = FabricAddress::HostIpv4(6).Get();
    a.dstIp = FabricAddress::HostIpv4(9).Get();
    a.srcPort = 0xC123;
    a.priority = 3;
    a.ecnCapable = true;
    return RocePacketBuilder::AckFrame(
        a, FabricAddress::HostMac(6), FabricAddress::HostMac(9), 0x800001, 41, false, 2);
}

/// 16-bit one's-complement sum of the IPv4 header (bytes 14..33): 0xFFFF when valid.
uint16_t
HeaderSum(const mcast4ai_test::Bytes& b)
{
    uint32_t sum = 0;
    for (int i = 14; i < 34; i += 2)
    {
        sum += (b[i] << 8) | b[i + 1];
    }
    while (sum >> 16)
    {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    return static_cast<uint16_t>(sum);
}
} // namespace

TEST(FabricFrameCe, MarkIsInTheFieldsAtOnceAndInTheBytesWhenRead)
{
    Ptr<Packet> original = EctFrame();
    mcast4ai_test::Bytes before = CopyBytes(original);
    FabricFrame frame = FabricFrame::From(original->Copy());
    frame.MarkCe();
    EXPECT_EQ(frame.info.ecn, Ipv4Header::ECN_CE);
    EXPECT_TRUE(frame.HasPendingCe());

    mcast4ai_test::Bytes after = CopyBytes(frame.GetPacket());
    EXPECT_FALSE(frame.HasPendingCe());
    ASSERT_EQ(after.size(), before.size());
    for (std::size_t i = 0; i < after.size(); ++i)
    {
        if (i == 15 || i == 24 || i == 25)
        {
            continue; // TOS, checksum
        }
        EXPECT_EQ(after[i], before[i]) << "byte " << i;
    }
    EXPECT_EQ(after[15] & 0x3, 0x3) << "CE in the TOS byte";
    EXPECT_EQ(after[15] >> 2, before[15] >> 2) << "DSCP kept";
    EXPECT_EQ(HeaderSum(after), 0xFFFF) << "IPv4 checksum valid";
    FrameInfo parsed;
    ASSERT_TRUE(parsed.Parse(frame.GetPacket()));
    EXPECT_TRUE(parsed == frame.info);
}

TEST(FabricFrameCe, SharedPacketIsCopiedAndTheOtherFrameKeepsItsBytes)
{
    FabricFrame marked = FabricFrame::From(EctFrame());
    FabricFrame other(marked); // shares the packet
    marked.MarkCe();
    EXPECT_FALSE(other.HasPendingCe());
    mcast4ai_test::Bytes otherBytes = CopyBytes(other.GetPacket());
    mcast4ai_test::Bytes markedBytes = CopyBytes(marked.GetPacket());
    EXPECT_NE(PeekPointer(marked.GetPacket()), PeekPointer(other.GetPacket()));
    EXPECT_EQ(otherBytes[15] & 0x3, Ipv4Header::ECN_ECT0) << "the other copy is unmarked";
    EXPECT_EQ(markedBytes[15] & 0x3, 0x3);
    EXPECT_EQ(CopyBytes(other.GetPacket()), otherBytes);

    // A copy of a frame with a pending mark has it pending too, and applies it to its own.
    FabricFrame pending = FabricFrame::From(EctFrame());
    pending.MarkCe();
    FabricFrame copy(pending);
    EXPECT_TRUE(copy.HasPendingCe());
    EXPECT_EQ(CopyBytes(copy.GetPacket()), CopyBytes(pending.GetPacket()));
}
