/*
 * The stragglers against closed forms (derived in docs/stragglers.md), on a 16-rank ring
 * AllReduce over a two-leaf fabric:
 * - slow-node: each slow event stretches exactly the operation of its iteration by
 *   (factor - 1) x compute_us, so a 1% probability over 200 iterations moves p99 and leaves p50
 *   within 2%;
 * - slow-link: a host link at rate f·B makes its uplink the bottleneck of every ring step,
 *   2(N-1) steps of (S/N wire bytes) / (f·B);
 * - jitter: with every rank drawing an exponential delay of mean m, an operation spans the
 *   spread of its ranks' start times, E[max - min] of N draws = m·H(N-1);
 * - congested-receiver: an incast toward one rank slows the collective, more senders more,
 *   and its traffic is reported apart;
 * and the choices are fixed by the seed. Each check also runs a model it must reject: jitter of
 * slow-node's mean delay (spread thin, no tail), each slow-link form against the other's run,
 * uniform jitter of the same mean (a narrower range), an incast over before the collective.
 */
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "test-fabric.h"
#include "workload/model/congested-receiver-straggler.h"
#include "workload/model/metrics.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <set>
#include <sstream>

using namespace ns3;
using namespace ns3::test;

namespace
{

constexpr uint32_t RANKS = 16;
constexpr uint32_t MTU = 1024;
constexpr double RATE_GBPS = 100;
constexpr double CABLE_S = 1e-6;
constexpr double SWITCH_S = 500e-9;

/// A 2 x 8-host leaf-spine with a ring AllReduce over every host, and the given stragglers.
std::string
Scenario(uint64_t bytes,
         uint32_t iterations,
         double computeUs,
         const std::string& stragglers,
         double startUs = 0)
{
    std::ostringstream s;
    s << R"({"name": "stragglers", "stop_time_ms": 2000,
      "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 8,
                   "host_link": {"rate_gbps": 100, "delay_us": 1},
                   "fabric_link": {"rate_gbps": 400, "delay_us": 1}},
      "nic": {"mtu_bytes": 1024, "ack_every": 1},
      "switch": {"buffer_mb": 32, "latency_ns": 500},
      "workloads": [{"type": "allreduce", "label": "ar", "algorithm": "ring", "bytes": )"
      << bytes << R"(, "iterations": )" << iterations << R"(, "compute_us": )" << computeUs
      << R"(, "start_us": )" << startUs << R"(}], "stragglers": [)" << stragglers << "]}";
    return s.str();
}

struct Outcome
{
    bool complete{false};
    std::vector<Metrics::StepRecord> steps;
    std::vector<Metrics::ReceiverRecord> receivers;
    std::vector<Metrics::OpRecord> ops;
    std::vector<double> durationsUs; ///< by iteration
    nlohmann::json summary;
    std::vector<StragglerLog::Event> events;
    std::vector<uint32_t> incastSenders;
};

Outcome
RunScenario(const std::string& json)
{
    ScenarioConfig c = Scenario::Parse(json, "s.json", {});
    ScenarioRunner::UsePicoseconds();
    ScenarioRunner runner(c);
    runner.Build();
    Outcome o;
    o.complete = runner.Run();
    o.summary = runner.Summary();
    for (const Metrics::OpRecord& r : runner.GetMetrics()->GetOps())
    {
        o.durationsUs.push_back((r.end - r.start).GetPicoSeconds() / 1e6);
    }
    o.events = runner.GetStragglerLog()->GetEvents();
    o.steps = runner.GetMetrics()->GetSteps();
    o.receivers = runner.GetMetrics()->GetReceiverRecords();
    o.ops = runner.GetMetrics()->GetOps();
    for (uint32_t i = 0; i < c.stragglers.size(); ++i)
    {
        if (auto cr = DynamicCast<CongestedReceiverStraggler>(runner.GetStraggler(i)))
        {
            o.incastSenders = cr->GetSenders();
        }
    }
    return o;
}

/// Uplink time of one ring step of a shard: its frames and the ACKs the rank returns.
double
ShardUplinkSeconds(uint64_t shard, double rateGbps)
{
    return MessageDataSeconds(shard, MTU, rateGbps) + MessageAckSeconds(shard, MTU, rateGbps);
}

class SlowNodeTestCase : public TestCase
{
public:
    SlowNodeTestCase()
        : TestCase("slow-node 1% x10 over 200 iterations: p99 moves by (factor-1) compute, "
                   "p50 within 2%")
    {
    }

private:
    void DoRun() override
    {
        const double compute = 100;
        const double factor = 10;
        Outcome base = RunScenario(Scenario(262144, 200, compute, ""));
        Outcome slow = RunScenario(Scenario(
            262144, 200, compute, R"({"type": "slow-node", "probability": 0.01, "factor": 10})"));
        NS_TEST_ASSERT_MSG_EQ(base.complete && slow.complete, true, "both runs complete");
        NS_TEST_ASSERT_MSG_EQ(base.events.size(), 0u, "no straggler, no event");
        // 16 ranks x 199 iterations that compute first, 1% each: 31.8 expected events.
        NS_TEST_ASSERT_MSG_GT(slow.events.size(), 15u, "about 32 slow computations");
        NS_TEST_ASSERT_MSG_LT(slow.events.size(), 55u, "about 32 slow computations");
        std::set<int64_t> slowIterations;
        for (const StragglerLog::Event& e : slow.events)
        {
            NS_TEST_ASSERT_MSG_EQ(e.event, "slow-compute", "slow-node events");
            NS_TEST_ASSERT_MSG_EQ_TOL(e.delayUs, (factor - 1) * compute, 1e-6, "9 x compute");
            NS_TEST_ASSERT_MSG_GT(e.iteration, 0, "iteration 0 has no compute before it");
            slowIterations.insert(e.iteration);
        }
        const double p50 = Metrics::Summarize(base.durationsUs).p50;
        // Every operation whose iteration had a slow rank, and only those, takes the extra
        // (factor - 1) x compute: the other ranks wait for the slow rank's shard.
        for (uint32_t i = 0; i < slow.durationsUs.size(); ++i)
        {
            double extra = slow.durationsUs[i] - p50;
            if (slowIterations.count(i))
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(extra,
                                          (factor - 1) * compute,
                                          0.1 * (factor - 1) * compute,
                                          "iteration " << i << " stretched by 9 x compute");
            }
            else
            {
                NS_TEST_ASSERT_MSG_LT(
                    extra, 0.1 * (factor - 1) * compute, "iteration " << i << " not stretched");
            }
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(
            Metrics::Summarize(slow.durationsUs).p50, p50, 0.02 * p50, "p50 within 2%");
        NS_TEST_ASSERT_MSG_GT(Metrics::Summarize(slow.durationsUs).p99,
                              Metrics::Summarize(base.durationsUs).p99
                                  + 0.9 * (factor - 1) * compute,
                              "p99 moves by about (factor - 1) x compute");
        // The tail check: p50 within 2%, p99 moved by at least 90% of (factor - 1) x compute.
        auto tail = [&](const Outcome& o)
        {
            return std::abs(Metrics::Summarize(o.durationsUs).p50 / p50 - 1) <= 0.02
                   && Metrics::Summarize(o.durationsUs).p99
                          > Metrics::Summarize(base.durationsUs).p99 + 0.9 * (factor - 1) * compute;
        };
        NS_TEST_ASSERT_MSG_EQ(tail(slow), true, "the check holds");
        // The same mean delay, 1% x 900 us = 9 us per rank and iteration, as jitter on every
        // rank: the operations stretch by about 9·H(15) = 30 us each and none by 900.
        Outcome spread = RunScenario(Scenario(
            262144,
            200,
            compute,
            R"({"type": "jitter", "distribution": {"type": "exponential", "mean_us": 9}})"));
        std::clog << "slow-node p50 " << Metrics::Summarize(slow.durationsUs).p50 << " p99 "
                  << Metrics::Summarize(slow.durationsUs).p99 << "; jitter of its mean p50 "
                  << Metrics::Summarize(spread.durationsUs).p50 << " p99 "
                  << Metrics::Summarize(spread.durationsUs).p99 << "; base p50 " << p50 << " p99 "
                  << Metrics::Summarize(base.durationsUs).p99 << std::endl;
        NS_TEST_ASSERT_MSG_EQ(tail(spread), false, "jitter of the same mean is rejected");
        NS_TEST_ASSERT_MSG_EQ(slow.summary["stragglers"][0]["events"].get<uint64_t>(),
                              slow.events.size(),
                              "summary.json counts the events");
        // Same seed, same events; another seed, other ones.
        Outcome again = RunScenario(Scenario(
            262144, 200, compute, R"({"type": "slow-node", "probability": 0.01, "factor": 10})"));
        NS_TEST_ASSERT_MSG_EQ(again.events.size(), slow.events.size(), "deterministic");
        for (uint32_t i = 0; i < again.events.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(again.events[i].host, slow.events[i].host, "same hosts");
            NS_TEST_ASSERT_MSG_EQ(again.events[i].iteration, slow.events[i].iteration, "same");
        }
    }
};

class SlowLinkTestCase : public TestCase
{
public:
    SlowLinkTestCase()
        : TestCase("slow-link at half rate: every ring step takes its shard at half the line rate")
    {
    }

private:
    void DoRun() override
    {
        const uint64_t bytes = 16u << 20;
        const double f = 0.5;
        Outcome base = RunScenario(Scenario(bytes, 1, 0, ""));
        Outcome slow = RunScenario(
            Scenario(bytes, 1, 0, R"({"type": "slow-link", "host": 3, "factor": 0.5})"));
        NS_TEST_ASSERT_MSG_EQ(base.complete && slow.complete, true, "both runs complete");
        const double shard = ShardUplinkSeconds(bytes / RANKS, RATE_GBPS);
        const double latency = LeafHopSeconds(MTU, RATE_GBPS, CABLE_S, SWITCH_S);
        // Idle: 2(N-1) steps of shard time plus step latency. Slowed: host 3's uplink (and
        // downlink) carries each of its 2(N-1) steps at f·B back to back, the other ranks
        // being ahead, so the step latency hides behind it but for the first and last step.
        double idle = 2 * (RANKS - 1) * (shard + latency) * 1e6;
        double slowed = (2 * (RANKS - 1) * shard / f + 2 * latency) * 1e6;
        NS_TEST_ASSERT_MSG_EQ_TOL(base.durationsUs[0], idle, 0.1 * idle, "idle closed form");
        NS_TEST_ASSERT_MSG_EQ_TOL(
            slow.durationsUs[0], slowed, 0.1 * slowed, "2(N-1) steps at half rate");
        // Each form rejects the other's run.
        NS_TEST_ASSERT_MSG_GT(std::abs(base.durationsUs[0] / slowed - 1), 0.1, "idle rejected");
        NS_TEST_ASSERT_MSG_GT(std::abs(slow.durationsUs[0] / idle - 1), 0.1, "slowed rejected");
        NS_TEST_ASSERT_MSG_EQ(slow.events.size(), 1u, "the link was slowed once");
        NS_TEST_ASSERT_MSG_EQ(slow.events[0].event, "link-slowed", "and never restored");
        NS_TEST_ASSERT_MSG_EQ(slow.events[0].host, 3, "host 3's link");

        // Slowed and restored before the collective starts: the idle time exactly.
        Outcome before = RunScenario(Scenario(
            bytes,
            1,
            0,
            R"({"type": "slow-link", "host": 3, "factor": 0.5, "start_us": 0, "end_us": 1})",
            10));
        NS_TEST_ASSERT_MSG_EQ(before.events.size(), 2u, "slowed, then restored");
        NS_TEST_ASSERT_MSG_EQ(before.events[1].event, "link-restored", "restored at end_us");
        NS_TEST_ASSERT_MSG_EQ_TOL(
            before.durationsUs[0], base.durationsUs[0], 1e-3, "the rate is restored");
        // Restored part-way: the ring steps already paced at f·B keep that pace for one more
        // lap of the ring, so the operation lies between the idle and the slowed one.
        Outcome part = RunScenario(Scenario(
            bytes, 1, 0, R"({"type": "slow-link", "host": 3, "factor": 0.5, "end_us": 1000})"));
        NS_TEST_ASSERT_MSG_GT(
            part.durationsUs[0], base.durationsUs[0] + 1000 * (1 - f), "slower than idle");
        NS_TEST_ASSERT_MSG_LT(
            part.durationsUs[0], slow.durationsUs[0], "faster than slowed throughout");
    }
};

class JitterTestCase : public TestCase
{
public:
    JitterTestCase()
        : TestCase("jitter exponential(m) on every rank: operations last m·H(N-1) longer")
    {
    }

private:
    void DoRun() override
    {
        const double m = 50;
        Outcome base = RunScenario(Scenario(65536, 200, 20, ""));
        Outcome jit = RunScenario(Scenario(
            65536,
            200,
            20,
            R"({"type": "jitter", "distribution": {"type": "exponential", "mean_us": 50}})"));
        NS_TEST_ASSERT_MSG_EQ(base.complete && jit.complete, true, "both runs complete");
        NS_TEST_ASSERT_MSG_EQ(jit.events.size(), 199u * RANKS, "one draw per rank and iteration");
        double sum = 0;
        for (const StragglerLog::Event& e : jit.events)
        {
            sum += e.delayUs;
        }
        // Sample mean of 3,184 exponential draws: standard error m/sqrt(3184) = 1.8%.
        NS_TEST_ASSERT_MSG_EQ_TOL(sum / jit.events.size(), m, 0.08 * m, "mean of the draws");
        // An operation starts with its first rank and ends 2(N-1) steps after its last one
        // started; the spread of N exponential start delays has mean m·H(N-1).
        double harmonic = 0;
        for (uint32_t k = 1; k < RANKS; ++k)
        {
            harmonic += 1.0 / k;
        }
        auto mean = [](const std::vector<double>& v, std::size_t from)
        {
            double s = 0;
            for (std::size_t i = from; i < v.size(); ++i)
            {
                s += v[i];
            }
            return s / (v.size() - from);
        };
        double extra = mean(jit.durationsUs, 1) - mean(base.durationsUs, 1);
        // The range of 16 exponentials has standard deviation 1.26 m: over 199 operations the
        // mean is known to 0.09 m, 2.7% of m·H(15).
        NS_TEST_ASSERT_MSG_EQ_TOL(extra, m * harmonic, 0.12 * m * harmonic, "m·H(N-1)");
        // Uniform delays of the same mean, 0 to 2m: the spread of N of them has mean
        // 2m (N-1) / (N+1) = 88 us, and m·H(N-1) rejects it.
        Outcome uni = RunScenario(Scenario(
            65536,
            200,
            20,
            R"({"type": "jitter", "distribution": {"type": "uniform", "min_us": 0, "max_us": 100}})"));
        double uniExtra = mean(uni.durationsUs, 1) - mean(base.durationsUs, 1);
        std::clog << "exponential: " << extra << " us longer against m·H(N-1) = " << m * harmonic
                  << "; uniform of the same mean: " << uniExtra << " us against "
                  << 2 * m * (RANKS - 1) / (RANKS + 1) << std::endl;
        NS_TEST_ASSERT_MSG_GT(std::abs(uniExtra / (m * harmonic) - 1), 0.12, "uniform rejected");
        const double uniForm = 2 * m * (RANKS - 1) / (RANKS + 1);
        NS_TEST_ASSERT_MSG_EQ_TOL(uniExtra, uniForm, 0.12 * uniForm, "its own form holds");
    }
};

class CongestedReceiverTestCase : public TestCase
{
public:
    CongestedReceiverTestCase()
        : TestCase("congested-receiver: an incast toward one rank slows every step into it")
    {
    }

private:
    void DoRun() override
    {
        const uint64_t bytes = 4u << 20;
        Outcome base = RunScenario(Scenario(bytes, 1, 0, ""));
        NS_TEST_ASSERT_MSG_EQ(base.complete, true, "the idle AllReduce completes");
        double previous = base.durationsUs[0];
        for (uint32_t senders : {1u, 3u})
        {
            std::ostringstream entry;
            entry << R"({"type": "congested-receiver", "host": 5, "senders": )" << senders << "}";
            Outcome inc = RunScenario(Scenario(bytes, 1, 0, entry.str()));
            NS_TEST_ASSERT_MSG_EQ(inc.complete, true, "the AllReduce completes");
            NS_TEST_ASSERT_MSG_EQ(inc.incastSenders.size(), senders, "that many senders");
            std::set<uint32_t> distinct(inc.incastSenders.begin(), inc.incastSenders.end());
            NS_TEST_ASSERT_MSG_EQ(distinct.size(), senders, "distinct senders");
            NS_TEST_ASSERT_MSG_EQ(distinct.count(5), 0u, "a host does not send to itself");
            NS_TEST_ASSERT_MSG_EQ(inc.events.size(), 1u, "the incast started, ran to the end");
            NS_TEST_ASSERT_MSG_EQ(inc.events[0].event, "incast-started", "started");
            // Every step into host 5 shares its downlink with the incast (and DCQCN throttles
            // the ring's flow into it with the incast's): more senders, slower steps.
            NS_TEST_ASSERT_MSG_GT(inc.durationsUs[0],
                                  previous * 1.1,
                                  senders << " sender(s) slow the AllReduce down further");
            previous = inc.durationsUs[0];
            // The incast's bytes are its own (not the workload's), and the downlink carries
            // them and the ring's 2(N-1) shards into host 5 within the run, at most B.
            const nlohmann::json& st = inc.summary["stragglers"][0];
            double delivered = st["bytes_delivered"].get<double>();
            double ringIn = 2.0 * (RANKS - 1) * bytes / RANKS;
            double capacity = RATE_GBPS * 1e9 / 8 * inc.summary["sim_time_s"].get<double>();
            NS_TEST_ASSERT_MSG_GT(delivered, 0.0, "the incast delivered");
            NS_TEST_ASSERT_MSG_LT(delivered + ringIn, capacity, "no more than the link carries");
            NS_TEST_ASSERT_MSG_EQ(inc.summary["workloads"][0]["bytes"].get<uint64_t>(),
                                  bytes,
                                  "the workload's bytes exclude the incast");
        }
        // An incast that ended before the collective starts leaves it (nearly) alone: what
        // is in flight at end_us finishes, the rest of the fabric is idle again.
        Outcome early = RunScenario(Scenario(
            bytes,
            1,
            0,
            R"({"type": "congested-receiver", "host": 5, "senders": 3, "bytes": 4096, "end_us": 1})",
            100));
        NS_TEST_ASSERT_MSG_EQ(early.events.size(), 2u, "started and ended");
        NS_TEST_ASSERT_MSG_EQ(early.events[1].event, "incast-ended", "ended");
        NS_TEST_ASSERT_MSG_EQ_TOL(early.durationsUs[0],
                                  base.durationsUs[0],
                                  0.02 * base.durationsUs[0],
                                  "as on the idle fabric");
        // The slow-down check (more than 10% over idle) rejects it.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(
            early.durationsUs[0], base.durationsUs[0] * 1.1, "an incast that ended: rejected");
    }
};

/// The per-step breakdown and the per-receiver completions point at the slow rank.
class StepsTestCase : public TestCase
{
public:
    StepsTestCase()
        : TestCase("steps: a slow rank holds up step 0, and step k's last arrival is k ranks on")
    {
    }

private:
    void DoRun() override
    {
        const uint32_t iterations = 3;
        Outcome o = RunScenario(Scenario(
            1u << 20, iterations, 100, R"({"type": "slow-node", "ranks": [4], "factor": 10})"));
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "the AllReduce completes");
        NS_TEST_ASSERT_MSG_EQ(o.steps.size(), iterations * 2 * (RANKS - 1), "2(N-1) steps each");
        for (const Metrics::StepRecord& s : o.steps)
        {
            NS_TEST_ASSERT_MSG_EQ(s.transfers, RANKS, "one transfer per rank per step");
            const Metrics::OpRecord& op = o.ops[s.handle];
            bool inside = s.start >= op.start && s.end <= op.end;
            NS_TEST_ASSERT_MSG_EQ(inside, true, "inside the op");
            if (op.iteration == 0)
            {
                continue;
            }
            // Rank 4 starts 900 µs late: its step-0 send is the last of step 0, and each step
            // after waits for the one before it one rank further round the ring.
            NS_TEST_ASSERT_MSG_EQ(s.lastSrc, (4 + s.step) % RANKS, "step " << s.step);
            NS_TEST_ASSERT_MSG_EQ(s.lastDst, (5 + s.step) % RANKS, "step " << s.step);
        }
        // One completion per rank and iteration; the last of them is the operation's end.
        NS_TEST_ASSERT_MSG_EQ(o.receivers.size(), iterations * RANKS, "N per iteration");
        for (const Metrics::OpRecord& op : o.ops)
        {
            Time last;
            std::set<uint32_t> hosts;
            for (const Metrics::ReceiverRecord& r : o.receivers)
            {
                if (o.ops[r.handle].iteration == op.iteration)
                {
                    last = std::max(last, r.end);
                    hosts.insert(r.host);
                }
            }
            NS_TEST_ASSERT_MSG_EQ(hosts.size(), RANKS, "every rank completes");
            NS_TEST_ASSERT_MSG_EQ(last, op.end, "the last rank's completion ends the op");
        }
    }
};

class StragglerTestSuite : public TestSuite
{
public:
    StragglerTestSuite()
        : TestSuite("mcast4ai-straggler", TestSuite::Type::UNIT)
    {
        AddTestCase(new SlowNodeTestCase());
        AddTestCase(new SlowLinkTestCase());
        AddTestCase(new JitterTestCase());
        AddTestCase(new CongestedReceiverTestCase());
        AddTestCase(new StepsTestCase());
    }
};

StragglerTestSuite g_stragglerTestSuite;

} // namespace
