#include "fabric/model/fabric-switch.h"

#include "fabric/model/ecmp-path-choice.h"
#include "fabric/model/strict-priority-scheduler.h"
#include "ns3/boolean.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSwitch");
NS_OBJECT_ENSURE_REGISTERED(FabricSwitch);

TypeId
FabricSwitch::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::FabricSwitch")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<FabricSwitch>()
              .AddAttribute(
                  "PathChoice",
                  "The choice among equal-cost next hops (ECMP unless set)",
                  PointerValue(),
                  MakePointerAccessor(&FabricSwitch::SetPathChoice, &FabricSwitch::GetPathChoice),
                  MakePointerChecker<PathChoice>())
              .AddAttribute("EgressScheduler",
                            "How a port picks the class it sends next (strict priority unless "
                            "set)",
                            PointerValue(),
                            MakePointerAccessor(&FabricSwitch::m_scheduler),
                            MakePointerChecker<EgressScheduler>())
              .AddAttribute("PauseQuanta",
                            "Pause time carried in XOFF frames, in quanta of 512 bit times",
                            UintegerValue(0xFFFF),
                            MakeUintegerAccessor(&FabricSwitch::m_pauseQuanta),
                            MakeUintegerChecker<uint16_t>(1))
              .AddAttribute("EcnEnabled",
                            "Mark ECN-capable packets CE according to the MMU's RED thresholds",
                            BooleanValue(true),
                            MakeBooleanAccessor(&FabricSwitch::m_ecnEnabled),
                            MakeBooleanChecker())
              .AddAttribute("Mmu",
                            "The shared-buffer memory management unit",
                            PointerValue(),
                            MakePointerAccessor(&FabricSwitch::m_mmu),
                            MakePointerChecker<SwitchMmu>())
              .AddTraceSource("Drop",
                              "A frame was dropped (packet, ingress port)",
                              MakeTraceSourceAccessor(&FabricSwitch::m_dropTrace),
                              "ns3::FabricSwitch::PortTracedCallback")
              .AddTraceSource("EcnMark",
                              "A frame was marked CE (packet, egress port)",
                              MakeTraceSourceAccessor(&FabricSwitch::m_ecnTrace),
                              "ns3::FabricSwitch::PortTracedCallback")
              .AddTraceSource("QueueDepth",
                              "An egress queue grew or shrank (port, priority, bytes queued)",
                              MakeTraceSourceAccessor(&FabricSwitch::m_queueTrace),
                              "ns3::FabricSwitch::QueueDepthTracedCallback")
              .AddTraceSource("PfcPause",
                              "This switch paused (XOFF) or resumed (XON) an upstream priority "
                              "(ingress port, priority, paused)",
                              MakeTraceSourceAccessor(&FabricSwitch::m_pfcTrace),
                              "ns3::FabricSwitch::PfcTracedCallback");
    return tid;
}

FabricSwitch::FabricSwitch()
{
    m_mmu = CreateObject<SwitchMmu>();
    m_uniform = CreateObject<UniformRandomVariable>();
    SetPathChoice(CreateObject<EcmpPathChoice>());
    m_scheduler = CreateObject<StrictPriorityScheduler>();
}

void
FabricSwitch::DoDispose()
{
    for (auto& e : m_pauseRefresh)
    {
        e.Cancel();
    }
    for (auto& port : m_ports)
    {
        port.device->SetOwner(nullptr);
    }
    m_ports.clear();
    for (auto& stage : m_stages)
    {
        stage->Dispose();
    }
    m_stages.clear();
    m_departures.clear();
    if (m_pathChoice)
    {
        m_pathChoice->Dispose();
        m_pathChoice = nullptr;
    }
    m_node = nullptr;
    m_mmu = nullptr;
    Object::DoDispose();
}

uint32_t
FabricSwitch::AddPort(Ptr<FabricNetDevice> device)
{
    uint32_t index = m_ports.size();
    m_ports.emplace_back();
    m_ports.back().device = device;
    return index;
}

Ptr<FabricNetDevice>
FabricSwitch::GetPort(uint32_t index) const
{
    return m_ports[index].device;
}

uint32_t
FabricSwitch::GetNPorts() const
{
    return m_ports.size();
}

Ptr<SwitchMmu>
FabricSwitch::GetMmu() const
{
    return m_mmu;
}

void
FabricSwitch::SetTrafficLedger(Ptr<TrafficLedger> ledger)
{
    m_ledger = ledger;
    m_ops = ledger ? ledger->GetOpLedger() : nullptr;
}

Ptr<TrafficLedger>
FabricSwitch::GetTrafficLedger() const
{
    return m_ledger;
}

void
FabricSwitch::SetNode(Ptr<Node> node)
{
    m_node = node;
}

Ptr<Node>
FabricSwitch::GetNode() const
{
    return m_node;
}

void
FabricSwitch::SetRoutes(std::vector<const std::vector<uint16_t>*> nextHopsByHost)
{
    m_routes = std::move(nextHopsByHost);
    m_cutOff = std::any_of(m_routes.begin(),
                           m_routes.end(),
                           [](const std::vector<uint16_t>* hops)
                           {
                               return hops->empty();
                           });
}

void
FabricSwitch::Start()
{
    m_mmu->Setup(m_ports.size());
    m_scheduler->SetPorts(m_ports.size());
    m_pauseRefresh.assign(m_ports.size() * 8, EventId());
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        Ptr<FabricNetDevice> dev = m_ports[i].device;
        dev->SetIfIndex(i);
        dev->SetOwner(this);
    }
}

int64_t
FabricSwitch::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1 + m_pathChoice->AssignStreams(stream + 1);
}

void
FabricSwitch::SetPathChoice(Ptr<PathChoice> choice)
{
    NS_ASSERT_MSG(choice, "a switch needs a path choice");
    m_pathChoice = choice;
    m_pathChoice->Attach(this);
}

Ptr<PathChoice>
FabricSwitch::GetPathChoice() const
{
    return m_pathChoice;
}

void
FabricSwitch::AddStage(Ptr<SwitchStage> stage)
{
    m_stages.push_back(stage);
    stage->Attach(this);
    if (stage->SeesDepartures())
    {
        m_departures.push_back(PeekPointer(stage));
    }
}

uint32_t
FabricSwitch::GetNStages() const
{
    return m_stages.size();
}

Ptr<SwitchStage>
FabricSwitch::GetStage(uint32_t index) const
{
    return m_stages.at(index);
}

bool
FabricSwitch::HasRoute(uint32_t dstHost) const
{
    return dstHost < m_routes.size() && !m_routes[dstHost]->empty();
}

uint32_t
FabricSwitch::RoutePort(const FrameInfo& fi)
{
    const std::vector<uint16_t>& hops = *m_routes[fi.DstHost()];
    return hops.size() == 1 ? hops[0] : m_pathChoice->Choose(fi, hops);
}

void
FabricSwitch::Forward(uint32_t inPort, uint32_t outPort, uint8_t prio, FabricFrame frame)
{
    Enqueue(inPort, outPort, prio, std::move(frame));
}

void
FabricSwitch::DropFrame(FabricFrame& frame, uint32_t inPort)
{
    Drop(frame, inPort, m_cutOff ? DROP_UNROUTABLE : DROP_FABRIC);
}

void
FabricSwitch::RefuseFrame(FabricFrame& frame, uint32_t inPort)
{
    Drop(frame, inPort, DROP_REFUSED);
}

void
FabricSwitch::ReceiveFrame(uint32_t inPort, FabricFrame& frame)
{
    for (const auto& stage : m_stages)
    {
        if (stage->Receive(inPort, frame))
        {
            return;
        }
    }
    const FrameInfo& fi = frame.info;
    uint32_t dstHost = fi.DstHost();
    if (fi.etherType != FrameInfo::ETHERTYPE_IPV4 || dstHost >= m_routes.size()
        || m_routes[dstHost]->empty())
    {
        NS_LOG_LOGIC("switch " << this << " port " << inPort << ": no route, dropped");
        Drop(frame, inPort, DROP_UNROUTABLE);
        return;
    }
    const std::vector<uint16_t>& hops = *m_routes[dstHost];
    uint32_t outPort = hops.size() == 1 ? hops[0] : m_pathChoice->Choose(fi, hops);
    uint8_t prio = PriorityOf(fi);
    // The counters and queue Enqueue updates are cold: start loading them together.
    m_mmu->Prefetch(inPort, outPort, prio);
    __builtin_prefetch(&m_ports[outPort]);
    __builtin_prefetch(&m_ports[outPort].queues[prio]);
    Enqueue(inPort, outPort, prio, std::move(frame));
}

void
FabricSwitch::SetDropFilter(DropFilter filter)
{
    m_dropFilter = filter;
}

uint64_t
FabricSwitch::GetInjectedDrops() const
{
    return m_injectedDrops;
}

uint64_t
FabricSwitch::GetUnroutableDrops() const
{
    return m_unroutableDrops;
}

uint64_t
FabricSwitch::GetRefusedDrops() const
{
    return m_refusedDrops;
}

void
FabricSwitch::Drop(FabricFrame& frame, uint32_t inPort, DropCause cause)
{
    NS_LOG_LOGIC("switch " << this << " port " << inPort << ": drop"
                           << (cause == DROP_INJECTED  ? " (injected)"
                               : cause == DROP_REFUSED ? " (refused)"
                                                       : ""));
    m_injectedDrops += cause == DROP_INJECTED;
    m_refusedDrops += cause == DROP_REFUSED;
    m_unroutableDrops += cause == DROP_UNROUTABLE;
    ++m_drops;
    if (m_ledger)
    {
        ++m_ledger->Row(frame.info.owner).drops;
    }
    if (frame.info.op && m_ops)
    {
        m_ops->Dropped(frame.info);
    }
    if (!m_dropTrace.IsEmpty())
    {
        m_dropTrace(frame.GetPacket(), inPort);
    }
}

void
FabricSwitch::Queue(uint32_t outPort, uint8_t prio, QueuedFrame frame)
{
    PortState& port = m_ports[outPort];
    if (frame.frame.info.op && m_ops)
    {
        frame.frame.info.queuedAt = OpLedger::Units(Simulator::Now());
    }
    port.queues[prio].push_back(std::move(frame));
    port.nonEmpty |= static_cast<uint8_t>(1u << prio);
    ++m_forwarded;
    if (!m_queueTrace.IsEmpty())
    {
        m_queueTrace(outPort, prio, m_mmu->GetEgressBytes(outPort, prio));
    }
    port.device->TryTransmit();
}

void
FabricSwitch::Enqueue(uint32_t inPort, uint32_t outPort, uint8_t prio, FabricFrame frame)
{
    bool injected = !m_dropFilter.IsNull() && m_dropFilter(outPort, frame.GetPacket());
    if (injected || !m_mmu->Admit(inPort, outPort, prio, frame.info.size))
    {
        Drop(frame, inPort, injected ? DROP_INJECTED : DROP_FABRIC);
        return;
    }
    if (m_mmu->ShouldPause(inPort, prio))
    {
        SendPause(inPort, prio);
    }
    Queue(outPort, prio, {std::move(frame), NO_REPLICA, static_cast<uint16_t>(inPort)});
}

void
FabricSwitch::ForwardCopies(uint32_t inPort,
                            uint8_t prio,
                            uint32_t ingressBytes,
                            std::vector<FrameCopy>& copies,
                            Time lookup)
{
    NS_ASSERT(!copies.empty());
    // Stored once, whatever the fan-out: the ingress (and PFC) sees one frame.
    if (!m_mmu->AdmitIngress(inPort, prio, ingressBytes))
    {
        NS_LOG_LOGIC("switch " << this << " port " << inPort << ": ingress full, replica dropped");
        Drop(copies.front().frame, inPort, DROP_FABRIC);
        return;
    }
    if (m_mmu->ShouldPause(inPort, prio))
    {
        SendPause(inPort, prio);
    }
    uint32_t replica = NewReplica(
        Replica{uint32_t(copies.size()), ingressBytes, static_cast<uint16_t>(inPort), prio});
    NS_LOG_LOGIC("switch " << this << " port " << inPort << ": " << copies.size() << " copies");
    for (auto& c : copies)
    {
        if (lookup.IsZero())
        {
            EnqueueCopy(inPort, c.port, prio, std::move(c.frame), replica);
        }
        else
        {
            Simulator::Schedule(
                lookup, &FabricSwitch::EnqueueCopy, this, inPort, c.port, prio, c.frame, replica);
        }
    }
}

void
FabricSwitch::EnqueueCopy(
    uint32_t inPort, uint32_t outPort, uint8_t prio, FabricFrame frame, uint32_t replica)
{
    bool injected = !m_dropFilter.IsNull() && m_dropFilter(outPort, frame.GetPacket());
    if (injected || !m_mmu->AdmitEgress(outPort, prio, frame.info.size))
    {
        Drop(frame, inPort, injected ? DROP_INJECTED : DROP_FABRIC);
        CopyDone(inPort, prio, replica);
        return;
    }
    Queue(outPort, prio, {std::move(frame), replica, static_cast<uint16_t>(inPort)});
}

uint32_t
FabricSwitch::NewReplica(Replica record)
{
    uint32_t index;
    if (m_freeReplicas.empty())
    {
        index = m_replicas.size();
        m_replicas.push_back(record);
    }
    else
    {
        index = m_freeReplicas.back();
        m_freeReplicas.pop_back();
        m_replicas[index] = record;
    }
    return index;
}

void
FabricSwitch::CopyDone(uint32_t inPort, uint8_t prio, uint32_t replica)
{
    Replica& r = m_replicas[replica];
    if (--r.copiesLeft == 0)
    {
        m_freeReplicas.push_back(replica);
        m_mmu->ReleaseIngress(inPort, prio, r.ingressBytes);
        MaybeResume(inPort, prio);
    }
}

void
FabricSwitch::MaybeResume(uint32_t inPort, uint8_t prio)
{
    if (m_mmu->ShouldResume(inPort, prio))
    {
        NS_LOG_LOGIC("switch " << this << " port " << inPort << " prio " << int(prio) << ": XON");
        m_mmu->SetPaused(inPort, prio, false);
        m_pauseRefresh[inPort * 8 + prio].Cancel();
        m_ports[inPort].device->SendPfc(prio, 0);
        m_pfcTrace(inPort, prio, false);
    }
}

FabricFrame
FabricSwitch::DequeueFrame(uint32_t portIndex, uint8_t pausedMask, Time now)
{
    PortState& port = m_ports[portIndex];
    uint8_t eligible = port.nonEmpty & static_cast<uint8_t>(~pausedMask);
    if (eligible == 0)
    {
        return {};
    }
    uint8_t prio = m_scheduler->Pick(portIndex, eligible);
    RingQueue<QueuedFrame>& q = port.queues[prio];
    QueuedFrame queued = std::move(q.front());
    q.pop_front();
    if (q.empty())
    {
        port.nonEmpty &= static_cast<uint8_t>(~(1u << prio));
    }
    // The port's next transmit-complete event loads it, and what finds it, one event before it
    // runs: on a large fabric the port's state has gone cold by then.
    port.device->HintNextFrame(q.empty() ? nullptr : &q.front(), &port.nonEmpty, &q);
    // Mark on dequeue: the sender learns of the queue as it is now, not as it was at arrival.
    double markP = m_ecnEnabled ? m_mmu->EcnMarkProbability(portIndex, prio) : 0.0;
    bool marked = false;
    if (markP > 0 && (markP >= 1 || m_uniform->GetValue() < markP) && MarkCe(queued.frame))
    {
        marked = true;
        ++m_ecnMarks;
        if (m_ledger)
        {
            ++m_ledger->Row(queued.frame.info.owner).ecnMarks;
        }
        NS_LOG_LOGIC("switch " << this << " port " << portIndex << " prio " << int(prio)
                               << ": CE marked (p " << markP << ")");
        if (!m_ecnTrace.IsEmpty())
        {
            m_ecnTrace(queued.frame.GetPacket(), portIndex);
        }
    }
    uint32_t bytes = queued.frame.info.size;
    m_scheduler->Sent(portIndex, prio, bytes);
    if (queued.replica != NO_REPLICA)
    {
        m_mmu->ReleaseEgress(portIndex, prio, bytes);
        CopyDone(queued.inPort, prio, queued.replica);
    }
    else
    {
        m_mmu->Release(queued.inPort, portIndex, prio, bytes);
        MaybeResume(queued.inPort, prio);
    }
    if (!m_queueTrace.IsEmpty())
    {
        m_queueTrace(portIndex, prio, m_mmu->GetEgressBytes(portIndex, prio));
    }
    if (queued.frame.info.op && m_ops)
    {
        // The port reports the frame to the ledger next (OpLedger::Sent), in this call.
        uint32_t wait = OpLedger::Units(now) - queued.frame.info.queuedAt;
        Time paused = port.device->GetPausedTime(prio, now)
                      - port.device->GetPausedTime(prio, now - OpLedger::Duration(wait));
        m_ops->Waited(wait, OpLedger::Units(paused), marked);
    }
    for (SwitchStage* stage : m_departures)
    {
        stage->Departing(queued.inPort, portIndex, prio, queued.frame, now);
    }
    return std::move(queued.frame);
}

bool
FabricSwitch::MayDequeue(uint32_t port) const
{
    return m_ports[port].nonEmpty != 0;
}

void
FabricSwitch::SendPause(uint32_t inPort, uint8_t prio)
{
    NS_LOG_LOGIC("switch " << this << " port " << inPort << " prio " << int(prio) << ": XOFF");
    m_mmu->SetPaused(inPort, prio, true);
    m_pfcTrace(inPort, prio, true);
    RefreshPause(inPort, prio);
}

void
FabricSwitch::RefreshPause(uint32_t inPort, uint8_t prio)
{
    Ptr<FabricNetDevice> dev = m_ports[inPort].device;
    dev->SendPfc(prio, m_pauseQuanta);
    // Re-send before the peer's timer runs out, as long as the queue stays above XON.
    Time pause = dev->GetDataRate().CalculateBytesTxTime(64 * static_cast<uint32_t>(m_pauseQuanta));
    m_pauseRefresh[inPort * 8 + prio]
        = Simulator::Schedule(pause / 2, &FabricSwitch::RefreshPause, this, inPort, prio);
}

bool
FabricSwitch::MarkCe(FabricFrame& frame)
{
    const FrameInfo& fi = frame.info;
    if (fi.ecn == Ipv4Header::ECN_NotECT
        || (fi.etherType != FrameInfo::ETHERTYPE_IPV4 && fi.p2mp == FrameInfo::P2MP_NONE))
    {
        return false;
    }
    frame.MarkCe();
    return true;
}

uint64_t
FabricSwitch::GetDrops() const
{
    return m_drops;
}

uint64_t
FabricSwitch::GetEcnMarks() const
{
    return m_ecnMarks;
}

void
FabricSwitch::AddCounters(CounterSet& counters) const
{
    counters.Add("drops", GetDrops());
    counters.Add("unroutable_drops", GetUnroutableDrops());
    counters.Add("source_refused", GetRefusedDrops());
    counters.Add("ecn_marks", GetEcnMarks());
    counters.Max("switch_buffer_peak_bytes", m_mmu->GetPeakUsedBytes());
    for (uint32_t i = 0; i < GetNStages(); ++i)
    {
        GetStage(i)->AddCounters(counters);
    }
    for (uint32_t p = 0; p < GetNPorts(); ++p)
    {
        GetPort(p)->AddCounters(counters);
    }
}

uint64_t
FabricSwitch::GetForwarded() const
{
    return m_forwarded;
}

std::vector<std::string>
FabricSwitch::CheckBuffers() const
{
    const std::size_t n = m_ports.size();
    std::vector<uint64_t> egress(n * 8, 0);
    std::vector<uint64_t> ingress(n * 8, 0);
    for (std::size_t p = 0; p < n; ++p)
    {
        for (uint8_t prio = 0; prio < 8; ++prio)
        {
            const RingQueue<QueuedFrame>& q = m_ports[p].queues[prio];
            for (std::size_t i = 0; i < q.size(); ++i)
            {
                egress[p * 8 + prio] += q[i].frame.info.size;
                if (q[i].replica == NO_REPLICA)
                {
                    ingress[q[i].inPort * 8 + prio] += q[i].frame.info.size;
                }
            }
        }
    }
    // Replicated frames still stored (copies queued or waiting for their lookup).
    std::vector<bool> free(m_replicas.size(), false);
    for (uint32_t r : m_freeReplicas)
    {
        free[r] = true;
    }
    for (std::size_t r = 0; r < m_replicas.size(); ++r)
    {
        if (!free[r])
        {
            ingress[m_replicas[r].inPort * 8 + m_replicas[r].prio] += m_replicas[r].ingressBytes;
        }
    }
    std::vector<std::string> out;
    uint64_t used = 0;
    for (std::size_t p = 0; p < n; ++p)
    {
        for (uint8_t prio = 0; prio < 8; ++prio)
        {
            used += ingress[p * 8 + prio];
            if (m_mmu->GetEgressBytes(p, prio) != egress[p * 8 + prio])
            {
                out.push_back("port " + std::to_string(p) + " priority " + std::to_string(prio)
                              + ": the MMU counts " + std::to_string(m_mmu->GetEgressBytes(p, prio))
                              + " B in the egress queue, which holds "
                              + std::to_string(egress[p * 8 + prio]) + " B");
            }
            if (m_mmu->GetIngressBytes(p, prio) != ingress[p * 8 + prio])
            {
                out.push_back("port " + std::to_string(p) + " priority " + std::to_string(prio)
                              + ": the MMU counts "
                              + std::to_string(m_mmu->GetIngressBytes(p, prio))
                              + " B from this ingress, and " + std::to_string(ingress[p * 8 + prio])
                              + " B of frames from it are held");
            }
        }
    }
    if (m_mmu->GetUsedBytes() != used)
    {
        out.push_back("the MMU counts " + std::to_string(m_mmu->GetUsedBytes())
                      + " B of buffer in use, and the frames held are " + std::to_string(used)
                      + " B");
    }
    return out;
}

uint64_t
FabricSwitch::GetQueuedBytes(uint32_t port) const
{
    uint64_t bytes = 0;
    for (uint8_t prio = 0; prio < 8; ++prio)
    {
        bytes += m_mmu->GetEgressBytes(port, prio);
    }
    return bytes;
}

} // namespace ns3
