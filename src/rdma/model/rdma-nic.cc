#include "rdma/model/rdma-nic.h"

#include "core/model/mix64.h"
#include "core/model/ns3-compat.h"
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

namespace
{
/// QPN 0 and 1 are the special QPs; connected QPs are numbered from here.
constexpr uint32_t FIRST_QPN = 0x100;
/// In RdmaNic::m_groups: the group QPN is a P2MP requester's (the rest is its m_qps index).
constexpr uint32_t REQUESTER = 0x80000000;
} // namespace

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
              .AddAttribute("ControlPriority",
                            "Priority of ACK, NAK and CNP packets",
                            UintegerValue(6),
                            MakeUintegerAccessor(&RdmaNic::m_ctrlPriority),
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
                              MakeTraceSourceAccessor(&RdmaNic::m_earlyTrace),
                              "ns3::TracedValueCallback::Uint64")
              .AddTraceSource("DuplicateArrival",
                              "A responder got a data packet it already had",
                              MakeTraceSourceAccessor(&RdmaNic::m_duplicateTrace),
                              "ns3::TracedValueCallback::Void")
              .AddTraceSource("Lost",
                              "A responder took a PSN skip in the place of a loss-tolerant "
                              "packet its requester gave up on (the payload bytes lost)",
                              MakeTraceSourceAccessor(&RdmaNic::m_lostTrace),
                              "ns3::TracedValueCallback::Uint32")
              .AddTraceSource("CnpSent",
                              "The notification point sent a CNP (destination QPN)",
                              MakeTraceSourceAccessor(&RdmaNic::m_cnpSentTrace),
                              "ns3::TracedValueCallback::Uint32")
              .AddTraceSource("CnpReceived",
                              "A CNP arrived for a local QP (its QPN)",
                              MakeTraceSourceAccessor(&RdmaNic::m_cnpReceivedTrace),
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
    return m_qps[m_created[index]];
}

void
RdmaNic::DoDispose()
{
    for (auto& qp : m_qps)
    {
        if (qp)
        {
            qp->Dispose();
        }
    }
    m_qps.clear();
    m_created.clear();
    m_control.clear();
    m_copies.clear();
    m_probes.clear();
    m_groups.clear();
    m_groupRx.clear();
    m_groupChecks = decltype(m_groupChecks)();
    m_groupCheckEvent.Cancel();
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

Ipv4Address
RdmaNic::HostAddress(uint32_t host)
{
    return FabricAddress::HostIpv4(host);
}

Mac48Address
RdmaNic::HostMac(uint32_t host)
{
    return FabricAddress::HostMac(host);
}

void
RdmaNic::Setup(Ptr<Node> node, Ptr<FabricNetDevice> device, uint32_t host)
{
    NS_LOG_FUNCTION(this << node << device << host);
    m_node = node;
    m_device = device;
    m_host = host;
    m_address = HostAddress(host);
    m_mac = HostMac(host);
    m_ackFrames.SetSource(m_mac);
    device->SetAddress(m_mac);
    device->SetOwner(this);
    m_ledger = device->GetTrafficLedger();
    m_ops = m_ledger ? m_ledger->GetOpLedger() : nullptr;
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
    qp->Setup(this, FIRST_QPN + m_qps.size(), remoteHost, srcPort);
    qp->SetOwner(owner);
    qp->SetPriority(m_ownerPriority[owner] == 0xFF ? m_dataPriority : m_ownerPriority[owner]);
    qp->SetMaxRetransmissions(m_ownerMaxRetx[owner]);
    m_dataClasses |= static_cast<uint8_t>(1u << qp->GetPriority());
    if (m_ccEnabled)
    {
        qp->SetCongestionControl(CreateCongestionControl());
    }
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
    m_created.push_back(m_qps.size());
    m_qps.push_back(qp);
    m_isActive.push_back(false);
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
    m_groups[groupQpn] = REQUESTER | (qp->GetQpn() - FIRST_QPN);
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
    uint32_t qpn = FIRST_QPN + m_qps.size();
    m_qps.push_back(nullptr);
    m_isActive.push_back(false);
    GroupResponder& g = m_groupRx.emplace_back();
    g.rx.SetAckEvery(m_ackEvery);
    g.rx.SetMulticast(ackEvery, ackFree);
    g.rx.SetMaxRetransmissions(m_ownerMaxRetx[owner]);
    g.rx.WatchTails(IsReorderTolerant());
    g.peer.host = senderHost;
    g.peer.qpn = senderQpn;
    g.peer.srcPort = srcPort;
    g.peer.owner = owner;
    g.qpn = qpn;
    g.receive = receive;
    m_groups[groupQpn] = m_groupRx.size() - 1;
    return qpn;
}

void
RdmaNic::SetGroupMaxRetransmissions(uint32_t groupQpn, uint8_t maxRetransmissions)
{
    auto it = m_groups.find(groupQpn);
    NS_ASSERT_MSG(it != m_groups.end() && !(it->second & REQUESTER),
                  "no group responder for QPN " << groupQpn);
    m_groupRx[it->second].rx.SetMaxRetransmissions(maxRetransmissions);
}

uint32_t
RdmaNic::GetNGroupResponders() const
{
    return m_groupRx.size();
}

uint64_t
RdmaNic::GetGroupReceivedPackets(uint32_t groupQpn) const
{
    auto it = m_groups.find(groupQpn);
    if (it == m_groups.end() || (it->second & REQUESTER))
    {
        return 0;
    }
    return m_groupRx[it->second].rx.GetExpected();
}

uint32_t
RdmaNic::GroupAddress(uint32_t groupQpn)
{
    return FabricAddress::GroupIpv4(groupQpn);
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
    uint32_t index = qpn - FIRST_QPN;
    return index < m_qps.size() ? m_qps[index] : nullptr;
}

uint32_t
RdmaNic::GetNQps() const
{
    return m_created.size();
}

void
RdmaNic::NotifyReady(Ptr<QueuePair> qp)
{
    uint32_t index = qp->GetQpn() - FIRST_QPN;
    if (!m_isActive[index])
    {
        m_isActive[index] = true;
        m_active.push_back(index);
    }
    m_device->TryTransmit();
}

FabricFrame
RdmaNic::DequeueFrame(uint32_t port, uint8_t pausedMask, Time now)
{
    if (!m_control.empty() && !(pausedMask & (1u << m_ctrlPriority)))
    {
        FabricFrame f = std::move(m_control.front());
        m_control.pop_front();
        // ACKs can queue by the thousand behind a paused port: the next one is cold by the
        // time it goes.
        m_device->HintNextFrame(m_control.empty() ? nullptr : &m_control.front());
        return f;
    }
    if (!m_probes.empty() && !(pausedMask & (1u << (m_probes.front().info.dscp >> 3))))
    {
        // Telemetry probes ride their queue pair's class, to see the queues its data sees.
        FabricFrame f = std::move(m_probes.front());
        m_probes.pop_front();
        return f;
    }
    if ((m_dataClasses & ~pausedMask) == 0)
    {
        return FabricFrame(); // every class it sends on is paused
    }
    if (!m_copies.empty())
    {
        if (pausedMask & (1u << m_copiesPriority))
        {
            return FabricFrame(); // the rest of a P2MP packet goes first, back to back
        }
        // The other copies of a P2MP packet follow it back to back.
        FabricFrame f = std::move(m_copies.front());
        m_copies.pop_front();
        return f;
    }
    return NextDataFrame(pausedMask, now);
}

FabricFrame
RdmaNic::NextDataFrame(uint8_t pausedMask, Time now)
{
    // Round robin over QPs with data; a paced QP whose time has not come keeps its place.
    Time earliest = Time::Max();
    for (std::size_t tries = m_active.size(); tries > 0; --tries)
    {
        uint32_t index = m_active.front();
        m_active.pop_front();
        Ptr<QueuePair> qp = m_qps[index];
        if (!qp->HasPacketToSend())
        {
            m_isActive[index] = false;
            continue;
        }
        if (pausedMask & (1u << qp->GetPriority()))
        {
            m_active.push_back(index); // its class is paused: it keeps its turn for later
            continue;
        }
        Time ready = qp->GetNextSendTime();
        if (ready > now)
        {
            earliest = std::min(earliest, ready);
            m_active.push_back(index);
            continue;
        }
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
            Encapsulate(
                p, qp->GetRemoteHost(), qp->GetBuiltPort(), qp->GetPriority(), m_ecnCapable);
            qp->PacketSent(p->GetSize() + m_device->GetFramingBytes());
            ++m_dataPackets;
            m_dataBytes += payload;
            m_headerBytes += p->GetSize() - payload;
            if (m_ledger)
            {
                TrafficLedger::Counters& row = m_ledger->Row(qp->GetOwner());
                ++row.dataPackets;
                row.dataBytes += payload;
                row.headerBytes += p->GetSize() - payload;
            }
        }
        if (qp->HasPacketToSend())
        {
            m_active.push_back(index); // round robin: to the back of the ring
        }
        else
        {
            m_isActive[index] = false;
        }
        FabricFrame frame = FabricFrame::From(p);
        frame.info.owner = qp->GetOwner();
        frame.info.op = tag;
        return frame;
    }
    if (earliest != Time::Max())
    {
        WakeAt(earliest);
    }
    return FabricFrame();
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
RdmaNic::EncapsulateMulticast(Ptr<QueuePair> qp, Ptr<Packet> p, uint32_t payload)
{
    const QueuePair::Message& m = qp->GetLastBuiltMessage();
    RocePacketBuilder::AddUdpIp(
        p,
        MakeAddressing(
            GroupAddress(qp->GetGroupQpn()), qp->GetBuiltPort(), qp->GetPriority(), m_ecnCapable));
    m_copiesPriority = qp->GetPriority();
    m_frames.clear();
    qp->GetP2mpEncapsulator()->Encapsulate(p, m.target, qp->LastBuiltWasFirst(), m_mac, m_frames);
    uint32_t wire = 0;
    for (const auto& f : m_frames)
    {
        wire += f->GetSize() + m_device->GetFramingBytes();
        ++m_dataPackets;
        m_dataBytes += payload;
        m_headerBytes += f->GetSize() - payload;
    }
    ++m_mcastPackets;
    m_mcastCopies += m_frames.size();
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
        m_copies.push_back(std::move(copy));
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
        MakeAddressing(HostAddress(dstHost).Get(), srcPort, priority, ecnCapable),
        m_mac,
        HostMac(dstHost));
}

void
RdmaNic::SendAck(const RcResponder::Peer& to, uint32_t psn24, bool nak, uint32_t msn)
{
    const RocePacketBuilder::Addressing a
        = MakeAddressing(HostAddress(to.host).Get(), to.srcPort, m_ctrlPriority, false);
    // Deferred: ACKs are most of a broadcast's frames, and their bytes are rarely read. One
    // that takes a data packet's in-band telemetry back has bytes from the start.
    FabricFrame ack = m_echoing ? FabricFrame::From(RocePacketBuilder::AckFrame(
                          a, m_mac, HostMac(to.host), to.qpn, psn24, nak, msn, &m_echo))
                                : m_ackFrames.Make(a, to.qpn, psn24, nak, msn);
    NS_LOG_LOGIC("host " << m_host << ": " << (nak ? "NAK" : "ACK") << " of PSN " << psn24
                         << " to host " << to.host << " QP " << to.qpn
                         << (m_echoing ? ", echoing telemetry" : ""));
    m_echoing = false;
    ack.info.owner = to.owner;
    m_naksSent += nak;
    QueueControl(std::move(ack));
}

uint64_t
RdmaNic::GetNaksSent() const
{
    return m_naksSent;
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
RdmaNic::RecordDisplacement(uint64_t ahead)
{
    uint32_t bucket = 0;
    while (bucket + 1 < DISPLACEMENT_BUCKETS && (ahead >> (bucket + 1)) != 0)
    {
        ++bucket;
    }
    ++m_displacement[bucket];
    m_earlyTrace(ahead);
}

void
RdmaNic::CountSpuriousRetransmission()
{
    ++m_spurious;
    m_duplicateTrace();
}

void
RdmaNic::CountReorderDrop()
{
    NS_LOG_LOGIC("host " << m_host << ": a packet past the reorder window dropped");
    ++m_reorderDrops;
}

void
RdmaNic::CountLost(uint8_t owner, uint32_t op, uint32_t bytes)
{
    NS_LOG_LOGIC("host " << m_host << ": " << bytes << " B given up as lost (operation " << op
                         << ")");
    ++m_lostPackets;
    m_lostBytes += bytes;
    m_lostTrace(bytes);
    if (m_ledger)
    {
        TrafficLedger::Counters& row = m_ledger->Row(owner);
        ++row.lostPackets;
        row.lostBytes += bytes;
    }
    if (m_ops && op)
    {
        m_ops->Lost(op, bytes);
    }
}

const std::array<uint64_t, RdmaNic::DISPLACEMENT_BUCKETS>&
RdmaNic::GetDisplacementHistogram() const
{
    return m_displacement;
}

uint64_t
RdmaNic::GetSpuriousRetransmissions() const
{
    return m_spurious;
}

uint64_t
RdmaNic::GetReorderDrops() const
{
    return m_reorderDrops;
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
        MakeAddressing(HostAddress(to.host).Get(), to.srcPort, m_ctrlPriority, false), to.qpn);
    NS_LOG_LOGIC("host " << m_host << ": CNP to host " << to.host << " QP " << to.qpn);
    ++m_cnpsSent;
    m_cnpSentTrace(to.qpn);
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

uint8_t
RdmaNic::GetControlPriority() const
{
    return m_ctrlPriority;
}

void
RdmaNic::QueueControl(FabricFrame frame)
{
    m_control.push_back(std::move(frame));
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
    Ptr<QueuePair> qp = GetQp(fi.destQp);
    if (!qp)
    {
        auto it = m_groups.find(fi.destQp);
        if (it == m_groups.end())
        {
            NS_LOG_WARN("frame for unknown QP " << fi.destQp << " at host " << m_host);
            return;
        }
        if (!(it->second & REQUESTER))
        {
            ReceiveGroupFrame(it->second, fi);
            return;
        }
        qp = m_qps[it->second & ~REQUESTER];
    }
    if (fi.opcode == BthHeader::RC_ACKNOWLEDGE)
    {
        ++m_acksReceived;
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
        ++m_cnpsReceived;
        m_cnpReceivedTrace(fi.destQp);
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
    Ptr<Packet> p = ProbeFrameBuilder::Probe(
        MakeAddressing(HostAddress(qp->GetRemoteHost()).Get(), srcPort, qp->GetPriority(), false),
        m_mac,
        HostMac(qp->GetRemoteHost()),
        qp->GetRemoteQpn(),
        probeId,
        m_telemetryNamespace,
        m_telemetryHops,
        claim);
    FabricFrame frame = FabricFrame::From(p);
    frame.info.owner = qp->GetOwner();
    ++m_probesSent;
    m_probeBytes += p->GetSize() + m_device->GetFramingBytes();
    NS_LOG_LOGIC("host " << m_host << " QP " << qpn << ": probe " << probeId << " on port "
                         << srcPort << (claim ? " (a claim)" : ""));
    m_probes.push_back(std::move(frame));
    // Not TryTransmit here: a probe is sent from inside this NIC's own DequeueFrame (the
    // steering asks at a message's first packet), where the port is not marked busy yet.
    Simulator::ScheduleNow(&RdmaNic::Wake, this);
}

void
RdmaNic::ReceiveProbe(Ptr<QueuePair> qp, FabricFrame& frame)
{
    IoamTraceHeader trace;
    if (!ProbeFrameBuilder::ReadTrace(frame.GetPacket(), trace))
    {
        NS_LOG_WARN("host " << m_host << ": a probe without a readable trace, ignored");
        return;
    }
    const FrameInfo& fi = frame.info;
    if (fi.opcode == BthHeader::RC_PROBE_ACK)
    {
        ++m_probeAcksReceived;
        if (Ptr<PathSteering> steering = qp->GetPathSteering())
        {
            steering->ProbeAnswered(fi.psn, trace);
        }
        return;
    }
    // The IOAM decapsulating node: the trace goes back to the sender, ahead of data as ACKs.
    Ptr<Packet> ack = ProbeFrameBuilder::Ack(
        MakeAddressing(fi.srcIp, qp->GetSourcePort(), m_ctrlPriority, false),
        m_mac,
        HostMac(fi.SrcHost()),
        qp->GetRemoteQpn(),
        fi.psn,
        trace);
    FabricFrame reply = FabricFrame::From(ack);
    reply.info.owner = qp->GetOwner();
    ++m_probeAcksSent;
    m_probeBytes += ack->GetSize() + m_device->GetFramingBytes();
    QueueControl(std::move(reply));
}

uint64_t
RdmaNic::GetProbesSent() const
{
    return m_probesSent;
}

uint64_t
RdmaNic::GetProbeAcksSent() const
{
    return m_probeAcksSent;
}

uint64_t
RdmaNic::GetProbeAcksReceived() const
{
    return m_probeAcksReceived;
}

uint64_t
RdmaNic::GetProbeBytes() const
{
    return m_probeBytes;
}

void
RdmaNic::ReceiveGroupFrame(uint32_t index, const FrameInfo& fi)
{
    GroupResponder& g = m_groupRx[index];
    if (fi.opcode == BthHeader::RC_ACKNOWLEDGE)
    {
        // A responder has nothing outstanding: an ACK or NAK for it changes nothing.
        ++m_acksReceived;
        if (m_ledger)
        {
            ++m_ledger->Row(fi.owner).acksAtSenders;
        }
    }
    else if (BthHeader::IsRequest(fi.opcode))
    {
        g.rx.Receive(this,
                     g.peer,
                     g.qpn,
                     fi,
                     [this, &g](uint64_t msn, uint64_t bytes, uint64_t lastPsn)
                     {
                         if (!g.receive.IsNull())
                         {
                             g.receive(m_host, msn, bytes, lastPsn);
                         }
                     });
        if (m_groupReorderTimer && m_reorder == TOLERANT)
        {
            ArmGroupCheck(index);
        }
    }
    else if (fi.opcode == BthHeader::CNP)
    {
        // Nothing is sent from a responder: there is no rate to cut.
        ++m_cnpsReceived;
        m_cnpReceivedTrace(fi.destQp);
    }
}

void
RdmaNic::ArmGroupCheck(uint32_t index)
{
    GroupResponder& g = m_groupRx[index];
    Time due = g.rx.NextHoleCheck(this);
    if (due >= g.checkDue)
    {
        return; // owes nothing, or its queued look comes first and will queue the next
    }
    g.checkDue = due;
    m_groupChecks.push(GroupCheck{due, index});
    ScheduleGroupChecks();
}

void
RdmaNic::ScheduleGroupChecks()
{
    if (m_groupChecks.empty())
    {
        return;
    }
    Time due = m_groupChecks.top().due;
    if (IsPending(m_groupCheckEvent) && m_groupCheckAt <= due)
    {
        return;
    }
    m_groupCheckEvent.Cancel();
    Time now = Simulator::Now();
    m_groupCheckAt = std::max(due, now);
    QuadHeapScheduler::SetNextLane(m_timerLane);
    m_groupCheckEvent = Simulator::Schedule(m_groupCheckAt - now, &RdmaNic::GroupChecksDue, this);
}

void
RdmaNic::GroupChecksDue()
{
    Time now = Simulator::Now();
    while (!m_groupChecks.empty() && m_groupChecks.top().due <= now)
    {
        const GroupCheck c = m_groupChecks.top();
        m_groupChecks.pop();
        GroupResponder& g = m_groupRx[c.index];
        if (c.due != g.checkDue)
        {
            continue; // superseded by an earlier look
        }
        g.checkDue = Time::Max();
        NS_LOG_LOGIC("host " << m_host << " QP " << g.qpn << ": group hole/tail check");
        g.rx.CheckHoleNow(this,
                          g.peer,
                          g.qpn,
                          [this, &g](uint64_t msn, uint64_t bytes, uint64_t lastPsn)
                          {
                              if (!g.receive.IsNull())
                              {
                                  g.receive(m_host, msn, bytes, lastPsn);
                              }
                          });
        // Progress since it was queued moves its next look later (a lazy re-arm, as the
        // requesters' retransmission timers do).
        ArmGroupCheck(c.index);
    }
    ScheduleGroupChecks();
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

uint64_t
RdmaNic::GetAcksReceived() const
{
    return m_acksReceived;
}

uint64_t
RdmaNic::GetAcksBeyondSent() const
{
    return m_acksBeyondSent;
}

void
RdmaNic::CountAckBeyondSent()
{
    ++m_acksBeyondSent;
}

uint64_t
RdmaNic::GetAcksRefused() const
{
    return m_acksRefused;
}

void
RdmaNic::CountAckRefused()
{
    ++m_acksRefused;
}

uint64_t
RdmaNic::GetDataPacketsSent() const
{
    return m_dataPackets;
}

uint64_t
RdmaNic::GetDataBytesSent() const
{
    return m_dataBytes;
}

uint64_t
RdmaNic::GetHeaderBytesSent() const
{
    return m_headerBytes;
}

uint64_t
RdmaNic::GetMulticastPackets() const
{
    return m_mcastPackets;
}

uint64_t
RdmaNic::GetMulticastCopies() const
{
    return m_mcastCopies;
}

uint64_t
RdmaNic::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
RdmaNic::GetCnpsReceived() const
{
    return m_cnpsReceived;
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

uint64_t
RdmaNic::GetRetransmissions() const
{
    uint64_t n = 0;
    for (uint32_t index : m_created)
    {
        n += m_qps[index]->GetRetransmissions();
    }
    return n;
}

} // namespace ns3
