/*
 * FabricPartition: racks never split, a fat-tree's pods stay whole with their aggregation
 * switches, the switches every rack reaches are spread, and the cut links and their count
 * follow the closed forms derived in each test.
 */
#include "test-topologies.h"
#include "topology/model/fabric-partition.h"

#include <gtest/gtest.h>
#include <stdexcept>

namespace
{

using mcast4ai_test::Ft16;
using mcast4ai_test::Ls;
using ns3::FabricPartition;
using ns3::TopologyGraph;
using Unit = FabricPartition::Unit;

/// What every partition must give: each host with its top-of-rack switch, no host link cut,
/// every rank simulating something, and the cut list exactly the links across ranks.
void
ExpectWellFormed(const TopologyGraph& g, const FabricPartition& p)
{
    uint32_t across = 0;
    for (uint32_t h = 0; h < g.HostCount(); ++h)
    {
        EXPECT_EQ(p.RankOf(h), p.RankOf(g.LeafOf(h))) << "host " << h;
    }
    for (uint32_t n = 0; n < g.NodeCount(); ++n)
    {
        for (const TopologyGraph::Port& port : g.Ports(n))
        {
            across += port.peer > n && p.RankOf(n) != p.RankOf(port.peer) ? 1 : 0;
        }
    }
    EXPECT_EQ(p.GetCutLinks().size(), across);
    uint32_t hosts = 0;
    for (uint32_t r = 0; r < p.GetRanks(); ++r)
    {
        EXPECT_GT(p.HostsOn(r), 0u) << "rank " << r;
        hosts += p.HostsOn(r);
    }
    EXPECT_EQ(hosts, g.HostCount());
    for (const FabricPartition::CutLink& c : p.GetCutLinks())
    {
        EXPECT_FALSE(g.IsHost(c.a) || g.IsHost(c.b)) << c.a << "-" << c.b;
    }
}

// k = 16: 16 pods of 8 edge and 8 aggregation switches (64 hosts), 64 cores, each core linked
// to one aggregation switch of every pod. 1,024 host links, 16 x 64 edge-aggregation links,
// 64 x 16 aggregation-core links: 3,072.
TEST(FabricPartition, FatTreePodsStayWholeAndCoresSpread)
{
    const TopologyGraph& g = Ft16();
    for (uint32_t ranks : {2u, 4u, 16u})
    {
        FabricPartition p = FabricPartition::Make(g, ranks);
        SCOPED_TRACE(ranks);
        EXPECT_EQ(p.GetUnit(), Unit::POD);
        EXPECT_EQ(p.GetLinkCount(), 3072u);
        ExpectWellFormed(g, p);
        const uint32_t podsPerRank = 16 / ranks;
        for (uint32_t pod = 0; pod < 16; ++pod)
        {
            for (uint32_t i = 0; i < 64; ++i)
            {
                ASSERT_EQ(p.RankOf(pod * 64 + i), pod / podsPerRank); // hosts
            }
            for (uint32_t s = 0; s < 8; ++s)
            {
                EXPECT_EQ(p.RankOf(1024 + pod * 8 + s), pod / podsPerRank); // edge
                EXPECT_EQ(p.RankOf(1152 + pod * 8 + s), pod / podsPerRank); // aggregation
            }
        }
        for (uint32_t r = 0; r < ranks; ++r)
        {
            EXPECT_EQ(p.HostsOn(r), 1024 / ranks);
            // 16 / ranks pods of 16 switches, and the cores dealt out in turn.
            EXPECT_EQ(p.SwitchesOn(r), podsPerRank * 16 + 64 / ranks);
        }
        // A core reaches every pod; all but its own rank's pods are across: 64 x 16 (1 - 1/R).
        EXPECT_EQ(p.GetCutLinks().size(), 64u * 16u * (ranks - 1) / ranks);
    }
}

// 32 ranks are more than the 16 pods: racks (4 per rank, half a pod). A pod's aggregation
// switches see their 8 edges split 4 / 4, no majority: dealt out in turn like the cores.
TEST(FabricPartition, MoreRanksThanPodsSplitsByRack)
{
    const TopologyGraph& g = Ft16();
    FabricPartition p = FabricPartition::Make(g, 32);
    EXPECT_EQ(p.GetUnit(), Unit::RACK);
    ExpectWellFormed(g, p);
    for (uint32_t r = 0; r < 32; ++r)
    {
        EXPECT_EQ(p.HostsOn(r), 32u);
    }
    EXPECT_THROW(FabricPartition::Make(g, 32, Unit::POD), std::invalid_argument);
}

// 4 x 2 x 16 leaf-spine over 2 ranks: leaves 0, 1 and spine 0 on rank 0, leaves 2, 3 and
// spine 1 on rank 1; each spine has 2 of its 4 leaf links across: 4 cut. "pod" is a rack here.
TEST(FabricPartition, LeafSpineSpinesSpread)
{
    const TopologyGraph& g = Ls();
    for (Unit unit : {Unit::AUTO, Unit::POD, Unit::RACK})
    {
        FabricPartition p = FabricPartition::Make(g, 2, unit);
        EXPECT_EQ(p.GetUnit(), Unit::RACK);
        ExpectWellFormed(g, p);
        EXPECT_EQ(p.RankOf(64), 0u);
        EXPECT_EQ(p.RankOf(65), 0u);
        EXPECT_EQ(p.RankOf(66), 1u);
        EXPECT_EQ(p.RankOf(67), 1u);
        EXPECT_EQ(p.RankOf(68), 0u);
        EXPECT_EQ(p.RankOf(69), 1u);
        EXPECT_EQ(p.GetCutLinks().size(), 4u);
    }
    // One rank per leaf: every leaf-spine link but each spine's own leaf's is across: 2 x 3.
    EXPECT_EQ(FabricPartition::Make(g, 4).GetCutLinks().size(), 6u);
    FabricPartition one = FabricPartition::Make(g, 1);
    EXPECT_TRUE(one.GetCutLinks().empty());
    EXPECT_EQ(one.SwitchesOn(0), 6u);
}

// A ring of 8 switches over 4 ranks: arcs of two, the 4 ring links between arcs cut.
TEST(FabricPartition, RingIsCutIntoArcs)
{
    ns3::TopologyConfig t;
    t.kind = ns3::TopologyKind::RING;
    t.leaves = 8;
    t.hostsPerLeaf = 2;
    TopologyGraph g = TopologyGraph::Build(t);
    FabricPartition p = FabricPartition::Make(g, 4);
    ExpectWellFormed(g, p);
    for (uint32_t s = 0; s < 8; ++s)
    {
        EXPECT_EQ(p.RankOf(16 + s), s / 2);
    }
    EXPECT_EQ(p.GetCutLinks().size(), 4u);
}

TEST(FabricPartition, RanksMustFitTheRacks)
{
    EXPECT_THROW(FabricPartition::Make(Ls(), 0), std::invalid_argument);
    EXPECT_THROW(FabricPartition::Make(Ls(), 5), std::invalid_argument); // 4 leaves
    EXPECT_NO_THROW(FabricPartition::Make(Ls(), 4));
}

} // namespace
