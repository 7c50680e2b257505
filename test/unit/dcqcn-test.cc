/*
 * DCQCN reaction-point arithmetic against sequences worked out by hand (rates in Gb/s on a
 * 100 Gb/s line; g = 1/256, F = 5, R_AI = 40 Mb/s, R_HAI = 200 Mb/s, floor 100 Mb/s).
 */
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "rdma/model/dcqcn.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr double EPS = 1e-6; // Gb/s: rates are held as whole bit/s

Ptr<Dcqcn>
Make(double initialAlpha = 1.0, bool clamp = true)
{
    Ptr<Dcqcn> cc = CreateObject<Dcqcn>();
    cc->SetAttribute("G", DoubleValue(1.0 / 256));
    cc->SetAttribute("FastRecoverySteps", UintegerValue(5));
    cc->SetAttribute("RateAi", DataRateValue(DataRate("40Mbps")));
    cc->SetAttribute("RateHai", DataRateValue(DataRate("200Mbps")));
    cc->SetAttribute("MinRate", DataRateValue(DataRate("100Mbps")));
    cc->SetAttribute("ByteCounter", UintegerValue(10 * 1024 * 1024));
    cc->SetAttribute("InitialAlpha", DoubleValue(initialAlpha));
    cc->SetAttribute("ClampTargetRate", BooleanValue(clamp));
    cc->SetLineRate(DataRate("100Gbps"));
    return cc;
}

double
Gbps(DataRate r)
{
    return r.GetBitRate() / 1e9;
}

class DcqcnTest : public ::testing::Test
{
protected:
    void TearDown() override
    {
        Simulator::Destroy(); // the reaction point schedules its increase timer
    }
};

TEST_F(DcqcnTest, CnpHalvesAtAlphaOneAndKeepsTarget)
{
    Ptr<Dcqcn> cc = Make();
    cc->ReceiveCnp(); // Rt = 100, Rc = 100 (1 - 1/2) = 50, alpha = (255/256) 1 + 1/256 = 1
    EXPECT_NEAR(Gbps(cc->GetRate()), 50, EPS);
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 100, EPS);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 1.0);
    cc->ReceiveCnp(); // Rt = 50, Rc = 25
    EXPECT_NEAR(Gbps(cc->GetRate()), 25, EPS);
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 50, EPS);
}

TEST_F(DcqcnTest, DecreaseScalesWithAlpha)
{
    Ptr<Dcqcn> cc = Make(0.5);
    cc->ReceiveCnp(); // Rc = 100 (1 - 0.25) = 75; alpha = 0.5 * 255/256 + 1/256
    EXPECT_NEAR(Gbps(cc->GetRate()), 75, EPS);
    EXPECT_DOUBLE_EQ(cc->GetAlpha(), 0.5 * 255 / 256 + 1.0 / 256);
}

TEST_F(DcqcnTest, AlphaDecaysOncePerPeriodWithoutCnp)
{
    Ptr<Dcqcn> cc = Make();
    cc->ReceiveCnp(); // alpha = 1 at t = 0
    double at2 = -1;
    double at3 = -1;
    // K = 55 us: two full periods by 110.5 us, three by 165.5 us.
    Simulator::Schedule(NanoSeconds(110500),
                        [&]()
                        {
                            at2 = cc->GetAlpha();
                        });
    Simulator::Schedule(NanoSeconds(165500),
                        [&]()
                        {
                            at3 = cc->GetAlpha();
                        });
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();
    EXPECT_DOUBLE_EQ(at2, std::pow(255.0 / 256, 2));
    EXPECT_DOUBLE_EQ(at3, std::pow(255.0 / 256, 3));
}

TEST_F(DcqcnTest, FastRecoveryThenAdditiveThenHyperIncrease)
{
    Ptr<Dcqcn> cc = Make();
    cc->ReceiveCnp();
    cc->ReceiveCnp(); // Rc = 25, Rt = 50
    // Timer stages 1..4 < F: fast recovery halves the distance to the target.
    const double fr[] = {37.5, 43.75, 46.875, 48.4375};
    for (double want : fr)
    {
        cc->RateIncreaseTimerExpired();
        EXPECT_EQ(cc->GetLastPhase(), Dcqcn::FAST_RECOVERY);
        EXPECT_NEAR(Gbps(cc->GetRate()), want, EPS);
        EXPECT_NEAR(Gbps(cc->GetTargetRate()), 50, EPS);
    }
    // Timer stage 5 = F, byte stage 0: additive increase, Rt + 0.04, Rc to the midpoint.
    cc->RateIncreaseTimerExpired();
    EXPECT_EQ(cc->GetLastPhase(), Dcqcn::ADDITIVE_INCREASE);
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 50.04, EPS);
    EXPECT_NEAR(Gbps(cc->GetRate()), 49.23875, EPS);
    // Byte stages 1..4 (one per 10 MiB sent): still additive, the timer is past F.
    const double ai[][2]
        = {{49.659375, 50.08}, {49.8896875, 50.12}, {50.02484375, 50.16}, {50.112421875, 50.2}};
    for (const auto& want : ai)
    {
        cc->BytesSent(10 * 1024 * 1024);
        EXPECT_EQ(cc->GetLastPhase(), Dcqcn::ADDITIVE_INCREASE);
        EXPECT_NEAR(Gbps(cc->GetRate()), want[0], EPS);
        EXPECT_NEAR(Gbps(cc->GetTargetRate()), want[1], EPS);
    }
    // Byte stage 5: both counters at F, hyper increase with i = min(5, 5) - F + 1 = 1.
    cc->BytesSent(10 * 1024 * 1024);
    EXPECT_EQ(cc->GetLastPhase(), Dcqcn::HYPER_INCREASE);
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 50.4, EPS);
    EXPECT_NEAR(Gbps(cc->GetRate()), 50.2562109375, EPS);
    // Byte stage 6: i is still min(5, 6) - 4 = 1; timer stage 6: i = 2.
    cc->BytesSent(10 * 1024 * 1024);
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 50.6, EPS);
    EXPECT_NEAR(Gbps(cc->GetRate()), 50.42810546875, EPS);
    cc->RateIncreaseTimerExpired();
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 51.0, EPS);
    EXPECT_NEAR(Gbps(cc->GetRate()), 50.714052734375, EPS);
    // Partial byte counts accumulate: 5 MiB twice is one stage.
    uint32_t before = cc->GetByteStage();
    cc->BytesSent(5 * 1024 * 1024);
    EXPECT_EQ(cc->GetByteStage(), before);
    cc->BytesSent(5 * 1024 * 1024);
    EXPECT_EQ(cc->GetByteStage(), before + 1);
}

TEST_F(DcqcnTest, CnpResetsTheIncreaseCounters)
{
    Ptr<Dcqcn> cc = Make();
    cc->ReceiveCnp();
    cc->RateIncreaseTimerExpired();
    cc->BytesSent(10 * 1024 * 1024);
    EXPECT_EQ(cc->GetTimerStage(), 1u);
    EXPECT_EQ(cc->GetByteStage(), 1u);
    cc->ReceiveCnp();
    EXPECT_EQ(cc->GetTimerStage(), 0u);
    EXPECT_EQ(cc->GetByteStage(), 0u);
}

TEST_F(DcqcnTest, NeverBelowFloorNorAboveLineRate)
{
    Ptr<Dcqcn> cc = Make();
    for (int i = 0; i < 20; ++i) // 100 / 2^20 Gb/s would be far below 100 Mb/s
    {
        cc->ReceiveCnp();
    }
    EXPECT_NEAR(Gbps(cc->GetRate()), 0.1, EPS);
    for (int i = 0; i < 3000; ++i) // additive steps of 40 Mb/s: 120 Gb/s worth, capped
    {
        cc->RateIncreaseTimerExpired();
    }
    EXPECT_NEAR(Gbps(cc->GetRate()), 100, EPS);
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 100, EPS);
}

TEST_F(DcqcnTest, RateOnFirstCnp)
{
    Ptr<Dcqcn> cc = Make();
    cc->SetAttribute("RateOnFirstCnp", DataRateValue(DataRate("10Gbps")));
    cc->ReceiveCnp();
    EXPECT_NEAR(Gbps(cc->GetRate()), 10, EPS);
    cc->ReceiveCnp(); // later CNPs decrease normally: 10 (1 - 1/2)
    EXPECT_NEAR(Gbps(cc->GetRate()), 5, EPS);
}

TEST_F(DcqcnTest, UnclampedTargetSurvivesBackToBackCnps)
{
    Ptr<Dcqcn> cc = Make(1.0, false);
    cc->ReceiveCnp(); // first cut clamps: Rt = 100, Rc = 50
    cc->ReceiveCnp(); // no increase in between: Rt stays 100, Rc = 25
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 100, EPS);
    EXPECT_NEAR(Gbps(cc->GetRate()), 25, EPS);
    cc->RateIncreaseTimerExpired(); // FR towards the old target: (100 + 25) / 2
    EXPECT_NEAR(Gbps(cc->GetRate()), 62.5, EPS);
    cc->ReceiveCnp(); // an increase happened: clamp to 62.5, cut to 31.25
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 62.5, EPS);
    EXPECT_NEAR(Gbps(cc->GetRate()), 31.25, EPS);
}

TEST_F(DcqcnTest, PacingDelayIsWireTimeAtTheCurrentRate)
{
    Ptr<Dcqcn> cc = Make();
    EXPECT_EQ(cc->PacingDelay(1106).GetPicoSeconds(), 88480); // 1106 B at 100 Gb/s
    cc->ReceiveCnp();
    EXPECT_EQ(cc->PacingDelay(1106).GetPicoSeconds(), 176960); // at 50 Gb/s
}

} // namespace
