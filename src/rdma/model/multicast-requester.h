/*
 * The P2MP part of a requester, made once when a queue pair becomes a P2MP flow's root
 * (QueuePair::SetMulticast): the group it sends to and the encapsulator that adds the
 * mechanism's header, whether its receivers acknowledge at all, where their ACKs may come
 * from, and, without in-network aggregation, the aggregator at its own NIC that reduces every
 * receiver's ACKs, NAKs and CNPs to one. A unicast queue pair has none.
 */
#ifndef MCAST4AI_MULTICAST_REQUESTER_H
#define MCAST4AI_MULTICAST_REQUESTER_H

#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "rdma/model/ack-aggregator.h"
#include "rdma/model/p2mp-encapsulator.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief What a P2MP flow's root does beyond a unicast requester.
 */
class MulticastRequester
{
public:
    /**
     * sender encapsulates its packets to groupQpn; localAgg reduces its receivers' ACKs at its
     * own NIC (null: they arrive aggregated); ackFree: receivers do not acknowledge; flow: its
     * key at aggregators (AckAggregator::FlowKey of its host and QPN).
     */
    MulticastRequester(Ptr<P2mpEncapsulator> sender,
                       uint32_t groupQpn,
                       Ptr<AckAggregator> localAgg,
                       bool ackFree,
                       uint64_t flow);

    Ptr<P2mpEncapsulator> GetEncapsulator() const
    {
        return m_sender;
    }

    uint32_t GetGroupQpn() const
    {
        return m_groupQpn;
    }

    /// Receivers do not acknowledge: a message completes when its last packet is sent.
    bool IsAckFree() const
    {
        return m_ackFree;
    }

    /// ACKs come aggregated from the in-network aggregation point at this address; 0: from
    /// anywhere (QueuePair::SetAckSource).
    void SetAckSource(uint32_t address)
    {
        m_ackSource = address;
    }

    /// An ACK or NAK from srcIp is a forgery: a host cannot speak for the group.
    bool Refuses(uint32_t srcIp) const
    {
        return m_ackSource != 0 && srcIp != m_ackSource;
    }

    /// With its own NIC's aggregation, CNPs are aggregated too (QueuePair::SetAggregateCnps).
    void SetAggregateCnps(bool aggregate)
    {
        m_aggregateCnps = aggregate;
    }

    /// The aggregator at its own NIC, or null.
    AckAggregator* GetLocalAggregator() const
    {
        return PeekPointer(m_localAgg);
    }

    /// A receiver's ACK (nak: a NAK) reduced at its own NIC (GetLocalAggregator non-null).
    AckAggregator::Action ReceiveAck(uint32_t receiverHost, uint32_t psn24, bool nak)
    {
        return m_localAgg->Receive(m_flow, receiverHost, psn24, nak);
    }

    /// Whether a receiver's CNP reaches the rate controller: with CNPs aggregated, at most one
    /// per interval does.
    bool PassesCnp(Time interval);
    /// psn, of a message to target that spans [firstPsn, lastPsn], was built (first: its first
    /// packet): its own aggregator learns of resends and of the message's receivers.
    void Built(uint64_t psn,
               bool first,
               const P2mpEncapsulator::Target& target,
               uint64_t firstPsn,
               uint64_t lastPsn);
    /// The retransmission timer expired: a receiver silent past the timeout may be all that
    /// holds the flow. What its own aggregator concludes (NOTHING without one).
    AckAggregator::Action CheckSilent();

private:
    Ptr<P2mpEncapsulator> m_sender;
    Ptr<AckAggregator> m_localAgg;
    uint64_t m_flow{0};
    uint32_t m_groupQpn{0};
    uint32_t m_ackSource{0}; ///< IPv4 its ACKs must come from; 0: any
    bool m_ackFree{false};
    bool m_aggregateCnps{false};
};

} // namespace ns3

#endif /* MCAST4AI_MULTICAST_REQUESTER_H */
