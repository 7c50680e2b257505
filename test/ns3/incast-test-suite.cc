/*
 * 32-to-1 incast. With PFC: lossless (no drops, pauses sent), the receiver's link saturated,
 * and completion no earlier than the receiver link's serialisation bound. Without PFC and with
 * a small buffer: drops, and every flow still completes through go-back-N retransmission.
 */
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"
#include "test-fabric.h"

using namespace ns3;
using namespace ns3::test;

namespace
{

ScenarioConfig
Incast(bool pfc)
{
    // Receiver 0; senders 1..32: 15 on its own leaf, 16 on leaf 1, one on leaf 2.
    ScenarioConfig c = LeafSpine(4, 2, 16, pfc ? "incast-pfc" : "incast-lossy");
    c.topology.fabricLink.rateGbps = 400;
    c.stopTimeMs = 200;
    WorkloadConfig w;
    w.type = "flows";
    w.label = "incast";
    w.pattern = "incast";
    w.senders = 32;
    w.receiver = 0;
    w.bytes = 1u << 20;
    c.workloads.push_back(w);
    c.sw.pfc.enabled = pfc;
    // The fabric alone: DCQCN's effect on the same incast is the DCQCN suite's subject.
    c.nic.dcqcn.enabled = false;
    if (!pfc)
    {
        c.sw.bufferMb = 2;
        c.sw.reserveKb = 1;
    }
    return c;
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
        ScenarioRunner runner(Incast(true));
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "every flow completes");
        nlohmann::json s = runner.Summary();
        NS_TEST_ASSERT_MSG_EQ(s["network"]["drops"].get<uint64_t>(), 0, "lossless");
        NS_TEST_ASSERT_MSG_GT(s["network"]["pfc_pauses"].get<uint64_t>(), 0, "PFC engaged");
        NS_TEST_ASSERT_MSG_EQ(s["network"]["retransmissions"].get<uint64_t>(), 0, "no retx");

        Ptr<FabricNetDevice> port = runner.GetFabric().GetLeafPortToHost(0);
        double span = (port->GetLastTxEnd() - port->GetFirstTxStart()).GetSeconds();
        double busy = port->GetBusyTime().GetSeconds() / span;
        NS_TEST_ASSERT_MSG_GT(busy, 0.95, "receiver link busy > 95% between first and last byte");

        // 32 MiB in 1024-byte packets cannot cross a 100 Gb/s link faster than this.
        double bound = 32 * 1024 * WireSeconds(1024 + ROCE_HEADER_BYTES, 100);
        double end = s["sim_time_s"];
        NS_TEST_ASSERT_MSG_GT_OR_EQ(end, bound, "no faster than the bottleneck allows");
        NS_TEST_ASSERT_MSG_LT(end, bound * 1.05, "and close to it: the link never idles");
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
        ScenarioRunner runner(Incast(false));
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "every flow completes");
        nlohmann::json s = runner.Summary();
        NS_TEST_ASSERT_MSG_GT(s["network"]["drops"].get<uint64_t>(), 0, "a small buffer drops");
        NS_TEST_ASSERT_MSG_EQ(s["network"]["pfc_pauses"].get<uint64_t>(), 0, "PFC is off");
        NS_TEST_ASSERT_MSG_GT(s["network"]["retransmissions"].get<uint64_t>(),
                              0,
                              "losses are repaired by retransmission");
        NS_TEST_ASSERT_MSG_EQ(s["workloads"][0]["completed"].get<uint64_t>(), 32, "all 32 done");
    }
};

class IncastTestSuite : public TestSuite
{
public:
    IncastTestSuite()
        : TestSuite("mcast4ai-incast", UNIT)
    {
        AddTestCase(new IncastPfcTestCase(), TestCase::QUICK);
        AddTestCase(new IncastLossyTestCase(), TestCase::QUICK);
    }
};

IncastTestSuite g_incastTestSuite;

} // namespace
