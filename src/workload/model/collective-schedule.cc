#include "workload/model/collective-schedule.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

CollectiveSchedule::CollectiveSchedule(uint32_t ranks)
    : m_ranks(ranks),
      m_inbound(ranks, 0),
      m_outbound(ranks, 0),
      m_sent(ranks, 0)
{
}

uint32_t
CollectiveSchedule::GetRanks() const
{
    return m_ranks;
}

void
CollectiveSchedule::SetPhase(const std::string& name)
{
    if (name.empty())
    {
        m_phase = NO_PHASE;
        return;
    }
    auto it = std::find(m_phases.begin(), m_phases.end(), name);
    if (it == m_phases.end())
    {
        NS_ABORT_MSG_IF(m_phases.size() + 1 >= NO_PHASE, "too many phases");
        it = m_phases.insert(m_phases.end(), name);
    }
    m_phase = static_cast<uint16_t>(it - m_phases.begin());
}

const std::vector<std::string>&
CollectiveSchedule::GetPhases() const
{
    return m_phases;
}

uint32_t
CollectiveSchedule::AddUnicast(uint32_t src, uint32_t dst, uint64_t bytes, uint32_t step)
{
    NS_ABORT_MSG_IF(src >= m_ranks || dst >= m_ranks || src == dst, "bad transfer");
    Transfer t;
    t.src = src;
    t.dst = dst;
    t.bytes = bytes;
    t.step = step;
    t.phase = m_phase;
    m_transfers.push_back(t);
    m_dependents.emplace_back();
    ++m_inbound[dst];
    ++m_outbound[src];
    m_sent[src] += bytes;
    return static_cast<uint32_t>(m_transfers.size() - 1);
}

uint32_t
CollectiveSchedule::AddMulticast(uint32_t src, RankSet receivers, uint64_t bytes, uint32_t step)
{
    NS_ABORT_MSG_IF(src >= m_ranks || !receivers || receivers->empty(), "bad transfer");
    Transfer t;
    t.src = src;
    t.receivers = receivers;
    t.bytes = bytes;
    t.step = step;
    t.phase = m_phase;
    for (uint32_t r : *receivers)
    {
        NS_ABORT_MSG_IF(r >= m_ranks || r == src, "bad receiver");
        ++m_inbound[r];
    }
    m_transfers.push_back(t);
    m_dependents.emplace_back();
    ++m_outbound[src];
    m_sent[src] += bytes;
    return static_cast<uint32_t>(m_transfers.size() - 1);
}

uint32_t
CollectiveSchedule::AddLocal(uint32_t rank, uint64_t delayNs, uint32_t step)
{
    NS_ABORT_MSG_IF(rank >= m_ranks, "bad transfer");
    Transfer t;
    t.src = rank;
    t.dst = rank;
    t.step = step;
    t.local = true;
    t.delayNs = delayNs;
    m_transfers.push_back(t);
    m_dependents.emplace_back();
    ++m_inbound[rank];
    ++m_outbound[rank];
    return static_cast<uint32_t>(m_transfers.size() - 1);
}

void
CollectiveSchedule::SetPlane(uint32_t t, uint16_t plane)
{
    NS_ABORT_MSG_IF(m_transfers.at(t).local, "local work crosses no plane");
    m_transfers[t].plane = plane;
}

void
CollectiveSchedule::AddDependency(uint32_t later, uint32_t first)
{
    // Transfers wait only for earlier ones: the graph is acyclic by construction.
    NS_ABORT_MSG_UNLESS(first < later && later < m_transfers.size(), "bad dependency");
    const Transfer& f = m_transfers.at(first);
    uint32_t at = m_transfers.at(later).src;
    bool arrives = f.receivers ? std::binary_search(f.receivers->begin(), f.receivers->end(), at)
                               : f.dst == at;
    NS_ABORT_MSG_UNLESS(arrives, "a transfer can only wait for data that arrives at its source");
    m_dependents[first].push_back(later);
    ++m_transfers[later].waitsFor;
}

uint32_t
CollectiveSchedule::GetTransferCount() const
{
    return static_cast<uint32_t>(m_transfers.size());
}

const CollectiveSchedule::Transfer&
CollectiveSchedule::GetTransfer(uint32_t t) const
{
    return m_transfers[t];
}

const std::vector<uint32_t>&
CollectiveSchedule::GetDependents(uint32_t t) const
{
    return m_dependents[t];
}

const std::vector<uint32_t>&
CollectiveSchedule::GetInbound() const
{
    return m_inbound;
}

const std::vector<uint32_t>&
CollectiveSchedule::GetOutbound() const
{
    return m_outbound;
}

uint64_t
CollectiveSchedule::GetBytesSent(uint32_t rank) const
{
    return m_sent[rank];
}

uint32_t
CollectiveSchedule::GetDepth() const
{
    // Transfers are added after those they wait for, so one forward pass suffices.
    std::vector<uint32_t> depth(m_transfers.size(), 1);
    uint32_t deepest = 0;
    for (uint32_t t = 0; t < m_transfers.size(); ++t)
    {
        for (uint32_t d : m_dependents[t])
        {
            depth[d] = std::max(depth[d], depth[t] + 1);
        }
        deepest = std::max(deepest, depth[t]);
    }
    return deepest;
}

} // namespace ns3
