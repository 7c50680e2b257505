#include "fabric/model/traffic-ledger.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TrafficLedger);

TypeId
TrafficLedger::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TrafficLedger")
                            .SetParent<Object>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<TrafficLedger>();
    return tid;
}

TrafficLedger::TrafficLedger()
{
}

void
TrafficLedger::SetOpLedger(Ptr<OpLedger> ops)
{
    m_ops = ops;
}

void
TrafficLedger::SetLinkClass(uint32_t link, uint32_t from, uint32_t to)
{
    NS_ABORT_MSG_UNLESS(from < TIERS && to < TIERS, "no tier " << std::max(from, to));
    if (link >= m_linkClass.size())
    {
        m_linkClass.resize(link + 1, 0);
    }
    const uint32_t cls = from * TIERS + to;
    m_linkClass[link] = static_cast<uint8_t>(cls);
    m_classUsed[cls] = true;
}

std::vector<std::pair<uint32_t, uint64_t>>
TrafficLedger::GetAcksByLinkClass() const
{
    std::vector<std::pair<uint32_t, uint64_t>> out;
    for (uint32_t cls = 0; cls < m_acksByClass.size(); ++cls)
    {
        if (m_classUsed[cls])
        {
            out.emplace_back(cls, m_acksByClass[cls]);
        }
    }
    return out;
}

void
TrafficLedger::Pack(PackedBytes& out) const
{
    out.Put(m_rows);
    out.Put(m_acksByClass);
}

void
TrafficLedger::MergeFrom(PackedBytes& in)
{
    const auto rows = in.Take<std::array<Counters, MAX_OWNERS>>();
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        m_rows[i] += rows[i];
    }
    const auto acks = in.Take<std::array<uint64_t, TIERS * TIERS>>();
    for (std::size_t i = 0; i < acks.size(); ++i)
    {
        m_acksByClass[i] += acks[i];
    }
}

void
TrafficLedger::DoDispose()
{
    m_ops = nullptr;
    Object::DoDispose();
}

} // namespace ns3
