/*
 * Shared helpers for the module's TestSuites: small scenarios built in code, and the
 * closed-form quantities the tests compare against.
 */
#ifndef MCAST4AI_TEST_FABRIC_H
#define MCAST4AI_TEST_FABRIC_H

#include "ns3/global-value.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "rdma/model/rdma-nic.h"
#include "scenario/model/scenario-config.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{
namespace test
{

/// Per-frame bytes that are not RDMA payload: Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC 4.
constexpr uint32_t ROCE_HEADER_BYTES = 14 + 20 + 8 + 12 + 4;
/// Preamble + SFD (8), FCS (4) and inter-frame gap (12): on the wire, not in the packet.
constexpr uint32_t FRAMING_BYTES = 24;
constexpr uint32_t RETH_BYTES = 16;
/// An ACK frame: headers plus a 4-byte AETH.
constexpr uint32_t ACK_FRAME_BYTES = ROCE_HEADER_BYTES + 4;

/// Seconds to serialise a frame of this many bytes (plus framing) at rateGbps.
inline double
WireSeconds(uint32_t frameBytes, double rateGbps)
{
    return (frameBytes + FRAMING_BYTES) * 8.0 / (rateGbps * 1e9);
}

/// Packets of a message of this many bytes.
inline uint64_t
PacketsOf(uint64_t bytes, uint32_t mtu)
{
    return (bytes + mtu - 1) / mtu;
}

/// Seconds a link spends on a WRITE's data frames: payload, headers and framing, one RETH.
inline double
MessageDataSeconds(uint64_t bytes, uint32_t mtu, double rateGbps)
{
    return (bytes + PacketsOf(bytes, mtu) * (ROCE_HEADER_BYTES + FRAMING_BYTES) + RETH_BYTES) * 8
           / (rateGbps * 1e9);
}

/// Seconds a link spends on the ACKs of such a message, one per packet.
inline double
MessageAckSeconds(uint64_t bytes, uint32_t mtu, double rateGbps)
{
    return PacketsOf(bytes, mtu) * (ACK_FRAME_BYTES + FRAMING_BYTES) * 8 / (rateGbps * 1e9);
}

/// The latency of a hop within one leaf after the last frame has left the sender: two
/// cables, the switch pipeline, and the frame serialised again on the downlink.
inline double
LeafHopSeconds(uint32_t mtu, double rateGbps, double cableS, double switchS)
{
    return 2 * cableS + switchS + WireSeconds(mtu + ROCE_HEADER_BYTES, rateGbps);
}

/// Host, leaf, spine, leaf, host after the last frame (frameBytes) has left its sender: 4
/// cables, 3 pipelines, and the frame stored and forwarded by 3 switches.
inline double
CrossLeafPathSeconds(uint32_t frameBytes, double rateGbps, double cableS, double switchS)
{
    return 4 * cableS + 3 * switchS + 3 * WireSeconds(frameBytes, rateGbps);
}

/// An ACK's way back over the same hops: 4 cables, 3 pipelines, 4 serialisations.
inline double
CrossLeafAckSeconds(double rateGbps, double cableS, double switchS)
{
    return 4 * cableS + 3 * switchS + 4 * WireSeconds(ACK_FRAME_BYTES, rateGbps);
}

inline ScenarioConfig
LeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf, const std::string& name)
{
    // Some suites build fabrics without a ScenarioRunner; ns-3's own test-runner does not set
    // the resolution the module needs, so the fixtures do.
    ScenarioRunner::UsePicoseconds();
    ScenarioConfig c;
    c.name = name;
    c.file = name + ".json";
    c.topology.kind = TopologyKind::LEAF_SPINE;
    c.topology.leaves = leaves;
    c.topology.spines = spines;
    c.topology.hostsPerLeaf = hostsPerLeaf;
    c.output.dir = "/tmp/mcast4ai-test-" + name;
    return c;
}

inline WorkloadConfig
FlowList(std::initializer_list<FlowSpec> flows)
{
    WorkloadConfig w;
    w.type = "flows";
    w.label = "flows-0";
    w.pattern = FlowPattern::LIST;
    w.flows = flows;
    return w;
}

/// What the collective suites read from a run of a scenario whose first workload is a
/// collective (or a relayed broadcast).
struct CollectiveOutcome
{
    double durationUs{0};         ///< the first workload's longest operation
    double depth{0};              ///< its dependent_steps
    uint64_t maxDataBytesSent{0}; ///< the most RDMA payload any one NIC sent
    bool complete{false};
    Metrics::OpRecord first; ///< its first operation's ops.csv row
};

/// What a scenario run gives a test: whether it completed, summary.json, ops.csv's rows and
/// their network columns (net[i] is ops[i]'s, with its hot link and path as ops.csv names them).
struct ScenarioOutcome
{
    bool complete{false};
    nlohmann::json summary;
    std::vector<Metrics::OpRecord> ops;
    std::vector<OpLedger::Row> net;
    std::vector<std::string> queueMaxAt;
    std::vector<std::string> path;
};

/// The two engines a test may compare: ns-3's own and the runner's.
constexpr const char* DEFAULT_ENGINE = "ns3::DefaultSimulatorImpl";
constexpr const char* FABRIC_ENGINE = "ns3::FabricSimulatorImpl";

/// Make the next Simulator call build engine tid (destroying the one there is).
inline void
UseEngine(const std::string& tid)
{
    Simulator::Destroy();
    GlobalValue::Bind("SimulatorImplementationType", StringValue(tid));
}

/// Parse a scenario's JSON (named `file` in errors), run it at picosecond resolution.
inline ScenarioOutcome
RunScenarioJson(const std::string& json, const std::string& file)
{
    ScenarioConfig c = Scenario::Parse(json, file, {});
    ScenarioRunner::UsePicoseconds();
    ScenarioRunner runner(c);
    runner.Build();
    ScenarioOutcome o;
    o.complete = runner.Run();
    o.summary = runner.Summary();
    o.ops = runner.GetMetrics()->GetOps();
    const OpLedger* ledger = runner.GetFabric().GetTrafficLedger()->GetOpLedger();
    for (uint64_t h = 0; h < o.ops.size(); ++h)
    {
        // Its own tag's counts and its phases' (an MoE layer's dispatch and combine).
        const OpLedger::Row row = ledger->Sum(runner.GetMetrics()->TagsOf(h));
        o.net.push_back(row);
        o.queueMaxAt.push_back(row.maxQueueLink == OpLedger::NO_LINK
                                   ? std::string()
                                   : ledger->LinkName(row.maxQueueLink));
        o.path.push_back(ledger->PathText(row));
    }
    return o;
}

inline CollectiveOutcome
RunCollectiveScenario(const std::string& json)
{
    ScenarioConfig c = Scenario::Parse(json, "collective.json", {});
    ScenarioRunner::UsePicoseconds();
    ScenarioRunner runner(c);
    runner.Build();
    CollectiveOutcome o;
    o.complete = runner.Run();
    nlohmann::json s = runner.Summary();
    const nlohmann::json& w = s["workloads"][0];
    o.durationUs = w["duration_us"]["max"].get<double>();
    o.depth = w["dependent_steps"].get<double>();
    o.first = runner.GetMetrics()->GetOps().at(0);
    for (uint32_t h = 0; h < runner.GetFabric().GetHostCount(); ++h)
    {
        o.maxDataBytesSent
            = std::max(o.maxDataBytesSent, runner.GetFabric().GetNic(h)->GetCounters().dataBytes);
    }
    return o;
}

/**
 * The low-entropy fabric of the *-8x8.json scenarios of scenarios/load-balancing: 8 hosts under
 * leaf 0 each write 16 MiB to a host under leaf 1 across 8 spines, every link 100 Gb/s and 1 µs,
 * 500 ns switches, MTU 1024.
 */
namespace low_entropy
{
constexpr uint32_t FLOWS = 8;
constexpr uint64_t FLOW_BYTES = 16u << 20;
constexpr uint32_t MTU = 1024;
constexpr double RATE_GBPS = 100;
constexpr double CABLE_S = 1e-6;
constexpr double SWITCH_S = 500e-9;

/// One flow alone: its data frames on every link in turn (the slowest is the line rate), the
/// last frame's way host, leaf, spine, leaf, host (4 cables, 3 pipelines, 3 store-and-forward
/// serialisations), and its ACK's way back.
inline double
IdealFctSeconds()
{
    return MessageDataSeconds(FLOW_BYTES, MTU, RATE_GBPS)
           + CrossLeafPathSeconds(MTU + ROCE_HEADER_BYTES, RATE_GBPS, CABLE_S, SWITCH_S)
           + CrossLeafAckSeconds(RATE_GBPS, CABLE_S, SWITCH_S);
}
} // namespace low_entropy

} // namespace test
} // namespace ns3

#endif /* MCAST4AI_TEST_FABRIC_H */
