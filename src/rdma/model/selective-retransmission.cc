#include "rdma/model/selective-retransmission.h"

#include "ns3/log.h"
#include "rdma/model/go-back-n-retransmission.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SelectiveRetransmission");

SelectiveRetransmission::SelectiveRetransmission() = default;

const SelectiveRetransmission&
SelectiveRetransmission::Get()
{
    static const SelectiveRetransmission policy;
    return policy;
}

void
SelectiveRetransmission::Nak(QueuePair& qp, uint64_t psn) const
{
    // A selective NAK names one missing PSN and says nothing of the others (through an
    // aggregator it is one receiver's hole, not the group's cumulative point).
    Resend(qp, psn);
}

void
SelectiveRetransmission::Timeout(QueuePair& qp) const
{
    if (IsRecovering(qp))
    {
        NS_LOG_LOGIC("timed out while recovering: everything again");
        GoBackNRetransmission::Get().Timeout(qp);
        return;
    }
    SetRecovering(qp, true);
    Resend(qp, Unacked(qp));
}

void
SelectiveRetransmission::AcknowledgedWhileRecovering(QueuePair& qp) const
{
    const bool more = Unacked(qp) < SentEnd(qp);
    SetRecovering(qp, more);
    if (more)
    {
        Resend(qp, Unacked(qp));
    }
}

} // namespace ns3
