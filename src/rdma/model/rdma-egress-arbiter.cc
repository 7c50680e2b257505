#include "rdma/model/rdma-egress-arbiter.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaEgressArbiter");

RdmaEgressArbiter::Choice
RdmaEgressArbiter::Next(uint8_t pausedMask, FabricFrame& frame, const FabricFrame*& hint)
{
    hint = nullptr;
    if (!m_control.empty() && !(pausedMask & (1u << m_ctrlPriority)))
    {
        frame = std::move(m_control.front());
        m_control.pop_front();
        hint = m_control.empty() ? nullptr : &m_control.front();
        return FRAME;
    }
    if (!m_probes.empty() && !(pausedMask & (1u << (m_probes.front().info.dscp >> 3))))
    {
        // Telemetry probes ride their queue pair's class, to see the queues its data sees.
        frame = std::move(m_probes.front());
        m_probes.pop_front();
        return FRAME;
    }
    if ((m_dataClasses & ~pausedMask) == 0)
    {
        NS_LOG_LOGIC("every class with data paused (mask " << +pausedMask << ")");
        return NONE; // every class it sends on is paused
    }
    if (!m_copies.empty())
    {
        if (pausedMask & (1u << m_copiesPriority))
        {
            NS_LOG_LOGIC("the rest of a P2MP packet waits for its class");
            return NONE; // the rest of a P2MP packet goes first, back to back
        }
        frame = std::move(m_copies.front());
        m_copies.pop_front();
        return FRAME;
    }
    return DATA;
}

QueuePair*
RdmaEgressArbiter::NextQp(const std::vector<Ptr<QueuePair>>& qps,
                          uint8_t pausedMask,
                          Time now,
                          Time& earliest)
{
    // Round robin over queue pairs with data; a paced one whose time has not come keeps its
    // place.
    earliest = Time::Max();
    for (std::size_t tries = m_active.size(); tries > 0; --tries)
    {
        uint32_t index = m_active.front();
        m_active.pop_front();
        QueuePair* qp = PeekPointer(qps[index]);
        if (!qp->HasPacketToSend())
        {
            m_isActive[index] = false;
            continue;
        }
        if (pausedMask & (1u << qp->GetPriority()))
        {
            m_active.push_back(index); // its class is paused: it keeps its turn for later
            continue;
        }
        Time ready = qp->GetNextSendTime();
        if (ready > now)
        {
            earliest = std::min(earliest, ready);
            m_active.push_back(index);
            continue;
        }
        return qp;
    }
    return nullptr;
}

void
RdmaEgressArbiter::Served(uint32_t index, bool more)
{
    if (more)
    {
        m_active.push_back(index); // round robin: to the back of the ring
    }
    else
    {
        m_isActive[index] = false;
    }
}

void
RdmaEgressArbiter::Clear()
{
    m_control.clear();
    m_probes.clear();
    m_copies.clear();
    m_active.clear();
}

} // namespace ns3
