#include "rdma/model/qp-table.h"

#include "ns3/assert.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QpTable");

void
QpTable::Add(Ptr<QueuePair> qp)
{
    NS_ASSERT_MSG(qp->GetQpn() == NextQpn(), "queue pair numbered out of turn");
    m_created.push_back(m_qps.size());
    m_qps.push_back(qp);
}

uint32_t
QpTable::Reserve()
{
    uint32_t qpn = NextQpn();
    m_qps.push_back(nullptr);
    return qpn;
}

void
QpTable::AddGroupRequester(uint32_t groupQpn, const QueuePair& qp)
{
    NS_LOG_LOGIC("group QPN " << groupQpn << ": requester QP " << qp.GetQpn());
    m_groups[groupQpn] = REQUESTER | IndexOf(qp);
}

void
QpTable::AddGroupReceiver(uint32_t groupQpn, uint32_t index)
{
    NS_LOG_LOGIC("group QPN " << groupQpn << ": receiver " << index);
    m_groups[groupQpn] = index;
}

void
QpTable::Clear()
{
    for (auto& qp : m_qps)
    {
        if (qp)
        {
            qp->Dispose();
        }
    }
    m_qps.clear();
    m_created.clear();
    m_groups.clear();
}

} // namespace ns3
