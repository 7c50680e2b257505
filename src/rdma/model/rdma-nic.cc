#include "rdma/model/rdma-nic.h"

#include "core/model/counter-set.h"
#include "core/model/member-trace-source-accessor.h"
#include "core/model/mix64.h"
#include "core/model/ns3-compat.h"
#include "core/model/process-ranks.h"
#include "core/model/quad-heap-scheduler.h"
#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"
#include "rdma/model/dcqcn.h"
#include "wire/model/bth-header.h"
#include "wire/model/fabric-address.h"
#include "wire/model/probe-frame-builder.h"
#include "wire/model/roce-packet-builder.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");
NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::RdmaNic")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<RdmaNic>()
              .AddAttribute("Mtu",
                            "RDMA path MTU: payload bytes per packet",
                            UintegerValue(1024),
                            MakeUintegerAccessor(&RdmaNic::m_mtu),
                            MakeUintegerChecker<uint32_t>(256, 4096))
              .AddAttribute("AckEvery",
                            "The responder acknowledges every N in-order packets (and every "
                            "message's last packet)",
                            UintegerValue(1),
                            MakeUintegerAccessor(&RdmaNic::m_ackEvery),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("Rto",
                            "Retransmission timeout of the requester",
                            TimeValue(MicroSeconds(1000)),
                            MakeTimeAccessor(&RdmaNic::m_rto),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("DataPriority",
                            "Priority (DSCP class selector) of RDMA data packets",
                            UintegerValue(3),
                            MakeUintegerAccessor(&RdmaNic::m_dataPriority),
                            MakeUintegerChecker<uint8_t>(0, 7))
              .AddAttribute(
                  "ControlPriority",
                  "Priority of ACK, NAK and CNP packets",
                  UintegerValue(6),
                  MakeUintegerAccessor(&RdmaNic::SetControlPriority, &RdmaNic::GetControlPriority),
                  MakeUintegerChecker<uint8_t>(0, 7))
              .AddAttribute("EcnCapable",
                            "Send data as ECT(0) so switches can mark it",
                            BooleanValue(true),
                            MakeBooleanAccessor(&RdmaNic::m_ecnCapable),
                            MakeBooleanChecker())
              .AddAttribute("CongestionControlEnabled",
                            "Run congestion control: CNPs on CE-marked arrivals (notification "
                            "point) and a rate controller per sending QP (reaction point)",
                            BooleanValue(false),
                            MakeBooleanAccessor(&RdmaNic::m_ccEnabled),
                            MakeBooleanChecker())
              .AddAttribute("CongestionControl",
                            "TypeId of the rate controller every sending QP gets",
                            TypeIdValue(Dcqcn::GetTypeId()),
                            MakeTypeIdAccessor(&RdmaNic::SetCongestionControlType),
                            MakeTypeIdChecker())
              .AddAttribute("CnpInterval",
                            "A responder QP sends at most one CNP per interval",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&RdmaNic::m_cnpInterval),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ComputeIcrc",
                            "Compute the real ICRC of every packet (costs a CRC over the payload; "
                            "useful with pcaps). Otherwise the 4 ICRC bytes are zero.",
                            BooleanValue(false),
                            MakeBooleanAccessor(&RdmaNic::SetComputeIcrc, &RdmaNic::GetComputeIcrc),
                            MakeBooleanChecker())
              .AddAttribute("Seed",
                            "Seeds the NIC's random choices (path-steering probes)",
                            UintegerValue(1),
                            MakeUintegerAccessor(&RdmaNic::m_seed),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute(
                  "Reorder",
                  "Receivers: go-back-n (a gap is NAKed and everything after it "
                  "dropped) or tolerant (packets ahead of a hole are placed and held "
                  "in a bitmap, a hole is NAKed selectively, requesters resend only "
                  "the PSNs asked for)",
                  EnumValue(RdmaNic::GO_BACK_N),
                  MakeEnumAccessorFor<RdmaNic::ReorderMode>(&RdmaNic::m_reorder),
                  MakeEnumChecker(RdmaNic::GO_BACK_N, "go-back-n", RdmaNic::TOLERANT, "tolerant"))
              .AddAttribute("ReorderWindow",
                            "Tolerant: bitmap size of each responder, in packets past its "
                            "expected PSN; packets further ahead are dropped",
                            UintegerValue(4096),
                            MakeUintegerAccessor(&RdmaNic::m_reorderWindow),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("ReorderTimeout",
                            "Tolerant: a hole is NAKed selectively once the first packet held "
                            "behind it is this old",
                            TimeValue(MicroSeconds(100)),
                            MakeTimeAccessor(&RdmaNic::m_reorderTimeout),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("GroupReorderTimer",
                            "Tolerant: a P2MP receiver looks at an open hole, or at a message "
                            "whose rest stopped arriving, when the reorder timeout says, not "
                            "only when packets arrive (false: holes are NAKed only as packets "
                            "arrive, and a lost tail waits for the root's retransmission "
                            "timeout)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&RdmaNic::m_groupReorderTimer),
                            MakeBooleanChecker())
              .AddAttribute("TelemetryNamespace",
                            "IOAM namespace of the telemetry probes its queue pairs' steering "
                            "sends",
                            UintegerValue(1),
                            MakeUintegerAccessor(&RdmaNic::m_telemetryNamespace),
                            MakeUintegerChecker<uint16_t>())
              .AddAttribute("TelemetryHops",
                            "Switches a probe's trace has room for (the fabric's longest path)",
                            UintegerValue(3),
                            MakeUintegerAccessor(&RdmaNic::m_telemetryHops),
                            MakeUintegerChecker<uint32_t>(1, 18))
              .AddTraceSource("EarlyArrival",
                              "A tolerant responder got a packet ahead of a hole (how many PSNs "
                              "past the expected one)",
                              MakeMemberTraceSourceAccessor(&RdmaNic::m_counters,
                                                            &RdmaNicCounters::earlyArrival),
                              "ns3::TracedValueCallback::Uint64")
              .AddTraceSource("DuplicateArrival",
                              "A responder got a data packet it already had",
                              MakeMemberTraceSourceAccessor(&RdmaNic::m_counters,
                                                            &RdmaNicCounters::duplicateArrival),
                              "ns3::TracedValueCallback::Void")
              .AddTraceSource(
                  "Lost",
                  "A responder took a PSN skip in the place of a loss-tolerant "
                  "packet its requester gave up on (the payload bytes lost)",
                  MakeMemberTraceSourceAccessor(&RdmaNic::m_counters, &RdmaNicCounters::lost),
                  "ns3::TracedValueCallback::Uint32")
              .AddTraceSource(
                  "CnpSent",
                  "The notification point sent a CNP (destination QPN)",
                  MakeMemberTraceSourceAccessor(&RdmaNic::m_counters, &RdmaNicCounters::cnpSent),
                  "ns3::TracedValueCallback::Uint32")
              .AddTraceSource("CnpReceived",
                              "A CNP arrived for a local QP (its QPN)",
                              MakeMemberTraceSourceAccessor(&RdmaNic::m_counters,
                                                            &RdmaNicCounters::cnpReceived),
                              "ns3::TracedValueCallback::Uint32");
    return tid;
}

RdmaNic::RdmaNic()
    : m_timerLane(QuadHeapScheduler::NewLane())
{
    m_ccFactory.SetTypeId(Dcqcn::GetTypeId());
    m_ownerPriority.fill(0xFF);
    m_ownerMaxRetx.fill(QueuePair::RELIABLE);
}

void
RdmaNic::SetCongestionControlType(TypeId tid)
{
    NS_ABORT_MSG_UNLESS(tid.IsChildOf(RdmaCongestionControl::GetTypeId()),
                        tid.GetName() << " is not an RdmaCongestionControl");
    m_ccFactory.SetTypeId(tid);
}

void
RdmaNic::SetCongestionControlAttribute(const std::string& name, const AttributeValue& value)
{
    m_ccFactory.Set(name, value);
}

void
RdmaNic::SetPathSteeringType(TypeId tid)
{
    NS_ABORT_MSG_UNLESS(tid.IsChildOf(PathSteering::GetTypeId()),
                        tid.GetName() << " is not a PathSteering");
    m_steeringFactory.SetTypeId(tid);
    m_steering = true;
}

void
RdmaNic::SetPathSteeringAttribute(const std::string& name, const AttributeValue& value)
{
    m_steeringFactory.Set(name, value);
}

bool
RdmaNic::IsSteering() const
{
    return m_steering;
}

bool
RdmaNic::IsNotificationPoint() const
{
    return m_ccEnabled;
}

Time
RdmaNic::GetCnpInterval() const
{
    return m_cnpInterval;
}

Ptr<RdmaCongestionControl>
RdmaNic::CreateCongestionControl() const
{
    if (!m_ccEnabled)
    {
        return nullptr;
    }
    Ptr<RdmaCongestionControl> cc = m_ccFactory.Create<RdmaCongestionControl>();
    cc->SetLineRate(m_device->GetDataRate());
    return cc;
}

uint32_t
RdmaNic::GetTimerLane() const
{
    return m_timerLane;
}

Ptr<QueuePair>
RdmaNic::GetQpByIndex(uint32_t index) const
{
    return m_table.GetByCreation(index);
}

void
RdmaNic::DoDispose()
{
    m_table.Clear();
    m_egress.Clear();
    m_groupRx.Clear();
    m_wakeup.Cancel();
    if (m_rxPipeline)
    {
        m_rxPipeline->Dispose();
        m_rxPipeline = nullptr;
    }
    QuadHeapScheduler::ReleaseLane(m_timerLane);
    m_timerLane = QuadHeapScheduler::NO_LANE;
    if (m_device)
    {
        m_device->SetOwner(nullptr);
    }
    m_device = nullptr;
    m_node = nullptr;
    Object::DoDispose();
}

void
RdmaNic::Setup(Ptr<Node> node, Ptr<FabricNetDevice> device, uint32_t host)
{
    NS_LOG_FUNCTION(this << node << device << host);
    m_node = node;
    m_device = device;
    m_host = host;
    m_address = FabricAddress::HostIpv4(host);
    m_mac = FabricAddress::HostMac(host);
    m_ackFrames.SetSource(m_mac);
    m_probes.Setup(m_mac, &m_counters);
    m_groupRx.Setup(this);
    device->SetAddress(m_mac);
    device->SetOwner(this);
    m_ledger = device->GetTrafficLedger();
    m_ops = m_ledger ? m_ledger->GetOpLedger() : nullptr;
    m_counters.ledger = PeekPointer(m_ledger);
    m_counters.ops = m_ops;
    if (node->GetSystemId() != ProcessRanks::GetRank())
    {
        // Another process simulates this host: numbers only (QpTable::SetStandIn).
        NS_LOG_LOGIC("host " << host << " is process " << node->GetSystemId() << "'s");
        m_table.SetStandIn();
    }
}

bool
RdmaNic::IsStandIn() const
{
    return m_table.IsStandIn();
}

uint32_t
RdmaNic::ReserveQpn()
{
    return m_table.Reserve();
}

std::pair<Ptr<QueuePair>, Ptr<QueuePair>>
RdmaNic::CreateConnection(
    Ptr<RdmaNic> a, Ptr<RdmaNic> b, uint16_t portA, uint16_t portB, uint8_t owner)
{
    // Each end is numbered in turn at its own NIC, made or not, so QPNs agree on every process.
    Ptr<QueuePair> qa = a->IsStandIn() ? nullptr : a->CreateQp(b->GetHost(), portA, owner);
    const uint32_t qpnA = qa ? qa->GetQpn() : a->ReserveQpn();
    Ptr<QueuePair> qb = b->IsStandIn() ? nullptr : b->CreateQp(a->GetHost(), portB, owner);
    const uint32_t qpnB = qb ? qb->GetQpn() : b->ReserveQpn();
    if (qa)
    {
        qa->SetRemoteQpn(qpnB);
    }
    if (qb)
    {
        qb->SetRemoteQpn(qpnA);
    }
    return {qa, qb};
}

Ptr<FabricNetDevice>
RdmaNic::GetDevice() const
{
    return m_device;
}

uint32_t
RdmaNic::GetHost() const
{
    return m_host;
}

Ptr<QueuePair>
RdmaNic::CreateQp(uint32_t remoteHost, uint16_t srcPort, uint8_t owner)
{
    NS_LOG_FUNCTION(this << remoteHost << srcPort << +owner);
    Ptr<QueuePair> qp = CreateObject<QueuePair>();
    qp->Setup(this, m_table.NextQpn(), remoteHost, srcPort);
    qp->SetOwner(owner);
    qp->SetPriority(m_ownerPriority[owner] == 0xFF ? m_dataPriority : m_ownerPriority[owner]);
    qp->SetMaxRetransmissions(m_ownerMaxRetx[owner]);
    m_egress.AddDataClass(qp->GetPriority());
    if (m_steering)
    {
        Ptr<PathSteering> steering = m_steeringFactory.Create<PathSteering>();
        // Payload bytes per second at line rate: MTU-sized packets with RoCEv2 headers and
        // Ethernet framing.
        double wire = m_mtu + FrameInfo::ETH_BYTES + FrameInfo::IPV4_BYTES + FrameInfo::UDP_BYTES
                      + FrameInfo::BTH_BYTES + FrameInfo::ICRC_BYTES + m_device->GetFramingBytes();
        steering->Setup(Mix64(m_seed ^ (uint64_t{m_host} << 32) ^ qp->GetQpn()),
                        m_device->GetDataRate().GetBitRate() / 8.0 * m_mtu / wire,
                        m_ccEnabled && m_ecnCapable);
        // Probes go out through the NIC, addressed by QPN: no cycle of references.
        steering->SetProbeSender(MakeCallback(&RdmaNic::SendProbe, this).Bind(qp->GetQpn()));
        qp->SetPathSteering(steering);
    }
    m_table.Add(qp);
    return qp;
}

Ptr<QueuePair>
RdmaNic::CreateMulticastQp(uint32_t groupQpn,
                           Ptr<P2mpEncapsulator> sender,
                           Ptr<AckAggregator> localAgg,
                           bool ackFree,
                           uint16_t srcPort,
                           uint8_t owner)
{
    NS_LOG_FUNCTION(this << groupQpn << sender << localAgg << ackFree << srcPort << +owner);
    Ptr<QueuePair> qp = CreateQp(m_host, srcPort, owner);
    qp->SetPathSteering(nullptr); // a P2MP flow's entropy is its group's (BIER's ECMP)
    qp->SetMulticast(sender, groupQpn, localAgg, ackFree);
    qp->SetRemoteQpn(groupQpn);
    // Receivers acknowledge to the group QPN: one number names the flow at every hop, so an
    // aggregating switch keys data and ACKs alike by (sender, group QPN).
    m_table.AddGroupRequester(groupQpn, *qp);
    return qp;
}

uint32_t
RdmaNic::CreateGroupResponder(uint32_t groupQpn,
                              uint32_t senderHost,
                              uint32_t senderQpn,
                              uint16_t srcPort,
                              uint32_t ackEvery,
                              bool ackFree,
                              GroupReceiveCallback receive,
                              uint8_t owner)
{
    NS_LOG_FUNCTION(this << groupQpn << senderHost << senderQpn << srcPort << ackEvery << ackFree
                         << +owner);
    // The QPN a queue pair would have taken, so that the queue pairs created after it are
    // numbered as they would be if every responder were one.
    uint32_t qpn = m_table.Reserve();
    if (IsStandIn())
    {
        return qpn; // its process holds the responder
    }
    RcResponder::Peer peer;
    peer.host = senderHost;
    peer.qpn = senderQpn;
    peer.srcPort = srcPort;
    peer.owner = owner;
    m_table.AddGroupReceiver(
        groupQpn, m_groupRx.Add(peer, qpn, ackEvery, ackFree, m_ownerMaxRetx[owner], receive));
    return qpn;
}

void
RdmaNic::SetGroupMaxRetransmissions(uint32_t groupQpn, uint8_t maxRetransmissions)
{
    if (IsStandIn())
    {
        return;
    }
    QpTable::Group g;
    // The lookup must run in every build: not inside an assert, which Release drops.
    const bool found = m_table.FindGroup(groupQpn, g);
    NS_ABORT_MSG_UNLESS(found && !g.requester, "no group responder for QPN " << groupQpn);
    m_groupRx.SetMaxRetransmissions(g.index, maxRetransmissions);
}

uint32_t
RdmaNic::GetNGroupResponders() const
{
    return m_groupRx.GetN();
}

uint64_t
RdmaNic::GetGroupReceivedPackets(uint32_t groupQpn) const
{
    QpTable::Group g;
    if (!m_table.FindGroup(groupQpn, g) || g.requester)
    {
        return 0;
    }
    return m_groupRx.GetReceivedPackets(g.index);
}

void
RdmaNic::Connect(Ptr<QueuePair> a, Ptr<QueuePair> b)
{
    a->SetRemoteQpn(b->GetQpn());
    b->SetRemoteQpn(a->GetQpn());
}

Ptr<QueuePair>
RdmaNic::GetQp(uint32_t qpn) const
{
    return m_table.Get(qpn);
}

uint32_t
RdmaNic::GetNQps() const
{
    return m_table.GetNQps();
}

void
RdmaNic::NotifyReady(Ptr<QueuePair> qp)
{
    m_egress.Activate(QpTable::IndexOf(*qp));
    m_device->TryTransmit();
}

FabricFrame
RdmaNic::DequeueFrame(uint32_t port, uint8_t pausedMask, Time now)
{
    FabricFrame frame;
    const FabricFrame* next = nullptr;
    switch (m_egress.Next(pausedMask, frame, next))
    {
        case RdmaEgressArbiter::FRAME:
            // ACKs can queue by the thousand behind a paused port: the next one is cold by the
            // time it goes.
            m_device->HintNextFrame(next);
            return frame;
        case RdmaEgressArbiter::NONE:
            return frame;
        case RdmaEgressArbiter::DATA:
            break;
    }
    Time earliest;
    QueuePair* qp = m_egress.NextQp(m_table.GetAll(), pausedMask, now, earliest);
    if (!qp)
    {
        if (earliest != Time::Max())
        {
            WakeAt(earliest);
        }
        return frame;
    }
    frame = BuildDataFrame(qp, now);
    m_egress.Served(QpTable::IndexOf(*qp), qp->HasPacketToSend());
    return frame;
}

bool
RdmaNic::MayDequeue(uint32_t port) const
{
    return !m_egress.IsEmpty();
}

FabricFrame
RdmaNic::BuildDataFrame(QueuePair* qp, Time now)
{
    uint32_t payload = 0;
    Ptr<Packet> p = qp->BuildNextPacket(payload);
    uint32_t tag = qp->GetLastBuiltMessage().tag;
    if (tag && m_ops)
    {
        Time paused = m_device->GetPausedTime(qp->GetPriority(), now);
        m_ops->Built(tag, paused - qp->SwapPauseReading(paused));
    }
    if (qp->IsMulticast())
    {
        p = EncapsulateMulticast(qp, p, payload);
    }
    else
    {
        Encapsulate(p, qp->GetRemoteHost(), qp->GetBuiltPort(), qp->GetPriority(), m_ecnCapable);
        qp->PacketSent(p->GetSize() + m_device->GetFramingBytes());
        ++m_counters.dataPackets;
        m_counters.dataBytes += payload;
        m_counters.headerBytes += p->GetSize() - payload;
        if (m_ledger)
        {
            TrafficLedger::Counters& row = m_ledger->Row(qp->GetOwner());
            ++row.dataPackets;
            row.dataBytes += payload;
            row.headerBytes += p->GetSize() - payload;
        }
    }
    FabricFrame frame = FabricFrame::From(p);
    frame.info.owner = qp->GetOwner();
    frame.info.op = tag;
    return frame;
}

RocePacketBuilder::Addressing
RdmaNic::MakeAddressing(uint32_t dstIp, uint16_t srcPort, uint8_t priority, bool ecnCapable) const
{
    RocePacketBuilder::Addressing a;
    a.srcIp = m_address.Get();
    a.dstIp = dstIp;
    a.srcPort = srcPort;
    a.priority = priority;
    a.ecnCapable = ecnCapable;
    a.computeIcrc = m_computeIcrc;
    return a;
}

Ptr<Packet>
RdmaNic::EncapsulateMulticast(QueuePair* qp, Ptr<Packet> p, uint32_t payload)
{
    const QueuePair::Message& m = qp->GetLastBuiltMessage();
    RocePacketBuilder::AddUdpIp(p,
                                MakeAddressing(FabricAddress::GroupIpv4(qp->GetGroupQpn()),
                                               qp->GetBuiltPort(),
                                               qp->GetPriority(),
                                               m_ecnCapable));
    m_egress.SetCopiesPriority(qp->GetPriority());
    m_frames.clear();
    qp->GetP2mpEncapsulator()->Encapsulate(p, m.target, qp->LastBuiltWasFirst(), m_mac, m_frames);
    uint32_t wire = 0;
    for (const auto& f : m_frames)
    {
        wire += f->GetSize() + m_device->GetFramingBytes();
        ++m_counters.dataPackets;
        m_counters.dataBytes += payload;
        m_counters.headerBytes += f->GetSize() - payload;
    }
    ++m_counters.mcastPackets;
    m_counters.mcastCopies += m_frames.size();
    if (m_ledger)
    {
        TrafficLedger::Counters& row = m_ledger->Row(qp->GetOwner());
        for (const auto& f : m_frames)
        {
            ++row.dataPackets;
            row.dataBytes += payload;
            row.headerBytes += f->GetSize() - payload;
            row.p2mpHeaderBytes += f->GetSize() - payload;
        }
        ++row.p2mpPackets;
        row.p2mpCopies += m_frames.size();
    }
    qp->PacketSent(wire);
    for (std::size_t i = 1; i < m_frames.size(); ++i)
    {
        FabricFrame copy = FabricFrame::From(m_frames[i]);
        copy.info.owner = qp->GetOwner();
        copy.info.op = m.tag;
        m_egress.QueueCopy(std::move(copy));
    }
    return m_frames[0];
}

void
RdmaNic::WakeAt(Time t)
{
    if (IsPending(m_wakeup) && m_wakeupAt <= t)
    {
        return;
    }
    m_wakeup.Cancel();
    m_wakeupAt = t;
    m_wakeup = Simulator::Schedule(t - Simulator::Now(), &RdmaNic::Wake, this);
}

void
RdmaNic::Wake()
{
    m_device->TryTransmit();
}

void
RdmaNic::Encapsulate(
    Ptr<Packet> p, uint32_t dstHost, uint16_t srcPort, uint8_t priority, bool ecnCapable)
{
    // Switches route on IPv4; the destination MAC names the final host, not the next hop.
    RocePacketBuilder::AddEnvelope(
        p,
        MakeAddressing(FabricAddress::HostIpv4(dstHost).Get(), srcPort, priority, ecnCapable),
        m_mac,
        FabricAddress::HostMac(dstHost));
}

void
RdmaNic::SendAck(const RcResponder::Peer& to, uint32_t psn24, bool nak, uint32_t msn)
{
    const RocePacketBuilder::Addressing a
        = MakeAddressing(FabricAddress::HostIpv4(to.host).Get(), to.srcPort, m_ctrlPriority, false);
    // Deferred: ACKs are most of a broadcast's frames, and their bytes are rarely read. One
    // that takes a data packet's in-band telemetry back has bytes from the start.
    FabricFrame ack
        = m_echoing ? FabricFrame::From(RocePacketBuilder::AckFrame(
              a, m_mac, FabricAddress::HostMac(to.host), to.qpn, psn24, nak, msn, &m_echo))
                    : m_ackFrames.Make(a, to.qpn, psn24, nak, msn);
    NS_LOG_LOGIC("host " << m_host << ": " << (nak ? "NAK" : "ACK") << " of PSN " << psn24
                         << " to host " << to.host << " QP " << to.qpn
                         << (m_echoing ? ", echoing telemetry" : ""));
    m_echoing = false;
    ack.info.owner = to.owner;
    m_counters.naksSent += nak;
    QueueControl(std::move(ack));
}

uint16_t
RdmaNic::GetTelemetryNamespace() const
{
    return m_telemetryNamespace;
}

uint32_t
RdmaNic::GetTelemetryHops() const
{
    return m_telemetryHops;
}

uint32_t
RdmaNic::GetReorderWindow() const
{
    return m_reorderWindow;
}

Time
RdmaNic::GetReorderTimeout() const
{
    return m_reorderTimeout;
}

void
RdmaNic::SetComputeIcrc(bool computeIcrc)
{
    m_computeIcrc = computeIcrc;
    m_ackFrames.SetComputeIcrc(computeIcrc);
}

bool
RdmaNic::GetComputeIcrc() const
{
    return m_computeIcrc;
}

void
RdmaNic::SendCnp(const RcResponder::Peer& to)
{
    // Deferred, as ACKs: under a large incast CNPs are a good part of the frames.
    FabricFrame cnp = m_ackFrames.MakeCnp(
        MakeAddressing(FabricAddress::HostIpv4(to.host).Get(), to.srcPort, m_ctrlPriority, false),
        to.qpn);
    NS_LOG_LOGIC("host " << m_host << ": CNP to host " << to.host << " QP " << to.qpn);
    ++m_counters.cnpsSent;
    m_counters.cnpSent(to.qpn);
    cnp.info.owner = to.owner;
    if (m_ledger)
    {
        ++m_ledger->Row(to.owner).cnps;
    }
    QueueControl(std::move(cnp));
}

void
RdmaNic::SendAckAs(const RocePacketBuilder::Addressing& a,
                   uint32_t destQp,
                   uint32_t psn24,
                   bool nak,
                   uint8_t owner)
{
    NS_LOG_LOGIC("host " << m_host << ": " << (nak ? "NAK" : "ACK") << " of PSN " << psn24
                         << " to QP " << destQp << " on another's behalf");
    FabricFrame ack = m_ackFrames.Make(a, destQp, psn24, nak, 0);
    ack.info.owner = owner;
    QueueControl(std::move(ack));
}

void
RdmaNic::SetControlPriority(uint8_t priority)
{
    m_ctrlPriority = priority;
    m_egress.SetControlPriority(priority);
}

uint8_t
RdmaNic::GetControlPriority() const
{
    return m_ctrlPriority;
}

void
RdmaNic::QueueControl(FabricFrame frame)
{
    m_egress.QueueControl(std::move(frame));
    m_device->TryTransmit();
}

void
RdmaNic::SetReceivePipeline(Ptr<NicReceivePipeline> pipeline)
{
    NS_ABORT_MSG_UNLESS(m_device, "RdmaNic::SetReceivePipeline before Setup");
    m_rxPipeline = pipeline;
    if (pipeline)
    {
        pipeline->Setup(m_device, MakeCallback(&RdmaNic::Demultiplex, this));
    }
}

Ptr<NicReceivePipeline>
RdmaNic::GetReceivePipeline() const
{
    return m_rxPipeline;
}

void
RdmaNic::ReceiveFrame(uint32_t port, FabricFrame& frame)
{
    if (!frame.info.roce)
    {
        return;
    }
    if (m_rxPipeline)
    {
        m_rxPipeline->Receive(port, frame);
        return;
    }
    Demultiplex(port, frame);
}

void
RdmaNic::Demultiplex(uint32_t port, FabricFrame& frame)
{
    const FrameInfo& fi = frame.info;
    Ptr<QueuePair> qp = m_table.Get(fi.destQp);
    if (!qp)
    {
        QpTable::Group g;
        if (!m_table.FindGroup(fi.destQp, g))
        {
            NS_LOG_WARN("frame for unknown QP " << fi.destQp << " at host " << m_host);
            return;
        }
        if (!g.requester)
        {
            ReceiveGroupFrame(g.index, fi);
            return;
        }
        qp = m_table.GetAll()[g.index];
    }
    if (fi.opcode == BthHeader::RC_ACKNOWLEDGE)
    {
        ++m_counters.acksReceived;
        if (m_ledger)
        {
            ++m_ledger->Row(fi.owner).acksAtSenders;
        }
        if (fi.traceWords)
        {
            // Telemetry only when there is some: ACKs are the most frequent frames.
            IoamTraceHeader trace;
            const bool echoed
                = ProbeFrameBuilder::ReadTrace(frame.GetPacket(), trace) && trace.IsWellFormed();
            qp->ReceiveAck(fi, echoed ? &trace : nullptr);
        }
        else
        {
            qp->ReceiveAck(fi);
        }
    }
    else if (BthHeader::IsRequest(fi.opcode))
    {
        m_echoing = fi.traceWords && ProbeFrameBuilder::ReadTrace(frame.GetPacket(), m_echo);
        qp->ReceiveData(fi);
        m_echoing = false;
    }
    else if (fi.opcode == BthHeader::CNP)
    {
        ++m_counters.cnpsReceived;
        m_counters.cnpReceived(fi.destQp);
        qp->ReceiveCnp();
    }
    else if (BthHeader::IsProbe(fi.opcode) || fi.opcode == BthHeader::RC_PROBE_ACK)
    {
        ReceiveProbe(qp, frame);
    }
}

void
RdmaNic::SendProbe(uint32_t qpn, uint16_t srcPort, uint32_t probeId, bool claim)
{
    Ptr<QueuePair> qp = GetQp(qpn);
    const RocePacketBuilder::Addressing a = MakeAddressing(
        FabricAddress::HostIpv4(qp->GetRemoteHost()).Get(), srcPort, qp->GetPriority(), false);
    m_egress.QueueProbe(m_probes.MakeProbe(a,
                                           *qp,
                                           probeId,
                                           m_telemetryNamespace,
                                           m_telemetryHops,
                                           claim,
                                           m_device->GetFramingBytes()));
    // Not TryTransmit here: a probe is sent from inside this NIC's own DequeueFrame (the
    // steering asks at a message's first packet), where the port is not marked busy yet.
    Simulator::ScheduleNow(&RdmaNic::Wake, this);
}

void
RdmaNic::ReceiveProbe(Ptr<QueuePair> qp, FabricFrame& frame)
{
    FabricFrame reply;
    if (m_probes.Receive(
            *qp,
            frame,
            MakeAddressing(frame.info.srcIp, qp->GetSourcePort(), m_ctrlPriority, false),
            reply,
            m_device->GetFramingBytes()))
    {
        QueueControl(std::move(reply));
    }
}

void
RdmaNic::ReceiveGroupFrame(uint32_t index, const FrameInfo& fi)
{
    if (fi.opcode == BthHeader::RC_ACKNOWLEDGE)
    {
        // A responder has nothing outstanding: an ACK or NAK for it changes nothing.
        ++m_counters.acksReceived;
        if (m_ledger)
        {
            ++m_ledger->Row(fi.owner).acksAtSenders;
        }
    }
    else if (BthHeader::IsRequest(fi.opcode))
    {
        m_groupRx.Receive(index, fi);
    }
    else if (fi.opcode == BthHeader::CNP)
    {
        // Nothing is sent from a responder: there is no rate to cut.
        ++m_counters.cnpsReceived;
        m_counters.cnpReceived(fi.destQp);
    }
}

uint32_t
RdmaNic::GetMtu() const
{
    return m_mtu;
}

uint32_t
RdmaNic::GetAckEvery() const
{
    return m_ackEvery;
}

Time
RdmaNic::GetRto() const
{
    return m_rto;
}

void
RdmaNic::SetOwnerPriority(uint8_t owner, uint8_t priority)
{
    m_ownerPriority[owner] = priority;
}

void
RdmaNic::SetOwnerMaxRetransmissions(uint8_t owner, uint8_t maxRetransmissions)
{
    m_ownerMaxRetx[owner] = maxRetransmissions;
}

Time
RdmaNic::GetPausedTime(uint8_t priority) const
{
    return m_device ? m_device->GetPausedTime(priority, Simulator::Now()) : Time();
}

Ptr<TrafficLedger>
RdmaNic::GetTrafficLedger() const
{
    return m_ledger;
}

void
RdmaNic::AddCounters(CounterSet& counters) const
{
    m_counters.AddTo(counters);
    counters.Add("qps", m_table.GetNQps());
    counters.Max("qps_max", m_table.GetNQps());
    // One pass over its queue pairs: what they count themselves.
    uint64_t retransmissions = 0;
    for (uint32_t i = 0; i < m_table.GetNQps(); ++i)
    {
        Ptr<QueuePair> qp = m_table.GetByCreation(i);
        retransmissions += qp->GetRetransmissions();
        if (Ptr<PathSteering> steering = qp->GetPathSteering())
        {
            steering->AddCounters(counters);
        }
    }
    counters.Add("retransmissions", retransmissions);
}

} // namespace ns3
