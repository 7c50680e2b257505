/*
 * The background workload against closed forms (docs/workloads.md#background):
 * - poisson: each source starts messages at rate load x B / (8 x mean size), so the messages
 *   posted in a window of T are 16 T / gap within a few Poisson standard deviations, and
 *   sizes drawn from a CDF have that CDF's mean;
 * - long-lived: a derangement on one leaf keeps every host link busy but for one round trip
 *   per message;
 * - the run ends with its foreground: background operations are not waited for.
 * The checks reject what they do not describe: sizes of the CDF's mean but not its shape, a
 * load 10% high, and a link that carries a coalesced ACK stream.
 */
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "test-fabric.h"
#include "workload/model/background-workload.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::test;

namespace
{

std::string
Scenario(uint32_t leaves, double stopMs, const std::string& workloads, uint32_t ackEvery = 1)
{
    std::ostringstream s;
    s << R"({"name": "background", "stop_time_ms": )" << stopMs << R"(,
      "topology": {"kind": "leaf-spine", "leaves": )"
      << leaves << R"(, "spines": 2, "hosts_per_leaf": 8,
                   "host_link": {"rate_gbps": 100, "delay_us": 1},
                   "fabric_link": {"rate_gbps": 400, "delay_us": 1}},
      "nic": {"mtu_bytes": 1024, "ack_every": )"
      << ackEvery << R"(},
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

/// The CDF of the Poisson case: 1,000 B with probability 0.5, then linear to 10 kB (0.9) and
/// to 100 kB (1).
double
CdfAt(double bytes)
{
    if (bytes < 1000)
    {
        return 0;
    }
    if (bytes <= 10000)
    {
        return 0.5 + 0.4 * (bytes - 1000) / 9000;
    }
    return bytes <= 100000 ? 0.9 + 0.1 * (bytes - 10000) / 90000 : 1;
}

/// The Poisson workload at `load` with sizes `sizes` (JSON), over [0, 2 ms) on 16 hosts.
Outcome
RunPoisson(double load, const std::string& sizes)
{
    std::ostringstream w;
    w << R"({"type": "background", "pattern": "poisson", "load": )" << load
      << R"(, "end_us": 2000, "sizes": )" << sizes << "}";
    return RunScenario(Scenario(2, 3, w.str()));
}

const char* const CDF_SIZES = R"({"type": "cdf", "points": [
    {"bytes": 1000, "p": 0.5}, {"bytes": 10000, "p": 0.9}, {"bytes": 100000, "p": 1}]})";

class PoissonTestCase : public TestCase
{
public:
    PoissonTestCase()
        : TestCase("poisson at load 0.3: arrivals at load x B over the mean size; CDF sizes")
    {
    }

private:
    // Mean of the piecewise-linear CDF: 0.5 x 1000 + 0.4 x 5500 + 0.1 x 55000.
    static constexpr double MEAN = 500 + 0.4 * 5500 + 0.1 * 55000;
    static constexpr double WINDOW = 2000; // us

    /// Arrivals: 16 sources x window / mean gap at load 0.3, within 4 Poisson deviations.
    static bool ArrivalsHold(const Outcome& o)
    {
        const double gap = MEAN * 8 / (0.3 * 100e9) * 1e6;
        const double expected = 16 * WINDOW / gap;
        return std::abs(o.ops.size() - expected) <= 4 * std::sqrt(expected);
    }

    /// Sizes: their mean within 5% of the CDF's, and the empirical CDF within Kolmogorov's
    /// 1% critical value, 1.63 / sqrt(n), of the CDF at every kilobyte up to 100 kB.
    static bool SizesHold(const Outcome& o, double* distance)
    {
        std::vector<double> sizes;
        for (const Metrics::OpRecord& r : o.ops)
        {
            sizes.push_back(static_cast<double>(r.bytes));
        }
        std::sort(sizes.begin(), sizes.end());
        const double n = sizes.size();
        double d = 0;
        for (double x = 1000; x <= 100000; x += 1000)
        {
            const double below = std::upper_bound(sizes.begin(), sizes.end(), x) - sizes.begin();
            d = std::max(d, std::abs(below / n - CdfAt(x)));
        }
        *distance = d;
        double sum = 0;
        for (double b : sizes)
        {
            sum += b;
        }
        return std::abs(sum / n - MEAN) <= 0.05 * MEAN && d <= 1.63 / std::sqrt(n);
    }

    void DoRun() override
    {
        Outcome o = RunPoisson(0.3, CDF_SIZES);
        NS_TEST_ASSERT_MSG_EQ_TOL(o.meanBytes, MEAN, 1e-6, "the CDF's mean");
        const double gap = MEAN * 8 / (0.3 * 100e9) * 1e6;
        const double expected = 16 * WINDOW / gap; // arrivals in [0, end_us)
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
            NS_TEST_ASSERT_MSG_LT(r.start.GetMicroSeconds(), WINDOW, "none after end_us");
            bytes += r.bytes;
            small += r.bytes <= 1000 ? 1 : 0;
        }
        double n = o.ops.size();
        // Sizes: standard deviation about 20 kB, so over ~15,000 draws the mean is known to 2%.
        NS_TEST_ASSERT_MSG_EQ_TOL(bytes / n, MEAN, 0.05 * MEAN, "mean size drawn");
        NS_TEST_ASSERT_MSG_EQ_TOL(small / n, 0.5, 0.03, "half the sizes at the first point");
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "nothing in the foreground to wait for");
        NS_TEST_ASSERT_MSG_EQ_TOL(o.simUs, 3000, 1e-3, "a background-only run goes to stop");
        double d = 0;
        NS_TEST_ASSERT_MSG_EQ(ArrivalsHold(o) && SizesHold(o, &d), true, "the checks hold");

        // Every message of the CDF's mean: the arrivals pass, the sizes' shape does not.
        Outcome fixed = RunPoisson(0.3, R"({"type": "fixed", "bytes": 8200})");
        double dFixed = 0;
        const bool fixedSizes = SizesHold(fixed, &dFixed);
        // A load 10% high: the arrivals do not pass.
        Outcome high = RunPoisson(0.33, CDF_SIZES);
        std::clog << "arrivals " << o.ops.size() << " against " << expected
                  << " (load 0.33: " << high.ops.size() << "); CDF distance " << d
                  << ", fixed sizes " << dFixed << ", bound " << 1.63 / std::sqrt(n) << std::endl;
        NS_TEST_ASSERT_MSG_EQ(ArrivalsHold(fixed), true, "the mean size alone sets the rate");
        NS_TEST_ASSERT_MSG_EQ(fixedSizes, false, "sizes without the CDF's shape are rejected");
        NS_TEST_ASSERT_MSG_EQ(ArrivalsHold(high), false, "a load 10% high is rejected");
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
    struct Messages
    {
        std::vector<uint32_t> done = std::vector<uint32_t>(8, 0);
        std::vector<int64_t> peer = std::vector<int64_t>(8, -1);
        double meanUs{0}; ///< a completed message's duration
        bool onePeer{true};
    };

    static Messages Tally(const Outcome& o)
    {
        Messages m;
        double sum = 0;
        uint32_t n = 0;
        for (const Metrics::OpRecord& r : o.ops)
        {
            m.onePeer = m.onePeer && (m.peer[r.src] < 0 || m.peer[r.src] == r.dst);
            m.peer[r.src] = r.dst;
            if (r.done)
            {
                ++m.done[r.src];
                sum += (r.end - r.start).GetPicoSeconds() / 1e6;
                ++n;
            }
        }
        m.meanUs = sum / n;
        return m;
    }

    void DoRun() override
    {
        const uint64_t bytes = 1 << 20;
        const std::string workload
            = R"({"type": "background", "sizes": {"type": "fixed", "bytes": 1048576}})";
        Outcome o = RunScenario(Scenario(1, 2, workload));
        const uint32_t packets = bytes / 1024;
        double wire = bytes + packets * (ROCE_HEADER_BYTES + FRAMING_BYTES) + RETH_BYTES
                      + packets * (ACK_FRAME_BYTES + FRAMING_BYTES); // it ACKs its own sender
        double serialise = wire * 8 / 100e9 * 1e6;
        // The last packet's ACK comes back a round trip after it left: 2 x (2 cables + the
        // switch + one frame) before the next message starts.
        double rtt = 2 * (2 * 1 + 0.5 + WireSeconds(1024 + ROCE_HEADER_BYTES, 100) * 1e6);
        // A message lasts its uplink time and a round trip: within 1%, where the round trip
        // is 5% of it and the ACKs the link carries 7%.
        auto holds = [&](const Messages& m)
        {
            return std::abs(m.meanUs / (serialise + rtt) - 1) <= 0.01;
        };
        Messages m = Tally(o);
        NS_TEST_ASSERT_MSG_EQ(m.onePeer, true, "one peer");
        for (uint32_t h = 0; h < 8; ++h)
        {
            NS_TEST_ASSERT_MSG_NE(m.peer[h], h, "a derangement");
            double expected = 2000 / (serialise + rtt);
            NS_TEST_ASSERT_MSG_EQ_TOL(m.done[h], expected, 0.1 * expected + 1, "host " << h);
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(
            m.meanUs, serialise + rtt, 0.01 * (serialise + rtt), "uplink time and a round trip");
        // The same derangement with one ACK per eight packets: its links carry an eighth of
        // the ACKs, its messages are shorter, and the form rejects them.
        Messages coalesced = Tally(RunScenario(Scenario(1, 2, workload, 8)));
        std::clog << "message " << m.meanUs << " us against " << serialise + rtt
                  << " us; ACK every 8: " << coalesced.meanUs << " us" << std::endl;
        NS_TEST_ASSERT_MSG_EQ(holds(m), true, "the form holds");
        NS_TEST_ASSERT_MSG_EQ(holds(coalesced), false, "coalesced ACKs are rejected");
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
