/*
 * P2MP delivery: "deliver message M to receiver set S", the one interface workloads see.
 * Unicast replication, BIER, BIER with XPU-ID lists and the new protocol are one subclass
 * each, chosen by name (p2mp.mechanism). Where ACKs are aggregated and how receivers
 * acknowledge are attributes of the delivery, so no workload knows either.
 */
#ifndef MCAST4AI_P2MP_DELIVERY_H
#define MCAST4AI_P2MP_DELIVERY_H

#include "core/model/named-type-registry.h"
#include "fabric/model/rank-messenger.h"
#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "p2mp/model/group-controller.h"
#include "p2mp/model/p2mp-switch-stage.h"
#include "rdma/model/p2mp-encapsulator.h"
#include "rdma/model/rdma-nic.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class FabricSwitch;
class P2mpChannel;
class TopologyGraph;

/**
 * \brief A P2MP mechanism: its switch state and the channels senders send through.
 */
class P2mpDelivery : public Object
{
public:
    static TypeId GetTypeId();

    /// Where receivers' ACKs are reduced to one.
    enum AckAggregation : uint8_t
    {
        AGGREGATE_NONE,       ///< nowhere: every ACK reaches the sender's QP
        AGGREGATE_SENDER_NIC, ///< at the sender's NIC (its CNPs too)
        AGGREGATE_SOURCE_TOR, ///< at the sender's top-of-rack switch
        AGGREGATE_HOP_BY_HOP  ///< at every replication point
    };

    /// What a receiver timeout does to the operations the receiver did not have.
    enum ReceiverTimeoutPolicy
    {
        TIMEOUT_DROPS, ///< complete them without it
        TIMEOUT_FAILS, ///< fail them
    };

    /// How receivers acknowledge.
    enum AckMode : uint8_t
    {
        ACK_PER_PACKET,  ///< every packet
        ACK_EVERY_N,     ///< every AckEvery packets and at message ends
        ACK_PER_MESSAGE, ///< the last packet of each message only
        ACK_FREE         ///< never: a lossless fabric is relied upon
    };

    /// AckAggregation's names, in its order: p2mp.ack_aggregation and the attribute's values.
    static const std::vector<std::string>& AckAggregationNames();
    /// AckMode's names, in its order: p2mp.ack_mode and the attribute's values.
    static const std::vector<std::string>& AckModeNames();

    /// The fabric a delivery is installed in. switches[i] is graph node HostCount() + i.
    struct Fabric
    {
        const TopologyGraph* graph{nullptr};
        std::vector<Ptr<FabricSwitch>> switches;
        std::vector<Ptr<RdmaNic>> nics; ///< by host
    };

    /// The scenario names of the mechanisms (p2mp.mechanism) and their TypeIds.
    static NamedTypeRegistry& Registry();

    /// Set up the switches' part of the mechanism; call once, after the fabric is built.
    void Install(const Fabric& fabric);
    /**
     * A sender's channel to a fixed set of ranks; each message goes to a subset of them.
     * \param root the sending host
     * \param ranks the other ranks, ascending
     * \param groupQpn the QPN every receiver of this channel answers to
     * \param entropy draws the UDP source ports (entropy) of the queue pairs it creates
     * \param owner whose traffic its frames are (FrameInfo::owner): a workload's, or none
     * \param maxRetransmissions its data is loss-tolerant with this budget, whatever its
     *        owner's (QueuePair::SetMaxRetransmissions); QueuePair::RELIABLE: the owner's
     */
    Ptr<P2mpChannel> CreateChannel(uint32_t root,
                                   const std::vector<uint32_t>& ranks,
                                   uint32_t groupQpn,
                                   Callback<uint16_t> entropy,
                                   uint8_t owner = 0,
                                   uint8_t maxRetransmissions = QueuePair::RELIABLE);

    /// Whether one message leaves the sender once per copy the fabric needs (not per receiver).
    virtual bool IsMulticast() const;
    /// The encapsulation of one sender's packets (null: no multicast).
    virtual Ptr<P2mpEncapsulator> CreateEncapsulator(uint32_t root, uint16_t entropy);
    /// Largest P2MP header a frame can carry in front of IPv4 (PFC headroom absorbs it).
    virtual uint32_t MaxHeaderBytes(uint32_t hosts) const;
    /// Whether the in-network ACK state it reports is an extension of BIER.
    virtual bool ExtendsBier() const;
    /// The fabric's routes changed (TopologyGraph::ComputeRoutes after a failure or a repair):
    /// rebuild every switch's BIFT and the controller's group trees from them.
    void Reconverge();
    /// The controller installing groups (null unless the mechanism has installed groups).
    Ptr<GroupController> GetGroupController() const;
    /**
     * A run spread over processes: what a channel's root decides and its receivers' processes
     * must know (and the controller's switch entries) travels through messenger. Set before
     * the channels are created; null (the default) in one process.
     */
    void SetMessenger(Ptr<RankMessenger> messenger);
    Ptr<RankMessenger> GetMessenger() const;

    AckAggregation GetAckAggregation() const;
    AckMode GetAckMode() const;
    /// The attributes by the names a scenario uses ("source-tor", "ack-free"); an unknown name
    /// aborts (validation rejects it first).
    void SetAckAggregationName(std::string name);
    std::string GetAckAggregationName() const;
    void SetAckModeName(std::string name);
    std::string GetAckModeName() const;
    /// What a receiver's responder acknowledges: 1 every packet, N, or 0 message ends only.
    uint32_t GetResponderAckEvery() const;
    bool IsAckFree() const;
    /// Set an aggregator (the root NIC's or a switch's) up as this delivery's are; its
    /// refusals count in GetAcksRefused, and the receivers it drops reach their channel.
    void ConfigureAckAggregator(Ptr<AckAggregator> aggregator, bool selectiveNaks);
    /// A channel's multicast queue pair exists (flow key: AckAggregator::FlowKey), or is gone.
    void RegisterChannel(uint64_t flow, P2mpChannel* channel);
    void UnregisterChannel(uint64_t flow);
    /// Receivers the aggregators' receiver timeout dropped, over every aggregator.
    uint64_t GetReceiversDropped() const;
    /// Whether aggregators drop silent receivers (ReceiverTimeout above zero).
    bool TimesOutReceivers() const;
    /// Whether an operation a dropped receiver did not have fails (OnReceiverTimeout)
    /// rather than completing without it.
    bool FailsOnReceiverTimeout() const;
    /// Where a root's ACKs come from when they are aggregated in the network and validated:
    /// the IPv4 address of its ToR (the first aggregation point on their way back); 0 when
    /// any source may send them (aggregation at the NIC, or validation off).
    uint32_t AckSourceOf(uint32_t root) const;
    /// ACKs refused for that reason by every aggregator of this delivery.
    uint64_t GetAcksRefused(AckAggregator::Refusal why) const;
    /// Whether switches aggregate ACKs (source-tor or hop-by-hop).
    bool AggregatesInNetwork() const;
    const std::vector<Ptr<RdmaNic>>& GetNics() const;
    /// The P2MP stage of switch index (null when the mechanism needs none).
    Ptr<P2mpSwitchStage> GetStage(uint32_t index) const;
    uint32_t GetNStages() const;
    /// IPv4 address switch index uses as the source of the ACKs it aggregates (10.128.0.0 + i).
    static uint32_t SwitchAddress(uint32_t switchIndex);

    /**
     * A channel's message was done at its root (every receiver acknowledged it) but `missing`
     * of its receivers never had it delivered: acknowledged past data they do not hold. A
     * model bug, or a case the model cannot recover; RunInvariants reports it.
     */
    void ReportUndelivered(
        uint32_t root, uint64_t firstPsn, uint64_t lastPsn, uint32_t missing, uint32_t receivers);
    /// Signature of the Undelivered trace: root host, first PSN, last PSN, receivers missing.
    typedef void (*UndeliveredTracedCallback)(uint32_t root,
                                              uint64_t firstPsn,
                                              uint64_t lastPsn,
                                              uint32_t missing);
    /// Receiver deliveries missing from done messages, over every channel.
    uint64_t GetUndelivered() const;
    /// The first few such messages, one line each.
    const std::vector<std::string>& GetUndeliveredExamples() const;

protected:
    void DoDispose() override;
    /// The mechanism's own switch state: per switch, a stage (or none).
    virtual void DoInstall(const Fabric& fabric);
    /// A stage for switch index with the replicator the mechanism configured, and the ACK
    /// aggregation this delivery asks for.
    Ptr<P2mpSwitchStage> AddStage(const Fabric& fabric, uint32_t index, Ptr<Replicator> r);
    /// A replicator for switch index whose BIFT covers bslBits (0: no BIER) and an empty group
    /// table; configure it further, then AddStage.
    Ptr<Replicator> NewReplicator(const Fabric& fabric, uint32_t index, uint32_t bslBits) const;

    Ptr<GroupController> m_controller;

private:
    AckAggregation m_ackAggregation{AGGREGATE_NONE};
    AckMode m_ackMode{ACK_PER_PACKET};
    uint32_t m_ackEvery{8};
    bool m_validateAcks{true};
    Time m_receiverTimeout;
    ReceiverTimeoutPolicy m_onReceiverTimeout{TIMEOUT_DROPS};
    /// The multicast channels by their flow (root, group QPN), for the receivers their
    /// aggregators drop; a channel removes itself when disposed.
    std::unordered_map<uint64_t, P2mpChannel*> m_channelsByFlow;
    /// An aggregator's ReceiverDropped trace: tell the flow's channel.
    void ReceiverDropped(uint64_t flow, uint32_t host);
    std::vector<Ptr<AckAggregator>> m_aggregators; ///< every one this delivery set up
    std::vector<uint32_t> m_hostSwitch;            ///< by host: the switch index it hangs on
    std::vector<Ptr<RdmaNic>> m_nics;
    std::vector<Ptr<P2mpSwitchStage>> m_stages;
    Ptr<RankMessenger> m_messenger;
    uint64_t m_undelivered{0};
    std::vector<std::string> m_undeliveredExamples;
    /// root, first PSN, last PSN, receivers that never had the message
    TracedCallback<uint32_t, uint64_t, uint64_t, uint32_t> m_undeliveredTrace;
};

} // namespace ns3

#endif /* MCAST4AI_P2MP_DELIVERY_H */
