/*
 * The P2MP stage of a switch: replicates BIER, XPU-list and shim frames through its
 * Replicator, and, where the delivery aggregates ACKs in the fabric, intercepts the ACKs, NAKs
 * and CNPs of the flows it replicated and answers them with one aggregated RoCEv2 ACK.
 */
#ifndef MCAST4AI_P2MP_SWITCH_STAGE_H
#define MCAST4AI_P2MP_SWITCH_STAGE_H

#include "core/model/mix64.h"
#include "fabric/model/frame-copy.h"
#include "fabric/model/switch-stage.h"
#include "ns3/nstime.h"
#include "p2mp/model/replicator.h"
#include "rdma/model/ack-aggregator.h"
#include "wire/model/ack-frame-builder.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \brief Replication and in-network ACK aggregation at one switch.
 */
class P2mpSwitchStage : public SwitchStage
{
public:
    static TypeId GetTypeId();

    /// Where ACKs of P2MP flows are aggregated in the fabric.
    enum AggregationMode : uint8_t
    {
        AGGREGATE_NONE,       ///< not in switches (at the sender's NIC, or nowhere)
        AGGREGATE_SOURCE_TOR, ///< at the sender's ToR, per receiver
        AGGREGATE_HOP_BY_HOP  ///< at every replication point, per downstream port
    };

    void SetReplicator(Ptr<Replicator> replicator);
    Ptr<Replicator> GetReplicator() const;
    /**
     * Aggregate ACKs here. pathMtu lets the switch tell a message's length from its RETH;
     * cnpInterval limits forwarded CNPs per flow; address is the source IPv4 of the ACKs
     * this switch emits; hostPorts[p] tells whether port p faces a host.
     */
    void SetAckAggregation(AggregationMode mode,
                           uint32_t pathMtu,
                           Time cnpInterval,
                           uint32_t address,
                           std::vector<bool> hostPorts);
    /// Null unless this switch aggregates.
    Ptr<AckAggregator> GetAckAggregator() const;
    /**
     * peerAddress[p]: the IPv4 address of what sits at the other end of port p (a host or a
     * switch). With validation on, an ACK, NAK or CNP is taken from port p only if its source
     * is that peer (a host, or a downstream aggregation point) or a host p leads to.
     */
    void SetPeerAddresses(std::vector<uint32_t> peerAddress);
    /// The priority the aggregated ACKs this stage makes on its own ride (the NICs' control
    /// priority): those a receiver timeout releases, with no receiver's ACK to copy it from.
    void SetAckPriority(uint8_t priority);
    /// Packets whose BTH this switch had to read (it aggregates ACKs, so it must look).
    uint64_t GetDeepParsed() const;
    uint64_t GetAggregatedAcksSent() const;

    void Attach(FabricSwitch* sw) override;
    /// BIFT entries, group-table and aggregation state (summed and the peak over switches),
    /// BTHs read and ACKs aggregated.
    void AddCounters(CounterSet& counters) const override;
    bool Receive(uint32_t inPort, FabricFrame& frame) override;

protected:
    void DoDispose() override;

private:
    void Replicate(uint32_t inPort, FabricFrame& frame);
    /// ACK, NAK or CNP of a flow this switch aggregates: consumed (true) or not ours (false).
    bool InterceptAck(uint32_t inPort, FabricFrame& frame);
    /// A data frame of the flow passes: drop its silent receivers if their time is up
    /// (AckAggregator::CheckSilent) and send what that releases back the way it came.
    void CheckSilent(uint32_t inPort, const FrameInfo& fi);
    /// Send aggregate a (ACK or NAK) of the flow toward its root (rootIp, destQp) out port
    /// out, charged to ingress inPort and counted as the flow owner's.
    void SendAggregate(uint32_t inPort,
                       uint32_t out,
                       uint32_t rootIp,
                       uint16_t srcPort,
                       uint32_t destQp,
                       uint8_t prio,
                       uint8_t owner,
                       const AckAggregator::Action& a);
    /// Whether an ACK from fi's source may come in on inPort (see SetPeerAddresses).
    bool FromExpectedPort(uint32_t inPort, const FrameInfo& fi) const;
    /// Toward the requester: up the tree(s) this flow's data came down (hop-by-hop), or along
    /// the routes (source ToR).
    void UpstreamPorts(uint64_t flow, const FrameInfo& fi, std::vector<uint32_t>& out);

    Ptr<Replicator> m_replicator;
    Ptr<AckAggregator> m_aggregator;
    AggregationMode m_aggMode{AGGREGATE_NONE};
    uint32_t m_pathMtu{1024};
    Time m_cnpInterval;
    uint32_t m_address{0};
    uint8_t m_ackPriority{0};
    std::vector<bool> m_hostPort;
    std::vector<uint32_t> m_peerAddress;
    /// Per port: the ACKs this switch sends out of it (deferred frames point at them, so they
    /// live as long as this stage).
    std::vector<std::unique_ptr<AckFrameBuilder>> m_ackFrames;
    bool m_computeIcrc{false};
    /// flow -> every port its data came in on (one per tree; few, at most the uplinks)
    std::unordered_map<uint64_t, std::vector<uint32_t>, Mix64Hash> m_upstream;
    std::vector<uint32_t> m_parents;  // scratch
    std::vector<FrameCopy> m_copies;  // scratch
    std::vector<uint32_t> m_children; // scratch
    uint64_t m_deepParsed{0};
    uint64_t m_aggregatedSent{0};
};

} // namespace ns3

#endif /* MCAST4AI_P2MP_SWITCH_STAGE_H */
