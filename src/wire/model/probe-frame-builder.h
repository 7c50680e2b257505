/*
 * The telemetry probe of endpoint path steering (the inference-transport draft: "probe or data
 * packets can collect per-hop information along their forwarding path"). A probe is a RoCEv2
 * packet of a queue pair, sent on a candidate UDP source port so that ECMP hashes it onto the
 * path that port's data would take: Ethernet, IPv4, UDP, BTH (opcode RC_PROBE, or
 * RC_PROBE_CLAIM for a probe that also claims the path; the probe's number as PSN), an
 * IoamTraceHeader pre-allocated for the path's hops with the Active flag (RFC 9322: an active
 * measurement packet), ICRC. Switches stamp the trace on the way; the receiving NIC echoes it in
 * the probe's acknowledgement (RC_PROBE_ACK), which no switch stamps.
 */
#ifndef MCAST4AI_PROBE_FRAME_BUILDER_H
#define MCAST4AI_PROBE_FRAME_BUILDER_H

#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "wire/model/frame-info.h"
#include "wire/model/ioam-trace-header.h"
#include "wire/model/roce-packet-builder.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief Builds, reads and stamps telemetry probes and their acknowledgements.
 */
class ProbeFrameBuilder
{
public:
    /// Offset of the IOAM header in a probe (or its acknowledgement): right after the BTH.
    static constexpr uint32_t TRACE_OFFSET = FrameInfo::BTH_OFFSET + FrameInfo::BTH_BYTES;

    /// Frame bytes of a probe pre-allocated for hops nodes (its acknowledgement is as long).
    static uint32_t FrameBytes(uint32_t hops);

    /**
     * A probe to destQp with room for hops nodes' data, numbered probeId (the BTH PSN, 24
     * bits), in namespace namespaceId; claim: one that claims its path (BTH opcode
     * RC_PROBE_CLAIM instead of RC_PROBE).
     */
    static Ptr<Packet> Probe(const RocePacketBuilder::Addressing& a,
                             Mac48Address src,
                             Mac48Address dst,
                             uint32_t destQp,
                             uint32_t probeId,
                             uint16_t namespaceId,
                             uint32_t hops,
                             bool claim = false);
    /// The acknowledgement of probe number probeId, to destQp, echoing trace.
    static Ptr<Packet> Ack(const RocePacketBuilder::Addressing& a,
                           Mac48Address src,
                           Mac48Address dst,
                           uint32_t destQp,
                           uint32_t probeId,
                           const IoamTraceHeader& trace);
    /**
     * Read the trace of a probe or probe acknowledgement frame.
     * \return false if the frame is too short for the trace it announces, or not one
     */
    static bool ReadTrace(Ptr<const Packet> frame, IoamTraceHeader& trace);
    /// What Stamp did to a probe.
    enum StampResult : uint8_t
    {
        STAMPED,  ///< the node's data went in
        OVERFLOW, ///< no room was left: the Overflow flag is set instead
        UNTOUCHED ///< no trace of the node's namespace, or none it can write into
    };

    /**
     * Add node's data to a probe's trace, its Hop_Lim the IPv4 TTL, with the ICRC recomputed
     * if the frame had one (a node that rewrites a packet keeps its checksums right, as a
     * router does the IPv4 checksum). Only a unicast RoCEv2 probe's trace, or a unicast data
     * packet's with the BTH telemetry bit (same place, right after the BTH), of namespaceId,
     * the namespace the node is configured for, is written into (RFC 9197).
     * \param stamped the rewritten frame, unless UNTOUCHED
     */
    static StampResult Stamp(Ptr<const Packet> frame,
                             uint16_t namespaceId,
                             const IoamTraceHeader::NodeData& node,
                             Ptr<Packet>& stamped);
};

} // namespace ns3

#endif /* MCAST4AI_PROBE_FRAME_BUILDER_H */
