/*
 * The model extension points, used as a user would: a P2MP mechanism, a path-choice mode and a
 * congestion-control model defined only in this file register their names and keys of their
 * own; a scenario selects them from JSON, its keys are validated and documented like the
 * library's, and each key sets the attribute it names without an edit anywhere else. Each
 * model is checked against a closed form, which the library's model in its place fails:
 *
 * - "test-narrow-bier": BIER whose BitString length is its own key. One copy per set
 *   identifier leaves the root: ceil(receivers / length) copies of the message.
 * - "test-fixed-port": every switch takes the equal-cost port its key names, so every flow
 *   crosses the spine of that index, and two flows from one leaf share its uplink.
 * - "test-fixed-rate": every queue pair is paced at the rate its key names, so a flow of B
 *   bytes takes its packets' wire bytes at that rate.
 */
#include "fabric/model/path-choice.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "p2mp/model/bier-delivery.h"
#include "rdma/model/rdma-congestion-control.h"
#include "scenario/model/scenario-error.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "test-fabric.h"

#include <cmath>
#include <sstream>

using namespace ns3;
using namespace ns3::test;

namespace
{

/// BIER with a BitString length of its own choosing (an inherited attribute).
class NarrowBierTestDelivery : public BierDelivery
{
public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::NarrowBierTestDelivery")
                                .SetParent<BierDelivery>()
                                .SetGroupName("Mcast4aiTest")
                                .AddConstructor<NarrowBierTestDelivery>();
        return tid;
    }
};

NS_OBJECT_ENSURE_REGISTERED(NarrowBierTestDelivery);

void
DeclareNarrowBier(ConfigSchemaObject& o)
{
    o.IntegerIn("set_bits", {64, 128, 256})
        .Unit("bits")
        .Doc("BitString length")
        .Attribute("BslBits");
}

/// Every switch takes the equal-cost port at index Port (modulo their number).
class FixedPortTestPathChoice : public PathChoice
{
public:
    static TypeId GetTypeId()
    {
        static TypeId tid
            = TypeId("ns3::FixedPortTestPathChoice")
                  .SetParent<PathChoice>()
                  .SetGroupName("Mcast4aiTest")
                  .AddConstructor<FixedPortTestPathChoice>()
                  .AddAttribute("Port",
                                "Index of the equal-cost port every frame takes",
                                UintegerValue(0),
                                MakeUintegerAccessor(&FixedPortTestPathChoice::m_port),
                                MakeUintegerChecker<uint32_t>());
        return tid;
    }

    uint16_t Choose(const FrameInfo& /* fi */, const std::vector<uint16_t>& hops) override
    {
        return hops[m_port % hops.size()];
    }

private:
    uint32_t m_port{0};
};

NS_OBJECT_ENSURE_REGISTERED(FixedPortTestPathChoice);

void
DeclareFixedPort(ConfigSchemaObject& lb)
{
    lb.Integer("test_port", 0, 63)
        .Auto("0")
        .Doc("test-fixed-port: the equal-cost port every switch takes")
        .Attribute("Port");
}

/// Paces every queue pair at Rate (at most the line rate), whatever the network says.
class FixedRateTestCc : public RdmaCongestionControl
{
public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::FixedRateTestCc")
                                .SetParent<RdmaCongestionControl>()
                                .SetGroupName("Mcast4aiTest")
                                .AddConstructor<FixedRateTestCc>()
                                .AddAttribute("Rate",
                                              "The pacing rate of every queue pair",
                                              DataRateValue(DataRate("25Gbps")),
                                              MakeDataRateAccessor(&FixedRateTestCc::m_rate),
                                              MakeDataRateChecker());
        return tid;
    }

    void SetLineRate(DataRate rate) override
    {
        m_rate = std::min(m_rate, rate);
    }

    void ReceiveCnp() override
    {
    }

    void BytesSent(uint32_t /* wireBytes */) override
    {
    }

    Time PacingDelay(uint32_t wireBytes) const override
    {
        return m_rate.CalculateBytesTxTime(wireBytes);
    }

    DataRate GetRate() const override
    {
        return m_rate;
    }

    DataRate GetMinRate() const override
    {
        return m_rate;
    }

private:
    DataRate m_rate;
};

NS_OBJECT_ENSURE_REGISTERED(FixedRateTestCc);

void
DeclareFixedRate(ConfigSchemaObject& o)
{
    o.Number("rate_gbps", ConfigSchemaBounds::Above(0))
        .Unit("Gb/s")
        .Doc("the pacing rate of every queue pair")
        .Attribute("Rate");
}

/// Registers the three models for one test case, and takes them out again.
class WithTestModels
{
public:
    WithTestModels()
    {
        P2mpDelivery::Registry().Add(
            "test-narrow-bier",
            NarrowBierTestDelivery::GetTypeId(),
            {"test_narrow", "a BIER of the test's own", &DeclareNarrowBier});
        PathChoice::Registry().Add(
            "test-fixed-port", FixedPortTestPathChoice::GetTypeId(), {"", "", &DeclareFixedPort});
        RdmaCongestionControl::Registry().Add(
            "test-fixed-rate",
            FixedRateTestCc::GetTypeId(),
            {"test_fixed", "a fixed pacing rate", &DeclareFixedRate});
    }

    ~WithTestModels()
    {
        P2mpDelivery::Registry().Remove("test-narrow-bier");
        PathChoice::Registry().Remove("test-fixed-port");
        RdmaCongestionControl::Registry().Remove("test-fixed-rate");
    }

    WithTestModels(const WithTestModels&) = delete;
    WithTestModels& operator=(const WithTestModels&) = delete;
};

/// The scenario's first error, or "" when it parses.
std::string
ErrorOf(const std::string& json)
{
    try
    {
        Scenario::Parse(json, "ext.json", {});
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

const char* const LINKS = R"("host_link": {"rate_gbps": 100, "delay_us": 1},
                             "fabric_link": {"rate_gbps": 100, "delay_us": 1})";

class ModelKeysTestCase : public TestCase
{
public:
    ModelKeysTestCase()
        : TestCase("a model's own keys are validated, documented and rejected out of context")
    {
    }

private:
    void DoRun() override
    {
        WithTestModels models;
        auto scenario = [](const std::string& sections)
        {
            return std::string(R"({"topology": {"kind": "leaf-spine", "leaves": 1,
                "spines": 1, "hosts_per_leaf": 2}, )")
                   + sections +
                   R"(, "workloads": [{"type": "flows", "pattern": "list",
                "flows": [{"src": 0, "dst": 1, "bytes": 1024}]}]})";
        };
        NS_TEST_ASSERT_MSG_EQ(ErrorOf(scenario(R"("p2mp": {"mechanism": "test-narrow-bier",
                                         "test_narrow": {"set_bits": 64}})")),
                              "",
                              "the mechanism and its key parse");
        std::string e = ErrorOf(scenario(R"("p2mp": {"test_narrow": {"set_bits": 100}})"));
        NS_TEST_ASSERT_MSG_NE(e.find("p2mp.test_narrow.set_bits"),
                              std::string::npos,
                              "a bad value names its path: " + e);
        e = ErrorOf(scenario(R"("p2mp": {"test_narrow": {"bits": 64}})"));
        NS_TEST_ASSERT_MSG_NE(e.find("known keys: set_bits"),
                              std::string::npos,
                              "an unknown key lists the model's keys: " + e);
        e = ErrorOf(scenario(R"("load_balancing": {"mode": "ecmp", "test_port": 1})"));
        NS_TEST_ASSERT_MSG_NE(e.find("applies only to load_balancing.mode 'test-fixed-port'"),
                              std::string::npos,
                              "a mode's key with another mode is an error: " + e);
        NS_TEST_ASSERT_MSG_EQ(
            ErrorOf(scenario(R"("load_balancing": {"mode": "test-fixed-port", "test_port": 1})")),
            "",
            "the mode and its key parse");
        e = ErrorOf(scenario(R"("nic": {"congestion_control": "test-fixed-rate",
                                        "test_fixed": {"rate_gbps": 0}})"));
        NS_TEST_ASSERT_MSG_NE(e.find("nic.test_fixed.rate_gbps"),
                              std::string::npos,
                              "a bad rate names its path: " + e);

        const std::string md = Scenario::SchemaMarkdown();
        for (const char* row : {"`p2mp.test_narrow.set_bits`",
                                "`load_balancing.test_port`",
                                "`nic.test_fixed.rate_gbps`"})
        {
            NS_TEST_ASSERT_MSG_NE(md.find(row), std::string::npos, "the reference documents it");
        }
        // The default is the attribute's initial value: declared once.
        const std::string::size_type row = md.find("| `nic.test_fixed.rate_gbps` |");
        const std::string line = md.substr(row, md.find('\n', row) - row);
        NS_TEST_ASSERT_MSG_NE(line.find("| `25.0` | Gb/s |"),
                              std::string::npos,
                              "rate_gbps defaults to the attribute's 25 Gb/s: " + line);
    }
};

/// Bytes of RDMA payload the root's NIC sent for one broadcast over 128 hosts.
uint64_t
RootBytes(const std::string& p2mp, uint64_t bytes)
{
    std::ostringstream s;
    s << R"({"name": "narrow", "stop_time_ms": 20,
        "topology": {"kind": "leaf-spine", "leaves": 4, "spines": 2, "hosts_per_leaf": 32, )"
      << LINKS << R"(}, "nic": {"dcqcn": {"enabled": false}}, "p2mp": )" << p2mp
      << R"(, "workloads": [{"type": "broadcast", "algorithm": "multicast", "root": 0,
        "bytes": )"
      << bytes << "}]}";
    ScenarioConfig c = Scenario::Parse(s.str(), "narrow.json", {});
    ScenarioRunner::UsePicoseconds();
    ScenarioRunner runner(c);
    runner.Build();
    if (!runner.Run())
    {
        return 0;
    }
    return runner.GetFabric().GetNic(0)->GetCounters().dataBytes;
}

class NarrowBierTestCase : public TestCase
{
public:
    NarrowBierTestCase()
        : TestCase("a P2MP mechanism defined in a test: ceil(127 over BSL) copies leave the root")
    {
    }

private:
    void DoRun() override
    {
        WithTestModels models;
        constexpr uint64_t B = 65536;
        const uint64_t narrow64
            = RootBytes(R"({"mechanism": "test-narrow-bier", "test_narrow": {"set_bits": 64}})", B);
        const uint64_t narrow128 = RootBytes(
            R"({"mechanism": "test-narrow-bier", "test_narrow": {"set_bits": 128}})", B);
        const uint64_t bier = RootBytes(R"({"mechanism": "bier"})", B);
        // BFR-ids 1..128: with 64 bits, receivers 1..63 and 64..127 are two set identifiers.
        NS_TEST_ASSERT_MSG_EQ(narrow64, 2 * B, "two copies at 64 bits");
        NS_TEST_ASSERT_MSG_EQ(narrow128, B, "one copy at 128 bits");
        NS_TEST_ASSERT_MSG_NE(bier, 2 * B, "the library's BIER (256 bits) fails the 64-bit form");
    }
};

/// The spine each flow crossed and the longest flow, with load_balancing `lb`.
struct FixedPortRun
{
    std::vector<int> spines;
    double longestUs{0};
};

FixedPortRun
RunFixedPort(const std::string& lb, uint64_t bytes)
{
    std::ostringstream s;
    s << R"({"name": "fixed-port", "stop_time_ms": 20,
        "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 2, )"
      << LINKS << R"(}, "nic": {"dcqcn": {"enabled": false}}, "load_balancing": )" << lb
      << R"(, "workloads": [{"type": "flows", "pattern": "list", "flows": [
        {"src": 0, "dst": 2, "bytes": )"
      << bytes << R"(}, {"src": 1, "dst": 3, "bytes": )" << bytes << "}]}]}";
    ScenarioOutcome o = RunScenarioJson(s.str(), "fixed-port.json");
    FixedPortRun r;
    for (std::size_t i = 0; i < o.ops.size(); ++i)
    {
        const std::string::size_type at = o.path[i].find(">spine");
        r.spines.push_back(at == std::string::npos ? -1 : std::stoi(o.path[i].substr(at + 6)));
        r.longestUs = std::max(r.longestUs, (o.ops[i].end - o.ops[i].start).GetSeconds() * 1e6);
    }
    return r;
}

class FixedPortTestCase : public TestCase
{
public:
    FixedPortTestCase()
        : TestCase("a path-choice mode defined in a test: every flow crosses the spine its key "
                   "names, and two flows share one uplink")
    {
    }

private:
    void DoRun() override
    {
        WithTestModels models;
        constexpr uint64_t B = 1 << 20;
        // Both flows' packets at 100 Gb/s, one after the other on the shared uplink.
        const double sharedUs
            = 2.0 * PacketsOf(B, 1024) * WireSeconds(1024 + ROCE_HEADER_BYTES, 100) * 1e6;
        for (uint32_t port : {0u, 1u})
        {
            FixedPortRun r = RunFixedPort(
                R"({"mode": "test-fixed-port", "test_port": )" + std::to_string(port) + "}", B);
            NS_TEST_ASSERT_MSG_EQ(r.spines.size(), 2u, "two flows");
            for (int spine : r.spines)
            {
                NS_TEST_ASSERT_MSG_EQ(spine, int(port), "the flow crossed the spine named");
            }
            NS_TEST_ASSERT_MSG_GT_OR_EQ(
                r.longestUs, 0.98 * sharedUs, "the two flows shared one uplink");
        }
        // The wrong model: a spine other than the one named.
        FixedPortRun other = RunFixedPort(R"({"mode": "test-fixed-port", "test_port": 1})", B);
        NS_TEST_ASSERT_MSG_NE(other.spines[0], 0, "port 1 is not spine 0");
    }
};

/// The duration of one 1 MiB flow inside a leaf, in µs, under `nic`.
double
FlowUs(const std::string& nic)
{
    std::ostringstream s;
    s << R"({"name": "fixed-rate", "stop_time_ms": 20,
        "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 2, )"
      << LINKS << R"(}, "nic": )" << nic << R"(, "workloads": [{"type": "flows",
        "pattern": "list", "flows": [{"src": 0, "dst": 1, "bytes": 1048576}]}]})";
    ScenarioOutcome o = RunScenarioJson(s.str(), "fixed-rate.json");
    return o.complete ? (o.ops[0].end - o.ops[0].start).GetSeconds() * 1e6 : 0;
}

class FixedRateTestCase : public TestCase
{
public:
    FixedRateTestCase()
        : TestCase("a congestion control defined in a test: a flow takes its wire bytes at the "
                   "rate its key names")
    {
    }

private:
    void DoRun() override
    {
        WithTestModels models;
        auto closedFormUs = [](double gbps)
        {
            return PacketsOf(1 << 20, 1024) * WireSeconds(1024 + ROCE_HEADER_BYTES, gbps) * 1e6;
        };
        for (double gbps : {25.0, 40.0})
        {
            std::ostringstream nic;
            nic << R"({"congestion_control": "test-fixed-rate", "test_fixed": {"rate_gbps": )"
                << gbps << "}}";
            const double us = FlowUs(nic.str());
            // Plus one frame's way to the receiver and its ACK's way back: a few µs.
            NS_TEST_ASSERT_MSG_EQ_TOL(
                us, closedFormUs(gbps) + 5, 5, "1 MiB at " << gbps << " Gb/s, got " << us << " us");
        }
        // The wrong model: DCQCN on an idle fabric sends at line rate.
        const double dcqcn = FlowUs(R"({"congestion_control": "dcqcn"})");
        NS_TEST_ASSERT_MSG_GT(std::abs(dcqcn - closedFormUs(25) - 5),
                              5,
                              "DCQCN fails the 25 Gb/s form, at " << dcqcn << " us");
    }
};

class ModelExtensionTestSuite : public TestSuite
{
public:
    ModelExtensionTestSuite()
        : TestSuite("mcast4ai-model-extension", TestSuite::Type::UNIT)
    {
        AddTestCase(new ModelKeysTestCase());
        AddTestCase(new NarrowBierTestCase());
        AddTestCase(new FixedPortTestCase());
        AddTestCase(new FixedRateTestCase());
    }
};

ModelExtensionTestSuite g_modelExtensionTestSuite;

} // namespace
