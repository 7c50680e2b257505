/*
 * In-band telemetry of the inference-transport draft's path-load awareness: an IOAM
 * pre-allocated trace (RFC 9197 §4.4) behind a 4-octet IOAM header shaped as RFC 9452's (IOAM
 * in NSH): IOAM-Type, the header's length, reserved, next protocol. RoCEv2 has no standard
 * place for IOAM, so it rides in the module's telemetry probes (BTH opcodes RC_PROBE and
 * RC_PROBE_ACK, probe-frame-builder.h), right after the BTH.
 */
#ifndef MCAST4AI_IOAM_TRACE_HEADER_H
#define MCAST4AI_IOAM_TRACE_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief IOAM header + pre-allocated trace option with the module's seven per-hop fields.
 *
 * Wire layout (every field big-endian):
 * \verbatim
   | IOAM-Type = 0 (8) | IOAM HDR Len (8) | Reserved (8)    | Next Protocol = 0 (8) |
   | Namespace-ID (16)                    | NodeLen(5) Flags(4) RemainingLen(7)     |
   | IOAM-Trace-Type (24)                                    | Reserved (8)          |
   | free space: RemainingLen 4-octet words, zero                                    |
   | node data of the latest hop ... node data of the first hop                      |
   \endverbatim
 * HDR Len counts the whole IOAM header in 4-octet words, this first one included. The sender
 * pre-allocates room for a number of hops; each node writes its data just above the free
 * space and lowers RemainingLen by NodeLen, so the first hop's data ends the header (RFC 9197
 * §4.4). A node that finds no room sets the Overflow flag and writes nothing.
 *
 * The sender chooses what each node writes by the trace type, and a node writes the fields of
 * the bits set, in bit order (RFC 9197 §4.4.1). Two types are used:
 *
 * - TRACE_TYPE, bits 0-6 (NodeLen 7 words), in path steering's probes: hop limit and node ID;
 *   ingress and egress interface IDs; reception timestamp, seconds and nanoseconds (PTP
 *   format); transit delay in nanoseconds; namespace-specific data; and the egress queue's
 *   depth in bytes. In the module's namespace the namespace-specific data word is, most
 *   significant first: the egress link's recent utilisation in 1/16384 of its line rate (16
 *   bits), the sharers of the egress queue, the ingress ports whose data left by it lately, the
 *   probe's own counted (8 bits), and the rank of the probe's ingress port among them, 0 for
 *   the lowest-numbered (8 bits).
 * - INT_TRACE_TYPE, bits 3, 4, 6 and 10 (NodeLen 5 words), in the data packets of a
 *   telemetry-driven congestion control (HPCC): the reception timestamp's nanoseconds, the
 *   transit delay, the queue depth, and the wide (8-octet) namespace-specific data, which in
 *   the module's namespace holds the egress port's transmitted bytes (32 bits, counted modulo
 *   2^32, framing included) and its line rate in Mb/s (32 bits). Reception time plus transit
 *   delay is the departure, the moment the byte count and queue depth were read: the per-hop
 *   record HPCC's algorithm takes (Li et al., SIGCOMM 2019, §4.1: ts, txBytes, qLen, B).
 */
class IoamTraceHeader : public Header
{
public:
    /// IOAM-Trace-Type bits (bit 0 is the most significant of the 24) this header reads and
    /// writes: 0 hop limit and node ID, 1 interface IDs, 2 and 3 the reception timestamp's
    /// seconds and nanoseconds, 4 transit delay, 5 namespace data, 6 queue depth, 10 wide
    /// namespace data (8 octets).
    static constexpr uint32_t BIT_NODE_ID = 0x800000;
    static constexpr uint32_t BIT_INTERFACES = 0x400000;
    static constexpr uint32_t BIT_SECONDS = 0x200000;
    static constexpr uint32_t BIT_NANOSECONDS = 0x100000;
    static constexpr uint32_t BIT_TRANSIT = 0x080000;
    static constexpr uint32_t BIT_NAMESPACE_DATA = 0x040000;
    static constexpr uint32_t BIT_QUEUE_DEPTH = 0x020000;
    static constexpr uint32_t BIT_WIDE_NAMESPACE_DATA = 0x002000;
    static constexpr uint32_t SUPPORTED_BITS = 0xFE2000;
    /// Path steering's probes: bits 0 to 6.
    static constexpr uint32_t TRACE_TYPE = 0xFE0000;
    /// 4-octet words each hop writes under TRACE_TYPE.
    static constexpr uint32_t NODE_WORDS = 7;
    /// Telemetry for congestion control: bits 3, 4, 6 and 10 (see above).
    static constexpr uint32_t INT_TRACE_TYPE
        = BIT_NANOSECONDS | BIT_TRANSIT | BIT_QUEUE_DEPTH | BIT_WIDE_NAMESPACE_DATA;
    /// RemainingLen is 7 bits: at most this many words of node data fit.
    static constexpr uint32_t MAX_DATA_WORDS = 127;
    /// Bytes before the node data: the IOAM header word and the trace option's two.
    static constexpr uint32_t FIXED_BYTES = 12;
    /// Trace flags (4 bits; bit 0, the most significant, first): RFC 9197's Overflow, RFC
    /// 9322's Loopback and Active (the packet is an active measurement probe).
    static constexpr uint8_t FLAG_OVERFLOW = 0x8;
    static constexpr uint8_t FLAG_LOOPBACK = 0x4;
    static constexpr uint8_t FLAG_ACTIVE = 0x2;
    /// Utilisation of 1.0 in the namespace data's utilisation bits (the most it holds is
    /// just under 4).
    static constexpr uint32_t UTILISATION_ONE = 1u << 14;
    /// The most sharers, and the highest rank, the namespace data's 8-bit fields hold.
    static constexpr uint8_t SHARERS_MAX = 0xFF;
    /// Transit delay's most significant bit: the delay did not fit (RFC 9197 §4.4.2.5).
    static constexpr uint32_t TRANSIT_OVERFLOW = 0x80000000;

    /// One hop's data.
    struct NodeData
    {
        uint8_t hopLimit{0};
        uint32_t nodeId{0}; ///< 24 bits
        uint16_t ingressIf{0};
        uint16_t egressIf{0};
        uint32_t seconds{0};     ///< reception time, PTP seconds
        uint32_t nanoseconds{0}; ///< and nanoseconds
        uint32_t transitDelayNs{0};
        uint16_t utilisation{0}; ///< namespace data: UTILISATION_ONE = line rate
        uint8_t sharers{0};      ///< namespace data: ingress ports feeding the egress queue
        uint8_t rank{0};         ///< namespace data: the probe's ingress port among them
        uint32_t queueDepthBytes{0};
        uint32_t txBytes{0};      ///< wide namespace data: egress bytes sent, modulo 2^32
        uint32_t linkRateMbps{0}; ///< wide namespace data: the egress line rate

        bool operator==(const NodeData& o) const;
    };

    /// A trace with room for nothing (see Allocate).
    IoamTraceHeader();

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// 4-octet words a node writes under traceType (0 if it has a bit this header lacks).
    static uint32_t NodeWords(uint32_t traceType);
    /// Bytes a trace of traceType pre-allocated for this many hops takes on the wire.
    static uint32_t SizeFor(uint32_t hops, uint32_t traceType = TRACE_TYPE);
    /// Pre-allocate room for hops nodes of traceType (capped at MAX_DATA_WORDS); clears any
    /// node data.
    void Allocate(uint32_t hops, uint32_t traceType = TRACE_TYPE);
    /// Bytes the header announces (HDR Len) before it is read whole: data[0..3] are its
    /// first word. 0 if that word is not an IOAM pre-allocated trace's.
    static uint32_t AnnouncedBytes(const uint8_t* firstWord);

    void SetNamespaceId(uint16_t id);
    uint16_t GetNamespaceId() const;
    void SetFlags(uint8_t flags);
    uint8_t GetFlags() const;
    uint32_t GetRemainingWords() const;
    uint32_t GetTraceType() const;

    /**
     * A transit node's data, written into the free space.
     * \return false if it did not fit: the Overflow flag is set instead
     */
    bool AddNode(const NodeData& node);
    /// The nodes' data in path order (first hop first).
    const std::vector<NodeData>& GetNodes() const;

    /**
     * Whether the bytes read were a trace this module can interpret: IOAM-Type 0, a trace
     * type of SUPPORTED_BITS with its NodeLen, a RemainingLen inside the allocated space and whole
     * nodes in the rest. A trace that is not is kept as it came but reports no nodes.
     */
    bool IsWellFormed() const;

private:
    uint16_t m_namespaceId{0};
    uint8_t m_flags{0};
    uint32_t m_dataWords{0};      ///< the pre-allocated node data space
    uint32_t m_remainingWords{0}; ///< of it, still free
    uint32_t m_traceType{TRACE_TYPE};
    uint32_t m_nodeLen{NODE_WORDS};
    bool m_wellFormed{true};
    std::vector<NodeData> m_nodes;
    std::vector<uint32_t> m_opaque; ///< the data words of a trace that is not well formed
};

} // namespace ns3

#endif /* MCAST4AI_IOAM_TRACE_HEADER_H */
