#include "fabric/model/hpcc-ecmp-path-choice.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"
#include "wire/model/bth-header.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccEcmpPathChoice");
NS_OBJECT_ENSURE_REGISTERED(HpccEcmpPathChoice);
MCAST4AI_REGISTER_NAMED_TYPE(PathChoice::Registry(), "hpcc-ecmp", HpccEcmpPathChoice);

namespace
{

uint32_t
Rotl(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

/// One 32-bit block mixed before it enters the state.
uint32_t
MixBlock(uint32_t k)
{
    k *= 0xcc9e2d51u;
    k = Rotl(k, 15);
    return k * 0x1b873593u;
}

} // namespace

TypeId
HpccEcmpPathChoice::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HpccEcmpPathChoice")
                            .SetParent<PathChoice>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<HpccEcmpPathChoice>()
                            .AddAttribute("Node",
                                          "The switch's node number in its fabric (hosts first, "
                                          "then switches in the topology's order): the seed",
                                          UintegerValue(0),
                                          MakeUintegerAccessor(&HpccEcmpPathChoice::m_node),
                                          MakeUintegerChecker<uint32_t>());
    return tid;
}

uint32_t
HpccEcmpPathChoice::HostAddress(uint32_t host)
{
    return 0x0b000001u + (host / 256) * 0x10000u + (host % 256) * 0x100u;
}

uint32_t
HpccEcmpPathChoice::Murmur3(const uint8_t* key, std::size_t len, uint32_t seed)
{
    uint32_t h = seed;
    const std::size_t blocks = len / 4;
    for (std::size_t b = 0; b < blocks; ++b)
    {
        const uint8_t* p = key + 4 * b;
        const uint32_t k
            = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
        h ^= MixBlock(k);
        h = Rotl(h, 13);
        h = h * 5 + 0xe6546b64u;
    }
    const uint8_t* tail = key + 4 * blocks;
    uint32_t k = 0;
    for (std::size_t i = len % 4; i > 0; --i)
    {
        k = (k << 8) | tail[i - 1];
    }
    if (len % 4 != 0)
    {
        h ^= MixBlock(k);
    }
    h ^= static_cast<uint32_t>(len);
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

uint32_t
HpccEcmpPathChoice::KeyHash(
    uint32_t srcIp, uint32_t dstIp, uint16_t srcPort, uint16_t dstPort, uint32_t seed)
{
    // HPCC stores three host-order 32-bit words and hashes their bytes on a little-endian
    // machine: written out little-endian here, the same bytes on any machine.
    const uint32_t words[3] = {srcIp, dstIp, uint32_t{srcPort} | uint32_t{dstPort} << 16};
    uint8_t key[12];
    for (uint32_t w = 0; w < 3; ++w)
    {
        for (uint32_t b = 0; b < 4; ++b)
        {
            key[4 * w + b] = static_cast<uint8_t>(words[w] >> (8 * b));
        }
    }
    return Murmur3(key, sizeof(key), seed);
}

uint32_t
HpccEcmpPathChoice::Index(const FrameInfo& fi, uint32_t n) const
{
    // What goes from a flow's receiver back to its sender carries the flow's ports swapped.
    const bool back = fi.roce
                      && (fi.opcode == BthHeader::RC_ACKNOWLEDGE || fi.opcode == BthHeader::CNP
                          || fi.opcode == BthHeader::RC_PROBE_ACK);
    const uint16_t srcPort = back ? DESTINATION_PORT : SOURCE_PORT;
    const uint16_t dstPort = back ? SOURCE_PORT : DESTINATION_PORT;
    return KeyHash(HostAddress(fi.SrcHost()), HostAddress(fi.DstHost()), srcPort, dstPort, m_node)
           % n;
}

bool
HpccEcmpPathChoice::IsPerFlow() const
{
    return true;
}

uint16_t
HpccEcmpPathChoice::Choose(const FrameInfo& fi, const std::vector<uint16_t>& hops)
{
    const uint16_t port = hops[Index(fi, static_cast<uint32_t>(hops.size()))];
    NS_LOG_LOGIC("HPCC's hash: port " << port << " of " << hops.size());
    return port;
}

} // namespace ns3
