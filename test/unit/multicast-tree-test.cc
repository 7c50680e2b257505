/*
 * MulticastTree: the new protocol's per-group tree. Switch and link counts are derived by hand
 * in the comments; every tree is walked from its source to check that each receiver is reached
 * exactly once, over a shortest path, and nothing else is.
 */
#include "test-topologies.h"
#include "topology/model/multicast-tree.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <numeric>
#include <random>
#include <stdexcept>

namespace
{

using mcast4ai_test::FatTree;
using mcast4ai_test::Ft16;
using mcast4ai_test::LeafSpine;
using mcast4ai_test::Ls;

using ns3::MulticastTree;
using ns3::TopologyConfig;
using ns3::TopologyGraph;
using ns3::TopologyKind;

// Chi-square critical values at p = 0.001 for 1 and 63 degrees of freedom.
constexpr double kChi2Df1 = 10.828;
constexpr double kChi2Df63 = 103.442;

std::vector<uint32_t>
AllBut(uint32_t hosts, uint32_t source)
{
    std::vector<uint32_t> r;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        if (h != source)
        {
            r.push_back(h);
        }
    }
    return r;
}

// Forward one message down the tree from the source (source -> its leaf, then each switch's
// out ports). Checks: no node is reached twice (a tree, no loop), exactly the receivers are
// reached, each at its shortest-path distance, every installed switch is used, and the links
// traversed equal LinkCount().
void
ExpectValidTree(const TopologyGraph& g, const MulticastTree& t)
{
    std::vector<uint32_t> visits(g.NodeCount(), 0);
    std::vector<uint32_t> reached;
    uint32_t links = 0;
    struct Hop
    {
        uint32_t node;
        uint32_t depth;
    };
    std::vector<Hop> queue;
    if (t.CopiesFromSource() == 1)
    {
        queue.push_back(Hop{g.LeafOf(t.Source()), 1});
        ++links;
    }
    while (!queue.empty())
    {
        const Hop h = queue.back();
        queue.pop_back();
        ASSERT_EQ(++visits[h.node], 1u) << g.NodeName(h.node) << " reached twice";
        if (g.IsHost(h.node))
        {
            EXPECT_NE(h.node, t.Source());
            EXPECT_EQ(h.depth, g.HopCount(t.Source(), h.node)) << "not a shortest path";
            reached.push_back(h.node);
            continue;
        }
        const auto it = t.OutPorts().find(h.node);
        ASSERT_NE(it, t.OutPorts().end()) << g.NodeName(h.node) << " has no group entry";
        ASSERT_FALSE(it->second.empty());
        EXPECT_TRUE(std::is_sorted(it->second.begin(), it->second.end()));
        for (uint16_t port : it->second)
        {
            ASSERT_LT(port, g.Ports(h.node).size());
            queue.push_back(Hop{g.Ports(h.node)[port].peer, h.depth + 1});
            ++links;
        }
    }
    std::sort(reached.begin(), reached.end());
    EXPECT_EQ(reached, t.Receivers());
    EXPECT_EQ(links, t.LinkCount());
    for (const auto& [sw, ports] : t.OutPorts())
    {
        EXPECT_EQ(visits[sw], 1u) << g.NodeName(sw) << " installed but unreachable";
    }
}

TEST(MulticastTreeLeafSpine, BroadcastFromHost0)
{
    const TopologyGraph& g = Ls();
    const MulticastTree t = MulticastTree::Compute(g, 0, AllBut(64, 0), 7);
    // Switches: leaf 0, one spine s, leaves 1..3 = 5 group entries.
    EXPECT_EQ(t.SwitchCount(), 5u);
    // Links: host 0 -> leaf 0 (1) + leaf 0 -> hosts 1..15 (15) + leaf 0 -> s (1)
    //        + s -> leaves 1..3 (3) + leaves 1..3 -> their 16 hosts (48) = 68
    //        (= 63 receiver links + 1 source uplink + 1 leaf-to-spine + 3 spine-to-leaf).
    EXPECT_EQ(t.LinkCount(), 68u);
    EXPECT_EQ(t.CopiesFromSource(), 1u);
    EXPECT_EQ(t.Receivers().size(), 63u);

    // Leaf 0 replicates onto ports 1..15 and one uplink (16 or 17): 16 ports.
    const std::vector<uint16_t>& leaf0 = t.OutPorts().at(64);
    ASSERT_EQ(leaf0.size(), 16u);
    for (uint16_t p = 1; p < 16; ++p)
    {
        EXPECT_EQ(leaf0[p - 1], p);
    }
    EXPECT_TRUE(leaf0[15] == 16 || leaf0[15] == 17);
    const uint32_t spine = g.Ports(64)[leaf0[15]].peer;
    // The spine goes down to leaves 1, 2, 3; the other spine is not on the tree.
    EXPECT_EQ(t.OutPorts().at(spine), (std::vector<uint16_t>{1, 2, 3}));
    EXPECT_EQ(t.OutPorts().count(spine == 68 ? 69 : 68), 0u);
    // Leaves 1..3 deliver to all 16 hosts.
    std::vector<uint16_t> allHosts(16);
    std::iota(allHosts.begin(), allHosts.end(), uint16_t{0});
    for (uint32_t leaf = 65; leaf < 68; ++leaf)
    {
        EXPECT_EQ(t.OutPorts().at(leaf), allHosts);
    }
    ExpectValidTree(g, t);
}

TEST(MulticastTreeLeafSpine, SmallGroups)
{
    const TopologyGraph& g = Ls();
    // 0 -> {1, 17, 18} (with a duplicate and the source itself listed): leaf 0, one spine,
    // leaf 1 = 3 switches; links 0-leaf0, leaf0-1, leaf0-spine, spine-leaf1, leaf1-17,
    // leaf1-18 = 6.
    const MulticastTree a = MulticastTree::Compute(g, 0, {18, 1, 17, 0, 18}, 3);
    EXPECT_EQ(a.Receivers(), (std::vector<uint32_t>{1, 17, 18}));
    EXPECT_EQ(a.SwitchCount(), 3u);
    EXPECT_EQ(a.LinkCount(), 6u);
    EXPECT_EQ(a.OutPorts().at(65), (std::vector<uint16_t>{1, 2}));
    ExpectValidTree(g, a);

    // Same leaf only: 0 -> {5, 9}: leaf 0 alone, links 0-leaf0, leaf0-5, leaf0-9 = 3.
    const MulticastTree b = MulticastTree::Compute(g, 0, {5, 9}, 3);
    EXPECT_EQ(b.SwitchCount(), 1u);
    EXPECT_EQ(b.LinkCount(), 3u);
    EXPECT_EQ(b.OutPorts().at(64), (std::vector<uint16_t>{5, 9}));
    ExpectValidTree(g, b);

    // No receiver (or only the source): nothing installed, nothing sent.
    const MulticastTree c = MulticastTree::Compute(g, 4, {4}, 3);
    EXPECT_EQ(c.SwitchCount(), 0u);
    EXPECT_EQ(c.LinkCount(), 0u);
    EXPECT_EQ(c.CopiesFromSource(), 0u);
    ExpectValidTree(g, c);

    // The listing order of the receivers does not change the tree.
    const MulticastTree d = MulticastTree::Compute(g, 0, {17, 18, 1}, 3);
    EXPECT_EQ(d.OutPorts(), a.OutPorts());
}

TEST(MulticastTreeLeafSpine, GroupsSpreadOverSpines)
{
    // 1000 groups 0 -> 40: the spine leaf 0 picks is a hash of (group, leaf 0); ~500 each.
    // Chi-square (1 dof) below 10.83 (p = 0.001).
    const TopologyGraph& g = Ls();
    std::vector<uint32_t> counts(2, 0);
    for (uint32_t group = 0; group < 1000; ++group)
    {
        const MulticastTree t = MulticastTree::Compute(g, 0, {40}, group);
        ++counts[t.OutPorts().at(64).at(0) - 16];
    }
    double chi2 = 0;
    for (uint32_t c : counts)
    {
        chi2 += (c - 500.0) * (c - 500.0) / 500.0;
    }
    EXPECT_LT(chi2, kChi2Df1);
}

TEST(MulticastTreeFatTree, BroadcastK16)
{
    const TopologyGraph& g = Ft16();
    const MulticastTree t = MulticastTree::Compute(g, 0, AllBut(1024, 0), 11);
    // Switches: all 128 edges (each has receivers) + 1 aggregation in pod 0 (the one edge 0
    // picks; it also serves pod 0's other 7 edges) + 1 core (the one that aggregation picks)
    // + that core's aggregation in each of the 15 other pods = 128 + 1 + 1 + 15 = 145.
    EXPECT_EQ(t.SwitchCount(), 145u);
    // Links: 1024 host links (source + 1023 receivers) + edge0-agg (1) + agg-7 edges of pod 0
    // (7) + agg-core (1) + core-15 aggs (15) + 15 aggs x 8 edges (120) = 1168
    // (= 1024 hosts + 145 switches - 1: a tree).
    EXPECT_EQ(t.LinkCount(), 1168u);
    // Edge 0: hosts 1..7 and one uplink: 8 ports. The core: one port per other pod, 15.
    EXPECT_EQ(t.OutPorts().at(1024).size(), 8u);
    uint32_t cores = 0;
    for (const auto& [sw, ports] : t.OutPorts())
    {
        if (g.Tier(sw) == 3)
        {
            ++cores;
            EXPECT_EQ(ports.size(), 15u);
        }
    }
    EXPECT_EQ(cores, 1u);
    ExpectValidTree(g, t);
}

TEST(MulticastTreeFatTree, GroupsSpreadOverCores)
{
    // The core a 0 -> 1023 tree crosses depends on (group, edge 0) and (group, aggregation):
    // over 1000 groups all 64 cores should be used about equally (15.6 each; 63 dof,
    // chi-square below 103.4). Correlated tiers would use only 8 of them.
    const TopologyGraph& g = Ft16();
    std::vector<uint32_t> counts(64, 0);
    for (uint32_t group = 0; group < 1000; ++group)
    {
        const MulticastTree t = MulticastTree::Compute(g, 0, {1023}, group);
        EXPECT_EQ(t.SwitchCount(), 5u); // edge, agg, core, agg, edge
        EXPECT_EQ(t.LinkCount(), 6u);   // = HopCount(0, 1023)
        for (const auto& [sw, ports] : t.OutPorts())
        {
            if (g.Tier(sw) == 3)
            {
                ++counts[sw - 1280];
            }
        }
    }
    const double expected = 1000.0 / 64;
    double chi2 = 0;
    for (uint32_t c : counts)
    {
        chi2 += (c - expected) * (c - expected) / expected;
    }
    EXPECT_LT(chi2, kChi2Df63);
}

TEST(MulticastTreeFatTree, RandomGroupsAreTrees)
{
    const TopologyGraph& g = Ft16();
    std::mt19937 rng(2024);
    std::uniform_int_distribution<uint32_t> host(0, 1023);
    std::uniform_int_distribution<uint32_t> size(1, 300);
    for (uint32_t group = 0; group < 100; ++group)
    {
        const uint32_t source = host(rng);
        std::vector<uint32_t> receivers(size(rng));
        for (auto& r : receivers)
        {
            r = host(rng);
        }
        const MulticastTree t = MulticastTree::Compute(g, source, receivers, group);
        ExpectValidTree(g, t);
        // A tree: links = nodes - 1 = (source + receivers + switches) - 1.
        EXPECT_EQ(t.LinkCount(), t.Receivers().size() + t.SwitchCount());
        std::shuffle(receivers.begin(), receivers.end(), rng);
        EXPECT_EQ(MulticastTree::Compute(g, source, receivers, group).OutPorts(), t.OutPorts());
    }
}

TEST(MulticastTreeCompute, RejectsBadArguments)
{
    const TopologyGraph& g = Ls();
    EXPECT_THROW(MulticastTree::Compute(g, 64, {1}, 0), std::invalid_argument); // switch source
    EXPECT_THROW(MulticastTree::Compute(g, 0, {1, 70}, 0), std::invalid_argument);
    TopologyConfig t;
    t.kind = TopologyKind::LEAF_SPINE;
    t.leaves = 2;
    t.spines = 1;
    t.hostsPerLeaf = 2;
    const TopologyGraph noRoutes = TopologyGraph::Build(t);
    EXPECT_THROW(MulticastTree::Compute(noRoutes, 0, {3}, 0), std::logic_error);
}

} // namespace
