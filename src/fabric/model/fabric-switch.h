/*
 * Output-queued, store-and-forward switch: ECMP forwarding on the 5-tuple (UDP source port
 * included), eight strict-priority egress queues per port, a shared-buffer MMU with PFC and
 * RED-style ECN marking.
 */
#ifndef MCAST4AI_FABRIC_SWITCH_H
#define MCAST4AI_FABRIC_SWITCH_H

#include "fabric/model/fabric-net-device.h"
#include "wire/model/frame-info.h"
#include "core/model/ring-queue.h"
#include "fabric/model/switch-mmu.h"
#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"
#include "rdma/model/ack-aggregator.h"
#include "p2mp/model/replicator.h"
#include "wire/model/ack-frame-builder.h"

#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Node;

/**
 * \brief A fabric switch (leaf, spine, aggregation or core).
 */
class FabricSwitch : public Object, public FabricPortOwner
{
public:
    static TypeId GetTypeId();
    FabricSwitch();

    /// Signature of the Drop and EcnMark traces.
    typedef void (*PortTracedCallback)(Ptr<const Packet> packet, uint32_t port);

    /// Take ownership of a port; its index is the order of AddPort calls.
    uint32_t AddPort(Ptr<FabricNetDevice> device);
    Ptr<FabricNetDevice> GetPort(uint32_t index) const;
    uint32_t GetNPorts() const;
    Ptr<SwitchMmu> GetMmu() const;
    void SetNode(Ptr<Node> node);
    Ptr<Node> GetNode() const;

    /**
     * Next-hop port sets per destination host. The vectors are owned by the caller (the
     * topology's route table) and must outlive the simulation.
     */
    void SetRoutes(std::vector<const std::vector<uint16_t>*> nextHopsByHost);

    /// A frame about to be queued on a port; returning true drops it (fault injection).
    typedef Callback<bool, uint32_t, Ptr<const Packet>> DropFilter;
    void SetDropFilter(DropFilter filter);
    uint64_t GetInjectedDrops() const;

    /// ECMP choice among n equal-cost ports for a flow (exposed for tests).
    uint32_t EcmpIndex(const FrameInfo& fi, uint32_t n) const;

    /// Size the MMU and hook the ports up; call after all ports are added.
    void Start();
    int64_t AssignStreams(int64_t stream);

    uint64_t GetDrops() const;
    uint64_t GetEcnMarks() const;
    uint64_t GetForwarded() const;

    /// Where ACKs of P2MP flows are aggregated in the fabric.
    enum AggregationMode : uint8_t
    {
        AGGREGATE_NONE,       ///< not in switches (at the sender's NIC, or nowhere)
        AGGREGATE_SOURCE_TOR, ///< at the sender's ToR, per receiver
        AGGREGATE_HOP_BY_HOP  ///< at every replication point, per downstream port
    };

    /// P2MP replication state (BIFT, group table); null: P2MP frames are dropped.
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
    Ptr<AckAggregator> GetAckAggregator() const;
    /// Packets whose BTH this switch had to read (it aggregates ACKs, so it must look).
    uint64_t GetDeepParsed() const;
    uint64_t GetAggregatedAcksSent() const;

protected:
    void DoDispose() override;

private:
    /// A replicated frame: stored once at ingress, queued once per copy.
    struct Replica
    {
        uint32_t copiesLeft;
        uint32_t ingressBytes;
    };

    /// Index into m_replicas of a frame's replica record; none for a unicast frame.
    static constexpr uint32_t NO_REPLICA = UINT32_MAX;

    struct QueuedFrame
    {
        FabricFrame frame;
        uint32_t replica; ///< NO_REPLICA for a unicast frame
        uint16_t inPort;
    };

    struct PortState
    {
        Ptr<FabricNetDevice> device;
        uint8_t nonEmpty{0}; // bit per priority
        RingQueue<QueuedFrame> queues[8];
    };

    void ReceiveFrame(uint32_t inPort, FabricFrame& frame) override;
    FabricFrame DequeueFrame(uint32_t port, uint8_t pausedMask) override;
    /// Admit into the MMU and queue on outPort (drops are counted).
    void Enqueue(uint32_t inPort, uint32_t outPort, uint8_t prio, FabricFrame frame);
    void ReplicateFrame(uint32_t inPort, FabricFrame& frame);
    /// Put an admitted frame on its egress queue and wake the port.
    void Queue(uint32_t outPort, uint8_t prio, QueuedFrame frame);
    /// Count and trace a frame that is not queued (injected: by the drop filter).
    void Drop(FabricFrame& frame, uint32_t inPort, bool injected);
    /// Queue one copy of a replicated frame whose ingress side is already charged.
    void EnqueueCopy(
        uint32_t inPort, uint32_t outPort, uint8_t prio, FabricFrame frame, uint32_t replica);
    /// Store a replica record; returns its index in m_replicas.
    uint32_t NewReplica(Replica record);
    /// One copy is gone (sent or dropped); the last one frees the frame's ingress buffer.
    void CopyDone(uint32_t inPort, uint8_t prio, uint32_t replica);
    /// Send XON upstream if (inPort, prio) has drained below its threshold.
    void MaybeResume(uint32_t inPort, uint8_t prio);
    /// ACK, NAK or CNP of a flow this switch aggregates: consumed (true) or not ours (false).
    bool InterceptAck(uint32_t inPort, FabricFrame& frame);
    /// Toward the requester: up the tree(s) this flow's data came down (hop-by-hop), or along
    /// the routes (source ToR).
    void UpstreamPorts(uint64_t flow, const FrameInfo& fi, std::vector<uint32_t>& out) const;
    void SendPause(uint32_t inPort, uint8_t prio);
    void RefreshPause(uint32_t inPort, uint8_t prio);
    /// Set the IPv4 ECN field to CE (behind a P2MP header too) if the frame is ECN-capable.
    bool MarkCe(FabricFrame& frame);
    uint8_t PriorityOf(const FrameInfo& fi) const;

    Ptr<Node> m_node;
    Ptr<SwitchMmu> m_mmu;
    std::vector<PortState> m_ports;
    /// Per port: the ACKs this switch sends out of it (deferred frames point at them).
    std::vector<std::unique_ptr<AckFrameBuilder>> m_ackFrames;
    std::vector<const std::vector<uint16_t>*> m_routes;
    std::vector<EventId> m_pauseRefresh; // [port * 8 + prio]
    Ptr<UniformRandomVariable> m_uniform;
    uint32_t m_ecmpSeed;
    uint16_t m_pauseQuanta;
    bool m_ecnEnabled;

    Ptr<Replicator> m_replicator;
    Ptr<AckAggregator> m_aggregator;
    AggregationMode m_aggMode{AGGREGATE_NONE};
    uint32_t m_pathMtu{1024};
    Time m_cnpInterval;
    uint32_t m_address{0};
    std::vector<bool> m_hostPort;
    /// flow -> every port its data came in on (one per tree; few, at most the uplinks)
    std::unordered_map<uint64_t, std::vector<uint32_t>> m_upstream;
    std::vector<uint32_t> m_parents;        // scratch
    std::vector<Replicator::Copy> m_copies; // scratch
    std::vector<Replica> m_replicas;        ///< records of replicated frames still queued
    std::vector<uint32_t> m_freeReplicas;   ///< unused entries of m_replicas
    std::vector<uint32_t> m_children;       // scratch
    DropFilter m_dropFilter;
    uint64_t m_injectedDrops{0};
    uint64_t m_deepParsed{0};
    uint64_t m_aggregatedSent{0};

    uint64_t m_drops{0};
    uint64_t m_ecnMarks{0};
    uint64_t m_forwarded{0};

    TracedCallback<Ptr<const Packet>, uint32_t> m_dropTrace;
    TracedCallback<Ptr<const Packet>, uint32_t> m_ecnTrace;
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_SWITCH_H */
