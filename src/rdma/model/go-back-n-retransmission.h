/*
 * Go-back-N, the classic RoCE NIC's recovery: a NAK names the first PSN its responder is
 * missing (everything after it was dropped there), so the requester takes the PSNs before it as
 * acknowledged and sends everything again from it; so does a timeout, from the oldest
 * unacknowledged PSN.
 */
#ifndef MCAST4AI_GO_BACK_N_RETRANSMISSION_H
#define MCAST4AI_GO_BACK_N_RETRANSMISSION_H

#include "rdma/model/retransmission-policy.h"

namespace ns3
{

/**
 * \brief Go-back-N loss recovery.
 */
class GoBackNRetransmission : public RetransmissionPolicy
{
public:
    /// The one instance every go-back-N queue pair uses.
    static const GoBackNRetransmission& Get();

    void Nak(QueuePair& qp, uint64_t psn) const override;
    void Timeout(QueuePair& qp) const override;

private:
    GoBackNRetransmission();
};

} // namespace ns3

#endif /* MCAST4AI_GO_BACK_N_RETRANSMISSION_H */
