#include "scenario/model/topology-builder.h"

#include "fabric/helper/fabric-helper.h"
#include "fabric/model/egress-scheduler.h"
#include "fabric/model/path-choice.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "p2mp/helper/p2mp-helper.h"
#include "rdma/helper/rdma-helper.h"
#include "rdma/model/nic-receive-pipeline.h"
#include "rdma/model/path-steering-schema.h"
#include "rdma/model/path-steering.h"
#include "rdma/model/rdma-congestion-control.h"
#include "scenario/model/fabric-memory-estimate.h"
#include "scenario/model/scenario-error.h"
#include "scenario/model/scenario-schema.h"
#include "wire/model/ioam-trace-header.h"

#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TopologyBuilder");

namespace
{
std::string
Num(double x)
{
    std::ostringstream os;
    os << x;
    return os.str();
}

/// Every attribute a section's keys set, then those of the model it selects (if any).
void
Configure(const ConfigSchema& schema,
          const nlohmann::json& scenario,
          const std::string& section,
          const NamedTypeRegistry& models,
          const std::optional<std::string>& model,
          const ConfigSchemaSetter& set)
{
    const nlohmann::json& filled = scenario.at(section);
    const ConfigSchemaObject& declared = schema.Root().FindKey(section)->Fields();
    declared.ApplyAttributes(filled, set);
    if (model)
    {
        models.ApplyKeys(*model, declared, filled, set);
    }
}
} // namespace

TopologyBuilder::TopologyBuilder(const ScenarioConfig& config)
    : m_config(config)
{
}

void
TopologyBuilder::SetRanks(uint32_t ranks)
{
    m_ranks = ranks;
}

const FabricPartition&
TopologyBuilder::GetPartition() const
{
    return m_partition;
}

void
TopologyBuilder::Build()
{
    m_graph = std::make_unique<TopologyGraph>(TopologyGraph::Build(m_config.topology));
    CheckMemoryBudget();
    m_graph->ComputeRoutes();
    try
    {
        m_partition = FabricPartition::Make(*m_graph, m_ranks, m_config.distribution.unit);
    }
    catch (const std::invalid_argument& e)
    {
        throw ScenarioError(m_config.file, "distribution", e.what());
    }
    const NicConfig& nic = m_config.nic;
    const SwitchConfig& sw = m_config.sw;
    const LoadBalancingConfig& lb = m_config.loadBalancing;
    // The scenario as the schema writes it: every key with its value, each model's own keys
    // included, to be set as the attributes they name.
    const ConfigSchema schema = ScenarioSchema::Build();
    const nlohmann::json scenario = schema.Write(m_config);

    // The senders' models, chosen by name ("none": queue pairs send at line rate; no
    // steering); a prototype of each says what it needs from the fabric.
    const bool ccOn = nic.congestionControl != RdmaCongestionControl::NONE;
    ObjectFactory ccFactory;
    Ptr<RdmaCongestionControl> cc;
    if (ccOn)
    {
        ccFactory.SetTypeId(RdmaCongestionControl::Registry().Get(nic.congestionControl));
        cc = ccFactory.Create<RdmaCongestionControl>();
    }
    const std::string steeringModel = PathSteeringSchema::ModelName(lb);
    ObjectFactory steeringFactory;
    Ptr<PathSteering> steering;
    if (!steeringModel.empty())
    {
        steeringFactory.SetTypeId(PathSteering::Registry().Get(steeringModel));
        steering = steeringFactory.Create<PathSteering>();
    }
    const bool ccTelemetry = cc && cc->UsesTelemetry();
    const bool steeringTelemetry = steering && steering->UsesTelemetry();

    FabricHelper fabric;
    RdmaHelper rdma;
    if (m_ranks > 1)
    {
        std::vector<uint32_t> rankOfNode(m_graph->NodeCount());
        for (uint32_t n = 0; n < rankOfNode.size(); ++n)
        {
            rankOfNode[n] = m_partition.RankOf(n);
        }
        fabric.SetNodeRanks(std::move(rankOfNode));
    }
    fabric.SetPathChoice(PathChoice::Registry().Get(lb.mode).GetName());
    fabric.SetEgressScheduler(EgressScheduler::Registry().Get(sw.scheduling).GetName());
    if (steering)
    {
        rdma.SetPathSteering(steeringFactory.GetTypeId().GetName());
    }
    if (cc)
    {
        rdma.SetCongestionControl(ccFactory.GetTypeId().GetName());
    }

    // Largest frame: Ethernet, the mechanism's largest P2MP header, IPv4, UDP, BTH, RETH,
    // payload, ICRC, plus framing. PFC headroom and hysteresis are counted in such frames.
    const P2mpHelper p2mp = MakeP2mpHelper(schema, scenario);
    m_delivery = p2mp.Create();
    // A telemetry-driven model's data packets have room for each switch on the longest path to
    // write in.
    const uint32_t intHops
        = std::min<uint32_t>(m_graph->MaxSwitchesOnPath(),
                             IoamTraceHeader::MAX_DATA_WORDS
                                 / IoamTraceHeader::NodeWords(IoamTraceHeader::INT_TRACE_TYPE));
    const uint32_t intBytes
        = ccTelemetry ? IoamTraceHeader::SizeFor(intHops, IoamTraceHeader::INT_TRACE_TYPE) : 0;
    uint32_t maxFrame = nic.mtuBytes + m_delivery->MaxHeaderBytes(m_graph->HostCount())
                        + FrameInfo::BTH_OFFSET + FrameInfo::BTH_BYTES + intBytes
                        + FrameInfo::RETH_BYTES + FrameInfo::ICRC_BYTES + 24;

    // What the fabric and the models need that no key sets, and what "auto" means where it
    // depends on the fabric (a key given overrides it below).
    fabric.SetSwitchLatency(Time::FromDouble(sw.latencyNs, Time::NS));
    fabric.SetMaxFrameBytes(maxFrame);
    // Every class RDMA data rides is lossless: the NIC's, and those workloads chose.
    uint8_t lossless = static_cast<uint8_t>((1u << nic.dataPriority) | (1u << nic.ctrlPriority));
    for (const WorkloadConfig& w : m_config.workloads)
    {
        if (w.priority >= 0)
        {
            lossless |= static_cast<uint8_t>(1u << w.priority);
        }
    }
    fabric.SetMmuAttribute("LosslessPriorities", UintegerValue(lossless));
    fabric.SetMmuAttribute("HysteresisBytes", UintegerValue(2ULL * maxFrame));
    fabric.SetSeed(m_config.seed);
    fabric.SetSourceValidation(sw.sourceValidation);
    // Switches stamp telemetry for a steering model's probes and a congestion control's data.
    fabric.SetTelemetry(steeringTelemetry || ccTelemetry,
                        Time::FromDouble(lb.telemetryWindowUs, Time::US));

    rdma.SetNicAttribute("Seed", UintegerValue(m_config.seed));
    rdma.SetNicAttribute("ComputeIcrc", BooleanValue(m_config.output.pcap));
    // A NIC's receive path, if nic.receive_mpps gives it one, resumes its peer (XON) one
    // largest data frame below XOFF (payload plus RoCEv2 and Ethernet headers).
    rdma.SetReceivePipelineAttribute("ResumeGap", UintegerValue(nic.mtuBytes + 78));
    if (steeringTelemetry)
    {
        rdma.SetNicAttribute("TelemetryHops",
                             UintegerValue(std::min<uint32_t>(m_graph->MaxSwitchesOnPath(),
                                                              IoamTraceHeader::MAX_DATA_WORDS
                                                                  / IoamTraceHeader::NODE_WORDS)));
    }
    rdma.SetNicAttribute("CongestionControlEnabled", BooleanValue(ccOn));
    if (cc)
    {
        NS_LOG_INFO("congestion control " << nic.congestionControl << ", fabric round trip "
                                          << LongestRttUs() << " us"
                                          << (ccTelemetry ? ", telemetry hops " : "")
                                          << (ccTelemetry ? std::to_string(intHops) : ""));
        if (!cc->UsesEcn())
        {
            // Data the model does not mark is not ECN-capable, so no CNPs are sent.
            rdma.SetNicAttribute("EcnCapable", BooleanValue(false));
        }
        if (ccTelemetry)
        {
            rdma.SetNicAttribute("TelemetryHops", UintegerValue(intHops));
        }
        rdma.SetCongestionControlAttribute("FabricRtt",
                                           TimeValue(Time::FromDouble(LongestRttUs(), Time::US)));
    }

    // Then every key that names an attribute, on whichever helper builds an object of its type.
    const ConfigSchemaSetter set
        = [&fabric, &rdma](TypeId owner, const std::string& name, const AttributeValue& value)
    {
        fabric.SetAttribute(owner, name, value);
        rdma.SetAttribute(owner, name, value);
    };
    Configure(schema, scenario, "switch", EgressScheduler::Registry(), sw.scheduling, set);
    Configure(schema, scenario, "load_balancing", PathChoice::Registry(), lb.mode, set);
    if (steering)
    {
        PathSteering::Registry().ApplyKeys(steeringModel,
                                           schema.Root().FindKey("load_balancing")->Fields(),
                                           scenario.at("load_balancing"),
                                           set);
    }
    Configure(schema,
              scenario,
              "nic",
              RdmaCongestionControl::Registry(),
              ccOn ? std::optional<std::string>(nic.congestionControl) : std::nullopt,
              set);

    FabricHelper::Fabric built;
    try
    {
        built = fabric.Install(*m_graph, m_config.topology);
    }
    catch (const std::invalid_argument& e)
    {
        throw ScenarioError(m_config.file,
                            "switch.buffer_mb",
                            Num(sw.bufferMb) + " MB: " + e.what()
                                + "; raise buffer_mb or lower reserve_kb / pfc.headroom_kb");
    }
    m_nodes = built.nodes;
    m_switches = built.switches;
    m_ledger = built.ledger;
    m_nics = rdma.Install(m_nodes, built.hostPorts);

    p2mp.Install(m_delivery, *m_graph, m_switches, m_nics);
    InstallFaults();
}

double
TopologyBuilder::LongestRttUs() const
{
    // As HPCC's simulator computes its GLOBAL_T (scratch/third.cc): twice the propagation of
    // the longest host-to-host path, here with the switches' latency, plus one MTU's
    // serialisation on each of its links.
    const TopologyConfig& t = m_config.topology;
    const uint32_t switches = std::max<uint32_t>(1, m_graph->MaxSwitchesOnPath());
    const double oneWayUs = 2 * t.hostLink.delayUs + (switches - 1) * t.fabricLink.delayUs
                            + switches * m_config.sw.latencyNs / 1000.0;
    const double bits = m_config.nic.mtuBytes * 8.0;
    const double serialisationUs
        = bits * (2 / (t.hostLink.rateGbps * 1e3) + (switches - 1) / (t.fabricLink.rateGbps * 1e3));
    return 2 * oneWayUs + serialisationUs;
}

std::pair<uint32_t, uint32_t>
TopologyBuilder::ResolveFault(uint32_t i) const
{
    const FaultConfig& f = m_config.faults[i];
    const std::string path = "faults[" + std::to_string(i) + "]";
    if (f.type == FaultType::NIC_DOWN)
    {
        return {f.host, 0}; // a host's only port
    }
    auto node = [&](const std::string& key, const std::string& name)
    {
        std::optional<uint32_t> n = m_graph->FindNode(name);
        if (!n)
        {
            throw ScenarioError(m_config.file,
                                path + "." + key,
                                "no node is called '" + name + "' in this "
                                    + EnumName(m_config.topology.kind) + " (nodes: host0.."
                                    + m_graph->NodeName(m_graph->HostCount() - 1) + ", "
                                    + m_graph->NodeName(m_graph->HostCount()) + ".."
                                    + m_graph->NodeName(m_graph->NodeCount() - 1) + ")");
        }
        return *n;
    };
    const uint32_t a = node("from", f.from);
    const uint32_t b = node("to", f.to);
    std::optional<uint32_t> port = m_graph->FindPort(a, b);
    if (!port)
    {
        throw ScenarioError(m_config.file,
                            path + ".to",
                            "'" + f.to + "' is not linked to '" + f.from
                                + "'; a fault takes down one link between neighbours");
    }
    return {a, *port};
}

void
TopologyBuilder::InstallFaults()
{
    for (uint32_t i = 0; i < m_config.faults.size(); ++i)
    {
        const FaultConfig& f = m_config.faults[i];
        const auto [node, port] = ResolveFault(i);
        if (m_partition.RankOf(node) != m_partition.RankOf(m_graph->Ports(node)[port].peer))
        {
            // Its frames in flight are on the other process's side of the cut.
            throw ScenarioError(m_config.file,
                                "faults[" + std::to_string(i) + "]",
                                "the link " + f.from + " - " + f.to + " is cut between the "
                                    + std::to_string(m_ranks)
                                    + " processes of this run, and a fault on such a link is "
                                      "not modelled yet; run it in one process");
        }
        Ptr<LinkFault> fault = CreateObject<LinkFault>();
        fault->SetAttribute("DownAt", TimeValue(Time::FromDouble(f.atUs, Time::US)));
        if (f.upUs != FaultConfig::NEVER)
        {
            fault->SetAttribute("UpAt", TimeValue(Time::FromDouble(f.upUs, Time::US)));
        }
        fault->SetAttribute("ConvergenceDelay",
                            TimeValue(Time::FromDouble(f.convergenceUs, Time::US)));
        const uint32_t n = node; // structured bindings cannot be captured in C++17
        const uint32_t p = port;
        fault->Install(GetDevice(node, port)->GetFabricChannel(),
                       LinkFault::ConvergeCallback(
                           [this, n, p](bool up)
                           {
                               Reconverge(n, p, up);
                           }));
        m_faults.push_back(fault);
        m_faultLinks.emplace_back(node, m_graph->Ports(node)[port].peer);
    }
}

Ptr<FabricNetDevice>
TopologyBuilder::GetDevice(uint32_t node, uint32_t port) const
{
    if (m_graph->IsHost(node))
    {
        return m_nics[node]->GetDevice();
    }
    return m_switches[node - m_graph->HostCount()]->GetPort(port);
}

void
TopologyBuilder::Reconverge(uint32_t node, uint32_t port, bool up)
{
    NS_LOG_FUNCTION(this << node << port << up);
    m_graph->SetLinkUp(node, port, up);
    m_graph->ComputeRoutes();
    const uint32_t hosts = m_graph->HostCount();
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        FabricHelper::InstallRoutes(*m_graph, hosts + s, m_switches[s]);
    }
    m_delivery->Reconverge();
    ++m_reconvergences;
    NS_LOG_INFO("routes recomputed at " << Simulator::Now().As(Time::US) << ": "
                                        << m_graph->DownLinkCount() << " link(s) down");
}

Ptr<LinkFault>
TopologyBuilder::GetFault(uint32_t i) const
{
    return m_faults.at(i);
}

std::pair<uint32_t, uint32_t>
TopologyBuilder::GetFaultLink(uint32_t i) const
{
    return m_faultLinks.at(i);
}

uint32_t
TopologyBuilder::GetReconvergences() const
{
    return m_reconvergences;
}

void
TopologyBuilder::CheckMemoryBudget() const
{
    const double budget = m_config.limits.maxRssMb;
    if (budget <= 0)
    {
        return;
    }
    const uint32_t hosts = m_graph->HostCount();
    const uint32_t switches = m_graph->SwitchCount();
    const uint64_t ports = FabricMemoryEstimate::SwitchPorts(*m_graph);
    const double mb = FabricMemoryEstimate::Mb(hosts, switches, ports);
    NS_LOG_INFO("fabric estimated at " << mb << " MB before it is built");
    if (mb * (1 - FabricMemoryEstimate::ERROR) > budget)
    {
        std::ostringstream why;
        why << budget << " MB is less than this fabric alone needs: about " << std::llround(mb)
            << " MB for " << hosts << " hosts, " << switches << " switches and " << ports
            << " switch ports, before any traffic (estimated before it is built, within 5%); "
               "raise the budget or shrink the topology";
        throw ScenarioError(m_config.file, "limits.max_rss_mb", why.str());
    }
}

P2mpHelper
TopologyBuilder::MakeP2mpHelper(const ConfigSchema& schema, const nlohmann::json& scenario) const
{
    P2mpHelper p2mp;
    p2mp.SetMechanism(m_config.p2mp.mechanism);
    Configure(schema,
              scenario,
              "p2mp",
              P2mpDelivery::Registry(),
              m_config.p2mp.mechanism,
              [&p2mp](TypeId owner, const std::string& name, const AttributeValue& value)
              {
                  p2mp.SetAttribute(owner, name, value);
              });
    return p2mp;
}

Ptr<P2mpDelivery>
TopologyBuilder::GetDelivery() const
{
    return m_delivery;
}

Ptr<TrafficLedger>
TopologyBuilder::GetTrafficLedger() const
{
    return m_ledger;
}

Ptr<P2mpSwitchStage>
TopologyBuilder::GetP2mpStage(uint32_t index) const
{
    return m_delivery->GetStage(index);
}

Ptr<GroupController>
TopologyBuilder::GetGroupController() const
{
    return m_delivery->GetGroupController();
}

void
TopologyBuilder::EnablePcap(const std::string& dir)
{
    for (uint32_t h = 0; h < m_nics.size(); ++h)
    {
        m_nics[h]->GetDevice()->EnablePcap(dir + "/host-" + std::to_string(h) + ".pcap");
    }
    for (uint32_t i = 0; i < m_switches.size(); ++i)
    {
        for (uint32_t p = 0; p < m_switches[i]->GetNPorts(); ++p)
        {
            m_switches[i]->GetPort(p)->EnablePcap(dir + "/switch-" + std::to_string(i) + "-port-"
                                                  + std::to_string(p) + ".pcap");
        }
    }
}

int64_t
TopologyBuilder::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (auto& s : m_switches)
    {
        used += s->AssignStreams(stream + used);
    }
    return used;
}

const TopologyGraph&
TopologyBuilder::GetGraph() const
{
    return *m_graph;
}

uint32_t
TopologyBuilder::GetHostCount() const
{
    return m_nics.size();
}

Ptr<RdmaNic>
TopologyBuilder::GetNic(uint32_t host) const
{
    return m_nics[host];
}

uint32_t
TopologyBuilder::GetSwitchCount() const
{
    return m_switches.size();
}

Ptr<FabricSwitch>
TopologyBuilder::GetSwitch(uint32_t index) const
{
    return m_switches[index];
}

Ptr<FabricNetDevice>
TopologyBuilder::GetLeafPortToHost(uint32_t host) const
{
    const auto& port = m_graph->Ports(host)[0];
    return m_switches[port.peer - m_graph->HostCount()]->GetPort(port.peerPort);
}

} // namespace ns3
