#include "rdma/model/qp-table.h"

#include "ns3/assert.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QpTable");

void
QpTable::SetStandIn()
{
    NS_ASSERT_MSG(m_numbered == 0, "a table becomes a stand-in before it numbers anything");
    m_standIn = true;
}

void
QpTable::Add(Ptr<QueuePair> qp)
{
    NS_ASSERT_MSG(qp->GetQpn() == NextQpn(), "queue pair numbered out of turn");
    ++m_numbered;
    if (m_standIn)
    {
        m_standInQps.push_back(qp);
        return;
    }
    m_created.push_back(m_qps.size());
    m_qps.push_back(qp);
}

uint32_t
QpTable::Reserve()
{
    uint32_t qpn = NextQpn();
    ++m_numbered;
    if (!m_standIn)
    {
        m_qps.push_back(nullptr);
    }
    return qpn;
}

void
QpTable::AddGroupRequester(uint32_t groupQpn, const QueuePair& qp)
{
    if (m_standIn)
    {
        return; // nothing reaches a stand-in's groups
    }
    NS_LOG_LOGIC("group QPN " << groupQpn << ": requester QP " << qp.GetQpn());
    m_groups[groupQpn] = REQUESTER | IndexOf(qp);
}

void
QpTable::AddGroupReceiver(uint32_t groupQpn, uint32_t index)
{
    NS_ASSERT_MSG(!m_standIn, "a stand-in has no receivers");
    NS_LOG_LOGIC("group QPN " << groupQpn << ": receiver " << index);
    m_groups[groupQpn] = index;
}

void
QpTable::Clear()
{
    for (auto* list : {&m_qps, &m_standInQps})
    {
        for (auto& qp : *list)
        {
            if (qp)
            {
                qp->Dispose();
            }
        }
        list->clear();
    }
    m_created.clear();
    m_numbered = 0;
    m_groups.clear();
}

} // namespace ns3
