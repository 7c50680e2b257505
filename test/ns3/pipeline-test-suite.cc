/*
 * The pipelined tree and chain algorithms against their closed forms (derived in
 * docs/workloads.md): the shape of NCCL's double binary tree; tree AllReduce at 16 and 64
 * ranks; tree against ring AllReduce where the closed forms of both say which is faster; ring
 * (chain) and tree broadcasts. Every expected time is computed here from the fabric's
 * parameters, never taken from a run. Each pipelined form is shown to fail: the same
 * algorithm without pipelining (one chunk per tree or message) is run and rejected by it.
 */
#include "ns3/test.h"
#include "rdma/model/rdma-nic.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "test-fabric.h"
#include "workload/model/collective-algorithms.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;
using namespace ns3::test;

namespace
{

constexpr uint32_t MTU = 1024;
constexpr uint32_t HOSTS_PER_LEAF = 16;
constexpr double RATE_GBPS = 100;
constexpr double FABRIC_GBPS = 400;
constexpr double CABLE_S = 1e-6;
constexpr double SWITCH_S = 500e-9;

/// The fabric of the ring AllReduce tests: `leaves` x 16 hosts, two spines, one entry.
std::string
Scenario(uint32_t leaves, const std::string& workload)
{
    std::ostringstream s;
    s << R"({"name": "pipeline", "stop_time_ms": 200,
      "topology": {"kind": "leaf-spine", "leaves": )"
      << leaves << R"(, "spines": 2, "hosts_per_leaf": 16,
                   "host_link": {"rate_gbps": 100, "delay_us": 1},
                   "fabric_link": {"rate_gbps": 400, "delay_us": 1}},
      "nic": {"mtu_bytes": 1024, "ack_every": 1},
      "switch": {"buffer_mb": 32, "latency_ns": 500},
      "workloads": [)"
      << workload << "]}";
    return s.str();
}

using Outcome = CollectiveOutcome;

Outcome
RunEntry(uint32_t leaves, const std::string& workload)
{
    return RunCollectiveScenario(Scenario(leaves, workload));
}

/// Seconds a host link spends on a message's data frames.
double
DataSeconds(uint64_t bytes)
{
    return MessageDataSeconds(bytes, MTU, RATE_GBPS);
}

/// Seconds a host link spends on the ACKs of a message (one per packet).
double
AckSeconds(uint64_t bytes)
{
    return MessageAckSeconds(bytes, MTU, RATE_GBPS);
}

/// A hop within a leaf.
double
HopSeconds()
{
    return LeafHopSeconds(MTU, RATE_GBPS, CABLE_S, SWITCH_S);
}

/// What crossing the spines adds to a hop: two cables, two switches, two 400G serialisations.
double
SpineSeconds()
{
    return 2 * CABLE_S + 2 * SWITCH_S + 2 * WireSeconds(MTU + ROCE_HEADER_BYTES, FABRIC_GBPS);
}

/// The longest root-to-leaf latency of a tree over hosts 0..N-1 (position = host).
double
PathSeconds(const CollectiveAlgorithms::Tree& tree)
{
    std::vector<double> at(tree.parent.size(), 0);
    double longest = 0;
    for (uint32_t p : tree.TopDown())
    {
        if (p == tree.root)
        {
            continue;
        }
        uint32_t up = tree.parent[p];
        bool sameLeaf = up / HOSTS_PER_LEAF == p / HOSTS_PER_LEAF;
        at[p] = at[up] + HopSeconds() + (sameLeaf ? 0 : SpineSeconds());
        longest = std::max(longest, at[p]);
    }
    return longest;
}

/// The ring AllReduce of the collective suite: 2(N-1) steps of S/N.
double
RingAllreduceSeconds(uint32_t n, uint64_t bytes)
{
    uint64_t shard = bytes / n;
    return 2 * (n - 1) * (DataSeconds(shard) + AckSeconds(shard) + HopSeconds());
}

/**
 * Double-binary-tree AllReduce in C chunks of c per tree, trees of depth D:
 * T = T1 + (C-1)·τ. A chunk alone (T1) climbs D hops (t each, t = c·w/B), comes down from the
 * root to its single child (t) and then through D-1 levels of two copies each (2t), and
 * crosses 2D hops of latency: T1 = (3D-1)·t + 2·(longest root-to-leaf latency). Chunks follow
 * each other at τ = 4t: per chunk index every rank's link carries four chunks each way (as an
 * internal node of one tree two up from its children, one up to its parent, one down from its
 * parent and two down to its children; as a leaf of the other one up and one down), each with
 * the ACKs of the chunks flowing the other way.
 */
double
TreeAllreduceSeconds(uint32_t n, uint64_t bytes, uint64_t chunk)
{
    CollectiveAlgorithms::Tree tree = CollectiveAlgorithms::BinaryTree(n);
    double d = tree.Depth();
    chunk = std::min(chunk, bytes - bytes / 2); // a chunk is at most a tree's half
    double chunks = std::ceil(bytes / 2.0 / chunk);
    double t = DataSeconds(chunk) + AckSeconds(chunk);
    return (3 * d - 1) * t + 2 * PathSeconds(tree) + (chunks - 1) * 4 * t;
}

/**
 * Pipelined broadcast down a tree whose root has one child: a chunk alone takes the root's
 * hop (data only: t0 = c·w_data/B) and `copies` serialisations at every level below, plus the
 * latency of the path; chunks follow at the period of a rank below the root, which sends
 * `copies` chunks and the ACKs of the one it receives: T = T1 + (C-1)·τ.
 */
double
TreeBroadcastSeconds(const CollectiveAlgorithms::Tree& tree,
                     uint32_t copies,
                     uint64_t bytes,
                     uint64_t chunk)
{
    double d = tree.Depth();
    double chunks = std::ceil(static_cast<double>(bytes) / chunk);
    double t0 = DataSeconds(chunk);
    double tau = copies * DataSeconds(chunk) + AckSeconds(chunk);
    return t0 + (d - 1) * copies * t0 + PathSeconds(tree) + (chunks - 1) * tau;
}

bool
HasChildren(const CollectiveAlgorithms::Tree& t, uint32_t p, const std::vector<uint32_t>& children)
{
    return t.children.at(p) == children;
}

/// The double binary tree's shape: NCCL's trees, each rank a leaf of one and inner in the other.
class DoubleTreeShapeTestCase : public TestCase
{
public:
    DoubleTreeShapeTestCase()
        : TestCase("double binary tree: NCCL's shapes, depth ceil(log2 N), complementary roles")
    {
    }

private:
    void DoRun() override
    {
        // NCCL's illustrations (src/graph/trees.cc): a 14-rank tree, a 12-rank mirror and a
        // 13-rank shift.
        CollectiveAlgorithms::Tree t14 = CollectiveAlgorithms::BinaryTree(14);
        NS_TEST_ASSERT_MSG_EQ(t14.root, 0, "root 0");
        NS_TEST_ASSERT_MSG_EQ(t14.children[0].size(), 1, "0 has one child");
        NS_TEST_ASSERT_MSG_EQ(t14.children[0][0], 8, "0 -> 8");
        NS_TEST_ASSERT_MSG_EQ(HasChildren(t14, 8, {4, 12}), true, "8");
        NS_TEST_ASSERT_MSG_EQ(HasChildren(t14, 12, {10, 13}), true, "12");
        NS_TEST_ASSERT_MSG_EQ(HasChildren(t14, 6, {5, 7}), true, "6");
        NS_TEST_ASSERT_MSG_EQ(t14.children[13].empty(), true, "13 is a leaf");
        CollectiveAlgorithms::Tree m12 = CollectiveAlgorithms::ComplementTree(12);
        NS_TEST_ASSERT_MSG_EQ(m12.root, 11, "mirror: root 11");
        NS_TEST_ASSERT_MSG_EQ(HasChildren(m12, 11, {3}), true, "11 -> 3");
        NS_TEST_ASSERT_MSG_EQ(HasChildren(m12, 3, {1, 7}), true, "3");
        NS_TEST_ASSERT_MSG_EQ(HasChildren(m12, 9, {8, 10}), true, "9");
        CollectiveAlgorithms::Tree s13 = CollectiveAlgorithms::ComplementTree(13);
        NS_TEST_ASSERT_MSG_EQ(s13.root, 1, "shift: root 1");
        NS_TEST_ASSERT_MSG_EQ(HasChildren(s13, 1, {9}), true, "1 -> 9");
        NS_TEST_ASSERT_MSG_EQ(HasChildren(s13, 9, {0, 5}), true, "9");

        for (uint32_t n = 2; n <= 70; ++n)
        {
            uint32_t log2 = 0;
            while ((1u << log2) < n)
            {
                ++log2;
            }
            CollectiveAlgorithms::Tree trees[2]
                = {CollectiveAlgorithms::BinaryTree(n), CollectiveAlgorithms::ComplementTree(n)};
            std::vector<uint32_t> leafOf(n, 0);
            for (const CollectiveAlgorithms::Tree& t : trees)
            {
                NS_TEST_ASSERT_MSG_EQ(t.TopDown().size(), n, "the tree spans the ranks");
                NS_TEST_ASSERT_MSG_EQ(t.Depth(), log2, "depth ceil(log2 N)");
                for (uint32_t r = 0; r < n; ++r)
                {
                    NS_TEST_ASSERT_MSG_LT(t.children[r].size(), 3, "binary");
                    leafOf[r] += t.children[r].empty() ? 1 : 0;
                }
            }
            for (uint32_t r = 0; r < n; ++r)
            {
                // With an odd N, rank 0 is the root of one tree and inner in the shifted one.
                uint32_t expected = (n % 2 == 1 && r == 0) ? 0 : 1;
                NS_TEST_ASSERT_MSG_EQ(
                    leafOf[r], expected, "N " << n << ": rank " << r << " a leaf of one tree");
            }
        }
    }
};

class TreeAllreduceTestCase : public TestCase
{
public:
    TreeAllreduceTestCase(uint32_t leaves, uint64_t bytes, uint64_t chunk)
        : TestCase("tree AllReduce of " + std::to_string(bytes >> 10) + " KiB over "
                   + std::to_string(HOSTS_PER_LEAF * leaves) + " ranks in chunks of "
                   + (chunk ? std::to_string(chunk >> 10) + " KiB" : "bytes over ranks")
                   + ": within 15% of T1 + (C-1)·4t, unpipelined rejected"),
          m_leaves(leaves),
          m_bytes(bytes),
          m_chunk(chunk)
    {
    }

private:
    void DoRun() override
    {
        const uint32_t n = HOSTS_PER_LEAF * m_leaves;
        const uint64_t chunk = m_chunk ? m_chunk : m_bytes / n;
        Outcome o = RunEntry(m_leaves,
                             R"({"type": "allreduce", "algorithm": "tree", "bytes": )"
                                 + std::to_string(m_bytes) + R"(, "chunk_bytes": )"
                                 + std::to_string(m_chunk) + "}");
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "the AllReduce completes");
        double d = CollectiveAlgorithms::BinaryTree(n).Depth();
        NS_TEST_ASSERT_MSG_EQ(o.depth, 2 * d, "2D dependent steps");
        // An inner rank with two children: half up, twice half down, and half up as a leaf.
        NS_TEST_ASSERT_MSG_EQ(o.maxDataBytesSent, 2 * m_bytes, "2S from the busiest rank");
        double expected = TreeAllreduceSeconds(n, m_bytes, chunk) * 1e6;
        NS_TEST_ASSERT_MSG_EQ_TOL(o.durationUs, expected, 0.15 * expected, "closed form");

        // The form can fail: the same AllReduce without pipelining (each tree's half of the
        // bytes as one chunk) is outside its 15%.
        Outcome whole = RunEntry(m_leaves,
                                 R"({"type": "allreduce", "algorithm": "tree", "bytes": )"
                                     + std::to_string(m_bytes) + R"(, "chunk_bytes": )"
                                     + std::to_string(m_bytes / 2) + "}");
        NS_TEST_ASSERT_MSG_EQ(whole.complete, true, "the unpipelined AllReduce completes");
        std::clog << std::fixed << std::setprecision(1) << "tree AllReduce, " << n
                  << " ranks: " << o.durationUs << " us against " << expected << " ("
                  << std::showpos << (o.durationUs / expected - 1) * 100 << "%)" << std::noshowpos
                  << "; without pipelining " << whole.durationUs << " us (" << std::showpos
                  << (whole.durationUs / expected - 1) * 100 << "%)" << std::noshowpos << std::endl;
        const bool accepted = std::abs(whole.durationUs - expected) <= 0.15 * expected;
        NS_TEST_EXPECT_MSG_EQ(accepted,
                              false,
                              "without pipelining rejected: " << whole.durationUs << " us against "
                                                              << expected);
    }

    uint32_t m_leaves;
    uint64_t m_bytes;
    uint64_t m_chunk;
};

/**
 * Tree against ring AllReduce where both closed forms agree on the winner by a wide margin:
 * 4 KiB over 64 ranks (2D = 12 hop latencies against the ring's 2(N-1) = 126), and 4 MiB over
 * 16 ranks (the tree moves 2S from its busiest rank and pays (3D-1) chunks of S/N more, the
 * ring 2(N-1)/N·S, while their latencies differ by 22 hops only).
 */
class TreeRingCrossoverTestCase : public TestCase
{
public:
    TreeRingCrossoverTestCase(uint32_t leaves, uint64_t bytes)
        : TestCase("tree against ring AllReduce of " + std::to_string(bytes >> 10) + " KiB over "
                   + std::to_string(HOSTS_PER_LEAF * leaves)
                   + " ranks: the faster one is the one the closed forms say"),
          m_leaves(leaves),
          m_bytes(bytes)
    {
    }

private:
    void DoRun() override
    {
        const uint32_t n = HOSTS_PER_LEAF * m_leaves;
        double ringForm = RingAllreduceSeconds(n, m_bytes) * 1e6;
        double treeForm = TreeAllreduceSeconds(n, m_bytes, m_bytes / n) * 1e6;
        // Assert only where the closed forms are at least 15% apart, their tolerance.
        double ratio = std::max(ringForm, treeForm) / std::min(ringForm, treeForm);
        NS_TEST_ASSERT_MSG_GT(ratio, 1.15, "the closed forms decide this case");
        std::string bytes = std::to_string(m_bytes);
        Outcome ring = RunEntry(
            m_leaves, R"({"type": "allreduce", "algorithm": "ring", "bytes": )" + bytes + "}");
        Outcome tree = RunEntry(
            m_leaves, R"({"type": "allreduce", "algorithm": "tree", "bytes": )" + bytes + "}");
        NS_TEST_ASSERT_MSG_EQ(ring.complete && tree.complete, true, "both complete");
        if (treeForm < ringForm)
        {
            NS_TEST_ASSERT_MSG_LT(tree.durationUs, ring.durationUs, "the tree is faster");
            NS_TEST_ASSERT_MSG_EQ_TOL(
                tree.durationUs, treeForm, 0.15 * treeForm, "tree within 15% of its closed form");
        }
        else
        {
            NS_TEST_ASSERT_MSG_LT(ring.durationUs, tree.durationUs, "the ring is faster");
        }
        NS_TEST_ASSERT_MSG_EQ_TOL(
            ring.durationUs, ringForm, 0.1 * ringForm, "ring within 10% of its closed form");
    }

    uint32_t m_leaves;
    uint64_t m_bytes;
};

class RelayBroadcastTestCase : public TestCase
{
public:
    RelayBroadcastTestCase(std::string algorithm, uint32_t leaves, uint64_t bytes, uint64_t chunk)
        : TestCase(algorithm + " broadcast of " + std::to_string(bytes >> 10) + " KiB to "
                   + std::to_string(HOSTS_PER_LEAF * leaves - 1) + " ranks in chunks of "
                   + std::to_string(chunk >> 10) + " KiB: within "
                   + (algorithm == "ring" ? "10" : "15")
                   + "% of its closed form, unpipelined rejected"),
          m_algorithm(std::move(algorithm)),
          m_leaves(leaves),
          m_bytes(bytes),
          m_chunk(chunk)
    {
    }

private:
    void DoRun() override
    {
        const uint32_t n = HOSTS_PER_LEAF * m_leaves;
        const bool ring = m_algorithm == "ring";
        Outcome o = RunEntry(m_leaves,
                             R"({"type": "broadcast", "algorithm": ")" + m_algorithm
                                 + R"(", "bytes": )" + std::to_string(m_bytes)
                                 + R"(, "chunk_bytes": )" + std::to_string(m_chunk) + "}");
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "the broadcast completes");
        // Its rows read as a multicast broadcast's: the root (host 0) sends to the others.
        NS_TEST_EXPECT_MSG_EQ(o.first.rank, 0, "rank: the root");
        NS_TEST_EXPECT_MSG_EQ(o.first.src, 0, "src: the root");
        NS_TEST_EXPECT_MSG_EQ(o.first.receivers, n - 1, "receivers: the other ranks");
        CollectiveAlgorithms::Tree tree
            = ring ? CollectiveAlgorithms::Chain(n) : CollectiveAlgorithms::BinaryTree(n);
        NS_TEST_ASSERT_MSG_EQ(o.depth, tree.Depth(), "one dependent step per level");
        // A chain's ranks send the message once; a binary tree's inner ranks twice.
        NS_TEST_ASSERT_MSG_EQ(o.maxDataBytesSent, (ring ? 1 : 2) * m_bytes, "bytes per rank");
        double expected = TreeBroadcastSeconds(tree, 2, m_bytes, m_chunk) * 1e6;
        if (ring)
        {
            // S·w/B + (N-2)·c·w/B + the N-1 hop latencies, w counting the ACKs a relaying
            // rank returns (TreeBroadcastSeconds with one copy is this less (N-1)·c·w_ack/B).
            double chunks = std::ceil(static_cast<double>(m_bytes) / m_chunk);
            double t = DataSeconds(m_chunk) + AckSeconds(m_chunk);
            expected = ((chunks + n - 2) * t + PathSeconds(tree)) * 1e6;
        }
        const double tolerance = ring ? 0.10 : 0.15;
        NS_TEST_ASSERT_MSG_EQ_TOL(o.durationUs, expected, tolerance * expected, "closed form");

        // The form can fail: the same broadcast without pipelining (the message as one chunk)
        // is outside its tolerance.
        Outcome whole = RunEntry(m_leaves,
                                 R"({"type": "broadcast", "algorithm": ")" + m_algorithm
                                     + R"(", "bytes": )" + std::to_string(m_bytes)
                                     + R"(, "chunk_bytes": )" + std::to_string(m_bytes) + "}");
        NS_TEST_ASSERT_MSG_EQ(whole.complete, true, "the unpipelined broadcast completes");
        std::clog << std::fixed << std::setprecision(1) << m_algorithm << " broadcast, " << n
                  << " ranks: " << o.durationUs << " us against " << expected << " ("
                  << std::showpos << (o.durationUs / expected - 1) * 100 << "%)" << std::noshowpos
                  << "; without pipelining " << whole.durationUs << " us (" << std::showpos
                  << (whole.durationUs / expected - 1) * 100 << "%)" << std::noshowpos << std::endl;
        const bool accepted = std::abs(whole.durationUs - expected) <= tolerance * expected;
        NS_TEST_EXPECT_MSG_EQ(accepted,
                              false,
                              "without pipelining rejected: " << whole.durationUs << " us against "
                                                              << expected);
    }

    std::string m_algorithm;
    uint32_t m_leaves;
    uint64_t m_bytes;
    uint64_t m_chunk;
};

class PipelineTestSuite : public TestSuite
{
public:
    PipelineTestSuite()
        : TestSuite("mcast4ai-pipeline", TestSuite::Type::UNIT)
    {
        AddTestCase(new DoubleTreeShapeTestCase());
        AddTestCase(new TreeAllreduceTestCase(1, 1 << 20, 16384));
        AddTestCase(new TreeAllreduceTestCase(4, 1 << 20, 0));
        AddTestCase(new TreeRingCrossoverTestCase(4, 4096));
        AddTestCase(new TreeRingCrossoverTestCase(1, 4 << 20));
        AddTestCase(new RelayBroadcastTestCase("ring", 1, 4 << 20, 16384));
        AddTestCase(new RelayBroadcastTestCase("ring", 4, 1 << 20, 16384));
        AddTestCase(new RelayBroadcastTestCase("tree", 1, 4 << 20, 16384));
        AddTestCase(new RelayBroadcastTestCase("tree", 4, 1 << 20, 16384));
    }
};

PipelineTestSuite g_pipelineTestSuite;

} // namespace
