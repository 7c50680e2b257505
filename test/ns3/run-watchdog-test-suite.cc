/*
 * RunWatchdog: a run that stops progressing is stopped and explained
 * (docs/robustness.md "Watchdog").
 *
 * - FindCycle on hand-made graphs: a ring, a cycle behind a tail, a DAG, a self-loop.
 * - A PFC deadlock (scenarios/robustness/pfc-deadlock-ring.json): five switches in a ring,
 *   every host sending 16 MiB two hops clockwise, so every ring link carries two flows at
 *   twice its rate and each switch's ingress from the previous one holds frames for the next
 *   (the cyclic buffer dependency of Hu et al., HotNets 2016). The watchdog stops it between
 *   1 and 1.25 timeouts after the last progress it saw; the report names the five flows, the
 *   five clockwise ring ports and the five host ports as paused at the data class and
 *   nothing else (ACKs go counter-clockwise at the control class), and the cycle
 *   sw0>sw1 -> sw1>sw2 -> sw2>sw3 -> sw3>sw4 -> sw4>sw0.
 * - Without the fifth flow the dependency is a chain, not a cycle: the same ring completes.
 * - Waiting with nothing outstanding (flows that start after 30 ms) is not a stall.
 * - A livelock, a fabric link that loses 99.9% of frames, is stalled too: resends that are
 *   never acknowledged are no progress; no port is paused and there is no cycle.
 * - The auto timeout follows the floor of the congestion-control model the run selected.
 * - An operation nothing will ever complete (registered and started by the test, with no
 *   traffic behind it) is stopped at the first check after the run's last event, 2,500 µs,
 *   as "nothing scheduled", and is the one stuck operation.
 */
#include "dcqcn-test-helpers.h"
#include "ns3/test.h"
#include "scenario/model/run-watchdog.h"
#include "scenario/model/scenario-runner.h"

#include <algorithm>

using namespace ns3;
using namespace ns3::test;

namespace
{

class FindCycleTestCase : public TestCase
{
public:
    FindCycleTestCase()
        : TestCase("FindCycle: rings, tails, DAGs and self-loops")
    {
    }

private:
    void DoRun() override
    {
        using V = std::vector<uint32_t>;
        NS_TEST_ASSERT_MSG_EQ((RunWatchdog::FindCycle({{1}, {2}, {0}}) == V{0, 1, 2}),
                              true,
                              "a three-ring, from vertex 0");
        NS_TEST_ASSERT_MSG_EQ((RunWatchdog::FindCycle({{1}, {2}, {3}, {1}}) == V{1, 2, 3}),
                              true,
                              "a cycle behind a tail leaves the tail out");
        NS_TEST_ASSERT_MSG_EQ(RunWatchdog::FindCycle({{1, 2}, {2}, {}}).empty(), true, "a DAG");
        NS_TEST_ASSERT_MSG_EQ(RunWatchdog::FindCycle({}).empty(), true, "no vertices");
        NS_TEST_ASSERT_MSG_EQ((RunWatchdog::FindCycle({{}, {1}}) == V{1}), true, "a self-loop");
    }
};

/// Run a scenario's JSON; the runner is left for the caller to inspect.
std::unique_ptr<ScenarioRunner>
RunJson(const nlohmann::json& j, bool& complete)
{
    ScenarioConfig c = Scenario::Parse(j.dump(), "watchdog-test.json", {});
    ScenarioRunner::UsePicoseconds();
    auto runner = std::make_unique<ScenarioRunner>(c);
    runner->Build();
    complete = runner->Run();
    return runner;
}

nlohmann::json
Ring()
{
    nlohmann::json j = ReadScenarioFile("robustness", "pfc-deadlock-ring.json");
    j["output"]["dir"] = "/tmp/mcast4ai-test-run-watchdog";
    return j;
}

class RingDeadlockTestCase : public TestCase
{
public:
    RingDeadlockTestCase()
        : TestCase("a PFC deadlock on a ring is stopped and its cycle named")
    {
    }

private:
    void DoRun() override
    {
        bool complete = true;
        auto runner = RunJson(Ring(), complete);
        NS_TEST_ASSERT_MSG_EQ(complete, false, "the deadlocked flows never finish");
        NS_TEST_ASSERT_MSG_EQ(runner->GetStoppedBy(), "limits.watchdog_us", "stopped by it");
        Ptr<RunWatchdog> w = runner->GetWatchdog();
        const RunWatchdog::Report& r = w->GetReport();
        // The default: 10 x the default 1,000 µs RTO.
        NS_TEST_ASSERT_MSG_EQ(w->GetTimeout(), MilliSeconds(10), "timeout");
        const Time waited = r.detectedAt - r.stalledSince;
        NS_TEST_ASSERT_MSG_EQ((waited >= w->GetTimeout() && waited <= w->GetTimeout() * 5 / 4),
                              true,
                              "noticed between 1 and 1.25 timeouts after the last progress");
        NS_TEST_ASSERT_MSG_EQ(Simulator::Now(), r.detectedAt, "and stopped right then");
        NS_TEST_ASSERT_MSG_EQ(r.stuckQueuePairs, 5, "one stuck queue pair per flow");
        NS_TEST_ASSERT_MSG_EQ((r.stuckOps == std::vector<uint64_t>{0, 1, 2, 3, 4}),
                              true,
                              "the five flows are the stuck operations");
        std::vector<std::string> paused;
        for (const auto& [link, prio] : r.pausedPorts)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(prio), 3, link << " is paused at the data class");
            paused.push_back(link);
        }
        std::sort(paused.begin(), paused.end());
        const std::vector<std::string> expected{"host0>sw0",
                                                "host1>sw1",
                                                "host2>sw2",
                                                "host3>sw3",
                                                "host4>sw4",
                                                "sw0>sw1",
                                                "sw1>sw2",
                                                "sw2>sw3",
                                                "sw3>sw4",
                                                "sw4>sw0"};
        NS_TEST_ASSERT_MSG_EQ((paused == expected),
                              true,
                              "the host ports and the clockwise ring ports, nothing else");
        const std::vector<std::string> cycle{"sw0>sw1", "sw1>sw2", "sw2>sw3", "sw3>sw4", "sw4>sw0"};
        NS_TEST_ASSERT_MSG_EQ((r.pauseCycle == cycle), true, "the clockwise cycle");
        const nlohmann::json s = runner->Summary();
        NS_TEST_ASSERT_MSG_EQ(s["stopped_by"], "limits.watchdog_us", "summary.json says so");
        NS_TEST_ASSERT_MSG_EQ(s["watchdog"]["pause_cycle"].size(), 5, "and carries the cycle");
        NS_TEST_ASSERT_MSG_EQ(s["watchdog"]["stuck_operations"].size(), 5, "and the flows");
        runner.reset();
    }
};

class RingWithoutCycleTestCase : public TestCase
{
public:
    RingWithoutCycleTestCase()
        : TestCase("the same ring without the fifth flow has no cycle and completes")
    {
    }

private:
    void DoRun() override
    {
        nlohmann::json j = Ring();
        j["workloads"][0]["flows"].erase(4);
        bool complete = false;
        auto runner = RunJson(j, complete);
        NS_TEST_ASSERT_MSG_EQ(complete, true, "four flows, a chain of dependencies, complete");
        NS_TEST_ASSERT_MSG_EQ(runner->GetStoppedBy(), "", "nothing stopped it");
        runner.reset();
    }
};

class IdleIsNoStallTestCase : public TestCase
{
public:
    IdleIsNoStallTestCase()
        : TestCase("waiting with nothing outstanding is not a stall")
    {
    }

private:
    void DoRun() override
    {
        nlohmann::json j = Ring();
        j["workloads"][0]["flows"].erase(4);
        for (auto& flow : j["workloads"][0]["flows"])
        {
            flow["start_us"] = 30000;
        }
        j["limits"]["watchdog_us"] = 2000;
        bool complete = false;
        auto runner = RunJson(j, complete);
        NS_TEST_ASSERT_MSG_EQ(complete, true, "30 ms of nothing to send, 2 ms watchdog");
        NS_TEST_ASSERT_MSG_GT(Simulator::Now(), MilliSeconds(30), "the flows ran after 30 ms");
        runner.reset();
    }
};

class LivelockTestCase : public TestCase
{
public:
    LivelockTestCase()
        : TestCase("resends that are never acknowledged are no progress")
    {
    }

private:
    void DoRun() override
    {
        nlohmann::json j = nlohmann::json::parse(R"({
          "name": "livelock", "seed": 1, "stop_time_ms": 100,
          "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 1,
                       "fabric_link": {"loss_rate": 0.999}},
          "workloads": [{"type": "flows", "pattern": "list",
                         "flows": [{"src": 0, "dst": 1, "bytes": 1048576}]}],
          "output": {"dir": "/tmp/mcast4ai-test-run-watchdog"}
        })");
        bool complete = true;
        auto runner = RunJson(j, complete);
        NS_TEST_ASSERT_MSG_EQ(complete, false, "the flow cannot finish");
        NS_TEST_ASSERT_MSG_EQ(runner->GetStoppedBy(), "limits.watchdog_us", "stopped by it");
        const RunWatchdog::Report& r = runner->GetWatchdog()->GetReport();
        NS_TEST_ASSERT_MSG_EQ(r.stuckQueuePairs, 1, "the flow's queue pair");
        NS_TEST_ASSERT_MSG_EQ(r.pausedPorts.empty(), true, "nothing is paused");
        NS_TEST_ASSERT_MSG_EQ(r.pauseCycle.empty(), true, "no cycle");
        const nlohmann::json s = runner->Summary();
        NS_TEST_ASSERT_MSG_GT(
            s["network"]["retransmissions"].get<uint64_t>(), 0, "it kept resending");
        runner.reset();
    }
};

/**
 * The auto timeout waits for ack_every MTU frames at the floor of the congestion-control model
 * the run selected (RdmaCongestionControl::GetMinRate), not at another model's: 10,000 µs at
 * the default 1 Gb/s floors, 89,760 µs at 1 Mb/s whichever model has it, and the links' rate
 * without a model.
 */
class AutoTimeoutTestCase : public TestCase
{
public:
    AutoTimeoutTestCase()
        : TestCase("the auto timeout follows the selected congestion control's floor")
    {
    }

private:
    static Time Timeout(const std::vector<std::string>& sets)
    {
        nlohmann::json j = nlohmann::json::parse(R"({
          "name": "auto-timeout", "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 1,
                                               "hosts_per_leaf": 2},
          "workloads": [{"type": "flows", "pattern": "list",
                         "flows": [{"src": 0, "dst": 1, "bytes": 1024}]}],
          "output": {"dir": "/tmp/mcast4ai-test-run-watchdog"}
        })");
        ScenarioConfig c = Scenario::Parse(j.dump(), "auto-timeout.json", sets);
        ScenarioRunner::UsePicoseconds();
        ScenarioRunner runner(c);
        runner.Build();
        return runner.GetWatchdog()->GetTimeout();
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Timeout({}), MicroSeconds(10000), "DCQCN's 1 Gb/s: ten RTOs");
        NS_TEST_ASSERT_MSG_EQ(Timeout({"nic.dcqcn.preset=nvidia-cx6"}),
                              MicroSeconds(89760),
                              "DCQCN at 1 Mb/s: ten 1,122-byte frames' times");
        NS_TEST_ASSERT_MSG_EQ(Timeout({"nic.congestion_control=hpcc", "nic.hpcc.min_rate_mbps=1"}),
                              MicroSeconds(89760),
                              "HPCC's floor, not DCQCN's 1 Gb/s");
        NS_TEST_ASSERT_MSG_EQ(
            Timeout({"nic.congestion_control=none", "nic.dcqcn.preset=nvidia-cx6"}),
            MicroSeconds(10000),
            "no model: the links' rate, DCQCN's unused floor aside");
        NS_TEST_ASSERT_MSG_EQ(Timeout({"nic.dcqcn.enabled=false", "nic.dcqcn.preset=nvidia-cx6"}),
                              MicroSeconds(10000),
                              "DCQCN off: no model, whatever its preset's floor");
    }
};

class NothingScheduledTestCase : public TestCase
{
public:
    NothingScheduledTestCase()
        : TestCase("an unfinished operation with nothing left to simulate is stopped at once")
    {
    }

private:
    void DoRun() override
    {
        nlohmann::json j = Ring();
        j["workloads"][0]["flows"] = {{{"src", 0}, {"dst", 1}, {"bytes", 65536}}};
        ScenarioConfig c = Scenario::Parse(j.dump(), "watchdog-test.json", {});
        ScenarioRunner::UsePicoseconds();
        auto runner = std::make_unique<ScenarioRunner>(c);
        runner->Build();
        // An operation no workload will ever complete: the run has nothing to wait on.
        Metrics::OpRecord orphan;
        orphan.workload = 0;
        orphan.op = 1;
        const uint64_t handle = runner->GetMetrics()->AddOp(orphan);
        runner->GetMetrics()->StartOp(handle);
        NS_TEST_ASSERT_MSG_EQ(runner->Run(), false, "the orphan never completes");
        NS_TEST_ASSERT_MSG_EQ(runner->GetStoppedBy(), "limits.watchdog_us", "stopped by it");
        const RunWatchdog::Report& r = runner->GetWatchdog()->GetReport();
        NS_TEST_ASSERT_MSG_EQ(r.nothingScheduled, true, "nothing left to simulate");
        // A 64 KiB flow over two 100 Gb/s links ends within tens of µs; the first check
        // (every quarter of the 10 ms timeout) after it is at 2.5 ms.
        NS_TEST_ASSERT_MSG_EQ(r.detectedAt, MicroSeconds(2500), "at the first check");
        NS_TEST_ASSERT_MSG_EQ(r.stuckQueuePairs, 0, "no queue pair has data outstanding");
        NS_TEST_ASSERT_MSG_EQ((r.stuckOps == std::vector<uint64_t>{handle}),
                              true,
                              "the orphan is the stuck operation");
        runner.reset();
    }
};

class RunWatchdogTestSuite : public TestSuite
{
public:
    RunWatchdogTestSuite()
        : TestSuite("mcast4ai-run-watchdog", TestSuite::Type::UNIT)
    {
        AddTestCase(new FindCycleTestCase());
        AddTestCase(new RingDeadlockTestCase());
        AddTestCase(new RingWithoutCycleTestCase());
        AddTestCase(new IdleIsNoStallTestCase());
        AddTestCase(new LivelockTestCase());
        AddTestCase(new AutoTimeoutTestCase());
        AddTestCase(new NothingScheduledTestCase());
    }
};

RunWatchdogTestSuite g_runWatchdogTestSuite;

} // namespace
