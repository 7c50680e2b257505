/*
 * A NIC that another process simulates is a stand-in: it numbers queue pairs and group
 * responders as a NIC of one process would, so the ends this process makes carry the same
 * QPNs, but it holds neither. The check runs the same calls once with every node this
 * process's and once with node 1 another's, and compares the numbers the local ends see: a
 * stand-in that held nothing but numbered nothing either would give host 2's end host 1's
 * first QPN again, and fail.
 */
#include "fabric/model/fabric-net-device.h"
#include "ns3/node.h"
#include "rdma/helper/rdma-helper.h"
#include "rdma/model/rdma-nic.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

struct Seen
{
    uint32_t remoteOfA{0};    ///< what host 0's end of the 0-1 connection names at host 1
    uint32_t remoteOfC{0};    ///< what host 2's end of the 2-1 connection names at host 1
    uint32_t responderQpn{0}; ///< the QPN host 1's group responder took
    bool bMade{false};        ///< host 1's end of the 0-1 connection was made
    uint32_t qpsAt1{0};
    uint32_t respondersAt1{0};
    uint32_t qpsAt0{0};
};

/// Three hosts, host 1 on process rankOf1; the calls a workload makes at set-up.
Seen
SetUpAndNumber(uint32_t rankOf1)
{
    NodeContainer nodes;
    std::vector<Ptr<FabricNetDevice>> ports;
    for (uint32_t h = 0; h < 3; ++h)
    {
        Ptr<Node> node = CreateObject<Node>(h == 1 ? rankOf1 : 0);
        Ptr<FabricNetDevice> port = CreateObject<FabricNetDevice>();
        node->AddDevice(port);
        nodes.Add(node);
        ports.push_back(port);
    }
    std::vector<Ptr<RdmaNic>> nics = RdmaHelper().Install(nodes, ports);
    Seen seen;
    auto [a, b] = RdmaNic::CreateConnection(nics[0], nics[1], 1000, 1001);
    seen.remoteOfA = a->GetRemoteQpn();
    seen.bMade = b != nullptr;
    seen.responderQpn = nics[1]->CreateGroupResponder(
        0x9000, 0, 0x9000, 1002, 1, false, RdmaNic::GroupReceiveCallback());
    Ptr<QueuePair> c = RdmaNic::CreateConnection(nics[2], nics[1], 1003, 1004).first;
    seen.remoteOfC = c->GetRemoteQpn();
    seen.qpsAt1 = nics[1]->GetNQps();
    seen.respondersAt1 = nics[1]->GetNGroupResponders();
    seen.qpsAt0 = nics[0]->GetNQps();
    for (Ptr<RdmaNic> nic : nics)
    {
        nic->Dispose();
    }
    return seen;
}

} // namespace

TEST(StandInNic, NumbersAsOneProcessWithoutHoldingAnything)
{
    const Seen one = SetUpAndNumber(0);
    const Seen spread = SetUpAndNumber(1);
    // One process: host 1 holds both queue pairs and the responder, numbered in turn.
    EXPECT_TRUE(one.bMade);
    EXPECT_EQ(one.qpsAt1, 2u);
    EXPECT_EQ(one.respondersAt1, 1u);
    EXPECT_EQ(one.remoteOfA, QpTable::FIRST_QPN);
    EXPECT_EQ(one.responderQpn, QpTable::FIRST_QPN + 1);
    EXPECT_EQ(one.remoteOfC, QpTable::FIRST_QPN + 2);
    // Spread: host 1 is a stand-in. It holds nothing, yet every number is the same.
    EXPECT_FALSE(spread.bMade);
    EXPECT_EQ(spread.qpsAt1, 0u);
    EXPECT_EQ(spread.respondersAt1, 0u);
    EXPECT_EQ(spread.qpsAt0, one.qpsAt0);
    EXPECT_EQ(spread.remoteOfA, one.remoteOfA);
    EXPECT_EQ(spread.responderQpn, one.responderQpn);
    EXPECT_EQ(spread.remoteOfC, one.remoteOfC);
}
