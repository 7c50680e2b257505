/*
 * The NIC's receive path (NicReceivePipeline) against its closed form: a root that takes one
 * ACK per receiver per packet cannot finish a message before its NIC has handled them all,
 * ACKs / rate; the same run without the pipeline, or with the ACKs aggregated before the NIC,
 * finishes well inside that bound, so the check tells the models apart. A receive buffer
 * with a pause threshold holds the backlog near it by PFC and loses nothing.
 */
#include "ns3/test.h"
#include "rdma/model/nic-receive-pipeline.h"
#include "rdma/model/rdma-nic.h"
#include "scenario/model/scenario-runner.h"
#include "test-fabric.h"

using namespace ns3;
using namespace ns3::test;

namespace
{

constexpr uint32_t HOSTS = 64;
constexpr uint32_t PACKETS = 64; // one 64 KiB message at MTU 1024
constexpr uint64_t ROOT_ACKS = uint64_t{HOSTS - 1} * PACKETS;
constexpr double RATE_MPPS = 20;

struct Outcome
{
    double durationUs{0};
    uint64_t rootAcks{0};
    nlohmann::json receive;
    uint64_t drops{0};
};

/// One 64 KiB BIER broadcast from host 0 to the 63 others of a 64-host leaf-spine, 100 Gb/s,
/// ACK per packet.
Outcome
RunBroadcast(const std::string& aggregation, double mpps, uint32_t pauseBytes = 0)
{
    ScenarioConfig c = LeafSpine(4, 2, 16, "nic-receive-" + aggregation);
    c.stopTimeMs = 50;
    c.p2mp.mechanism = "bier";
    c.p2mp.ackAggregation = aggregation;
    // The receive path's keys set NicReceivePipeline's attributes; a config built in code
    // gives them in the section's kept JSON.
    c.nic.spec = {{"receive_mpps", mpps}};
    if (pauseBytes > 0)
    {
        c.nic.spec["receive_pause_bytes"] = pauseBytes;
    }
    WorkloadConfig w;
    w.type = "broadcast";
    w.label = "broadcast";
    w.algorithm = CollectiveAlgorithm::MULTICAST;
    w.root = 0;
    w.bytes = PACKETS * 1024;
    w.messages = 1;
    for (uint32_t h = 0; h < HOSTS; ++h)
    {
        w.ranks.push_back(h);
    }
    c.workloads.push_back(w);
    ScenarioRunner runner(c);
    runner.Build();
    Outcome o;
    NS_ABORT_MSG_UNLESS(runner.Run(), "the broadcast completes");
    nlohmann::json s = runner.Summary();
    o.durationUs = s["workloads"][0]["duration_us"]["max"].get<double>();
    o.rootAcks = runner.GetFabric().GetNic(0)->GetCounters().acksReceived;
    o.receive = s["network"]["nic_receive"];
    o.drops = s["network"]["drops"].get<uint64_t>();
    return o;
}

class AckBoundTestCase : public TestCase
{
public:
    AckBoundTestCase()
        : TestCase(
            "without aggregation the root's message takes at least its ACKs over the receive rate")
    {
    }

private:
    void DoRun() override
    {
        const double boundUs = ROOT_ACKS / RATE_MPPS; // 201.6 µs
        Outcome limited = RunBroadcast("none", RATE_MPPS);
        NS_TEST_ASSERT_MSG_EQ(limited.rootAcks, ROOT_ACKS, "every ACK reaches the root's QP");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(limited.durationUs, boundUs, "no faster than the NIC");
        // The data and the last ACK's way back take a few µs; the rest is the NIC's queue.
        NS_TEST_ASSERT_MSG_LT(limited.durationUs, boundUs + 15, "and bounded by it");
        NS_TEST_ASSERT_MSG_GT(limited.receive["max_wait_us"].get<double>(),
                              0.5 * boundUs,
                              "ACKs wait at the root's NIC");

        // The wrong models: no receive path, or ACKs reduced before they reach the NIC.
        Outcome free = RunBroadcast("none", 0);
        NS_TEST_ASSERT_MSG_LT(free.durationUs, 0.5 * boundUs, "without the pipeline: not bound");
        NS_TEST_ASSERT_MSG_EQ(free.receive["packets"].get<uint64_t>(), 0, "and nothing counted");
        Outcome tor = RunBroadcast("source-tor", RATE_MPPS);
        NS_TEST_ASSERT_MSG_EQ(tor.rootAcks, PACKETS, "source-ToR: one ACK per packet");
        NS_TEST_ASSERT_MSG_LT(tor.durationUs, 0.5 * boundUs, "source-ToR: not bound");
        // sender-nic reduces at the NIC, after its receive path: it pays as none does.
        Outcome nic = RunBroadcast("sender-nic", RATE_MPPS);
        NS_TEST_ASSERT_MSG_EQ_TOL(nic.durationUs, limited.durationUs, 1e-6, "sender-nic as none");
    }
};

class PauseTestCase : public TestCase
{
public:
    PauseTestCase()
        : TestCase("a receive buffer with XOFF pauses its ToR and loses nothing")
    {
    }

private:
    void DoRun() override
    {
        constexpr uint32_t XOFF = 16384;
        Outcome unbounded = RunBroadcast("none", RATE_MPPS);
        NS_TEST_ASSERT_MSG_GT(unbounded.receive["max_backlog_bytes"].get<uint64_t>(),
                              4 * XOFF,
                              "unbounded: the backlog grows far past the threshold");
        NS_TEST_ASSERT_MSG_EQ(unbounded.receive["pauses"].get<uint64_t>(), 0, "and no pause");

        Outcome paused = RunBroadcast("none", RATE_MPPS, XOFF);
        NS_TEST_ASSERT_MSG_GT(paused.receive["pauses"].get<uint64_t>(), 0, "the NIC pauses");
        // After XOFF the ToR stops within a pause frame's flight and one frame in progress:
        // 1 µs of cable each way at 100 Gb/s is 25 kB of ACKs at most.
        NS_TEST_ASSERT_MSG_LT(paused.receive["max_backlog_bytes"].get<uint64_t>(),
                              XOFF + 2 * 12500 + 1100,
                              "the backlog stays within XOFF and one round trip");
        NS_TEST_ASSERT_MSG_EQ(paused.rootAcks, ROOT_ACKS, "no ACK lost");
        NS_TEST_ASSERT_MSG_EQ(paused.drops, 0, "no drop in the fabric");
        // Pausing moves the queue into the ToR; the NIC's rate still decides.
        NS_TEST_ASSERT_MSG_EQ_TOL(paused.durationUs, unbounded.durationUs, 2.0, "same finish");
    }
};

class NicReceiveTestSuite : public TestSuite
{
public:
    NicReceiveTestSuite()
        : TestSuite("mcast4ai-nic-receive", TestSuite::Type::UNIT)
    {
        AddTestCase(new AckBoundTestCase());
        AddTestCase(new PauseTestCase());
    }
};

NicReceiveTestSuite g_nicReceiveTestSuite;

} // namespace
