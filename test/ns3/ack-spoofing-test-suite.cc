/*
 * Aggregated-ACK spoofing (docs/robustness.md "ACK spoofing"), on
 * scenarios/robustness/ack-spoofing.json: host 0 broadcasts 8 x 256 KiB to 13 receivers of a
 * 4-leaf fabric, one of them (host 9) behind a link slowed to 25 Gb/s; an attacker forges,
 * every 2 µs, an ACK in every other host's name for the highest PSN host 0 has sent.
 *
 * - The attacker on the root's leaf (host 1), with ACK validation: every forgery that
 *   reached a switch is refused (forged - refused is at most the one round of 14 still on
 *   its way when the run stops), and the broadcast's durations equal the run without the
 *   attacker's forgeries to the picosecond, for source-tor and hop-by-hop aggregation.
 * - The same with validation off and source-tor aggregation: the root frees data before
 *   the receivers have it (the P2MP delivery invariant reports deliveries missing) and its
 *   messages "complete" sooner. That is the harm, measured.
 * - An attacker on another leaf (host 13) speaking for receivers on other leaves arrives on
 *   an uplink, where the source ToR cannot tell it from a receiver: with source-tor
 *   aggregation it still does harm, with hop-by-hop (a port per subtree) it does none (the
 *   durations equal the baseline's), and ingress source validation at its own ToR stops it
 *   whatever aggregates.
 * - A forgery for a PSN beyond every message announced is refused as outside the window.
 */
#include "dcqcn-test-helpers.h"
#include "ns3/test.h"
#include "p2mp/model/p2mp-delivery.h"
#include "scenario/model/scenario-runner.h"

using namespace ns3;
using namespace ns3::test;

namespace
{

struct Outcome
{
    nlohmann::json summary;
    uint64_t undelivered{0};
    uint64_t forged{0};
    uint64_t refused{0};       ///< by aggregators and roots
    uint64_t sourceRefused{0}; ///< by the ToRs' source guards
    std::vector<double> durations;
};

Outcome
RunSpoofing(const std::map<std::string, nlohmann::json>& sets)
{
    nlohmann::json j = ReadScenarioFile("robustness", "ack-spoofing.json");
    for (const auto& [path, value] : sets)
    {
        j[nlohmann::json::json_pointer(path)] = value;
    }
    j["output"]["dir"] = "/tmp/mcast4ai-test-ack-spoofing";
    ScenarioConfig c = Scenario::Parse(j.dump(), "ack-spoofing.json", {});
    ScenarioRunner::UsePicoseconds();
    ScenarioRunner runner(c);
    runner.Build();
    runner.Run();
    Outcome o;
    o.summary = runner.Summary();
    o.undelivered = runner.GetFabric().GetDelivery()->GetUndelivered();
    const nlohmann::json& net = o.summary["network"];
    for (const auto& [why, n] : net["acks_refused"].items())
    {
        o.refused += n.get<uint64_t>();
    }
    o.sourceRefused = net["source_refused"].get<uint64_t>();
    const nlohmann::json& attacker = o.summary["workloads"][1];
    o.forged = attacker.value("forged_acks", 0.0);
    for (const std::string key : {"mean", "max", "p50"})
    {
        o.durations.push_back(o.summary["workloads"][0]["duration_us"][key].get<double>());
    }
    Simulator::Destroy();
    return o;
}

/// The attacker starts after the broadcast is over: the run without forgeries.
Outcome
Baseline(const std::string& aggregation)
{
    return RunSpoofing({{"/p2mp/ack_aggregation", aggregation}, {"/workloads/1/start_us", 1e6}});
}

constexpr uint64_t ROUND = 14; // forgeries per round: every host but the attacker and root

class LocalAttackerTestCase : public TestCase
{
public:
    LocalAttackerTestCase()
        : TestCase("an attacker on the root's leaf is refused with validation, harms without")
    {
    }

private:
    void DoRun() override
    {
        for (const std::string agg : {"source-tor", "hop-by-hop"})
        {
            const Outcome base = Baseline(agg);
            NS_TEST_ASSERT_MSG_EQ(base.forged, 0, "the baseline forges nothing");
            NS_TEST_ASSERT_MSG_EQ(base.undelivered, 0, agg << ": baseline delivers everything");
            const Outcome o = RunSpoofing({{"/p2mp/ack_aggregation", agg}});
            NS_TEST_ASSERT_MSG_GT(o.forged, 1000, agg << ": the attacker forged all along");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(o.forged - o.refused,
                                        ROUND,
                                        agg << ": every forgery that reached a switch refused");
            NS_TEST_ASSERT_MSG_EQ(o.undelivered, 0, agg << ": no data freed early");
            for (size_t i = 0; i < base.durations.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(o.durations[i],
                                      base.durations[i],
                                      agg << ": the root's window moved as without forgeries");
            }
        }
        // Validation off, source-tor: the ToR takes the forgeries for its receivers' ACKs.
        const Outcome base = Baseline("source-tor");
        const Outcome harmed = RunSpoofing({{"/p2mp/ack_validation", false}});
        NS_TEST_ASSERT_MSG_EQ(harmed.refused, 0, "nothing refused without validation");
        NS_TEST_ASSERT_MSG_GT(harmed.undelivered, 0, "data freed before receivers had it");
        NS_TEST_ASSERT_MSG_LT(
            harmed.durations[0], base.durations[0], "the root believes its messages done sooner");
    }
};

class RemoteAttackerTestCase : public TestCase
{
public:
    RemoteAttackerTestCase()
        : TestCase("an attacker on another leaf: source-tor cannot tell, hop-by-hop and the "
                   "source guard can")
    {
    }

private:
    void DoRun() override
    {
        const std::map<std::string, nlohmann::json> remote = {{"/workloads/1/host", 13}};
        auto with = [&remote](std::map<std::string, nlohmann::json> more)
        {
            more.insert(remote.begin(), remote.end());
            return RunSpoofing(more);
        };
        // Source-tor, validation on: ACKs for remote receivers come in on uplinks, where a
        // forgery from a third leaf looks the same; the slow receiver's data is freed early.
        const Outcome tor = with({{"/p2mp/ack_aggregation", "source-tor"}});
        NS_TEST_ASSERT_MSG_GT(tor.refused, 0, "forgeries for the root's own leaf are refused");
        NS_TEST_ASSERT_MSG_GT(tor.undelivered, 0, "but the others get through");

        // Hop-by-hop: each subtree is a port, and the forger's port leads to none of them.
        const Outcome base = Baseline("hop-by-hop");
        const Outcome hop = with({{"/p2mp/ack_aggregation", "hop-by-hop"}});
        // (Forgeries that reach an aggregation point not yet holding the flow, or that claim
        // less than the aggregate already sent, are passed on or ignored, not counted.)
        NS_TEST_ASSERT_MSG_GT(hop.refused, hop.forged / 2, "most forgeries refused");
        NS_TEST_ASSERT_MSG_EQ(hop.undelivered, 0, "no data freed early");
        NS_TEST_ASSERT_MSG_EQ(hop.durations[1], base.durations[1], "the broadcast unharmed");

        // Ingress source validation stops it at its own ToR, whatever aggregates, even with
        // the aggregators' validation off.
        for (const std::string agg : {"source-tor", "sender-nic"})
        {
            const Outcome b = Baseline(agg);
            const Outcome g = with({{"/p2mp/ack_aggregation", agg},
                                    {"/p2mp/ack_validation", false},
                                    {"/switch/source_validation", true}});
            NS_TEST_ASSERT_MSG_LT_OR_EQ(
                g.forged - g.sourceRefused, ROUND, agg << ": refused at the attacker's ToR");
            NS_TEST_ASSERT_MSG_EQ(g.undelivered, 0, agg << ": no data freed early");
            NS_TEST_ASSERT_MSG_EQ(g.durations[1], b.durations[1], agg << ": unharmed");
            NS_TEST_ASSERT_MSG_EQ(g.summary["network"]["drops"].get<uint64_t>(),
                                  g.sourceRefused,
                                  agg << ": the refused frames are the only drops");
        }
    }
};

class WindowTestCase : public TestCase
{
public:
    WindowTestCase()
        : TestCase("an ACK for a PSN beyond what a receiver was sent is refused")
    {
    }

private:
    void DoRun() override
    {
        // At the root's NIC (sender-nic) no port can be checked: only membership and the
        // window. 2^16 PSNs ahead is past every message (256 packets each) ever announced.
        const Outcome o = RunSpoofing(
            {{"/p2mp/ack_aggregation", "sender-nic"}, {"/workloads/1/psn_offset", 65536}});
        const nlohmann::json& r = o.summary["network"]["acks_refused"];
        NS_TEST_ASSERT_MSG_GT(r["outside_window"].get<uint64_t>(), 0, "refused as outside");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(o.forged - o.refused, ROUND, "every forgery refused");
        NS_TEST_ASSERT_MSG_EQ(o.undelivered, 0, "no data freed early");
    }
};

class AckSpoofingTestSuite : public TestSuite
{
public:
    AckSpoofingTestSuite()
        : TestSuite("mcast4ai-ack-spoofing", TestSuite::Type::UNIT)
    {
        AddTestCase(new LocalAttackerTestCase());
        AddTestCase(new RemoteAttackerTestCase());
        AddTestCase(new WindowTestCase());
    }
};

AckSpoofingTestSuite g_ackSpoofingTestSuite;

} // namespace
