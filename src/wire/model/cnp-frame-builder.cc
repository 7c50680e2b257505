#include "wire/model/cnp-frame-builder.h"

#include "ns3/ipv4-header.h"
#include "wire/model/bth-header.h"
#include "wire/model/cnp-header.h"
#include "wire/model/fabric-address.h"

namespace ns3
{

CnpFrameBuilder::CnpFrameBuilder(Mac48Address source, bool computeIcrc)
    : m_source(source),
      m_computeIcrc(computeIcrc)
{
}

void
CnpFrameBuilder::SetSource(Mac48Address source)
{
    m_source = source;
}

void
CnpFrameBuilder::SetComputeIcrc(bool computeIcrc)
{
    m_computeIcrc = computeIcrc;
}

FabricFrame
CnpFrameBuilder::Make(const RocePacketBuilder::Addressing& a, uint32_t destQp) const
{
    return FabricFrame::Deferred(this, Fields(a, destQp));
}

FrameInfo
CnpFrameBuilder::Fields(const RocePacketBuilder::Addressing& a, uint32_t destQp)
{
    FrameInfo f;
    f.size = FrameInfo::ETH_BYTES + FrameInfo::IPV4_BYTES + FrameInfo::UDP_BYTES
             + FrameInfo::BTH_BYTES + CnpHeader::SIZE + FrameInfo::ICRC_BYTES;
    f.etherType = FrameInfo::ETHERTYPE_IPV4;
    f.dscp = static_cast<uint8_t>(a.priority << 3);
    f.ecn = a.ecnCapable ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT;
    f.protocol = 17;
    f.srcIp = a.srcIp;
    f.dstIp = a.dstIp;
    f.srcPort = a.srcPort;
    f.dstPort = FrameInfo::ROCEV2_UDP_PORT;
    f.roce = true;
    f.opcode = BthHeader::CNP;
    f.destQp = destQp & 0xFFFFFF;
    return f;
}

Ptr<Packet>
CnpFrameBuilder::BuildFrame(const FrameInfo& info) const
{
    RocePacketBuilder::Addressing a;
    a.srcIp = info.srcIp;
    a.dstIp = info.dstIp;
    a.srcPort = info.srcPort;
    a.priority = static_cast<uint8_t>(info.dscp >> 3);
    a.ecnCapable = info.ecn != Ipv4Header::ECN_NotECT;
    a.computeIcrc = m_computeIcrc;
    Ptr<Packet> p = RocePacketBuilder::Cnp(info.destQp);
    RocePacketBuilder::AddEnvelope(p, a, m_source, FabricAddress::HostMac(info.DstHost()));
    return p;
}

} // namespace ns3
