/*
 * Output-queued, store-and-forward switch: eight strict-priority egress queues per port, a
 * shared-buffer MMU with PFC and RED-style ECN marking. Two things plug in: the choice among
 * equal-cost next hops (a PathChoice, ECMP by default) and the stages that see frames before
 * unicast forwarding (SwitchStage: P2MP replication, ACK aggregation).
 */
#ifndef MCAST4AI_FABRIC_SWITCH_H
#define MCAST4AI_FABRIC_SWITCH_H

#include "core/model/ring-queue.h"
#include "fabric/model/egress-scheduler.h"
#include "fabric/model/fabric-net-device.h"
#include "fabric/model/frame-copy.h"
#include "fabric/model/path-choice.h"
#include "fabric/model/switch-mmu.h"
#include "fabric/model/switch-stage.h"
#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"
#include "wire/model/frame-info.h"

#include <string>
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
    /// Signature of the QueueDepth trace: egress port, priority, bytes queued after the change.
    typedef void (*QueueDepthTracedCallback)(uint32_t port, uint8_t prio, uint64_t bytes);
    /// Signature of the PfcPause trace: ingress port, priority, paused (XOFF) or resumed (XON).
    typedef void (*PfcTracedCallback)(uint32_t port, uint8_t prio, bool paused);

    /// Take ownership of a port; its index is the order of AddPort calls.
    uint32_t AddPort(Ptr<FabricNetDevice> device);
    Ptr<FabricNetDevice> GetPort(uint32_t index) const;
    uint32_t GetNPorts() const;
    Ptr<SwitchMmu> GetMmu() const;
    /// The fabric's per-owner counters this switch adds its marks and drops to.
    void SetTrafficLedger(Ptr<TrafficLedger> ledger);
    Ptr<TrafficLedger> GetTrafficLedger() const;
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
    /// Drops a stage refused by policy (RefuseFrame): not a buffer's doing either.
    uint64_t GetRefusedDrops() const;
    /// Frames dropped for want of a route: their destination is cut off (a link failure), or
    /// not a host of this fabric. Counted in GetDrops() too.
    uint64_t GetUnroutableDrops() const;

    /// The choice among equal-cost next hops (an EcmpPathChoice unless set).
    void SetPathChoice(Ptr<PathChoice> choice);
    Ptr<PathChoice> GetPathChoice() const;
    /// Append a stage to the ingress pipeline; call after every port was added.
    void AddStage(Ptr<SwitchStage> stage);
    uint32_t GetNStages() const;
    Ptr<SwitchStage> GetStage(uint32_t index) const;

    /// Size the MMU and hook the ports up; call after all ports are added.
    void Start();
    int64_t AssignStreams(int64_t stream);

    /// Report its counters, its stages' and its ports' to the run's summary.
    void AddCounters(CounterSet& counters) const;
    uint64_t GetDrops() const;
    uint64_t GetEcnMarks() const;
    uint64_t GetForwarded() const;

    // Services for stages: they forward, replicate and drop through the switch, so the MMU,
    // PFC and the counters see every frame the same way.

    /// Priority class of a frame (DSCP class selector 8p carries priority p).
    static uint8_t PriorityOf(const FrameInfo& fi)
    {
        return static_cast<uint8_t>((fi.dscp >> 3) & 0x7);
    }
    /// Whether unicast routes lead to host dstHost from here.
    bool HasRoute(uint32_t dstHost) const;
    /// The egress port the path choice gives a unicast frame (requires HasRoute).
    uint32_t RoutePort(const FrameInfo& fi);
    /// Whether port is one of the equal-cost next hops toward host: a frame from that host,
    /// on a shortest path, can only have come in on such a port (a reverse-path check).
    bool IsNextHop(uint32_t host, uint32_t port) const
    {
        if (host >= m_routes.size())
        {
            return false;
        }
        for (uint16_t hop : *m_routes[host])
        {
            if (hop == port)
            {
                return true;
            }
        }
        return false;
    }
    /// Admit a frame into the MMU and queue it on outPort (a refused frame is counted).
    void Forward(uint32_t inPort, uint32_t outPort, uint8_t prio, FabricFrame frame);
    /**
     * Queue the copies of one replicated frame: the ingress (and PFC) is charged once for
     * ingressBytes, whatever the fan-out, and released when the last copy leaves. lookup
     * delays the copies (a replication lookup that takes longer than the pipeline).
     */
    void ForwardCopies(uint32_t inPort,
                       uint8_t prio,
                       uint32_t ingressBytes,
                       std::vector<FrameCopy>& copies,
                       Time lookup);
    /// Count and trace a frame that goes nowhere: unroutable while a failure cuts this switch
    /// off from some host (its copies' destinations may be what is cut off), else a drop.
    void DropFrame(FabricFrame& frame, uint32_t inPort);
    /// The same for a frame a stage refuses by policy (a forged source address), counted
    /// apart so that the lossless-fabric law does not take it for a buffer's drop.
    void RefuseFrame(FabricFrame& frame, uint32_t inPort);

    /**
     * The MMU's counters against the frames this switch holds, recounted: every egress
     * queue's bytes, every ingress queue's (a unicast frame where it came in, a replicated one
     * once until its last copy leaves) and the buffer in use. One line per counter that
     * differs; none in a correct switch, so counters are back at zero once it drains.
     */
    std::vector<std::string> CheckBuffers() const;

protected:
    void DoDispose() override;

private:
    /// A replicated frame: stored once at ingress, queued once per copy.
    struct Replica
    {
        uint32_t copiesLeft;
        uint32_t ingressBytes;
        uint16_t inPort; ///< where its ingress buffer is charged (CheckBuffers)
        uint8_t prio;
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
    FabricFrame DequeueFrame(uint32_t port, uint8_t pausedMask, Time now) override;
    /// Whether port's egress queues hold a frame (paused or not): every frame queued later
    /// comes through Queue(), which calls the port's TryTransmit.
    bool MayDequeue(uint32_t port) const override;
    /// Bytes in port's egress queues, every priority.
    uint64_t GetQueuedBytes(uint32_t port) const override;
    /// Admit into the MMU and queue on outPort (drops are counted).
    void Enqueue(uint32_t inPort, uint32_t outPort, uint8_t prio, FabricFrame frame);
    /// Put an admitted frame on its egress queue and wake the port.
    void Queue(uint32_t outPort, uint8_t prio, QueuedFrame frame);
    /// Why a frame was not queued.
    enum DropCause : uint8_t
    {
        DROP_FABRIC,    ///< a buffer was full, or a frame no stage could place
        DROP_INJECTED,  ///< the drop filter (a fault a test asked for)
        DROP_REFUSED,   ///< a stage's policy (RefuseFrame)
        DROP_UNROUTABLE ///< no next hop to its destination: a failure cut it off
    };

    /// Count and trace a frame that is not queued.
    void Drop(FabricFrame& frame, uint32_t inPort, DropCause cause);
    /// Queue one copy of a replicated frame whose ingress side is already charged.
    void EnqueueCopy(
        uint32_t inPort, uint32_t outPort, uint8_t prio, FabricFrame frame, uint32_t replica);
    /// Store a replica record; returns its index in m_replicas.
    uint32_t NewReplica(Replica record);
    /// One copy is gone (sent or dropped); the last one frees the frame's ingress buffer.
    void CopyDone(uint32_t inPort, uint8_t prio, uint32_t replica);
    /// Send XON upstream if (inPort, prio) has drained below its threshold.
    void MaybeResume(uint32_t inPort, uint8_t prio);
    void SendPause(uint32_t inPort, uint8_t prio);
    void RefreshPause(uint32_t inPort, uint8_t prio);
    /// Set the IPv4 ECN field to CE (behind a P2MP header too) if the frame is ECN-capable.
    bool MarkCe(FabricFrame& frame);

    Ptr<Node> m_node;
    Ptr<SwitchMmu> m_mmu;
    Ptr<TrafficLedger> m_ledger;
    OpLedger* m_ops{nullptr}; ///< m_ledger's per-operation rows, or none
    std::vector<PortState> m_ports;
    std::vector<const std::vector<uint16_t>*> m_routes;
    std::vector<EventId> m_pauseRefresh; // [port * 8 + prio]
    Ptr<UniformRandomVariable> m_uniform;
    Ptr<PathChoice> m_pathChoice;
    Ptr<EgressScheduler> m_scheduler;
    std::vector<Ptr<SwitchStage>> m_stages;
    std::vector<SwitchStage*> m_departures; ///< of m_stages, those that see frames leave
    uint16_t m_pauseQuanta;
    bool m_ecnEnabled;

    std::vector<Replica> m_replicas;      ///< records of replicated frames still queued
    std::vector<uint32_t> m_freeReplicas; ///< unused entries of m_replicas
    DropFilter m_dropFilter;
    uint64_t m_injectedDrops{0};
    uint64_t m_refusedDrops{0};
    uint64_t m_unroutableDrops{0};
    bool m_cutOff{false}; ///< some host has no next hop (SetRoutes after a failure)

    uint64_t m_drops{0};
    uint64_t m_ecnMarks{0};
    uint64_t m_forwarded{0};

    TracedCallback<Ptr<const Packet>, uint32_t> m_dropTrace;
    TracedCallback<Ptr<const Packet>, uint32_t> m_ecnTrace;
    TracedCallback<uint32_t, uint8_t, uint64_t> m_queueTrace;
    TracedCallback<uint32_t, uint8_t, bool> m_pfcTrace;
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_SWITCH_H */
