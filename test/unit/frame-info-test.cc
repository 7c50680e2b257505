/*
 * FrameInfo::Parse on frames that end early: what it reports must come from the frame's own
 * bytes. Found by the frame fuzzer (test/fuzz/fuzz-frames.cc): a short frame announcing a long
 * P2MP header was read past its end.
 */
#include "ns3/packet.h"
#include "wire/model/frame-info.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

/// An Ethernet header of etherType, then `rest`, padded with zeros to `size` bytes.
Ptr<Packet>
Frame(uint16_t etherType, std::vector<uint8_t> rest, uint32_t size)
{
    std::vector<uint8_t> bytes(12, 0x02);
    bytes.push_back(etherType >> 8);
    bytes.push_back(etherType & 0xFF);
    bytes.insert(bytes.end(), rest.begin(), rest.end());
    bytes.resize(size, 0);
    return Create<Packet>(bytes.data(), size);
}

} // namespace

TEST(FrameInfo, FrameEndingInsideItsBierHeaderIsNotParsed)
{
    // BSL code 7: a 4096-bit BitString, 12 + 512 header bytes, in a 60-byte frame.
    std::vector<uint8_t> bier(12, 0);
    bier[5] = 7 << 4;
    FrameInfo f;
    EXPECT_FALSE(f.Parse(Frame(FrameInfo::ETHERTYPE_BIER, bier, 60)));
    EXPECT_FALSE(f.roce);
    EXPECT_EQ(f.size, 60u);
    // The same header with the frame long enough for it and an IPv4 header behind: parsed.
    EXPECT_TRUE(f.Parse(Frame(FrameInfo::ETHERTYPE_BIER, bier, 14 + 524 + 28)));
    EXPECT_EQ(f.p2mpBytes, 524u);
}

TEST(FrameInfo, FrameEndingInsideItsShimAddressListIsNotParsed)
{
    // Address-list flag and 4 entries announced (16 + 4 x 16 = 80 bytes), in a 64-byte frame.
    std::vector<uint8_t> shim(16, 0);
    shim[0] = 0x11;
    shim[13] = 4;
    FrameInfo f;
    EXPECT_FALSE(f.Parse(Frame(FrameInfo::ETHERTYPE_SHIM, shim, 64)));
    EXPECT_FALSE(f.roce);
}
