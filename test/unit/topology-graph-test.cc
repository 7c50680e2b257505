/*
 * TopologyGraph: node and port numbering, ECMP next-hop sets and hop counts for leaf-spine,
 * k-ary fat-trees and rings. Expected counts are derived by hand in the comments.
 */
#include "topology/model/topology-graph.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>
#include <stdexcept>

namespace
{

using ns3::TopologyConfig;
using ns3::TopologyGraph;
using ns3::TopologyKind;

TopologyConfig
LeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf)
{
    TopologyConfig t;
    t.kind = TopologyKind::LEAF_SPINE;
    t.leaves = leaves;
    t.spines = spines;
    t.hostsPerLeaf = hostsPerLeaf;
    return t;
}

TopologyConfig
FatTree(uint32_t k)
{
    TopologyConfig t;
    t.kind = TopologyKind::FAT_TREE;
    t.k = k;
    return t;
}

uint32_t
LinkCount(const TopologyGraph& g)
{
    uint32_t ends = 0;
    for (uint32_t n = 0; n < g.NodeCount(); ++n)
    {
        ends += g.Ports(n).size();
    }
    return ends / 2;
}

// Every link is seen identically from both ends, and hostLink marks exactly host links.
void
ExpectPortSymmetry(const TopologyGraph& g)
{
    for (uint32_t n = 0; n < g.NodeCount(); ++n)
    {
        const auto& ports = g.Ports(n);
        for (uint32_t p = 0; p < ports.size(); ++p)
        {
            const auto& back = g.Ports(ports[p].peer);
            ASSERT_LT(ports[p].peerPort, back.size());
            EXPECT_EQ(back[ports[p].peerPort].peer, n);
            EXPECT_EQ(back[ports[p].peerPort].peerPort, p);
            EXPECT_EQ(ports[p].hostLink, g.IsHost(n) || g.IsHost(ports[p].peer));
        }
    }
}

// Downlinks (lower tier) first, each group in ascending node order.
void
ExpectPortOrder(const TopologyGraph& g)
{
    for (uint32_t n = 0; n < g.NodeCount(); ++n)
    {
        const auto& ports = g.Ports(n);
        for (uint32_t p = 1; p < ports.size(); ++p)
        {
            const bool prevUp = g.Tier(ports[p - 1].peer) > g.Tier(n);
            const bool up = g.Tier(ports[p].peer) > g.Tier(n);
            EXPECT_TRUE(!prevUp || up) << "uplink before downlink at node " << n;
            if (prevUp == up)
            {
                EXPECT_LT(ports[p - 1].peer, ports[p].peer);
            }
        }
    }
}

// Walk from src to dst always taking the first (or last) ECMP port; every step must follow a
// shortest path, so the walk length equals HopCount.
uint32_t
Walk(const TopologyGraph& g, uint32_t src, uint32_t dst, bool last)
{
    uint32_t node = src;
    uint32_t hops = 0;
    while (node != dst)
    {
        const auto& next = g.NextHopPorts(node, dst);
        EXPECT_FALSE(next.empty());
        if (next.empty() || hops > 16)
        {
            return 0;
        }
        node = g.Ports(node)[last ? next.back() : next.front()].peer;
        ++hops;
    }
    return hops;
}

void
ExpectRoutesConsistent(const TopologyGraph& g)
{
    for (uint32_t sw = g.HostCount(); sw < g.NodeCount(); ++sw)
    {
        for (uint32_t h = 0; h < g.HostCount(); ++h)
        {
            const auto& next = g.NextHopPorts(sw, h);
            ASSERT_FALSE(next.empty());
            EXPECT_TRUE(std::adjacent_find(next.begin(), next.end(), std::greater_equal<>())
                        == next.end())
                << "not strictly ascending";
            EXPECT_LT(next.back(), g.Ports(sw).size());
        }
    }
    for (uint32_t a = 0; a < g.HostCount(); ++a)
    {
        for (uint32_t b = 0; b < g.HostCount(); ++b)
        {
            EXPECT_EQ(Walk(g, a, b, false), g.HopCount(a, b));
            EXPECT_EQ(Walk(g, a, b, true), g.HopCount(a, b));
        }
    }
}

TEST(TopologyGraphLeafSpine, Counts)
{
    // 4 leaves x 16 hosts = 64 hosts; 4 + 2 = 6 switches; 70 nodes.
    // Links: 64 host links + 4 x 2 leaf-spine links = 72.
    const TopologyGraph g = TopologyGraph::Build(LeafSpine(4, 2, 16));
    EXPECT_EQ(g.HostCount(), 64u);
    EXPECT_EQ(g.SwitchCount(), 6u);
    EXPECT_EQ(g.NodeCount(), 70u);
    EXPECT_EQ(g.LeafCount(), 4u);
    EXPECT_EQ(LinkCount(g), 72u);
    EXPECT_EQ(boost::num_edges(g.GetGraph()), 72u);
    for (uint32_t h = 0; h < 64; ++h)
    {
        EXPECT_TRUE(g.IsHost(h));
        EXPECT_EQ(g.Tier(h), 0u);
        ASSERT_EQ(g.Ports(h).size(), 1u);
        EXPECT_EQ(g.LeafOf(h), 64 + h / 16);
        EXPECT_TRUE(g.Ports(h)[0].hostLink);
    }
    for (uint32_t leaf = 64; leaf < 68; ++leaf)
    {
        EXPECT_FALSE(g.IsHost(leaf));
        EXPECT_EQ(g.Tier(leaf), 1u);
        EXPECT_EQ(g.Ports(leaf).size(), 18u); // 16 hosts down, 2 spines up
    }
    for (uint32_t spine = 68; spine < 70; ++spine)
    {
        EXPECT_EQ(g.Tier(spine), 2u);
        EXPECT_EQ(g.Ports(spine).size(), 4u); // one per leaf
    }
    // Leaf 1 (node 65): ports 0..15 are hosts 16..31, ports 16 and 17 the spines.
    EXPECT_EQ(g.Ports(65)[0].peer, 16u);
    EXPECT_EQ(g.Ports(65)[15].peer, 31u);
    EXPECT_EQ(g.Ports(65)[16].peer, 68u);
    EXPECT_EQ(g.Ports(65)[17].peer, 69u);
    EXPECT_FALSE(g.Ports(65)[16].hostLink);
    EXPECT_EQ(g.Ports(69)[2].peer, 66u);
    EXPECT_EQ(g.NodeName(3), "host3");
    EXPECT_EQ(g.NodeName(65), "leaf1");
    EXPECT_EQ(g.NodeName(69), "spine1");
    ExpectPortSymmetry(g);
    ExpectPortOrder(g);
}

TEST(TopologyGraphLeafSpine, NextHopsAndHopCounts)
{
    TopologyGraph g = TopologyGraph::Build(LeafSpine(4, 2, 16));
    EXPECT_FALSE(g.HasRoutes());
    EXPECT_EQ(g.HopCount(0, 1), 2u); // before routes: BFS
    EXPECT_EQ(g.HopCount(0, 63), 4u);
    g.ComputeRoutes();
    ASSERT_TRUE(g.HasRoutes());

    // Leaf -> host on another leaf: every spine (ports 16, 17).
    EXPECT_EQ(g.NextHopPorts(64, 20), (std::vector<uint16_t>{16, 17}));
    // Leaf -> own host: the one downlink.
    EXPECT_EQ(g.NextHopPorts(64, 5), (std::vector<uint16_t>{5}));
    // Spine -> any host: the port of its leaf.
    EXPECT_EQ(g.NextHopPorts(68, 37), (std::vector<uint16_t>{2}));
    // Host -> anyone: its only port; to itself: nothing.
    EXPECT_EQ(g.NextHopPorts(7, 40), (std::vector<uint16_t>{0}));
    EXPECT_TRUE(g.NextHopPorts(7, 7).empty());

    EXPECT_EQ(g.HopCount(3, 3), 0u);
    EXPECT_EQ(g.HopCount(0, 15), 2u); // same leaf
    EXPECT_EQ(g.HopCount(0, 16), 4u); // host-leaf-spine-leaf-host
    EXPECT_EQ(g.HopCount(63, 0), 4u);
    ExpectRoutesConsistent(g);
}

TEST(TopologyGraphLeafSpine, EcmpWidthIsSpineCount)
{
    TopologyGraph g = TopologyGraph::Build(LeafSpine(3, 5, 2));
    g.ComputeRoutes();
    for (uint32_t leaf = 6; leaf < 9; ++leaf)
    {
        for (uint32_t h = 0; h < 6; ++h)
        {
            EXPECT_EQ(g.NextHopPorts(leaf, h).size(), g.LeafOf(h) == leaf ? 1u : 5u);
        }
    }
}

// The switches on the longest host-to-host path (HPCC's T and its telemetry room): ToR, spine,
// ToR on a leaf-spine; ToR, aggregation, core, aggregation, ToR on a fat-tree; one ToR when the
// fabric has one leaf, whatever its spines (they carry no host's path).
TEST(TopologyGraphLeafSpine, MaxSwitchesOnPath)
{
    auto most = [](const TopologyConfig& t)
    {
        TopologyGraph g = TopologyGraph::Build(t);
        g.ComputeRoutes();
        return g.MaxSwitchesOnPath();
    };
    EXPECT_EQ(most(LeafSpine(4, 2, 16)), 3u);
    EXPECT_EQ(most(LeafSpine(1, 1, 17)), 1u);
    EXPECT_EQ(most(LeafSpine(1, 4, 8)), 1u);
    EXPECT_EQ(most(FatTree(4)), 5u);
}

TEST(TopologyGraphFatTree, CountsK4)
{
    // k=4: 4 pods x (2 edge + 2 agg), (k/2)^2 = 4 cores -> 20 switches; k^3/4 = 16 hosts.
    // Nodes: hosts 0..15, edges 16..23, aggs 24..31, cores 32..35.
    // Links: 16 host + 4 pods x 2 x 2 edge-agg + 4 pods x 2 aggs x 2 cores = 16 + 16 + 16 = 48.
    const TopologyGraph g = TopologyGraph::Build(FatTree(4));
    EXPECT_EQ(g.HostCount(), 16u);
    EXPECT_EQ(g.SwitchCount(), 20u);
    EXPECT_EQ(g.NodeCount(), 36u);
    EXPECT_EQ(g.LeafCount(), 8u);
    EXPECT_EQ(LinkCount(g), 48u);
    for (uint32_t n = 16; n < 36; ++n)
    {
        EXPECT_EQ(g.Ports(n).size(), 4u) << "every switch has k ports";
        EXPECT_EQ(g.Tier(n), n < 24 ? 1u : n < 32 ? 2u : 3u);
    }
    // Hosts 2, 3 sit on edge 1 of pod 0 (node 17).
    EXPECT_EQ(g.LeafOf(2), 17u);
    EXPECT_EQ(g.LeafOf(3), 17u);
    EXPECT_EQ(g.LeafOf(15), 23u);
    // Edge 17: hosts 2, 3 down; pod-0 aggs 24, 25 up.
    EXPECT_EQ(g.Ports(17)[0].peer, 2u);
    EXPECT_EQ(g.Ports(17)[2].peer, 24u);
    EXPECT_EQ(g.Ports(17)[3].peer, 25u);
    // Aggregation j of a pod reaches cores j*2, j*2+1: agg 25 (pod 0, j=1) -> cores 34, 35.
    EXPECT_EQ(g.Ports(25)[0].peer, 16u);
    EXPECT_EQ(g.Ports(25)[1].peer, 17u);
    EXPECT_EQ(g.Ports(25)[2].peer, 34u);
    EXPECT_EQ(g.Ports(25)[3].peer, 35u);
    // Core 32 reaches aggregation 0 of every pod: 24, 26, 28, 30.
    EXPECT_EQ(g.Ports(32)[0].peer, 24u);
    EXPECT_EQ(g.Ports(32)[3].peer, 30u);
    EXPECT_EQ(g.NodeName(17), "edge1");
    EXPECT_EQ(g.NodeName(25), "agg1");
    EXPECT_EQ(g.NodeName(35), "core3");
    ExpectPortSymmetry(g);
    ExpectPortOrder(g);
}

TEST(TopologyGraphFatTree, CountsK8)
{
    // k=8: 128 hosts; 8 pods x (4 + 4) = 64 pod switches + 16 cores = 80 switches; 208 nodes.
    // Links: 128 host + 8 x 4 x 4 edge-agg + 8 x 4 x 4 agg-core = 384.
    const TopologyGraph g = TopologyGraph::Build(FatTree(8));
    EXPECT_EQ(g.HostCount(), 128u);
    EXPECT_EQ(g.SwitchCount(), 80u);
    EXPECT_EQ(g.NodeCount(), 208u);
    EXPECT_EQ(LinkCount(g), 384u);
    for (uint32_t n = 128; n < 208; ++n)
    {
        EXPECT_EQ(g.Ports(n).size(), 8u);
    }
    EXPECT_EQ(g.LeafOf(127), 128u + 31u);
    ExpectPortSymmetry(g);
    ExpectPortOrder(g);
}

TEST(TopologyGraphFatTree, NextHopSetsK4)
{
    TopologyGraph g = TopologyGraph::Build(FatTree(4));
    g.ComputeRoutes();
    // Edge 16 (pod 0) -> host 15 (pod 3): both aggs.
    EXPECT_EQ(g.NextHopPorts(16, 15), (std::vector<uint16_t>{2, 3}));
    // Edge 16 -> its own host 1: the one downlink.
    EXPECT_EQ(g.NextHopPorts(16, 1), (std::vector<uint16_t>{1}));
    // Edge 16 -> host 2 in the same pod, other edge: both aggs.
    EXPECT_EQ(g.NextHopPorts(16, 2).size(), 2u);
    // Aggregation 24 (pod 0) -> host in pod 2: both its cores.
    EXPECT_EQ(g.NextHopPorts(24, 9), (std::vector<uint16_t>{2, 3}));
    // Aggregation 24 -> host 3 of its own pod: down to edge 17 only.
    EXPECT_EQ(g.NextHopPorts(24, 3), (std::vector<uint16_t>{1}));
    // Core -> any host: the one pod port.
    for (uint32_t core = 32; core < 36; ++core)
    {
        for (uint32_t h = 0; h < 16; ++h)
        {
            ASSERT_EQ(g.NextHopPorts(core, h).size(), 1u);
            EXPECT_EQ(g.NextHopPorts(core, h)[0], h / 4); // pod index
        }
    }
    ExpectRoutesConsistent(g);
}

TEST(TopologyGraphFatTree, HopCounts)
{
    TopologyGraph g = TopologyGraph::Build(FatTree(4));
    // Without routes (BFS) and with routes (table) the answers agree.
    const uint32_t sameEdge = g.HopCount(0, 1);
    const uint32_t samePod = g.HopCount(0, 2);
    const uint32_t otherPod = g.HopCount(0, 15);
    g.ComputeRoutes();
    EXPECT_EQ(sameEdge, 2u);
    EXPECT_EQ(samePod, 4u);  // host-edge-agg-edge-host
    EXPECT_EQ(otherPod, 6u); // host-edge-agg-core-agg-edge-host
    EXPECT_EQ(g.HopCount(0, 1), 2u);
    EXPECT_EQ(g.HopCount(0, 2), 4u);
    EXPECT_EQ(g.HopCount(0, 15), 6u);
    EXPECT_EQ(g.HopCount(5, 4), 2u);
    EXPECT_THROW(g.HopCount(0, 16), std::invalid_argument);
}

TEST(TopologyGraphFatTree, K16RoutesAreShared)
{
    // k=16: 1024 hosts, 5 x 16^2 / 4 = 320 switches. (Build time is a benchmark matter.)
    TopologyGraph g = TopologyGraph::Build(FatTree(16));
    g.ComputeRoutes();
    EXPECT_EQ(g.HostCount(), 1024u);
    EXPECT_EQ(g.SwitchCount(), 320u);
    // Sets: empty, 16 singletons (down ports 0..15), {8..15} (up) and nothing else.
    EXPECT_EQ(g.DistinctPortSets(), 18u);
    EXPECT_EQ(g.NextHopPorts(1024, 1023).size(), 8u);
    EXPECT_EQ(g.HopCount(0, 1023), 6u);
}

TEST(TopologyGraphFatTree, SmallestK2)
{
    // k=2: 2 pods of 1 edge + 1 agg, 1 core; 2 hosts.
    TopologyGraph g = TopologyGraph::Build(FatTree(2));
    EXPECT_EQ(g.HostCount(), 2u);
    EXPECT_EQ(g.SwitchCount(), 5u);
    g.ComputeRoutes();
    EXPECT_EQ(g.HopCount(0, 1), 6u);
    ExpectPortSymmetry(g);
    ExpectRoutesConsistent(g);
}

TopologyConfig
Ring(uint32_t switches, uint32_t hostsPerSwitch)
{
    TopologyConfig t;
    t.kind = TopologyKind::RING;
    t.leaves = switches;
    t.hostsPerLeaf = hostsPerSwitch;
    return t;
}

TEST(TopologyGraphRing, NumberingAndShortestWayRound)
{
    // 5 switches x 2 hosts: hosts 0..9, switches 10..14 ("sw0".."sw4"); a switch's ports are
    // its two hosts, then its ring neighbours by node id (sw0: port 2 sw1, port 3 sw4).
    TopologyGraph g = TopologyGraph::Build(Ring(5, 2));
    EXPECT_EQ(g.HostCount(), 10u);
    EXPECT_EQ(g.SwitchCount(), 5u);
    EXPECT_EQ(g.LeafCount(), 5u);
    EXPECT_EQ(g.NodeName(10), "sw0");
    EXPECT_EQ(g.NodeName(14), "sw4");
    EXPECT_EQ(g.LeafOf(5), 12u);
    ASSERT_EQ(g.Ports(10).size(), 4u);
    EXPECT_EQ(g.Ports(10)[2].peer, 11u);
    EXPECT_EQ(g.Ports(10)[3].peer, 14u);
    EXPECT_EQ(g.Ports(14)[2].peer, 10u);
    EXPECT_EQ(g.Ports(14)[3].peer, 13u);
    EXPECT_FALSE(g.Ports(10)[2].hostLink);
    g.ComputeRoutes();
    // Two switches apart clockwise (sw0 -> sw2) is shorter than three the other way.
    EXPECT_EQ(g.NextHopPorts(10, 4), (std::vector<uint16_t>{2}));
    EXPECT_EQ(g.NextHopPorts(10, 6), (std::vector<uint16_t>{3})); // sw3: via sw4
    EXPECT_EQ(g.NextHopPorts(10, 1), (std::vector<uint16_t>{1}));
    // Hops: host, min(d, 5 - d) ring links, host.
    EXPECT_EQ(g.HopCount(0, 1), 2u);
    EXPECT_EQ(g.HopCount(0, 2), 3u);
    EXPECT_EQ(g.HopCount(0, 4), 4u);
    EXPECT_EQ(g.HopCount(0, 6), 4u);
    EXPECT_EQ(g.HopCount(0, 8), 3u);
    ExpectRoutesConsistent(g);
}

TEST(TopologyGraphRing, OppositeSwitchOfAnEvenRingIsEcmp)
{
    // 4 switches x 1 host: sw0 (node 4) reaches sw2's host both ways round (ports 1 and 2).
    TopologyGraph g = TopologyGraph::Build(Ring(4, 1));
    g.ComputeRoutes();
    EXPECT_EQ(g.NextHopPorts(4, 2), (std::vector<uint16_t>{1, 2}));
    EXPECT_EQ(g.NextHopPorts(4, 1), (std::vector<uint16_t>{1}));
    EXPECT_EQ(g.HopCount(0, 2), 4u);
    ExpectRoutesConsistent(g);
}

TEST(TopologyGraphBuild, RejectsUnbuildableConfigs)
{
    EXPECT_THROW(TopologyGraph::Build(FatTree(3)), std::invalid_argument);
    EXPECT_THROW(TopologyGraph::Build(FatTree(0)), std::invalid_argument);
    EXPECT_THROW(TopologyGraph::Build(LeafSpine(0, 1, 1)), std::invalid_argument);
    EXPECT_THROW(TopologyGraph::Build(Ring(0, 1)), std::invalid_argument);
    EXPECT_THROW(TopologyGraph::Build(Ring(2, 1)), std::invalid_argument); // not a ring
    EXPECT_THROW(TopologyGraph::Build(Ring(3, 0)), std::invalid_argument);
    TopologyConfig unknown;
    unknown.kind = static_cast<TopologyKind>(99); // no such kind
    EXPECT_THROW(TopologyGraph::Build(unknown), std::invalid_argument);
    // A leaf with more than 65536 ports cannot be numbered with 16-bit ports.
    EXPECT_THROW(TopologyGraph::Build(LeafSpine(1, 2, 65535)), std::invalid_argument);
}

} // namespace

// Link failures (docs/robustness.md "Link and NIC faults"): the routes are recomputed over the
// links that are up. Leaf-spine 2 x 2 x 2: hosts 0-3, leaf0 = 4, leaf1 = 5, spine0 = 6,
// spine1 = 7; a leaf's ports are its 2 hosts, then spine0, spine1; a spine's are leaf0, leaf1.
TEST(TopologyGraphFailures, RoutesAvoidADownLinkAndComeBack)
{
    TopologyGraph g = TopologyGraph::Build(LeafSpine(2, 2, 2));
    g.ComputeRoutes();
    ASSERT_EQ(g.NextHopPorts(4, 2), (std::vector<uint16_t>{2, 3}));
    g.SetLinkUp(4, 2, false); // leaf0 - spine0
    EXPECT_FALSE(g.IsLinkUp(4, 2));
    EXPECT_FALSE(g.IsLinkUp(6, 0)); // the same link from spine0's end
    EXPECT_EQ(g.DownLinkCount(), 1u);
    g.ComputeRoutes();
    // leaf0 reaches leaf1's hosts through spine1 only.
    EXPECT_EQ(g.NextHopPorts(4, 2), (std::vector<uint16_t>{3}));
    // spine0 reaches leaf0's hosts the long way: leaf1, spine1, leaf0 (3 links to the ToR).
    EXPECT_EQ(g.NextHopPorts(6, 0), (std::vector<uint16_t>{1}));
    EXPECT_EQ(g.HopCount(2, 0), 4u); // host2's ToR still has a 2-link path via spine1
    // Up again: both spines, as before.
    g.SetLinkUp(6, 0, true);
    g.ComputeRoutes();
    EXPECT_EQ(g.DownLinkCount(), 0u);
    EXPECT_EQ(g.NextHopPorts(4, 2), (std::vector<uint16_t>{2, 3}));
    EXPECT_EQ(g.NextHopPorts(6, 0), (std::vector<uint16_t>{0}));
}

TEST(TopologyGraphFailures, CutOffNodesHaveNoNextHop)
{
    // One spine: leaf0 - spine0 down leaves no path between the leaves.
    TopologyGraph g = TopologyGraph::Build(LeafSpine(2, 1, 2));
    g.ComputeRoutes();
    g.SetLinkUp(4, 2, false);
    g.ComputeRoutes();
    EXPECT_TRUE(g.NextHopPorts(4, 2).empty());
    EXPECT_TRUE(g.NextHopPorts(6, 0).empty());
    EXPECT_EQ(g.NextHopPorts(5, 2), (std::vector<uint16_t>{0})); // its own host still
    // A host whose own link is down cannot be reached, even from its ToR.
    g.SetLinkUp(3, 0, false);
    g.ComputeRoutes();
    EXPECT_TRUE(g.NextHopPorts(5, 3).empty());
    EXPECT_EQ(g.NextHopPorts(5, 2), (std::vector<uint16_t>{0}));
}

TEST(TopologyGraphFailures, NamesAndPorts)
{
    TopologyGraph g = TopologyGraph::Build(LeafSpine(2, 2, 2));
    EXPECT_EQ(g.FindNode("host3"), 3u);
    EXPECT_EQ(g.FindNode("leaf1"), 5u);
    EXPECT_EQ(g.FindNode("spine0"), 6u);
    EXPECT_FALSE(g.FindNode("spine2"));
    EXPECT_FALSE(g.FindNode("leaf01"));
    EXPECT_FALSE(g.FindNode("core0"));
    EXPECT_FALSE(g.FindNode("host"));
    EXPECT_FALSE(g.FindNode("4"));
    EXPECT_EQ(g.FindPort(4, 7), 3u);
    EXPECT_EQ(g.FindPort(7, 4), 0u);
    EXPECT_FALSE(g.FindPort(4, 5)); // two leaves are not neighbours
    TopologyGraph ft = TopologyGraph::Build(FatTree(4));
    // k = 4: 16 hosts, 8 edge, 8 agg, 4 core switches.
    EXPECT_EQ(ft.FindNode("edge7"), 23u);
    EXPECT_EQ(ft.FindNode("agg0"), 24u);
    EXPECT_EQ(ft.FindNode("core3"), 35u);
    EXPECT_FALSE(ft.FindNode("core4"));
}

namespace
{

TopologyConfig
MultiPlane(uint32_t xpus, uint32_t planes, uint32_t switchPorts)
{
    TopologyConfig t;
    t.kind = TopologyKind::MULTI_PLANE;
    t.xpus = xpus;
    t.planes = planes;
    t.switchPorts = switchPorts;
    return t;
}

} // namespace

// Multi-plane (docs/multi-plane.md): the XPUs' ports are the hosts, plane by plane; each plane
// is disjoint from the others, so a switch has no route to another plane's ports.
TEST(TopologyGraphMultiPlane, OneTierPlanes)
{
    // 8 XPUs x 4 planes, 64-port switches: ports 0..31 (host p * 8 + x), one switch per plane
    // (leaf0..leaf3 = nodes 32..35), 32 links.
    TopologyGraph g = TopologyGraph::Build(MultiPlane(8, 4, 64));
    EXPECT_EQ(g.HostCount(), 32u);
    EXPECT_EQ(g.SwitchCount(), 4u);
    EXPECT_EQ(g.PlaneCount(), 4u);
    EXPECT_EQ(boost::num_edges(g.GetGraph()), 32u);
    for (uint32_t p = 0; p < 4; ++p)
    {
        for (uint32_t x = 0; x < 8; ++x)
        {
            EXPECT_EQ(g.LeafOf(p * 8 + x), 32 + p);
            EXPECT_EQ(g.PlaneOf(p * 8 + x), p);
        }
        EXPECT_EQ(g.Ports(32 + p).size(), 8u);
    }
    g.ComputeRoutes();
    EXPECT_EQ(g.MaxSwitchesOnPath(), 1u);
    EXPECT_EQ(g.HopCount(9, 14), 2u);
    // Plane 1's switch reaches its own ports and none of plane 2's.
    EXPECT_EQ(g.NextHopPorts(33, 14), (std::vector<uint16_t>{6}));
    EXPECT_TRUE(g.NextHopPorts(33, 20).empty());
    EXPECT_THROW(g.HopCount(9, 20), std::invalid_argument);
}

TEST(TopologyGraphMultiPlane, TwoTierPlanesAreNonBlockingLeafSpines)
{
    // 64 XPUs on 16-port switches: 8 XPUs and 8 spines per leaf, 8 leaves and 8 spines per
    // plane; 2 planes: 128 ports, leaves 128..143, spines 144..159.
    TopologyGraph g = TopologyGraph::Build(MultiPlane(64, 2, 16));
    EXPECT_EQ(g.HostCount(), 128u);
    EXPECT_EQ(g.SwitchCount(), 32u);
    EXPECT_EQ(g.LeafCount(), 16u);
    EXPECT_EQ(boost::num_edges(g.GetGraph()), 128u + 2 * 8 * 8);
    EXPECT_EQ(g.LeafOf(64 + 9), 128u + 8 + 1); // XPU 9 on plane 1: plane 1's second leaf
    for (uint32_t leaf = 128; leaf < 144; ++leaf)
    {
        EXPECT_EQ(g.Ports(leaf).size(), 16u);
        EXPECT_EQ(g.Tier(leaf), 1u);
    }
    for (uint32_t spine = 144; spine < 160; ++spine)
    {
        EXPECT_EQ(g.Ports(spine).size(), 8u);
        EXPECT_EQ(g.Tier(spine), 2u);
        // Spines 144..151 are plane 0's: every one of their ports is a plane-0 leaf.
        for (const auto& port : g.Ports(spine))
        {
            EXPECT_EQ(port.peer < 136, spine < 152);
        }
    }
    g.ComputeRoutes();
    EXPECT_EQ(g.MaxSwitchesOnPath(), 3u);
    EXPECT_EQ(g.NextHopPorts(128, 20).size(), 8u); // any of the plane's 8 spines
    EXPECT_TRUE(g.NextHopPorts(128, 64 + 20).empty());
    for (uint32_t a = 0; a < 128; a += 7)
    {
        for (uint32_t b = 0; b < 128; b += 5)
        {
            if (g.PlaneOf(a) == g.PlaneOf(b))
            {
                EXPECT_EQ(Walk(g, a, b, false), g.HopCount(a, b));
            }
        }
    }
}

TEST(TopologyGraphMultiPlane, RejectsUnbuildablePlanes)
{
    EXPECT_THROW(TopologyGraph::Build(MultiPlane(1, 4, 64)), std::invalid_argument);
    EXPECT_THROW(TopologyGraph::Build(MultiPlane(8, 0, 64)), std::invalid_argument);
    EXPECT_THROW(TopologyGraph::Build(MultiPlane(8, 2, 7)), std::invalid_argument);
    // 100 XPUs do not fill leaves of 32; 2,080 need 65 leaves, past a 64-port spine.
    EXPECT_THROW(TopologyGraph::Build(MultiPlane(100, 2, 64)), std::invalid_argument);
    EXPECT_THROW(TopologyGraph::Build(MultiPlane(2080, 1, 64)), std::invalid_argument);
}
