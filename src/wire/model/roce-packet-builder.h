/*
 * Builds RoCEv2 frames: the BTH-led RDMA packet wrapped in UDP (destination port 4791) and
 * IPv4, the ICRC trailer, and Ethernet. NICs use it for data, ACKs and CNPs; switches that
 * aggregate ACKs use it to emit theirs. P2MP encapsulations insert their header between
 * IPv4 and Ethernet, so the two steps are separate.
 */
#ifndef MCAST4AI_ROCE_PACKET_BUILDER_H
#define MCAST4AI_ROCE_PACKET_BUILDER_H

#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "wire/model/aeth-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief Stateless RoCEv2 frame assembly.
 */
class RocePacketBuilder
{
public:
    /// Addressing and marking of one RoCEv2 packet.
    struct Addressing
    {
        uint32_t srcIp{0};
        uint32_t dstIp{0};
        uint16_t srcPort{0}; ///< ECMP entropy
        uint8_t priority{0}; ///< carried as DSCP class selector 8 * priority
        bool ecnCapable{false};
        bool computeIcrc{false}; ///< real ICRC (a CRC over the packet) or zeros
    };

    /**
     * A whole unicast ACK, or NAK (PSN sequence error) expecting psn24: Ethernet, IPv4, UDP,
     * BTH (opcode ACKNOWLEDGE), AETH and ICRC, written into the packet in one step. With
     * echo, the ACK carries that IOAM trace between the BTH (telemetry bit set) and the AETH:
     * a telemetry-driven congestion control's data packet's, returned to its sender.
     */
    static Ptr<Packet> AckFrame(const Addressing& a,
                                Mac48Address src,
                                Mac48Address dst,
                                uint32_t destQp,
                                uint32_t psn24,
                                bool nak,
                                uint32_t msn,
                                const Header* echo = nullptr);
    /// The AETH of AckFrame: an ACK, or a NAK with code PSN sequence error.
    static AethHeader AckAeth(bool nak, uint32_t msn);
    /// BTH (opcode CNP, BECN set) + the 16 reserved bytes.
    static Ptr<Packet> Cnp(uint32_t destQp);
    /// Add the ICRC trailer, UDP and IPv4 around a BTH-led packet (P2MP headers go in front).
    static void AddUdpIp(Ptr<Packet> p, const Addressing& a);
    /// Add the ICRC trailer, UDP, IPv4 and Ethernet around a BTH-led packet, in one step.
    static void AddEnvelope(Ptr<Packet> p, const Addressing& a, Mac48Address src, Mac48Address dst);
    /// Add an Ethernet header (no FCS: it is counted as framing on the wire).
    static void AddEthernet(Ptr<Packet> p, Mac48Address src, Mac48Address dst, uint16_t etherType);
};

} // namespace ns3

#endif /* MCAST4AI_ROCE_PACKET_BUILDER_H */
