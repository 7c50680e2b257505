#include "p2mp/model/p2mp-sender.h"

#include "ns3/log.h"
#include "wire/model/roce-packet-builder.h"

#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("P2mpSender");
NS_OBJECT_ENSURE_REGISTERED(P2mpSender);

namespace
{
/// Multicast MACs (01:00:5e:...) tell every switch and capture the frame is not unicast.
Mac48Address
GroupMac(uint32_t id)
{
    uint8_t b[6] = {0x01,
                    0x00,
                    0x5e,
                    static_cast<uint8_t>((id >> 16) & 0x7f),
                    static_cast<uint8_t>(id >> 8),
                    static_cast<uint8_t>(id)};
    Mac48Address mac;
    mac.CopyFrom(b);
    return mac;
}

/// Modelled receiver memory: one region per receiver, keyed by its host index.
constexpr uint64_t RECEIVER_REGION_BASE = 0x7F0000000000ULL;
} // namespace

TypeId
P2mpSender::GetTypeId()
{
    static TypeId tid = TypeId("ns3::P2mpSender")
                            .SetParent<P2mpEncapsulator>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<P2mpSender>();
    return tid;
}

void
P2mpSender::Setup(Mechanism mechanism, uint32_t sourceHost, uint32_t bslBits, uint16_t entropy)
{
    NS_LOG_FUNCTION(this << mechanism << sourceHost << bslBits << entropy);
    m_mechanism = mechanism;
    m_source = sourceHost;
    m_bsl = bslBits;
    m_entropy = entropy;
}

void
P2mpSender::SetAddressList(bool enabled)
{
    NS_LOG_FUNCTION(this << enabled);
    m_addressList = enabled;
}

void
P2mpSender::SetShimFlags(bool ackAggregation, bool ackFree)
{
    NS_LOG_FUNCTION(this << ackAggregation << ackFree);
    m_flagAggregation = ackAggregation;
    m_flagAckFree = ackFree;
}

P2mpSender::Mechanism
P2mpSender::GetMechanism() const
{
    return m_mechanism;
}

void
P2mpSender::Prepare(const Target& target)
{
    if (m_preparedFor == target.receivers && m_preparedGroup == target.groupId)
    {
        return;
    }
    m_preparedFor = target.receivers;
    m_preparedGroup = target.groupId;
    const std::vector<uint32_t>& rx = *target.receivers;
    NS_LOG_LOGIC("host " << m_source << ": headers for " << rx.size() << " receivers, group "
                         << target.groupId);
    if (m_mechanism == BIER)
    {
        // BFR-id = host + 1: host h sits in SI h / BSL at bit h % BSL.
        std::map<uint32_t, BitString> sets;
        for (uint32_t h : rx)
        {
            auto it = sets.try_emplace(h / m_bsl, BitString(m_bsl)).first;
            it->second.Set(h % m_bsl);
        }
        m_bier.clear();
        for (const auto& [si, bits] : sets)
        {
            BierHeader hdr;
            hdr.SetSetIdentifier(static_cast<uint16_t>(si));
            hdr.SetBitString(bits);
            hdr.SetEntropy(m_entropy);
            hdr.SetProto(BierHeader::PROTO_IPV4);
            hdr.SetBfirId(static_cast<uint16_t>(m_source + 1));
            m_bier.push_back(hdr);
        }
    }
    else if (m_mechanism == XPU_LIST)
    {
        std::vector<uint16_t> ids;
        ids.reserve(rx.size());
        for (uint32_t h : rx)
        {
            ids.push_back(static_cast<uint16_t>(h + 1));
        }
        m_xpu = XpuListHeader();
        m_xpu.SetIds(std::move(ids));
        m_xpu.SetEntropy(m_entropy);
        m_xpu.SetBfirId(static_cast<uint16_t>(m_source + 1));
    }
}

uint32_t
P2mpSender::CopiesFor(const Target& target)
{
    Prepare(target);
    return m_mechanism == BIER ? m_bier.size() : 1;
}

void
P2mpSender::Encapsulate(Ptr<Packet> inner,
                        const Target& target,
                        bool first,
                        Mac48Address srcMac,
                        std::vector<Ptr<Packet>>& out)
{
    Prepare(target);
    Mac48Address dst = GroupMac(m_mechanism == NEW_PROTOCOL ? target.groupId : m_source);
    if (m_mechanism == BIER)
    {
        for (std::size_t i = 0; i < m_bier.size(); ++i)
        {
            Ptr<Packet> q = (i + 1 < m_bier.size()) ? inner->Copy() : inner;
            q->AddHeader(m_bier[i]);
            RocePacketBuilder::AddEthernet(q, srcMac, dst, BierHeader::ETHERTYPE);
            out.push_back(q);
        }
        return;
    }
    if (m_mechanism == XPU_LIST)
    {
        inner->AddHeader(m_xpu);
        RocePacketBuilder::AddEthernet(inner, srcMac, dst, XpuListHeader::ETHERTYPE);
        out.push_back(inner);
        return;
    }
    GroupShimHeader shim;
    shim.SetGroupId(target.groupId);
    shim.SetEntropy(m_entropy);
    shim.SetSourceId(static_cast<uint16_t>(m_source));
    shim.SetNextProto(GroupShimHeader::NEXT_PROTO_IPV4);
    shim.SetAckAggregation(m_flagAggregation);
    shim.SetAckFree(m_flagAckFree);
    if (m_addressList && first)
    {
        std::vector<GroupShimHeader::Entry> entries;
        for (uint32_t h : *target.receivers)
        {
            GroupShimHeader::Entry e;
            e.receiverId = static_cast<uint16_t>(h);
            e.rkey = h;
            e.virtualAddress = RECEIVER_REGION_BASE + (static_cast<uint64_t>(h) << 32);
            entries.push_back(e);
        }
        shim.SetAddressList(std::move(entries));
    }
    inner->AddHeader(shim);
    RocePacketBuilder::AddEthernet(inner, srcMac, dst, GroupShimHeader::ETHERTYPE);
    out.push_back(inner);
}

} // namespace ns3
