/*
 * 32-to-1 incast. With PFC: lossless (no drops, pauses sent), the receiver's link saturated,
 * and completion no earlier than the receiver link's serialisation bound. Without PFC and with
 * a small buffer: drops, and every flow still completes through go-back-N retransmission.
 * Each check runs a model it must reject: the lossy fabric and DCQCN (which leaves the
 * receiver's link idle while its senders recover from their cuts) fail the lossless one; the
 * lossless fabric fails the lossy one.
 */
#include "ns3/packet.h"
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "test-fabric.h"

#include <algorithm>
#include <iostream>
#include <map>

using namespace ns3;
using namespace ns3::test;

namespace
{

ScenarioConfig
Incast(bool pfc, bool dcqcn = false)
{
    // Receiver 0; senders 1..32: 15 on its own leaf, 16 on leaf 1, one on leaf 2.
    ScenarioConfig c = LeafSpine(4, 2, 16, pfc ? "incast-pfc" : "incast-lossy");
    c.topology.fabricLink.rateGbps = 400;
    c.stopTimeMs = 200;
    WorkloadConfig w;
    w.type = "flows";
    w.label = "incast";
    w.pattern = FlowPattern::INCAST;
    w.senders = 32;
    w.receiver = 0;
    w.bytes = 1u << 20;
    c.workloads.push_back(w);
    c.sw.pfc.enabled = pfc;
    // The fabric alone: DCQCN's effect on the same incast is the DCQCN suite's subject.
    c.nic.dcqcn.enabled = dcqcn;
    if (!pfc)
    {
        c.sw.bufferMb = 2;
        c.sw.reserveKb = 1;
    }
    return c;
}

/// What the incast checks read from a run.
struct IncastRun
{
    bool complete{false};
    nlohmann::json summary;
    double busy{0}; ///< the receiver link's busy share between its first and last frame
    double end{0};  ///< s
};

IncastRun
RunIncast(const ScenarioConfig& c)
{
    ScenarioRunner runner(c);
    runner.Build();
    IncastRun r;
    r.complete = runner.Run();
    r.summary = runner.Summary();
    Ptr<FabricNetDevice> port = runner.GetFabric().GetLeafPortToHost(0);
    const double span = (port->GetLastTxEnd() - port->GetFirstTxStart()).GetSeconds();
    r.busy = port->GetBusyTime().GetSeconds() / span;
    r.end = r.summary["sim_time_s"];
    return r;
}

/// 32 MiB in 1024-byte packets cannot cross a 100 Gb/s link faster than this.
double
Bound()
{
    return 32 * 1024 * WireSeconds(1024 + ROCE_HEADER_BYTES, 100);
}

/// Lossless, PFC engaged, and the receiver's link never idle: busy > 95% and the end within
/// 5% of the bound.
bool
LosslessAndSaturated(const IncastRun& r)
{
    const nlohmann::json& n = r.summary["network"];
    return r.complete && n["drops"].get<uint64_t>() == 0 && n["pfc_pauses"].get<uint64_t>() > 0
           && n["retransmissions"].get<uint64_t>() == 0 && r.busy > 0.95 && r.end >= Bound()
           && r.end < Bound() * 1.05;
}

/// Drops, no pauses, repaired by retransmission, every flow done.
bool
LossyAndRecovered(const IncastRun& r)
{
    const nlohmann::json& n = r.summary["network"];
    return r.complete && n["drops"].get<uint64_t>() > 0 && n["pfc_pauses"].get<uint64_t>() == 0
           && n["retransmissions"].get<uint64_t>() > 0
           && r.summary["workloads"][0]["completed"].get<uint64_t>() == 32;
}

class IncastPfcTestCase : public TestCase
{
public:
    IncastPfcTestCase()
        : TestCase("32-to-1 incast with PFC is lossless and saturates the receiver link")
    {
    }

private:
    void DoRun() override
    {
        IncastRun r = RunIncast(Incast(true));
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, "every flow completes");
        const nlohmann::json& n = r.summary["network"];
        NS_TEST_ASSERT_MSG_EQ(n["drops"].get<uint64_t>(), 0, "lossless");
        NS_TEST_ASSERT_MSG_GT(n["pfc_pauses"].get<uint64_t>(), 0, "PFC engaged");
        NS_TEST_ASSERT_MSG_EQ(n["retransmissions"].get<uint64_t>(), 0, "no retx");
        NS_TEST_ASSERT_MSG_GT(r.busy, 0.95, "receiver link busy > 95% between first and last byte");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.end, Bound(), "no faster than the bottleneck allows");
        NS_TEST_ASSERT_MSG_LT(r.end, Bound() * 1.05, "and close to it: the link never idles");
        NS_TEST_ASSERT_MSG_EQ(LosslessAndSaturated(r), true, "the check holds");

        IncastRun lossy = RunIncast(Incast(false));
        IncastRun dcqcn = RunIncast(Incast(true, true));
        std::clog << "lossy: " << lossy.summary["network"]["drops"] << " drops; DCQCN: end "
                  << dcqcn.end / Bound() << " x the bound, busy " << dcqcn.busy << std::endl;
        NS_TEST_ASSERT_MSG_EQ(LosslessAndSaturated(lossy), false, "the lossy fabric is rejected");
        NS_TEST_ASSERT_MSG_EQ(LosslessAndSaturated(dcqcn), false, "DCQCN idles the link");
    }
};

class IncastLossyTestCase : public TestCase
{
public:
    IncastLossyTestCase()
        : TestCase("32-to-1 incast without PFC drops and recovers by retransmission")
    {
    }

private:
    void DoRun() override
    {
        IncastRun r = RunIncast(Incast(false));
        NS_TEST_ASSERT_MSG_EQ(r.complete, true, "every flow completes");
        const nlohmann::json& n = r.summary["network"];
        NS_TEST_ASSERT_MSG_GT(n["drops"].get<uint64_t>(), 0, "a small buffer drops");
        NS_TEST_ASSERT_MSG_EQ(n["pfc_pauses"].get<uint64_t>(), 0, "PFC is off");
        NS_TEST_ASSERT_MSG_GT(
            n["retransmissions"].get<uint64_t>(), 0, "losses are repaired by retransmission");
        NS_TEST_ASSERT_MSG_EQ(
            r.summary["workloads"][0]["completed"].get<uint64_t>(), 32, "all 32 done");
        NS_TEST_ASSERT_MSG_EQ(LossyAndRecovered(r), true, "the check holds");
        NS_TEST_ASSERT_MSG_EQ(
            LossyAndRecovered(RunIncast(Incast(true))), false, "the lossless fabric is rejected");
    }
};

/// What the switch trace sources reported over a run.
struct TraceTally
{
    uint64_t xoff{0};
    uint64_t xon{0};
    uint64_t marks{0};
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> depth; ///< (switch, port*8+prio) -> last
    uint64_t peakDepth{0};
};

void
CountPfc(TraceTally* t, uint32_t port, uint8_t prio, bool paused)
{
    ++(paused ? t->xoff : t->xon);
}

void
CountMark(TraceTally* t, Ptr<const Packet> p, uint32_t port)
{
    ++t->marks;
}

void
RecordDepth(TraceTally* t, uint32_t sw, uint32_t port, uint8_t prio, uint64_t bytes)
{
    t->depth[{sw, port * 8 + prio}] = bytes;
    t->peakDepth = std::max(t->peakDepth, bytes);
}

class IncastTracesTestCase : public TestCase
{
public:
    IncastTracesTestCase()
        : TestCase("switch trace sources agree with the counters: PFC, ECN marks, queue depth")
    {
    }

private:
    void DoRun() override
    {
        ScenarioRunner runner(Incast(true));
        runner.Build();
        TraceTally t;
        TopologyBuilder& fabric = runner.GetFabric();
        for (uint32_t i = 0; i < fabric.GetSwitchCount(); ++i)
        {
            Ptr<FabricSwitch> sw = fabric.GetSwitch(i);
            sw->TraceConnectWithoutContext("PfcPause", MakeBoundCallback(&CountPfc, &t));
            sw->TraceConnectWithoutContext("EcnMark", MakeBoundCallback(&CountMark, &t));
            sw->TraceConnectWithoutContext("QueueDepth", MakeBoundCallback(&RecordDepth, &t, i));
        }
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "every flow completes");
        nlohmann::json s = runner.Summary();
        NS_TEST_ASSERT_MSG_EQ(t.marks,
                              s["network"]["ecn_marks"].get<uint64_t>(),
                              "one EcnMark trace per counted mark");
        NS_TEST_ASSERT_MSG_GT(t.xoff, 0, "the incast pauses upstream ports");
        NS_TEST_ASSERT_MSG_EQ(t.xon, t.xoff, "every pause is lifted once the incast drains");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(t.xoff,
                                    s["network"]["pfc_pauses"].get<uint64_t>(),
                                    "each XOFF sends at least one PFC frame");
        for (const auto& [key, bytes] : t.depth)
        {
            NS_TEST_ASSERT_MSG_EQ(bytes, 0, "every egress queue is empty at the end");
        }
        // The receiver's downlink holds at least one frame at its peak; no queue holds more
        // than the whole switch ever did.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(t.peakDepth, 1024 + ROCE_HEADER_BYTES, "queues built up");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(t.peakDepth,
                                    s["network"]["switch_buffer_peak_bytes"].get<uint64_t>(),
                                    "a queue is part of its switch's buffer");
    }
};

class IncastTestSuite : public TestSuite
{
public:
    IncastTestSuite()
        : TestSuite("mcast4ai-incast", TestSuite::Type::UNIT)
    {
        AddTestCase(new IncastPfcTestCase());
        AddTestCase(new IncastLossyTestCase());
        AddTestCase(new IncastTracesTestCase());
    }
};

IncastTestSuite g_incastTestSuite;

} // namespace
