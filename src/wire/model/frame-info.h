/*
 * The fields a switch or NIC needs from a frame, read from its first bytes in one copy.
 * Switches only peek at headers; parsing them into ns-3 Header objects at every hop would
 * cost a deserialisation per header per hop.
 */
#ifndef MCAST4AI_FRAME_INFO_H
#define MCAST4AI_FRAME_INFO_H

#include "ns3/packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief Parsed view of an Ethernet / IPv4 / UDP / RoCEv2 BTH frame (or a PFC frame).
 */
class FrameInfo
{
public:
    static constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;
    static constexpr uint16_t ETHERTYPE_MAC_CONTROL = 0x8808;
    static constexpr uint16_t ROCEV2_UDP_PORT = 4791;
    static constexpr uint16_t ETHERTYPE_BIER = 0xAB37; ///< RFC 8296 (and the XPU-ID list)
    static constexpr uint16_t ETHERTYPE_SHIM = 0x88B5; ///< the new protocol's group shim
    static constexpr uint32_t ETH_BYTES = 14;
    static constexpr uint32_t IPV4_BYTES = 20;
    static constexpr uint32_t UDP_BYTES = 8;
    static constexpr uint32_t BTH_BYTES = 12;
    static constexpr uint32_t RETH_BYTES = 16;
    static constexpr uint32_t AETH_BYTES = 4;
    static constexpr uint32_t ICRC_BYTES = 4;
    /// Offset of the BTH in a unicast RoCEv2 frame (a P2MP header shifts it by p2mpBytes).
    static constexpr uint32_t BTH_OFFSET = ETH_BYTES + IPV4_BYTES + UDP_BYTES;
    /// First host address: host h has 10.0.0.0 + h + 1.
    static constexpr uint32_t HOST_ADDRESS_BASE = 0x0A000001;

    /**
     * Fill this view from the packet's leading bytes.
     * \return true if the frame is IPv4 (roce tells whether it is RoCEv2).
     */
    bool Parse(Ptr<const Packet> p);

    /// How the frame is replicated in the fabric, if at all.
    enum P2mpKind : uint8_t
    {
        P2MP_NONE,
        P2MP_BIER,
        P2MP_XPU_LIST,
        P2MP_SHIM
    };

    /// Largest operation tag a frame can carry (FrameInfo::op is 24 bits; 0 is "none").
    static constexpr uint32_t MAX_OP_TAG = (1u << 24) - 1;

    FrameInfo()
        : size(0),
          dscp(0),
          ecn(0),
          p2mpBytes(0),
          traceWords(0),
          destQp(0),
          opcode(0),
          psn(0),
          syndrome(0),
          msn(0),
          padCount(0),
          roce(0),
          ackRequest(0),
          owner(0),
          op(0)
    {
    }

    // Fields are ordered by size, and the 24-bit BTH/AETH fields share their word with a
    // small one, so that a frame and its fields fill one cache line.
    uint32_t size : 24; ///< frame bytes (without preamble, FCS and gap)
    // IPv4 traffic-class byte
    uint32_t dscp : 6;
    uint32_t ecn : 2;
    uint16_t etherType{0};
    // P2MP header between Ethernet and IPv4
    P2mpKind p2mp{P2MP_NONE};
    uint8_t protocol{0};     ///< IPv4
    uint32_t p2mpBytes : 22; ///< length of that header
    /// RoCEv2: 4-octet words of the IOAM trace after the BTH (BTH telemetry bit), else 0
    uint32_t traceWords : 10;
    uint32_t groupId{0}; ///< shim only
    uint32_t entropy{0}; ///< BIER / shim entropy field
    uint32_t srcIp{0};
    uint32_t dstIp{0};
    // UDP
    uint16_t srcPort{0};
    uint16_t dstPort{0};
    // RoCEv2
    uint32_t destQp : 24;
    uint32_t opcode : 8;
    uint32_t psn : 24;
    uint32_t syndrome : 8; // AETH, for ACK/NAK; of a PSN skip, the skipped packet's opcode
    uint32_t msn : 24;     // AETH; of a PSN skip, the skipped payload bytes (SkipHeader)
    uint32_t padCount : 2;
    uint32_t roce : 1;
    uint32_t ackRequest : 1;
    uint32_t dmaLength{0}; // RETH, on WRITE FIRST/ONLY
    /// Not on the wire: the workload (or straggler) whose traffic this is, for per-workload
    /// counters (TrafficLedger); 0 for none. Parse() leaves it and operator== ignores it.
    uint32_t owner : 8;
    /// Not on the wire: the operation (an ops.csv row) a data frame belongs to, for per-
    /// operation counters (OpLedger); 0 for none. Parse() leaves it and operator== ignores it.
    uint32_t op : 24;
    /// Not on the wire: when a switch queued the frame (OpLedger::Units), for the wait of a
    /// frame with an operation, and a telemetry probe's transit delay (TelemetryStage).
    /// Parse() leaves it and operator== ignores it.
    uint32_t queuedAt{0};

    /// Every field equal (a frame's carried fields against a fresh parse).
    bool operator==(const FrameInfo& o) const;

    /// Host index of the destination address.
    uint32_t DstHost() const
    {
        return dstIp - HOST_ADDRESS_BASE;
    }

    /// Host index of the source address.
    uint32_t SrcHost() const
    {
        return srcIp - HOST_ADDRESS_BASE;
    }

    /// RDMA payload bytes of a SEND/WRITE packet (frame minus headers, trace, RETH and ICRC).
    uint32_t PayloadBytes() const;

    /// A message's first packet (SEND/WRITE FIRST or ONLY).
    bool IsFirstPacket() const;
};

} // namespace ns3

#endif /* MCAST4AI_FRAME_INFO_H */
