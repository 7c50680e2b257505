/*
 * In-band telemetry (load_balancing.telemetry) and steering from it, on the low-entropy
 * fabric of scenarios/load-balancing/steering-telemetry-8x8.json: 8 hosts under leaf 0 each
 * write 16 MiB to a host under leaf 1 across 8 spines, every link 100 Gb/s.
 *
 * - The switches' stamps against what the wire and the traffic make them: every probe is
 *   stamped by the 3 switches of its path (stamps = 3 x probes) and answered; with room for
 *   one hop, the first switch stamps and the other two count an overflow; an uplink that
 *   carries one flow at line rate reads a utilisation of 1 (the discounting estimator of a
 *   constant rate r reaches r / C within e^-5 after 5 time constants, give or take one
 *   frame's share) and no standing queue, an idle one reads none; a switch of another
 *   namespace writes nothing; with the flows held on their ECMP uplinks, every uplink stamp
 *   names as sharers the senders whose data that uplink carries (the Tx trace's count) and
 *   the probe's ingress, and as rank the probe's ingress among them; with the flows steered,
 *   every uplink stamp also counts the senders whose claims left by it within ClaimWindow,
 *   so of claims on one uplink only the first reads no other sharer.
 * - Steering (acceptance item 1 of the steering issue): in every seed tried, from 1 ms on each
 *   of leaf 0's uplinks carries the data of one sender at most (the flows are spread over
 *   distinct spines), with DCQCN and without, and the slowest flow is within 10% of ideal
 *   without DCQCN and, with it, in every seed without a CNP. The slowest flow's time is also
 *   compared with ECMP and with endpoint estimation alone (docs/load-balancing.md, "Steering from
 * in-band telemetry", gives the figures over 100 seeds).
 */
#include "dcqcn-test-helpers.h"
#include "fabric/model/telemetry-stage.h"
#include "ns3/config.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "rdma/model/rdma-nic.h"
#include "rdma/model/telemetry-path-steering.h"
#include "scenario/model/scenario-runner.h"
#include "test-fabric.h"
#include "wire/model/bth-header.h"
#include "wire/model/frame-info.h"
#include "wire/model/ioam-trace-header.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::test;

namespace
{

using namespace low_entropy;

/// Leaf 0 is the first switch: ports 0-7 its hosts, 8-15 its uplinks to spines 0-7.
constexpr uint32_t FIRST_UPLINK = FLOWS;

double
IdealFctUs()
{
    return IdealFctSeconds() * 1e6;
}

ScenarioConfig
Config(const nlohmann::json& patch, const std::string& file, const std::string& tag)
{
    nlohmann::json j = ReadScenarioFile("load-balancing", file);
    j.merge_patch(patch);
    j["output"]["dir"] = "/tmp/mcast4ai-test-telemetry-" + tag;
    return Scenario::Parse(j.dump(), file, {});
}

std::vector<Ptr<TelemetryStage>>
TelemetryStages(ScenarioRunner& runner)
{
    std::vector<Ptr<TelemetryStage>> out;
    for (uint32_t s = 0; s < runner.GetFabric().GetSwitchCount(); ++s)
    {
        Ptr<FabricSwitch> sw = runner.GetFabric().GetSwitch(s);
        for (uint32_t i = 0; i < sw->GetNStages(); ++i)
        {
            if (Ptr<TelemetryStage> t = DynamicCast<TelemetryStage>(sw->GetStage(i)))
            {
                out.push_back(t);
            }
        }
    }
    return out;
}

/// A stamp at leaf 0, on one of its uplinks.
struct UplinkStamp
{
    Time at;
    uint32_t uplink;
    IoamTraceHeader::NodeData data;
};

void
LogUplinkStamp(std::vector<UplinkStamp>* log, uint32_t port, const IoamTraceHeader::NodeData& d)
{
    if (port >= FIRST_UPLINK)
    {
        log->push_back({Simulator::Now(), port - FIRST_UPLINK, d});
    }
}

/// From `from` on, which senders' data each of leaf 0's uplinks carried.
struct UplinkSenders
{
    Time from;
    std::vector<std::set<uint32_t>> senders{FLOWS};
};

void
LogUplinkTx(UplinkSenders* log, uint32_t uplink, Ptr<const Packet> p)
{
    if (Simulator::Now() < log->from)
    {
        return;
    }
    FrameInfo fi;
    if (fi.Parse(p) && fi.roce && BthHeader::IsData(fi.opcode))
    {
        log->senders[uplink].insert(fi.SrcHost());
    }
}

/**
 * Every probe is stamped by its 3 switches and answered; the stamps read what one flow at
 * line rate makes of its uplink and what nothing makes of the others.
 */
class TelemetryStampTestCase : public TestCase
{
public:
    TelemetryStampTestCase()
        : TestCase("telemetry: stamps = 3 x probes; a line-rate uplink reads utilisation 1 and "
                   "no queue, an idle one 0")
    {
    }

private:
    void DoRun() override
    {
        // One of the eight flows, 4 MiB: long enough for many steady stamps, and never loaded.
        nlohmann::json patch = {{"workloads",
                                 {{{"type", "flows"},
                                   {"pattern", "list"},
                                   {"flows", {{{"src", 0}, {"dst", 8}, {"bytes", 4u << 20}}}}}}},
                                {"nic", {{"dcqcn", {{"enabled", false}}}}}};
        ScenarioConfig c = Config(patch, "steering-telemetry-8x8.json", "stamps");
        ScenarioRunner::UsePicoseconds();
        ScenarioRunner runner(c);
        runner.Build();
        std::vector<Ptr<TelemetryStage>> stages = TelemetryStages(runner);
        NS_TEST_ASSERT_MSG_EQ(stages.size(), 10u, "one per switch: 2 leaves, 8 spines");
        std::vector<UplinkStamp> stamps;
        stages[0]->TraceConnectWithoutContext("Stamp", MakeBoundCallback(&LogUplinkStamp, &stamps));
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "completes");
        nlohmann::json t = runner.Summary()["network"]["telemetry"];
        uint64_t probes = t["probes"].get<uint64_t>();
        std::clog << "telemetry, one flow: " << t << std::endl;
        NS_TEST_EXPECT_MSG_GT(probes, 0, "the sender probes");
        NS_TEST_EXPECT_MSG_EQ(t["probe_acks"].get<uint64_t>(), probes, "every probe answered");
        NS_TEST_EXPECT_MSG_EQ(t["stamps"].get<uint64_t>(), 3 * probes, "3 switches a path");
        NS_TEST_EXPECT_MSG_EQ(t["overflows"].get<uint64_t>(), 0, "room for 3 hops");
        // The flow's uplink: the one of leaf 0's uplinks that carried its bytes.
        Ptr<FabricSwitch> leaf = runner.GetFabric().GetSwitch(0);
        uint32_t busy = 0;
        for (uint32_t u = 1; u < FLOWS; ++u)
        {
            busy = leaf->GetPort(FIRST_UPLINK + u)->GetTxBytes()
                           > leaf->GetPort(FIRST_UPLINK + busy)->GetTxBytes()
                       ? u
                       : busy;
        }
        const double window = 5e-6;                      // telemetry_window_us's default
        const Time steady = Seconds(5 * window + 20e-6); // 5 time constants after it started
        const double frameShare
            = (MTU + ROCE_HEADER_BYTES + FRAMING_BYTES) / (RATE_GBPS * 1e9 / 8 * window);
        uint32_t onBusy = 0;
        uint32_t onIdle = 0;
        double lo = 2;
        double hi = 0;
        double idleMax = 0;
        uint32_t deepest = 0;
        Time end = Seconds(IdealFctUs() * 1e-6 * 4 / 16 - 20e-6); // before the tail drains
        for (const UplinkStamp& s : stamps)
        {
            double util = double(s.data.utilisation) / IoamTraceHeader::UTILISATION_ONE;
            if (s.uplink == busy && s.at > steady && s.at < end)
            {
                ++onBusy;
                lo = std::min(lo, util);
                hi = std::max(hi, util);
                deepest = std::max(deepest, s.data.queueDepthBytes);
            }
            else if (s.uplink != busy)
            {
                ++onIdle;
                idleMax = std::max(idleMax, util);
            }
        }
        std::clog << "uplink " << busy << ": " << onBusy << " steady stamps, utilisation " << lo
                  << ".." << hi << ", deepest queue " << deepest << " B; idle uplinks: " << onIdle
                  << " stamps, utilisation at most " << idleMax << std::endl;
        NS_TEST_EXPECT_MSG_GT(onBusy, 10, "stamps on the busy uplink");
        NS_TEST_EXPECT_MSG_GT(onIdle, 0, "the survey probed other uplinks");
        NS_TEST_EXPECT_MSG_GT(lo, 1 - std::exp(-5.0) - frameShare, "a line-rate uplink reads 1");
        NS_TEST_EXPECT_MSG_LT(hi, 1 + frameShare, "and not more");
        NS_TEST_EXPECT_MSG_LT(idleMax, 0.05, "an uplink that carries only probes reads ~0");
        // One flow at line rate into a link as fast: at most the frame being received behind
        // the one leaving, and the probes sent together.
        NS_TEST_EXPECT_MSG_LT(deepest,
                              2 * (MTU + ROCE_HEADER_BYTES) + 3 * ProbeFrameBytes() + 1,
                              "no standing queue");
    }

    static uint32_t ProbeFrameBytes()
    {
        return FrameInfo::BTH_OFFSET + FrameInfo::BTH_BYTES + IoamTraceHeader::SizeFor(3)
               + FrameInfo::ICRC_BYTES;
    }
};

/**
 * Sharers and rank: with the eight flows held on the uplinks ECMP hashes them to (no path is
 * ever loaded enough to leave), every stamp leaf 0 writes on uplink u while all flows run
 * names as sharers the senders whose data u carries, together with the probe's own ingress
 * port, and as rank the number of those below the probe's ingress port.
 */
class TelemetrySharersTestCase : public TestCase
{
public:
    TelemetrySharersTestCase()
        : TestCase("telemetry: each uplink stamp's sharers are the senders its data comes from "
                   "(and the probe's), its rank the probe's ingress among them")
    {
    }

private:
    void DoRun() override
    {
        nlohmann::json patch = {{"seed", 1}, {"nic", {{"dcqcn", {{"enabled", false}}}}}};
        ScenarioConfig c = Config(patch, "steering-telemetry-8x8.json", "sharers");
        // Held for this build only: the attribute's own default is put back, whatever it is.
        const std::string loaded = "ns3::TelemetryPathSteering::LoadedQueueBytes";
        TypeId::AttributeInformation info;
        TelemetryPathSteering::GetTypeId().LookupAttributeByName("LoadedQueueBytes", &info);
        Ptr<const AttributeValue> original = info.initialValue;
        ns3::Config::SetDefault(loaded, UintegerValue(UINT32_MAX));
        ScenarioRunner::UsePicoseconds();
        ScenarioRunner runner(c);
        runner.Build();
        ns3::Config::SetDefault(loaded, *original);
        std::vector<Ptr<TelemetryStage>> stages = TelemetryStages(runner);
        std::vector<UplinkStamp> stamps;
        stages[0]->TraceConnectWithoutContext("Stamp", MakeBoundCallback(&LogUplinkStamp, &stamps));
        UplinkSenders uplinks;
        Ptr<FabricSwitch> leaf = runner.GetFabric().GetSwitch(0);
        for (uint32_t u = 0; u < FLOWS; ++u)
        {
            leaf->GetPort(FIRST_UPLINK + u)
                ->TraceConnectWithoutContext("Tx", MakeBoundCallback(&LogUplinkTx, &uplinks, u));
        }
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "completes");
        NS_TEST_ASSERT_MSG_EQ(
            runner.Summary()["network"]["steering"]["repaths"].get<uint64_t>(), 0, "held");
        std::size_t most = 0;
        for (const std::set<uint32_t>& s : uplinks.senders)
        {
            most = std::max(most, s.size());
        }
        // 8 flows on 8 uplinks all apart has probability 8!/8^8 = 0.24%: seed 1 collides.
        NS_TEST_ASSERT_MSG_GT(most, 1u, "some uplink carries two senders or more");
        // Host h is leaf 0's port h. While every flow runs (the fastest ends near the ideal
        // time), each sender's data crosses its uplink far more often than every 10 us.
        const Time from = MicroSeconds(20);
        const Time to = MicroSeconds(0.9 * IdealFctUs());
        uint32_t checked = 0;
        uint32_t shared = 0;
        uint32_t wrong = 0;
        for (const UplinkStamp& st : stamps)
        {
            if (st.at < from || st.at > to)
            {
                continue;
            }
            std::set<uint32_t> sharers = uplinks.senders[st.uplink];
            sharers.insert(st.data.ingressIf);
            uint32_t rank = std::distance(sharers.begin(), sharers.find(st.data.ingressIf));
            ++checked;
            shared += sharers.size() > 1 && uplinks.senders[st.uplink].count(st.data.ingressIf);
            if (st.data.sharers != sharers.size() || st.data.rank != rank)
            {
                if (++wrong <= 5)
                {
                    std::clog << "uplink " << st.uplink << " at " << st.at.As(Time::US)
                              << ": ingress " << st.data.ingressIf << " reads "
                              << int(st.data.sharers) << " sharers, rank " << int(st.data.rank)
                              << "; expected " << sharers.size() << ", " << rank << std::endl;
                }
            }
        }
        std::clog << "sharers: " << checked << " uplink stamps checked, " << shared
                  << " on a shared uplink by one of its senders, " << wrong << " wrong"
                  << std::endl;
        NS_TEST_EXPECT_MSG_GT(shared, 10u, "stamps of senders on a shared uplink");
        NS_TEST_EXPECT_MSG_EQ(wrong, 0u, "every stamp names its uplink's senders");
    }
};

/// What leaf 0's uplinks saw, in the order the switch saw it: a stamp (written as the frame
/// left, before the port sent it), a data frame or a claim leaving.
struct UplinkEvent
{
    enum Kind
    {
        STAMP,
        DATA,
        CLAIM
    } kind;
    Time at;
    uint32_t uplink;
    uint32_t ingress; ///< host h comes in by leaf 0's port h
    IoamTraceHeader::NodeData data;
};

void
LogEventStamp(std::vector<UplinkEvent>* log, uint32_t port, const IoamTraceHeader::NodeData& d)
{
    if (port >= FIRST_UPLINK)
    {
        log->push_back({UplinkEvent::STAMP, Simulator::Now(), port - FIRST_UPLINK, d.ingressIf, d});
    }
}

void
LogEventTx(std::vector<UplinkEvent>* log, uint32_t uplink, Ptr<const Packet> p)
{
    FrameInfo fi;
    if (!fi.Parse(p) || !fi.roce)
    {
        return;
    }
    if (BthHeader::IsData(fi.opcode) || fi.opcode == BthHeader::RC_PROBE_CLAIM)
    {
        log->push_back({BthHeader::IsData(fi.opcode) ? UplinkEvent::DATA : UplinkEvent::CLAIM,
                        Simulator::Now(),
                        uplink,
                        fi.SrcHost(),
                        {}});
    }
}

/**
 * Claims, in a steering run where senders leave collisions: every stamp leaf 0 writes on an
 * uplink counts as sharers exactly the ingress ports whose data left by that uplink within
 * SharerWindow (10 us) or whose claim left by it within ClaimWindow (100 us), the probe's own
 * included, as the uplink's transmissions show them; so of two claims on one uplink from
 * different senders within ClaimWindow, the later reads two sharers or more and only the first
 * may win. Seeds 1-5 are run until one has claims that lose.
 */
class TelemetryClaimsTestCase : public TestCase
{
public:
    TelemetryClaimsTestCase()
        : TestCase("telemetry: claims count as sharers for ClaimWindow, so of claims on one "
                   "uplink only the first reads one sharer")
    {
    }

private:
    void DoRun() override
    {
        const Time sharerWindow = MicroSeconds(10); // TelemetryStage's defaults
        const Time claimWindow = MicroSeconds(100);
        uint32_t checked = 0;
        uint32_t wrong = 0;
        uint32_t claims = 0;
        uint32_t claimsWon = 0;
        uint32_t claimsBehind = 0; // read another sender's earlier claim
        for (uint64_t seed = 1; seed <= 5 && claimsBehind == 0; ++seed)
        {
            nlohmann::json patch = {{"seed", seed}, {"nic", {{"dcqcn", {{"enabled", false}}}}}};
            ScenarioConfig c
                = Config(patch, "steering-telemetry-8x8.json", "claims-" + std::to_string(seed));
            ScenarioRunner::UsePicoseconds();
            ScenarioRunner runner(c);
            runner.Build();
            std::vector<UplinkEvent> log;
            TelemetryStages(runner)[0]->TraceConnectWithoutContext(
                "Stamp", MakeBoundCallback(&LogEventStamp, &log));
            Ptr<FabricSwitch> leaf = runner.GetFabric().GetSwitch(0);
            for (uint32_t u = 0; u < FLOWS; ++u)
            {
                leaf->GetPort(FIRST_UPLINK + u)
                    ->TraceConnectWithoutContext("Tx", MakeBoundCallback(&LogEventTx, &log, u));
            }
            NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "completes");
            // Per uplink and ingress: until when the ingress counts, from the wire alone.
            std::vector<std::vector<Time>> until(FLOWS, std::vector<Time>(FLOWS, Time::Min()));
            // ... and whether a claim, not data, set it.
            std::vector<std::vector<bool>> byClaim(FLOWS, std::vector<bool>(FLOWS, false));
            // Per uplink: the last claim that read one sharer, and its sender.
            std::vector<std::pair<Time, uint32_t>> lastWon(FLOWS, {Time::Min(), 0});
            const UplinkEvent* pendingClaimStamp = nullptr;
            for (const UplinkEvent& e : log)
            {
                std::vector<Time>& u = until[e.uplink];
                if (e.kind == UplinkEvent::DATA)
                {
                    u[e.ingress] = e.at + sharerWindow;
                    byClaim[e.uplink][e.ingress] = false;
                    continue;
                }
                if (e.kind == UplinkEvent::CLAIM)
                {
                    // Its stamp came just before it: that stamp was a claim's.
                    NS_TEST_ASSERT_MSG_NE(pendingClaimStamp, nullptr, "a claim is stamped");
                    ++claims;
                    if (pendingClaimStamp->data.sharers == 1)
                    {
                        ++claimsWon;
                        const auto& prev = lastWon[e.uplink];
                        bool twoWon = prev.first != Time::Min() && prev.second != e.ingress
                                      && e.at - prev.first <= claimWindow;
                        NS_TEST_EXPECT_MSG_EQ(twoWon,
                                              false,
                                              "two claims on one uplink within ClaimWindow "
                                              "both read one sharer");
                        lastWon[e.uplink] = {e.at, e.ingress};
                    }
                    else
                    {
                        for (uint32_t i = 0; i < FLOWS; ++i)
                        {
                            if (i != e.ingress && u[i] >= e.at && byClaim[e.uplink][i])
                            {
                                ++claimsBehind;
                                break;
                            }
                        }
                    }
                    u[e.ingress] = std::max(u[e.ingress], e.at + claimWindow);
                    byClaim[e.uplink][e.ingress] = true;
                    pendingClaimStamp = nullptr;
                    continue;
                }
                uint32_t sharers = 0;
                uint32_t rank = 0;
                for (uint32_t i = 0; i < FLOWS; ++i)
                {
                    if (i == e.ingress || u[i] >= e.at)
                    {
                        ++sharers;
                        rank += i < e.ingress;
                    }
                }
                ++checked;
                if (e.data.sharers != sharers || e.data.rank != rank)
                {
                    if (++wrong <= 5)
                    {
                        std::clog << "seed " << seed << ", uplink " << e.uplink << " at "
                                  << e.at.As(Time::US) << ": ingress " << e.ingress << " reads "
                                  << int(e.data.sharers) << " sharers, rank " << int(e.data.rank)
                                  << "; the wire says " << sharers << ", " << rank << std::endl;
                    }
                }
                pendingClaimStamp = &e;
            }
            std::clog << "claims, seed " << seed << ": " << runner.Summary()["network"]["telemetry"]
                      << std::endl;
        }
        std::clog << "claims: " << checked << " uplink stamps checked, " << wrong << " wrong; "
                  << claims << " claims, " << claimsWon << " read one sharer, " << claimsBehind
                  << " read another sender's earlier claim" << std::endl;
        NS_TEST_EXPECT_MSG_EQ(wrong, 0u, "every stamp counts its uplink's data and claims");
        NS_TEST_EXPECT_MSG_GT(claimsWon, 0u, "claims that won");
        NS_TEST_EXPECT_MSG_GT(claimsBehind, 0u, "a claim that found another sender's claim");
    }
};

/// With room for one hop, the first switch stamps and the next two find the trace full; a
/// switch configured for another namespace leaves the trace alone.
class TelemetryOverflowTestCase : public TestCase
{
public:
    TelemetryOverflowTestCase()
        : TestCase("telemetry: a 1-hop trace overflows at the 2nd and 3rd switch; a foreign "
                   "namespace is not written into")
    {
    }

private:
    void DoRun() override
    {
        for (bool foreign : {false, true})
        {
            nlohmann::json patch
                = {{"workloads",
                    {{{"type", "flows"},
                      {"pattern", "list"},
                      {"flows", {{{"src", 0}, {"dst", 8}, {"bytes", 1u << 20}}}}}}}};
            ScenarioConfig c = Config(patch, "steering-telemetry-8x8.json", "overflow");
            ScenarioRunner::UsePicoseconds();
            ScenarioRunner runner(c);
            runner.Build();
            if (foreign)
            {
                // The spines belong to namespace 2: only the two leaves write.
                std::vector<Ptr<TelemetryStage>> stages = TelemetryStages(runner);
                for (std::size_t s = 2; s < stages.size(); ++s)
                {
                    stages[s]->SetAttribute("NamespaceId", UintegerValue(2));
                }
            }
            else
            {
                runner.GetFabric().GetNic(0)->SetAttribute("TelemetryHops", UintegerValue(1));
            }
            NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "completes");
            nlohmann::json t = runner.Summary()["network"]["telemetry"];
            uint64_t probes = t["probes"].get<uint64_t>();
            std::clog << (foreign ? "foreign spines: " : "1-hop traces: ") << t << std::endl;
            NS_TEST_EXPECT_MSG_GT(probes, 0, "probes");
            NS_TEST_EXPECT_MSG_EQ(t["probe_acks"].get<uint64_t>(), probes, "answered");
            NS_TEST_EXPECT_MSG_EQ(t["stamps"].get<uint64_t>(),
                                  (foreign ? 2 : 1) * probes,
                                  "the switches that have room, in the namespace");
            const uint64_t overflows = foreign ? 0 : 2 * probes;
            NS_TEST_EXPECT_MSG_EQ(
                t["overflows"].get<uint64_t>(), overflows, "the others find the trace full");
            NS_TEST_EXPECT_MSG_EQ(runner.Summary()["workloads"][0]["completed"].get<uint64_t>(),
                                  1,
                                  "the flow completes whatever its probes say");
        }
    }
};

struct SteeringOutcome
{
    double slowestUs{0};
    uint64_t repaths{0};
    uint32_t mostSendersPerUplink{0}; ///< from 1 ms on
    uint64_t cnps{0};
};

SteeringOutcome
RunSteering(uint64_t seed, bool dcqcn, const std::string& file, bool telemetry)
{
    nlohmann::json patch = {{"seed", seed}, {"nic", {{"dcqcn", {{"enabled", dcqcn}}}}}};
    if (file == "steering-telemetry-8x8.json")
    {
        patch["load_balancing"]["telemetry"] = telemetry; // same messages either way
    }
    ScenarioConfig c = Config(patch, file, "steering-" + std::to_string(seed));
    ScenarioRunner::UsePicoseconds();
    ScenarioRunner runner(c);
    runner.Build();
    UplinkSenders uplinks;
    uplinks.from = MilliSeconds(1);
    Ptr<FabricSwitch> leaf = runner.GetFabric().GetSwitch(0);
    for (uint32_t u = 0; u < FLOWS; ++u)
    {
        leaf->GetPort(FIRST_UPLINK + u)
            ->TraceConnectWithoutContext("Tx", MakeBoundCallback(&LogUplinkTx, &uplinks, u));
    }
    SteeringOutcome o;
    NS_ABORT_MSG_UNLESS(runner.Run(), "the run completes");
    for (const Metrics::OpRecord& op : runner.GetMetrics()->GetOps())
    {
        o.slowestUs = std::max(o.slowestUs, (op.end - op.start).GetSeconds() * 1e6);
    }
    o.repaths = runner.Summary()["network"]["steering"]["repaths"].get<uint64_t>();
    o.cnps = runner.Summary()["network"]["cnps"].get<uint64_t>();
    for (const std::set<uint32_t>& s : uplinks.senders)
    {
        o.mostSendersPerUplink = std::max<uint32_t>(o.mostSendersPerUplink, s.size());
    }
    return o;
}

/**
 * Acceptance item 1, steering: from 1 ms on, every uplink carries one sender at most, in
 * every seed, with DCQCN and without; steering from telemetry beats ECMP in every seed, and
 * endpoint estimation alone on average. Without DCQCN the slowest flow is within 10% of ideal
 * in every seed; with it, in every seed where no CNP was sent (a run with CNPs waits for
 * DCQCN's recovery, which this issue leaves alone:
 * docs/load-balancing.md#steering-from-in-band-telemetry).
 */
class SteeringTelemetrySpreadTestCase : public TestCase
{
public:
    SteeringTelemetrySpreadTestCase()
        : TestCase("steering from telemetry, seeds 1-5, DCQCN on and off: distinct spines "
                   "from 1 ms on, within 10% of ideal (with DCQCN: without CNPs), faster than "
                   "ECMP and than endpoint estimation alone")
    {
    }

private:
    void DoRun() override
    {
        const double ideal = IdealFctUs();
        for (bool dcqcn : {false, true})
        {
            double telemetrySum = 0;
            double endpointSum = 0;
            for (uint64_t seed = 1; seed <= 5; ++seed)
            {
                SteeringOutcome t = RunSteering(seed, dcqcn, "steering-telemetry-8x8.json", true);
                SteeringOutcome e = RunSteering(seed, dcqcn, "steering-telemetry-8x8.json", false);
                SteeringOutcome ecmp = RunSteering(seed, dcqcn, "low-entropy-8x8.json", false);
                std::clog << "seed " << seed << (dcqcn ? ", DCQCN" : ", no DCQCN") << ": telemetry "
                          << t.slowestUs / ideal << " x ideal (" << t.repaths
                          << " repaths, at most " << t.mostSendersPerUplink
                          << " sender(s) an uplink from 1 ms, " << t.cnps << " CNPs), endpoint "
                          << e.slowestUs / ideal << ", ECMP " << ecmp.slowestUs / ideal
                          << std::endl;
                NS_TEST_EXPECT_MSG_EQ(t.mostSendersPerUplink, 1, "distinct spines from 1 ms");
                if (!dcqcn || t.cnps == 0)
                {
                    NS_TEST_EXPECT_MSG_LT(t.slowestUs, 1.1 * ideal, "within 10% of ideal");
                }
                NS_TEST_EXPECT_MSG_LT(t.slowestUs, ecmp.slowestUs, "faster than ECMP");
                telemetrySum += t.slowestUs / ideal - 1;
                endpointSum += e.slowestUs / ideal - 1;
            }
            std::clog << (dcqcn ? "DCQCN" : "no DCQCN") << ": mean excess over ideal, telemetry "
                      << telemetrySum / 5 << ", endpoint estimation " << endpointSum / 5
                      << std::endl;
            NS_TEST_EXPECT_MSG_LT(telemetrySum, endpointSum, "telemetry beats endpoint alone");
        }
    }
};

class TelemetryTestSuite : public TestSuite
{
public:
    TelemetryTestSuite()
        : TestSuite("mcast4ai-telemetry", TestSuite::Type::UNIT)
    {
        AddTestCase(new TelemetryStampTestCase());
        AddTestCase(new TelemetrySharersTestCase());
        AddTestCase(new TelemetryClaimsTestCase());
        AddTestCase(new TelemetryOverflowTestCase());
        AddTestCase(new SteeringTelemetrySpreadTestCase());
    }
};

TelemetryTestSuite g_telemetryTestSuite;

} // namespace
