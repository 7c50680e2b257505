#include "rdma/model/go-back-n-retransmission.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GoBackNRetransmission");

GoBackNRetransmission::GoBackNRetransmission() = default;

const GoBackNRetransmission&
GoBackNRetransmission::Get()
{
    static const GoBackNRetransmission policy;
    return policy;
}

void
GoBackNRetransmission::Nak(QueuePair& qp, uint64_t psn) const
{
    const uint64_t una = Unacked(qp);
    if (psn > una && psn <= SentEnd(qp))
    {
        NS_LOG_LOGIC("NAK of PSN " << psn << ": PSNs before it acknowledged");
        Acknowledge(qp, psn - 1);
    }
    GoBackTo(qp, std::max(psn, Unacked(qp)));
}

void
GoBackNRetransmission::Timeout(QueuePair& qp) const
{
    // A tolerant NIC's recovery ends here too when it timed out again (see
    // SelectiveRetransmission); go-back-N is never recovering.
    SetRecovering(qp, false);
    GoBackTo(qp, Unacked(qp));
}

} // namespace ns3
