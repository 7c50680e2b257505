#include "fabric/helper/fabric-helper.h"

#include "core/model/config-schema-attribute.h"
#include "core/model/mix64.h"
#include "fabric/model/ecmp-path-choice.h"
#include "fabric/model/fabric-channel.h"
#include "fabric/model/source-guard-stage.h"
#include "fabric/model/strict-priority-scheduler.h"
#include "fabric/model/switch-mmu.h"
#include "fabric/model/telemetry-stage.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricHelper");

namespace
{
constexpr uint64_t KIB = 1024;

uint64_t
KbToBytes(double kb)
{
    return static_cast<uint64_t>(std::llround(kb * KIB));
}

/// Switch port MACs: 02:01:nn:nn:pp:pp, distinct from host MACs (02:00:...).
Mac48Address
SwitchPortMac(uint32_t node, uint32_t port)
{
    uint8_t b[6] = {0x02,
                    0x01,
                    static_cast<uint8_t>(node >> 8),
                    static_cast<uint8_t>(node),
                    static_cast<uint8_t>(port >> 8),
                    static_cast<uint8_t>(port)};
    Mac48Address mac;
    mac.CopyFrom(b);
    return mac;
}
} // namespace

FabricHelper::FabricHelper()
    : m_switchLatency(NanoSeconds(500))
{
    m_switchFactory.SetTypeId(FabricSwitch::GetTypeId());
    m_mmuFactory.SetTypeId(SwitchMmu::GetTypeId());
    m_pathChoiceFactory.SetTypeId(EcmpPathChoice::GetTypeId());
    m_schedulerFactory.SetTypeId(StrictPriorityScheduler::GetTypeId());
}

void
FabricHelper::SetEgressScheduler(const std::string& typeName)
{
    m_schedulerFactory.SetTypeId(typeName);
}

void
FabricHelper::SetEgressSchedulerAttribute(const std::string& name, const AttributeValue& value)
{
    m_schedulerFactory.Set(name, value);
}

void
FabricHelper::SetAttribute(TypeId owner, const std::string& name, const AttributeValue& value)
{
    for (ObjectFactory* f :
         {&m_switchFactory, &m_mmuFactory, &m_pathChoiceFactory, &m_schedulerFactory})
    {
        if (ConfigSchemaAttribute::IsOf(f->GetTypeId(), owner))
        {
            f->Set(name, value);
            return;
        }
    }
}

void
FabricHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
FabricHelper::SetMmuAttribute(const std::string& name, const AttributeValue& value)
{
    m_mmuFactory.Set(name, value);
}

void
FabricHelper::SetPathChoice(const std::string& typeName)
{
    m_pathChoiceFactory.SetTypeId(typeName);
}

void
FabricHelper::SetPathChoiceAttribute(const std::string& name, const AttributeValue& value)
{
    m_pathChoiceFactory.Set(name, value);
}

void
FabricHelper::SetSwitchLatency(Time latency)
{
    m_switchLatency = latency;
}

void
FabricHelper::SetMaxFrameBytes(uint32_t bytes)
{
    m_maxFrameBytes = bytes;
}

void
FabricHelper::SetSeed(uint64_t seed)
{
    m_seed = seed;
}

void
FabricHelper::SetSourceValidation(bool enabled)
{
    m_sourceValidation = enabled;
}

void
FabricHelper::SetTelemetry(bool enabled, Time window)
{
    m_telemetry = enabled;
    m_telemetryWindow = window;
}

uint64_t
FabricHelper::HeadroomBytes(double rateGbps,
                            double delayUs,
                            double switchLatencyNs,
                            uint32_t maxFrameBytes)
{
    // After XOFF leaves, the upstream keeps sending for a round trip of cable and pipeline,
    // plus the frame it is serialising and the one ahead of our PFC frame on our own port.
    double rtt = 2.0 * (delayUs * 1e-6 + switchLatencyNs * 1e-9);
    double bdp = rateGbps * 1e9 / 8.0 * rtt;
    return static_cast<uint64_t>(std::ceil(bdp)) + 2ULL * maxFrameBytes;
}

void
FabricHelper::InstallRoutes(const TopologyGraph& graph, uint32_t node, Ptr<FabricSwitch> sw)
{
    std::vector<const std::vector<uint16_t>*> routes(graph.HostCount());
    for (uint32_t h = 0; h < graph.HostCount(); ++h)
    {
        routes[h] = &graph.NextHopPorts(node, h);
    }
    sw->SetRoutes(std::move(routes));
}

void
FabricHelper::SetNodeRanks(std::vector<uint32_t> rankOfNode)
{
    m_rankOfNode = std::move(rankOfNode);
}

FabricHelper::Fabric
FabricHelper::Install(const TopologyGraph& graph, const TopologyConfig& topology) const
{
    NS_ASSERT_MSG(graph.HasRoutes(), "FabricHelper::Install needs the graph's routes");
    Fabric f;
    f.ledger = CreateObject<TrafficLedger>();
    f.ledger->SetOpLedger(CreateObject<OpLedger>());
    uint32_t hosts = graph.HostCount();
    uint32_t nodes = graph.NodeCount();
    NS_ABORT_MSG_IF(!m_rankOfNode.empty() && m_rankOfNode.size() != nodes,
                    "FabricHelper: a rank for each of the graph's nodes");
    for (uint32_t n = 0; n < nodes; ++n)
    {
        f.nodes.Create(1, m_rankOfNode.empty() ? 0 : m_rankOfNode[n]);
    }
    auto linkOf = [&topology](const TopologyGraph::Port& port) -> const LinkConfig&
    {
        return port.hostLink ? topology.hostLink : topology.fabricLink;
    };

    // Ports in graph order, so device index == graph port number on every node.
    std::vector<std::vector<Ptr<FabricNetDevice>>> ports(nodes);
    for (uint32_t n = 0; n < nodes; ++n)
    {
        for (const auto& port : graph.Ports(n))
        {
            Ptr<FabricNetDevice> dev = CreateObject<FabricNetDevice>();
            dev->SetAttribute("DataRate", DataRateValue(DataRate(linkOf(port).rateGbps * 1e9)));
            if (linkOf(port).lossRate > 0)
            {
                dev->SetAttribute("LossRate", DoubleValue(linkOf(port).lossRate));
                dev->SetAttribute(
                    "LossSeed",
                    UintegerValue(Mix64(m_seed ^ (uint64_t{n} << 20) ^ ports[n].size())));
            }
            if (!graph.IsHost(n))
            {
                dev->SetAttribute("RxLatency", TimeValue(m_switchLatency));
            }
            dev->SetTrafficLedger(f.ledger);
            const uint32_t link
                = f.ledger->GetOpLedger()->AddLink(graph.NodeName(n), graph.NodeName(port.peer));
            dev->SetOpLink(link);
            f.ledger->SetLinkClass(link, graph.Tier(n), graph.Tier(port.peer));
            f.nodes.Get(n)->AddDevice(dev);
            ports[n].push_back(dev);
        }
    }
    // By name: the class exists only where ns-3 has MPI.
    TypeId remote;
    const bool canCut = TypeId::LookupByNameFailSafe("ns3::FabricRemoteChannel", &remote);
    // Cut cables share one batcher per process: frames to one process leave together.
    ObjectFactory cutCable;
    if (canCut && !m_rankOfNode.empty())
    {
        cutCable.SetTypeId(remote);
        cutCable.Set("Batcher", PointerValue(ObjectFactory("ns3::RemoteFrameBatcher").Create()));
    }
    for (uint32_t n = 0; n < nodes; ++n)
    {
        for (uint32_t p = 0; p < ports[n].size(); ++p)
        {
            const auto& port = graph.Ports(n)[p];
            if (port.peer < n)
            {
                continue; // each cable once
            }
            // A cable between two ranks carries its frames between processes.
            const bool cut = !m_rankOfNode.empty() && m_rankOfNode[n] != m_rankOfNode[port.peer];
            NS_ABORT_MSG_IF(cut && !canCut,
                            "FabricHelper: nodes on several ranks need ns-3 built with MPI");
            Ptr<FabricChannel> ch
                = cut ? cutCable.Create<FabricChannel>() : CreateObject<FabricChannel>();
            ch->SetAttribute("Delay", TimeValue(Time::FromDouble(linkOf(port).delayUs, Time::US)));
            ports[n][p]->Attach(ch);
            ports[port.peer][port.peerPort]->Attach(ch);
        }
    }
    for (uint32_t h = 0; h < hosts; ++h)
    {
        f.hostPorts.push_back(ports[h][0]);
    }

    for (uint32_t n = hosts; n < nodes; ++n)
    {
        Ptr<FabricSwitch> s = m_switchFactory.Create<FabricSwitch>();
        Ptr<SwitchMmu> mmu = m_mmuFactory.Create<SwitchMmu>();
        s->SetAttribute("Mmu", PointerValue(mmu));
        // Distinct per-switch seeds keep tiers from making correlated choices.
        ObjectFactory choice = m_pathChoiceFactory;
        choice.Set("Seed", UintegerValue(static_cast<uint32_t>(m_seed * 0x9E3779B1u + n)));
        // A mode that hashes as another simulator does seeds with the switch's node number.
        TypeId::AttributeInformation node;
        if (choice.GetTypeId().LookupAttributeByName("Node", &node))
        {
            choice.Set("Node", UintegerValue(n));
        }
        s->SetPathChoice(choice.Create<PathChoice>());
        s->SetAttribute("EgressScheduler",
                        PointerValue(m_schedulerFactory.Create<EgressScheduler>()));
        s->SetNode(f.nodes.Get(n));
        s->SetTrafficLedger(f.ledger);
        for (uint32_t p = 0; p < ports[n].size(); ++p)
        {
            ports[n][p]->SetAddress(SwitchPortMac(n, p));
            s->AddPort(ports[n][p]);
        }
        s->Start();
        for (uint32_t p = 0; p < ports[n].size(); ++p)
        {
            const LinkConfig& link = linkOf(graph.Ports(n)[p]);
            // Default RED thresholds scale with port speed: 100/400 KB at 25 Gb/s.
            mmu->SetPortDefaults(p,
                                 HeadroomBytes(link.rateGbps,
                                               link.delayUs,
                                               m_switchLatency.GetSeconds() * 1e9,
                                               m_maxFrameBytes),
                                 KbToBytes(4.0 * link.rateGbps),
                                 KbToBytes(16.0 * link.rateGbps));
        }
        if (mmu->GetSharedPoolBytes() == 0)
        {
            std::ostringstream why;
            why << "the buffer cannot hold the per-queue reserves and PFC headroom of "
                << graph.NodeName(n) << " (" << ports[n].size()
                << " ports): " << mmu->GetCarvedBytes() / 1024
                << " KB are set aside before any sharing";
            throw std::invalid_argument(why.str());
        }
        InstallRoutes(graph, n, s);
        if (m_sourceValidation)
        {
            std::vector<uint32_t> hostOnPort;
            for (const auto& port : graph.Ports(n))
            {
                hostOnPort.push_back(graph.IsHost(port.peer) ? port.peer
                                                             : SourceGuardStage::NOT_A_HOST);
            }
            if (std::any_of(hostOnPort.begin(),
                            hostOnPort.end(),
                            [](uint32_t h)
                            {
                                return h != SourceGuardStage::NOT_A_HOST;
                            }))
            {
                Ptr<SourceGuardStage> guard = CreateObject<SourceGuardStage>();
                guard->SetHostPorts(std::move(hostOnPort));
                s->AddStage(guard); // the first stage: no later one sees a forged frame
            }
        }
        if (m_telemetry)
        {
            Ptr<TelemetryStage> telemetry = CreateObject<TelemetryStage>();
            telemetry->SetAttribute("NodeId", UintegerValue(n));
            telemetry->SetAttribute("Window", TimeValue(m_telemetryWindow));
            s->AddStage(telemetry);
        }
        f.nodes.Get(n)->AggregateObject(s);
        f.switches.push_back(s);
    }
    NS_LOG_INFO(nodes << " nodes: " << hosts << " hosts, " << f.switches.size() << " switches");
    return f;
}

} // namespace ns3
