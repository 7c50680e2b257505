/*
 * Traffic classes (docs/fabric.md#traffic-classes-and-egress-scheduling): a workload's `priority`
 * picks its PFC class and switch egress queue, and `switch.scheduling` shares a port among the
 * classes. One leaf at 100 Gb/s, MTU 1024, DCQCN off so that PFC keeps both classes backlogged (the
 * scheduler, not the senders' rates, decides the shares):
 * - two 3 MB flows into one host, classes 3 and 4: under dwrr with weights 1 and w the class-4
 *   flow gets w / (1 + w) of the downlink until it is done, at 3 MB (1 + w) / w of payload
 *   time; under strict it gets all of it, done at 3 MB of payload time;
 * - a KV-cache fan-out in class 5 over decode links that background flows fill keeps its
 *   worst TTFT of 10 requests within 10% of the idle fabric's under strict; in the
 *   background's own class it does not.
 * Each check runs the other discipline, which it must reject.
 */
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "test-fabric.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;
using namespace ns3::test;

namespace
{

constexpr double RATE_GBPS = 100;
constexpr uint32_t MTU = 1024;

using Outcome = ScenarioOutcome;

Outcome
RunClasses(const std::string& sw, const std::string& workloads, bool dcqcn = false)
{
    std::ostringstream s;
    s << R"({"name": "classes", "stop_time_ms": 50,
      "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 8,
                   "host_link": {"rate_gbps": 100, "delay_us": 1},
                   "fabric_link": {"rate_gbps": 100, "delay_us": 1}},
      "nic": {"mtu_bytes": 1024, "dcqcn": {"enabled": )"
      << (dcqcn ? "true" : "false") << R"(}},
      "switch": )"
      << sw << R"(,
      "workloads": [)"
      << workloads << "]}";
    return RunScenarioJson(s.str(), "classes.json");
}

/// Seconds of payload the downlink carries for `bytes` in full frames.
double
PayloadSeconds(double bytes)
{
    return MessageDataSeconds(static_cast<uint64_t>(bytes), MTU, RATE_GBPS);
}

const char* const TWO_FLOWS =
    R"({"type": "flows", "pattern": "list", "flows": [{"src": 0, "dst": 3, "bytes": 3000000}]},
       {"type": "flows", "pattern": "list", "priority": 4,
        "flows": [{"src": 1, "dst": 3, "bytes": 3000000}]})";

/// The class-4 flow's share of the downlink until it ends, and the last flow's end, s.
std::pair<double, double>
ShareAndLast(const Outcome& o)
{
    const double end4 = (o.ops.at(1).end - o.ops.at(1).start).GetSeconds();
    const double end3 = (o.ops.at(0).end - o.ops.at(0).start).GetSeconds();
    return {PayloadSeconds(3e6) / end4, std::max(end3, end4)};
}

/// dwrr with weights 1 and w: class 4 has w / (1 + w) of the port until it ends, within 5%,
/// and the port never idles (the last byte after 6 MB of payload time, within 2%).
bool
DwrrHolds(const Outcome& o, uint32_t w)
{
    const auto [share, last] = ShareAndLast(o);
    const double expected = w / (1.0 + w);
    return o.complete && std::abs(share - expected) <= 0.05 * expected
           && std::abs(last - PayloadSeconds(6e6)) <= 0.02 * last;
}

/// strict: class 4 at line rate (3 MB of payload time), class 3 after it (6 MB), within 2%.
bool
StrictHolds(const Outcome& o)
{
    const double end4 = (o.ops.at(1).end - o.ops.at(1).start).GetSeconds();
    const double end3 = (o.ops.at(0).end - o.ops.at(0).start).GetSeconds();
    return o.complete && std::abs(end4 - PayloadSeconds(3e6)) <= 0.02 * end4
           && std::abs(end3 - PayloadSeconds(6e6)) <= 0.02 * end3;
}

std::string
Dwrr(uint32_t w)
{
    std::ostringstream sw;
    sw << R"({"scheduling": "dwrr", "dwrr": {"weights": [1, 1, 1, 1, )" << w << ", 1, 0, 0]}}";
    return sw.str();
}

class DwrrSharesTestCase : public TestCase
{
public:
    DwrrSharesTestCase()
        : TestCase("dwrr: two classes share a port by their weights, within 5%")
    {
    }

private:
    void DoRun() override
    {
        const Outcome strict = RunClasses(R"({"scheduling": "strict"})", TWO_FLOWS);
        for (uint32_t w : {1u, 3u})
        {
            Outcome o = RunClasses(Dwrr(w), TWO_FLOWS);
            NS_TEST_ASSERT_MSG_EQ(o.complete, true, "both flows complete");
            // Until it ends the class-4 flow has w / (1 + w) of the downlink (w = 1: both end
            // together, each with half): its share is its payload time over its duration.
            const auto [share, last] = ShareAndLast(o);
            const double expected = w / (1.0 + w);
            NS_TEST_EXPECT_MSG_EQ_TOL(
                share, expected, 0.05 * expected, "class 4's share with weight " << w);
            NS_TEST_EXPECT_MSG_EQ_TOL(last, PayloadSeconds(6e6), 0.02 * last, "port busy");
            NS_TEST_EXPECT_MSG_EQ(DwrrHolds(o, w), true, "the check holds");
            // Strict priority gives class 4 the whole port: rejected.
            NS_TEST_EXPECT_MSG_EQ(DwrrHolds(strict, w), false, "strict rejected, weight " << w);
        }
    }
};

class StrictTestCase : public TestCase
{
public:
    StrictTestCase()
        : TestCase("strict: the higher class takes the whole port while it has data")
    {
    }

private:
    void DoRun() override
    {
        Outcome o = RunClasses(R"({"scheduling": "strict"})", TWO_FLOWS);
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "both flows complete");
        double end4 = (o.ops.at(1).end - o.ops.at(1).start).GetSeconds();
        double end3 = (o.ops.at(0).end - o.ops.at(0).start).GetSeconds();
        NS_TEST_EXPECT_MSG_EQ_TOL(end4, PayloadSeconds(3e6), 0.02 * end4, "class 4 at line rate");
        NS_TEST_EXPECT_MSG_EQ_TOL(end3, PayloadSeconds(6e6), 0.02 * end3, "class 3 after it");
        NS_TEST_EXPECT_MSG_EQ(StrictHolds(o), true, "the check holds");
        // dwrr with equal weights shares the port: rejected.
        NS_TEST_EXPECT_MSG_EQ(StrictHolds(RunClasses(Dwrr(1), TWO_FLOWS)), false, "dwrr rejected");
    }
};

class KvClassTestCase : public TestCase
{
public:
    KvClassTestCase()
        : TestCase("kv-cache-fanout in a higher class under strict: the worst TTFT of 10 "
                   "within 10% of the idle fabric's while background fills the decode links")
    {
    }

private:
    void DoRun() override
    {
        // Ten requests of 64 KiB from host 0 to decode hosts 4 and 5, 100 µs apart; six 4 MB
        // flows (3 per decode host) keep those downlinks full for about 2 ms.
        auto kv = [](const std::string& priority)
        {
            return R"({"type": "kv-cache-fanout", "requests": 10, "prefill_ranks": [0],
                "decode_ranks": [4, 5], "arrival": {"type": "list",
                "times_us": [0, 100, 200, 300, 400, 500, 600, 700, 800, 900]},
                "prompt_tokens": {"tokens": 64}, "prefill_us_per_token": 0.5,
                "decode_step_us": 20, "output_tokens": 2, "layers": 2, "kv_heads": 2,
                "head_dim": 64, "bytes_per_element": 2)"
                   + priority + "}";
        };
        const std::string background =
            R"(, {"type": "flows", "pattern": "list", "flows": [
                {"src": 1, "dst": 4, "bytes": 4000000}, {"src": 2, "dst": 4, "bytes": 4000000},
                {"src": 3, "dst": 4, "bytes": 4000000}, {"src": 6, "dst": 5, "bytes": 4000000},
                {"src": 7, "dst": 5, "bytes": 4000000}, {"src": 2, "dst": 5, "bytes": 4000000}]})";
        const std::string strict = R"({"scheduling": "strict"})";
        // Ten requests: summary.json's p99 is their maximum (fewer than the 100 a p99 needs).
        auto worst = [](const Outcome& o)
        {
            return o.summary["workloads"][0]["ttft_us"]["max"].get<double>();
        };
        Outcome idle = RunClasses(strict, kv(""), true);
        Outcome high = RunClasses(strict, kv(R"(, "priority": 5)") + background, true);
        Outcome same = RunClasses(strict, kv("") + background, true);
        NS_TEST_ASSERT_MSG_EQ(idle.complete && high.complete && same.complete, true, "complete");
        NS_TEST_EXPECT_MSG_EQ_TOL(worst(high),
                                  worst(idle),
                                  0.1 * worst(idle),
                                  "class 5 over a full class 3: worst TTFT as if idle");
        // The wrong model, the fan-out in the background's class, is rejected by that band.
        NS_TEST_EXPECT_MSG_GT(
            worst(same), 1.1 * worst(idle), "in the background's class it waits behind it");
    }
};

class PriorityTestSuite : public TestSuite
{
public:
    PriorityTestSuite()
        : TestSuite("mcast4ai-priority", TestSuite::Type::UNIT)
    {
        AddTestCase(new DwrrSharesTestCase());
        AddTestCase(new StrictTestCase());
        AddTestCase(new KvClassTestCase());
    }
};

static PriorityTestSuite g_priorityTestSuite;

} // namespace
