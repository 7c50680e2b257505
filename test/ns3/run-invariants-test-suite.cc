/*
 * RunInvariants: the conservation laws every run is checked against at its end
 * (docs/robustness.md "Conservation invariants").
 *
 * - The cable law on hand-made counts: what a port sent has arrived or is on the cable, frame
 *   for frame and byte for byte; one frame or one byte missing is a violation.
 * - A real run obeys every law: golden-lossy-incast (15 senders into one host, PFC off, so
 *   the switch's 1 MB buffer drops and the senders resend) and the same with PFC on and a
 *   4 MB buffer (lossless: no drops).
 * - An ACK for a PSN never sent, handed to a queue pair after the run, is refused (the
 *   queue pair's state does not move) and is the one violation reported.
 * - Every switch's MMU counts exactly the frames it holds, recounted every 2 µs through a
 *   run with replication (golden-moe-sets: new-protocol copies on a k = 4 fat-tree) and
 *   through the lossless incast, while frames are queued, and is back at zero at the end; a
 *   phantom 100 B charged to one egress queue is one violation, to one ingress queue two
 *   (that queue and the buffer in use).
 */
#include "dcqcn-test-helpers.h"
#include "fabric/model/fabric-switch.h"
#include "fabric/model/switch-mmu.h"
#include "ns3/test.h"
#include "rdma/model/queue-pair.h"
#include "rdma/model/rdma-nic.h"
#include "scenario/model/run-invariants.h"
#include "scenario/model/scenario-runner.h"
#include "wire/model/fabric-address.h"

using namespace ns3;
using namespace ns3::test;

namespace
{

class CableLawTestCase : public TestCase
{
public:
    CableLawTestCase()
        : TestCase("cable law: sent = arrived + on the cable, in frames and bytes")
    {
    }

private:
    void DoRun() override
    {
        RunInvariants::Cable ok;
        ok.name = "a -> b";
        ok.txFrames = 10;
        ok.txBytes = 10000;
        ok.arrivedFrames = 7;
        ok.arrivedBytes = 7000;
        ok.inFlightFrames = 3;
        ok.inFlightBytes = 3000;
        NS_TEST_ASSERT_MSG_EQ(RunInvariants::CheckCables({ok}).size(), 0, "conserved");

        RunInvariants::Cable frameGone = ok;
        frameGone.inFlightFrames = 2;
        frameGone.inFlightBytes = 2000;
        const auto v = RunInvariants::CheckCables({ok, frameGone});
        NS_TEST_ASSERT_MSG_EQ(v.size(), 1, "one frame missing");
        NS_TEST_ASSERT_MSG_EQ(v[0],
                              "a -> b: sent 10 frames (10000 B), but 7 (7000 B) arrived and 2 "
                              "(2000 B) are on the cable",
                              "the message names the cable and the counts");

        RunInvariants::Cable byteGone = ok;
        byteGone.arrivedBytes = 6999;
        NS_TEST_ASSERT_MSG_EQ(RunInvariants::CheckCables({byteGone}).size(), 1, "one byte missing");
    }
};

class RealRunTestCase : public TestCase
{
public:
    RealRunTestCase()
        : TestCase("a real run obeys every law; a forged ACK beyond what was sent is caught")
    {
    }

private:
    void DoRun() override
    {
        for (bool pfc : {false, true})
        {
            nlohmann::json j = ReadScenarioFile("../test/golden", "lossy-incast.json");
            j["switch"]["pfc"]["enabled"] = pfc;
            if (pfc)
            {
                j["switch"]["buffer_mb"] = 4; // room for the reserves and PFC headroom
            }
            j["output"]["dir"] = "/tmp/mcast4ai-test-run-invariants";
            ScenarioConfig c = Scenario::Parse(j.dump(), "lossy-incast.json", {});
            ScenarioRunner::UsePicoseconds();
            ScenarioRunner runner(c);
            runner.Build();
            NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "the incast completes");
            const nlohmann::json s = runner.Summary();
            const uint64_t drops = s["network"]["drops"].get<uint64_t>();
            if (pfc)
            {
                NS_TEST_ASSERT_MSG_EQ(drops, 0, "PFC with the model's headroom drops nothing");
            }
            else
            {
                NS_TEST_ASSERT_MSG_GT(drops, 0, "without PFC the 1 MB buffer drops");
            }
            const auto cables = RunInvariants::Cables(runner.GetFabric());
            // 16 hosts, 2 leaves x (8 + 2) ports, 2 spines x 2 ports: 40 cable directions.
            NS_TEST_ASSERT_MSG_EQ(cables.size(), 40, "every cable direction is counted");
            uint64_t frames = 0;
            for (const auto& cable : cables)
            {
                frames += cable.txFrames;
            }
            NS_TEST_ASSERT_MSG_GT(frames, 15 * 256, "at least every data frame was sent once");
            const auto clean = RunInvariants::Check(runner.GetFabric(), c);
            NS_TEST_ASSERT_MSG_EQ(clean.size(), 0, (clean.empty() ? "" : clean[0]));

            // Host 1 sent 256 packets (PSN 0..255) to host 0 and is done: an ACK of PSN 2^22
            // acknowledges what it never sent.
            Ptr<RdmaNic> nic = runner.GetFabric().GetNic(1);
            Ptr<QueuePair> qp = nic->GetQpByIndex(0);
            FrameInfo forged;
            forged.psn = 1u << 22;
            forged.syndrome = 0; // ACK
            forged.srcIp = FabricAddress::HostIpv4(0).Get();
            qp->ReceiveAck(forged);
            NS_TEST_ASSERT_MSG_EQ(
                nic->GetCounters().acksBeyondSent, 1, "the forged ACK is counted");
            const auto caught = RunInvariants::Check(runner.GetFabric(), c);
            NS_TEST_ASSERT_MSG_EQ(caught.size(), 1, "and is the one violation");
            NS_TEST_ASSERT_MSG_EQ(caught[0],
                                  "1 ACK(s) acknowledged a PSN their queue pair never sent",
                                  "named as such");
            Simulator::Destroy();
        }
    }
};

class BufferAccountingTestCase : public TestCase
{
public:
    BufferAccountingTestCase()
        : TestCase("every switch's MMU counts exactly the frames it holds, and drains to zero")
    {
    }

private:
    struct Tally
    {
        uint32_t checks{0};
        uint32_t busy{0}; ///< checks that found frames queued
        std::vector<std::string> violations;
    };

    static void Recount(TopologyBuilder* fabric, Tally* t)
    {
        ++t->checks;
        uint64_t used = 0;
        for (uint32_t s = 0; s < fabric->GetSwitchCount(); ++s)
        {
            used += fabric->GetSwitch(s)->GetMmu()->GetUsedBytes();
            for (const std::string& v : fabric->GetSwitch(s)->CheckBuffers())
            {
                t->violations.push_back(v);
            }
        }
        t->busy += used > 0;
        Simulator::Schedule(MicroSeconds(2), &Recount, fabric, t);
    }

    void DoRun() override
    {
        for (const std::string name : {"moe-sets.json", "lossy-incast.json"})
        {
            nlohmann::json j = ReadScenarioFile("../test/golden", name);
            j["switch"]["pfc"]["enabled"] = true;
            j["switch"]["buffer_mb"] = 4;
            j["output"]["dir"] = "/tmp/mcast4ai-test-run-invariants";
            ScenarioConfig c = Scenario::Parse(j.dump(), name, {});
            ScenarioRunner::UsePicoseconds();
            ScenarioRunner runner(c);
            runner.Build();
            Tally t;
            Simulator::Schedule(MicroSeconds(1), &Recount, &runner.GetFabric(), &t);
            NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, name << " completes");
            NS_TEST_ASSERT_MSG_GT(t.busy, 10, name << ": checked while frames were queued");
            NS_TEST_ASSERT_MSG_EQ(t.violations.size(),
                                  0,
                                  name << ": " << (t.violations.empty() ? "" : t.violations[0]));
            // Let the last ACKs and frames drain, then every counter is zero.
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            Recount(&runner.GetFabric(), &t);
            uint64_t used = 0;
            for (uint32_t s = 0; s < runner.GetFabric().GetSwitchCount(); ++s)
            {
                used += runner.GetFabric().GetSwitch(s)->GetMmu()->GetUsedBytes();
            }
            NS_TEST_ASSERT_MSG_EQ(used, 0, name << ": a drained fabric holds nothing");
            NS_TEST_ASSERT_MSG_EQ(t.violations.size(), 0, name << ": and counts nothing");

            Ptr<FabricSwitch> sw = runner.GetFabric().GetSwitch(0);
            sw->GetMmu()->AdmitEgress(1, 3, 100);
            NS_TEST_ASSERT_MSG_EQ(sw->CheckBuffers().size(), 1, "a phantom egress charge");
            sw->GetMmu()->ReleaseEgress(1, 3, 100);
            sw->GetMmu()->AdmitIngress(1, 3, 100);
            const auto v = sw->CheckBuffers();
            NS_TEST_ASSERT_MSG_EQ(v.size(), 2, "a phantom ingress charge: queue and buffer");
            NS_TEST_ASSERT_MSG_EQ(RunInvariants::Check(runner.GetFabric(), c).size(),
                                  2,
                                  "and the run's invariants report them");
            sw->GetMmu()->ReleaseIngress(1, 3, 100);
            Simulator::Destroy();
        }
    }
};

class RunInvariantsTestSuite : public TestSuite
{
public:
    RunInvariantsTestSuite()
        : TestSuite("mcast4ai-run-invariants", TestSuite::Type::UNIT)
    {
        AddTestCase(new CableLawTestCase());
        AddTestCase(new RealRunTestCase());
        AddTestCase(new BufferAccountingTestCase());
    }
};

RunInvariantsTestSuite g_runInvariantsTestSuite;

} // namespace
