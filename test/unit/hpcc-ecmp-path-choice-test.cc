/*
 * HpccEcmpPathChoice: its MurmurHash3 against the algorithm's published verification value,
 * HPCC's host addresses, and the key it hashes for a flow's frames in either direction.
 */
#include "fabric/model/hpcc-ecmp-path-choice.h"
#include "ns3/object-factory.h"
#include "ns3/uinteger.h"
#include "wire/model/bth-header.h"

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

uint32_t
HashOf(const std::string& s, uint32_t seed)
{
    return HpccEcmpPathChoice::Murmur3(reinterpret_cast<const uint8_t*>(s.data()), s.size(), seed);
}

/// A RoCEv2 frame from host src to host dst with the given BTH opcode.
FrameInfo
Frame(uint32_t src, uint32_t dst, uint8_t opcode)
{
    FrameInfo f;
    f.etherType = FrameInfo::ETHERTYPE_IPV4;
    f.protocol = 17;
    f.srcIp = FrameInfo::HOST_ADDRESS_BASE + src;
    f.dstIp = FrameInfo::HOST_ADDRESS_BASE + dst;
    f.srcPort = 49999; // this model's entropy port: not what HPCC hashes
    f.dstPort = FrameInfo::ROCEV2_UDP_PORT;
    f.roce = 1;
    f.opcode = opcode;
    return f;
}

Ptr<HpccEcmpPathChoice>
Choice(uint32_t node)
{
    ObjectFactory f;
    f.SetTypeId(HpccEcmpPathChoice::GetTypeId());
    f.Set("Node", UintegerValue(node));
    f.Set("Seed", UintegerValue(12345)); // the scenario's seed plays no part
    return f.Create<HpccEcmpPathChoice>();
}

} // namespace

TEST(HpccEcmpPathChoice, Murmur3MatchesSmhashersVerificationValue)
{
    // SMHasher's VerificationTest: keys {}, {0}, {0, 1}, ..., {0..254} hashed with seeds 256
    // down to 1, their 256 hashes (little-endian) hashed with seed 0. MurmurHash3_x86_32's
    // published value is 0xB0F57EE3.
    std::vector<uint8_t> key(256);
    std::vector<uint8_t> hashes(256 * 4);
    for (uint32_t i = 0; i < 256; ++i)
    {
        key[i] = static_cast<uint8_t>(i);
        const uint32_t h = HpccEcmpPathChoice::Murmur3(key.data(), i, 256 - i);
        for (uint32_t b = 0; b < 4; ++b)
        {
            hashes[4 * i + b] = static_cast<uint8_t>(h >> (8 * b));
        }
    }
    EXPECT_EQ(HpccEcmpPathChoice::Murmur3(hashes.data(), hashes.size(), 0), 0xB0F57EE3u);
    // Commonly quoted vectors: the empty key, a tail of every length.
    EXPECT_EQ(HashOf("", 0), 0u);
    EXPECT_EQ(HashOf("", 1), 0x514E28B7u);
    EXPECT_EQ(HashOf("", 0xFFFFFFFFu), 0x81F16F39u);
    EXPECT_EQ(HashOf("aaaa", 0x9747B28Cu), 0x5A97808Au);
    EXPECT_EQ(HashOf("Hello, world!", 1234), 0xFAF6CDB3u);
    EXPECT_EQ(HashOf("The quick brown fox jumps over the lazy dog", 0), 0x2E4FF723u);
}

TEST(HpccEcmpPathChoice, HostAddressesAreHpccs)
{
    // HPCC's third.cc: 0x0b000001 + (id / 256) * 0x10000 + (id % 256) * 0x100; the peer's
    // result file names host 31 as 0b001f01.
    EXPECT_EQ(HpccEcmpPathChoice::HostAddress(0), 0x0b000001u);
    EXPECT_EQ(HpccEcmpPathChoice::HostAddress(31), 0x0b001f01u);
    EXPECT_EQ(HpccEcmpPathChoice::HostAddress(255), 0x0b00ff01u);
    EXPECT_EQ(HpccEcmpPathChoice::HostAddress(256), 0x0b010001u);
}

TEST(HpccEcmpPathChoice, HashesHpccsKeyWithTheNodeAsSeed)
{
    Ptr<HpccEcmpPathChoice> leaf = Choice(260);
    const uint32_t a = HpccEcmpPathChoice::HostAddress(64);
    const uint32_t b = HpccEcmpPathChoice::HostAddress(192);
    // Data: (sip, dip, 10000 | 100 << 16), whatever this frame's own UDP ports.
    const uint32_t data = HpccEcmpPathChoice::KeyHash(a, b, 10000, 100, 260);
    EXPECT_EQ(leaf->Index(Frame(64, 192, BthHeader::RC_WRITE_MIDDLE), 8), data % 8);
    EXPECT_EQ(leaf->Index(Frame(64, 192, BthHeader::RC_WRITE_FIRST), 7), data % 7);
    // Back from the receiver: HPCC's ACK carries the ports swapped, and so does its CNP.
    const uint32_t back = HpccEcmpPathChoice::KeyHash(b, a, 100, 10000, 260);
    EXPECT_EQ(leaf->Index(Frame(192, 64, BthHeader::RC_ACKNOWLEDGE), 8), back % 8);
    EXPECT_EQ(leaf->Index(Frame(192, 64, BthHeader::CNP), 8), back % 8);
    // Another switch, another seed.
    EXPECT_EQ(Choice(261)->Index(Frame(64, 192, BthHeader::RC_WRITE_MIDDLE), 8),
              HpccEcmpPathChoice::KeyHash(a, b, 10000, 100, 261) % 8);
    EXPECT_TRUE(leaf->IsPerFlow());
}

TEST(HpccEcmpPathChoice, ThePeersPermutationPutsAtMostFiveFlowsOnAnUplink)
{
    // The peer's 256-host fabric (hosts 0..255, leaves 256..271, 8 spines), flows i -> i + 128:
    // HPCC's hash puts 5 flows on three leaf uplinks and no more on any (with 4 at most, a
    // 400G uplink carries its flows at their 100G host rate).
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> uplink;
    for (uint32_t i = 0; i < 256; ++i)
    {
        const uint32_t leaf = 256 + i / 16;
        ++uplink[{leaf, Choice(leaf)->Index(Frame(i, (i + 128) % 256, 0x07), 8)}];
    }
    std::map<uint32_t, uint32_t> uplinksWith;
    for (const auto& [link, flows] : uplink)
    {
        ++uplinksWith[flows];
    }
    EXPECT_EQ(uplinksWith[5], 3u);
    EXPECT_EQ(uplinksWith.rbegin()->first, 5u);
}
