/*
 * A reliable-connected queue pair: the requester side segments messages at the path MTU, keeps
 * PSNs, retransmits go-back-N on a NAK or a timeout (or, on a reorder-tolerant NIC, only the
 * PSNs a selective NAK or the timeout names); the responder side checks PSN order,
 * coalesces ACKs and NAKs a gap once.
 */
#ifndef MCAST4AI_QUEUE_PAIR_H
#define MCAST4AI_QUEUE_PAIR_H

#include "core/model/ring-queue.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"
#include "rdma/model/ack-aggregator.h"
#include "rdma/model/loss-tolerance.h"
#include "rdma/model/multicast-requester.h"
#include "rdma/model/p2mp-encapsulator.h"
#include "rdma/model/path-steering.h"
#include "rdma/model/rc-responder.h"
#include "rdma/model/rdma-congestion-control.h"
#include "rdma/model/rdma-operation.h"
#include "rdma/model/retransmission-policy.h"
#include "wire/model/frame-info.h"

#include <deque>
#include <memory>

namespace ns3
{

class RdmaNic;

/**
 * \brief RC queue pair (both the requester and the responder half).
 */
class QueuePair : public Object, private RdmaCongestionControl::PacingListener
{
public:
    static TypeId GetTypeId();
    QueuePair();

    /// Messages with this retransmission budget recover every loss (the RC default).
    static constexpr uint8_t RELIABLE = 0xFF;

    /// A message as posted by the workload.
    struct Message
    {
        uint64_t id{0};
        RdmaOperation op{RdmaOperation::WRITE};
        uint64_t bytes{0};
        uint64_t firstPsn{0};
        uint64_t packets{0};
        Time posted;
        P2mpEncapsulator::Target target; ///< receivers of a P2MP message (empty for unicast)
        uint32_t tag{0};  ///< the operation its frames count toward (FrameInfo::op), 0 for none
        uint16_t port{0}; ///< UDP source port of all its packets (chosen when it first goes)
        Time firstSent;   ///< steering: when its first packet was first sent
        Time lastSent;    ///< steering: when its last packet was first sent
        uint32_t cnps{0}; ///< steering: the QP's CNP count when its first packet went
        /// Loss-tolerant: how often a lost PSN of it is sent again before it is given up on
        /// (a PSN skip goes instead); RELIABLE: always.
        uint8_t maxRetransmissions{RELIABLE};
    };

    /// Requester completion: the last packet of the message is acknowledged.
    typedef Callback<void, Ptr<QueuePair>, const Message&> CompletionCallback;
    /// Responder completion: the last packet of a message arrived in order
    /// (msn, bytes, the message's last PSN).
    typedef Callback<void, Ptr<QueuePair>, uint64_t, uint64_t, uint64_t> ReceiveCallback;

    void Setup(Ptr<RdmaNic> nic, uint32_t qpn, uint32_t remoteHost, uint16_t srcPort);
    void SetRemoteQpn(uint32_t qpn);
    void SetCompletionCallback(CompletionCallback cb);
    void SetReceiveCallback(ReceiveCallback cb);

    uint32_t GetQpn() const;
    /// The NIC this QP belongs to.
    Ptr<RdmaNic> GetNic() const;
    uint32_t GetRemoteQpn() const;
    uint32_t GetRemoteHost() const;
    uint16_t GetSourcePort() const;
    void SetSourcePort(uint16_t port);
    /// Whose traffic this QP's frames are (FrameInfo::owner, TrafficLedger); 0 for none.
    void SetOwner(uint8_t owner);
    uint8_t GetOwner() const;
    /// The PFC priority (and DSCP class) of its data frames.
    void SetPriority(uint8_t priority);
    uint8_t GetPriority() const
    {
        return m_priority;
    }

    /**
     * Post a message; returns its id. The NIC is told there is something to send. tag names
     * the operation its data frames belong to (FrameInfo::op, OpLedger), 0 for none.
     */
    uint64_t Post(RdmaOperation op, uint64_t bytes, uint32_t tag = 0);
    /// PSN the next posted message will start at.
    uint64_t GetNextPostPsn() const;

    /**
     * Make this a P2MP requester: packets carry groupQpn as destination QP and are
     * encapsulated by sender; ACKs come from every receiver and are aggregated by localAgg
     * when given (no in-network aggregation), else they arrive aggregated already.
     * ackFree: receivers do not acknowledge; a message completes when its last packet is
     * sent (memory-semantics WRITE relying on a lossless fabric).
     */
    void SetMulticast(Ptr<P2mpEncapsulator> sender,
                      uint32_t groupQpn,
                      Ptr<AckAggregator> localAgg,
                      bool ackFree);
    /**
     * ACKs of this P2MP flow come aggregated from one place, the in-network aggregation
     * point at this address: an ACK or NAK from anywhere else is a forgery (a host cannot
     * speak for the group), refused and counted by the NIC. 0: from anywhere.
     */
    void SetAckSource(uint32_t address);
    /// With sender-NIC aggregation CNPs are aggregated too: at most one per CNP interval
    /// reaches the rate controller (without it, every receiver's CNP does). P2MP only.
    void SetAggregateCnps(bool aggregate);
    /// Post one WRITE to a P2MP target (tag as for Post).
    uint64_t PostMulticast(uint64_t bytes,
                           const P2mpEncapsulator::Target& target,
                           uint32_t tag = 0);
    bool IsMulticast() const;
    uint32_t GetGroupQpn() const;
    Ptr<P2mpEncapsulator> GetP2mpEncapsulator() const;
    /// The message the last BuildNextPacket() belonged to, and whether it was its first packet.
    const Message& GetLastBuiltMessage() const;
    bool LastBuiltWasFirst() const;

    /**
     * Messages posted from now on are loss-tolerant (differentiated reliability, the
     * inference-transport draft; partial reliability as in RFC 3758): a PSN the responder or
     * the timeout names as lost is sent again at most n times, then given up on: a PSN skip
     * (SkipHeader) goes instead, and the responder completes the message without its bytes.
     * A message's first packet, which carries its placement (RETH), is always recovered.
     * RELIABLE (the default) recovers every loss.
     */
    void SetMaxRetransmissions(uint8_t n)
    {
        m_maxRetx = n;
        m_rx.SetMaxRetransmissions(n); // both ends of the connection agree on it
        if (n != RELIABLE && !m_loss)
        {
            m_loss = std::make_unique<LossTolerance>();
        }
    }

    /// Endpoint path steering of this QP's source port between messages; null: a fixed port.
    void SetPathSteering(Ptr<PathSteering> steering);
    Ptr<PathSteering> GetPathSteering() const;
    /// UDP source port of the packet BuildNextPacket() built last (its message's port).
    uint16_t GetBuiltPort() const
    {
        return m_builtPort;
    }

    /// Reaction point of this QP's sends (DCQCN, HPCC); null means unpaced, line-rate sending.
    /// Without one set, the NIC's model is made when the QP first posts or is asked for it.
    void SetCongestionControl(Ptr<RdmaCongestionControl> cc);
    Ptr<RdmaCongestionControl> GetCongestionControl();

    // Requester, driven by the NIC.
    bool HasPacketToSend() const;
    /// Earliest time the rate limiter lets the next packet go.
    Time GetNextSendTime() const;
    /// The NIC put a frame of this many wire bytes (framing included) on the port.
    void PacketSent(uint32_t wireBytes);
    /// A CNP for this QP arrived.
    void ReceiveCnp();
    /// BTH (+RETH) + payload of the next PSN; advances the send pointer.
    Ptr<Packet> BuildNextPacket(uint32_t& payloadBytes);
    /// An ACK or NAK; trace: the in-band telemetry of a data packet it echoes, if any (for a
    /// telemetry-driven congestion control).
    void ReceiveAck(const FrameInfo& fi, const IoamTraceHeader* trace = nullptr);

    // Responder, driven by the NIC.
    void ReceiveData(const FrameInfo& fi);

    /**
     * The NIC's reading of its port's paused time for this QP's class when it built this QP's
     * previous packet (or when the QP last got data after having none); stores now's. The
     * difference is the pause this QP's next packet waited through at the NIC.
     */
    Time SwapPauseReading(Time now)
    {
        Time before = m_pauseReading;
        m_pauseReading = now;
        return before;
    }

    uint64_t GetRetransmissions() const;
    /// Loss-tolerant PSNs given up on, their payload bytes, and the PSN skips sent for them
    /// (a skip that is lost is sent again).
    uint64_t GetAbandonedPackets() const
    {
        return m_loss ? m_loss->GetAbandonedPackets() : 0;
    }

    uint64_t GetAbandonedBytes() const
    {
        return m_loss ? m_loss->GetAbandonedBytes() : 0;
    }

    uint64_t GetSkipsSent() const
    {
        return m_loss ? m_loss->GetSkipsSent() : 0;
    }

    uint64_t GetTimeouts() const;
    uint64_t GetOutstandingMessages() const;

    /// The oldest posted message not yet completed, or nullptr.
    const Message* GetOldestMessage() const
    {
        return m_messages.empty() ? nullptr : &m_messages.front();
    }

    /// The oldest unacknowledged PSN: it only grows, as the QP's messages are acknowledged.
    uint64_t GetUnackedPsn() const
    {
        return m_sndUna;
    }

    /// One past the highest PSN sent so far.
    uint64_t GetSentPsnEnd() const
    {
        return m_maxSent;
    }

    uint64_t GetPacketsSent() const;
    /// Responder: packets received in order so far (the next expected PSN).
    uint64_t GetReceivedPackets() const;

protected:
    void DoDispose() override;

private:
    uint64_t Enqueue(RdmaOperation op,
                     uint64_t bytes,
                     const P2mpEncapsulator::Target& target,
                     uint32_t tag);
    /// Build the packet of psn, which message messageIndex holds.
    Ptr<Packet> BuildPacket(uint64_t psn, std::size_t messageIndex, uint32_t& payloadBytes);
    /// Steering: the port of message m, chosen when its first packet first goes.
    void SteerMessage(Message& m, bool first, bool last);
    /// The packet of psn: its payload (or, given up on, a skip), RETH, telemetry room, BTH.
    Ptr<Packet> BuildFrame(
        const Message& m, uint64_t psn, uint32_t len, bool first, bool last, bool skip);
    /// What building psn of m changes: the P2MP requester's window, retransmission counts,
    /// the timer (or, without ACKs, the message's end).
    void NoteBuilt(const Message& m, uint64_t psn, bool first, bool last, bool skip);
    /// Index in m_messages of the message holding psn (which must be outstanding).
    std::size_t MessageOf(uint64_t psn) const;
    /// psn was named lost (a NAK or the timeout) and is about to be sent again: count it
    /// against its message's retransmission budget.
    void NamedLost(uint64_t psn);
    /// Whether psn of message m was given up on: a skip goes instead of its data.
    bool IsAbandoned(const Message& m, uint64_t psn) const
    {
        return m_loss && m.maxRetransmissions != RELIABLE
               && m_loss->IsAbandoned(psn, m.maxRetransmissions);
    }
    void Acknowledge(uint64_t ackedPsn);
    /// Resend everything from fromPsn (RetransmissionPolicy).
    void GoBackN(uint64_t fromPsn);
    /// Resend psn alone, before new data (RetransmissionPolicy).
    void Resend(uint64_t psn);
    void ArmTimer();
    void TimerExpired();
    /// Responder: look at an open hole again when it is due (tolerant NIC).
    void ArmHoleTimer();
    void HoleTimerExpired();
    /// Where the responder half's ACKs, NAKs and CNPs go.
    RcResponder::Peer GetPeer() const;
    /// Steering: the next new packet starts a message that will go on another port, and
    /// packets sent on the current one are unacknowledged: it waits for them.
    bool WaitsToRepath() const;
    /// A windowed congestion control (HPCC) has as many bytes unacknowledged as it allows.
    bool WindowFull() const;
    /// The congestion control's rate changed: re-time the gap after the last frame.
    void PacingChanged() override;
    /// Take the NIC's congestion control unless one was set: most QPs of a large fabric only
    /// receive, and their model would cost set-up time and memory for nothing.
    void MakeCongestionControl();

    Ptr<RdmaNic> m_nic;
    uint32_t m_qpn{0};
    uint32_t m_remoteQpn{0};
    uint32_t m_remoteHost{0};
    uint16_t m_srcPort{0};
    uint8_t m_owner{0};
    uint8_t m_priority{3};
    uint32_t m_mtu{1024};
    Time m_rto;

    // Requester
    // Posted, not yet completed. A ring allocates nothing until the first post, where a
    // std::deque takes 576 bytes at construction: most QPs of a large fabric only receive,
    // and most that send hold one message at a time (room for one at first).
    RingQueue<Message, 1> m_messages;
    std::size_t m_buildIndex{0}; // message holding m_sndNxt
    uint64_t m_nextMessageId{0};
    uint64_t m_sndNxt{0};
    uint64_t m_sndUna{0};
    uint64_t m_psnEnd{0};         // one past the last PSN posted
    uint64_t m_maxSent{0};        // one past the highest PSN ever sent
    RingQueue<uint64_t> m_resend; // tolerant NIC: PSNs to resend before new data
    Time m_lastProgress;
    EventId m_timer;
    uint64_t m_retransmissions{0};
    uint8_t m_maxRetx{RELIABLE};
    // Made when it is given a loss-tolerant budget: reliable traffic carries none.
    std::unique_ptr<LossTolerance> m_loss;
    uint64_t m_timeouts{0};
    uint64_t m_packetsSent{0};
    Time m_pauseReading; // SwapPauseReading
    CompletionCallback m_completion;

    Ptr<RdmaCongestionControl> m_cc;
    bool m_ccMade{false}; // m_cc is set (null included) or made
    Ptr<PathSteering> m_steering;
    uint16_t m_builtPort{0};
    Time m_nextSend;
    Time m_lastSent;        ///< when the last frame started (PacingChanged)
    uint32_t m_lastWire{0}; ///< its wire bytes; 0: none yet
    // A P2MP flow's root: its group, encapsulator and ACK handling (SetMulticast); none for
    // unicast.
    std::unique_ptr<MulticastRequester> m_multicast;
    bool m_telemetry{false};  // unicast data carries a trace for the congestion control
    bool m_windowed{false};   // the congestion control bounds the bytes in flight
    uint32_t m_cnps{0};       // CNPs received (path steering's congestion signal)
    bool m_recovering{false}; // after a timeout: the policy acts at every ACK (selective)
    // How it recovers losses, chosen with its NIC's receivers when it is made.
    const RetransmissionPolicy* m_retx{nullptr};
    std::size_t m_lastBuilt{0};
    bool m_lastBuiltFirst{false};

    // Responder
    RcResponder m_rx;
    EventId m_holeTimer;
    ReceiveCallback m_receive;

    TracedCallback<uint64_t, uint64_t> m_completeTrace; // message id, bytes
    TracedCallback<uint64_t> m_retransmitTrace;         // PSN gone back to (or resent)

    friend class RetransmissionPolicy; // recovers through GoBackN, Resend and Acknowledge
};

} // namespace ns3

#endif /* MCAST4AI_QUEUE_PAIR_H */
