/*
 * Per-workload network counters (docs/results.md#per-workload-network-counters) against
 * counts derived on paper, on two leaves of 4 hosts and 2 spines, 100 Gb/s, MTU 1024, one ACK
 * per packet, DCQCN off (no CNPs), so every frame's path is known:
 * - a 1 MiB flow between leaves: 1,024 data packets and 1,024 ACKs, each over 4 links; the
 *   data frames carry 58 header bytes (Ethernet 14, IPv4 20, UDP 8, BTH 12, ICRC 4) and the
 *   first a 16-byte RETH; an ACK is 62 bytes (BTH, AETH 4, ICRC, on Ethernet/IPv4/UDP);
 * - a 1 MiB new-protocol broadcast from host 0 to the 7 others, ACKs aggregated at the
 *   source ToR: each packet crosses 10 links (host 0 up, 3 local copies, 1 to a spine, 1 to
 *   the far leaf, 4 copies there); its 7 ACKs cross 1 (local) or 3 (remote) links to the ToR,
 *   and one aggregated ACK goes on to host 0: 3 + 4 x 3 + 1 = 16 ACK hops per packet. The
 *   aggregate advances one PSN per packet, so host 0 sees 1,024 ACKs;
 * - every additive counter of the workloads sums to the scenario's, and a congested
 *   receiver's incast is counted as its straggler's, not the workloads';
 * - a MoE layer's counters split by transport: its dispatch (P2MP channels) and its combine
 *   (queue pairs) sum to the workload's, the aggregated ACKs are all the dispatch's, and the
 *   dispatch's data packets are its P2MP packets.
 */
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

constexpr uint64_t PACKETS = 1024; // 1 MiB at MTU 1024
constexpr uint64_t DATA_HEADER = 58;
constexpr uint64_t RETH = 16;
constexpr uint64_t ACK_BYTES = 62;

std::string
Scenario(const std::string& workloads, const std::string& stragglers)
{
    std::ostringstream s;
    s << R"({"name": "ledger", "stop_time_ms": 50,
      "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
                   "host_link": {"rate_gbps": 100, "delay_us": 1},
                   "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
      "nic": {"mtu_bytes": 1024, "ack_every": 1, "dcqcn": {"enabled": false}},
      "p2mp": {"mechanism": "new-protocol", "ack_aggregation": "source-tor"},
      "workloads": [)"
      << workloads << "]";
    if (!stragglers.empty())
    {
        s << R"(, "stragglers": [)" << stragglers << "]";
    }
    s << "}";
    return s.str();
}

nlohmann::json
RunSummary(const std::string& json)
{
    ScenarioConfig c = Scenario::Parse(json, "ledger.json", {});
    ScenarioRunner::UsePicoseconds();
    ScenarioRunner runner(c);
    runner.Build();
    runner.Run();
    return runner.Summary();
}

const char* FLOW = R"({"type": "flows", "label": "flow", "pattern": "list",
                       "flows": [{"src": 1, "dst": 5, "bytes": 1048576}]})";
const char* BROADCAST = R"({"type": "broadcast", "label": "bcast", "algorithm": "multicast",
                            "root": 0, "bytes": 1048576})";

class FlowAndBroadcastTestCase : public TestCase
{
public:
    FlowAndBroadcastTestCase()
        : TestCase("a flow and a broadcast: each one's hops, bytes and ACKs by its own closed form")
    {
    }

private:
    void DoRun() override
    {
        nlohmann::json s = RunSummary(Scenario(std::string(FLOW) + "," + BROADCAST, ""));
        NS_TEST_ASSERT_MSG_EQ(s["complete"].get<bool>(), true, "both workloads complete");
        const nlohmann::json& flow = s["workloads"][0]["network"];
        const nlohmann::json& bcast = s["workloads"][1]["network"];

        uint64_t flowSent = 1048576 + DATA_HEADER * PACKETS + RETH;
        NS_TEST_EXPECT_MSG_EQ(flow["data_packets"].get<uint64_t>(), PACKETS, "flow packets");
        NS_TEST_EXPECT_MSG_EQ(flow["sender_nic_bytes"].get<uint64_t>(), flowSent, "flow bytes");
        NS_TEST_EXPECT_MSG_EQ(flow["acks_at_senders"].get<uint64_t>(), PACKETS, "flow ACKs");
        NS_TEST_EXPECT_MSG_EQ(flow["packet_hops"].get<uint64_t>(), 4 * 2 * PACKETS, "4 hops");
        NS_TEST_EXPECT_MSG_EQ(flow["link_bytes"].get<uint64_t>(),
                              4 * flowSent + 4 * ACK_BYTES * PACKETS,
                              "flow link bytes: 4 hops of data and of ACKs");
        NS_TEST_EXPECT_MSG_EQ(flow["aggregated_acks"].get<uint64_t>(), 0, "unicast: none");

        NS_TEST_EXPECT_MSG_EQ(bcast["data_packets"].get<uint64_t>(), PACKETS, "one copy out");
        NS_TEST_EXPECT_MSG_EQ(bcast["acks_at_senders"].get<uint64_t>(), PACKETS, "aggregated");
        NS_TEST_EXPECT_MSG_EQ(bcast["aggregated_acks"].get<uint64_t>(), PACKETS, "one per PSN");
        NS_TEST_EXPECT_MSG_EQ(bcast["packet_hops"].get<uint64_t>(),
                              (10 + 16) * PACKETS,
                              "10 data and 16 ACK hops per packet");
        NS_TEST_EXPECT_MSG_EQ(bcast["cnps"].get<uint64_t>(), 0, "DCQCN off");

        // Nothing else ran: the workloads' rows are the scenario's totals.
        const nlohmann::json& net = s["network"];
        for (const char* key : {"link_bytes",
                                "sender_nic_bytes",
                                "header_bytes",
                                "data_packets",
                                "retransmissions",
                                "acks_at_senders",
                                "aggregated_acks",
                                "cnps",
                                "ecn_marks",
                                "drops"})
        {
            NS_TEST_EXPECT_MSG_EQ(flow[key].get<uint64_t>() + bcast[key].get<uint64_t>(),
                                  net[key].get<uint64_t>(),
                                  "workloads' " << key << " sum to the scenario's");
        }
        NS_TEST_EXPECT_MSG_EQ(flow["packet_hops"].get<uint64_t>()
                                  + bcast["packet_hops"].get<uint64_t>(),
                              s["packet_hops"].get<uint64_t>(),
                              "workloads' packet hops sum to the scenario's");

        // ACK frames by link class. The flow's ACK from host 5 climbs host>leaf, leaf>spine,
        // spine>leaf, leaf>host; per broadcast packet, all 7 receivers' ACKs go host>leaf, the 4
        // remote ones on through leaf>spine and spine>leaf to the source ToR, and its one
        // aggregate goes leaf>host.
        const nlohmann::json& acks = net["acks_by_link"];
        NS_TEST_EXPECT_MSG_EQ(acks.size(), 4, "a leaf-spine has four link classes");
        NS_TEST_EXPECT_MSG_EQ(acks["host>leaf"].get<uint64_t>(), (1 + 7) * PACKETS, "host>leaf");
        NS_TEST_EXPECT_MSG_EQ(acks["leaf>spine"].get<uint64_t>(), (1 + 4) * PACKETS, "leaf>spine");
        NS_TEST_EXPECT_MSG_EQ(acks["spine>leaf"].get<uint64_t>(), (1 + 4) * PACKETS, "spine>leaf");
        NS_TEST_EXPECT_MSG_EQ(acks["leaf>host"].get<uint64_t>(), (1 + 1) * PACKETS, "leaf>host");
    }
};

class StragglerTrafficTestCase : public TestCase
{
public:
    StragglerTrafficTestCase()
        : TestCase("a congested receiver's incast is its straggler's, not the workload's")
    {
    }

private:
    void DoRun() override
    {
        // Alone, then beside an incast into the flow's receiver (which slows it, so its ECN
        // marks may change; its packets, bytes and ACKs may not).
        nlohmann::json alone = RunSummary(Scenario(FLOW, ""));
        nlohmann::json mixed
            = RunSummary(Scenario(FLOW,
                                  R"({"type": "congested-receiver", "host": 5, "from": [2, 3],
                         "bytes": 65536, "end_us": 100})"));
        const nlohmann::json& a = alone["workloads"][0]["network"];
        const nlohmann::json& m = mixed["workloads"][0]["network"];
        for (const char* key :
             {"data_packets", "sender_nic_bytes", "acks_at_senders", "packet_hops", "link_bytes"})
        {
            NS_TEST_EXPECT_MSG_EQ(m[key].get<uint64_t>(),
                                  a[key].get<uint64_t>(),
                                  "the flow's " << key << " are its own");
        }
        const nlohmann::json& st = mixed["stragglers"][0]["network"];
        uint64_t delivered = mixed["stragglers"][0]["bytes_delivered"].get<double>();
        NS_TEST_EXPECT_MSG_GT(delivered, 0, "the incast ran");
        // Each 64 KiB WRITE is 64 packets: its data packets are at least what it delivered.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(st["data_packets"].get<uint64_t>(),
                                    delivered / 1024,
                                    "the incast's packets are the straggler's");
        NS_TEST_EXPECT_MSG_EQ(st["data_packets"].get<uint64_t>()
                                  + m["data_packets"].get<uint64_t>(),
                              mixed["network"]["data_packets"].get<uint64_t>(),
                              "flow and incast make all the data packets");
        NS_TEST_EXPECT_MSG_EQ(st["link_bytes"].get<uint64_t>() + m["link_bytes"].get<uint64_t>(),
                              mixed["network"]["link_bytes"].get<uint64_t>(),
                              "and all the link bytes");
    }
};

class ByTransportTestCase : public TestCase
{
public:
    ByTransportTestCase()
        : TestCase("a MoE layer's dispatch (P2MP) and combine (unicast) counted apart")
    {
    }

private:
    void DoRun() override
    {
        const char* moe = R"({"type": "moe-dispatch", "label": "moe", "ranks": "all",
                              "experts": 8, "top_k": 2, "tokens_per_rank": 4, "hidden": 1024,
                              "expert_us": 5, "iterations": 1})";
        nlohmann::json s = RunSummary(Scenario(moe, ""));
        const nlohmann::json& n = s["workloads"][0]["network"];
        const nlohmann::json& p = n["by_transport"]["p2mp"];
        const nlohmann::json& u = n["by_transport"]["unicast"];
        for (const char* key : {"link_bytes",
                                "packet_hops",
                                "data_packets",
                                "header_bytes",
                                "acks_at_senders",
                                "aggregated_acks"})
        {
            NS_TEST_ASSERT_MSG_EQ(p[key].get<uint64_t>() + u[key].get<uint64_t>(),
                                  n[key].get<uint64_t>(),
                                  key << ": the two transports sum to the workload");
        }
        NS_TEST_ASSERT_MSG_GT(p["data_packets"].get<uint64_t>(), 0, "dispatch sent data");
        NS_TEST_ASSERT_MSG_GT(u["data_packets"].get<uint64_t>(), 0, "combine sent data");
        NS_TEST_ASSERT_MSG_GT(p["aggregated_acks"].get<uint64_t>(), 0, "dispatch aggregated");
        NS_TEST_ASSERT_MSG_EQ(u["aggregated_acks"].get<uint64_t>(), 0, "combine never is");
        // The new protocol's shim is on every dispatch frame and on no combine frame: the
        // dispatch's header bytes per packet exceed the combine's by at least its 12 bytes.
        const double pHeader = p["header_bytes"].get<double>() / p["data_packets"].get<double>();
        const double uHeader = u["header_bytes"].get<double>() / u["data_packets"].get<double>();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(pHeader, uHeader + 12 - 1e-9, "the shim is the dispatch's");
    }
};

class TrafficLedgerTestSuite : public TestSuite
{
public:
    TrafficLedgerTestSuite()
        : TestSuite("mcast4ai-traffic-ledger", TestSuite::Type::UNIT)
    {
        AddTestCase(new FlowAndBroadcastTestCase());
        AddTestCase(new StragglerTrafficTestCase());
        AddTestCase(new ByTransportTestCase());
    }
};

static TrafficLedgerTestSuite g_trafficLedgerTestSuite;

} // namespace
