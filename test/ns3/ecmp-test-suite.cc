/*
 * ECMP: the per-switch 5-tuple hash spreads flows uniformly over equal-cost uplinks, and the
 * UDP source port alone is enough to move a flow to another path.
 */
#include "fabric/model/ecmp-path-choice.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "scenario/model/topology-builder.h"
#include "test-fabric.h"

#include <iostream>
#include <random>

using namespace ns3;
using namespace ns3::test;

namespace
{

/// The ECMP hash of a switch (the default path choice).
Ptr<EcmpPathChoice>
Ecmp(Ptr<FabricSwitch> sw)
{
    return DynamicCast<EcmpPathChoice>(sw->GetPathChoice());
}

FrameInfo
Tuple(uint32_t src, uint32_t dst, uint16_t sport)
{
    FrameInfo fi;
    fi.etherType = FrameInfo::ETHERTYPE_IPV4;
    fi.srcIp = FrameInfo::HOST_ADDRESS_BASE + src;
    fi.dstIp = FrameInfo::HOST_ADDRESS_BASE + dst;
    fi.protocol = 17;
    fi.srcPort = sport;
    fi.dstPort = FrameInfo::ROCEV2_UDP_PORT;
    return fi;
}

class EcmpUniformTestCase : public TestCase
{
public:
    EcmpUniformTestCase()
        : TestCase("2048 random flows over 8 spines pass a chi-square test of uniformity")
    {
    }

private:
    void DoRun() override
    {
        ScenarioConfig c = LeafSpine(4, 8, 16, "ecmp-uniform");
        TopologyBuilder fabric(c);
        fabric.Build();
        const TopologyGraph& g = fabric.GetGraph();
        const uint32_t spines = 8;
        const uint32_t flows = 2048;
        std::vector<uint32_t> count(spines, 0);
        std::mt19937_64 rng(12345);
        for (uint32_t f = 0; f < flows; ++f)
        {
            uint32_t src = rng() % 64;
            uint32_t dstLeaf = (src / 16 + 1 + rng() % 3) % 4; // another leaf
            uint32_t dst = dstLeaf * 16 + rng() % 16;
            uint16_t sport = static_cast<uint16_t>(49152 + rng() % 16384);
            uint32_t leaf = g.LeafOf(src);
            const auto& hops = g.NextHopPorts(leaf, dst);
            NS_TEST_ASSERT_MSG_EQ(hops.size(), spines, "a leaf has one uplink per spine");
            uint32_t index = Ecmp(fabric.GetSwitch(leaf - g.HostCount()))
                                 ->Index(Tuple(src, dst, sport), hops.size());
            ++count[index];
        }
        // Pearson's statistic with 7 degrees of freedom; 24.32 is its 99.9% quantile.
        double expected = double(flows) / spines;
        double chi2 = 0;
        for (uint32_t n : count)
        {
            chi2 += (n - expected) * (n - expected) / expected;
        }
        std::clog << "ECMP: 2048 flows over 8 uplinks, chi-square " << chi2 << " (7 dof)"
                  << std::endl;
        NS_TEST_ASSERT_MSG_LT(chi2, 24.32, "uplink flow counts consistent with a uniform hash");
        Simulator::Destroy();
    }
};

class EcmpSourcePortTestCase : public TestCase
{
public:
    EcmpSourcePortTestCase()
        : TestCase("changing only the UDP source port moves a flow to another spine")
    {
    }

private:
    void DoRun() override
    {
        ScenarioConfig c = LeafSpine(2, 8, 16, "ecmp-sport");
        TopologyBuilder fabric(c);
        fabric.Build();
        const TopologyGraph& g = fabric.GetGraph();
        const uint32_t src = 0;
        const uint32_t dst = 16; // first host of leaf 1
        uint32_t leaf = g.LeafOf(src);
        Ptr<FabricSwitch> leafSwitch = fabric.GetSwitch(leaf - g.HostCount());
        const auto& hops = g.NextHopPorts(leaf, dst);
        uint16_t portA = 50000;
        uint32_t pathA = Ecmp(leafSwitch)->Index(Tuple(src, dst, portA), hops.size());
        uint16_t portB = portA + 1;
        while (Ecmp(leafSwitch)->Index(Tuple(src, dst, portB), hops.size()) == pathA)
        {
            ++portB;
        }
        uint32_t pathB = Ecmp(leafSwitch)->Index(Tuple(src, dst, portB), hops.size());

        // Two flows, same hosts, same everything but the source port: 3 packets and 5 packets.
        Ptr<RdmaNic> a = fabric.GetNic(src);
        Ptr<RdmaNic> b = fabric.GetNic(dst);
        Ptr<QueuePair> qa = a->CreateQp(dst, portA);
        Ptr<QueuePair> qb = a->CreateQp(dst, portB);
        RdmaNic::Connect(qa, b->CreateQp(src, 60000));
        RdmaNic::Connect(qb, b->CreateQp(src, 60001));
        qa->Post(RdmaOperation::WRITE, 3 * 1024);
        qb->Post(RdmaOperation::WRITE, 5 * 1024);
        Simulator::Run();

        // Data frames cross spine -> leaf 1 (spine port 1); ACKs go the other way.
        for (uint32_t i = 0; i < hops.size(); ++i)
        {
            uint32_t spineNode = g.Ports(leaf)[hops[i]].peer;
            Ptr<FabricSwitch> spine = fabric.GetSwitch(spineNode - g.HostCount());
            uint64_t frames = spine->GetPort(1)->GetTxFrames();
            uint64_t want = (i == pathA) ? 3 : (i == pathB) ? 5 : 0;
            NS_TEST_ASSERT_MSG_EQ(frames, want, "spine " << i << " carries only its flow");
        }
        NS_TEST_ASSERT_MSG_EQ(qa->GetOutstandingMessages(), 0, "flow A completed");
        NS_TEST_ASSERT_MSG_EQ(qb->GetOutstandingMessages(), 0, "flow B completed");
        Simulator::Destroy();
    }
};

class EcmpTestSuite : public TestSuite
{
public:
    EcmpTestSuite()
        : TestSuite("mcast4ai-ecmp", TestSuite::Type::UNIT)
    {
        AddTestCase(new EcmpUniformTestCase());
        AddTestCase(new EcmpSourcePortTestCase());
    }
};

EcmpTestSuite g_ecmpTestSuite;

} // namespace
