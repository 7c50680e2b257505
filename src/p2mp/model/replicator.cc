#include "p2mp/model/replicator.h"

#include "ns3/abort.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "topology/model/topology-graph.h"
#include "wire/model/bier-header.h"
#include "wire/model/group-shim-header.h"
#include "wire/model/xpu-list-header.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Replicator");
NS_OBJECT_ENSURE_REGISTERED(Replicator);

TypeId
Replicator::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::Replicator")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<Replicator>()
              .AddAttribute("LookupPerId",
                            "Forwarding lookup time per receiver ID of an XPU-ID list",
                            TimeValue(Seconds(0)),
                            MakeTimeAccessor(&Replicator::m_lookupPerId),
                            MakeTimeChecker(Seconds(0)));
    return tid;
}

void
Replicator::Setup(const TopologyGraph* graph, uint32_t node, uint32_t bslBits)
{
    NS_LOG_FUNCTION(this << node << bslBits);
    m_graph = graph;
    m_node = node;
    m_bsl = bslBits;
    if (bslBits > 0)
    {
        m_bift = Bift::Build(*graph, node, bslBits);
    }
    m_groups = CreateObject<GroupTable>();
}

void
Replicator::Reconverge()
{
    NS_LOG_FUNCTION(this);
    if (m_bsl > 0)
    {
        m_bift = Bift::Build(*m_graph, m_node, m_bsl);
    }
}

Ptr<GroupTable>
Replicator::GetGroupTable() const
{
    return m_groups;
}

void
Replicator::SetSprayChoice(PathChoice* choice)
{
    m_spray = (choice && !choice->IsPerFlow()) ? choice : nullptr;
}

Time
Replicator::Replicate(FabricFrame& frame,
                      uint32_t inPort,
                      std::vector<Copy>& out,
                      std::vector<uint32_t>* receivers)
{
    const FrameInfo& fi = frame.info;
    if (fi.p2mp == FrameInfo::P2MP_SHIM)
    {
        return ReplicateShim(frame, inPort, out, receivers);
    }
    // BIER and the XPU list rewrite the header of every copy.
    Ptr<Packet> p = frame.GetWritablePacket();
    EthernetHeader eth(false);
    p->RemoveHeader(eth);
    if (fi.p2mp == FrameInfo::P2MP_BIER)
    {
        BierHeader hdr;
        p->RemoveHeader(hdr);
        const BitString& bits = hdr.GetBitString();
        if (m_bsl == 0 || bits.Length() != m_bsl || hdr.GetTtl() <= 1)
        {
            ++m_drops; // no BIFT for this BitString length, or the TTL ran out
            NS_LOG_LOGIC("node " << m_node << ": BIER packet dropped (BSL " << bits.Length()
                                 << ", TTL " << +hdr.GetTtl() << ")");
            return Seconds(0);
        }
        uint32_t si = hdr.GetSetIdentifier();
        if (receivers)
        {
            bits.ForEachSet(
                [&](uint32_t k)
                {
                    receivers->push_back(si * m_bsl + k);
                });
        }
        m_bift.Replicate(si, bits.Words().data(), fi.entropy, m_bierCopies, m_spray, &fi);
        hdr.SetTtl(hdr.GetTtl() - 1);
        NS_LOG_LOGIC("node " << m_node << ": BIER SI " << si << ", " << m_bierCopies.size()
                             << " copies");
        for (std::size_t i = 0; i < m_bierCopies.size(); ++i)
        {
            const auto& [port, mask] = m_bierCopies[i];
            Ptr<Packet> c = (i + 1 < m_bierCopies.size()) ? p->Copy() : p;
            hdr.MutableBitString().AssignWords(mask.data());
            c->AddHeader(hdr);
            c->AddHeader(eth);
            out.push_back({port, {c, fi}}); // only the BitString and the TTL differ
        }
        return Seconds(0);
    }
    if (fi.p2mp == FrameInfo::P2MP_XPU_LIST)
    {
        XpuListHeader hdr;
        p->RemoveHeader(hdr);
        if (hdr.GetTtl() <= 1)
        {
            ++m_drops; // the fixed header is BIER's: its TTL guards against loops alike
            NS_LOG_LOGIC("node " << m_node << ": XPU-list packet dropped, TTL ran out");
            return Seconds(0);
        }
        hdr.SetTtl(hdr.GetTtl() - 1);
        const std::vector<uint16_t> ids = hdr.GetIds();
        if (receivers)
        {
            for (uint16_t id : ids)
            {
                receivers->push_back(id - 1u);
            }
        }
        Bift::SplitIds(*m_graph, m_node, ids, fi.entropy, m_idGroups, m_spray, &fi);
        NS_LOG_LOGIC("node " << m_node << ": " << ids.size() << " XPU IDs, " << m_idGroups.size()
                             << " copies");
        for (std::size_t i = 0; i < m_idGroups.size(); ++i)
        {
            Ptr<Packet> c = (i + 1 < m_idGroups.size()) ? p->Copy() : p;
            hdr.SetIds(m_idGroups[i].second); // each copy lists only the receivers behind it
            c->AddHeader(hdr);
            c->AddHeader(eth);
            FabricFrame copy{c, fi};
            copy.info.p2mpBytes = hdr.GetSerializedSize();
            copy.info.size = fi.size - fi.p2mpBytes + copy.info.p2mpBytes;
            out.push_back({m_idGroups[i].first, std::move(copy)});
        }
        return m_lookupPerId * static_cast<int64_t>(ids.size());
    }
    NS_ABORT_MSG("unknown P2MP header kind " << int(fi.p2mp));
    return Seconds(0);
}

Time
Replicator::ReplicateShim(FabricFrame& frame,
                          uint32_t inPort,
                          std::vector<Copy>& out,
                          std::vector<uint32_t>* receivers)
{
    // The new protocol: the controller installed this switch's ports for the group. The shim
    // (its group ID is in the frame's fields) is the same in every copy, so the copies are the
    // arrived frame as it is: they share its packet instead of each holding its own, and
    // whatever changes a copy's bytes later (a CE mark, a replicator) copies it first
    // (FabricFrame::GetWritablePacket).
    const FrameInfo& fi = frame.info;
    const GroupTable::Entry* e = m_groups->Lookup(fi.groupId);
    if (!e)
    {
        // Dropped as the switch got it before: without its Ethernet header and shim.
        Ptr<Packet> p = frame.GetWritablePacket();
        EthernetHeader eth(false);
        GroupShimHeader hdr;
        p->RemoveHeader(eth);
        p->RemoveHeader(hdr);
        ++m_drops;
        NS_LOG_LOGIC("node " << m_node << ": group " << fi.groupId << " not installed: dropped");
        return Seconds(0);
    }
    if (receivers)
    {
        receivers->insert(receivers->end(), e->receivers.begin(), e->receivers.end());
    }
    Ptr<Packet> p = frame.GetPacket();
    for (uint16_t port : e->ports)
    {
        if (port != inPort)
        {
            out.push_back({port, {p, fi}});
        }
    }
    return Seconds(0);
}

uint64_t
Replicator::GetBiftEntries() const
{
    return m_bsl ? m_bift.EntryCount() : 0;
}

uint64_t
Replicator::GetDrops() const
{
    return m_drops;
}

} // namespace ns3
