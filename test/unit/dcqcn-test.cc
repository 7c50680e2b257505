/*
 * DCQCN reaction-point arithmetic against sequences worked out by hand (rates in Gb/s on a
 * 100 Gb/s line; g = 1/256, F = 5, R_AI = 40 Mb/s, R_HAI = 200 Mb/s, floor 100 Mb/s), then the
 * rate-decrease interval, the per-period alpha update and the timer-only increase of the
 * `hpcc-simulator` preset.
 */
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "rdma/model/dcqcn.h"

#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <vector>

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

// ---------------------------------------------------------------------------------------------
// Rate-decrease interval, per-period alpha, timer-only increase (`hpcc-simulator`'s rules)

constexpr double G = 1.0 / 256;

/// Run the simulator until `t`, running `f` there first (events at the same time run in order).
void
At(Time t, std::function<void()> f)
{
    Simulator::Schedule(t - Simulator::Now(), f);
}

void
RunUntil(Time t)
{
    Simulator::Stop(t - Simulator::Now());
    Simulator::Run();
}

TEST_F(DcqcnTest, AlphaHoldsItsInitialValueUntilTheFirstCnp)
{
    // K = 1 us: before the fix 100 us without a CNP decayed alpha to (255/256)^100 = 0.68.
    Ptr<Dcqcn> cc = Make();
    cc->SetAttribute("AlphaUpdatePeriod", TimeValue(MicroSeconds(1)));
    double before = -1;
    At(MicroSeconds(100),
       [&]()
       {
           before = cc->GetAlpha();
           cc->ReceiveCnp();
       });
    RunUntil(MicroSeconds(101));
    EXPECT_DOUBLE_EQ(before, 1.0);
    EXPECT_NEAR(Gbps(cc->GetRate()), 50, EPS); // cut with alpha = 1
}

TEST_F(DcqcnTest, TwoCnpsWithinTheRateDecreaseIntervalGiveOneCut)
{
    // hpcc rules: RDI 4 us, K = 1 us per period, alpha starting at 1 at the first CNP.
    Ptr<Dcqcn> cc = Make();
    cc->SetAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(4)));
    cc->SetAttribute("AlphaUpdatePeriod", TimeValue(MicroSeconds(1)));
    cc->SetAttribute("AlphaUpdate", EnumValue(Dcqcn::ALPHA_PER_PERIOD));
    double rateAt3 = -1;
    uint64_t cutsAt3 = 99;
    bool pendingAt3 = false;
    At(MicroSeconds(0),
       [&]()
       {
           cc->ReceiveCnp();
       }); // starts both grids
    At(NanoSeconds(1500),
       [&]()
       {
           cc->ReceiveCnp();
       }); // in alpha period [1, 2) us
    At(NanoSeconds(3999),
       [&]()
       {
           rateAt3 = Gbps(cc->GetRate());
           cutsAt3 = cc->GetCuts();
           pendingAt3 = cc->IsCutPending();
       });
    RunUntil(NanoSeconds(4001));
    EXPECT_NEAR(rateAt3, 100, EPS) << "no cut before the interval ends";
    EXPECT_EQ(cutsAt3, 0u);
    EXPECT_TRUE(pendingAt3);
    EXPECT_EQ(cc->GetCuts(), 1u) << "two CNPs in one interval: one cut";
    EXPECT_EQ(cc->GetCnpsReceived(), 2u);
    // Alpha at 4 us: [0,1) no CNP (the first CNP only starts the periods), [1,2) a CNP,
    // [2,3) and [3,4) none.
    double alpha = 1.0 * (1 - G);
    alpha = (1 - G) * alpha + G;
    alpha *= (1 - G) * (1 - G);
    EXPECT_NEAR(cc->GetAlpha(), alpha, 1e-12);
    // The cut: R_C (1 - alpha / 2); the target becomes R_C (no increase yet: clamped).
    EXPECT_NEAR(Gbps(cc->GetRate()), 100 * (1 - alpha / 2), EPS);
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 100, EPS);
}

TEST_F(DcqcnTest, CutsFallOnTheGridOfIntervalsFromTheFirstCnp)
{
    Ptr<Dcqcn> cc = Make();
    cc->SetAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(4)));
    std::vector<double> cutTimesUs;
    std::vector<double> rates;
    cc->TraceConnectWithoutContext("Rate",
                                   Callback<void, double, double>(
                                       [&](double oldBps, double newBps)
                                       {
                                           if (newBps < oldBps)
                                           {
                                               cutTimesUs.push_back(
                                                   Simulator::Now().GetNanoSeconds() / 1000.0);
                                               rates.push_back(newBps / 1e9);
                                           }
                                       }));
    // CNPs at 10 (first), 11, 13.9 -> one cut at 14; 14.5 -> cut at 18; none in [18, 22);
    // 25 -> cut at 26.
    for (double t : {10.0, 11.0, 13.9, 14.5, 25.0})
    {
        At(NanoSeconds(static_cast<int64_t>(t * 1000)),
           [&]()
           {
               cc->ReceiveCnp();
           });
    }
    RunUntil(MicroSeconds(40));
    ASSERT_EQ(cutTimesUs.size(), 3u);
    EXPECT_DOUBLE_EQ(cutTimesUs[0], 14.0);
    EXPECT_DOUBLE_EQ(cutTimesUs[1], 18.0);
    EXPECT_DOUBLE_EQ(cutTimesUs[2], 26.0);
    EXPECT_EQ(cc->GetCuts(), 3u);
    // Per-CNP alpha (the default) with alpha = 1 throughout: each cut halves.
    EXPECT_NEAR(rates[0], 50, EPS);
    EXPECT_NEAR(rates[1], 25, EPS);
    EXPECT_NEAR(rates[2], 12.5, EPS);
}

TEST_F(DcqcnTest, PerCnpAlphaWithAnIntervalCountsEveryCnp)
{
    // alpha 0.5 at the first CNP, raised at each of the two CNPs, then one cut at 4 us.
    Ptr<Dcqcn> cc = Make(0.5);
    cc->SetAttribute("RateDecreaseInterval", TimeValue(MicroSeconds(4)));
    At(MicroSeconds(0),
       [&]()
       {
           cc->ReceiveCnp();
       });
    At(MicroSeconds(2),
       [&]()
       {
           cc->ReceiveCnp();
       });
    RunUntil(MicroSeconds(5));
    double a = (1 - G) * ((1 - G) * 0.5 + G) + G; // K = 55 us: no decay in between
    EXPECT_EQ(cc->GetCuts(), 1u);
    EXPECT_NEAR(Gbps(cc->GetRate()), 100 * (1 - a / 2), EPS);
}

TEST_F(DcqcnTest, PerPeriodAlphaRisesOncePerPeriodWithCnps)
{
    Ptr<Dcqcn> cc = Make(1.0);
    cc->SetAttribute("AlphaUpdatePeriod", TimeValue(MicroSeconds(1)));
    cc->SetAttribute("AlphaUpdate", EnumValue(Dcqcn::ALPHA_PER_PERIOD));
    cc->SetAttribute("InitialAlpha", DoubleValue(0.5));
    std::vector<double> got;
    At(MicroSeconds(0),
       [&]()
       {
           cc->ReceiveCnp();
       });
    // Ten CNPs in period [2, 3) count once; nothing in [1, 2), [3, 4), [4, 5).
    for (int i = 0; i < 10; ++i)
    {
        At(NanoSeconds(2000 + 50 * i),
           [&]()
           {
               cc->ReceiveCnp();
           });
    }
    At(NanoSeconds(2999),
       [&]()
       {
           got.push_back(cc->GetAlpha());
       });
    At(NanoSeconds(3000),
       [&]()
       {
           got.push_back(cc->GetAlpha());
       });
    At(NanoSeconds(5000),
       [&]()
       {
           got.push_back(cc->GetAlpha());
       });
    RunUntil(MicroSeconds(6));
    // Immediate cuts (no interval) never touch alpha in this mode.
    const double a2 = 0.5 * (1 - G) * (1 - G); // [0,1) and [1,2): no CNP counted
    EXPECT_NEAR(got[0], a2, 1e-12);
    const double a3 = (1 - G) * a2 + G; // [2,3) had CNPs
    EXPECT_NEAR(got[1], a3, 1e-12);
    EXPECT_NEAR(got[2], a3 * (1 - G) * (1 - G), 1e-12);
}

TEST_F(DcqcnTest, TimerOnlyIncreaseFastRecoveryThenOneAdditiveThenHyperSteps)
{
    // hpcc: no byte counter, F = 2 (one fast-recovery step), R_AI 20, R_HAI 200 Mb/s, no clamp.
    Ptr<Dcqcn> cc = Make(1.0, false);
    cc->SetAttribute("ByteCounter", UintegerValue(0));
    cc->SetAttribute("FastRecoverySteps", UintegerValue(2));
    cc->SetAttribute("RateAi", DataRateValue(DataRate("20Mbps")));
    cc->SetAttribute("RateHai", DataRateValue(DataRate("200Mbps")));
    cc->ReceiveCnp(); // Rt = 100, Rc = 50
    cc->ReceiveCnp(); // no increase since: Rt stays 100, Rc = 25
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 100, EPS);
    cc->BytesSent(1u << 30); // no byte counter: nothing happens
    EXPECT_EQ(cc->GetByteStage(), 0u);
    EXPECT_NEAR(Gbps(cc->GetRate()), 25, EPS);
    cc->RateIncreaseTimerExpired(); // stage 1 < F: fast recovery, (100 + 25) / 2
    EXPECT_EQ(cc->GetLastPhase(), Dcqcn::FAST_RECOVERY);
    EXPECT_NEAR(Gbps(cc->GetRate()), 62.5, EPS);
    cc->ReceiveCnp();               // an increase happened: Rt = 62.5, Rc = 31.25
    cc->RateIncreaseTimerExpired(); // stage 1: fast recovery to 46.875
    EXPECT_NEAR(Gbps(cc->GetRate()), 46.875, EPS);
    cc->RateIncreaseTimerExpired(); // stage 2 = F: one additive step, Rt 62.52
    EXPECT_EQ(cc->GetLastPhase(), Dcqcn::ADDITIVE_INCREASE);
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 62.52, EPS);
    EXPECT_NEAR(Gbps(cc->GetRate()), 54.6975, EPS);
    cc->RateIncreaseTimerExpired(); // stage 3 > F: hyper, Rt + 0.2 (not i x 0.2)
    EXPECT_EQ(cc->GetLastPhase(), Dcqcn::HYPER_INCREASE);
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 62.72, EPS);
    EXPECT_NEAR(Gbps(cc->GetRate()), 58.70875, EPS);
    cc->RateIncreaseTimerExpired(); // stage 4: hyper again, + 0.2
    EXPECT_NEAR(Gbps(cc->GetTargetRate()), 62.92, EPS);
    EXPECT_NEAR(Gbps(cc->GetRate()), 60.814375, EPS);
}

TEST_F(DcqcnTest, RateTraceSinksSeeTheNewState)
{
    Ptr<Dcqcn> cc = Make();
    std::vector<std::pair<double, double>> seen; // (traced new rate, GetRate() in the sink)
    cc->TraceConnectWithoutContext(
        "Rate",
        Callback<void, double, double>(
            [&](double, double newBps)
            {
                seen.emplace_back(newBps, static_cast<double>(cc->GetRate().GetBitRate()));
            }));
    cc->ReceiveCnp();
    cc->RateIncreaseTimerExpired();
    ASSERT_EQ(seen.size(), 2u);
    for (const auto& [traced, read] : seen)
    {
        EXPECT_NEAR(traced, read, 1.0);
    }
}

} // namespace
