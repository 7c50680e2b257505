/*
 * ECMP as HPCC's ns-3 simulator hashes: the path a flow takes there, so that a run on the same
 * fabric can be compared with a run of that simulator flow by flow.
 */
#ifndef MCAST4AI_HPCC_ECMP_PATH_CHOICE_H
#define MCAST4AI_HPCC_ECMP_PATH_CHOICE_H

#include "fabric/model/path-choice.h"

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \brief Per-flow hashing with the hash, key and seed of HPCC's switch.
 *
 * HPCC's simulator (github.com/alibaba-edu/High-Precision-Congestion-Control at 9f4be2a,
 * simulation/src/point-to-point/model/switch-node.cc, SwitchNode::GetOutDev and EcmpHash)
 * picks next hop (h mod n) in route order, where h is MurmurHash3 (x86, 32-bit) of 12 bytes
 * (source IPv4, destination IPv4, and the UDP source port in the low and the destination port
 * in the high half of the third word) seeded with the switch's ns-3 node number.
 *
 * The key is the one that simulator gives the same flow, not this frame's fields: host h has
 * address 0x0b000001 + (h / 256) * 2^16 + (h % 256) * 2^8 (its scratch/third.cc), the
 * source port is 10000 (third.cc gives a host pair's first flow 10000, its next 10001, ...)
 * and the destination port 100 (the flow files' port in HPCC's examples and in the peer's);
 * frames from a flow's receiver to its sender (ACKs, NAKs, CNPs, probe ACKs) carry the two
 * ports swapped, as HPCC's ACK does. The seed is the switch's node number in this fabric
 * (attribute Node, which the fabric helper sets: hosts first, then switches in the topology's
 * order), which is
 * HPCC's when the topology file numbers the nodes the same way.
 */
class HpccEcmpPathChoice final : public PathChoice
{
public:
    static TypeId GetTypeId();

    /// HPCC's source port of a host pair's first flow.
    static constexpr uint16_t SOURCE_PORT = 10000;
    /// The destination port of the flows in HPCC's flow files.
    static constexpr uint16_t DESTINATION_PORT = 100;

    uint16_t Choose(const FrameInfo& fi, const std::vector<uint16_t>& hops) override;
    bool IsPerFlow() const override;

    /// HPCC's IPv4 address of host h.
    static uint32_t HostAddress(uint32_t host);
    /// MurmurHash3, x86 32-bit variant, of len bytes read little-endian (public domain
    /// algorithm by Austin Appleby).
    static uint32_t Murmur3(const uint8_t* key, std::size_t len, uint32_t seed);
    /// The hash of HPCC's 12-byte key for the given addresses and ports.
    static uint32_t KeyHash(
        uint32_t srcIp, uint32_t dstIp, uint16_t srcPort, uint16_t dstPort, uint32_t seed);
    /// The index among n next hops this switch gives the frame (exposed for tests).
    uint32_t Index(const FrameInfo& fi, uint32_t n) const;

private:
    uint32_t m_node{0}; ///< the switch's node number in its fabric (attribute Node)
};

} // namespace ns3

#endif /* MCAST4AI_HPCC_ECMP_PATH_CHOICE_H */
