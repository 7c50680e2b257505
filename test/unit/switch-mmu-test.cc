/*
 * SwitchMmu arithmetic against hand-computed thresholds: dynamic-threshold XOFF, headroom
 * absorption and its limit, XON with hysteresis, lossy egress drops, RED probability.
 */
#include "fabric/model/switch-mmu.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

constexpr uint8_t PRIO = 3;

Ptr<SwitchMmu>
MakeMmu(bool pfc)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferBytes", UintegerValue(1048576));
    mmu->SetAttribute("ReserveBytes", UintegerValue(4096));
    mmu->SetAttribute("Alpha", DoubleValue(1.0));
    mmu->SetAttribute("PfcEnabled", BooleanValue(pfc));
    mmu->SetAttribute("HysteresisBytes", UintegerValue(3000));
    mmu->SetAttribute("LosslessPriorities", UintegerValue(1u << PRIO));
    mmu->Setup(4);
    for (uint32_t p = 0; p < 4; ++p)
    {
        mmu->SetHeadroom(p, 50000);
    }
    return mmu;
}

TEST(SwitchMmu, SharedPoolIsBufferMinusReservesAndHeadroom)
{
    // 1 MiB - 4 ports x 8 priorities x 4096 B - 4 ports x 1 lossless priority x 50000 B.
    EXPECT_EQ(MakeMmu(true)->GetSharedPoolBytes(), 1048576u - 131072u - 200000u);
    // Without PFC no headroom is carved out.
    EXPECT_EQ(MakeMmu(false)->GetSharedPoolBytes(), 1048576u - 131072u);
}

TEST(SwitchMmu, XoffWhenSharedPartExceedsAlphaTimesFree)
{
    Ptr<SwitchMmu> mmu = MakeMmu(true);
    // Pool P = 717504. After k frames of 1000 B the shared part is S = 1000k - 4096 and the
    // threshold is P - S, so XOFF once 2S > P, i.e. 1000k > 362848: the 363rd frame.
    for (int k = 1; k <= 362; ++k)
    {
        ASSERT_TRUE(mmu->Admit(0, 1, PRIO, 1000));
        ASSERT_FALSE(mmu->ShouldPause(0, PRIO)) << "frame " << k;
    }
    ASSERT_TRUE(mmu->Admit(0, 1, PRIO, 1000));
    EXPECT_TRUE(mmu->ShouldPause(0, PRIO));
    EXPECT_EQ(mmu->GetIngressBytes(0, PRIO), 363000u);
    EXPECT_EQ(mmu->GetEgressBytes(1, PRIO), 363000u);
}

TEST(SwitchMmu, HeadroomAbsorbsInFlightFramesThenDrops)
{
    Ptr<SwitchMmu> mmu = MakeMmu(true);
    for (int k = 0; k < 363; ++k)
    {
        mmu->Admit(0, 1, PRIO, 1000);
    }
    mmu->SetPaused(0, PRIO, true);
    // 50000 B of headroom hold exactly 50 frames of 1000 B; the 51st breaks losslessness.
    for (int k = 0; k < 50; ++k)
    {
        EXPECT_TRUE(mmu->Admit(0, 1, PRIO, 1000)) << k;
    }
    EXPECT_FALSE(mmu->Admit(0, 1, PRIO, 1000));
    EXPECT_EQ(mmu->GetIngressBytes(0, PRIO), 413000u);
}

TEST(SwitchMmu, XonAfterHeadroomDrainsAndHysteresis)
{
    Ptr<SwitchMmu> mmu = MakeMmu(true);
    for (int k = 0; k < 373; ++k) // 363 in shared, then 10 in headroom once paused
    {
        mmu->Admit(0, 1, PRIO, 1000);
        if (k == 362)
        {
            mmu->SetPaused(0, PRIO, true);
        }
    }
    // Releasing drains headroom first: no XON while any headroom is in use.
    for (int k = 0; k < 10; ++k)
    {
        EXPECT_FALSE(mmu->ShouldResume(0, PRIO));
        mmu->Release(0, 1, PRIO, 1000);
    }
    // Now S = 358904, threshold = P - S = 358600: XON needs S + 3000 <= P - S,
    // i.e. S <= 357252, reached after two more releases (S = 356904).
    mmu->Release(0, 1, PRIO, 1000);
    EXPECT_FALSE(mmu->ShouldResume(0, PRIO)); // S = 357904
    mmu->Release(0, 1, PRIO, 1000);
    EXPECT_TRUE(mmu->ShouldResume(0, PRIO)); // S = 356904
}

TEST(SwitchMmu, LossyEgressDynamicThresholdDrops)
{
    Ptr<SwitchMmu> mmu = MakeMmu(false);
    // One egress queue, alpha 1: a frame is admitted while q + 1000 <= B - q, i.e. while
    // q <= (1048576 - 1000) / 2 = 523788: frames 1..524 fit (q = 523000 before the 524th).
    int admitted = 0;
    while (mmu->Admit(admitted % 4, 2, 0, 1000))
    {
        ++admitted;
    }
    EXPECT_EQ(admitted, 524);
    EXPECT_FALSE(mmu->ShouldPause(0, 0)); // PFC off never pauses
}

TEST(SwitchMmu, RedProbabilityIsLinearBetweenKminAndKmax)
{
    Ptr<SwitchMmu> mmu = MakeMmu(true);
    mmu->SetAttribute("EcnPmax", DoubleValue(0.2));
    mmu->SetEcnThresholds(1, 10000, 30000);
    EXPECT_DOUBLE_EQ(mmu->EcnMarkProbability(1, PRIO), 0.0);
    for (int k = 0; k < 20; ++k)
    {
        mmu->Admit(0, 1, PRIO, 1000);
    }
    EXPECT_DOUBLE_EQ(mmu->EcnMarkProbability(1, PRIO), 0.1); // halfway: pmax / 2
    for (int k = 0; k < 10; ++k)
    {
        mmu->Admit(0, 1, PRIO, 1000);
    }
    EXPECT_DOUBLE_EQ(mmu->EcnMarkProbability(1, PRIO), 1.0); // at kmax every frame is marked
}

} // namespace
