/*
 * How a requester recovers what its responder (or a group's aggregation point) says is lost:
 * what a NAK makes it send again and what its retransmission timeout does. Chosen once, when the
 * queue pair is made, from its NIC's receivers (RdmaNic::Reorder, which applies to queue pairs
 * made after it is set): go-back-N (the classic RoCE NIC) or selective repeat (a
 * reorder-tolerant NIC). The responder half follows the NIC's receivers (RcResponder).
 */
#ifndef MCAST4AI_RETRANSMISSION_POLICY_H
#define MCAST4AI_RETRANSMISSION_POLICY_H

#include <cstdint>

namespace ns3
{

class QueuePair;

/**
 * \brief A queue pair's loss recovery. Stateless: one object serves every queue pair.
 */
class RetransmissionPolicy
{
public:
    virtual ~RetransmissionPolicy() = default;

    /// The responder (or the aggregate of a group's) NAKed psn.
    virtual void Nak(QueuePair& qp, uint64_t psn) const = 0;
    /// The retransmission timer expired with data unacknowledged and no progress for a
    /// timeout.
    virtual void Timeout(QueuePair& qp) const = 0;
    /// A cumulative ACK arrived while the queue pair was recovering (IsRecovering).
    virtual void AcknowledgedWhileRecovering(QueuePair& qp) const;

protected:
    RetransmissionPolicy() = default;

    // What a policy may do to a queue pair (QueuePair befriends this class only).

    /// Send everything again from fromPsn.
    static void GoBackTo(QueuePair& qp, uint64_t fromPsn);
    /// Send psn again, alone, before new data.
    static void Resend(QueuePair& qp, uint64_t psn);
    /// Everything up to and including psn arrived.
    static void Acknowledge(QueuePair& qp, uint64_t psn);
    /// Oldest unacknowledged PSN; one past the highest PSN sent.
    static uint64_t Unacked(const QueuePair& qp);
    static uint64_t SentEnd(const QueuePair& qp);
    /// After a timeout: resend at every partial ACK (see SelectiveRetransmission).
    static bool IsRecovering(const QueuePair& qp);
    static void SetRecovering(QueuePair& qp, bool recovering);
};

} // namespace ns3

#endif /* MCAST4AI_RETRANSMISSION_POLICY_H */
