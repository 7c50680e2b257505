/*
 * The collective workloads against their closed forms (derived in docs/workloads.md):
 * ring AllReduce at 16 and 64 ranks on an idle fabric; the dependency depth of every
 * algorithm (tree AllReduce and the ring and tree broadcasts included; their times are
 * checked in pipeline-test-suite.cc); AllGather at 64 ranks by ring and by multicast, where each
 * rank's uplink carries (N-1)x fewer bytes under bier and new-protocol and the operation ends
 * sooner, while under unicast the multicast algorithm degenerates to N-1 copies. The ring's
 * form rejects the tree AllReduce at 16 ranks; each algorithm's depth rejects the others' runs
 * of the same collective; the one-copy count rejects the ring and multicast under unicast.
 */
#include "ns3/test.h"
#include "rdma/model/rdma-nic.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "test-fabric.h"
#include "workload/model/collective-workload.h"

#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::test;

namespace
{

constexpr uint32_t MTU = 1024;
constexpr double RATE_GBPS = 100;
constexpr double CABLE_S = 1e-6;
constexpr double SWITCH_S = 500e-9;

/// A leaf-spine of `leaves` x 16 hosts with one collective entry.
std::string
Scenario(uint32_t leaves, const std::string& mechanism, const std::string& workload)
{
    std::ostringstream s;
    s << R"({"name": "collective", "stop_time_ms": 200,
      "topology": {"kind": "leaf-spine", "leaves": )"
      << leaves << R"(, "spines": 2, "hosts_per_leaf": 16,
                   "host_link": {"rate_gbps": 100, "delay_us": 1},
                   "fabric_link": {"rate_gbps": 400, "delay_us": 1}},
      "nic": {"mtu_bytes": 1024, "ack_every": 1},
      "switch": {"buffer_mb": 32, "latency_ns": 500},
      "p2mp": {"mechanism": ")"
      << mechanism << R"("},
      "workloads": [)"
      << workload << "]}";
    return s.str();
}

/**
 * One ring step of a shard between neighbours on one leaf: the sender's uplink carries the
 * shard's frames and the ACKs the sender returns to its own predecessor for the same step
 * (one per packet), then the last frame crosses a cable, the switch pipeline, is serialised
 * again and crosses the second cable.
 */
double
RingStepSeconds(uint64_t shard)
{
    return MessageDataSeconds(shard, MTU, RATE_GBPS) + MessageAckSeconds(shard, MTU, RATE_GBPS)
           + LeafHopSeconds(MTU, RATE_GBPS, CABLE_S, SWITCH_S);
}

using Outcome = CollectiveOutcome;

Outcome
RunCollective(uint32_t leaves, const std::string& mechanism, const std::string& workload)
{
    return RunCollectiveScenario(Scenario(leaves, mechanism, workload));
}

class RingAllreduceTestCase : public TestCase
{
public:
    explicit RingAllreduceTestCase(uint32_t leaves)
        : TestCase("ring AllReduce of 16 MiB over " + std::to_string(16 * leaves)
                   + " ranks: 2(N-1) steps of S over N"),
          m_leaves(leaves)
    {
    }

private:
    void DoRun() override
    {
        const uint32_t n = 16 * m_leaves;
        const uint64_t bytes = 16u << 20;
        Outcome o
            = RunCollective(m_leaves,
                            "unicast",
                            R"({"type": "allreduce", "algorithm": "ring", "bytes": 16777216})");
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "the AllReduce completes");
        NS_TEST_ASSERT_MSG_EQ(o.depth, 2.0 * (n - 1), "2(N-1) dependent steps");
        double expected = 2 * (n - 1) * RingStepSeconds(bytes / n) * 1e6;
        NS_TEST_ASSERT_MSG_EQ_TOL(o.durationUs,
                                  expected,
                                  0.1 * expected,
                                  "within 10% of 2(N-1) x (S/N wire time + step latency)");

        if (m_leaves != 1)
        {
            return;
        }
        // The form can fail: the same AllReduce by the double binary tree (another step
        // structure, 2 log2 N steps of pipelined chunks) is outside its 10%.
        Outcome tree
            = RunCollective(m_leaves,
                            "unicast",
                            R"({"type": "allreduce", "algorithm": "tree", "bytes": 16777216})");
        NS_TEST_ASSERT_MSG_EQ(tree.complete, true, "the tree AllReduce completes");
        std::clog << std::fixed << std::setprecision(1) << "ring AllReduce, " << n
                  << " ranks: " << o.durationUs << " us against " << expected << "; by the tree "
                  << tree.durationUs << " us" << std::endl;
        const bool accepted = std::abs(tree.durationUs - expected) <= 0.1 * expected;
        NS_TEST_EXPECT_MSG_EQ(accepted, false, "the tree rejected: " << tree.durationUs << " us");
    }

    uint32_t m_leaves;
};

/// Dependency depths: the number of steps each algorithm chains, whatever the fabric.
class DepthTestCase : public TestCase
{
public:
    DepthTestCase()
        : TestCase("dependent steps of every algorithm at 16 ranks")
    {
    }

private:
    void DoRun() override
    {
        const double n = 16;
        struct Case
        {
            const char* entry;
            double depth;
        };
        const Case cases[] = {
            {R"({"type": "allreduce", "algorithm": "multicast", "bytes": 65536})", n},
            {R"({"type": "allgather", "algorithm": "ring", "bytes": 65536})", n - 1},
            {R"({"type": "allgather", "algorithm": "multicast", "bytes": 65536})", 1},
            {R"({"type": "reducescatter", "bytes": 65536})", n - 1},
            // "all" and a count stand for the first hosts.
            {R"({"type": "allreduce", "algorithm": "ring", "ranks": "all", "bytes": 16777216,
                 "iterations": 1})",
             2 * (n - 1)},
            {R"({"type": "allgather", "ranks": 8, "bytes": 65536})", 7},
            // Four loops of 16 x 1 KiB pipeline through the same 2(N-1) steps.
            {R"({"type": "allreduce", "bytes": 65536, "chunk_bytes": 1024})", 2 * (n - 1)},
            // Double binary tree of depth ceil(log2 16) = 4: up and down, whatever the chunks.
            {R"({"type": "allreduce", "algorithm": "tree", "bytes": 65536})", 8},
            {R"({"type": "allreduce", "algorithm": "tree", "bytes": 65536, "chunk_bytes": 512})",
             8},
            // Broadcasts relayed in chunks: N-1 hops down a chain, 4 levels down a tree.
            {R"({"type": "broadcast", "algorithm": "ring", "bytes": 65536, "chunk_bytes": 1024})",
             n - 1},
            {R"({"type": "broadcast", "algorithm": "tree", "bytes": 65536})", 4},
        };
        std::vector<double> depths;
        for (const Case& c : cases)
        {
            Outcome o = RunCollective(1, "new-protocol", c.entry);
            NS_TEST_ASSERT_MSG_EQ(o.complete, true, c.entry);
            NS_TEST_ASSERT_MSG_EQ(o.depth, c.depth, c.entry);
            depths.push_back(o.depth);
        }
        // The algorithms of one collective are each other's wrong models: each count rejects
        // the others' runs. AllReduce: multicast N, ring 2(N-1), tree 8; AllGather: ring N-1,
        // multicast 1; broadcast: ring N-1, tree 4.
        const std::vector<std::vector<std::size_t>> sameCollective = {{0, 4, 7}, {1, 2}, {9, 10}};
        for (const auto& rows : sameCollective)
        {
            for (std::size_t a : rows)
            {
                for (std::size_t b : rows)
                {
                    if (a != b)
                    {
                        NS_TEST_ASSERT_MSG_NE(depths[b], cases[a].depth, cases[b].entry);
                    }
                }
            }
        }
    }
};

class MulticastAllgatherTestCase : public TestCase
{
public:
    explicit MulticastAllgatherTestCase(std::string mechanism)
        : TestCase("AllGather of 16 KiB per rank over 64 ranks, multicast against ring, under '"
                   + mechanism + "'"),
          m_mechanism(std::move(mechanism))
    {
    }

private:
    void DoRun() override
    {
        const uint32_t n = 64;
        const uint64_t shard = 16384;
        const std::string bytes = std::to_string(n * shard);
        Outcome ring = RunCollective(4,
                                     m_mechanism,
                                     R"({"type": "allgather", "algorithm": "ring", "bytes": )"
                                         + bytes + "}");
        Outcome mc = RunCollective(4,
                                   m_mechanism,
                                   R"({"type": "allgather", "algorithm": "multicast", "bytes": )"
                                       + bytes + "}");
        NS_TEST_ASSERT_MSG_EQ(ring.complete && mc.complete, true, "both complete");
        // Ring: N-1 shards leave every rank; multicast: one P2MP message of one shard.
        NS_TEST_ASSERT_MSG_EQ(ring.maxDataBytesSent, (n - 1) * shard, "ring: (N-1) shards");
        // The one-copy count rejects the ring (and, below, multicast under unicast).
        NS_TEST_ASSERT_MSG_NE(ring.maxDataBytesSent, shard, "the ring is not one copy");
        if (m_mechanism == "unicast")
        {
            NS_TEST_ASSERT_MSG_EQ(mc.maxDataBytesSent,
                                  (n - 1) * shard,
                                  "unicast: the multicast algorithm sends N-1 copies");
            NS_TEST_ASSERT_MSG_NE(mc.maxDataBytesSent, shard, "rejected by the one-copy count");
            // ... and every rank's uplink then carries N-1 shards at once, where BIER's
            // carries one.
            Outcome bier = RunCollective(
                4,
                "bier",
                R"({"type": "allgather", "algorithm": "multicast", "bytes": )" + bytes + "}");
            NS_TEST_ASSERT_MSG_GT(mc.durationUs, bier.durationUs, "N-1 copies take longer");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(mc.maxDataBytesSent, shard, "one copy leaves each rank");
            NS_TEST_ASSERT_MSG_LT(mc.durationUs, ring.durationUs, "multicast ends sooner");
        }
    }

    std::string m_mechanism;
};

class CollectiveTestSuite : public TestSuite
{
public:
    CollectiveTestSuite()
        : TestSuite("mcast4ai-collective", TestSuite::Type::UNIT)
    {
        AddTestCase(new RingAllreduceTestCase(1));
        AddTestCase(new RingAllreduceTestCase(4));
        AddTestCase(new DepthTestCase());
        AddTestCase(new MulticastAllgatherTestCase("bier"));
        AddTestCase(new MulticastAllgatherTestCase("new-protocol"));
        AddTestCase(new MulticastAllgatherTestCase("unicast"));
    }
};

CollectiveTestSuite g_collectiveTestSuite;

} // namespace
