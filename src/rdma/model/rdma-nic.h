/*
 * A RoCEv2 NIC: it makes queue pairs (with their rate controller and path steering) and group
 * responders, encapsulates what they send in Ethernet/IPv4/UDP with the UDP source port as ECMP
 * entropy, and hands received frames to them. Its parts do one job each: QpTable numbers,
 * RdmaEgressArbiter chooses what goes next, GroupResponderSet receives P2MP flows,
 * NicProbeAgent makes and answers telemetry probes, RdmaNicCounters counts.
 */
#ifndef MCAST4AI_RDMA_NIC_H
#define MCAST4AI_RDMA_NIC_H

#include "fabric/model/fabric-net-device.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "rdma/model/group-responder-set.h"
#include "rdma/model/nic-probe-agent.h"
#include "rdma/model/nic-receive-pipeline.h"
#include "rdma/model/qp-table.h"
#include "rdma/model/queue-pair.h"
#include "rdma/model/rdma-egress-arbiter.h"
#include "rdma/model/rdma-nic-counters.h"
#include "wire/model/ack-frame-builder.h"
#include "wire/model/frame-info.h"
#include "wire/model/roce-packet-builder.h"

#include <array>
#include <utility>
#include <vector>

namespace ns3
{

class CounterSet;
class Node;

/**
 * \brief RoCEv2 RDMA NIC with one Ethernet port.
 */
class RdmaNic : public Object, public FabricPortOwner
{
public:
    static TypeId GetTypeId();
    RdmaNic();

    void Setup(Ptr<Node> node, Ptr<FabricNetDevice> device, uint32_t host);
    Ptr<FabricNetDevice> GetDevice() const;
    uint32_t GetHost() const;

    /// Create a QP toward a remote host; connect it with Connect() before posting. owner
    /// names whose traffic its frames are (FrameInfo::owner): a workload's, or none.
    Ptr<QueuePair> CreateQp(uint32_t remoteHost, uint16_t srcPort, uint8_t owner = 0);
    /// Wire two QPs of different NICs to each other (exchange of QPNs).
    static void Connect(Ptr<QueuePair> a, Ptr<QueuePair> b);
    /**
     * A connection between a queue pair of a (UDP source port portA) and one of b (portB),
     * as CreateQp at a, CreateQp at b and Connect do, except that an end at a stand-in NIC
     * (IsStandIn) is only numbered: its Ptr is null, and its process makes it. Returns the
     * queue pairs at a and b.
     */
    static std::pair<Ptr<QueuePair>, Ptr<QueuePair>> CreateConnection(
        Ptr<RdmaNic> a, Ptr<RdmaNic> b, uint16_t portA, uint16_t portB, uint8_t owner = 0);
    /**
     * Whether another process simulates this NIC's host (a run spread over processes). A
     * stand-in only numbers what is created at it (QpTable::SetStandIn): it holds no group
     * responder, and the queue pairs of CreateConnection are not made at it.
     */
    bool IsStandIn() const;
    /// Take the next QPN without a queue pair (the far end of a connection made elsewhere).
    uint32_t ReserveQpn();
    Ptr<QueuePair> GetQp(uint32_t qpn) const;
    /// Queue pairs of this NIC (group responders are not queue pairs).
    uint32_t GetNQps() const;

    /// A P2MP requester whose packets carry groupQpn (see QueuePair::SetMulticast).
    Ptr<QueuePair> CreateMulticastQp(uint32_t groupQpn,
                                     Ptr<P2mpEncapsulator> sender,
                                     Ptr<AckAggregator> localAgg,
                                     bool ackFree,
                                     uint16_t srcPort,
                                     uint8_t owner = 0);
    /// A group responder has a whole message (receiver host, msn, bytes, the message's last
    /// PSN).
    typedef GroupResponderSet::ReceiveCallback GroupReceiveCallback;
    /**
     * This host's responder for a P2MP flow: packets to groupQpn land here, and ACKs go to
     * the sender's QP. It is the responder half of a queue pair only (RcResponder): no
     * requester, no rate controller, no QueuePair object, so a receiver of many groups holds
     * a few dozen bytes per group. It still takes the next QPN, as a queue pair would; that
     * number is not a QueuePair's (GetQp returns null for it) and nothing is addressed to it.
     * A stand-in (IsStandIn) only takes the number. Returns that QPN.
     */
    uint32_t CreateGroupResponder(uint32_t groupQpn,
                                  uint32_t senderHost,
                                  uint32_t senderQpn,
                                  uint16_t srcPort,
                                  uint32_t ackEvery,
                                  bool ackFree,
                                  GroupReceiveCallback receive,
                                  uint8_t owner = 0);
    /// Group responders created at this NIC.
    uint32_t GetNGroupResponders() const;
    /// The group responder of groupQpn receives loss-tolerant data with this budget
    /// (RcResponder::SetMaxRetransmissions), whatever its owner's.
    void SetGroupMaxRetransmissions(uint32_t groupQpn, uint8_t maxRetransmissions);
    /// Packets the responder of groupQpn received in order (its next expected PSN); 0 if this
    /// NIC has no responder for it.
    uint64_t GetGroupReceivedPackets(uint32_t groupQpn) const;

    /// A QP has packets to send (new message or go-back-N).
    void NotifyReady(Ptr<QueuePair> qp);
    /// Make sure the port retries no later than t (a paced QP becomes eligible then).
    void WakeAt(Time t);
    /// Queue an ACK (or NAK) for a responder's peer, ahead of all data.
    void SendAck(const RcResponder::Peer& to, uint32_t psn24, bool nak, uint32_t msn);
    /// Queue a CNP (BTH opcode 0x81) for a responder's peer, ahead of all data.
    void SendCnp(const RcResponder::Peer& to);
    /**
     * Send an ACK addressed as the caller says, whatever its source address (a forged ACK in
     * a security experiment), ahead of data as the NIC's own ACKs go; built by this NIC, so
     * its bytes stay readable for as long as the NIC's own ACKs'.
     */
    void SendAckAs(const RocePacketBuilder::Addressing& a,
                   uint32_t destQp,
                   uint32_t psn24,
                   bool nak,
                   uint8_t owner);
    uint8_t GetControlPriority() const;
    /**
     * Telemetry: send a probe of queue pair qpn on UDP source port srcPort, numbered probeId
     * (ProbeFrameBuilder), in the queue pair's class so that it meets the queues its data
     * does, ahead of data. Its acknowledgement goes to the queue pair's path steering.
     * claim: the probe claims the path (BthHeader::RC_PROBE_CLAIM).
     */
    void SendProbe(uint32_t qpn, uint16_t srcPort, uint32_t probeId, bool claim);

    /// Unicast QPs created from now on steer their source port (a child of PathSteering).
    void SetPathSteeringType(TypeId tid);
    void SetPathSteeringAttribute(const std::string& name, const AttributeValue& value);
    /// Whether its unicast QPs steer their source port.
    bool IsSteering() const;
    /// The rate controller every QP created from now on gets (a child of RdmaCongestionControl).
    void SetCongestionControlType(TypeId tid);
    /// Set an attribute of the rate controllers of QPs created from now on.
    void SetCongestionControlAttribute(const std::string& name, const AttributeValue& value);
    bool IsNotificationPoint() const;
    /// Whether its frames carry real ICRCs (pcaps on) or zero.
    bool GetComputeIcrc() const;
    /// A rate controller for one of its QPs, or null with congestion control off.
    Ptr<RdmaCongestionControl> CreateCongestionControl() const;
    Time GetCnpInterval() const;
    /**
     * The scheduler lane of its QPs' retransmission timers. Every QP of a NIC has the same
     * timeout and arms it at "now", so the timers form one stream in time order: queued in a
     * lane, they cost the event heap one entry per NIC instead of one per QP with data out
     * (half a million in a 1,024-rank MoE layer, which made every heap operation deeper).
     */
    uint32_t GetTimerLane() const;
    /// QP by creation order (0 .. GetNQps() - 1; group responders left out).
    Ptr<QueuePair> GetQpByIndex(uint32_t index) const;

    uint32_t GetMtu() const;
    uint32_t GetAckEvery() const;
    /// The IOAM namespace and hop count of the traces its queue pairs send (probes, and data
    /// under a telemetry-driven congestion control).
    uint16_t GetTelemetryNamespace() const;
    uint32_t GetTelemetryHops() const;
    Time GetRto() const;

    /// Receivers: go-back-N (the classic RoCE NIC) or reorder-tolerant (RcResponder).
    enum ReorderMode : uint8_t
    {
        GO_BACK_N,
        TOLERANT
    };

    /// Whether its responders place packets out of order and its requesters resend selectively.
    bool IsReorderTolerant() const
    {
        return m_reorder == TOLERANT;
    }

    /// Tolerant, with GroupReorderTimer on: group responders look at holes and tails when due.
    bool HasGroupReorderTimer() const
    {
        return m_groupReorderTimer && m_reorder == TOLERANT;
    }

    /// Tolerant: bitmap size, in packets past the expected PSN, of each responder.
    uint32_t GetReorderWindow() const;
    /// Tolerant: how long a hole stays open before it is NAKed selectively.
    Time GetReorderTimeout() const;

    /// What it counted; its queue pairs and responders add to it directly.
    RdmaNicCounters& GetCounters()
    {
        return m_counters;
    }

    const RdmaNicCounters& GetCounters() const
    {
        return m_counters;
    }

    /// Report its counters, its queue pairs' and their path steering's to the run's summary.
    void AddCounters(CounterSet& counters) const;
    /// Frames of queue pairs created for owner from now on ride this priority class instead of
    /// DataPriority (a workload's `priority`).
    void SetOwnerPriority(uint8_t owner, uint8_t priority);
    /// Queue pairs created for owner from now on send loss-tolerant data: each lost PSN is
    /// sent again at most maxRetransmissions times (QueuePair::SetMaxRetransmissions; a
    /// workload's `loss_tolerant`).
    void SetOwnerMaxRetransmissions(uint8_t owner, uint8_t maxRetransmissions);
    /// How long the peer has kept priority paused on this NIC's port so far
    /// (FabricNetDevice::GetPausedTime).
    Time GetPausedTime(uint8_t priority) const;
    /// The per-owner counters this NIC adds to (its device's), or null.
    Ptr<TrafficLedger> GetTrafficLedger() const;
    /**
     * Received frames go through pipeline (a finite packet rate) before they reach their
     * queue pairs; without one (the default) they reach them as they arrive. After Setup.
     */
    void SetReceivePipeline(Ptr<NicReceivePipeline> pipeline);
    /// The receive pipeline, or null.
    Ptr<NicReceivePipeline> GetReceivePipeline() const;

protected:
    void DoDispose() override;

private:
    /// The next frame to send, as the egress arbiter chooses (RdmaEgressArbiter).
    FabricFrame DequeueFrame(uint32_t port, uint8_t pausedMask, Time now) override;
    /// Whether its egress holds anything (RdmaEgressArbiter::IsEmpty): a queue pair that gets
    /// data, a control frame and a pacing wake-up each call the port's TryTransmit.
    bool MayDequeue(uint32_t port) const override;
    /// Build, encapsulate and count the next data frame of qp.
    FabricFrame BuildDataFrame(QueuePair* qp, Time now);
    void ReceiveFrame(uint32_t port, FabricFrame& frame) override;
    /// A received frame to its queue pair or group responder (through the pipeline, if any).
    void Demultiplex(uint32_t port, FabricFrame& frame);
    /// A frame for group responder index (GroupResponderSet).
    void ReceiveGroupFrame(uint32_t index, const FrameInfo& fi);
    /// A probe for one of its queue pairs (answered) or a probe's acknowledgement (to the
    /// queue pair's steering).
    void ReceiveProbe(Ptr<QueuePair> qp, FabricFrame& frame);
    /// This NIC's addressing of a packet to dstIp (its source IP, its ICRC setting).
    RocePacketBuilder::Addressing MakeAddressing(uint32_t dstIp,
                                                 uint16_t srcPort,
                                                 uint8_t priority,
                                                 bool ecnCapable) const;
    /// Add UDP/IPv4/Ethernet (and the ICRC trailer) around a BTH-led packet.
    void Encapsulate(
        Ptr<Packet> p, uint32_t dstHost, uint16_t srcPort, uint8_t priority, bool ecnCapable);
    /// Queue an ACK, NAK or CNP ahead of all data and wake the port.
    void QueueControl(FabricFrame frame);
    void SetComputeIcrc(bool computeIcrc);
    void SetControlPriority(uint8_t priority);
    /// UDP/IPv4 to the group address, then the mechanism's header(s); returns the first frame
    /// and queues the other copies.
    Ptr<Packet> EncapsulateMulticast(QueuePair* qp, Ptr<Packet> p, uint32_t payload);
    void Wake();

    Ptr<Node> m_node;
    Ptr<FabricNetDevice> m_device;
    Ptr<TrafficLedger> m_ledger;
    Ptr<NicReceivePipeline> m_rxPipeline;     // none: frames cost the receive path nothing
    OpLedger* m_ops{nullptr};                 // m_ledger's per-operation rows, or none
    std::array<uint8_t, 256> m_ownerPriority; // 0xFF: DataPriority
    std::array<uint8_t, 256> m_ownerMaxRetx;  // QueuePair::RELIABLE: every loss recovered
    uint32_t m_host{0};
    Ipv4Address m_address;
    Mac48Address m_mac;
    QpTable m_table;             // queue pairs and P2MP flows by number
    RdmaEgressArbiter m_egress;  // what the port sends next
    GroupResponderSet m_groupRx; // the receiving ends of P2MP flows
    NicProbeAgent m_probes;      // telemetry probes: made, answered, answers delivered
    AckFrameBuilder m_ackFrames; // this NIC's ACKs/NAKs/CNPs, bytes built when read
    bool m_groupReorderTimer{true};
    std::vector<Ptr<Packet>> m_frames; // scratch: frames of one P2MP packet

    uint32_t m_mtu;
    uint32_t m_ackEvery;
    Time m_rto;
    uint8_t m_dataPriority;
    uint8_t m_ctrlPriority;
    bool m_ecnCapable;
    bool m_computeIcrc;
    bool m_ccEnabled;
    Time m_cnpInterval;
    ObjectFactory m_ccFactory;
    ObjectFactory m_steeringFactory; // no TypeId: no steering
    bool m_steering{false};
    uint64_t m_seed{1};
    EventId m_wakeup;
    Time m_wakeupAt;
    uint32_t m_timerLane; // the QPs' retransmission timers: see GetTimerLane

    uint16_t m_telemetryNamespace{1};
    /// The trace of the data frame being received, while it is: an ACK it causes echoes it.
    IoamTraceHeader m_echo;
    bool m_echoing{false};
    uint32_t m_telemetryHops{3};
    ReorderMode m_reorder{GO_BACK_N};
    uint32_t m_reorderWindow{0};
    Time m_reorderTimeout;
    RdmaNicCounters m_counters;
};

} // namespace ns3

#endif /* MCAST4AI_RDMA_NIC_H */
