#include "rdma/model/retransmission-policy.h"

#include "rdma/model/queue-pair.h"

namespace ns3
{

void
RetransmissionPolicy::AcknowledgedWhileRecovering(QueuePair& qp) const
{
    SetRecovering(qp, false);
}

void
RetransmissionPolicy::GoBackTo(QueuePair& qp, uint64_t fromPsn)
{
    qp.GoBackN(fromPsn);
}

void
RetransmissionPolicy::Resend(QueuePair& qp, uint64_t psn)
{
    qp.Resend(psn);
}

void
RetransmissionPolicy::Acknowledge(QueuePair& qp, uint64_t psn)
{
    qp.Acknowledge(psn);
}

uint64_t
RetransmissionPolicy::Unacked(const QueuePair& qp)
{
    return qp.m_sndUna;
}

uint64_t
RetransmissionPolicy::SentEnd(const QueuePair& qp)
{
    return qp.m_maxSent;
}

bool
RetransmissionPolicy::IsRecovering(const QueuePair& qp)
{
    return qp.m_recovering;
}

void
RetransmissionPolicy::SetRecovering(QueuePair& qp, bool recovering)
{
    qp.m_recovering = recovering;
}

} // namespace ns3
