#include "wire/model/ecn-rewrite.h"

#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "wire/model/bier-header.h"
#include "wire/model/group-shim-header.h"
#include "wire/model/xpu-list-header.h"

namespace ns3
{

namespace
{

/// Set CE in the IPv4 header at the front of p, keeping everything else.
void
SetCe(Ptr<Packet> p)
{
    Ipv4Header ip;
    p->RemoveHeader(ip);
    ip.SetEcn(Ipv4Header::ECN_CE);
    ip.EnableChecksum();
    p->AddHeader(ip);
}

/// Take header H off the front, mark the IPv4 header behind it, put H back.
template<typename H>
void
SetCeBehind(Ptr<Packet> p)
{
    H h;
    p->RemoveHeader(h);
    SetCe(p);
    p->AddHeader(h);
}

} // namespace

void
RewriteCe(Ptr<Packet> frame, FrameInfo::P2mpKind kind)
{
    EthernetHeader eth(false);
    frame->RemoveHeader(eth);
    switch (kind)
    {
        case FrameInfo::P2MP_BIER:
            SetCeBehind<BierHeader>(frame);
            break;
        case FrameInfo::P2MP_XPU_LIST:
            SetCeBehind<XpuListHeader>(frame);
            break;
        case FrameInfo::P2MP_SHIM:
            SetCeBehind<GroupShimHeader>(frame);
            break;
        default:
            SetCe(frame);
    }
    frame->AddHeader(eth);
}

} // namespace ns3
