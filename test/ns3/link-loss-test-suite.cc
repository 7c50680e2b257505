/*
 * Random link loss (topology.*_link.loss_rate) on scenarios/load-balancing/lossy-8x8.json:
 * two 16 MiB flows cross a 2-leaf, 8-spine fabric whose fabric links lose 1% of frames.
 * - The loss is what was asked: over every frame sent into a lossy link (both directions,
 *   data, ACKs and PFC alike), the fraction lost is 1% within four binomial standard
 *   deviations.
 * - Both receivers recover everything (the flows complete, nothing is dropped by a switch).
 *   The go-back-N receiver resends everything after each loss; the tolerant one (selective
 *   NAKs for every hole, each PSN resent alone) resends about what was lost, and finishes
 *   much sooner.
 */
#include "dcqcn-test-helpers.h"
#include "ns3/test.h"
#include "scenario/model/scenario-runner.h"

#include <cmath>
#include <iostream>

using namespace ns3;
using namespace ns3::test;

namespace
{

constexpr uint32_t LEAVES = 2;
constexpr uint32_t SPINES = 8;
constexpr uint32_t HOSTS_PER_LEAF = 8;
constexpr double LOSS = 0.01;

struct Outcome
{
    bool complete{false};
    double slowestUs{0};
    uint64_t losses{0};
    uint64_t lossyFrames{0}; ///< frames sent into a lossy (fabric) link
    uint64_t retransmissions{0};
    uint64_t drops{0};
};

Outcome
RunLossy(const std::string& receiver)
{
    nlohmann::json j = ReadScenarioFile("load-balancing", "lossy-8x8.json");
    j["nic"]["reorder"] = receiver;
    j["output"]["dir"] = "/tmp/mcast4ai-test-link-loss-" + receiver;
    ScenarioConfig c = Scenario::Parse(j.dump(), "lossy-8x8.json", {});
    ScenarioRunner::UsePicoseconds();
    ScenarioRunner runner(c);
    runner.Build();
    Outcome o;
    o.complete = runner.Run();
    nlohmann::json s = runner.Summary();
    o.slowestUs = s["workloads"][0]["duration_us"]["max"].get<double>();
    o.losses = s["network"]["link_losses"].get<uint64_t>();
    o.retransmissions = s["network"]["retransmissions"].get<uint64_t>();
    o.drops = s["network"]["drops"].get<uint64_t>();
    // Leaves first (their uplinks follow their host ports), then spines (every port a
    // fabric link).
    for (uint32_t sw = 0; sw < LEAVES + SPINES; ++sw)
    {
        Ptr<FabricSwitch> x = runner.GetFabric().GetSwitch(sw);
        for (uint32_t p = sw < LEAVES ? HOSTS_PER_LEAF : 0; p < x->GetNPorts(); ++p)
        {
            o.lossyFrames += x->GetPort(p)->GetTxFrames();
        }
    }
    return o;
}

class LinkLossTestCase : public TestCase
{
public:
    LinkLossTestCase()
        : TestCase("1% link loss: lost as asked, recovered by both receivers, the tolerant one "
                   "resending about what was lost")
    {
    }

private:
    void DoRun() override
    {
        Outcome tolerant = RunLossy("tolerant");
        Outcome gbn = RunLossy("go-back-n");
        for (const Outcome* o : {&tolerant, &gbn})
        {
            double n = o->lossyFrames;
            double sigma = std::sqrt(n * LOSS * (1 - LOSS));
            std::clog << (o == &tolerant ? "tolerant" : "go-back-n") << ": slowest " << o->slowestUs
                      << " us, " << o->losses << " of " << o->lossyFrames << " frames lost ("
                      << 100.0 * o->losses / n << "%, expected 1% +- " << 400 * sigma / n << "%), "
                      << o->retransmissions << " retransmitted" << std::endl;
            NS_TEST_EXPECT_MSG_EQ(o->complete, true, "every flow completes");
            NS_TEST_EXPECT_MSG_EQ(o->drops, 0, "no switch drops: PFC keeps congestion lossless");
            NS_TEST_EXPECT_MSG_EQ_TOL(double(o->losses), n * LOSS, 4 * sigma, "1% lost");
        }
        // Every lost data packet is resent at least once; the tolerant receiver asks for
        // little more, go-back-N resends a window's worth per loss.
        NS_TEST_EXPECT_MSG_LT(tolerant.retransmissions, 2 * tolerant.losses, "selective");
        NS_TEST_EXPECT_MSG_GT(gbn.retransmissions, 20 * gbn.losses, "go-back-N");
        NS_TEST_EXPECT_MSG_LT(tolerant.slowestUs, gbn.slowestUs / 2, "tolerant finishes sooner");
    }
};

class LinkLossTestSuite : public TestSuite
{
public:
    LinkLossTestSuite()
        : TestSuite("mcast4ai-link-loss", TestSuite::Type::UNIT)
    {
        AddTestCase(new LinkLossTestCase());
    }
};

LinkLossTestSuite g_linkLossTestSuite;

} // namespace
