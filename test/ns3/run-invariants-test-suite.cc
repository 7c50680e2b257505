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
 */
#include "dcqcn-test-helpers.h"
#include "ns3/test.h"
#include "rdma/model/queue-pair.h"
#include "rdma/model/rdma-nic.h"
#include "scenario/model/run-invariants.h"
#include "scenario/model/scenario-runner.h"

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
            forged.srcIp = RdmaNic::HostAddress(0).Get();
            qp->ReceiveAck(forged);
            NS_TEST_ASSERT_MSG_EQ(nic->GetAcksBeyondSent(), 1, "the forged ACK is counted");
            const auto caught = RunInvariants::Check(runner.GetFabric(), c);
            NS_TEST_ASSERT_MSG_EQ(caught.size(), 1, "and is the one violation");
            NS_TEST_ASSERT_MSG_EQ(caught[0],
                                  "1 ACK(s) acknowledged a PSN their queue pair never sent",
                                  "named as such");
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
    }
};

RunInvariantsTestSuite g_runInvariantsTestSuite;

} // namespace
