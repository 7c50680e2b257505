/*
 * RoCEv2 ACK, NAK and CNP frames that carry only their fields until their bytes are read.
 */
#ifndef MCAST4AI_ACK_FRAME_BUILDER_H
#define MCAST4AI_ACK_FRAME_BUILDER_H

#include "ns3/mac48-address.h"
#include "wire/model/fabric-frame.h"
#include "wire/model/frame-builder.h"
#include "wire/model/roce-packet-builder.h"

namespace ns3
{

/**
 * \brief Makes the ACKs and NAKs of one sender (a NIC, or one port of an aggregating
 * switch), and a NIC's CNPs, as deferred frames.
 *
 * An ACK frame is fully described by its FrameInfo and the sender's MAC and ICRC setting:
 * the destination MAC is the destination host's, and everything else is fixed. Make()
 * writes the fields FrameInfo::Parse would read from RocePacketBuilder::AckFrame's bytes;
 * BuildFrame() writes those bytes, for pcap, traces or a drop filter. The builder must
 * outlive the frames it makes.
 */
class AckFrameBuilder : public FrameBuilder
{
public:
    AckFrameBuilder() = default;
    AckFrameBuilder(Mac48Address source, bool computeIcrc);

    /// Source MAC of the frames (read when their bytes are built).
    void SetSource(Mac48Address source);
    /// Real ICRC in the frames' bytes, or zeros.
    void SetComputeIcrc(bool computeIcrc);
    Mac48Address GetSource() const;
    bool GetComputeIcrc() const;

    /**
     * An ACK, or a NAK (PSN sequence error) expecting psn24, with no bytes yet.
     * a.computeIcrc is ignored: the builder's setting applies.
     */
    FabricFrame Make(const RocePacketBuilder::Addressing& a,
                     uint32_t destQp,
                     uint32_t psn24,
                     bool nak,
                     uint32_t msn) const;

    /// The fields of such a frame, as FrameInfo::Parse reads them from its bytes.
    static FrameInfo Fields(const RocePacketBuilder::Addressing& a,
                            uint32_t destQp,
                            uint32_t psn24,
                            bool nak,
                            uint32_t msn);

    /**
     * A CNP (BTH opcode 0x81, BECN, 16 reserved bytes) to destQp, with no bytes yet: a
     * notification point under a 1,000-way incast sends one per flow every interval, and
     * nothing but a pcap or a trace reads them. a.computeIcrc is ignored, as for Make().
     */
    FabricFrame MakeCnp(const RocePacketBuilder::Addressing& a, uint32_t destQp) const;
    /// The fields of such a frame, as FrameInfo::Parse reads them from its bytes.
    static FrameInfo CnpFields(const RocePacketBuilder::Addressing& a, uint32_t destQp);

    Ptr<Packet> BuildFrame(const FrameInfo& info) const override;

private:
    /// The Ethernet/IPv4/UDP/BTH fields every such frame shares.
    static FrameInfo Envelope(const RocePacketBuilder::Addressing& a,
                              uint32_t size,
                              uint8_t opcode,
                              uint32_t destQp);

    Mac48Address m_source;
    bool m_computeIcrc{false};
};

} // namespace ns3

#endif /* MCAST4AI_ACK_FRAME_BUILDER_H */
