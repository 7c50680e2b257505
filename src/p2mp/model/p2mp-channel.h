/*
 * One sender's P2MP channel to a set of ranks, over the scenario's delivery: each message goes
 * to a subset of the ranks, as one multicast message (through an installed group where the
 * mechanism has them, falling back to unicast when it cannot install one) or as one unicast
 * message per receiver. The channel tells its user when a receiver has a message and when the
 * message is done: acknowledged by every receiver, or, ack-free, delivered to the last one.
 */
#ifndef MCAST4AI_P2MP_CHANNEL_H
#define MCAST4AI_P2MP_CHANNEL_H

#include "fabric/model/rank-messenger.h"
#include "ns3/callback.h"
#include "ns3/object.h"
#include "rdma/model/p2mp-encapsulator.h"
#include "rdma/model/queue-pair.h"

#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

class P2mpDelivery;
class GroupController;
class PackedBytes;

/**
 * \brief Messages from one root to subsets of its ranks.
 */
class P2mpChannel : public Object
{
public:
    static TypeId GetTypeId();

    using Receivers = std::shared_ptr<const std::vector<uint32_t>>;
    /// A message is done (tag as given to Send).
    typedef Callback<void, uint64_t> DoneCallback;
    /// A receiver has the whole message (tag, receiver host, the bytes its queue pair or group
    /// responder received).
    typedef Callback<void, uint64_t, uint32_t, uint64_t> DeliveredCallback;

    /// Called by P2mpDelivery::CreateChannel.
    void Setup(Ptr<P2mpDelivery> delivery,
               uint32_t root,
               const std::vector<uint32_t>& ranks,
               uint32_t groupQpn,
               Callback<uint16_t> entropy,
               uint8_t owner,
               uint8_t maxRetransmissions = QueuePair::RELIABLE);
    void SetDoneCallback(DoneCallback cb);
    void SetDeliveredCallback(DeliveredCallback cb);
    /// A receiver was dropped from a message it did not have (tag, receiver host, bytes).
    typedef Callback<void, uint64_t, uint32_t, uint64_t> DroppedCallback;
    void SetDroppedCallback(DroppedCallback cb);

    /**
     * An aggregation point's receiver timeout dropped host (P2mpDelivery): it is out of the
     * set for the rest of the run. Each message in flight it did not have completes without
     * it, its bytes lost to that receiver (the operation's lost_bytes and the dropped
     * callback); later messages leave it out (a reorder-tolerant NIC's flow keeps every rank,
     * and the aggregators skip it). Under P2mpDelivery::FailsOnReceiverTimeout each of those
     * messages' operations is failed as well (OpLedger::Failed).
     */
    void DropReceiver(uint32_t host);
    /// Receivers dropped so far.
    const std::vector<uint32_t>& GetDroppedReceivers() const;

    /**
     * Send bytes to receivers (a subset of the ranks, ascending). tag names the message in
     * the callbacks; tags of messages in flight must differ. opTag names the operation its
     * frames count toward (QueuePair::Post), 0 for none.
     */
    void Send(uint64_t tag, Receivers receivers, uint64_t bytes, uint32_t opTag = 0);

    /// Copies that left the root so far, summed over the packets' messages (per packet).
    double GetCopies() const;
    /// Messages that went as unicast because no group could be installed.
    uint64_t GetMessagesViaUnicast() const;
    bool IsAckFree() const;
    /// The root's P2MP queue pair (null when the delivery is not multicast).
    Ptr<QueuePair> GetMulticastQp() const;
    uint32_t GetGroupQpn() const;

protected:
    void DoDispose() override;

private:
    static constexpr uint32_t NO_GROUP = 0xFFFFFFFF;

    struct Message
    {
        Receivers receivers;
        uint64_t bytes{0};
        uint32_t unicastPending{0};
        uint32_t delivered{0}; ///< receivers that have the whole message
        uint32_t groupId{NO_GROUP};
        uint64_t lastPsn{UINT64_MAX}; ///< on the P2MP QP; none if sent by unicast
        uint32_t opTag{0};
        uint64_t seq{0};      ///< order sent: a receiver has every message up to its last
        uint32_t dropped{0};  ///< receivers dropped before they had it
        uint32_t here{0};     ///< receivers this process simulates (all, in one process)
        bool fromRoot{false}; ///< known from the root's process's message, for receivers only
    };

    void GroupReady(uint64_t tag, uint32_t groupId);
    void SendMulticast(uint64_t tag);
    void SendUnicast(uint64_t tag);
    void Finish(uint64_t tag);
    /// Whether the receiver timeout dropped host from this channel.
    bool IsDropped(uint32_t host) const;
    /// Message tag completes without host (dropped): its bytes lost to it, told to the user.
    void ReportDropped(uint64_t tag, uint32_t host, uint64_t bytes, uint32_t opTag);
    void MulticastDone(Ptr<QueuePair> qp, const QueuePair::Message& done);
    void UnicastDone(uint32_t receiver, Ptr<QueuePair> qp, const QueuePair::Message& done);
    void MulticastReceived(uint32_t receiver, uint64_t msn, uint64_t bytes, uint64_t lastPsn);
    /// Another process's root sent a message to receivers this process simulates.
    void FromRoot(PackedBytes& message);
    void UnicastReceived(
        uint32_t receiver, Ptr<QueuePair> qp, uint64_t msn, uint64_t bytes, uint64_t lastPsn);
    /// The unicast connection to a receiver, created at its first message.
    struct Unicast
    {
        Ptr<QueuePair> qp;
        std::deque<uint64_t> sent;     // messages posted, not yet acknowledged
        std::deque<uint64_t> received; // messages posted, not yet delivered
    };

    Unicast& UnicastTo(uint32_t receiver);

    Ptr<P2mpDelivery> m_delivery;
    Ptr<GroupController> m_controller;
    // A run spread over processes: the root's process tells the receivers' processes which
    // message a last PSN ends (null in one process).
    Ptr<RankMessenger> m_messenger;
    uint32_t m_handler{0};
    uint32_t m_root{0};
    uint32_t m_ranks{0}; // receivers it was set up with
    uint32_t m_mtu{1024};
    bool m_multicast{false};
    bool m_ackFree{false};
    Callback<uint16_t> m_entropy;
    uint8_t m_owner{0};                     // whose traffic its frames are (FrameInfo::owner)
    uint8_t m_maxRetx{QueuePair::RELIABLE}; // RELIABLE: as its owner's queue pairs
    DoneCallback m_done;
    DeliveredCallback m_delivered;
    DroppedCallback m_droppedCb;
    std::vector<uint32_t> m_dropped;                        // receivers out of the set
    std::unordered_map<uint32_t, uint64_t> m_lastDelivered; // receiver -> seq + 1 it has
    uint64_t m_nextSeq{0};

    std::unordered_map<uint64_t, Message> m_msgs;

    Ptr<QueuePair> m_mcastQp;
    uint32_t m_groupQpn{0};
    std::deque<uint64_t> m_mcastOrder;                  // messages on the P2MP QP, in order
    std::unordered_map<uint64_t, uint64_t> m_byLastPsn; // receiver side: last PSN -> message

    // By receiver host, only those sent to by unicast: a channel of a multicast mechanism keeps
    // no state per receiver unless a message falls back.
    std::unordered_map<uint32_t, Unicast> m_uni;

    double m_copies{0};
    uint64_t m_viaUnicast{0};
};

} // namespace ns3

#endif /* MCAST4AI_P2MP_CHANNEL_H */
