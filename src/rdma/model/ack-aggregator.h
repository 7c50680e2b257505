/*
 * ACK aggregation for point-to-multipoint RDMA: collapses the ACKs of many receivers (or of
 * downstream aggregation points) into one RoCEv2 ACK whose PSN is the minimum acknowledged
 * over all of them, forwards NAKs with the minimum expected PSN, and lets at most one CNP per
 * flow through per interval. The same class serves at the sender's NIC, at the source ToR and
 * at every replication point (hop-by-hop); only what a "child" is differs (a receiver host or
 * a downstream port). With validation on it refuses ACKs an attacker could forge in a
 * receiver's name: for PSNs beyond every message announced on the flow, or (checked by the
 * switch, which knows ports) arriving on the wrong port.
 */
#ifndef MCAST4AI_ACK_AGGREGATOR_H
#define MCAST4AI_ACK_AGGREGATOR_H

#include "core/model/mix64.h"
#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \brief Per-flow minimum-PSN aggregation state.
 *
 * Receiver sets may change with every message (MoE dispatch): a child must acknowledge only
 * the messages it is a receiver of. A child that has acknowledged everything asked of it does
 * not hold the aggregate back, and when it joins a later message its expectation jumps to that
 * message's first PSN.
 */
class AckAggregator : public Object
{
public:
    static TypeId GetTypeId();
    AckAggregator();

    /// What to send upstream after an ACK, NAK or CNP arrived.
    struct Action
    {
        enum Kind : uint8_t
        {
            NOTHING,
            ACK, ///< acknowledge everything up to and including psn
            NAK, ///< go back to psn (the minimum expected PSN)
            CNP
        };

        Kind kind{NOTHING};
        uint64_t psn{0};
    };

    /// Why an ACK, NAK or CNP was refused (validation on).
    enum Refusal : uint8_t
    {
        REFUSED_NOT_AWAITED,    ///< from a child not waited on, beyond every message announced
        REFUSED_WRONG_PORT,     ///< came in on a port that does not lead to its source
        REFUSED_OUTSIDE_WINDOW, ///< from a child, beyond every message announced
        REFUSAL_KINDS
    };

    /// Signature of the Refused trace: flow key, child, PSN as on the wire, Refusal.
    typedef void (*RefusedTracedCallback)(uint64_t flow,
                                          uint32_t child,
                                          uint32_t psn24,
                                          uint8_t why);
    /// Signature of the Aggregated trace: flow key, PSN acknowledged upstream.
    typedef void (*AggregatedTracedCallback)(uint64_t flow, uint64_t psn);
    /// Signature of the ReceiverDropped trace: flow key, the receiver host dropped.
    typedef void (*ReceiverDroppedTracedCallback)(uint64_t flow, uint32_t host);
    /// What a child is, for the receiver timeout: its receiver host, or NOT_A_RECEIVER.
    typedef Callback<uint32_t, uint32_t> ChildHostCallback;
    static constexpr uint32_t NOT_A_RECEIVER = 0xFFFFFFFF;

    /// Flow identifier: the requester (sender host, sender QPN) the ACKs are addressed to.
    static uint64_t FlowKey(uint32_t senderHost, uint32_t senderQpn);

    /// A message [firstPsn, lastPsn] of the flow is on its way to these children.
    void ExpectMessage(uint64_t flow,
                       const std::vector<uint32_t>& children,
                       uint64_t firstPsn,
                       uint64_t lastPsn);
    /// The same, as a switch sees it: the first packet's 24-bit PSN and the packet count.
    void ExpectMessageOnWire(uint64_t flow,
                             const std::vector<uint32_t>& children,
                             uint32_t firstPsn24,
                             uint64_t packets);
    /// Whether this aggregator holds state for the flow (it intercepts only those ACKs).
    bool Knows(uint64_t flow) const;
    /**
     * An ACK (psn acknowledged) or NAK (psn expected) from a child; psn24 as on the wire.
     * fromReceiver: the ACK is a receiver's own, so with validation a PSN beyond every
     * message announced on the flow is refused; false: a downstream aggregation point's,
     * whose aggregate may already cover messages whose first packets came another way, so it
     * only completes the child.
     */
    Action Receive(
        uint64_t flow, uint32_t child, uint32_t psn24, bool nak, bool fromReceiver = true);
    /// Count and trace a refused ACK (the switch's own checks use it too).
    void Refuse(uint64_t flow, uint32_t child, uint32_t psn24, Refusal why);
    /// Whether ACKs are validated (the Validate attribute).
    bool IsValidating() const
    {
        return m_validate;
    }
    uint64_t GetRefused(Refusal why) const;
    /**
     * Children are receiver hosts by default; hop by hop a child is a port, and only a port
     * facing a receiver is one the receiver timeout may drop (a downstream switch's subtree
     * is its own aggregator's to time out).
     */
    void SetChildHost(ChildHostCallback childHost);
    /// Whether ReceiverTimeout is set.
    bool TimesOutReceivers() const
    {
        return m_receiverTimeout.IsStrictlyPositive();
    }
    /**
     * Check the flow's silent receivers without an ACK: for an aggregation point no other
     * receiver's ACK reaches (the only receiver behind it, or the only one of a message). The
     * root's retransmissions passing through a switch, and its RTO at its NIC, call it.
     *
eturn an ACK to send upstream if a drop moved the aggregate
     */
    Action CheckSilent(uint64_t flow);
    /// Receivers dropped by the timeout (ReceiverTimeout), over every flow.
    uint64_t GetReceiversDropped() const;
    /**
     * One NAK per loss (the OneNakPerLoss attribute): whether a NAK this aggregator sent
     * upstream waits for its resend, so that DataPassed is due for every data packet of the
     * flows it aggregates. False almost always (nothing was lost), which keeps the data path
     * free of lookups.
     */
    bool WatchesResends() const
    {
        return m_watching > 0;
    }

    /// A data packet of the flow (psn24 as on the wire) passed this aggregation point on its
    /// way to the receivers: the resend a NAK asked for, perhaps.
    void DataPassed(uint64_t flow, uint32_t psn24);
    /// NAKs from children that were not sent upstream: the loss was being repaired already.
    uint64_t GetNaksSuppressed() const
    {
        return m_naksSuppressed;
    }

    /// A CNP for the flow: forwarded at most once per interval.
    Action ReceiveCnp(uint64_t flow, Time interval);
    /// Drop a flow's state (the requester finished with it).
    void Forget(uint64_t flow);

    uint64_t GetFlowCount() const;
    /// Children entries over all flows: the aggregation state a switch must hold.
    uint64_t GetEntryCount() const;
    /// Most entries alive at once.
    uint64_t GetPeakEntryCount() const;
    /// Entries ever created (one per receiver of a message not already held).
    uint64_t GetInstalls() const;
    /// Entries freed because everything asked of them was acknowledged.
    uint64_t GetFrees() const;
    uint64_t GetAcksIn() const;
    uint64_t GetAcksOut() const;

private:
    struct Child
    {
        uint64_t expected{0};         ///< next PSN this child still needs
        uint64_t needed{0};           ///< one past the last PSN asked of it
        Time progress;                ///< when it last moved, or began to owe (ReceiverTimeout)
        uint64_t lastNak{UINT64_MAX}; ///< selective: the PSN it last NAKed
    };

    struct Flow
    {
        std::unordered_map<uint32_t, Child> children;
        /// expected PSN -> number of children at it that still owe packets: the minimum is
        /// the aggregate, found in O(log n) per ACK instead of a scan over all children.
        std::map<uint64_t, uint32_t> owing;
        uint64_t emitted{0}; ///< aggregate "expected" last sent upstream
        uint64_t maxNeeded{0};
        Time lastCnp;
        bool cnpSent{false};
        Time advanced; ///< when the aggregate last moved, or a message was announced
        std::vector<uint32_t> dropped; ///< children the receiver timeout dropped
        // OneNakPerLoss. Go-back-N: the root was sent back to nakPsn and the aggregate has not
        // passed it; once a PSN at or below it passes here the resend is on its way, and
        // resendFront is one past the furthest PSN it has brought.
        uint64_t nakPsn{0};
        uint64_t resendFront{0};
        bool nakOpen{false};
        bool resendSeen{false};
        /// Selective: PSNs NAKed upstream whose resend has not passed here yet.
        std::vector<uint64_t> pendingNaks;
    };

    /// Minimum "expected" over children that still owe something; maxNeeded if none.
    static uint64_t Aggregate(const Flow& f);
    static void Owe(Flow& f, const Child& c, int delta);
    /// An ACK upstream if the aggregate moved past what was last sent.
    Action Advance(uint64_t flow, Flow& f, Time now);
    /// OneNakPerLoss: whether child c's NAK of psn (c's state before it) asks for nothing the
    /// root is not resending already; updates the flow's NAK state if it goes upstream.
    bool NakIsRedundant(Flow& f, const Child& c, uint64_t psn);
    /// The flow stops or starts waiting for a resend (m_watching counts such flows).
    void Watch(Flow& f, bool wasWatching);
    static bool IsWatching(const Flow& f)
    {
        return f.nakOpen || !f.pendingNaks.empty();
    }
    /// DropSilent if the aggregate has not moved for ReceiverTimeout; whether any was dropped.
    bool MaybeDropSilent(uint64_t flow, Flow& f, Time now);
    /// Drop the flow's children that owe packets and have been silent for ReceiverTimeout.
    void DropSilent(uint64_t flow, Flow& f, Time now);

    std::unordered_map<uint64_t, Flow, Mix64Hash> m_flows; // keys are FlowKey()s
    uint64_t m_entries{0};
    uint64_t m_peakEntries{0};
    uint64_t m_installs{0};
    uint64_t m_frees{0};
    uint64_t m_acksIn{0};
    uint64_t m_acksOut{0};
    bool m_selectiveNaks{false};
    bool m_oneNakPerLoss{true};
    uint64_t m_watching{0}; ///< flows waiting for a resend to pass (WatchesResends)
    uint64_t m_naksSuppressed{0};
    bool m_validate{false};
    uint64_t m_refused[REFUSAL_KINDS]{};
    Time m_receiverTimeout; ///< zero: never
    ChildHostCallback m_childHost;
    uint64_t m_receiversDropped{0};

    TracedCallback<uint64_t, uint64_t> m_aggregatedTrace; // flow, PSN acknowledged upstream
    TracedCallback<uint64_t, uint32_t, uint32_t, uint8_t> m_refusedTrace;
    TracedCallback<uint64_t, uint32_t> m_droppedTrace; // flow, receiver host
};

} // namespace ns3

#endif /* MCAST4AI_ACK_AGGREGATOR_H */
