#include "wire/model/ack-frame-builder.h"

#include "ns3/ipv4-header.h"
#include "wire/model/aeth-header.h"
#include "wire/model/bth-header.h"
#include "wire/model/cnp-header.h"
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

Mac48Address
AckFrameBuilder::GetSource() const
{
    return m_source;
}

bool
AckFrameBuilder::GetComputeIcrc() const
{
    return m_computeIcrc;
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
    FrameInfo f = Envelope(a, FrameInfo::AETH_BYTES, BthHeader::RC_ACKNOWLEDGE, destQp);
    f.psn = psn24 & 0xFFFFFF;
    f.syndrome = aeth.GetSyndrome();
    f.msn = aeth.GetMsn();
    return f;
}

FabricFrame
AckFrameBuilder::MakeCnp(const RocePacketBuilder::Addressing& a, uint32_t destQp) const
{
    return FabricFrame::Deferred(this, CnpFields(a, destQp));
}

FrameInfo
AckFrameBuilder::CnpFields(const RocePacketBuilder::Addressing& a, uint32_t destQp)
{
    return Envelope(a, CnpHeader::SIZE, BthHeader::CNP, destQp);
}

FrameInfo
AckFrameBuilder::Envelope(const RocePacketBuilder::Addressing& a,
                          uint32_t size,
                          uint8_t opcode,
                          uint32_t destQp)
{
    FrameInfo f;
    f.size = FrameInfo::ETH_BYTES + FrameInfo::IPV4_BYTES + FrameInfo::UDP_BYTES
             + FrameInfo::BTH_BYTES + size + FrameInfo::ICRC_BYTES;
    f.etherType = FrameInfo::ETHERTYPE_IPV4;
    f.dscp = static_cast<uint8_t>(a.priority << 3);
    f.ecn = a.ecnCapable ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT;
    f.protocol = 17;
    f.srcIp = a.srcIp;
    f.dstIp = a.dstIp;
    f.srcPort = a.srcPort;
    f.dstPort = FrameInfo::ROCEV2_UDP_PORT;
    f.roce = true;
    f.opcode = opcode;
    f.destQp = destQp & 0xFFFFFF;
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
    if (info.opcode == BthHeader::CNP)
    {
        Ptr<Packet> p = RocePacketBuilder::Cnp(info.destQp);
        RocePacketBuilder::AddEnvelope(p, a, m_source, FabricAddress::HostMac(info.DstHost()));
        return p;
    }
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
