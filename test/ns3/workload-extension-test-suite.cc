/*
 * The workload extension point, used as a user would: a workload type defined only in this
 * file registers its name, the runner creates it from a scenario without knowing it, and it
 * sends P2MP messages through whatever p2mp.mechanism the scenario selects without knowing
 * that either. Checked against paper numbers: N copies leave the root per message by unicast,
 * one by BIER and by the new protocol (one set identifier), so the root's serialisation takes
 * at least N x B x 8 / R by unicast and about B x 8 / R by multicast; each round starts only
 * when the previous one has completed.
 */
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "p2mp/model/p2mp-channel.h"
#include "scenario/model/scenario-error.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "test-fabric.h"
#include "workload/model/workload-type-registry.h"
#include "workload/model/workload.h"

#include <memory>

using namespace ns3;
using namespace ns3::test;

namespace
{

/// The keys of a test-fanout entry of its own; `rounds` is an attribute.
struct FanoutKeys
{
    uint64_t bytes{0};
};

/**
 * "test-fanout": the first rank sends `rounds` messages of `bytes` to every other host, one
 * after the other: round k+1 starts when round k is done. Its keys reach it both ways a
 * workload's may (docs/extending.md): `rounds` sets its attribute Rounds, `bytes` is read into
 * its own struct.
 */
class FanoutTestWorkload : public Workload
{
public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::FanoutTestWorkload")
                                .SetParent<Workload>()
                                .SetGroupName("Mcast4aiTest")
                                .AddConstructor<FanoutTestWorkload>()
                                .AddAttribute("Rounds",
                                              "Messages, one after the other",
                                              UintegerValue(1),
                                              MakeUintegerAccessor(&FanoutTestWorkload::m_rounds),
                                              MakeUintegerChecker<uint32_t>(1, 1000));
        return tid;
    }

    void Report(std::map<std::string, double>& figures) const override
    {
        figures["test_rounds_done"] = m_done;
        figures["test_deliveries"] = m_deliveries;
        figures["test_copies_per_round"] = m_channel->GetCopies() / m_rounds;
    }

protected:
    void DoDispose() override
    {
        m_channel = nullptr;
        Workload::DoDispose();
    }

    void DoInstall() override
    {
        m_bytes = ReadKeys<FanoutKeys>().bytes; // m_rounds: set from `rounds` already
        std::vector<uint32_t> others;
        for (uint32_t h = 1; h < GetHostCount(); ++h)
        {
            others.push_back(h);
        }
        m_receivers = std::make_shared<const std::vector<uint32_t>>(others);
        m_channel = m_context.delivery->CreateChannel(
            0, others, 0x900000, MakeCallback(&FanoutTestWorkload::Port, this));
        m_channel->SetDoneCallback(MakeCallback(&FanoutTestWorkload::Done, this));
        m_channel->SetDeliveredCallback(MakeCallback(&FanoutTestWorkload::Delivered, this));
        for (uint32_t r = 0; r < m_rounds; ++r)
        {
            Metrics::OpRecord rec;
            rec.op = r;
            rec.iteration = r;
            rec.rank = 0;
            rec.src = 0;
            rec.bytes = m_bytes;
            rec.receivers = others.size();
            m_handles.push_back(AddOp(rec));
        }
        Simulator::ScheduleNow(&FanoutTestWorkload::Round, this, 0u);
    }

private:
    uint16_t Port()
    {
        return static_cast<uint16_t>(49152 + (m_nextPort++ % 16384));
    }

    void Round(uint32_t r)
    {
        StartOp(m_handles[r]);
        m_channel->Send(r, m_receivers, m_bytes);
    }

    void Delivered(uint64_t round, uint32_t receiver, uint64_t /* bytes */)
    {
        ++m_deliveries;
    }

    void Done(uint64_t round)
    {
        CompleteOp(m_handles[round]);
        ++m_done;
        if (round + 1 < m_rounds)
        {
            Round(round + 1);
        }
    }

    uint32_t m_rounds{1};
    uint64_t m_bytes{0};
    uint32_t m_nextPort{0};
    uint32_t m_done{0};
    uint32_t m_deliveries{0};
    std::shared_ptr<const std::vector<uint32_t>> m_receivers;
    Ptr<P2mpChannel> m_channel;
    std::vector<uint64_t> m_handles;
};

NS_OBJECT_ENSURE_REGISTERED(FanoutTestWorkload);
void
DeclareFanout(ConfigSchemaObject& w)
{
    w.BindStruct<FanoutKeys>();
    w.Integer("rounds", 1, 1000).Doc("messages, one after the other").Attribute("Rounds");
    w.Integer("bytes", 1)
        .Default(65536)
        .Unit("bytes")
        .Doc("size of every message")
        .Bind(&FanoutKeys::bytes);
}

MCAST4AI_REGISTER_WORKLOAD("test-fanout",
                           FanoutTestWorkload,
                           &DeclareFanout,
                           "the first host sends rounds of messages to all others");

constexpr uint32_t HOSTS = 8;
constexpr uint32_t ROUNDS = 3;
constexpr uint64_t BYTES = 1 << 20;

ScenarioConfig
FanoutScenario(const std::string& mechanism)
{
    ScenarioConfig c = LeafSpine(1, 1, HOSTS, "fanout-" + mechanism);
    c.stopTimeMs = 100;
    c.nic.dcqcn.enabled = false;
    c.p2mp.mechanism = mechanism;
    c.p2mp.ackAggregation = mechanism == "new-protocol" ? "source-tor" : "none";
    WorkloadConfig w;
    w.type = "test-fanout";
    w.label = "fanout";
    w.spec = {{"type", "test-fanout"}, {"rounds", ROUNDS}, {"bytes", BYTES}};
    c.workloads.push_back(w);
    return c;
}

class FanoutTestCase : public TestCase
{
public:
    explicit FanoutTestCase(std::string mechanism)
        : TestCase("a workload defined outside the library runs over '" + mechanism + "'"),
          m_mechanism(std::move(mechanism))
    {
    }

private:
    void DoRun() override
    {
        ScenarioRunner runner(FanoutScenario(m_mechanism));
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.GetWorkload(0)->GetInstanceTypeId(),
                              FanoutTestWorkload::GetTypeId(),
                              "the runner created the registered class");
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "every round completes");
        nlohmann::json s = runner.Summary();
        const nlohmann::json& w = s["workloads"][0];
        const uint32_t receivers = HOSTS - 1;
        NS_TEST_ASSERT_MSG_EQ(w["ops"].get<uint64_t>(), ROUNDS, "one op per round");
        NS_TEST_ASSERT_MSG_EQ(w["test_rounds_done"].get<double>(), ROUNDS, "Report() reached");
        NS_TEST_ASSERT_MSG_EQ(w["test_deliveries"].get<double>(),
                              ROUNDS * receivers,
                              "every receiver gets every round");
        bool multicast = m_mechanism != "unicast";
        double copies = multicast ? 1.0 : double(receivers);
        NS_TEST_ASSERT_MSG_EQ(w["test_copies_per_round"].get<double>(),
                              copies,
                              "copies leaving the root: N by unicast, 1 by multicast");

        // Real dependencies: a round starts when the previous one has ended.
        const auto& ops = runner.GetMetrics()->GetOps();
        for (uint32_t r = 1; r < ROUNDS; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(ops[r].start, ops[r - 1].end, "round follows round");
        }
        // The root's serialisation: N payloads by unicast, one by multicast (100 Gb/s links).
        // A multicast message costs at most its packets' wire bytes (payload + 58 bytes of
        // RoCEv2 headers + at most 44 of BIER + 24 of framing per 1024-byte packet), the new
        // protocol's 10 us group installation, and 10 us of cables, switch and ACK path.
        double payloadUs = BYTES * 8.0 / 100e9 * 1e6;
        double firstUs = (ops[0].end - ops[0].start).GetSeconds() * 1e6;
        if (multicast)
        {
            double installUs = m_mechanism == "new-protocol" ? 10 : 0;
            double bound = payloadUs * (1024.0 + 58 + 44 + 24) / 1024 + installUs + 10;
            NS_TEST_ASSERT_MSG_LT(firstUs, bound, "one copy serialised at the root");
            NS_TEST_ASSERT_MSG_GT(firstUs, payloadUs, "at least the payload's time");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT(firstUs, receivers * payloadUs, "N copies serialised");
        }
    }

    std::string m_mechanism;
};

/// The same type from a scenario file: its keys validate and default like any built-in one.
class FanoutFromJsonTestCase : public TestCase
{
public:
    FanoutFromJsonTestCase()
        : TestCase("a workload defined outside the library runs from JSON, keys validated")
    {
    }

private:
    void DoRun() override
    {
        const std::string text = R"({
          "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 4},
          "nic": {"dcqcn": {"enabled": false}},
          "p2mp": {"mechanism": "bier"},
          "workloads": [{"type": "test-fanout", "rounds": 2}]
        })";
        ScenarioConfig c = Scenario::Parse(text, "fanout.json", {});
        NS_TEST_ASSERT_MSG_EQ(c.workloads[0].spec["bytes"].get<uint64_t>(),
                              65536,
                              "the declared default is filled in");
        NS_TEST_ASSERT_MSG_EQ(c.workloads[0].label, "test-fanout-0", "labelled like any type");
        ScenarioRunner runner(c);
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "both rounds complete");
        nlohmann::json w = runner.Summary()["workloads"][0];
        NS_TEST_ASSERT_MSG_EQ(w["test_deliveries"].get<double>(), 2 * 3, "3 receivers, 2 rounds");

        bool rejected = false;
        try
        {
            Scenario::Parse(text, "fanout.json", {"workloads[0].rounds=0"});
        }
        catch (const ScenarioError& e)
        {
            rejected = e.GetPath() == "workloads[0].rounds";
        }
        NS_TEST_ASSERT_MSG_EQ(rejected, true, "an out-of-range key is an error at its path");
    }
};

class WorkloadExtensionTestSuite : public TestSuite
{
public:
    WorkloadExtensionTestSuite()
        : TestSuite("mcast4ai-workload-extension", TestSuite::Type::UNIT)
    {
        for (const char* m : {"unicast", "bier", "bier-xpu-list", "new-protocol"})
        {
            AddTestCase(new FanoutTestCase(m));
        }
        AddTestCase(new FanoutFromJsonTestCase());
    }
};

WorkloadExtensionTestSuite g_workloadExtensionTestSuite;

} // namespace
