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
#include "test-fabric.h"

#include <algorithm>
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

/*
 * Differentiated reliability on scenarios/load-balancing/loss-tolerant-8x8.json: eight 4 MiB
 * flows sprayed (spray-adaptive, tolerant NIC) over 8 spines whose links lose 1% of frames;
 * four are loss-sensitive, four loss-tolerant with 0 retransmissions.
 * - Every sensitive flow is complete: no byte of it is lost.
 * - The tolerant flows lose what the links lost: each data packet crosses two lossy links,
 *   so 1 - 0.99^2 = 1.99% of 4 x 4096 packets, 326 +- 4 sigma (binomial), each a full MTU.
 *   Only a lost first packet (it carries the RETH, where the bytes go) is sent again.
 * - They finish sooner. A tolerant flow ends a reorder timeout after its last hole was
 *   seen: it is given up on then, so its FCT is at most the ideal (line rate, path and ACK)
 *   + 100 us, and with 2% loss the last hole is among the last few packets. A sensitive flow asks
 * for its last holes at that time and waits at least one more round trip for them (more if a resend
 * is lost too).
 */
class LossTolerantTestCase : public TestCase
{
public:
    LossTolerantTestCase()
        : TestCase("1% link loss, half the flows loss-tolerant with 0 retransmissions: they lose "
                   "what the links lost, finish a reorder timeout after line rate, sooner than "
                   "the sensitive flows, which lose nothing")
    {
    }

private:
    void DoRun() override
    {
        constexpr uint64_t BYTES = 4u << 20;
        constexpr uint32_t MTU = 1024;
        constexpr uint64_t PACKETS = BYTES / MTU;
        constexpr double RATE_GBPS = 100;
        constexpr double TIMEOUT_US = 100;
        nlohmann::json j = ReadScenarioFile("load-balancing", "loss-tolerant-8x8.json");
        j["output"]["dir"] = "/tmp/mcast4ai-test-loss-tolerant";
        ScenarioConfig c = Scenario::Parse(j.dump(), "loss-tolerant-8x8.json", {});
        ScenarioRunner::UsePicoseconds();
        ScenarioRunner runner(c);
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "every flow completes");
        nlohmann::json s = runner.Summary();

        const double idealUs
            = 1e6
              * (MessageDataSeconds(BYTES, MTU, RATE_GBPS)
                 + CrossLeafPathSeconds(MTU + ROCE_HEADER_BYTES, RATE_GBPS, 1e-6, 500e-9)
                 + CrossLeafAckSeconds(RATE_GBPS, 1e-6, 500e-9));
        const OpLedger* ops = runner.GetFabric().GetTrafficLedger()->GetOpLedger();
        const auto& records = runner.GetMetrics()->GetOps();
        double slowest[2] = {0, 0};
        double fastest[2] = {1e30, 1e30};
        double total[2] = {0, 0};
        uint64_t lostByOps = 0;
        for (uint64_t h = 0; h < records.size(); ++h)
        {
            const Metrics::OpRecord& r = records[h];
            NS_TEST_ASSERT_MSG_EQ(r.done, true, "op " << h << " completes");
            double us = (r.end - r.start).GetNanoSeconds() / 1e3;
            slowest[r.workload] = std::max(slowest[r.workload], us);
            total[r.workload] += us;
            fastest[r.workload] = std::min(fastest[r.workload], us);
            uint64_t lost = ops->Get(Metrics::OpTag(h)).lostBytes;
            if (r.workload == 0)
            {
                NS_TEST_EXPECT_MSG_EQ(lost, 0, "a sensitive flow loses nothing");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(lost, 0, "a tolerant flow loses what its links lost");
                lostByOps += lost;
            }
        }

        const nlohmann::json& t = s["workloads"][1]["loss_tolerant"];
        const uint64_t lostPackets = t["lost_packets"].get<uint64_t>();
        const double p = 1 - (1 - 0.01) * (1 - 0.01);
        const double n = 4 * PACKETS;
        const double sigma = std::sqrt(n * p * (1 - p));
        std::clog << "sensitive: " << fastest[0] << " .. " << slowest[0] << " us, "
                  << s["workloads"][0]["network"]["retransmissions"] << " retransmitted; "
                  << "tolerant: " << fastest[1] << " .. " << slowest[1] << " us (ideal " << idealUs
                  << " + " << TIMEOUT_US << "), " << lostPackets << " packets lost (expected "
                  << n * p << " +- " << 4 * sigma << "), " << t.dump() << std::endl;
        NS_TEST_EXPECT_MSG_EQ_TOL(double(lostPackets), n * p, 4 * sigma, "1.99% of its packets");
        NS_TEST_EXPECT_MSG_EQ(t["lost_bytes"].get<uint64_t>(), lostPackets * MTU, "full MTUs");
        NS_TEST_EXPECT_MSG_EQ(lostByOps, lostPackets * MTU, "ops.csv rows add up");
        NS_TEST_EXPECT_MSG_EQ(t["ops_with_loss"].get<uint64_t>(), 4, "every tolerant flow");
        NS_TEST_EXPECT_MSG_LT(s["workloads"][1]["network"]["retransmissions"].get<uint64_t>(),
                              4,
                              "only lost first packets are resent");
        NS_TEST_EXPECT_MSG_GT(s["workloads"][0]["network"]["retransmissions"].get<uint64_t>(),
                              n * p - 4 * sigma,
                              "every sensitive loss is resent");
        // Its last hole is given up on a timeout after the first packet behind it arrived,
        // which is at most the ideal (less the last packets' time after it): with 2% loss the
        // last hole is among the last few packets of one of the four flows.
        NS_TEST_EXPECT_MSG_LT_OR_EQ(slowest[1], idealUs + TIMEOUT_US, "timeout past line rate");
        NS_TEST_EXPECT_MSG_GT(slowest[1], idealUs + TIMEOUT_US - 10, "not before");
        NS_TEST_EXPECT_MSG_LT(slowest[1], slowest[0], "the slowest tolerant flow is sooner");
        NS_TEST_EXPECT_MSG_LT(total[1], total[0], "and so is the mean");
    }
};

/*
 * Differentiated reliability by model layer (scenarios/load-balancing/moe-lossy-layers.json):
 * four MoE layers over 32 ranks, unicast dispatch and combine, fabric links losing 1%; layers
 * 2 and 3 loss-tolerant with 0 retransmissions (loss_tolerant_layers), on connections of
 * their own. Every layer completes; layers 0 and 1 lose nothing; layers 2 and 3 lose bytes,
 * which their ops.csv rows and the summary report alike, and resend only what the receivers
 * cannot size (a message's first packet): less than a third of what a reliable layer resends.
 */
class LossTolerantLayersTestCase : public TestCase
{
public:
    LossTolerantLayersTestCase()
        : TestCase("MoE with loss-tolerant layers 2 and 3: only they lose bytes, and they resend "
                   "little")
    {
    }

private:
    void DoRun() override
    {
        nlohmann::json j = ReadScenarioFile("load-balancing", "moe-lossy-layers.json");
        j["output"]["dir"] = "/tmp/mcast4ai-test-moe-lossy-layers";
        ScenarioConfig c = Scenario::Parse(j.dump(), "moe-lossy-layers.json", {});
        ScenarioRunner::UsePicoseconds();
        ScenarioRunner runner(c);
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "every layer completes");
        nlohmann::json s = runner.Summary();
        const OpLedger* ops = runner.GetFabric().GetTrafficLedger()->GetOpLedger();
        const auto& records = runner.GetMetrics()->GetOps();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 4, "one row per layer");
        uint64_t lost = 0;
        uint64_t resent[2] = {0, 0};
        for (uint64_t h = 0; h < records.size(); ++h)
        {
            // An operation's counts are its own tag's and its phases' (dispatch, combine).
            const OpLedger::Row row = ops->Sum(runner.GetMetrics()->TagsOf(h));
            bool tolerant = records[h].iteration >= 2;
            std::clog << "layer " << records[h].iteration << ": "
                      << (records[h].end - records[h].start).GetMicroSeconds() << " us, "
                      << row.retransmissions << " resent, " << row.lostBytes << " bytes lost"
                      << std::endl;
            if (tolerant)
            {
                NS_TEST_EXPECT_MSG_GT(row.lostBytes, 0, "a tolerant layer loses bytes");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(row.lostBytes, 0, "a reliable layer loses nothing");
            }
            lost += row.lostBytes;
            resent[tolerant] += row.retransmissions;
        }
        const nlohmann::json& t = s["workloads"][0]["loss_tolerant"];
        NS_TEST_EXPECT_MSG_EQ(t["lost_bytes"].get<uint64_t>(), lost, "summary = ops.csv");
        NS_TEST_EXPECT_MSG_EQ(t["ops_with_loss"].get<uint64_t>(), 2, "layers 2 and 3");
        NS_TEST_EXPECT_MSG_LT(3 * resent[1], resent[0], "tolerant layers resend little");
    }
};

class LinkLossTestSuite : public TestSuite
{
public:
    LinkLossTestSuite()
        : TestSuite("mcast4ai-link-loss", TestSuite::Type::UNIT)
    {
        AddTestCase(new LinkLossTestCase());
        AddTestCase(new LossTolerantTestCase());
        AddTestCase(new LossTolerantLayersTestCase());
    }
};

LinkLossTestSuite g_linkLossTestSuite;

} // namespace
