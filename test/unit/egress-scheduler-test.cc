/*
 * The egress schedulers against their definitions: strict priority takes the highest
 * eligible class; DWRR gives backlogged classes weight / (sum of weights) of the bytes, serves
 * weight-0 classes first, and drops the deficit of a class that empties.
 */
#include "fabric/model/dwrr-scheduler.h"
#include "fabric/model/strict-priority-scheduler.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <array>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Bytes each class sends in `frames` picks with every class in `eligible` backlogged.
std::array<uint64_t, 8>
Serve(Ptr<EgressScheduler> s, uint8_t eligible, uint32_t frames, uint32_t frameBytes)
{
    std::array<uint64_t, 8> bytes{};
    for (uint32_t i = 0; i < frames; ++i)
    {
        uint8_t c = s->Pick(0, eligible);
        EXPECT_TRUE((eligible >> c) & 1) << "picked a class with nothing to send";
        s->Sent(0, c, frameBytes);
        bytes[c] += frameBytes;
    }
    return bytes;
}

TEST(StrictPriorityScheduler, TakesTheHighestEligibleClass)
{
    Ptr<StrictPriorityScheduler> s = CreateObject<StrictPriorityScheduler>();
    s->SetPorts(1);
    EXPECT_EQ(s->Pick(0, 0b00001000), 3);
    EXPECT_EQ(s->Pick(0, 0b01001001), 6);
    EXPECT_EQ(s->Pick(0, 0b10000000), 7);
}

TEST(DwrrScheduler, SharesBytesByWeight)
{
    Ptr<DwrrScheduler> s = CreateObject<DwrrScheduler>();
    s->SetAttribute("Weights", StringValue("0,0,0,1,3,0,0,0"));
    s->SetAttribute("QuantumBytes", UintegerValue(1100));
    s->SetPorts(1);
    // Classes 3 and 4 backlogged with 1,082-byte frames: 1 : 3, to within a frame per round.
    std::array<uint64_t, 8> b = Serve(s, 0b00011000, 40000, 1082);
    double share = double(b[4]) / double(b[3] + b[4]);
    EXPECT_NEAR(share, 0.75, 0.005);
}

TEST(DwrrScheduler, WeightZeroIsStrictAboveTheWeighted)
{
    Ptr<DwrrScheduler> s = CreateObject<DwrrScheduler>();
    s->SetPorts(2);
    // Default weights: classes 6 and 7 have weight 0.
    EXPECT_EQ(s->GetWeights(), "1,1,1,1,1,1,0,0");
    EXPECT_EQ(s->Pick(1, 0b01001000), 6);
    std::array<uint64_t, 8> b = Serve(s, 0b11001000, 100, 1000);
    EXPECT_EQ(b[7], 100u * 1000);
}

TEST(DwrrScheduler, AnEmptiedClassLosesItsDeficit)
{
    Ptr<DwrrScheduler> s = CreateObject<DwrrScheduler>();
    s->SetAttribute("Weights", StringValue("1,1,1,1,1,1,0,0"));
    s->SetAttribute("QuantumBytes", UintegerValue(10000));
    s->SetPorts(1);
    // Class 0 alone for one frame, then empty: it must not bank the rest of its quantum.
    EXPECT_EQ(s->Pick(0, 0b00000001), 0);
    s->Sent(0, 0, 1000);
    std::array<uint64_t, 8> b = Serve(s, 0b00000010, 5, 1000); // only class 1 has data
    EXPECT_EQ(b[1], 5000u);
    // Both backlogged again: equal weights give equal bytes over whole rounds.
    b = Serve(s, 0b00000011, 2000, 1000);
    EXPECT_NEAR(double(b[0]) / double(b[0] + b[1]), 0.5, 0.01);
}

} // namespace
