#include "wire/model/roce-packet-builder.h"

#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/udp-header.h"
#include "wire/model/aeth-header.h"
#include "wire/model/bth-header.h"
#include "wire/model/cnp-header.h"
#include "wire/model/composite-header.h"
#include "wire/model/frame-info.h"
#include "wire/model/icrc-trailer.h"

#include <initializer_list>
#include <vector>

namespace ns3
{

namespace
{
/// UDP to port 4791 and IPv4 around udpPayload bytes (BTH to ICRC).
void
FillUdpIp(UdpHeader& udp,
          Ipv4Header& ip,
          const RocePacketBuilder::Addressing& a,
          uint32_t udpPayload)
{
    udp.SetSourcePort(a.srcPort);
    udp.SetDestinationPort(FrameInfo::ROCEV2_UDP_PORT);
    // Inside a composite the iterator sees the whole frame: give UDP its own length.
    udp.ForcePayloadSize(static_cast<uint16_t>(udpPayload + FrameInfo::UDP_BYTES));
    ip.SetSource(Ipv4Address(a.srcIp));
    ip.SetDestination(Ipv4Address(a.dstIp));
    ip.SetProtocol(17);
    ip.SetPayloadSize(udpPayload + FrameInfo::UDP_BYTES);
    ip.SetTtl(64);
    ip.SetDontFragment();
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(a.priority << 3));
    ip.SetEcn(a.ecnCapable ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT);
    ip.EnableChecksum();
}

EthernetHeader
MakeEthernet(Mac48Address src, Mac48Address dst, uint16_t etherType)
{
    EthernetHeader eth(false);
    eth.SetSource(src);
    eth.SetDestination(dst);
    eth.SetLengthType(etherType);
    return eth;
}

/// Replace the zero ICRC at the end of p by the CRC over the IPv4 packet starting at ipOffset.
void
StampIcrc(Ptr<Packet> p, uint32_t ipOffset)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    IcrcTrailer icrc;
    p->RemoveTrailer(icrc);
    icrc.SetIcrc(IcrcTrailer::Compute(bytes.data() + ipOffset,
                                      bytes.size() - ipOffset - FrameInfo::ICRC_BYTES));
    p->AddTrailer(icrc);
}

/**
 * Wrap p in [eth] | IPv4 | UDP | inner... and the ICRC trailer, written as one composite so the
 * buffer grows once. The trailer goes first: UDP and IPv4 lengths cover it.
 */
void
Wrap(Ptr<Packet> p,
     const RocePacketBuilder::Addressing& a,
     const EthernetHeader* eth,
     std::initializer_list<const Header*> inner)
{
    p->AddTrailer(IcrcTrailer());
    uint32_t udpPayload = p->GetSize();
    for (const Header* h : inner)
    {
        udpPayload += h->GetSerializedSize();
    }
    UdpHeader udp;
    Ipv4Header ip;
    FillUdpIp(udp, ip, a, udpPayload);
    CompositeHeader frame;
    if (eth)
    {
        frame.Append(*eth);
    }
    frame.Append(ip);
    frame.Append(udp);
    for (const Header* h : inner)
    {
        frame.Append(*h);
    }
    p->AddHeader(frame);
    if (a.computeIcrc)
    {
        StampIcrc(p, eth ? FrameInfo::ETH_BYTES : 0);
    }
}
} // namespace

AethHeader
RocePacketBuilder::AckAeth(bool nak, uint32_t msn)
{
    AethHeader aeth;
    if (nak)
    {
        aeth.SetNak(AethHeader::PSN_SEQUENCE_ERROR);
    }
    else
    {
        aeth.SetAck();
    }
    aeth.SetMsn(msn);
    return aeth;
}

Ptr<Packet>
RocePacketBuilder::AckFrame(const Addressing& a,
                            Mac48Address src,
                            Mac48Address dst,
                            uint32_t destQp,
                            uint32_t psn24,
                            bool nak,
                            uint32_t msn,
                            const Header* echo)
{
    BthHeader bth;
    bth.SetOpcode(BthHeader::RC_ACKNOWLEDGE);
    bth.SetDestQp(destQp);
    bth.SetPsn(psn24);
    bth.SetTelemetry(echo != nullptr);
    AethHeader aeth = AckAeth(nak, msn);
    EthernetHeader eth = MakeEthernet(src, dst, FrameInfo::ETHERTYPE_IPV4);
    Ptr<Packet> p = Create<Packet>();
    if (echo)
    {
        Wrap(p, a, &eth, {&bth, echo, &aeth});
    }
    else
    {
        Wrap(p, a, &eth, {&bth, &aeth});
    }
    return p;
}

Ptr<Packet>
RocePacketBuilder::Cnp(uint32_t destQp)
{
    CnpHeader cnp;
    BthHeader bth;
    bth.SetOpcode(BthHeader::CNP);
    bth.SetBecn(true);
    bth.SetDestQp(destQp);
    CompositeHeader packet;
    packet.Append(bth);
    packet.Append(cnp);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(packet);
    return p;
}

void
RocePacketBuilder::AddUdpIp(Ptr<Packet> p, const Addressing& a)
{
    Wrap(p, a, nullptr, {});
}

void
RocePacketBuilder::AddEnvelope(Ptr<Packet> p,
                               const Addressing& a,
                               Mac48Address src,
                               Mac48Address dst)
{
    EthernetHeader eth = MakeEthernet(src, dst, FrameInfo::ETHERTYPE_IPV4);
    Wrap(p, a, &eth, {});
}

void
RocePacketBuilder::AddEthernet(Ptr<Packet> p,
                               Mac48Address src,
                               Mac48Address dst,
                               uint16_t etherType)
{
    p->AddHeader(MakeEthernet(src, dst, etherType));
}

} // namespace ns3
