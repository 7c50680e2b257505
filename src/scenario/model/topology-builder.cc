#include "scenario/model/topology-builder.h"

#include "fabric/model/fabric-channel.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "scenario/model/scenario-error.h"

#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TopologyBuilder");

namespace
{
constexpr uint64_t KIB = 1024;
constexpr uint64_t MIB = 1024 * 1024;

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

TopologyBuilder::TopologyBuilder(const ScenarioConfig& config)
    : m_config(config)
{
}

uint64_t
TopologyBuilder::HeadroomBytes(double rateGbps,
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

Ptr<FabricNetDevice>
TopologyBuilder::MakePort(Ptr<Node> node, const LinkConfig& link, bool isSwitch)
{
    Ptr<FabricNetDevice> dev = CreateObject<FabricNetDevice>();
    dev->SetAttribute("DataRate", DataRateValue(DataRate(link.rateGbps * 1e9)));
    if (isSwitch)
    {
        dev->SetAttribute("RxLatency",
                          TimeValue(Time::FromDouble(m_config.sw.latencyNs, Time::NS)));
    }
    node->AddDevice(dev);
    return dev;
}

void
TopologyBuilder::Build()
{
    m_graph = std::make_unique<TopologyGraph>(TopologyGraph::Build(m_config.topology));
    m_graph->ComputeRoutes();
    uint32_t hosts = m_graph->HostCount();
    uint32_t nodes = m_graph->NodeCount();
    m_nodes.Create(nodes);

    // Ports in graph order, so device index == graph port number on every node.
    std::vector<std::vector<Ptr<FabricNetDevice>>> ports(nodes);
    for (uint32_t n = 0; n < nodes; ++n)
    {
        for (const auto& port : m_graph->Ports(n))
        {
            const LinkConfig& link
                = port.hostLink ? m_config.topology.hostLink : m_config.topology.fabricLink;
            ports[n].push_back(MakePort(m_nodes.Get(n), link, !m_graph->IsHost(n)));
        }
    }
    for (uint32_t n = 0; n < nodes; ++n)
    {
        for (uint32_t p = 0; p < ports[n].size(); ++p)
        {
            const auto& port = m_graph->Ports(n)[p];
            if (port.peer < n)
            {
                continue; // each cable once
            }
            const LinkConfig& link
                = port.hostLink ? m_config.topology.hostLink : m_config.topology.fabricLink;
            Ptr<FabricChannel> ch = CreateObject<FabricChannel>();
            ch->SetAttribute("Delay", TimeValue(Time::FromDouble(link.delayUs, Time::US)));
            ports[n][p]->Attach(ch);
            ports[port.peer][port.peerPort]->Attach(ch);
        }
    }

    const NicConfig& nic = m_config.nic;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        Ptr<RdmaNic> rnic = CreateObject<RdmaNic>();
        rnic->SetAttribute("Mtu", UintegerValue(nic.mtuBytes));
        rnic->SetAttribute("AckEvery", UintegerValue(nic.ackEvery));
        rnic->SetAttribute("Rto", TimeValue(Time::FromDouble(nic.rtoUs, Time::US)));
        rnic->SetAttribute("DataPriority", UintegerValue(nic.dataPriority));
        rnic->SetAttribute("ControlPriority", UintegerValue(nic.ctrlPriority));
        rnic->SetAttribute("ComputeIcrc", BooleanValue(m_config.output.pcap));
        const DcqcnConfig& d = nic.dcqcn;
        rnic->SetAttribute("CongestionControlEnabled", BooleanValue(d.enabled));
        rnic->SetAttribute("CnpInterval", TimeValue(Time::FromDouble(d.cnpIntervalUs, Time::US)));
        rnic->SetCongestionControlAttribute("G", DoubleValue(d.g));
        rnic->SetCongestionControlAttribute("AlphaUpdatePeriod",
                                            TimeValue(Time::FromDouble(d.alphaUpdateUs, Time::US)));
        rnic->SetCongestionControlAttribute(
            "RateIncreasePeriod", TimeValue(Time::FromDouble(d.rateIncreaseUs, Time::US)));
        rnic->SetCongestionControlAttribute("ByteCounter", UintegerValue(d.byteCounterBytes));
        rnic->SetCongestionControlAttribute("FastRecoverySteps",
                                            UintegerValue(d.fastRecoverySteps));
        rnic->SetCongestionControlAttribute("RateAi", DataRateValue(DataRate(d.rateAiMbps * 1e6)));
        rnic->SetCongestionControlAttribute("RateHai",
                                            DataRateValue(DataRate(d.rateHaiMbps * 1e6)));
        rnic->SetCongestionControlAttribute("MinRate",
                                            DataRateValue(DataRate(d.minRateMbps * 1e6)));
        rnic->SetCongestionControlAttribute("RateOnFirstCnp",
                                            DataRateValue(DataRate(d.rateOnFirstCnpMbps * 1e6)));
        rnic->SetCongestionControlAttribute("InitialAlpha", DoubleValue(d.initialAlpha));
        rnic->SetCongestionControlAttribute("ClampTargetRate", BooleanValue(d.clampTargetRate));
        rnic->Setup(m_nodes.Get(h), ports[h][0], h);
        m_nodes.Get(h)->AggregateObject(rnic);
        m_nics.push_back(rnic);
    }

    const SwitchConfig& sw = m_config.sw;
    // Largest RoCEv2 frame: Ethernet, IPv4, UDP, BTH, RETH, payload, ICRC, plus framing.
    uint32_t maxFrame = nic.mtuBytes + FrameInfo::BTH_OFFSET + FrameInfo::BTH_BYTES
                        + FrameInfo::RETH_BYTES + FrameInfo::ICRC_BYTES + 24;
    uint8_t lossless = static_cast<uint8_t>((1u << nic.dataPriority) | (1u << nic.ctrlPriority));
    for (uint32_t n = hosts; n < nodes; ++n)
    {
        Ptr<FabricSwitch> s = CreateObject<FabricSwitch>();
        Ptr<SwitchMmu> mmu = s->GetMmu();
        mmu->SetAttribute("BufferBytes",
                          UintegerValue(static_cast<uint64_t>(std::llround(sw.bufferMb * MIB))));
        mmu->SetAttribute("ReserveBytes", UintegerValue(KbToBytes(sw.reserveKb)));
        mmu->SetAttribute("Alpha", DoubleValue(sw.alpha));
        mmu->SetAttribute("PfcEnabled", BooleanValue(sw.pfc.enabled));
        mmu->SetAttribute("HysteresisBytes",
                          UintegerValue(sw.pfc.hysteresisKb >= 0 ? KbToBytes(sw.pfc.hysteresisKb)
                                                                 : 2ULL * maxFrame));
        mmu->SetAttribute("EcnPmax", DoubleValue(sw.ecn.pmax));
        mmu->SetAttribute("LosslessPriorities", UintegerValue(lossless));
        s->SetAttribute("EcnEnabled", BooleanValue(sw.ecn.enabled));
        // Distinct per-switch hash seeds keep tiers from making correlated choices.
        s->GetPathChoice()->SetAttribute(
            "Seed", UintegerValue(static_cast<uint32_t>(m_config.seed * 0x9E3779B1u + n)));
        s->SetNode(m_nodes.Get(n));
        for (uint32_t p = 0; p < ports[n].size(); ++p)
        {
            ports[n][p]->SetAddress(SwitchPortMac(n, p));
            s->AddPort(ports[n][p]);
        }
        s->Start();
        for (uint32_t p = 0; p < ports[n].size(); ++p)
        {
            const auto& gp = m_graph->Ports(n)[p];
            const LinkConfig& link
                = gp.hostLink ? m_config.topology.hostLink : m_config.topology.fabricLink;
            uint64_t headroom
                = sw.pfc.headroomKb >= 0
                      ? KbToBytes(sw.pfc.headroomKb)
                      : HeadroomBytes(link.rateGbps, link.delayUs, sw.latencyNs, maxFrame);
            mmu->SetHeadroom(p, headroom);
            // Default RED thresholds scale with port speed: 100/400 KB at 25 Gb/s.
            double kmin = sw.ecn.kminKb >= 0 ? sw.ecn.kminKb : 4.0 * link.rateGbps;
            double kmax = sw.ecn.kmaxKb >= 0 ? sw.ecn.kmaxKb : 16.0 * link.rateGbps;
            mmu->SetEcnThresholds(p, KbToBytes(kmin), KbToBytes(kmax));
        }
        if (mmu->GetSharedPoolBytes() == 0)
        {
            std::ostringstream why;
            why << sw.bufferMb << " MB cannot hold the per-queue reserves and PFC headroom of "
                << m_graph->NodeName(n) << " (" << ports[n].size()
                << " ports): " << mmu->GetCarvedBytes() / 1024
                << " KB are set aside before any sharing; "
                << "raise buffer_mb or lower reserve_kb / pfc.headroom_kb";
            throw ScenarioError(m_config.file, "switch.buffer_mb", why.str());
        }
        std::vector<const std::vector<uint16_t>*> routes(hosts);
        for (uint32_t h = 0; h < hosts; ++h)
        {
            routes[h] = &m_graph->NextHopPorts(n, h);
        }
        s->SetRoutes(std::move(routes));
        m_nodes.Get(n)->AggregateObject(s);
        m_switches.push_back(s);
    }
    SetUpP2mp();
}

void
TopologyBuilder::SetUpP2mp()
{
    const P2mpConfig& pc = m_config.p2mp;
    ObjectFactory factory(P2mpDelivery::Registry().Get(pc.mechanism).GetName());
    factory.Set("AckAggregation", StringValue(pc.ackAggregation));
    factory.Set("AckMode", StringValue(pc.ackMode));
    factory.Set("AckEvery", UintegerValue(pc.ackEvery));
    // Each mechanism's own keys are attributes of its class only.
    if (pc.mechanism == "bier")
    {
        factory.Set("BslBits", UintegerValue(pc.bier.bslBits));
    }
    else if (pc.mechanism == "bier-xpu-list")
    {
        factory.Set("LookupPerId", TimeValue(Time::FromDouble(pc.xpuList.lookupNsPerId, Time::NS)));
    }
    else if (pc.mechanism == "new-protocol")
    {
        factory.Set("InstallLatency",
                    TimeValue(Time::FromDouble(pc.newProtocol.installUs, Time::US)));
        factory.Set("TableEntries", UintegerValue(pc.newProtocol.tableEntries));
        factory.Set("EvictLru", BooleanValue(pc.newProtocol.onTableFull == "evict-lru"));
        factory.Set("AddressList", BooleanValue(pc.addressMapping == "per-receiver-list"));
    }
    m_delivery = factory.Create<P2mpDelivery>();
    P2mpDelivery::Fabric fabric;
    fabric.graph = m_graph.get();
    fabric.switches = m_switches;
    fabric.nics = m_nics;
    m_delivery->Install(fabric);
}

Ptr<P2mpDelivery>
TopologyBuilder::GetDelivery() const
{
    return m_delivery;
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
