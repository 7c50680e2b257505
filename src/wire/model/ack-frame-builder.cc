#include "wire/model/ack-frame-builder.h"

#include "ns3/ipv4-header.h"
#include "wire/model/aeth-header.h"
#include "wire/model/bth-header.h"
#include "wire/model/fabric-address.h"

namespace ns3
{

AckFrameBuilder::AckFrameBuilder(Mac48Address source, bool computeIcrc)
    : m_source(source),
      m_computeIcrc(computeIcrc)
{
}

void
AckFrameBuilder::SetSource(Mac48Address source)
{
    m_source = source;
}

void
AckFrameBuilder::SetComputeIcrc(bool computeIcrc)
{
    m_computeIcrc = computeIcrc;
}

FabricFrame
AckFrameBuilder::Make(const RocePacketBuilder::Addressing& a,
                      uint32_t destQp,
                      uint32_t psn24,
                      bool nak,
                      uint32_t msn) const
{
    return FabricFrame::Deferred(this, Fields(a, destQp, psn24, nak, msn));
}

FrameInfo
AckFrameBuilder::Fields(
    const RocePacketBuilder::Addressing& a, uint32_t destQp, uint32_t psn24, bool nak, uint32_t msn)
{
    AethHeader aeth = RocePacketBuilder::AckAeth(nak, msn);
    FrameInfo f;
    f.size = FrameInfo::ETH_BYTES + FrameInfo::IPV4_BYTES + FrameInfo::UDP_BYTES
             + FrameInfo::BTH_BYTES + FrameInfo::AETH_BYTES + FrameInfo::ICRC_BYTES;
    f.etherType = FrameInfo::ETHERTYPE_IPV4;
    f.dscp = static_cast<uint8_t>(a.priority << 3);
    f.ecn = a.ecnCapable ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT;
    f.protocol = 17;
    f.srcIp = a.srcIp;
    f.dstIp = a.dstIp;
    f.srcPort = a.srcPort;
    f.dstPort = FrameInfo::ROCEV2_UDP_PORT;
    f.roce = true;
    f.opcode = BthHeader::RC_ACKNOWLEDGE;
    f.destQp = destQp & 0xFFFFFF;
    f.psn = psn24 & 0xFFFFFF;
    f.syndrome = aeth.GetSyndrome();
    f.msn = aeth.GetMsn();
    return f;
}

Ptr<Packet>
AckFrameBuilder::BuildFrame(const FrameInfo& info) const
{
    RocePacketBuilder::Addressing a;
    a.srcIp = info.srcIp;
    a.dstIp = info.dstIp;
    a.srcPort = info.srcPort;
    a.priority = static_cast<uint8_t>(info.dscp >> 3);
    a.ecnCapable = info.ecn != Ipv4Header::ECN_NotECT;
    a.computeIcrc = m_computeIcrc;
    AethHeader aeth;
    aeth.SetSyndrome(info.syndrome);
    return RocePacketBuilder::AckFrame(a,
                                       m_source,
                                       FabricAddress::HostMac(info.DstHost()),
                                       info.destQp,
                                       info.psn,
                                       aeth.IsNak(),
                                       info.msn);
}

} // namespace ns3
