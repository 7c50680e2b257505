#include "rdma/model/group-responder-set.h"

#include "core/model/ns3-compat.h"
#include "core/model/quad-heap-scheduler.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "rdma/model/rdma-nic.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GroupResponderSet");

void
GroupResponderSet::Setup(RdmaNic* nic)
{
    m_nic = nic;
}

uint32_t
GroupResponderSet::Add(const RcResponder::Peer& peer,
                       uint32_t qpn,
                       uint32_t ackEvery,
                       bool silent,
                       uint8_t maxRetransmissions,
                       ReceiveCallback receive)
{
    NS_LOG_LOGIC("host " << m_nic->GetHost() << " QP " << qpn << ": receiver of host " << peer.host
                         << "'s group QP " << peer.qpn);
    Responder& r = m_responders.emplace_back();
    r.rx.SetAckEvery(m_nic->GetAckEvery());
    r.rx.SetMulticast(ackEvery, silent);
    r.rx.SetMaxRetransmissions(maxRetransmissions);
    r.rx.WatchTails(m_nic->IsReorderTolerant());
    r.peer = peer;
    r.qpn = qpn;
    r.receive = receive;
    return m_responders.size() - 1;
}

void
GroupResponderSet::SetMaxRetransmissions(uint32_t index, uint8_t maxRetransmissions)
{
    m_responders[index].rx.SetMaxRetransmissions(maxRetransmissions);
}

uint64_t
GroupResponderSet::GetReceivedPackets(uint32_t index) const
{
    return m_responders[index].rx.GetExpected();
}

void
GroupResponderSet::Deliver(Responder& r, uint64_t msn, uint64_t bytes, uint64_t lastPsn)
{
    if (!r.receive.IsNull())
    {
        r.receive(m_nic->GetHost(), msn, bytes, lastPsn);
    }
}

void
GroupResponderSet::Receive(uint32_t index, const FrameInfo& fi)
{
    Responder& r = m_responders[index];
    r.rx.Receive(m_nic,
                 r.peer,
                 r.qpn,
                 fi,
                 [this, &r](uint64_t msn, uint64_t bytes, uint64_t lastPsn)
                 {
                     Deliver(r, msn, bytes, lastPsn);
                 });
    if (m_nic->HasGroupReorderTimer())
    {
        ArmCheck(index);
    }
}

void
GroupResponderSet::ArmCheck(uint32_t index)
{
    Responder& r = m_responders[index];
    Time due = r.rx.NextHoleCheck(m_nic);
    if (due >= r.checkDue)
    {
        return; // owes nothing, or its queued look comes first and will queue the next
    }
    r.checkDue = due;
    m_checks.push(Check{due, index});
    ScheduleChecks();
}

void
GroupResponderSet::ScheduleChecks()
{
    if (m_checks.empty())
    {
        return;
    }
    Time due = m_checks.top().due;
    if (IsPending(m_checkEvent) && m_checkAt <= due)
    {
        return;
    }
    m_checkEvent.Cancel();
    Time now = Simulator::Now();
    m_checkAt = std::max(due, now);
    QuadHeapScheduler::SetNextLane(m_nic->GetTimerLane());
    m_checkEvent = Simulator::Schedule(m_checkAt - now, &GroupResponderSet::ChecksDue, this);
}

void
GroupResponderSet::ChecksDue()
{
    Time now = Simulator::Now();
    while (!m_checks.empty() && m_checks.top().due <= now)
    {
        const Check c = m_checks.top();
        m_checks.pop();
        Responder& r = m_responders[c.index];
        if (c.due != r.checkDue)
        {
            continue; // superseded by an earlier look
        }
        r.checkDue = Time::Max();
        NS_LOG_LOGIC("host " << m_nic->GetHost() << " QP " << r.qpn << ": group hole/tail check");
        r.rx.CheckHoleNow(m_nic,
                          r.peer,
                          r.qpn,
                          [this, &r](uint64_t msn, uint64_t bytes, uint64_t lastPsn)
                          {
                              Deliver(r, msn, bytes, lastPsn);
                          });
        // Progress since it was queued moves its next look later (a lazy re-arm, as the
        // requesters' retransmission timers do).
        ArmCheck(c.index);
    }
    ScheduleChecks();
}

void
GroupResponderSet::Clear()
{
    m_responders.clear();
    m_checks = decltype(m_checks)();
    m_checkEvent.Cancel();
}

} // namespace ns3
