/*
 * PlaneSpread: a collective's graph rewritten for a multi-plane fabric keeps its bytes,
 * receivers and phases; stripe splits every transfer over the planes and chains a plane's parts
 * plane by plane; hash keeps every transfer whole and the graph's edges.
 */
#include "workload/model/plane-spread.h"

#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <vector>

namespace
{

using ns3::CollectiveSchedule;
using ns3::PlaneSpread;
using ns3::PlaneSpreadRule;

/// Rank 0 sends 10 bytes to 1, which forwards 10 to 2 (a ring's two steps), a local reduction
/// at 2 after it, then a P2MP message of 7 bytes from 2 to {0, 1} after the reduction.
CollectiveSchedule
Chain()
{
    CollectiveSchedule s(3);
    s.SetPhase("ring");
    const uint32_t a = s.AddUnicast(0, 1, 10, 0);
    const uint32_t b = s.AddUnicast(1, 2, 10, 1);
    s.AddDependency(b, a);
    const uint32_t r = s.AddLocal(2, 50, 2);
    s.AddDependency(r, b);
    s.SetPhase("unused");
    s.SetPhase("fanout");
    const uint32_t m = s.AddMulticast(
        2, std::make_shared<const std::vector<uint32_t>>(std::vector<uint32_t>{0, 1}), 7, 3);
    s.AddDependency(m, r);
    return s;
}

uint64_t
BytesOf(const CollectiveSchedule& s, uint16_t phase)
{
    uint64_t bytes = 0;
    for (uint32_t t = 0; t < s.GetTransferCount(); ++t)
    {
        bytes += s.GetTransfer(t).phase == phase ? s.GetTransfer(t).bytes : 0;
    }
    return bytes;
}

TEST(PlaneSpread, OnePlaneIsTheGraphItself)
{
    const CollectiveSchedule s = PlaneSpread::Apply(Chain(), 1, PlaneSpreadRule::STRIPE, 1);
    EXPECT_EQ(s.GetTransferCount(), 4u);
    for (uint32_t t = 0; t < 4; ++t)
    {
        EXPECT_EQ(s.GetTransfer(t).plane, 0u);
    }
}

TEST(PlaneSpread, StripeSplitsEveryTransferAndChainsPlaneByPlane)
{
    const CollectiveSchedule in = Chain();
    const CollectiveSchedule s = PlaneSpread::Apply(in, 4, PlaneSpreadRule::STRIPE, 1);
    // 4 + 4 parts, the local work, 4 parts of the P2MP message.
    ASSERT_EQ(s.GetTransferCount(), 13u);
    EXPECT_EQ(s.GetPhases(), in.GetPhases()); // a phase without transfers keeps its index
    for (uint16_t p = 0; p < in.GetPhases().size(); ++p)
    {
        EXPECT_EQ(BytesOf(s, p), BytesOf(in, p)) << in.GetPhases()[p];
    }
    // 10 bytes over 4 planes: 3, 3, 2, 2.
    EXPECT_EQ(s.GetTransfer(0).bytes, 3u);
    EXPECT_EQ(s.GetTransfer(3).bytes, 2u);
    for (uint32_t p = 0; p < 4; ++p)
    {
        EXPECT_EQ(s.GetTransfer(p).plane, p);
        EXPECT_EQ(s.GetTransfer(4 + p).plane, p);
        EXPECT_EQ(s.GetTransfer(9 + p).plane, p);
        // Part p of the second step waits for part p of the first alone.
        EXPECT_EQ(s.GetDependents(p), (std::vector<uint32_t>{4 + p}));
        EXPECT_EQ(s.GetTransfer(4 + p).waitsFor, 1u);
        // The reduction waits for every part; every part of the fan-out waits for it.
        EXPECT_EQ(s.GetDependents(4 + p), (std::vector<uint32_t>{8}));
        EXPECT_EQ(s.GetTransfer(9 + p).waitsFor, 1u);
        EXPECT_EQ(s.GetTransfer(9 + p).receivers, in.GetTransfer(3).receivers);
    }
    EXPECT_EQ(s.GetTransfer(8).waitsFor, 4u);
    EXPECT_TRUE(s.GetTransfer(8).local);
    EXPECT_EQ(s.GetInbound(), (std::vector<uint32_t>{4, 8, 5}));
    EXPECT_EQ(s.GetDepth(), in.GetDepth());
}

TEST(PlaneSpread, StripeMakesNoEmptyParts)
{
    CollectiveSchedule in(2);
    in.AddUnicast(0, 1, 2, 0);
    const CollectiveSchedule s = PlaneSpread::Apply(in, 4, PlaneSpreadRule::STRIPE, 1);
    ASSERT_EQ(s.GetTransferCount(), 2u);
    EXPECT_EQ(s.GetTransfer(0).bytes, 1u);
    EXPECT_EQ(s.GetTransfer(1).plane, 1u);
}

TEST(PlaneSpread, HashKeepsTransfersWholeAndSpreadsPairs)
{
    const CollectiveSchedule in = Chain();
    const CollectiveSchedule s = PlaneSpread::Apply(in, 4, PlaneSpreadRule::HASH, 1);
    ASSERT_EQ(s.GetTransferCount(), in.GetTransferCount());
    for (uint32_t t = 0; t < s.GetTransferCount(); ++t)
    {
        EXPECT_EQ(s.GetTransfer(t).bytes, in.GetTransfer(t).bytes);
        EXPECT_EQ(s.GetDependents(t), in.GetDependents(t));
        if (!s.GetTransfer(t).local)
        {
            EXPECT_EQ(s.GetTransfer(t).plane, PlaneSpread::HashPlane(in.GetTransfer(t), 4, 1));
        }
    }
    // Over many pairs every plane gets some, and a pair always the same one.
    CollectiveSchedule all(32);
    for (uint32_t a = 0; a < 32; ++a)
    {
        for (uint32_t b = 0; b < 32; ++b)
        {
            if (a != b)
            {
                all.AddUnicast(a, b, 100, 0);
            }
        }
    }
    const CollectiveSchedule h = PlaneSpread::Apply(all, 4, PlaneSpreadRule::HASH, 7);
    std::map<uint16_t, uint32_t> perPlane;
    for (uint32_t t = 0; t < h.GetTransferCount(); ++t)
    {
        ++perPlane[h.GetTransfer(t).plane];
    }
    ASSERT_EQ(perPlane.size(), 4u);
    for (const auto& [plane, n] : perPlane)
    {
        EXPECT_GT(n, 992u / 4 / 2) << "plane " << plane;
    }
    EXPECT_EQ(PlaneSpread::Apply(all, 4, PlaneSpreadRule::HASH, 7).GetTransfer(5).plane,
              h.GetTransfer(5).plane);
}

} // namespace
