/*
 * Selective repeat, for a reorder-tolerant NIC whose responders hold what arrives ahead of a
 * hole: a (selective) NAK names one missing PSN, and only that one is sent again. A timeout
 * resends the oldest unacknowledged PSN and then, at every ACK that does not cover all that was
 * sent (TCP's partial ACKs), the next one, which finds the holes with nothing behind them to NAK
 * for (a lost tail). A second timeout during that recovery sends everything again, as
 * go-back-N does (many holes with nothing behind them: packets dropped past the responder's
 * window); the responder counts what it holds already as duplicates.
 */
#ifndef MCAST4AI_SELECTIVE_RETRANSMISSION_H
#define MCAST4AI_SELECTIVE_RETRANSMISSION_H

#include "rdma/model/retransmission-policy.h"

namespace ns3
{

/**
 * \brief Selective-repeat loss recovery.
 */
class SelectiveRetransmission : public RetransmissionPolicy
{
public:
    /// The one instance every selective queue pair uses.
    static const SelectiveRetransmission& Get();

    void Nak(QueuePair& qp, uint64_t psn) const override;
    void Timeout(QueuePair& qp) const override;
    void AcknowledgedWhileRecovering(QueuePair& qp) const override;

private:
    SelectiveRetransmission();
};

} // namespace ns3

#endif /* MCAST4AI_SELECTIVE_RETRANSMISSION_H */
