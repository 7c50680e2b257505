/*
 * Scenario loading: defaults, every validation rule (asserting the exact JSON path of the
 * error), several errors at once, --set overrides, the ToJson round trip, workload types
 * registered from outside the library and the generated reference.
 */
#include "core/model/config-schema-object.h"
#include "scenario/model/scenario-error.h"
#include "scenario/model/scenario.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

namespace
{

using json = nlohmann::json;
using ns3::CollectiveAlgorithm;
using ns3::FlowPattern;
using ns3::PlaneSpreadRule;
using ns3::Scenario;
using ns3::ScenarioConfig;
using ns3::ScenarioError;
using ns3::TopologyKind;

const std::string kLabel = "scenarios/minimal.json";

// 2 leaves x 4 hosts = 8 hosts, one explicit flow: the least a scenario may say.
json
Minimal()
{
    return json::parse(R"({
        "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4},
        "workloads": [{"type": "flows", "pattern": "list",
                       "flows": [{"src": 0, "dst": 5, "bytes": 4096}]}]
    })");
}

ScenarioConfig
ParseJson(const json& j, const std::vector<std::string>& sets = {})
{
    return Scenario::Parse(j.dump(), kLabel, sets);
}

// The error a document raises; fails the test if it is accepted.
ScenarioError
ErrorOf(const std::string& text, const std::vector<std::string>& sets = {})
{
    try
    {
        Scenario::Parse(text, kLabel, sets);
    }
    catch (const ScenarioError& e)
    {
        return e;
    }
    ADD_FAILURE() << "accepted: " << text;
    return ScenarioError("none", "none", "none");
}

ScenarioError
ErrorOf(const json& j, const std::vector<std::string>& sets = {})
{
    return ErrorOf(j.dump(), sets);
}

void
ExpectSameConfig(const ScenarioConfig& a, const ScenarioConfig& b)
{
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.stopTimeMs, b.stopTimeMs);
    EXPECT_EQ(a.topology.kind, b.topology.kind);
    EXPECT_EQ(a.topology.leaves, b.topology.leaves);
    EXPECT_EQ(a.topology.spines, b.topology.spines);
    EXPECT_EQ(a.topology.hostsPerLeaf, b.topology.hostsPerLeaf);
    EXPECT_EQ(a.topology.k, b.topology.k);
    EXPECT_EQ(a.topology.hostLink.rateGbps, b.topology.hostLink.rateGbps);
    EXPECT_EQ(a.topology.hostLink.delayUs, b.topology.hostLink.delayUs);
    EXPECT_EQ(a.topology.fabricLink.rateGbps, b.topology.fabricLink.rateGbps);
    EXPECT_EQ(a.topology.fabricLink.delayUs, b.topology.fabricLink.delayUs);
    EXPECT_EQ(a.topology.hostLink.lossRate, b.topology.hostLink.lossRate);
    EXPECT_EQ(a.topology.fabricLink.lossRate, b.topology.fabricLink.lossRate);
    EXPECT_EQ(a.nic.mtuBytes, b.nic.mtuBytes);
    EXPECT_EQ(a.nic.ackEvery, b.nic.ackEvery);
    EXPECT_EQ(a.nic.rtoUs, b.nic.rtoUs);
    EXPECT_EQ(a.nic.dataPriority, b.nic.dataPriority);
    EXPECT_EQ(a.nic.ctrlPriority, b.nic.ctrlPriority);
    EXPECT_EQ(a.nic.dcqcn.enabled, b.nic.dcqcn.enabled);
    EXPECT_EQ(a.nic.reorder, b.nic.reorder);
    EXPECT_EQ(a.nic.reorderWindow, b.nic.reorderWindow);
    EXPECT_EQ(a.nic.reorderTimeoutUs, b.nic.reorderTimeoutUs);
    EXPECT_EQ(a.sw.bufferMb, b.sw.bufferMb);
    EXPECT_EQ(a.sw.latencyNs, b.sw.latencyNs);
    EXPECT_EQ(a.sw.reserveKb, b.sw.reserveKb);
    EXPECT_EQ(a.sw.alpha, b.sw.alpha);
    EXPECT_EQ(a.sw.pfc.enabled, b.sw.pfc.enabled);
    EXPECT_EQ(a.sw.pfc.headroomKb, b.sw.pfc.headroomKb);
    EXPECT_EQ(a.sw.pfc.hysteresisKb, b.sw.pfc.hysteresisKb);
    EXPECT_EQ(a.sw.ecn.enabled, b.sw.ecn.enabled);
    EXPECT_EQ(a.sw.ecn.kminKb, b.sw.ecn.kminKb);
    EXPECT_EQ(a.sw.ecn.kmaxKb, b.sw.ecn.kmaxKb);
    EXPECT_EQ(a.sw.ecn.pmax, b.sw.ecn.pmax);
    EXPECT_EQ(a.loadBalancing.mode, b.loadBalancing.mode);
    EXPECT_EQ(a.loadBalancing.endpointSteering, b.loadBalancing.endpointSteering);
    EXPECT_EQ(a.loadBalancing.allowSteeringWithSpraying, b.loadBalancing.allowSteeringWithSpraying);
    EXPECT_EQ(a.loadBalancing.minRepathIntervalUs, b.loadBalancing.minRepathIntervalUs);
    EXPECT_EQ(a.loadBalancing.messageBytes, b.loadBalancing.messageBytes);
    EXPECT_EQ(a.loadBalancing.steeringModel, b.loadBalancing.steeringModel);
    EXPECT_EQ(a.p2mp.mechanism, b.p2mp.mechanism);
    EXPECT_EQ(a.p2mp.ackAggregation, b.p2mp.ackAggregation);
    EXPECT_EQ(a.p2mp.spec.at("bier"), b.p2mp.spec.at("bier"));
    ASSERT_EQ(a.faults.size(), b.faults.size());
    for (std::size_t i = 0; i < a.faults.size(); ++i)
    {
        EXPECT_EQ(a.faults[i].type, b.faults[i].type);
        EXPECT_EQ(a.faults[i].from, b.faults[i].from);
        EXPECT_EQ(a.faults[i].to, b.faults[i].to);
        EXPECT_EQ(a.faults[i].host, b.faults[i].host);
        EXPECT_EQ(a.faults[i].atUs, b.faults[i].atUs);
        EXPECT_EQ(a.faults[i].upUs, b.faults[i].upUs);
        EXPECT_EQ(a.faults[i].convergenceUs, b.faults[i].convergenceUs);
    }
    ASSERT_EQ(a.workloads.size(), b.workloads.size());
    for (std::size_t i = 0; i < a.workloads.size(); ++i)
    {
        const auto& x = a.workloads[i];
        const auto& y = b.workloads[i];
        EXPECT_EQ(x.type, y.type);
        EXPECT_EQ(x.label, y.label);
        EXPECT_EQ(x.pattern, y.pattern);
        EXPECT_EQ(x.op, y.op);
        EXPECT_EQ(x.bytes, y.bytes);
        EXPECT_EQ(x.startUs, y.startUs);
        EXPECT_EQ(x.senders, y.senders);
        EXPECT_EQ(x.receiver, y.receiver);
        EXPECT_EQ(x.qpsPerConnection, y.qpsPerConnection);
        ASSERT_EQ(x.flows.size(), y.flows.size());
        for (std::size_t j = 0; j < x.flows.size(); ++j)
        {
            EXPECT_EQ(x.flows[j].src, y.flows[j].src);
            EXPECT_EQ(x.flows[j].dst, y.flows[j].dst);
            EXPECT_EQ(x.flows[j].bytes, y.flows[j].bytes);
            EXPECT_EQ(x.flows[j].startUs, y.flows[j].startUs);
        }
    }
    EXPECT_EQ(a.output.dir, b.output.dir);
    EXPECT_EQ(a.output.pcap, b.output.pcap);
    EXPECT_EQ(a.output.receivers, b.output.receivers);
    EXPECT_EQ(a.output.steps, b.output.steps);
    EXPECT_EQ(a.output.packetTrace, b.output.packetTrace);
    EXPECT_EQ(a.output.steeringTrace, b.output.steeringTrace);
}

// ---------------------------------------------------------------------------------------------
// Defaults

TEST(ScenarioDefaults, MinimalScenarioGetsEveryDefault)
{
    const ScenarioConfig c = ParseJson(Minimal());
    EXPECT_EQ(c.file, kLabel);
    EXPECT_EQ(c.name, "minimal"); // the file stem
    EXPECT_EQ(c.seed, 1u);
    EXPECT_EQ(c.stopTimeMs, 100.0);
    EXPECT_EQ(c.topology.kind, TopologyKind::LEAF_SPINE);
    EXPECT_EQ(c.topology.leaves, 2u);
    EXPECT_EQ(c.topology.spines, 2u);
    EXPECT_EQ(c.topology.hostsPerLeaf, 4u);
    EXPECT_EQ(c.topology.k, 0u);
    EXPECT_EQ(c.HostCount(), 8u);
    EXPECT_EQ(c.topology.hostLink.rateGbps, 100.0);
    EXPECT_EQ(c.topology.hostLink.delayUs, 1.0);
    EXPECT_EQ(c.topology.fabricLink.rateGbps, 100.0);
    EXPECT_EQ(c.topology.fabricLink.delayUs, 1.0);
    EXPECT_EQ(c.nic.mtuBytes, 1024u);
    EXPECT_EQ(c.nic.ackEvery, 1u);
    EXPECT_EQ(c.nic.rtoUs, 1000.0);
    EXPECT_EQ(c.nic.dataPriority, 3u);
    EXPECT_EQ(c.nic.ctrlPriority, 6u);
    EXPECT_TRUE(c.nic.dcqcn.enabled);
    EXPECT_EQ(c.sw.bufferMb, 32.0);
    EXPECT_EQ(c.sw.latencyNs, 500.0);
    EXPECT_EQ(c.sw.reserveKb, 4.0);
    EXPECT_EQ(c.sw.alpha, 1.0);
    EXPECT_TRUE(c.sw.pfc.enabled);
    EXPECT_LT(c.sw.pfc.headroomKb, 0); // auto
    EXPECT_LT(c.sw.pfc.hysteresisKb, 0);
    EXPECT_TRUE(c.sw.ecn.enabled);
    EXPECT_LT(c.sw.ecn.kminKb, 0);
    EXPECT_LT(c.sw.ecn.kmaxKb, 0);
    EXPECT_EQ(c.sw.ecn.pmax, 0.2);
    EXPECT_EQ(c.loadBalancing.mode, "ecmp");
    EXPECT_EQ(c.p2mp.mechanism, "unicast");
    EXPECT_EQ(c.p2mp.ackAggregation, "none");
    EXPECT_EQ(c.p2mp.spec.at("bier").at("bsl_bits"), 256u);
    ASSERT_EQ(c.workloads.size(), 1u);
    EXPECT_EQ(c.workloads[0].type, "flows");
    EXPECT_EQ(c.workloads[0].label, "flows-0");
    EXPECT_EQ(c.workloads[0].pattern, FlowPattern::LIST);
    EXPECT_EQ(c.workloads[0].op, ns3::RdmaOperation::WRITE);
    ASSERT_EQ(c.workloads[0].flows.size(), 1u);
    EXPECT_EQ(c.workloads[0].flows[0].src, 0u);
    EXPECT_EQ(c.workloads[0].flows[0].dst, 5u);
    EXPECT_EQ(c.workloads[0].flows[0].bytes, 4096u);
    EXPECT_EQ(c.workloads[0].flows[0].startUs, 0.0);
    EXPECT_EQ(c.output.dir, "results/minimal");
    EXPECT_FALSE(c.output.pcap);
}

TEST(ScenarioDefaults, ExplicitNameDrivesOutputDir)
{
    json j = Minimal();
    j["name"] = "incast-32";
    const ScenarioConfig c = ParseJson(j);
    EXPECT_EQ(c.name, "incast-32");
    EXPECT_EQ(c.output.dir, "results/incast-32");
}

TEST(ScenarioDefaults, PatternsAndFatTree)
{
    json j = Minimal();
    j["topology"] = {{"kind", "fat-tree"}, {"k", 4}};
    j["workloads"] = json::parse(R"([
        {"type": "flows", "pattern": "permutation", "bytes": 1000},
        {"type": "flows", "pattern": "incast", "senders": 15, "receiver": 15, "bytes": 7,
         "start_us": 2.5, "op": "send", "label": "in"}
    ])");
    const ScenarioConfig c = ParseJson(j);
    EXPECT_EQ(c.HostCount(), 16u);
    EXPECT_EQ(c.workloads[0].pattern, FlowPattern::PERMUTATION);
    EXPECT_EQ(c.workloads[0].bytes, 1000u);
    EXPECT_EQ(c.workloads[0].startUs, 0.0);
    EXPECT_EQ(c.workloads[0].label, "flows-0");
    EXPECT_EQ(c.workloads[1].senders, 15u);
    EXPECT_EQ(c.workloads[1].receiver, 15u);
    EXPECT_EQ(c.workloads[1].startUs, 2.5);
    EXPECT_EQ(c.workloads[1].op, ns3::RdmaOperation::SEND);
    EXPECT_EQ(c.workloads[1].label, "in");
}

TEST(ScenarioDefaults, DcqcnAndLargestValuesAccepted)
{
    json j = Minimal();
    j["nic"] = {{"dcqcn", {{"enabled", false}}}, {"mtu_bytes", 4096}, {"ack_every", 65536}};
    j["topology"]["host_link"] = {{"rate_gbps", 1600}, {"delay_us", 1e6}};
    j["switch"] = {{"buffer_mb", 4096}, {"ecn", {{"kmin_kb", 10}, {"kmax_kb", 10}, {"pmax", 1}}}};
    j["stragglers"] = json::array();
    const ScenarioConfig c = ParseJson(j);
    EXPECT_FALSE(c.nic.dcqcn.enabled);
    EXPECT_EQ(c.nic.mtuBytes, 4096u);
    EXPECT_EQ(c.topology.hostLink.rateGbps, 1600.0);
    EXPECT_EQ(c.sw.ecn.kminKb, 10.0);
}

// ---------------------------------------------------------------------------------------------
// Validation: each case breaks one rule; the error must name exactly this path.

struct BadCase
{
    std::string name;
    std::function<void(json&)> mutate;
    std::string path;
    std::string reasonPart;
};

std::ostream&
operator<<(std::ostream& os, const BadCase& c)
{
    return os << c.name;
}

class ScenarioRejects : public ::testing::TestWithParam<BadCase>
{
};

TEST_P(ScenarioRejects, NamesThePath)
{
    const BadCase& bad = GetParam();
    json j = Minimal();
    bad.mutate(j);
    const ScenarioError e = ErrorOf(j);
    EXPECT_EQ(e.GetPath(), bad.path) << e.what();
    EXPECT_NE(e.GetReason().find(bad.reasonPart), std::string::npos) << e.what();
    EXPECT_EQ(e.GetFile(), kLabel);
    EXPECT_EQ(std::string(e.what()), kLabel + ": " + bad.path + ": " + e.GetReason());
}

// Shorthands for mutations.
std::function<void(json&)>
Set(const std::string& pointer, json value)
{
    return [pointer, value](json& j)
    {
        j[json::json_pointer(pointer)] = value;
    };
}

std::function<void(json&)>
Erase(const std::string& parentPointer, const std::string& key)
{
    return [parentPointer, key](json& j)
    {
        j[json::json_pointer(parentPointer)].erase(key);
    };
}

std::function<void(json&)>
Both(std::function<void(json&)> a, std::function<void(json&)> b)
{
    return [a, b](json& j)
    {
        a(j);
        b(j);
    };
}

const json kFatTree4 = {{"kind", "fat-tree"}, {"k", 4}};

const std::vector<BadCase> kTopLevel{
    {"UnknownTopLevelKey", Set("/sede", 3), "sede", "unknown key 'sede' (did you mean 'seed'?)"},
    {"NameNotString", Set("/name", 5), "name", "must be a non-empty string"},
    {"NameEmpty", Set("/name", ""), "name", "must be a non-empty string"},
    {"SeedNegative", Set("/seed", -1), "seed", "must be an integer >= 0"},
    {"SeedFraction", Set("/seed", 1.5), "seed", "must be an integer"},
    {"SeedString", Set("/seed", "7"), "seed", "must be an integer"},
    {"SeedExponent", Set("/seed", 1e3), "seed", "without a decimal point or exponent"},
    {"StopTimeZero", Set("/stop_time_ms", 0), "stop_time_ms", "must be a number > 0"},
    {"StopTimeString", Set("/stop_time_ms", "100"), "stop_time_ms", "must be a number"},
    {"TopologyMissing", Erase("", "topology"), "topology", "required key is missing"},
    {"TopologyNotObject", Set("/topology", "leaf-spine"), "topology", "must be an object"},
    {"WorkloadsMissing", Erase("", "workloads"), "workloads", "required key is missing"},
    {"WorkloadsEmpty", Set("/workloads", json::array()), "workloads", "non-empty array"},
    {"WorkloadsNotArray", Set("/workloads", json::object()), "workloads", "non-empty array"},
    {"StragglerWithoutType",
     Set("/stragglers", json::array({json::object()})),
     "stragglers[0].type",
     "required key is missing"},
    {"StragglerUnknownType",
     Set("/stragglers", json::array({{{"type", "slow-gpu"}}})),
     "stragglers[0].type",
     "'slow-node'"},
    {"StragglersNotArray", Set("/stragglers", 0), "stragglers", "must be an array"},
    {"OutputDirNotString", Set("/output/dir", 5), "output.dir", "non-empty string"},
    {"OutputPcapString", Set("/output/pcap", "true"), "output.pcap", "true or false"},
    {"OutputUnknownKey", Set("/output/format", "csv"), "output.format", "known keys: dir, pcap"},
};

const std::vector<BadCase> kTopology{
    {"KindMissing", Erase("/topology", "kind"), "topology.kind", "'leaf-spine', 'fat-tree'"},
    {"KindUnknown", Set("/topology/kind", "torus"), "topology.kind", "must be one of"},
    {"KindNotString", Set("/topology/kind", 1), "topology.kind", "must be a string"},
    {"LeafSpineWithK", Set("/topology/k", 4), "topology.k", "only to kind 'fat-tree'"},
    {"LeavesZero", Set("/topology/leaves", 0), "topology.leaves", "between 1 and 65536"},
    {"SpinesMissing", Erase("/topology", "spines"), "topology.spines", "required key"},
    {"HostsPerLeafFraction",
     Set("/topology/hosts_per_leaf", 1.5),
     "topology.hosts_per_leaf",
     "must be an integer"},
    {"HostsPerLeafNegative",
     Set("/topology/hosts_per_leaf", -4),
     "topology.hosts_per_leaf",
     "must be an integer"},
    {"TooManyHosts",
     Both(Set("/topology/leaves", 300), Set("/topology/hosts_per_leaf", 300)),
     "topology",
     "at most 65535"},
    // One past the largest 16-bit host ID (index + 1; 0 is not a BFR-id).
    {"HostsOnePastIdRange",
     Both(Set("/topology/leaves", 256), Set("/topology/hosts_per_leaf", 256)),
     "topology",
     "65536 hosts; at most 65535"},
    {"UnknownTopologyKey",
     Set("/topology/levaes", 2),
     "topology.levaes",
     "unknown key 'levaes' for kind 'leaf-spine' (did you mean 'leaves'?)"},
    {"TieBreakWithEcmp",
     Set("/load_balancing", {{"mode", "ecmp"}, {"tie_break", "first"}}),
     "load_balancing.tie_break",
     "applies only to load_balancing.mode 'spray-adaptive'"},
    {"FlowletGapWithSprayRandom",
     Set("/load_balancing", {{"mode", "spray-random"}, {"flowlet_gap_us", 10}}),
     "load_balancing.flowlet_gap_us",
     "applies only to load_balancing.mode 'spray-adaptive'"},
    {"FlowletGapNegative",
     Set("/load_balancing", {{"mode", "spray-adaptive"}, {"flowlet_gap_us", -1}}),
     "load_balancing.flowlet_gap_us",
     "between 0 and 1000000000 (the simulated-time horizon"},
    {"TieBreakUnknown",
     Set("/load_balancing", {{"mode", "spray-adaptive"}, {"tie_break", "last"}}),
     "load_balancing.tie_break",
     "'random'"},
    {"FatTreeOddK", Set("/topology", {{"kind", "fat-tree"}, {"k", 5}}), "topology.k", "even"},
    {"FatTreeKTooLarge", Set("/topology", {{"kind", "fat-tree"}, {"k", 66}}), "topology.k", "62"},
    // k = 64 makes 65,536 hosts: host 65,535 would need the 16-bit ID 65,536.
    {"FatTreeK64", Set("/topology", {{"kind", "fat-tree"}, {"k", 64}}), "topology.k", "2 and 62"},
    {"FatTreeKZero", Set("/topology", {{"kind", "fat-tree"}, {"k", 0}}), "topology.k", "2 and 62"},
    {"FatTreeKMissing", Set("/topology", {{"kind", "fat-tree"}}), "topology.k", "required key"},
    {"FatTreeWithLeaves",
     Both(Set("/topology/kind", "fat-tree"), Set("/topology/k", 4)),
     "topology.leaves",
     "only to kind 'leaf-spine'"},
    {"FatTreeWithHostsPerLeaf",
     Set("/topology", {{"kind", "fat-tree"}, {"k", 4}, {"hosts_per_leaf", 2}}),
     "topology.hosts_per_leaf",
     "only to kind 'leaf-spine'"},
    {"HostLinkRateZero",
     Set("/topology/host_link/rate_gbps", 0),
     "topology.host_link.rate_gbps",
     "between 0.001 and 1600"},
    {"FabricLinkRateTooHigh",
     Set("/topology/fabric_link/rate_gbps", 3200),
     "topology.fabric_link.rate_gbps",
     "between 0.001 and 1600"},
    {"HostLinkDelayNegative",
     Set("/topology/host_link/delay_us", -1),
     "topology.host_link.delay_us",
     "between 0 and 1000000"},
    {"FabricLinkDelayTooLarge",
     Set("/topology/fabric_link/delay_us", 2e6),
     "topology.fabric_link.delay_us",
     "between 0 and 1000000"},
    {"LinkUnknownKey",
     Set("/topology/host_link/latency_us", 1),
     "topology.host_link.latency_us",
     "known keys: rate_gbps, delay_us"},
    {"LinkNotObject", Set("/topology/host_link", 100), "topology.host_link", "must be an object"},
};

const std::vector<BadCase> kNicSwitch{
    {"MtuNotAllowed", Set("/nic/mtu_bytes", 1000), "nic.mtu_bytes", "256, 512, 1024, 2048, 4096"},
    {"AckEveryZero", Set("/nic/ack_every", 0), "nic.ack_every", "between 1 and 65536"},
    {"AckEveryTooLarge", Set("/nic/ack_every", 65537), "nic.ack_every", "between 1 and 65536"},
    {"RtoZero", Set("/nic/rto_us", 0), "nic.rto_us", "> 0"},
    {"DataPriority8", Set("/nic/data_priority", 8), "nic.data_priority", "between 0 and 7"},
    {"CtrlPriorityNegative", Set("/nic/ctrl_priority", -1), "nic.ctrl_priority", "0 and 7"},
    {"CtrlEqualsData", Set("/nic/ctrl_priority", 3), "nic.ctrl_priority", "must differ"},
    {"CtrlEqualsChangedData",
     Both(Set("/nic/data_priority", 6), Set("/nic/ctrl_priority", 6)),
     "nic.ctrl_priority",
     "must differ from nic.data_priority (6)"},
    {"DcqcnEnabledString", Set("/nic/dcqcn/enabled", "yes"), "nic.dcqcn.enabled", "true or false"},
    {"DcqcnUnknownKey", Set("/nic/dcqcn/ai_rate", 5), "nic.dcqcn.ai_rate", "known keys: enabled"},
    {"NicUnknownKey", Set("/nic/mtu", 1024), "nic.mtu", "did you mean 'mtu_bytes'?"},
    {"BufferZero", Set("/switch/buffer_mb", 0), "switch.buffer_mb", "> 0 and <= 4096"},
    {"BufferTooLarge", Set("/switch/buffer_mb", 4097), "switch.buffer_mb", "<= 4096"},
    {"LatencyNegative",
     Set("/switch/latency_ns", -1),
     "switch.latency_ns",
     "between 0 and 1000000000000 (the simulated-time horizon, 1000 s)"},
    {"ReserveNegative",
     Set("/switch/reserve_kb", -0.5),
     "switch.reserve_kb",
     "between 0 and 4194304 (the largest switch buffer"},
    {"AlphaZero", Set("/switch/alpha", 0), "switch.alpha", "> 0"},
    {"PfcEnabledNumber", Set("/switch/pfc/enabled", 1), "switch.pfc.enabled", "true or false"},
    {"PfcHeadroomNegative",
     Set("/switch/pfc/headroom_kb", -1),
     "switch.pfc.headroom_kb",
     "between 0 and 4194304"},
    {"PfcHysteresisString",
     Set("/switch/pfc/hysteresis_kb", "auto"),
     "switch.pfc.hysteresis_kb",
     "must be a number between 0 and 4194304"},
    {"PfcUnknownKey", Set("/switch/pfc/xoff_kb", 5), "switch.pfc.xoff_kb", "unknown key"},
    {"EcnKminNegative",
     Set("/switch/ecn/kmin_kb", -5),
     "switch.ecn.kmin_kb",
     "between 0 and 4194304"},
    {"EcnKmaxNegative",
     Set("/switch/ecn/kmax_kb", -5),
     "switch.ecn.kmax_kb",
     "between 0 and 4194304"},
    {"EcnPmaxAboveOne", Set("/switch/ecn/pmax", 1.5), "switch.ecn.pmax", "between 0 and 1"},
    {"EcnEnabledString", Set("/switch/ecn/enabled", "no"), "switch.ecn.enabled", "true or false"},
    {"EcnKminAboveKmax",
     Both(Set("/switch/ecn/kmin_kb", 800), Set("/switch/ecn/kmax_kb", 400)),
     "switch.ecn.kmin_kb",
     "must be <= switch.ecn.kmax_kb (400)"},
    {"SwitchUnknownKey", Set("/switch/buffer_kb", 5), "switch.buffer_kb", "buffer_mb"},
};

const std::vector<BadCase> kModes{
    {"LbSteeringWithSpraying",
     Both(Set("/load_balancing/mode", "spray-random"),
          Set("/load_balancing/endpoint_steering", true)),
     "load_balancing.endpoint_steering",
     "would act on the same traffic"},
    {"LbSteeringOff",
     Both(Set("/load_balancing/mode", "steering"), Set("/load_balancing/endpoint_steering", false)),
     "load_balancing.endpoint_steering",
     "cannot be false with load_balancing.mode 'steering'"},
    {"LbMessageBytesWithoutSteering",
     Set("/load_balancing/message_bytes", 4096),
     "load_balancing.message_bytes",
     "applies only with endpoint steering"},
    {"LbSteeringModelWithoutSteering",
     Set("/load_balancing/steering_model", "endpoint"),
     "load_balancing.steering_model",
     "applies only with endpoint steering"},
    {"LbSteeringModelUnknown",
     Both(Set("/load_balancing/mode", "steering"), Set("/load_balancing/steering_model", "x")),
     "load_balancing.steering_model",
     "must be one of 'endpoint', 'telemetry'"},
    {"LbTelemetryWithoutSteering",
     Set("/load_balancing/telemetry", true),
     "load_balancing.telemetry",
     "applies only with endpoint steering"},
    {"LbProbePortsWithoutTelemetry",
     Both(Set("/load_balancing/mode", "steering"), Set("/load_balancing/probe_ports", 4)),
     "load_balancing.probe_ports",
     "applies only with load_balancing.telemetry true"},
    {"LbProbePortsZero",
     Both(Set("/load_balancing/mode", "steering"),
          Both(Set("/load_balancing/telemetry", true), Set("/load_balancing/probe_ports", 0))),
     "load_balancing.probe_ports",
     "between 1 and 64"},
    {"LbTelemetryWindowZero",
     Both(Set("/load_balancing/mode", "steering"),
          Both(Set("/load_balancing/telemetry", true),
               Set("/load_balancing/telemetry_window_us", 0))),
     "load_balancing.telemetry_window_us",
     "must be a number > 0"},
    {"LbUnknown",
     Set("/load_balancing/mode", "random"),
     "load_balancing.mode",
     "must be one of 'ecmp', 'spray-random', 'spray-adaptive', 'steering'"},
    {"LbUnknownKey", Set("/load_balancing/modes", "ecmp"), "load_balancing.modes", "unknown key"},
    {"AddressListNeedsTheShim",
     Set("/p2mp/address_mapping", "per-receiver-list"),
     "p2mp.address_mapping",
     "needs p2mp.mechanism 'new-protocol'"},
    {"AckModeUnknown", Set("/p2mp/ack_mode", "sometimes"), "p2mp.ack_mode", "must be one of"},
    {"MechanismUnknown", Set("/p2mp/mechanism", "multicast"), "p2mp.mechanism", "must be one of"},
    {"AckAggregationWithUnicast",
     Set("/p2mp/ack_aggregation", "source-tor"),
     "p2mp.ack_aggregation",
     "must be 'none' with p2mp.mechanism 'unicast'"},
    {"AckAggregationUnknown",
     Set("/p2mp/ack_aggregation", "switch"),
     "p2mp.ack_aggregation",
     "'none', 'sender-nic', 'source-tor', 'hop-by-hop'"},
    {"ReceiverTimeoutWithUnicast",
     Set("/p2mp/receiver_timeout_us", 100),
     "p2mp.receiver_timeout_us",
     "needs a multicast p2mp.mechanism"},
    {"ReceiverTimeoutAckFree",
     Both(Set("/p2mp/mechanism", "bier"),
          Both(Set("/p2mp/ack_mode", "ack-free"), Set("/p2mp/receiver_timeout_us", 100))),
     "p2mp.receiver_timeout_us",
     "needs ACKs"},
    {"ReceiverTimeoutZero",
     Set("/p2mp/receiver_timeout_us", 0),
     "p2mp.receiver_timeout_us",
     "must be a number > 0"},
    {"ReceiverTimeoutPolicyUnknown",
     Set("/p2mp/on_receiver_timeout", "retry"),
     "p2mp.on_receiver_timeout",
     "'drop', 'fail'"},
    {"BslNotAllowed", Set("/p2mp/bier/bsl_bits", 100), "p2mp.bier.bsl_bits", "64, 128, 256"},
    {"BierUnknownKey", Set("/p2mp/bier/si", 0), "p2mp.bier.si", "known keys: bsl_bits"},
};

const std::vector<BadCase> kWorkloads{
    {"TypeMissing", Erase("/workloads/0", "type"), "workloads[0].type", "required key"},
    {"TypeUnknown", Set("/workloads/0/type", "ring"), "workloads[0].type", "must be one of"},
    {"WorkloadNotObject", Set("/workloads/0", 3), "workloads[0]", "must be an object"},
    {"LabelEmpty", Set("/workloads/0/label", ""), "workloads[0].label", "non-empty string"},
    {"OpUnknown", Set("/workloads/0/op", "read"), "workloads[0].op", "'write', 'send'"},
    {"PatternMissing", Erase("/workloads/0", "pattern"), "workloads[0].pattern", "required key"},
    {"PatternUnknown", Set("/workloads/0/pattern", "shuffle"), "workloads[0].pattern", "one of"},
    {"ListWithoutFlows", Erase("/workloads/0", "flows"), "workloads[0].flows", "required key"},
    {"ListFlowsEmpty", Set("/workloads/0/flows", json::array()), "workloads[0].flows", "non-empty"},
    {"ListWithTopLevelBytes",
     Set("/workloads/0/bytes", 5),
     "workloads[0].bytes",
     "unknown key 'bytes' for pattern 'list'"},
    {"FlowNotObject", Set("/workloads/0/flows/0", 1), "workloads[0].flows[0]", "must be an object"},
    {"FlowSrcEqualsDst",
     Set("/workloads/0/flows/0/dst", 0),
     "workloads[0].flows[0].dst",
     "must differ from workloads[0].flows[0].src (0)"},
    {"FlowDstBeyondTopology",
     Set("/workloads/0/flows/0/dst", 8),
     "workloads[0].flows[0].dst",
     "between 0 and 7 (a host index; the topology has 8 hosts)"},
    {"FlowSrcBeyondTopology",
     Set("/workloads/0/flows/0/src", 100),
     "workloads[0].flows[0].src",
     "between 0 and 7"},
    {"FlowSrcMissing", Erase("/workloads/0/flows/0", "src"), "workloads[0].flows[0].src", "req"},
    {"FlowBytesZero",
     Set("/workloads/0/flows/0/bytes", 0),
     "workloads[0].flows[0].bytes",
     "between 1 and 2147483648 (RDMA's limit of 2^31 bytes per message)"},
    {"FlowBytesMissing",
     Erase("/workloads/0/flows/0", "bytes"),
     "workloads[0].flows[0].bytes",
     "required key"},
    {"FlowStartNegative",
     Set("/workloads/0/flows/0/start_us", -1),
     "workloads[0].flows[0].start_us",
     "between 0 and 1000000000"},
    {"FlowUnknownKey",
     Set("/workloads/0/flows/0/size", 1),
     "workloads[0].flows[0].size",
     "known keys: src, dst, bytes, start_us"},
    {"SecondFlowBad",
     Set("/workloads/0/flows/1", {{"src", 1}, {"dst", 1}, {"bytes", 1}}),
     "workloads[0].flows[1].dst",
     "must differ"},
    {"SecondWorkloadBad",
     Set("/workloads/1", {{"type", "flows"}, {"pattern", "permutation"}}),
     "workloads[1].bytes",
     "required key"},
    {"PermutationBytesMissing",
     Set("/workloads/0", {{"type", "flows"}, {"pattern", "permutation"}}),
     "workloads[0].bytes",
     "required key"},
    {"PermutationWithFlows",
     Set("/workloads/0/pattern", "permutation"),
     "workloads[0].flows",
     "unknown key 'flows' for pattern 'permutation'"},
    {"PermutationStartNegative",
     Set("/workloads/0",
         {{"type", "flows"}, {"pattern", "permutation"}, {"bytes", 1}, {"start_us", -2}}),
     "workloads[0].start_us",
     "between 0 and 1000000000"},
    {"PermutationNeedsTwoHosts",
     Both(Set("/topology/leaves", 1),
          Both(Set("/topology/hosts_per_leaf", 1),
               Set("/workloads/0", {{"type", "flows"}, {"pattern", "permutation"}, {"bytes", 1}}))),
     "workloads[0].pattern",
     "at least 2 hosts"},
    {"IncastSendersZero",
     Set("/workloads/0",
         {{"type", "flows"}, {"pattern", "incast"}, {"senders", 0}, {"receiver", 0}, {"bytes", 1}}),
     "workloads[0].senders",
     "between 1 and 7"},
    {"IncastSendersAllHosts",
     Set("/workloads/0",
         {{"type", "flows"}, {"pattern", "incast"}, {"senders", 8}, {"receiver", 0}, {"bytes", 1}}),
     "workloads[0].senders",
     "between 1 and 7"},
    {"IncastReceiverBeyondTopology",
     Set("/workloads/0",
         {{"type", "flows"}, {"pattern", "incast"}, {"senders", 2}, {"receiver", 8}, {"bytes", 1}}),
     "workloads[0].receiver",
     "between 0 and 7"},
    {"IncastReceiverMissing",
     Set("/workloads/0", {{"type", "flows"}, {"pattern", "incast"}, {"senders", 2}, {"bytes", 1}}),
     "workloads[0].receiver",
     "required key"},
    {"IncastBytesFraction",
     Set("/workloads/0",
         {{"type", "flows"},
          {"pattern", "incast"},
          {"senders", 2},
          {"receiver", 0},
          {"bytes", 1.5}}),
     "workloads[0].bytes",
     "must be an integer"},
    {"IncastWithFlowsKey",
     Set("/workloads/0/pattern", "incast"),
     "workloads[0].flows",
     "unknown key 'flows' for pattern 'incast'"},
    {"DuplicateLabels",
     Both(Set("/workloads/0/label", "a"),
          Set("/workloads/1",
              {{"type", "flows"}, {"pattern", "permutation"}, {"bytes", 1}, {"label", "a"}})),
     "workloads[1].label",
     "must be unique"},
    {"DefaultLabelClash",
     Both(Set("/workloads/0/label", "flows-1"),
          Set("/workloads/1", {{"type", "flows"}, {"pattern", "permutation"}, {"bytes", 1}})),
     "workloads[1].label",
     "must be unique"},
};

INSTANTIATE_TEST_SUITE_P(TopLevel,
                         ScenarioRejects,
                         ::testing::ValuesIn(kTopLevel),
                         [](const auto& info)
                         {
                             return info.param.name;
                         });
INSTANTIATE_TEST_SUITE_P(Topology,
                         ScenarioRejects,
                         ::testing::ValuesIn(kTopology),
                         [](const auto& info)
                         {
                             return info.param.name;
                         });
INSTANTIATE_TEST_SUITE_P(NicSwitch,
                         ScenarioRejects,
                         ::testing::ValuesIn(kNicSwitch),
                         [](const auto& info)
                         {
                             return info.param.name;
                         });
INSTANTIATE_TEST_SUITE_P(Modes,
                         ScenarioRejects,
                         ::testing::ValuesIn(kModes),
                         [](const auto& info)
                         {
                             return info.param.name;
                         });
INSTANTIATE_TEST_SUITE_P(Workloads,
                         ScenarioRejects,
                         ::testing::ValuesIn(kWorkloads),
                         [](const auto& info)
                         {
                             return info.param.name;
                         });

TEST(ScenarioValidation, AWorkloadPriorityIsADataClass)
{
    json j = Minimal();
    j["workloads"][0]["priority"] = 6; // nic.ctrl_priority's default
    ScenarioError e = ErrorOf(j);
    EXPECT_EQ(e.GetPath(), "workloads[0].priority") << e.what();
    EXPECT_NE(e.GetReason().find("nic.ctrl_priority"), std::string::npos) << e.what();
    j["workloads"][0]["priority"] = 8;
    EXPECT_EQ(ErrorOf(j).GetPath(), "workloads[0].priority");
    j["workloads"][0]["priority"] = 5;
    j["switch"] = {{"scheduling", "dwrr"}, {"dwrr", {{"weights", {1, 1, 1}}}}};
    EXPECT_EQ(ErrorOf(j).GetPath(), "switch.dwrr.weights");
}

TEST(ScenarioValidation, MoeDispatchKeysThatContradictEachOther)
{
    auto moe = [](json extra)
    {
        json j = Minimal();
        j["workloads"][0] = {{"type", "moe-dispatch"}};
        j["workloads"][0].update(extra);
        return ErrorOf(j);
    };
    ScenarioError e = moe({{"experts", 4}, {"top_k", 8}});
    EXPECT_EQ(e.GetPath(), "workloads[0].top_k") << e.what();
    e = moe({{"zipf_exponent", 1.2}});
    EXPECT_EQ(e.GetPath(), "workloads[0].zipf_exponent") << e.what();
    EXPECT_NE(e.GetReason().find("only with workloads[0].gating"), std::string::npos) << e.what();
    e = moe({{"gating", "zipf"}});
    EXPECT_EQ(e.GetPath(), "workloads[0].zipf_exponent") << e.what();
    e = moe({{"dispatch_token_bytes", 7408}, {"dispatch_bytes_per_element", 1}});
    EXPECT_EQ(e.GetPath(), "workloads[0].dispatch_token_bytes") << e.what();
    EXPECT_NE(e.GetReason().find("not both"), std::string::npos) << e.what();
    e = moe({{"batching", "per-layer"}});
    EXPECT_EQ(e.GetPath(), "workloads[0].batching") << e.what();
}

TEST(ScenarioValidation, UnknownKeyListsTheKnownKeys)
{
    json j = Minimal();
    j["colour"] = "blue";
    const ScenarioError e = ErrorOf(j);
    EXPECT_EQ(e.GetPath(), "colour");
    EXPECT_EQ(e.GetReason(),
              "unknown key 'colour'; known keys: name, seed, stop_time_ms, topology, nic, switch, "
              "load_balancing, p2mp, workloads, stragglers, faults, limits, distribution, "
              "output");
}

TEST(ScenarioValidation, RootMustBeAnObject)
{
    const ScenarioError e = ErrorOf(std::string("[1, 2]"));
    EXPECT_EQ(e.GetPath(), "(root)");
    EXPECT_NE(e.GetReason().find("must be an object"), std::string::npos);
}

TEST(ScenarioValidation, SyntaxErrorHasLineAndColumn)
{
    // "  oops": the lexer stops at the first o, which starts no JSON literal (column 3).
    const std::string text = "{\n  \"seed\": 1,\n  oops: 2\n}\n";
    const ScenarioError e = ErrorOf(text);
    EXPECT_EQ(e.GetPath(), "(root)");
    EXPECT_EQ(e.GetFile(), kLabel);
    EXPECT_EQ(e.GetReason().rfind("line 3, column 3: syntax error", 0), 0u) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(kLabel + ": (root): line 3, column 3: ", 0), 0u);
}

TEST(ScenarioValidation, EmptyAndTruncatedDocuments)
{
    EXPECT_EQ(ErrorOf(std::string("")).GetReason().rfind("line 1, column 1: ", 0), 0u);
    const ScenarioError e = ErrorOf(std::string("{\"seed\": 1,\n"));
    EXPECT_EQ(e.GetPath(), "(root)");
    EXPECT_NE(e.GetReason().find("line 2"), std::string::npos) << e.what();
}

TEST(ScenarioValidation, DuplicateKeysAreRejectedAtTheirPath)
{
    const ScenarioError top = ErrorOf(std::string(R"({"seed": 1, "seed": 2})"));
    EXPECT_EQ(top.GetPath(), "seed");
    EXPECT_NE(top.GetReason().find("duplicate key 'seed'"), std::string::npos);

    const std::string nested = R"({"topology": {"kind": "fat-tree", "k": 4},
        "workloads": [{"type": "flows", "pattern": "list",
                       "flows": [{"src": 0, "dst": 1, "bytes": 1},
                                 {"src": 0, "dst": 2, "dst": 3, "bytes": 1}]}]})";
    EXPECT_EQ(ErrorOf(nested).GetPath(), "workloads[0].flows[1].dst");
}

TEST(ScenarioValidation, HugeNumberIsAnError)
{
    json j = Minimal();
    std::string text = j.dump();
    text.insert(1, "\"stop_time_ms\": 1e400, ");
    const ScenarioError e = ErrorOf(text);
    EXPECT_EQ(e.GetPath(), "(root)");
}

TEST(ScenarioValidation, HostIndicesFollowTheFatTreeSize)
{
    json j = Minimal();
    j["topology"] = kFatTree4; // 16 hosts
    j["workloads"][0]["flows"][0]["dst"] = 15;
    EXPECT_EQ(ParseJson(j).workloads[0].flows[0].dst, 15u);
    j["workloads"][0]["flows"][0]["dst"] = 16;
    EXPECT_EQ(ErrorOf(j).GetPath(), "workloads[0].flows[0].dst");
}

// ---------------------------------------------------------------------------------------------
// --set overrides

TEST(ScenarioSet, ValueTypes)
{
    const ScenarioConfig c = ParseJson(Minimal(),
                                       {"seed=7",
                                        "output.pcap=true",
                                        "name=my-run",
                                        "topology.host_link.rate_gbps=400",
                                        "topology.fabric_link.delay_us=0.25",
                                        "p2mp.mechanism=unicast",
                                        "output.dir=\"out dir\"",
                                        "stragglers=[]"});
    EXPECT_EQ(c.seed, 7u);
    EXPECT_TRUE(c.output.pcap);
    EXPECT_EQ(c.name, "my-run");
    EXPECT_EQ(c.topology.hostLink.rateGbps, 400.0);
    EXPECT_EQ(c.topology.fabricLink.delayUs, 0.25);
    EXPECT_EQ(c.output.dir, "out dir");
}

TEST(ScenarioSet, NameOverrideMovesDefaultOutputDir)
{
    EXPECT_EQ(ParseJson(Minimal(), {"name=x"}).output.dir, "results/x");
}

TEST(ScenarioSet, ArrayIndexForms)
{
    const ScenarioConfig a = ParseJson(Minimal(), {"workloads[0].flows[0].bytes=8192"});
    EXPECT_EQ(a.workloads[0].flows[0].bytes, 8192u);
    const ScenarioConfig b = ParseJson(Minimal(), {"workloads.0.flows.0.dst=7"});
    EXPECT_EQ(b.workloads[0].flows[0].dst, 7u);
    const ScenarioConfig c = ParseJson(Minimal(), {"workloads.0.flows[0].start_us=3"});
    EXPECT_EQ(c.workloads[0].flows[0].startUs, 3.0);
}

TEST(ScenarioSet, CreatesMissingObjectsAndReplacesElements)
{
    const ScenarioConfig c
        = ParseJson(Minimal(),
                    {"switch.ecn.kmin_kb=100",
                     "switch.pfc.enabled=false",
                     R"(workloads[0]={"type":"flows","pattern":"permutation","bytes":64})"});
    EXPECT_EQ(c.sw.ecn.kminKb, 100.0);
    EXPECT_FALSE(c.sw.pfc.enabled);
    EXPECT_EQ(c.workloads[0].pattern, FlowPattern::PERMUTATION);
    EXPECT_EQ(c.workloads[0].bytes, 64u);
}

TEST(ScenarioSet, LaterOverrideWins)
{
    EXPECT_EQ(ParseJson(Minimal(), {"seed=3", "seed=9"}).seed, 9u);
}

TEST(ScenarioSet, OverrideIsValidatedLikeTheFile)
{
    const ScenarioError bad = ErrorOf(Minimal(), {"load_balancing.message_bytes=4096"});
    EXPECT_EQ(bad.GetFile(), kLabel);
    EXPECT_EQ(bad.GetPath(), "load_balancing.message_bytes");
    EXPECT_NE(bad.GetReason().find("applies only with endpoint steering"), std::string::npos);
    EXPECT_NE(bad.GetReason().find("(set by --set load_balancing.message_bytes=4096)"),
              std::string::npos);

    EXPECT_EQ(ErrorOf(Minimal(), {"nic.mtu_bytes=1000"}).GetPath(), "nic.mtu_bytes");
    EXPECT_EQ(ErrorOf(Minimal(), {"seed=-1"}).GetPath(), "seed");
    EXPECT_EQ(ErrorOf(Minimal(), {"seed=abc"}).GetPath(), "seed"); // a string, not an integer
    EXPECT_EQ(ErrorOf(Minimal(), {"workloads.0.flows.0.dst=0"}).GetPath(),
              "workloads[0].flows[0].dst");
}

TEST(ScenarioSet, UnknownKeyViaSet)
{
    const ScenarioError e = ErrorOf(Minimal(), {"nic.mtu=2048"});
    EXPECT_EQ(e.GetFile(), kLabel);
    EXPECT_EQ(e.GetPath(), "nic.mtu");
    EXPECT_NE(e.GetReason().find("unknown key 'mtu'"), std::string::npos);

    EXPECT_EQ(ErrorOf(Minimal(), {"brand.new.key=1"}).GetPath(), "brand");
}

TEST(ScenarioSet, NullRemovesAKeySoItsDefaultApplies)
{
    json j = Minimal();
    j["nic"]["mtu_bytes"] = 2048;
    EXPECT_EQ(ParseJson(j).nic.mtuBytes, 2048u);
    json k = j;
    EXPECT_EQ(Scenario::ApplySet(k, "nic.mtu_bytes=null"), "nic.mtu_bytes");
    EXPECT_FALSE(k["nic"].contains("mtu_bytes"));
    EXPECT_EQ(ParseJson(j, {"nic.mtu_bytes=null"}).nic.mtuBytes, ParseJson(Minimal()).nic.mtuBytes);
    // Removing what is not there is a misspelling, not a no-op; an array element is not a key.
    EXPECT_NE(ErrorOf(j, {"nic.mtu=null"}).GetReason().find("nothing to remove"),
              std::string::npos);
    EXPECT_EQ(ErrorOf(j, {"nic.mtu=null"}).GetPath(), "nic.mtu");
    EXPECT_NE(ErrorOf(j, {"nope.mtu_bytes=null"}).GetReason().find("nothing to remove"),
              std::string::npos);
    EXPECT_NE(ErrorOf(j, {"workloads[0]=null"}).GetReason().find("removes a key of an object"),
              std::string::npos);
}

struct BadSet
{
    std::string set;
    std::string path;
    std::string reasonPart;
};

TEST(ScenarioSet, MalformedOverridesNameTheirPath)
{
    const std::vector<BadSet> cases{
        {"seed", "seed", "missing '='"},
        {"=5", "(root)", "empty path"},
        {"workloads[3].bytes=1", "workloads[3].bytes", "index 3 is out of range"},
        {"workloads.5.bytes=1", "workloads.5.bytes", "index 5 is out of range"},
        {"seed[0]=1", "seed[0]", "not an array"},
        {"topology[0].kind=1", "topology[0].kind", "not an array"},
        {"topology.kind.x=1", "topology.kind.x", "not an object"},
        {"a..b=1", "a..b", "empty key"},
        {"nic.=1", "nic.", "empty key"},
        {"workloads[x].bytes=1", "workloads[x].bytes", "non-negative integer"},
        {"workloads[0.bytes=1", "workloads[0.bytes", "unclosed '['"},
        {"workloads[0]x.bytes=1", "workloads[0]x.bytes", "unexpected text"},
        {"work]loads=1", "work]loads", "unmatched ']'"},
    };
    for (const BadSet& c : cases)
    {
        const ScenarioError e = ErrorOf(Minimal(), {c.set});
        EXPECT_EQ(e.GetFile(), "--set") << c.set;
        EXPECT_EQ(e.GetPath(), c.path) << c.set;
        EXPECT_NE(e.GetReason().find(c.reasonPart), std::string::npos) << e.what();
    }
}

TEST(ScenarioSet, ApplySetReturnsCanonicalPath)
{
    json j = Minimal();
    EXPECT_EQ(Scenario::ApplySet(j, "workloads.0.flows.0.bytes=5"), "workloads[0].flows[0].bytes");
    EXPECT_EQ(j["workloads"][0]["flows"][0]["bytes"], 5);
    EXPECT_EQ(Scenario::ApplySet(j, "x.y=not json {"), "x.y");
    EXPECT_EQ(j["x"]["y"], "not json {");
    EXPECT_EQ(Scenario::ApplySet(j, "z="), "z");
    EXPECT_EQ(j["z"], "");
    EXPECT_EQ(Scenario::ApplySet(j, "w=a=b"), "w"); // only the first '=' splits
    EXPECT_EQ(j["w"], "a=b");
}

// ---------------------------------------------------------------------------------------------
// ToJson

// A config built in C++ is checked by the same rules as a file.
TEST(ScenarioCheck, ConfigBuiltInCodeGetsTheFileRules)
{
    ScenarioConfig c = ParseJson(Minimal());
    EXPECT_EQ(Scenario::ToJson(Scenario::Check(c)), Scenario::ToJson(c));
    c.nic.ctrlPriority = c.nic.dataPriority;
    c.sw.ecn.kminKb = 800;
    c.sw.ecn.kmaxKb = 400;
    try
    {
        Scenario::Check(c);
        FAIL() << "an invalid config was accepted";
    }
    catch (const ScenarioError& e)
    {
        ASSERT_EQ(e.GetErrors().size(), 2u) << e.what();
        EXPECT_EQ(e.GetErrors()[0].path, "nic.ctrl_priority");
        EXPECT_EQ(e.GetErrors()[1].path, "switch.ecn.kmin_kb");
    }
}

TEST(ScenarioToJson, MinimalRoundTrip)
{
    const ScenarioConfig c = ParseJson(Minimal());
    const json j = Scenario::ToJson(c);
    // Every default is written out.
    EXPECT_EQ(j["name"], "minimal");
    EXPECT_EQ(j["seed"], 1);
    EXPECT_EQ(j["stop_time_ms"], 100.0);
    EXPECT_EQ(j["topology"]["host_link"]["rate_gbps"], 100.0);
    EXPECT_EQ(j["nic"]["mtu_bytes"], 1024);
    EXPECT_EQ(j["nic"]["ctrl_priority"], 6);
    EXPECT_EQ(j["nic"]["dcqcn"]["enabled"], true);
    EXPECT_EQ(j["switch"]["ecn"]["pmax"], 0.2);
    EXPECT_EQ(j["switch"]["pfc"]["enabled"], true);
    EXPECT_FALSE(j["switch"]["pfc"].contains("headroom_kb")); // auto
    EXPECT_FALSE(j["switch"]["ecn"].contains("kmin_kb"));
    EXPECT_EQ(j["load_balancing"]["mode"], "ecmp");
    EXPECT_EQ(j["p2mp"]["bier"]["bsl_bits"], 256);
    EXPECT_EQ(j["workloads"][0]["label"], "flows-0");
    EXPECT_EQ(j["workloads"][0]["op"], "write");
    EXPECT_EQ(j["workloads"][0]["flows"][0]["start_us"], 0.0);
    EXPECT_EQ(j["stragglers"], json::array());
    EXPECT_EQ(j["output"]["dir"], "results/minimal");
    EXPECT_FALSE(j.contains("file"));

    const ScenarioConfig back = Scenario::Parse(j.dump(), "elsewhere/other.json", {});
    ExpectSameConfig(c, back);
    EXPECT_EQ(Scenario::ToJson(back), j);
}

TEST(ScenarioToJson, EveryFieldRoundTrips)
{
    const json in = json::parse(R"({
        "name": "all-fields", "seed": 18446744073709551615, "stop_time_ms": 0.1,
        "topology": {"kind": "fat-tree", "k": 8,
                     "host_link": {"rate_gbps": 25.5, "delay_us": 0.3, "loss_rate": 0.5},
                     "fabric_link": {"rate_gbps": 800, "delay_us": 0, "loss_rate": 0}},
        "nic": {"mtu_bytes": 4096, "ack_every": 16, "rto_us": 123.456, "data_priority": 0,
                "ctrl_priority": 7, "dcqcn": {"enabled": false, "preset": "nvidia-cx6",
                "cnp_interval_us": 7.5, "g": 0.125, "alpha_update_us": 3.25,
                "rate_increase_us": 99.5, "byte_counter_bytes": 12345,
                "fast_recovery_steps": 3, "rate_ai_mbps": 7.5, "rate_hai_mbps": 75.5,
                "rate_step_reference_gbps": 12.5, "min_rate_mbps": 2.5, "rate_on_first_cnp_mbps": 1000.5,
                "initial_alpha": 0.5, "clamp_target_rate": true, "rate_trace": true,
                "alpha_update": "per-period", "rate_decrease_interval_us": 2.5},
                "reorder": "tolerant", "reorder_window": 77, "reorder_timeout_us": 12.5,
                "receive_mpps": 215.5, "receive_pause_bytes": 65537,
                "congestion_control": "hpcc",
                "hpcc": {"eta": 0.99, "max_stage": 5, "rate_ai_mbps": 50.5,
                         "rate_step_reference_gbps": 0, "min_rate_mbps": 100.5,
                         "base_rtt_us": 12.25}},
        "switch": {"buffer_mb": 12.5, "latency_ns": 0, "reserve_kb": 0.1, "alpha": 0.125,
                   "pfc": {"enabled": false, "headroom_kb": 97.3, "hysteresis_kb": 0},
                   "ecn": {"enabled": false, "kmin_kb": 1, "kmax_kb": 2, "pmax": 1},
                   "scheduling": "dwrr", "source_validation": true,
                   "dwrr": {"weights": [2, 1, 1, 1, 5, 1, 0, 0], "quantum_bytes": 4096}},
        "load_balancing": {"mode": "steering", "endpoint_steering": true,
                           "allow_steering_with_spraying": true,
                           "min_repath_interval_us": 50.5, "message_bytes": 4096,
                           "telemetry": true, "probe_ports": 3, "probe_interval_us": 12.5,
                           "telemetry_window_us": 2.5, "steering_model": "telemetry"},
        "p2mp": {"mechanism": "new-protocol", "ack_aggregation": "hop-by-hop",
                 "ack_mode": "every-n", "ack_every": 4, "address_mapping": "per-receiver-list",
                 "ack_validation": false, "receiver_timeout_us": 250.5,
                 "on_receiver_timeout": "drop",
                 "bier": {"bsl_bits": 4096}, "xpu_list": {"lookup_ns_per_id": 2.5},
                 "new_protocol": {"install_us": 12.5, "controller_installs_per_s": 2.5e5, "switch_writes_per_s": 1.5e4, "table_entries": 77,
                                  "on_table_full": "fallback-unicast"}},
        "workloads": [
            {"type": "flows", "pattern": "list", "label": "L", "op": "send",
             "qps_per_connection": 3, "flows": [{"src": 127, "dst": 0, "bytes": 2147483648, "start_us": 0.7},
                       {"src": 1, "dst": 2, "bytes": 1, "start_us": 0}]},
            {"type": "flows", "pattern": "permutation", "bytes": 3, "start_us": 1e-3,
             "label": "flows-1", "op": "write", "qps_per_connection": 1},
            {"type": "flows", "pattern": "incast", "senders": 127, "receiver": 64, "bytes": 9,
             "start_us": 5, "label": "flows-2", "op": "write", "qps_per_connection": 256}],
        "stragglers": [],
        "faults": [{"type": "link-down", "from": "edge0", "to": "agg1", "at_us": 5,
                    "up_us": 7.5, "convergence_us": 0},
                   {"type": "nic-down", "host": 127, "at_us": 0, "convergence_us": 100}],
        "limits": {"max_events": 123456789, "max_rss_mb": 2048.5},
        "distribution": {"unit": "rack"},
        "output": {"dir": "/tmp/x", "pcap": true, "receivers": true, "steps": true,
                   "packet_trace": true, "steering_trace": true, "timeline": true,
                   "timeline_sample_us": 2.5, "timeline_max_mb": 7}
    })");
    const ScenarioConfig c = ParseJson(in);
    EXPECT_EQ(c.seed, 18446744073709551615ull);
    EXPECT_EQ(c.sw.pfc.headroomKb, 97.3);
    EXPECT_EQ(c.sw.pfc.hysteresisKb, 0.0);
    const json out = Scenario::ToJson(c);
    EXPECT_EQ(out, in); // nothing was lost, nothing added beyond the defaults in `in`
    ExpectSameConfig(c, Scenario::Parse(out.dump(), kLabel, {}));
    ExpectSameConfig(c, Scenario::Parse(out.dump(2), kLabel, {}));
}

TEST(ScenarioToJson, MultiPlaneRoundTrips)
{
    json in = Minimal();
    in["topology"] = json::parse(R"({"kind": "multi-plane", "xpus": 64, "planes": 4,
        "switch_ports": 16, "spread": "hash",
        "host_link": {"rate_gbps": 400, "delay_us": 0.5, "loss_rate": 0},
        "fabric_link": {"rate_gbps": 800, "delay_us": 0.25, "loss_rate": 0}})");
    const ScenarioConfig c = ParseJson(in);
    EXPECT_EQ(c.topology.kind, TopologyKind::MULTI_PLANE);
    EXPECT_EQ(c.topology.xpus, 64u);
    EXPECT_EQ(c.topology.planes, 4u);
    EXPECT_EQ(c.topology.switchPorts, 16u);
    EXPECT_EQ(c.topology.spread, PlaneSpreadRule::HASH);
    EXPECT_EQ(c.HostCount(), 64u); // workloads address XPUs, not their 256 ports
    const json out = Scenario::ToJson(c);
    EXPECT_EQ(out["topology"], in["topology"]);
    ExpectSameConfig(c, Scenario::Parse(out.dump(), kLabel, {}));
}

TEST(ScenarioToJson, ExpandedFlowsOfAPatternAreNotWritten)
{
    json j = Minimal();
    j["workloads"][0] = {
        {"type", "flows"}, {"pattern", "incast"}, {"senders", 3}, {"receiver", 0}, {"bytes", 10}};
    ScenarioConfig c = ParseJson(j);
    c.workloads[0].flows.push_back({1, 0, 10, 0}); // as the runner expands it
    const json out = Scenario::ToJson(c);
    EXPECT_FALSE(out["workloads"][0].contains("flows"));
    EXPECT_EQ(ParseJson(out).workloads[0].senders, 3u);
}

// ---------------------------------------------------------------------------------------------
// Load

class ScenarioLoad : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = std::filesystem::path(::testing::TempDir())
                / ("mcast4ai-scenario-" + std::to_string(::getpid()));
        std::filesystem::create_directories(m_dir);
    }

    void TearDown() override
    {
        std::filesystem::remove_all(m_dir);
    }

    std::string Write(const std::string& name, const std::string& text)
    {
        const std::string path = (m_dir / name).string();
        std::ofstream(path) << text;
        return path;
    }

    std::filesystem::path m_dir;
};

TEST_F(ScenarioLoad, ReadsFileAndAppliesSets)
{
    const std::string file = Write("incast-4.json", Minimal().dump(2));
    const ScenarioConfig c = Scenario::Load(file, {"seed=11"});
    EXPECT_EQ(c.file, file);
    EXPECT_EQ(c.name, "incast-4");
    EXPECT_EQ(c.seed, 11u);
}

TEST_F(ScenarioLoad, MissingFileIsAnErrorAtRoot)
{
    const std::string file = (m_dir / "nope.json").string();
    try
    {
        Scenario::Load(file, {});
        FAIL() << "loaded a missing file";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_EQ(e.GetFile(), file);
        EXPECT_EQ(e.GetPath(), "(root)");
        EXPECT_NE(e.GetReason().find("no such file"), std::string::npos);
    }
}

TEST_F(ScenarioLoad, DirectoryIsAnError)
{
    try
    {
        Scenario::Load(m_dir.string(), {});
        FAIL() << "loaded a directory";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_EQ(e.GetPath(), "(root)");
    }
}

TEST_F(ScenarioLoad, SyntaxErrorNamesTheFile)
{
    const std::string file = Write("broken.json", "{\n  \"seed\": 1,\n}\n");
    try
    {
        Scenario::Load(file, {});
        FAIL() << "loaded a broken file";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_EQ(std::string(e.what()).rfind(file + ": (root): line 3, column 1: ", 0), 0u)
            << e.what();
    }
}

// ---------------------------------------------------------------------------------------------
// Messages that help: did-you-mean for values, both keys named, every error at once

TEST(ScenarioMessages, MisspeltEnumValueGetsASuggestion)
{
    json j = Minimal();
    j["p2mp"] = {{"mechanism", "bier"}, {"ack_aggregation", "source_tor"}};
    ScenarioError e = ErrorOf(j);
    EXPECT_EQ(e.GetPath(), "p2mp.ack_aggregation");
    EXPECT_NE(e.GetReason().find("got \"source_tor\" (did you mean 'source-tor'?)"),
              std::string::npos)
        << e.what();

    j["p2mp"] = {{"mechanism", "bier-xpu"}};
    e = ErrorOf(j);
    EXPECT_EQ(e.GetPath(), "p2mp.mechanism");
    EXPECT_NE(e.GetReason().find("(did you mean 'bier-xpu-list'?)"), std::string::npos) << e.what();

    // Nothing close: no guess.
    j["p2mp"] = {{"mechanism", "multicast"}};
    EXPECT_EQ(ErrorOf(j).GetReason().find("did you mean"), std::string::npos);
}

TEST(ScenarioMessages, CrossKeyErrorsNameBothKeys)
{
    json j = Minimal();
    j["workloads"][0] = json::parse(R"({"type": "broadcast", "bytes": 64, "root": 2,
                                        "ranks": [0, 1]})");
    ScenarioError e = ErrorOf(j);
    EXPECT_EQ(e.GetPath(), "workloads[0].root");
    EXPECT_EQ(e.GetReason(), "must be one of workloads[0].ranks; host 2 is not");

    j["workloads"][0] = json::parse(R"({"type": "broadcast", "bytes": 64,
                                        "ranks": [0, 1, 2], "receivers_per_message": 3})");
    e = ErrorOf(j);
    EXPECT_EQ(e.GetPath(), "workloads[0].receivers_per_message");
    EXPECT_EQ(e.GetReason(),
              "must be at most the 2 ranks of workloads[0].ranks other than the root, got 3");

    // A host index names the keys the host count comes from.
    j = Minimal();
    j["workloads"][0]["flows"][0]["dst"] = 8;
    EXPECT_NE(
        ErrorOf(j).GetReason().find("hosts = topology.leaves x topology.hosts_per_leaf = 2 x 4"),
        std::string::npos);
}

TEST(ScenarioMessages, EveryErrorOfTheFileAtOnce)
{
    json j = Minimal();
    j["seed"] = -1;
    j["nic"] = {{"mtu_bytes", 1000}};
    j["switch"] = {{"ecn", {{"kmin_kb", 2}, {"kmax_kb", 1}}}};
    j["workloads"][0]["flows"][0]["dst"] = 0;
    const ScenarioError e = ErrorOf(j);
    std::vector<std::string> paths;
    for (const auto& entry : e.GetErrors())
    {
        paths.push_back(entry.path);
        EXPECT_EQ(entry.file, kLabel);
    }
    EXPECT_EQ(paths,
              (std::vector<std::string>{
                  "seed", "nic.mtu_bytes", "switch.ecn.kmin_kb", "workloads[0].flows[0].dst"}));
    EXPECT_EQ(e.GetPath(), "seed"); // the first one, as before
    EXPECT_EQ(std::string(e.what()), e.GetErrors().front().Text());
    EXPECT_EQ(e.GetNotShown(), 0u);
}

TEST(ScenarioMessages, AtMostTwentyErrorsAreListed)
{
    json j = Minimal();
    j["workloads"][0]["flows"] = json::array();
    for (int i = 0; i < 25; ++i)
    {
        j["workloads"][0]["flows"].push_back({{"src", 1}, {"dst", 1}, {"bytes", 1}});
    }
    const ScenarioError e = ErrorOf(j);
    ASSERT_EQ(e.GetErrors().size(), ScenarioError::MAX_REPORTED);
    EXPECT_EQ(e.GetNotShown(), 5u);
    EXPECT_EQ(e.GetErrors()[19].path, "workloads[0].flows[19].dst");
}

TEST(ScenarioMessages, EachErrorFromAnOverrideSaysSo)
{
    const ScenarioError e = ErrorOf(Minimal(), {"seed=-1", "nic.mtu_bytes=1000"});
    ASSERT_EQ(e.GetErrors().size(), 2u);
    EXPECT_NE(e.GetErrors()[0].reason.find("(set by --set seed=-1)"), std::string::npos);
    EXPECT_NE(e.GetErrors()[1].reason.find("(set by --set nic.mtu_bytes=1000)"), std::string::npos);
}

TEST(ScenarioMessages, OneBadKeyDoesNotCascade)
{
    // A bad topology leaves the host count unknown: host indices are not judged against it.
    json j = Minimal();
    j["topology"]["leaves"] = 0;
    j["workloads"][0]["flows"][0]["dst"] = 100;
    const ScenarioError e = ErrorOf(j);
    ASSERT_EQ(e.GetErrors().size(), 1u) << e.GetErrors().back().Text();
    EXPECT_EQ(e.GetPath(), "topology.leaves");
}

TEST(ScenarioMessages, HostileDocumentsAreErrorsNotCrashes)
{
    std::string deep(100000, '[');
    deep += std::string(100000, ']');
    json j = Minimal();
    std::string text = j.dump();
    text.insert(1, "\"name\": " + deep + ", ");
    // Refused as it is read, at the 64th level, before 100,000 levels are built.
    const ScenarioError e = ErrorOf(text);
    EXPECT_EQ(e.GetPath().rfind("name[0][0]", 0), 0u) << e.GetPath();
    EXPECT_NE(e.GetReason().find("nested deeper than 64 levels"), std::string::npos)
        << e.GetReason();
    EXPECT_LT(e.GetReason().size(), 200u);

    j["workloads"][0] = {{"type", "broadcast"}, {"bytes", 1}, {"ranks", json::array()}};
    for (int i = 0; i < 200000; ++i)
    {
        j["workloads"][0]["ranks"].push_back(i % 8);
    }
    EXPECT_EQ(ErrorOf(j).GetErrors().size(), ScenarioError::MAX_REPORTED);
}

// ---------------------------------------------------------------------------------------------
// Defaults the schema fills in beyond the basics

TEST(ScenarioDefaults, StructInitialisersAgreeWithTheSchema)
{
    // Programs that build a ScenarioConfig in C++ get the same defaults as a JSON file.
    const json parsed = Scenario::ToJson(ParseJson(Minimal()));
    ScenarioConfig c;
    const json built = Scenario::ToJson(c);
    for (const char* section : {"nic", "switch", "load_balancing", "p2mp", "seed", "stop_time_ms"})
    {
        EXPECT_EQ(built[section], parsed[section]) << section;
    }
    EXPECT_EQ(built["topology"]["host_link"], parsed["topology"]["host_link"]);
    EXPECT_EQ(built["topology"]["fabric_link"], parsed["topology"]["fabric_link"]);
    EXPECT_EQ(built["output"]["pcap"], parsed["output"]["pcap"]);
}

TEST(ScenarioDefaults, CodeBuiltEntriesKeepTheirTypesDefaults)
{
    // WorkloadConfig::iterations is 0 ("the type's default") until code sets it: an MoE entry
    // built in code gets moe-dispatch's 4 layers, not another type's 1.
    ScenarioConfig c = ParseJson(Minimal());
    ns3::WorkloadConfig w;
    w.type = "moe-dispatch";
    w.label = "moe";
    w.ranks = {0, 1, 2, 3};
    c.workloads = {w};
    EXPECT_EQ(Scenario::Check(c).workloads[0].iterations, 4u);
    // A value older code put in spec still counts while the member is left at its auto value.
    c.workloads[0].spec = {{"iterations", 2}};
    EXPECT_EQ(Scenario::Check(c).workloads[0].iterations, 2u);
    c.workloads[0].iterations = 3;
    EXPECT_EQ(Scenario::Check(c).workloads[0].iterations, 3u);
}

TEST(ScenarioDefaults, DcqcnPresetChangesDefaultsButExplicitKeysWin)
{
    // DCQCN's parameters are attributes, not ScenarioConfig members: the resolved JSON is what
    // sets them (TopologyBuilder).
    auto dcqcn = [](const ScenarioConfig& c)
    {
        return Scenario::ToJson(c).at("nic").at("dcqcn");
    };
    json j = Minimal();
    j["nic"] = {{"dcqcn", {{"preset", "nvidia-cx6"}, {"rate_ai_mbps", 7}}}};
    const ScenarioConfig c = ParseJson(j);
    EXPECT_EQ(c.nic.dcqcn.preset, "nvidia-cx6");
    const json cx6 = dcqcn(c);
    EXPECT_EQ(cx6["cnp_interval_us"], 0.0);
    EXPECT_EQ(cx6["byte_counter_bytes"], 32767u);
    EXPECT_EQ(cx6["initial_alpha"], 1023.0 / 1024);
    EXPECT_EQ(cx6["clamp_target_rate"], false);
    EXPECT_EQ(cx6["rate_ai_mbps"], 7.0);
    EXPECT_EQ(cx6["rate_hai_mbps"], 50.0);
    EXPECT_EQ(cx6["rate_step_reference_gbps"], 0.0); // every preset sets every key
    EXPECT_EQ(cx6["g"], 5.0 / 1024);
    EXPECT_EQ(cx6["rate_decrease_interval_us"], 4.0);
    EXPECT_EQ(cx6["alpha_update"], "per-period");

    // The default preset is hpcc-simulator (docs/rdma-dcqcn.md#presets).
    const ScenarioConfig hpcc = ParseJson(Minimal());
    EXPECT_EQ(hpcc.nic.dcqcn.preset, "hpcc-simulator");
    const json hs = dcqcn(hpcc);
    EXPECT_EQ(hs["cnp_interval_us"], 0.0);
    EXPECT_EQ(hs["rate_decrease_interval_us"], 4.0);
    EXPECT_EQ(hs["byte_counter_bytes"], 0u);
    EXPECT_EQ(hs["alpha_update"], "per-period");
    EXPECT_EQ(hs["rate_ai_mbps"], 5.0);
    EXPECT_EQ(hs["rate_step_reference_gbps"], 25.0);
    EXPECT_EQ(hs["min_rate_mbps"], 1000.0);

    j["nic"]["dcqcn"] = {{"preset", "paper"}};
    const json paper = dcqcn(ParseJson(j));
    EXPECT_EQ(paper["cnp_interval_us"], 50.0);
    EXPECT_EQ(paper["rate_decrease_interval_us"], 0.0);
    EXPECT_EQ(paper["byte_counter_bytes"], 10485760u);
    EXPECT_EQ(paper["initial_alpha"], 0.5);
    EXPECT_EQ(paper["rate_step_reference_gbps"], 0.0);

    j["nic"]["dcqcn"]["preset"] = "cx6";
    EXPECT_EQ(ErrorOf(j).GetPath(), "nic.dcqcn.preset");
}

TEST(ScenarioDefaults, AutoWatchdogWaitsForAnAckAtTheCongestionControlsFloor)
{
    // 10 x the longer of the RTO and ack_every MTU frames at the slowest rate a sender can be
    // held to: the runner passes the model's floor (RdmaCongestionControl::GetMinRate).
    ScenarioConfig c;
    EXPECT_DOUBLE_EQ(c.WatchdogUs(1.0), 10000.0); // 1 Gb/s: the RTO is longer
    EXPECT_DOUBLE_EQ(c.WatchdogUs(std::numeric_limits<double>::infinity()), 10000.0);
    EXPECT_DOUBLE_EQ(c.WatchdogUs(0.0), 10000.0) << "a floor of 0 is none: the links' rate";
    EXPECT_NEAR(c.WatchdogUs(0.001), 89760.0, 1e-6); // nvidia-cx6's 1 Mb/s: 1,122 B frames
    c.limits.watchdogUs = 5;
    EXPECT_EQ(c.WatchdogUs(0.001), 5.0) << "a watchdog given is kept";
}

TEST(ScenarioDefaults, CodeBuiltPresetGivesThePresetsValues)
{
    // A config built in code is never validated, so the schema's Write must fill a preset's
    // values itself; with only the declared defaults it would write hpcc-simulator's.
    ScenarioConfig c;
    c.nic.dcqcn.preset = "paper";
    json d = Scenario::ToJson(c).at("nic").at("dcqcn");
    EXPECT_EQ(d["cnp_interval_us"], 50.0);
    EXPECT_EQ(d["alpha_update"], "per-cnp");
    EXPECT_EQ(d["byte_counter_bytes"], 10485760u);
    EXPECT_EQ(d["min_rate_mbps"], 100.0);
    EXPECT_EQ(d["clamp_target_rate"], true);
    // A parameter set in the kept section wins over the preset, as a key given in JSON does.
    c.nic.spec = {{"dcqcn", {{"g", 0.5}}}};
    d = Scenario::ToJson(c).at("nic").at("dcqcn");
    EXPECT_EQ(d["g"], 0.5);
    EXPECT_EQ(d["cnp_interval_us"], 50.0);
    EXPECT_EQ(d["preset"], "paper");
}

TEST(ScenarioDefaults, NewProtocolAggregatesAtTheSourceTor)
{
    json j = Minimal();
    j["p2mp"] = {{"mechanism", "new-protocol"}};
    EXPECT_EQ(ParseJson(j).p2mp.ackAggregation, "source-tor");
    j["p2mp"]["ack_aggregation"] = "none";
    EXPECT_EQ(ParseJson(j).p2mp.ackAggregation, "none");
    j["p2mp"] = {{"mechanism", "bier"}};
    EXPECT_EQ(ParseJson(j).p2mp.ackAggregation, "none");
}

TEST(ScenarioDefaults, BroadcastDefaults)
{
    json j = Minimal();
    j["workloads"][0] = {{"type", "broadcast"}, {"bytes", 4096}};
    const ScenarioConfig c = ParseJson(j);
    const auto& w = c.workloads[0];
    EXPECT_EQ(w.type, "broadcast");
    EXPECT_EQ(w.label, "broadcast-0");
    EXPECT_EQ(w.algorithm, CollectiveAlgorithm::MULTICAST);
    EXPECT_EQ(w.root, 0u);
    EXPECT_EQ(w.ranks, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(w.messages, 1u);
    EXPECT_EQ(w.receiversPerMessage, 0u);
    EXPECT_EQ(w.window, 1u);
    EXPECT_EQ(w.bytes, 4096u);
    ExpectSameConfig(c, ParseJson(Scenario::ToJson(c)));

    j["workloads"][0]["ranks"] = {3, 1, 3};
    const ScenarioError e = ErrorOf(j);
    EXPECT_EQ(e.GetPath(), "workloads[0].ranks[2]");
    EXPECT_NE(e.GetReason().find("listed twice (also workloads[0].ranks[0])"), std::string::npos);
    j["workloads"][0]["ranks"] = {0};
    EXPECT_EQ(ErrorOf(j).GetPath(), "workloads[0].ranks");
    j["workloads"][0]["ranks"] = {0, 9};
    EXPECT_EQ(ErrorOf(j).GetPath(), "workloads[0].ranks[1]");
    j["workloads"][0].erase("ranks");
    // The relayed algorithms fill chunk_bytes; a multicast entry keeps its keys.
    EXPECT_FALSE(w.spec.contains("chunk_bytes"));
    j["workloads"][0]["algorithm"] = "ring";
    EXPECT_EQ(ParseJson(j).workloads[0].spec.at("chunk_bytes"), 0u);
    j["workloads"][0]["algorithm"] = "multicast";
    j["workloads"][0]["op"] = "write";
    EXPECT_NE(ErrorOf(j).GetReason().find(
                  "unknown key 'op' for type 'broadcast': it applies only to type 'flows'"),
              std::string::npos);
}

TEST(ScenarioDefaults, SpecIsTheEntryWithEveryDefault)
{
    json j = Minimal();
    j["workloads"].push_back(
        {{"type", "broadcast"}, {"bytes", 64}, {"ranks", {1, 2}}, {"root", 1}});
    const ScenarioConfig c = ParseJson(j);
    const json out = Scenario::ToJson(c);
    ASSERT_EQ(c.workloads.size(), 2u);
    EXPECT_EQ(c.workloads[0].spec, out["workloads"][0]);
    EXPECT_EQ(c.workloads[1].spec, out["workloads"][1]);
    EXPECT_EQ(c.workloads[0].spec["op"], "write");
    EXPECT_EQ(c.workloads[0].spec["flows"][0]["start_us"], 0.0);
    EXPECT_EQ(c.workloads[1].spec["window"], 1);
    EXPECT_EQ(c.workloads[1].spec["label"], "broadcast-1");
}

// ---------------------------------------------------------------------------------------------
// Workload types registered from outside the library

class ScenarioWorkloadRegistry : public ::testing::Test
{
protected:
    void SetUp() override
    {
        Scenario::RegisterWorkloadType(
            "echo-test",
            [](ns3::ConfigSchemaObject& w)
            {
                w.Integer("target")
                    .Required()
                    .MaxFromVariable("hosts", -1)
                    .Note("a host index; the topology has {hosts} hosts");
                w.Integer("count", 1, 10).Default(3);
                w.Enum("mode", {"fast", "slow"}).Default("fast");
                w.Integer("bytes", 1).Default(100).Bind(&ns3::WorkloadConfig::bytes);
            },
            "a workload only this test knows");
    }

    void TearDown() override
    {
        EXPECT_TRUE(Scenario::UnregisterWorkloadType("echo-test"));
    }
};

TEST_F(ScenarioWorkloadRegistry, EntriesValidateWithTheDeclaredKeys)
{
    json j = Minimal();
    j["workloads"].push_back({{"type", "echo-test"}, {"target", 7}, {"mode", "slow"}});
    const ScenarioConfig c = ParseJson(j);
    ASSERT_EQ(c.workloads.size(), 2u);
    const auto& w = c.workloads[1];
    EXPECT_EQ(w.type, "echo-test");
    EXPECT_EQ(w.label, "echo-test-1");
    EXPECT_EQ(w.bytes, 100u); // a bound key
    EXPECT_EQ(w.spec, json::parse(R"({"type": "echo-test", "label": "echo-test-1", "target": 7,
                              "count": 3, "mode": "slow", "bytes": 100})"));
    // Unbound keys round-trip through spec.
    const json out = Scenario::ToJson(c);
    EXPECT_EQ(out["workloads"][1], w.spec);
    EXPECT_EQ(ParseJson(out).workloads[1].spec, w.spec);

    j["workloads"][1]["target"] = 8;
    EXPECT_EQ(ErrorOf(j).GetPath(), "workloads[1].target");
    j["workloads"][1]["target"] = 1;
    j["workloads"][1]["mode"] = "slw";
    EXPECT_NE(ErrorOf(j).GetReason().find("did you mean 'slow'?"), std::string::npos);
    j["workloads"][1]["mode"] = "slow";
    j["workloads"][1]["pattern"] = "list";
    EXPECT_NE(ErrorOf(j).GetReason().find(
                  "unknown key 'pattern' for type 'echo-test': it applies only to type 'flows'"),
              std::string::npos);
    j["workloads"][1].erase("pattern");
    j["workloads"][1]["colour"] = 1;
    EXPECT_NE(ErrorOf(j).GetReason().find("unknown key 'colour' for type 'echo-test'"),
              std::string::npos);
}

TEST_F(ScenarioWorkloadRegistry, UnregisteredTypeIsUnknown)
{
    json j = Minimal();
    j["workloads"][0] = {{"type", "echo-tset"}, {"target", 1}};
    const ScenarioError e = ErrorOf(j);
    EXPECT_EQ(e.GetPath(), "workloads[0].type");
    EXPECT_NE(e.GetReason().find("(did you mean 'echo-test'?)"), std::string::npos) << e.what();
}

// ---------------------------------------------------------------------------------------------
// The generated reference

TEST(ScenarioReference, HasATableRowPerKey)
{
    const std::string md = Scenario::SchemaMarkdown();
    EXPECT_NE(md.find("| `nic.dcqcn.cnp_interval_us` | number | between 0 and 1000000000 | "
                      "`0.0`; `preset` "
                      "`\"paper\"`: `50.0`; `preset` `\"nvidia-cx6\"`: `0.0` | µs | "
                      "notification point: at most one CNP per QP per interval (0: one per "
                      "CE-marked packet) |"),
              std::string::npos);
    EXPECT_NE(md.find("| `topology.k` |"), std::string::npos);
    EXPECT_NE(md.find("| `workloads[].flows[].dst` |"), std::string::npos);
    EXPECT_NE(md.find("`switch.ecn.kmin_kb`, `switch.ecn.kmax_kb`"), std::string::npos);
    EXPECT_NE(md.find("| `load_balancing.mode` | enum | `\"ecmp\"`, `\"spray-random\"`, "
                      "`\"spray-adaptive\"`, `\"steering\"`, `\"hpcc-ecmp\"` |"),
              std::string::npos);
}

TEST(ScenarioErrorTest, WhatIsFilePathReason)
{
    const ScenarioError e("a.json", "topology.k", "must be even");
    EXPECT_STREQ(e.what(), "a.json: topology.k: must be even");
    EXPECT_EQ(e.GetFile(), "a.json");
    EXPECT_EQ(e.GetPath(), "topology.k");
    EXPECT_EQ(e.GetReason(), "must be even");
    EXPECT_EQ(ScenarioError("a.json", "", "x").GetPath(), "(root)");
    const std::runtime_error& base = e;
    EXPECT_STREQ(base.what(), "a.json: topology.k: must be even");
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Warnings about valid scenarios that likely do not do what was meant

TEST(ScenarioWarnings, TimeoutShorterThanAFrame)
{
    // 1024 + 98 bytes at 0.01 Gb/s: 1122 x 8 / 10^4 = 897.6 us per frame on the host link.
    json j = Minimal();
    j["topology"]["host_link"] = {{"rate_gbps", 0.01}};
    j["nic"]["rto_us"] = 800;
    const std::vector<std::string> w = Scenario::Warnings(ParseJson(j));
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].rfind("nic.rto_us: 800 us is shorter than one 1024-byte frame on "
                         "topology.host_link (897.6 us at 0.01 Gb/s)",
                         0),
              0u)
        << w[0];
    j["nic"]["rto_us"] = 900;
    EXPECT_TRUE(Scenario::Warnings(ParseJson(j)).empty());
    EXPECT_TRUE(Scenario::Warnings(ParseJson(Minimal())).empty());
}
