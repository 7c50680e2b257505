#include "fabric/model/telemetry-stage.h"

#include "fabric/model/fabric-switch.h"
#include "fabric/model/op-ledger.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "wire/model/bth-header.h"
#include "wire/model/probe-frame-builder.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TelemetryStage");
NS_OBJECT_ENSURE_REGISTERED(TelemetryStage);

TypeId
TelemetryStage::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::TelemetryStage")
              .SetParent<SwitchStage>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<TelemetryStage>()
              .AddAttribute("NodeId",
                            "This node's IOAM node ID (24 bits)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&TelemetryStage::m_nodeId),
                            MakeUintegerChecker<uint32_t>(0, 0xFFFFFF))
              .AddAttribute("NamespaceId",
                            "The IOAM namespace whose traces this node writes into",
                            UintegerValue(1),
                            MakeUintegerAccessor(&TelemetryStage::m_namespaceId),
                            MakeUintegerChecker<uint16_t>())
              .AddAttribute("Window",
                            "Time constant of the egress utilisation estimate: a byte sent "
                            "this long ago counts 1/e",
                            TimeValue(MicroSeconds(5)),
                            MakeTimeAccessor(&TelemetryStage::m_window),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("SharerWindow",
                            "An ingress port shares an egress queue while its data frames left "
                            "by it within this window",
                            TimeValue(MicroSeconds(10)),
                            MakeTimeAccessor(&TelemetryStage::m_sharerWindow),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("ClaimWindow",
                            "A claiming probe's ingress port shares the egress queue it leaves "
                            "by for this long, as if its data had: the time its sender takes "
                            "to move its data there (a round trip, the end of a message and a "
                            "drain of its old path)",
                            TimeValue(MicroSeconds(100)),
                            MakeTimeAccessor(&TelemetryStage::m_claimWindow),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddTraceSource(
                  "Stamp",
                  "A probe, or a data packet with a trace, leaving got this node's data "
                  "(egress port, data)",
                  MakeTraceSourceAccessor(&TelemetryStage::m_stampTrace),
                  "ns3::TelemetryStage::StampTracedCallback");
    return tid;
}

void
TelemetryStage::Attach(FabricSwitch* sw)
{
    SwitchStage::Attach(sw);
    m_links.assign(sw->GetNPorts(), LinkLoad{});
    m_sharesUntil.assign(std::size_t{sw->GetNPorts()} * sw->GetNPorts(), Time::Min());
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        m_links[p].port = PeekPointer(sw->GetPort(p));
        m_links[p].framing = sw->GetPort(p)->GetFramingBytes();
    }
}

bool
TelemetryStage::Receive(uint32_t /* inPort */, FabricFrame& frame)
{
    if (frame.info.roce
        && (BthHeader::IsProbe(frame.info.opcode)
            || (frame.info.traceWords && BthHeader::IsData(frame.info.opcode))))
    {
        // Its arrival, for the transit delay at egress (the switch queues a frame without an
        // operation without touching this field).
        frame.info.queuedAt = OpLedger::Units(Simulator::Now());
    }
    return false;
}

bool
TelemetryStage::SeesDepartures() const
{
    return true;
}

void
TelemetryStage::Discount(LinkLoad& load, Time now) const
{
    if (now > load.at)
    {
        load.bytes *= std::exp(-(now - load.at).GetSeconds() / m_window.GetSeconds());
        load.at = now;
    }
}

double
TelemetryStage::GetUtilisation(uint32_t port, Time now) const
{
    LinkLoad load = m_links.at(port);
    Discount(load, now);
    double line = load.port->GetDataRate().GetBitRate() / 8.0;
    return line > 0 ? load.bytes / (line * m_window.GetSeconds()) : 0.0;
}

void
TelemetryStage::Sharers(
    uint32_t inPort, uint32_t outPort, Time now, uint8_t& sharers, uint8_t& rank) const
{
    uint32_t n = static_cast<uint32_t>(m_links.size());
    const Time* until = &m_sharesUntil[std::size_t{outPort} * n];
    uint32_t count = 0;
    uint32_t below = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (i == inPort || until[i] >= now)
        {
            ++count;
            below += i < inPort;
        }
    }
    sharers = static_cast<uint8_t>(std::min<uint32_t>(count, IoamTraceHeader::SHARERS_MAX));
    rank = static_cast<uint8_t>(std::min<uint32_t>(below, IoamTraceHeader::SHARERS_MAX));
}

void
TelemetryStage::Departing(
    uint32_t inPort, uint32_t outPort, uint8_t prio, FabricFrame& frame, Time now)
{
    LinkLoad& load = m_links[outPort];
    Discount(load, now);
    const FrameInfo& fi = frame.info;
    const bool probe = fi.roce && BthHeader::IsProbe(fi.opcode);
    if ((probe || (fi.traceWords && BthHeader::IsData(fi.opcode)))
        && fi.p2mp == FrameInfo::P2MP_NONE)
    {
        Time transit = OpLedger::Duration(OpLedger::Units(now) - fi.queuedAt);
        Time arrived = now - transit;
        IoamTraceHeader::NodeData node;
        node.nodeId = m_nodeId;
        node.ingressIf = static_cast<uint16_t>(inPort);
        node.egressIf = static_cast<uint16_t>(outPort);
        int64_t ns = arrived.GetNanoSeconds();
        node.seconds = static_cast<uint32_t>(ns / 1000000000);
        node.nanoseconds = static_cast<uint32_t>(ns % 1000000000);
        int64_t transitNs = transit.GetNanoSeconds();
        node.transitDelayNs = transitNs < int64_t{IoamTraceHeader::TRANSIT_OVERFLOW}
                                  ? static_cast<uint32_t>(transitNs)
                                  : IoamTraceHeader::TRANSIT_OVERFLOW;
        double util = GetUtilisation(outPort, now);
        node.utilisation = static_cast<uint16_t>(
            std::min(util * IoamTraceHeader::UTILISATION_ONE, double(UINT16_MAX)));
        Sharers(inPort, outPort, now, node.sharers, node.rank);
        uint64_t depth = m_switch->GetMmu()->GetEgressBytes(outPort, prio);
        node.queueDepthBytes = static_cast<uint32_t>(std::min<uint64_t>(depth, UINT32_MAX));
        // As HPCC's switch: the bytes sent before this frame, and the rate they left at.
        node.txBytes = static_cast<uint32_t>(load.txBytes);
        node.linkRateMbps = static_cast<uint32_t>(load.port->GetDataRate().GetBitRate() / 1000000);
        Ptr<Packet> stamped;
        ProbeFrameBuilder::StampResult result
            = ProbeFrameBuilder::Stamp(frame.GetPacket(), m_namespaceId, node, stamped);
        if (result != ProbeFrameBuilder::UNTOUCHED)
        {
            frame = FabricFrame(stamped, fi);
        }
        m_stamps += result == ProbeFrameBuilder::STAMPED;
        m_overflows += result == ProbeFrameBuilder::OVERFLOW;
        if (result == ProbeFrameBuilder::STAMPED)
        {
            m_stampTrace(outPort, node);
        }
        if (fi.opcode == BthHeader::RC_PROBE_CLAIM)
        {
            // After its stamp, which counts its ingress anyway: a claim that follows this one
            // on the egress finds one sharer more (claims are serialised here).
            Time& until = m_sharesUntil[std::size_t{outPort} * m_links.size() + inPort];
            until = std::max(until, now + m_claimWindow);
        }
        NS_LOG_LOGIC("node " << m_nodeId << " port " << inPort << ">" << outPort << ": "
                             << (fi.opcode == BthHeader::RC_PROBE_CLAIM ? "claim "
                                 : probe                                ? "probe "
                                                                        : "data trace ")
                             << (result == ProbeFrameBuilder::STAMPED    ? "stamped"
                                 : result == ProbeFrameBuilder::OVERFLOW ? "full"
                                                                         : "not in its namespace")
                             << ", transit " << transitNs << " ns, queue " << depth
                             << " B, utilisation " << util << ", sharers " << int(node.sharers)
                             << ", rank " << int(node.rank) << ", sent " << load.txBytes << " B");
    }
    if (fi.roce && BthHeader::IsData(fi.opcode))
    {
        m_sharesUntil[std::size_t{outPort} * m_links.size() + inPort] = now + m_sharerWindow;
    }
    load.bytes += fi.size + load.framing;
    load.txBytes += fi.size + load.framing;
}

void
TelemetryStage::AddCounters(CounterSet& counters) const
{
    counters.Add("telemetry.stamps", GetStamps());
    counters.Add("telemetry.overflows", GetOverflows());
}

uint64_t
TelemetryStage::GetStamps() const
{
    return m_stamps;
}

uint64_t
TelemetryStage::GetOverflows() const
{
    return m_overflows;
}

} // namespace ns3
