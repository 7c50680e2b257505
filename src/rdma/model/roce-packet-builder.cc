#include "rdma/model/roce-packet-builder.h"

#include "fabric/model/frame-info.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/udp-header.h"
#include "rdma/model/aeth-header.h"
#include "rdma/model/bth-header.h"
#include "rdma/model/cnp-header.h"
#include "rdma/model/icrc-trailer.h"

#include <vector>

namespace ns3
{

Ptr<Packet>
RocePacketBuilder::Ack(uint32_t destQp, uint32_t psn24, bool nak, uint32_t msn)
{
    Ptr<Packet> p = Create<Packet>();
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
    p->AddHeader(aeth);
    BthHeader bth;
    bth.SetOpcode(BthHeader::RC_ACKNOWLEDGE);
    bth.SetDestQp(destQp);
    bth.SetPsn(psn24);
    p->AddHeader(bth);
    return p;
}

Ptr<Packet>
RocePacketBuilder::Cnp(uint32_t destQp)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(CnpHeader());
    BthHeader bth;
    bth.SetOpcode(BthHeader::CNP);
    bth.SetBecn(true);
    bth.SetDestQp(destQp);
    p->AddHeader(bth);
    return p;
}

void
RocePacketBuilder::AddUdpIp(Ptr<Packet> p, const Addressing& a)
{
    // The trailer goes first: UDP and IPv4 lengths cover it.
    p->AddTrailer(IcrcTrailer());
    UdpHeader udp;
    udp.SetSourcePort(a.srcPort);
    udp.SetDestinationPort(FrameInfo::ROCEV2_UDP_PORT);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address(a.srcIp));
    ip.SetDestination(Ipv4Address(a.dstIp));
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    ip.SetTtl(64);
    ip.SetDontFragment();
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(a.priority << 3));
    ip.SetEcn(a.ecnCapable ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT);
    ip.EnableChecksum();
    p->AddHeader(ip);
    if (a.computeIcrc)
    {
        std::vector<uint8_t> bytes(p->GetSize());
        p->CopyData(bytes.data(), bytes.size());
        IcrcTrailer icrc;
        p->RemoveTrailer(icrc);
        icrc.SetIcrc(IcrcTrailer::Compute(bytes.data(), bytes.size() - FrameInfo::ICRC_BYTES));
        p->AddTrailer(icrc);
    }
}

void
RocePacketBuilder::AddEthernet(Ptr<Packet> p,
                               Mac48Address src,
                               Mac48Address dst,
                               uint16_t etherType)
{
    EthernetHeader eth(false);
    eth.SetSource(src);
    eth.SetDestination(dst);
    eth.SetLengthType(etherType);
    p->AddHeader(eth);
}

} // namespace ns3
