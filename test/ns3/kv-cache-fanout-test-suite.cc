/*
 * kv-cache-fanout (docs/workloads.md#kv-cache-fanout) against closed forms, at 100 Gb/s,
 * 1 µs cables, 500 ns switches, MTU 1024:
 * - KV bytes per token = layers x 2 x kv_heads x head_dim x bytes per element (Llama 3 8B:
 *   32 x 2 x 8 x 128 x 2 = 131,072);
 * - on an idle fabric TTFT = prefill + KV transfer + one decode step, the transfer a WRITE's
 *   data frames on the prefill rank's uplink plus one leaf hop (plus the XPU-ID list's 16
 *   bytes per frame with bier-xpu-list), and TPOT = decode_step_us;
 * - a decode rank steps its requests together: with two in its batch a step takes
 *   decode_step_us + decode_us_per_sequence;
 * - with an incast toward one decode rank, network-aware placement keeps requests off it
 *   (ops.csv's dst) and lowers p99 TTFT against gpu-only; ops.csv's network columns show
 *   why: gpu-only's slowest request waited on that rank's downlink, long enough to explain
 *   its delay;
 * - a decode host whose NIC fails is dropped by the receiver timeout: every request still
 *   ends, one whose decoding replica it was decodes at the other replica, placement leaves it
 *   out afterwards, and the fail policy fails exactly the requests that lost a copy.
 */
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "test-fabric.h"
#include "workload/model/kv-cache-fanout-workload.h"

#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;
using namespace ns3::test;

namespace
{

constexpr double RATE_GBPS = 100;
constexpr uint32_t MTU = 1024;
constexpr double CABLE_S = 1e-6;
constexpr double SWITCH_S = 500e-9;

struct Outcome
{
    bool complete{false};
    nlohmann::json workload;
    std::vector<Metrics::OpRecord> ops;
    std::vector<OpLedger::Row> net;      ///< ops[i]'s network columns
    std::vector<std::string> queueMaxAt; ///< ... and where its longest wait was
};

Outcome
RunKv(uint32_t leaves,
      const std::string& mechanism,
      const std::string& workloads,
      const std::string& dcqcn = "{}")
{
    std::ostringstream s;
    s << R"({"name": "kv", "stop_time_ms": 200,
      "topology": {"kind": "leaf-spine", "leaves": )"
      << leaves << R"(, "spines": 2, "hosts_per_leaf": 8,
                   "host_link": {"rate_gbps": 100, "delay_us": 1},
                   "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
      "nic": {"mtu_bytes": 1024, "ack_every": 1, "dcqcn": )"
      << dcqcn << R"(},
      "switch": {"latency_ns": 500},
      "p2mp": {"mechanism": ")"
      << mechanism << R"("},
      "workloads": [)"
      << workloads << "]}";
    ScenarioOutcome run = RunScenarioJson(s.str(), "kv.json");
    Outcome o;
    o.complete = run.complete;
    o.workload = run.summary["workloads"][0];
    for (uint32_t i = 0; i < run.ops.size(); ++i)
    {
        if (run.ops[i].workload == 0)
        {
            o.ops.push_back(run.ops[i]);
            o.net.push_back(run.net[i]);
            o.queueMaxAt.push_back(run.queueMaxAt[i]);
        }
    }
    return o;
}

/// A small model: 2 layers x 2 x 2 KV heads x 64 x 2 bytes = 1,024 bytes per token.
const char* const SMALL_MODEL
    = R"("layers": 2, "kv_heads": 2, "head_dim": 64, "bytes_per_element": 2)";

class KvBytesTestCase : public TestCase
{
public:
    KvBytesTestCase()
        : TestCase("KV bytes per token: layers x 2 x kv_heads x head_dim x bytes per element")
    {
    }

private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(
            KvCacheFanoutWorkload::KvBytesPerToken(32, 8, 128, 2), 131072u, "Llama 3 8B");
        NS_TEST_EXPECT_MSG_EQ(
            KvCacheFanoutWorkload::KvBytesPerToken(80, 8, 128, 2), 327680u, "Llama 3 70B");
        Outcome o = RunKv(1,
                          "unicast",
                          R"({"type": "kv-cache-fanout", "requests": 1, "model": "llama-3-70b",
                              "prompt_tokens": {"tokens": 4}, "prefill_us_per_token": 1,
                              "decode_step_us": 10, "output_tokens": 2})");
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "the request completes");
        NS_TEST_EXPECT_MSG_EQ(
            o.workload["kv_bytes_per_token"].get<double>(), 327680.0, "the 70B preset");
        NS_TEST_EXPECT_MSG_EQ(o.ops.at(0).bytes, 4u * 327680, "a request's bytes: its KV");
    }
};

class IdleTtftTestCase : public TestCase
{
public:
    IdleTtftTestCase()
        : TestCase("idle fabric: TTFT = prefill + KV transfer + first decode step within 1%, "
                   "TPOT = decode_step_us")
    {
    }

private:
    void DoRun() override
    {
        // 64 tokens of 1 KiB: 64 KiB, 64 frames; requests 1 ms apart never meet.
        const uint64_t kv = 64 * 1024;
        const double prefillUs = 64 * 2.0;
        const double stepUs = 50;
        for (const char* mechanism : {"unicast", "bier-xpu-list"})
        {
            Outcome o = RunKv(1,
                              mechanism,
                              std::string(R"({"type": "kv-cache-fanout", "requests": 5,
                                  "prefill_ranks": [0], "decode_ranks": [3, 4, 5],
                                  "arrival": {"type": "list", "times_us": [0, 1000, 2000, 3000,
                                  4000]}, "prompt_tokens": {"tokens": 64},
                                  "prefill_us_per_token": 2, "decode_step_us": 50,
                                  "output_tokens": 4, )")
                                  + SMALL_MODEL + "}");
            NS_TEST_ASSERT_MSG_EQ(o.complete, true, mechanism << ": every request completes");
            // One 16-byte XPU-ID list (one receiver) in front of each P2MP frame.
            const uint32_t extra = std::string(mechanism) == "unicast" ? 0 : 16;
            const double transferUs
                = 1e6
                  * ((kv + PacketsOf(kv, MTU) * (ROCE_HEADER_BYTES + FRAMING_BYTES + extra)
                      + RETH_BYTES)
                         * 8 / (RATE_GBPS * 1e9)
                     + LeafHopSeconds(MTU + extra, RATE_GBPS, CABLE_S, SWITCH_S));
            const double expected = prefillUs + transferUs + stepUs;
            const nlohmann::json& ttft = o.workload["ttft_us"];
            NS_TEST_EXPECT_MSG_EQ_TOL(ttft["max"].get<double>(),
                                      expected,
                                      0.01 * expected,
                                      mechanism << ": TTFT closed form");
            NS_TEST_EXPECT_MSG_EQ_TOL(ttft["p50"].get<double>(),
                                      ttft["max"].get<double>(),
                                      1e-3,
                                      mechanism << ": every request alike");
            NS_TEST_EXPECT_MSG_EQ_TOL(
                o.workload["tpot_us"]["max"].get<double>(), stepUs, 1e-6, mechanism << ": TPOT");
            NS_TEST_EXPECT_MSG_EQ_TOL(o.workload["queue_us"]["max"].get<double>(),
                                      0.0,
                                      1e-6,
                                      mechanism << ": no queueing");
            // gpu-only with every rank idle: the lowest index.
            NS_TEST_EXPECT_MSG_EQ(o.ops.at(0).dst, 3, "placed on the first decode rank");
        }
    }
};

class BatchTestCase : public TestCase
{
public:
    BatchTestCase()
        : TestCase("two requests in one decode rank's batch: a step takes decode_step_us + "
                   "decode_us_per_sequence")
    {
    }

private:
    void DoRun() override
    {
        // Two prefill ranks finish at once; one decode rank takes both: the second's KV
        // arrives during the first's first step and joins at the next step boundary.
        Outcome o = RunKv(1,
                          "unicast",
                          std::string(R"({"type": "kv-cache-fanout", "requests": 2,
                              "prefill_ranks": [0, 1], "decode_ranks": [2],
                              "arrival": {"type": "list", "times_us": [0, 0]},
                              "prompt_tokens": {"tokens": 16}, "prefill_us_per_token": 1,
                              "decode_step_us": 100, "decode_us_per_sequence": 30,
                              "output_tokens": 8, )")
                              + SMALL_MODEL + "}");
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "both complete");
        // While both decode, steps take 130 µs; the first request's last step runs alone
        // only if it finished first. TPOT lies between the two step times.
        double tpot = o.workload["tpot_us"]["max"].get<double>();
        NS_TEST_EXPECT_MSG_GT(tpot, 100.0, "a shared step is longer");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(tpot, 130.0 + 1e-6, "at most the two-sequence step");
        NS_TEST_EXPECT_MSG_EQ_TOL(o.workload["tpot_us"]["p50"].get<double>(),
                                  130.0 * 6 / 7 + 100.0 / 7,
                                  1e-3,
                                  "first request: 6 shared steps and its last alone");
    }
};

class CongestedPathTestCase : public TestCase
{
public:
    CongestedPathTestCase()
        : TestCase("an incast toward one decode rank: network-aware keeps off it and lowers "
                   "p99 TTFT against gpu-only; the join shows the queue it avoided")
    {
    }

private:
    void DoRun() override
    {
        // Six hosts send 8 MB each to host 8, the first decode rank, from t = 0: its ToR
        // downlink stays backed up for about 6 x 8 MB / 12.5 GB/s = 3.8 ms. Forty requests
        // of 256 KiB arrive over the first 4 ms. DCQCN runs the `paper` preset, whose senders
        // back off slowly enough for that queue to last: the default `hpcc-simulator` preset
        // keeps it short, and without DCQCN PFC spreads it to every path, neither of them the one
        // congested path this test is about.
        auto run = [](const char* placement)
        {
            std::ostringstream w;
            w << R"({"type": "kv-cache-fanout", "requests": 40, "placement": ")" << placement
              << R"(", "prefill_ranks": [0, 1, 2, 3], "decode_ranks": [8, 9, 10, 11],
                    "arrival": {"type": "poisson", "rate_per_s": 10000},
                    "prompt_tokens": {"tokens": 256}, "prefill_us_per_token": 0.5,
                    "decode_step_us": 20, "output_tokens": 4, )"
              << SMALL_MODEL << R"(},
                  {"type": "flows", "pattern": "list", "flows": [
                   {"src": 4, "dst": 8, "bytes": 8000000}, {"src": 5, "dst": 8, "bytes": 8000000},
                   {"src": 6, "dst": 8, "bytes": 8000000}, {"src": 7, "dst": 8, "bytes": 8000000},
                   {"src": 12, "dst": 8, "bytes": 8000000},
                   {"src": 13, "dst": 8, "bytes": 8000000}]})";
            return RunKv(2, "unicast", w.str(), R"({"preset": "paper"})");
        };
        Outcome gpu = run("gpu-only");
        Outcome aware = run("network-aware");
        NS_TEST_ASSERT_MSG_EQ(gpu.complete && aware.complete, true, "both complete");
        auto onCongested = [](const Outcome& o)
        {
            uint32_t n = 0;
            for (const Metrics::OpRecord& r : o.ops)
            {
                n += r.dst == 8 ? 1 : 0;
            }
            return n;
        };
        uint32_t gpuHits = onCongested(gpu);
        uint32_t awareHits = onCongested(aware);
        NS_TEST_EXPECT_MSG_GT(gpuHits, 0u, "gpu-only places requests on the congested rank");
        NS_TEST_EXPECT_MSG_LT(awareHits, gpuHits, "network-aware places fewer there");
        double p99Gpu = gpu.workload["ttft_us"]["p99"].get<double>();
        double p99Aware = aware.workload["ttft_us"]["p99"].get<double>();
        NS_TEST_EXPECT_MSG_LT(p99Aware, p99Gpu, "network-aware lowers p99 TTFT");
        NS_TEST_EXPECT_MSG_LT(aware.workload["kv_transfer_us"]["p99"].get<double>(),
                              gpu.workload["kv_transfer_us"]["p99"].get<double>(),
                              "because its transfers avoid the queue");
        // The ops.csv join: the slowest gpu-only request is one on host 8, its longest wait
        // was on the congested downlink, and its packets' queueing accounts for at least half
        // of what it took beyond the fastest request. No network-aware request met a wait
        // there a tenth as long.
        uint32_t worst = 0;
        Time fastest = Time::Max();
        for (uint32_t i = 0; i < gpu.ops.size(); ++i)
        {
            Time d = gpu.ops[i].end - gpu.ops[i].start;
            fastest = std::min(fastest, d);
            if (d > gpu.ops[worst].end - gpu.ops[worst].start)
            {
                worst = i;
            }
        }
        const OpLedger::Row& w = gpu.net[worst];
        NS_TEST_EXPECT_MSG_EQ(gpu.ops[worst].dst, 8, "the slowest went to the congested rank");
        NS_TEST_EXPECT_MSG_EQ(gpu.queueMaxAt[worst], "leaf1>host8", "and waited on its downlink");
        double excessNs = (gpu.ops[worst].end - gpu.ops[worst].start - fastest).GetNanoSeconds();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(
            w.QueueNs() / w.packets, 0.5 * excessNs, "queueing explains its delay");
        for (uint32_t i = 0; i < aware.ops.size(); ++i)
        {
            if (aware.queueMaxAt[i] == "leaf1>host8")
            {
                NS_TEST_EXPECT_MSG_LT(
                    aware.net[i].maxQueueNs * 10, w.maxQueueNs, "network-aware kept off the queue");
            }
        }
    }
};

class DroppedReplicaTestCase : public TestCase
{
public:
    DroppedReplicaTestCase()
        : TestCase("a decode host dropped by the receiver timeout: its requests decode elsewhere")
    {
    }

private:
    void DoRun() override
    {
        // 8 prefill and 8 decode ranks; each request's 2 MiB KV cache (16 tokens of Llama 3
        // 8B) goes to 2 replicas; gpu-only placement makes host 8, the lowest decode rank,
        // the decoding replica of many. Its NIC fails at 500 µs for good; the aggregation
        // point drops it 200 µs of silence later, at the latest one RTO (100 µs) and a round
        // trip after that: by 840 µs.
        constexpr double FAIL_US = 500, TIMEOUT_US = 200, RTO_US = 100, RTT_US = 40;
        constexpr uint32_t REQUESTS = 32, DEAD = 8;
        nlohmann::json times = nlohmann::json::array();
        for (uint32_t r = 0; r < REQUESTS; ++r)
        {
            times.push_back(50 * r);
        }
        nlohmann::json j
            = {{"name", "kv-dropped"},
               {"stop_time_ms", 50},
               {"topology",
                {{"kind", "leaf-spine"},
                 {"leaves", 2},
                 {"spines", 2},
                 {"hosts_per_leaf", 8},
                 {"host_link", {{"rate_gbps", 100}, {"delay_us", 1}}},
                 {"fabric_link", {{"rate_gbps", 100}, {"delay_us", 1}}}}},
               {"nic", {{"mtu_bytes", MTU}, {"rto_us", RTO_US}}},
               {"p2mp",
                {{"mechanism", "bier-xpu-list"},
                 {"ack_aggregation", "source-tor"},
                 {"receiver_timeout_us", TIMEOUT_US}}},
               {"faults", {{{"type", "nic-down"}, {"host", DEAD}, {"at_us", FAIL_US}}}},
               {"workloads",
                {{{"type", "kv-cache-fanout"},
                  {"prefill_ranks", {0, 1, 2, 3, 4, 5, 6, 7}},
                  {"decode_ranks", {8, 9, 10, 11, 12, 13, 14, 15}},
                  {"requests", REQUESTS},
                  {"arrival", {{"type", "list"}, {"times_us", times}}},
                  {"prompt_tokens", {{"type", "fixed"}, {"tokens", 16}}},
                  {"replicas", 2},
                  {"prefill_us_per_token", 5},
                  {"decode_step_us", 100},
                  {"output_tokens", 4}}}},
               {"output", {{"dir", "/tmp/mcast4ai-test-kv-dropped"}}}};
        for (const std::string policy : {"drop", "fail"})
        {
            j["p2mp"]["on_receiver_timeout"] = policy;
            const bool fails = policy == "fail";
            ScenarioConfig c = Scenario::Parse(j.dump(), "kv-dropped.json", {});
            ScenarioRunner::UsePicoseconds();
            ScenarioRunner runner(c);
            runner.Build();
            const bool complete = runner.Run();
            NS_TEST_ASSERT_MSG_EQ(complete, true, policy << ": every request ends");
            const nlohmann::json w = runner.Summary()["workloads"][0];
            Ptr<KvCacheFanoutWorkload> kv
                = DynamicCast<KvCacheFanoutWorkload>(runner.GetWorkload(0));
            const auto& ops = runner.GetMetrics()->GetOps();
            const OpLedger* ledger = runner.GetFabric().GetTrafficLedger()->GetOpLedger();
            uint32_t lossy = 0;
            for (uint32_t r = 0; r < REQUESTS; ++r)
            {
                const KvCacheFanoutWorkload::Request& req = kv->GetRequests()[r];
                const uint64_t lost = ledger->Get(Metrics::OpTag(req.handle)).lostBytes;
                const Metrics::OpRecord& op = ops[req.handle];
                // The other replica was alive: every request was decoded.
                NS_TEST_ASSERT_MSG_EQ(req.decoded, true, policy << ": request " << r);
                if (lost > 0)
                {
                    ++lossy;
                    NS_TEST_ASSERT_MSG_EQ(lost, req.kvBytes, policy << ": one copy lost, " << r);
                    NS_TEST_ASSERT_MSG_NE(op.dst, DEAD, policy << ": decoded elsewhere, " << r);
                    NS_TEST_ASSERT_MSG_EQ(op.failed, fails, policy << ": " << r);
                }
                else
                {
                    NS_TEST_ASSERT_MSG_EQ(op.failed, false, policy << ": " << r);
                }
                if (req.prefillEnd > MicroSeconds(FAIL_US + TIMEOUT_US + RTO_US + RTT_US))
                {
                    NS_TEST_ASSERT_MSG_EQ(lost, 0, policy << ": placed after the drop, " << r);
                    NS_TEST_ASSERT_MSG_NE(op.dst, DEAD, policy << ": placed elsewhere, " << r);
                }
            }
            NS_TEST_ASSERT_MSG_GT(lossy, 0u, policy << ": the failure cost some copies");
            // Not inside the macro: ns-3.37 streams the limit unparenthesised.
            const uint32_t expectedFailed = fails ? lossy : 0u;
            NS_TEST_ASSERT_MSG_EQ(
                w["failed"].get<uint32_t>(), expectedFailed, policy << ": failed requests");
            Simulator::Destroy();
        }
    }
};

class KvCacheFanoutTestSuite : public TestSuite
{
public:
    KvCacheFanoutTestSuite()
        : TestSuite("mcast4ai-kv-cache-fanout", TestSuite::Type::UNIT)
    {
        AddTestCase(new KvBytesTestCase());
        AddTestCase(new IdleTtftTestCase());
        AddTestCase(new BatchTestCase());
        AddTestCase(new CongestedPathTestCase());
        AddTestCase(new DroppedReplicaTestCase());
    }
};

static KvCacheFanoutTestSuite g_kvCacheFanoutTestSuite;

} // namespace
