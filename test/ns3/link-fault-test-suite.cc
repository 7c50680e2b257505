/*
 * Link and NIC faults (docs/robustness.md "Link and NIC faults"), on
 * scenarios/robustness/link-failure.json: host 0 writes 4 MiB to host 2 across a 2 x 2
 * leaf-spine of 100 Gb/s, 1 µs links; leaf0 - spine0 fails at 100 µs and is back at 1000 µs,
 * and the routes follow each change 100 µs later.
 *
 * - On the uplink the flow does not use nothing is lost and the flow takes exactly as long as
 *   without the fault.
 * - On the one it uses, every data frame leaf0 sends into it between the failure and the
 *   routes moving is lost: the convergence time over one frame's wire time, plus the frames
 *   on the cable when it failed. The flow then loses that window and a round trip (the new
 *   path's first frame reveals the gap, the NAK brings the sender back): its duration exceeds
 *   the fault-free one by at least the convergence time and at most that plus two round trips.
 * - With one spine there is no other path: the frames the leaf cannot route are dropped as
 *   unroutable, and the flow cannot finish before the routes return.
 * - A link that never comes back leaves the flow stuck, and the watchdog stops the run
 *   naming it: reported, not silent.
 * - A receiver's NIC failing in the middle of a broadcast: each P2MP mechanism recovers by
 *   retransmission once it is back, every receiver has every message, and the message in
 *   flight at the failure cannot complete before the NIC returns.
 * - A receiver whose NIC never comes back stalls its broadcast until the watchdog, unless
 *   p2mp.receiver_timeout_us lets the aggregation point drop it: then every message completes
 *   and the ones it missed count their bytes as lost (scenarios/robustness/silent-receiver.json).
 * - A fault naming no node, or two nodes that are not neighbours, is an error naming its path.
 */
#include "dcqcn-test-helpers.h"
#include "fabric/model/fabric-net-device.h"
#include "fabric/model/op-ledger.h"
#include "ns3/test.h"
#include "p2mp/model/p2mp-delivery.h"
#include "scenario/model/result-writer.h"
#include "scenario/model/scenario-error.h"
#include "scenario/model/scenario-runner.h"
#include "workload/model/metrics.h"

#include <fstream>

using namespace ns3;
using namespace ns3::test;

namespace
{

struct Outcome
{
    nlohmann::json summary;
    bool complete{false};
    std::string stoppedBy;
    std::vector<std::string> stuck;
    double durationUs{0};
    uint64_t undelivered{0};
    /// leaf0's uplink ports (to spine0, spine1): bytes sent, and frames lost arriving at the
    /// spine end (data, host 0 -> host 2) and at the leaf end (ACKs coming back).
    uint64_t uplinkBytes[2]{0, 0};
    uint64_t dataLost[2]{0, 0};
    uint64_t ackLost[2]{0, 0};
    Time frameTime; ///< wire time of one of the flow's data frames
};

Outcome
RunFault(nlohmann::json j)
{
    j["output"]["dir"] = "/tmp/mcast4ai-test-link-fault";
    ScenarioConfig c = Scenario::Parse(j.dump(), "link-failure.json", {});
    ScenarioRunner::UsePicoseconds();
    ScenarioRunner runner(c);
    runner.Build();
    Outcome o;
    o.complete = runner.Run();
    o.summary = runner.Summary();
    o.stoppedBy = runner.GetStoppedBy();
    o.stuck = runner.StuckOps(4);
    o.durationUs = o.summary["workloads"][0]["duration_us"]["max"].get<double>();
    TopologyBuilder& f = runner.GetFabric();
    o.undelivered = f.GetDelivery()->GetUndelivered();
    const TopologyGraph& g = f.GetGraph();
    const uint32_t leaf0 = *g.FindNode("leaf0");
    if (g.HostCount() == 4)
    {
        Ptr<FabricSwitch> leaf = f.GetSwitch(leaf0 - g.HostCount());
        for (uint32_t s = 0; s < leaf->GetNPorts() - 2; ++s)
        {
            Ptr<FabricNetDevice> up = leaf->GetPort(2 + s);
            o.uplinkBytes[s] = up->GetTxBytes();
            o.ackLost[s] = up->GetLinkDownLosses();
            o.dataLost[s] = up->GetFabricChannel()->GetPeer(up)->GetLinkDownLosses();
        }
        Ptr<FabricNetDevice> host0 = f.GetNic(0)->GetDevice();
        o.frameTime = host0->FrameTime(host0->GetTxBytes() / host0->GetTxFrames());
    }
    Simulator::Destroy();
    return o;
}

nlohmann::json
FaultScenario(const std::string& to, double at, double up, double convergence)
{
    nlohmann::json j = ReadScenarioFile("robustness", "link-failure.json");
    nlohmann::json& f = j["faults"][0];
    f["to"] = to;
    f["at_us"] = at;
    f["up_us"] = up;
    f["convergence_us"] = convergence;
    return j;
}

class RerouteTestCase : public TestCase
{
public:
    RerouteTestCase()
        : TestCase("an uplink fails: frames lost for the convergence time, then rerouted")
    {
    }

private:
    void DoRun() override
    {
        constexpr double CONVERGENCE_US = 100;
        // The fault after the flow is over: the fault-free run.
        const Outcome base = RunFault(FaultScenario("spine0", 15000, 16000, CONVERGENCE_US));
        NS_TEST_ASSERT_MSG_EQ(base.complete, true, "the flow completes");
        const int used = base.uplinkBytes[0] > base.uplinkBytes[1] ? 0 : 1;
        NS_TEST_ASSERT_MSG_LT(base.uplinkBytes[1 - used], 1000, "ECMP: one uplink");
        // One-way: 4 links of 1 µs and one data frame each, 3 switch pipelines of 0.5 µs.
        const double frameUs = base.frameTime.ToDouble(Time::US);
        const double rttUs = 2 * (4 * (1.0 + frameUs) + 3 * 0.5);

        // The unused uplink: nothing lost, the same duration to the picosecond.
        const Outcome idle
            = RunFault(FaultScenario(used ? "spine0" : "spine1", 100, 1000, CONVERGENCE_US));
        NS_TEST_ASSERT_MSG_EQ(idle.complete, true, "completes");
        NS_TEST_ASSERT_MSG_EQ(idle.dataLost[1 - used] + idle.ackLost[1 - used], 0, "no loss");
        NS_TEST_ASSERT_MSG_EQ(idle.durationUs, base.durationUs, "unaffected");

        const Outcome hit
            = RunFault(FaultScenario(used ? "spine1" : "spine0", 100, 1000, CONVERGENCE_US));
        NS_TEST_ASSERT_MSG_EQ(hit.complete, true, "recovered by retransmission");
        // Frames sent into the dead link from 100 µs until the routes moved at 200 µs, plus
        // those on their way into spine0 when it failed: 1 µs of cable and its 0.5 µs
        // pipeline, over one frame time, rounded up.
        const double window = CONVERGENCE_US / frameUs;
        const double onCable = std::ceil(1.5 / frameUs);
        NS_TEST_ASSERT_MSG_GT_OR_EQ(double(hit.dataLost[used]), std::floor(window), "lost");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(double(hit.dataLost[used]),
                                    std::ceil(window) + onCable + 1,
                                    "no more than the window and the cable");
        const nlohmann::json& fault = hit.summary["faults"][0];
        // The run ends when the flow does, before the link is back at 1000 µs.
        NS_TEST_ASSERT_MSG_EQ(fault["converged_us"], nlohmann::json({200.0}), "routes at 200");
        NS_TEST_ASSERT_MSG_EQ(fault["frames_lost"].get<uint64_t>(),
                              hit.dataLost[used] + hit.ackLost[used],
                              "the fault counts both directions");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(hit.summary["network"]["retransmissions"].get<uint64_t>(),
                                    hit.dataLost[used],
                                    "every lost data frame sent again");
        const double extra = hit.durationUs - base.durationUs;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(extra, CONVERGENCE_US, "the lost window costs its length");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(extra, CONVERGENCE_US + 2 * rttUs, "and a round trip");
    }
};

class NoPathTestCase : public TestCase
{
public:
    NoPathTestCase()
        : TestCase("no other path: unroutable until the link is back; never back: reported")
    {
    }

private:
    void DoRun() override
    {
        nlohmann::json j = FaultScenario("spine0", 100, 1000, 100);
        j["topology"]["spines"] = 1;
        const Outcome o = RunFault(j);
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "recovered once the routes returned");
        NS_TEST_ASSERT_MSG_GT(o.summary["network"]["unroutable_drops"].get<uint64_t>(),
                              0,
                              "leaf0 could not route to leaf1 between 200 and 1100 µs");
        NS_TEST_ASSERT_MSG_GT(o.durationUs, 1100.0, "not before the routes came back");
        NS_TEST_ASSERT_MSG_EQ(o.summary["faults"][0]["converged_us"],
                              nlohmann::json({200.0, 1100.0}),
                              "routes around the link at 200 µs, back over it at 1100 µs");
        NS_TEST_ASSERT_MSG_EQ(o.undelivered, 0, "nothing missing");

        j["faults"][0].erase("up_us");
        const Outcome never = RunFault(j);
        NS_TEST_ASSERT_MSG_EQ(never.complete, false, "the flow cannot finish");
        NS_TEST_ASSERT_MSG_EQ(never.stoppedBy, "limits.watchdog_us", "the watchdog says so");
        NS_TEST_ASSERT_MSG_EQ(never.stuck.size(), 1u, "naming the stuck flow");
        NS_TEST_ASSERT_MSG_EQ(never.summary["faults"][0]["up_us"].is_null(), true, "never up");
    }
};

class NicDownTestCase : public TestCase
{
public:
    NicDownTestCase()
        : TestCase("a receiver's NIC fails mid-broadcast: every mechanism recovers")
    {
    }

private:
    void DoRun() override
    {
        // Host 0 broadcasts 8 x 256 KiB to the 15 others of a 4 x 2 x 4 leaf-spine; host 5's
        // NIC is down from 30 to 400 µs.
        nlohmann::json j = ReadScenarioFile("robustness", "link-failure.json");
        j["topology"]["leaves"] = 4;
        j["topology"]["hosts_per_leaf"] = 4;
        j["workloads"] = nlohmann::json::parse(R"([{"type": "broadcast", "algorithm": "multicast",
            "root": 0, "bytes": 262144, "messages": 8, "window": 2}])");
        j["faults"] = nlohmann::json::parse(
            R"([{"type": "nic-down", "host": 5, "at_us": 30, "up_us": 400}])");
        for (const std::string mech : {"bier", "bier-xpu-list", "new-protocol"})
        {
            for (const std::string agg : {"source-tor", "hop-by-hop", "sender-nic"})
            {
                j["p2mp"] = {{"mechanism", mech}, {"ack_aggregation", agg}};
                const Outcome o = RunFault(j);
                const std::string what = mech + " " + agg;
                NS_TEST_ASSERT_MSG_EQ(o.complete, true, what << ": every message done");
                NS_TEST_ASSERT_MSG_EQ(o.undelivered, 0, what << ": every receiver has them");
                NS_TEST_ASSERT_MSG_GT(o.summary["faults"][0]["frames_lost"].get<uint64_t>(),
                                      0,
                                      what << ": host 5 lost what reached it");
                NS_TEST_ASSERT_MSG_GT_OR_EQ(o.durationUs,
                                            400.0 - 30.0,
                                            what << ": the message in flight at the failure "
                                                    "waits for the NIC");
            }
        }
    }
};

class SilentReceiverTestCase : public TestCase
{
public:
    SilentReceiverTestCase()
        : TestCase("a receiver silent past receiver_timeout_us is dropped from the set")
    {
    }

private:
    void DoRun() override
    {
        // scenarios/robustness/silent-receiver.json: host 5's NIC fails at 30 µs for good
        // during host 0's broadcast (8 x 256 KiB, two in flight) to the 15 others of a
        // 4 x 2 x 4 leaf-spine. Without the timeout the group waits for host 5 until the
        // watchdog stops the run.
        nlohmann::json j = ReadScenarioFile("robustness", "silent-receiver.json");
        nlohmann::json stall = j;
        stall["p2mp"].erase("receiver_timeout_us");
        const Outcome stalled = RunFault(stall);
        NS_TEST_ASSERT_MSG_EQ(stalled.stoppedBy, "limits.watchdog_us", "stalls without it");

        // With it: host 5 last answered before 30 µs; the aggregate stops moving then. The
        // aggregation point drops it at the first ACK of the flow at least 200 µs later: the
        // root resends every RTO (100 µs) and the receivers that have the data answer. So the
        // message held back ends between 30 + 200 µs and that plus one RTO and two round
        // trips (2 x 20 µs bounds a round trip of this fabric with queues).
        constexpr double AT = 30, TIMEOUT = 200, RTO = 100, RTT = 20;
        constexpr uint64_t BYTES = 262144;
        NS_TEST_ASSERT_MSG_EQ(j["p2mp"]["receiver_timeout_us"].get<double>(), TIMEOUT, "file");
        NS_TEST_ASSERT_MSG_EQ(j["nic"]["rto_us"].get<double>(), RTO, "file");
        // Host 5 has message 0 only when its last bit arrives before 30 µs: 256 frames of
        // 88.48 ns (22.65 µs) plus 4 links, 3 pipelines and 3 more frame times (5.77 µs) is
        // 28.4 µs with bier; the new protocol's 10 µs group installation comes first, so there
        // host 5 has nothing. Every other message completes without it: 7, or all 8.
        // Each set: every rank, and host 5 the only receiver (no other ACK comes to check it).
        const nlohmann::json everyone = j["workloads"][0].value("ranks", nlohmann::json());
        for (const nlohmann::json& ranks : {everyone, nlohmann::json({0, 5})})
        {
            for (const std::string mech : {"bier", "new-protocol"})
            {
                for (const std::string agg : {"source-tor", "hop-by-hop", "sender-nic", "none"})
                {
                    j["p2mp"]["mechanism"] = mech;
                    j["p2mp"]["ack_aggregation"] = agg;
                    if (ranks.is_null())
                    {
                        j["workloads"][0].erase("ranks");
                    }
                    else
                    {
                        j["workloads"][0]["ranks"] = ranks;
                    }
                    j["output"]["dir"] = "/tmp/mcast4ai-test-link-fault";
                    ScenarioConfig c = Scenario::Parse(j.dump(), "silent.json", {});
                    ScenarioRunner runner(c);
                    runner.Build();
                    const bool complete = runner.Run();
                    const nlohmann::json summary = runner.Summary();
                    const std::string what = mech + " " + agg + " ranks " + ranks.dump();
                    NS_TEST_ASSERT_MSG_EQ(complete, true, what << ": the group does not stall");
                    TopologyBuilder& f = runner.GetFabric();
                    NS_TEST_ASSERT_MSG_EQ(f.GetDelivery()->GetUndelivered(),
                                          0,
                                          what << ": only the dropped receiver misses data");
                    NS_TEST_ASSERT_MSG_GT_OR_EQ(f.GetDelivery()->GetReceiversDropped(),
                                                1u,
                                                what << ": an aggregation point dropped host 5");
                    const nlohmann::json& w = summary["workloads"][0];
                    NS_TEST_ASSERT_MSG_EQ(w["failed"], 0, what << ": drop fails nothing");
                    const double dropped = w.value("receivers_dropped", 0.0);
                    NS_TEST_ASSERT_MSG_EQ(dropped,
                                          (mech == "bier" ? 7.0 : 8.0),
                                          what << ": every message host 5 did not have");
                    uint64_t lost = 0;
                    double heldEnd = 0;
                    const OpLedger* ops = f.GetTrafficLedger()->GetOpLedger();
                    for (uint32_t tag = 0; tag < 256; ++tag) // the run's few operation tags
                    {
                        lost += ops->Get(tag).lostBytes;
                    }
                    NS_TEST_ASSERT_MSG_EQ(lost,
                                          static_cast<uint64_t>(dropped) * BYTES,
                                          what << ": each message host 5 missed, its bytes lost");
                    heldEnd = w["duration_us"]["max"].get<double>();
                    NS_TEST_ASSERT_MSG_GT_OR_EQ(heldEnd, AT + TIMEOUT, what << ": not before");
                    NS_TEST_ASSERT_MSG_LT_OR_EQ(heldEnd,
                                                AT + TIMEOUT + RTO + 2 * RTT,
                                                what << ": at the first resend after the timeout");
                    Simulator::Destroy();
                }
            }
        }
    }
};

class SilentReceiverFailTestCase : public TestCase
{
public:
    SilentReceiverFailTestCase()
        : TestCase("on_receiver_timeout fail fails exactly the operations the receiver lacked")
    {
    }

private:
    void DoRun() override
    {
        // The broadcast of the test above, with the fail policy: the receiver leaves the set
        // at the same moment, but each message it did not have is a failed operation instead
        // of one completed without it. With bier host 5 has message 0 (it arrived before the
        // failure at 30 µs) and lacks the 7 others; with the new protocol it has none of 8.
        nlohmann::json j = ReadScenarioFile("robustness", "silent-receiver.json");
        j["p2mp"]["on_receiver_timeout"] = "fail";
        constexpr uint64_t MESSAGES = 8;
        NS_TEST_ASSERT_MSG_EQ(j["workloads"][0]["messages"].get<uint64_t>(), MESSAGES, "file");
        for (const std::string mech : {"bier", "new-protocol"})
        {
            for (const std::string agg : {"source-tor", "hop-by-hop", "sender-nic"})
            {
                j["p2mp"]["mechanism"] = mech;
                j["p2mp"]["ack_aggregation"] = agg;
                j["output"]["dir"] = "/tmp/mcast4ai-test-link-fault";
                ScenarioConfig c = Scenario::Parse(j.dump(), "silent.json", {});
                ScenarioRunner runner(c);
                runner.Build();
                const bool complete = runner.Run();
                const nlohmann::json summary = runner.Summary();
                const std::string what = mech + " " + agg;
                NS_TEST_ASSERT_MSG_EQ(complete, true, what << ": every operation ended");
                const uint64_t lacked = mech == "bier" ? 7 : 8;
                const nlohmann::json& w = summary["workloads"][0];
                NS_TEST_ASSERT_MSG_EQ(w["failed"].get<uint64_t>(), lacked, what << ": failed");
                NS_TEST_ASSERT_MSG_EQ(w["completed"].get<uint64_t>(),
                                      MESSAGES - lacked,
                                      what << ": the rest completed");
                NS_TEST_ASSERT_MSG_EQ(w["receivers_dropped"].get<double>(),
                                      static_cast<double>(lacked),
                                      what << ": one receiver short of each");
                // The failed operations are exactly those with lost bytes, and ops.csv says so.
                const Metrics& m = *runner.GetMetrics();
                const OpLedger* ops = runner.GetFabric().GetTrafficLedger()->GetOpLedger();
                const std::string csv = "/tmp/mcast4ai-test-link-fault-ops.csv";
                ResultWriter::WriteOpsCsv(m, csv, false, ops);
                std::ifstream in(csv);
                std::string header;
                std::getline(in, header);
                NS_TEST_ASSERT_MSG_NE(
                    header.find("duration_us,outcome,bytes"), std::string::npos, header);
                std::string line;
                uint64_t failedRows = 0;
                for (uint64_t h = 0; std::getline(in, line); ++h)
                {
                    const bool lost = ops->Get(Metrics::OpTag(h)).lostBytes > 0;
                    const bool failed = line.find(",failed,") != std::string::npos;
                    NS_TEST_ASSERT_MSG_EQ(failed, lost, what << ": row " << h << ": " << line);
                    NS_TEST_ASSERT_MSG_EQ(m.GetOps()[h].failed, lost, what << ": op " << h);
                    failedRows += failed;
                    NS_TEST_ASSERT_MSG_EQ(
                        failed || line.find(",completed,") != std::string::npos, true, line);
                }
                NS_TEST_ASSERT_MSG_EQ(failedRows, lacked, what << ": failed rows");
                Simulator::Destroy();
            }
        }
    }
};

class BadFaultTestCase : public TestCase
{
public:
    BadFaultTestCase()
        : TestCase("a fault naming no node or no link is an error naming its path")
    {
    }

private:
    void DoRun() override
    {
        const std::vector<std::pair<nlohmann::json, std::string>> bad = {
            {{{"from", "leaf9"}}, "faults[0].from"},
            {{{"to", "leaf1"}}, "faults[0].to"},
            {{{"from", "host0"}, {"to", "spine0"}}, "faults[0].to"},
        };
        for (const auto& [patch, path] : bad)
        {
            nlohmann::json j = ReadScenarioFile("robustness", "link-failure.json");
            j["faults"][0].update(patch);
            ScenarioConfig c = Scenario::Parse(j.dump(), "link-failure.json", {});
            ScenarioRunner runner(c);
            std::string error;
            try
            {
                runner.Build();
            }
            catch (const ScenarioError& e)
            {
                error = e.what();
            }
            NS_TEST_ASSERT_MSG_NE(error.find(path), std::string::npos, patch << ": " << error);
            Simulator::Destroy();
        }
        // Back before it failed: the schema's rule.
        nlohmann::json j = ReadScenarioFile("robustness", "link-failure.json");
        j["faults"][0]["up_us"] = 50;
        std::string error;
        try
        {
            Scenario::Parse(j.dump(), "link-failure.json", {});
        }
        catch (const ScenarioError& e)
        {
            error = e.what();
        }
        NS_TEST_ASSERT_MSG_NE(error.find("faults[0].up_us"), std::string::npos, error);
    }
};

class LinkFaultTestSuite : public TestSuite
{
public:
    LinkFaultTestSuite()
        : TestSuite("mcast4ai-link-fault", TestSuite::Type::UNIT)
    {
        AddTestCase(new RerouteTestCase());
        AddTestCase(new NoPathTestCase());
        AddTestCase(new NicDownTestCase());
        AddTestCase(new SilentReceiverTestCase());
        AddTestCase(new SilentReceiverFailTestCase());
        AddTestCase(new BadFaultTestCase());
    }
};

LinkFaultTestSuite g_linkFaultTestSuite;

} // namespace
