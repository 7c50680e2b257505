#include "rdma/model/rdma-egress-arbiter.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaEgressArbiter");

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
            NS_LOG_LOGIC("QP " << qp->GetQpn() << ": class " << +qp->GetPriority()
                               << " paused, keeps its turn");
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
    m_isActive.clear();
}

} // namespace ns3
