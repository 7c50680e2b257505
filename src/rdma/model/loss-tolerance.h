/*
 * The requester's side of loss-tolerant data (differentiated reliability, the inference-
 * transport draft; partial reliability as in RFC 3758): how often each PSN was named lost, and
 * which it gave up on, so that a PSN skip goes in its place. A queue pair has one only once it
 * is given a loss-tolerant budget (QueuePair::SetMaxRetransmissions); reliable traffic pays
 * nothing for it.
 */
#ifndef MCAST4AI_LOSS_TOLERANCE_H
#define MCAST4AI_LOSS_TOLERANCE_H

#include <cstdint>
#include <unordered_map>

namespace ns3
{

/**
 * \brief Retransmission budgets of a queue pair's loss-tolerant messages.
 */
class LossTolerance
{
public:
    /**
     * psn, of a message that starts at firstPsn with this budget, was named lost (a NAK or the
     * timeout) and is about to be sent again. Returns true when that used its budget up: it
     * is given up on (a skip goes instead), carrying bytes of payload.
     */
    bool NamedLost(uint64_t psn, uint64_t firstPsn, uint8_t budget, uint32_t bytes);

    /// Whether psn (of a message with this budget) was given up on.
    bool IsAbandoned(uint64_t psn, uint8_t budget) const
    {
        if (m_named.empty())
        {
            return false;
        }
        auto it = m_named.find(psn);
        return it != m_named.end() && it->second > budget;
    }

    /// Everything below psn is acknowledged: forget it.
    void AcknowledgedBelow(uint64_t psn);

    /// A skip was sent for a PSN given up on (a lost skip is sent again).
    void SkipSent()
    {
        ++m_skipsSent;
    }

    uint64_t GetAbandonedPackets() const
    {
        return m_abandoned;
    }

    uint64_t GetAbandonedBytes() const
    {
        return m_abandonedBytes;
    }

    uint64_t GetSkipsSent() const
    {
        return m_skipsSent;
    }

private:
    // PSNs named lost: how often. Only loss-tolerant ones, so it stays small; entries go
    // when the PSN is acknowledged.
    std::unordered_map<uint64_t, uint16_t> m_named;
    uint64_t m_abandoned{0};
    uint64_t m_abandonedBytes{0};
    uint64_t m_skipsSent{0};
};

} // namespace ns3

#endif /* MCAST4AI_LOSS_TOLERANCE_H */
