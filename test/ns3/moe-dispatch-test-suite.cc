/*
 * moe-dispatch (docs/workloads.md#moe-dispatch) against counts derived on paper:
 * - with one expert per rank, dispatch delivers (tokens x top_k - experts on the home rank)
 *   x hidden x bytes per element, counted by the receivers' queue pairs and responders, and
 *   the combine returns as many outputs; each token's expert lands on its home rank with
 *   probability k / E;
 * - on its sender's uplink a dispatch message is one copy per receiver under unicast, one per
 *   BIER set identifier its receivers span, one with the XPU-ID list and the new protocol;
 * - at 256 ranks with 8-of-256 sets the XPU-ID list's header (16 + 4 floor(N/2) bytes) is
 *   12 bytes shorter than BIER's BSL-256 header (44) per copy, 16 when a token's home holds
 *   one of its experts (N = 7), and the new protocol's installs and evictions are reported;
 * - per-destination-set batching sends M (1 - (1 - 1/M)^T) messages per rank, M = C(E, k);
 * - the combine's two directions between two ranks share one RC connection (a queue pair at
 *   each end), so a host holds one queue pair per peer.
 */
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "test-fabric.h"
#include "workload/model/moe-dispatch-workload.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;
using namespace ns3::test;

namespace
{

struct Outcome
{
    bool complete{false};
    nlohmann::json workload; ///< summary.json's workloads[0]
    nlohmann::json summary;
};

constexpr double RATE_GBPS = 100;
constexpr uint32_t MTU = 1024;
constexpr double CABLE_S = 1e-6;
constexpr double SWITCH_S = 500e-9;

/// hosts = leaves x hostsPerLeaf at 100 Gb/s, MTU 1024, 500 ns switches; `moe` holds the
/// workload's own keys.
Outcome
RunMoe(uint32_t leaves,
       uint32_t hostsPerLeaf,
       const std::string& mechanism,
       const std::string& moe,
       const std::string& p2mpExtra = "")
{
    std::ostringstream s;
    s << R"({"name": "moe", "stop_time_ms": 50,
      "topology": {"kind": "leaf-spine", "leaves": )"
      << leaves << R"(, "spines": 4, "hosts_per_leaf": )" << hostsPerLeaf << R"(,
                   "host_link": {"rate_gbps": 100, "delay_us": 1},
                   "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
      "nic": {"mtu_bytes": 1024, "ack_every": 1},
      "switch": {"latency_ns": 500},
      "p2mp": {"mechanism": ")"
      << mechanism << "\"" << p2mpExtra << R"(},
      "workloads": [{"type": "moe-dispatch", )"
      << moe << "}]}";
    ScenarioOutcome run = RunScenarioJson(s.str(), "moe.json");
    Outcome o;
    o.complete = run.complete;
    o.summary = run.summary;
    o.workload = o.summary["workloads"][0];
    return o;
}

double
Fig(const Outcome& o, const char* key)
{
    return o.workload.at(key).get<double>();
}

class LayerTimeTestCase : public TestCase
{
public:
    LayerTimeTestCase()
        : TestCase("two ranks, two experts, top-2: dispatch, expert compute and combine add up "
                   "to the layer, each a message exchange in closed form")
    {
    }

private:
    void DoRun() override
    {
        // Every token needs the other rank's expert: each rank sends T x hidden bytes to the
        // other and gets T x 2 hidden back, both directions at once. A rank's uplink carries
        // its data frames and, ahead of each next one, the ACKs of the peer's frames that have
        // arrived (the peer's timeline is the rank's own): frame j ends at f(j), the peer's
        // frame i arrives, and its ACK is ready, at f(i) + H with H one leaf hop. The exchange
        // ends when the last frame arrives: f(n-1) + H.
        const uint64_t dispatch = 64 * 1024;
        const uint64_t combine = 2 * dispatch;
        auto exchangeUs = [](uint64_t bytes)
        {
            const double h = LeafHopSeconds(MTU, RATE_GBPS, CABLE_S, SWITCH_S);
            const double ack = WireSeconds(ACK_FRAME_BYTES, RATE_GBPS);
            const uint64_t n = PacketsOf(bytes, MTU);
            std::vector<double> f;
            double t = 0;
            for (uint64_t i = 0; f.size() < n;)
            {
                if (i < f.size() && f[i] + h <= t)
                {
                    t += ack;
                    ++i;
                    continue;
                }
                t += WireSeconds(MTU + ROCE_HEADER_BYTES + (f.empty() ? RETH_BYTES : 0), RATE_GBPS);
                f.push_back(t);
            }
            return 1e6 * (f.back() + h);
        };
        Outcome o = RunMoe(1,
                           8,
                           "unicast",
                           R"("ranks": [0, 1], "experts": 2, "top_k": 2, "tokens_per_rank": 64,
                              "hidden": 1024, "expert_us": 5, "iterations": 3)");
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "every layer completes");
        NS_TEST_EXPECT_MSG_EQ(Fig(o, "dispatch_messages_per_layer"), 2.0, "one message a rank");
        double d = o.workload["dispatch_us"]["max"].get<double>();
        double c = o.workload["combine_us"]["max"].get<double>();
        double layer = o.workload["layer_us"]["max"].get<double>();
        NS_TEST_EXPECT_MSG_EQ_TOL(d, exchangeUs(dispatch), 0.005 * d, "dispatch_us");
        NS_TEST_EXPECT_MSG_EQ_TOL(c, exchangeUs(combine), 0.005 * c, "combine_us");
        NS_TEST_EXPECT_MSG_EQ_TOL(layer, d + 5 + c, 1e-3, "layer = dispatch + expert + combine");
        NS_TEST_EXPECT_MSG_EQ_TOL(o.workload["duration_us"]["p50"].get<double>(),
                                  layer,
                                  1e-3,
                                  "the layer is the operation");
    }
};

class DeliveredBytesTestCase : public TestCase
{
public:
    DeliveredBytesTestCase()
        : TestCase("one expert per rank: dispatch delivers tokens x top_k x hidden x bytes less "
                   "the home rank's experts, under every mechanism")
    {
    }

private:
    void DoRun() override
    {
        // 16 ranks, 16 experts, top-4, 32 tokens per rank, 2 layers: 1,024 tokens.
        const double tokens = 16 * 32 * 2;
        const double k = 4;
        const std::string moe = R"("experts": 16, "top_k": 4, "tokens_per_rank": 32,
            "hidden": 256, "dispatch_bytes_per_element": 1, "combine_bytes_per_element": 2,
            "batching": "per-token", "iterations": 2)";
        for (const char* mechanism : {"unicast", "bier", "bier-xpu-list", "new-protocol"})
        {
            Outcome o = RunMoe(2, 8, mechanism, moe);
            NS_TEST_ASSERT_MSG_EQ(o.complete, true, mechanism << ": both layers complete");
            NS_TEST_EXPECT_MSG_EQ(o.workload["completed"].get<uint64_t>(), 2u, "two layers");
            double local = 2 * Fig(o, "local_expert_hits_per_layer");
            // Each token's k experts of 16 include its home's with probability k / 16.
            double mean = tokens * k / 16;
            double sd = std::sqrt(tokens * (k / 16) * (1 - k / 16));
            NS_TEST_EXPECT_MSG_EQ_TOL(local, mean, 5 * sd, mechanism << ": home-rank experts");
            double copies = tokens * k - local;
            NS_TEST_EXPECT_MSG_EQ(Fig(o, "dispatch_bytes_delivered"),
                                  copies * 256,
                                  mechanism << ": dispatch bytes the receivers counted");
            NS_TEST_EXPECT_MSG_EQ(Fig(o, "combine_bytes_delivered"),
                                  copies * 512,
                                  mechanism << ": combine bytes the homes counted");
            // One expert per rank and k >= 2: no token stays home, one message per token.
            NS_TEST_EXPECT_MSG_EQ(Fig(o, "dispatch_messages_per_layer"), tokens / 2, "messages");
            double expectedCopies = std::string(mechanism) == "unicast" ? copies / tokens : 1.0;
            NS_TEST_EXPECT_MSG_EQ_TOL(Fig(o, "uplink_copies_per_message"),
                                      expectedCopies,
                                      1e-9,
                                      mechanism << ": copies on the sender's uplink");
        }
    }
};

class OneConnectionPerPairTestCase : public TestCase
{
public:
    OneConnectionPerPairTestCase()
        : TestCase("one RC connection per pair of ranks: the combine's all-to-all holds a queue "
                   "pair per peer, not one per peer and direction")
    {
    }

private:
    void DoRun() override
    {
        // 16 ranks, one expert each, top-4 of 32 tokens: every rank dispatches to and combines
        // with every other, so the combine uses all 240 ordered pairs. Both directions of a
        // pair share a connection: 15 queue pairs per host, and the BIER channel's one. A
        // connection per direction (the wrong model) would hold 30 + 1.
        const std::string moe = R"("experts": 16, "top_k": 4, "tokens_per_rank": 32,
            "hidden": 256, "dispatch_bytes_per_element": 1, "combine_bytes_per_element": 2,
            "batching": "per-token", "iterations": 2)";
        Outcome o = RunMoe(2, 8, "bier", moe);
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "both layers complete");
        const nlohmann::json& qps = o.summary["network"]["qps_per_host"];
        NS_TEST_EXPECT_MSG_EQ(qps["max"].get<uint64_t>(), 16u, "15 peers and the P2MP channel");
        NS_TEST_EXPECT_MSG_EQ(qps["mean"].get<double>(), 16.0, "on every host");
        // Sharing a connection loses nothing: every combine byte arrives.
        NS_TEST_EXPECT_MSG_EQ(Fig(o, "combine_bytes_delivered"),
                              2 * Fig(o, "dispatch_bytes_delivered"),
                              "combine returns twice the dispatch's bytes (BF16 outputs)");
    }
};

class BierSetIdentifiersTestCase : public TestCase
{
public:
    BierSetIdentifiersTestCase()
        : TestCase("bier: a message leaves its sender once per set identifier its receivers span")
    {
    }

private:
    void DoRun() override
    {
        // Ranks 0-7 in SI 0 and 64-71 in SI 1 (BSL 64). A token of a rank in SI 0 picks 4 of
        // the 16 experts (one per rank); its receivers miss SI 1 with probability
        // C(8,4)/C(16,4) and miss the other 7 of SI 0 with C(9,4)/C(16,4) (never both).
        const double c = 1820;
        const double expected = 2 - 70 / c - 126 / c;
        Outcome o = RunMoe(16,
                           8,
                           "bier",
                           R"("ranks": [0, 1, 2, 3, 4, 5, 6, 7, 64, 65, 66, 67, 68, 69, 70, 71],
                              "experts": 16, "top_k": 4, "tokens_per_rank": 64, "hidden": 64,
                              "batching": "per-token", "iterations": 1)",
                           R"(, "bier": {"bsl_bits": 64})");
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "the layer completes");
        // 1,024 messages, each 1 or 2 copies: the mean's standard deviation is below 0.015.
        NS_TEST_EXPECT_MSG_EQ_TOL(Fig(o, "uplink_copies_per_message"),
                                  expected,
                                  0.05,
                                  "copies per message: the set identifiers spanned");
    }
};

class HeaderAndStateTestCase : public TestCase
{
public:
    HeaderAndStateTestCase()
        : TestCase("256 ranks, 8-of-256 sets: XPU-ID list header below BIER's BSL-256, new "
                   "protocol's installs and evictions reported")
    {
    }

private:
    void DoRun() override
    {
        // One packet per message (8 tokens' worth of 64 bytes): every copy carries the header.
        const std::string moe = R"("experts": 256, "top_k": 8, "tokens_per_rank": 4,
            "hidden": 64, "batching": "per-token", "iterations": 1)";
        Outcome bier = RunMoe(16, 16, "bier", moe);
        Outcome xpu = RunMoe(16, 16, "bier-xpu-list", moe);
        NS_TEST_ASSERT_MSG_EQ(bier.complete && xpu.complete, true, "both complete");
        // Same seed, same routing: the messages and their receivers agree.
        double messages = Fig(xpu, "dispatch_messages_per_layer");
        double local = Fig(xpu, "local_expert_hits_per_layer");
        NS_TEST_EXPECT_MSG_EQ(messages, 256.0 * 4, "a message per token");
        NS_TEST_EXPECT_MSG_EQ(Fig(bier, "local_expert_hits_per_layer"), local, "same routing");
        // 44 - (16 + 4 floor(N/2)): 12 with N = 8, 16 with N = 7 (home holds an expert).
        double saved = Fig(bier, "dispatch_header_bytes_per_copy")
                       - Fig(xpu, "dispatch_header_bytes_per_copy");
        NS_TEST_EXPECT_MSG_EQ_TOL(saved, 12 + 4 * local / messages, 1e-9, "bytes saved per copy");
        NS_TEST_EXPECT_MSG_EQ(Fig(bier, "uplink_copies_per_message"), 1.0, "BSL 256: one SI");

        // The new protocol requests a group per message; sets rarely repeat. A table of 256
        // entries per switch fills in layer 0 (the requests that find it full, with every
        // group busy, fall back to unicast) and layer 1 evicts layer 0's idle groups.
        std::string twoLayers = moe;
        twoLayers.replace(twoLayers.find("\"iterations\": 1"), 15, "\"iterations\": 2");
        Outcome np = RunMoe(
            16, 16, "new-protocol", twoLayers, R"(, "new_protocol": {"table_entries": 256})");
        NS_TEST_ASSERT_MSG_EQ(np.complete, true, "new-protocol completes");
        const nlohmann::json& net = np.summary["network"];
        double installs = net["group_installs"].get<double>();
        double fallbacks = net["group_fallbacks"].get<double>();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(installs + fallbacks,
                                    0.99 * 2 * messages,
                                    "a request per message, answered by an install or a fallback");
        NS_TEST_EXPECT_MSG_GT(installs, 0.0, "installs reported");
        NS_TEST_EXPECT_MSG_GT(net["group_evictions"].get<double>(), 0.0, "evictions reported");
        NS_TEST_EXPECT_MSG_EQ(Fig(np, "dispatch_messages_via_unicast"),
                              fallbacks,
                              "the workload counts the fallbacks its channels took");
        NS_TEST_EXPECT_MSG_LT(Fig(np, "dispatch_header_bytes_per_copy"),
                              Fig(xpu, "dispatch_header_bytes_per_copy"),
                              "the shim's 12 bytes are below the XPU-ID list's");
    }
};

class DestinationSetsTestCase : public TestCase
{
public:
    DestinationSetsTestCase()
        : TestCase("per-destination-set batching: messages per layer follow the occupancy of "
                   "M = C(E, k) sets")
    {
    }

private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ_TOL(MoeDispatchWorkload::ExpectedDistinctSets(120, 128),
                                  120 * (1 - std::pow(119.0 / 120, 128)),
                                  1e-9,
                                  "occupancy closed form");
        // 16 ranks, 2 of 16 experts: M = 120 sets, T = 128 tokens, 78.9 messages per rank.
        const std::string moe = R"("experts": 16, "top_k": 2, "tokens_per_rank": 128,
            "hidden": 16, "batching": "per-destination-set", "iterations": 4)";
        Outcome o = RunMoe(2, 8, "bier-xpu-list", moe);
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "every layer completes");
        double expected = 16 * MoeDispatchWorkload::ExpectedDistinctSets(120, 128);
        NS_TEST_EXPECT_MSG_EQ_TOL(
            Fig(o, "expected_dispatch_messages_per_layer"), expected, 1e-9, "reported prediction");
        NS_TEST_EXPECT_MSG_EQ_TOL(
            Fig(o, "dispatch_messages_per_layer"), expected, 0.03 * expected, "messages per layer");
        NS_TEST_EXPECT_MSG_EQ_TOL(Fig(o, "tokens_per_message"),
                                  16 * 128 / expected,
                                  0.03 * 16 * 128 / expected,
                                  "tokens packed per message");
        // Every token still arrives once per remote expert rank: k = 2, one expert per rank.
        double local = 4 * Fig(o, "local_expert_hits_per_layer");
        NS_TEST_EXPECT_MSG_EQ(Fig(o, "dispatch_bytes_delivered"),
                              (4 * 16 * 128 * 2 - local) * 16,
                              "batched bytes delivered");
        // One combine WRITE per (expert rank, home) pair that exchanged a token: nearly all.
        NS_TEST_EXPECT_MSG_LT_OR_EQ(Fig(o, "combine_messages_per_layer"), 16.0 * 15, "pairs");
    }
};

class MoeDispatchTestSuite : public TestSuite
{
public:
    MoeDispatchTestSuite()
        : TestSuite("mcast4ai-moe-dispatch", TestSuite::Type::UNIT)
    {
        AddTestCase(new LayerTimeTestCase());
        AddTestCase(new DeliveredBytesTestCase());
        AddTestCase(new OneConnectionPerPairTestCase());
        AddTestCase(new BierSetIdentifiersTestCase());
        AddTestCase(new HeaderAndStateTestCase());
        AddTestCase(new DestinationSetsTestCase());
    }
};

static MoeDispatchTestSuite g_moeDispatchTestSuite;

} // namespace
