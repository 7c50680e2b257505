/*
 * The background workload against closed forms (docs/workloads.md#background):
 * - poisson: each source starts messages at rate load x B / (8 x mean size), so the messages
 *   posted in a window of T are 16 T / gap within a few Poisson standard deviations, and
 *   sizes drawn from a CDF have that CDF's mean;
 * - long-lived: a derangement on one leaf keeps every host link busy but for one round trip
 *   per message;
 * - the run ends with its foreground: background operations are not waited for.
 */
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "test-fabric.h"
#include "workload/model/background-workload.h"

#include <cmath>
#include <sstream>

using namespace ns3;
using namespace ns3::test;

namespace
{

std::string
Scenario(uint32_t leaves, double stopMs, const std::string& workloads)
{
    std::ostringstream s;
    s << R"({"name": "background", "stop_time_ms": )" << stopMs << R"(,
      "topology": {"kind": "leaf-spine", "leaves": )"
      << leaves << R"(, "spines": 2, "hosts_per_leaf": 8,
                   "host_link": {"rate_gbps": 100, "delay_us": 1},
                   "fabric_link": {"rate_gbps": 400, "delay_us": 1}},
      "nic": {"mtu_bytes": 1024, "ack_every": 1},
      "switch": {"buffer_mb": 32, "latency_ns": 500},
      "workloads": [)"
      << workloads << "]}";
    return s.str();
}

struct Outcome
{
    bool complete{false};
    double simUs{0};
    std::vector<Metrics::OpRecord> ops;
    double meanBytes{0};
};

Outcome
RunScenario(const std::string& json)
{
    ScenarioConfig c = Scenario::Parse(json, "b.json", {});
    ScenarioRunner::UsePicoseconds();
    ScenarioRunner runner(c);
    runner.Build();
    Outcome o;
    o.complete = runner.Run();
    o.simUs = Simulator::Now().GetPicoSeconds() / 1e6;
    o.ops = runner.GetMetrics()->GetOps();
    for (uint32_t i = 0; i < c.workloads.size(); ++i)
    {
        if (auto b = DynamicCast<BackgroundWorkload>(runner.GetWorkload(i)))
        {
            o.meanBytes = b->GetMeanBytes();
        }
    }
    return o;
}

class PoissonTestCase : public TestCase
{
public:
    PoissonTestCase()
        : TestCase("poisson at load 0.3: arrivals at load x B over the mean size; CDF sizes")
    {
    }

private:
    void DoRun() override
    {
        const double window = 2000;
        Outcome o = RunScenario(Scenario(2, 3, R"({"type": "background", "pattern": "poisson",
            "load": 0.3, "end_us": 2000, "sizes": {"type": "cdf", "points": [
            {"bytes": 1000, "p": 0.5}, {"bytes": 10000, "p": 0.9}, {"bytes": 100000, "p": 1}]}})"));
        // Mean of the piecewise-linear CDF: 0.5 x 1000 + 0.4 x 5500 + 0.1 x 55000.
        const double mean = 500 + 0.4 * 5500 + 0.1 * 55000;
        NS_TEST_ASSERT_MSG_EQ_TOL(o.meanBytes, mean, 1e-6, "the CDF's mean");
        double gap = mean * 8 / (0.3 * 100e9) * 1e6;
        double expected = 16 * window / gap; // arrivals in [0, end_us)
        NS_TEST_ASSERT_MSG_EQ_TOL(o.ops.size(),
                                  expected,
                                  4 * std::sqrt(expected),
                                  "16 sources x window / mean gap, within 4 sigma");
        double bytes = 0;
        uint32_t small = 0;
        for (const Metrics::OpRecord& r : o.ops)
        {
            NS_TEST_ASSERT_MSG_EQ(r.background, true, "background operations");
            NS_TEST_ASSERT_MSG_NE(r.src, r.dst, "to another host");
            NS_TEST_ASSERT_MSG_LT(r.start.GetMicroSeconds(), window, "none after end_us");
            bytes += r.bytes;
            small += r.bytes <= 1000 ? 1 : 0;
        }
        double n = o.ops.size();
        // Sizes: standard deviation about 20 kB, so over ~5,000 draws the mean is known to 1%.
        NS_TEST_ASSERT_MSG_EQ_TOL(bytes / n, mean, 0.05 * mean, "mean size drawn");
        NS_TEST_ASSERT_MSG_EQ_TOL(small / n, 0.5, 0.03, "half the sizes at the first point");
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "nothing in the foreground to wait for");
        NS_TEST_ASSERT_MSG_EQ_TOL(o.simUs, 3000, 1e-3, "a background-only run goes to stop");
    }
};

class LongLivedTestCase : public TestCase
{
public:
    LongLivedTestCase()
        : TestCase("long-lived derangement on one leaf: every link busy but one RTT a message")
    {
    }

private:
    void DoRun() override
    {
        const uint64_t bytes = 1 << 20;
        Outcome o = RunScenario(Scenario(1, 2, R"({"type": "background", "sizes": {"type":
            "fixed", "bytes": 1048576}})"));
        const uint32_t packets = bytes / 1024;
        double wire = bytes + packets * (ROCE_HEADER_BYTES + FRAMING_BYTES) + RETH_BYTES
                      + packets * (ACK_FRAME_BYTES + FRAMING_BYTES); // it ACKs its own sender
        double serialise = wire * 8 / 100e9 * 1e6;
        // The last packet's ACK comes back a round trip after it left: 2 x (2 cables + the
        // switch + one frame) before the next message starts.
        double rtt = 2 * (2 * 1 + 0.5 + WireSeconds(1024 + ROCE_HEADER_BYTES, 100) * 1e6);
        std::vector<uint32_t> done(8, 0);
        std::vector<int64_t> peer(8, -1);
        for (const Metrics::OpRecord& r : o.ops)
        {
            bool onePeer = peer[r.src] < 0 || peer[r.src] == r.dst;
            NS_TEST_ASSERT_MSG_EQ(onePeer, true, "one peer");
            peer[r.src] = r.dst;
            done[r.src] += r.done ? 1 : 0;
        }
        for (uint32_t h = 0; h < 8; ++h)
        {
            NS_TEST_ASSERT_MSG_NE(peer[h], h, "a derangement");
            double expected = 2000 / (serialise + rtt);
            NS_TEST_ASSERT_MSG_EQ_TOL(done[h], expected, 0.1 * expected + 1, "host " << h);
        }
    }
};

class ForegroundEndsTestCase : public TestCase
{
public:
    ForegroundEndsTestCase()
        : TestCase("the run ends with its foreground; background flows are reported apart")
    {
    }

private:
    void DoRun() override
    {
        Outcome o = RunScenario(Scenario(2,
                                         50,
                                         R"({"type": "allreduce", "label": "ar", "bytes": 1048576},
               {"type": "background", "label": "bg", "pattern": "poisson", "load": 0.2,
                "sizes": {"type": "fixed", "bytes": 65536}})"));
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "the foreground completes");
        const Metrics::OpRecord& ar = o.ops[0];
        NS_TEST_ASSERT_MSG_EQ(ar.background, false, "the AllReduce is foreground");
        NS_TEST_ASSERT_MSG_EQ_TOL(o.simUs,
                                  ar.end.GetPicoSeconds() / 1e6,
                                  1e-6,
                                  "the run stops when the AllReduce completes");
        NS_TEST_ASSERT_MSG_GT(o.ops.size(), 10u, "background messages ran alongside");
    }
};

class BackgroundTestSuite : public TestSuite
{
public:
    BackgroundTestSuite()
        : TestSuite("mcast4ai-background", TestSuite::Type::UNIT)
    {
        AddTestCase(new PoissonTestCase());
        AddTestCase(new LongLivedTestCase());
        AddTestCase(new ForegroundEndsTestCase());
    }
};

BackgroundTestSuite g_backgroundTestSuite;

} // namespace
