/*
 * RoCEv2 CNP frames that carry only their fields until their bytes are read.
 */
#ifndef MCAST4AI_CNP_FRAME_BUILDER_H
#define MCAST4AI_CNP_FRAME_BUILDER_H

#include "ns3/mac48-address.h"
#include "wire/model/fabric-frame.h"
#include "wire/model/frame-builder.h"
#include "wire/model/roce-packet-builder.h"

namespace ns3
{

/**
 * \brief Makes the CNPs of one NIC as deferred frames.
 *
 * A notification point under a 1,000-way incast sends a CNP per flow every interval, and
 * nothing reads their bytes but a pcap or a trace: as AckFrameBuilder does for ACKs, Make()
 * writes the fields FrameInfo::Parse would read from RocePacketBuilder::Cnp's frame, and
 * BuildFrame() writes the bytes when asked. The builder must outlive the frames it makes.
 */
class CnpFrameBuilder : public FrameBuilder
{
public:
    CnpFrameBuilder() = default;
    CnpFrameBuilder(Mac48Address source, bool computeIcrc);

    /// Source MAC of the frames (read when their bytes are built).
    void SetSource(Mac48Address source);
    /// Real ICRC in the frames' bytes, or zeros.
    void SetComputeIcrc(bool computeIcrc);

    /// A CNP to destQp, with no bytes yet. a.computeIcrc is ignored: the builder's applies.
    FabricFrame Make(const RocePacketBuilder::Addressing& a, uint32_t destQp) const;

    /// The fields of such a frame, as FrameInfo::Parse reads them from its bytes.
    static FrameInfo Fields(const RocePacketBuilder::Addressing& a, uint32_t destQp);

    Ptr<Packet> BuildFrame(const FrameInfo& info) const override;

private:
    Mac48Address m_source;
    bool m_computeIcrc{false};
};

} // namespace ns3

#endif /* MCAST4AI_CNP_FRAME_BUILDER_H */
