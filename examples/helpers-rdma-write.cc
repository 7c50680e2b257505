/*
 * mcast4ai-helpers-example: a fabric built with the ns-3 style helpers, no JSON and no runner.
 *
 * Two hosts under one 100 Gb/s leaf; host 0 WRITEs a message to host 1 over one RC queue
 * pair; then the same message goes from host 0 to hosts 1..7 through a P2MP delivery (BIER
 * with ACK aggregation at the source ToR, or any mechanism given with --mechanism). Prints
 * each completion next to its closed form: N packets serialised back to back, the last one
 * stored and forwarded once by the switch, and its ACK back.
 *
 *   mcast4ai-helpers-example [--bytes=1048576] [--mechanism=bier]
 */
#include "fabric/helper/fabric-helper.h"
#include "ns3/command-line.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "p2mp/helper/p2mp-helper.h"
#include "p2mp/model/p2mp-channel.h"
#include "rdma/helper/rdma-helper.h"
#include "topology/model/topology-graph.h"

#include <cstdio>
#include <memory>

using namespace ns3;

namespace
{
Time g_done;

void
WriteDone(Ptr<QueuePair> qp, const QueuePair::Message& m)
{
    g_done = Simulator::Now();
}

void
MessageDone(uint64_t tag)
{
    g_done = Simulator::Now();
}

uint16_t g_port = 49152;

uint16_t
NextPort()
{
    return g_port++;
}
} // namespace

int
main(int argc, char** argv)
{
    uint64_t bytes = 1 << 20;
    std::string mechanism = "bier";
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "message size", bytes);
    cmd.AddValue(
        "mechanism", "P2MP mechanism: unicast, bier, bier-xpu-list, new-protocol", mechanism);
    cmd.Parse(argc, argv);
    Time::SetResolution(Time::PS);

    // One leaf, eight hosts, 100 Gb/s and 1 us cables.
    TopologyConfig t;
    t.kind = TopologyKind::LEAF_SPINE;
    t.leaves = 1;
    t.spines = 1;
    t.hostsPerLeaf = 8;
    TopologyGraph graph = TopologyGraph::Build(t);
    graph.ComputeRoutes();

    FabricHelper fabricHelper; // ECMP, 32 MB shared buffer, PFC and ECN, 500 ns pipeline
    FabricHelper::Fabric fabric = fabricHelper.Install(graph, t);
    RdmaHelper rdmaHelper;
    rdmaHelper.SetNicAttribute("Mtu", UintegerValue(1024));
    std::vector<Ptr<RdmaNic>> nics = rdmaHelper.Install(fabric.nodes, fabric.hostPorts);
    P2mpHelper p2mpHelper;
    p2mpHelper.SetMechanism(mechanism);
    if (mechanism != "unicast")
    {
        p2mpHelper.SetAttribute("AckAggregation", StringValue("source-tor"));
    }
    Ptr<P2mpDelivery> delivery = p2mpHelper.Install(graph, fabric.switches, nics);

    // 1. One RC WRITE, host 0 to host 1.
    Ptr<QueuePair> a = nics[0]->CreateQp(1, NextPort());
    Ptr<QueuePair> b = nics[1]->CreateQp(0, NextPort());
    RdmaNic::Connect(a, b);
    a->SetCompletionCallback(MakeCallback(&WriteDone));
    a->Post(RdmaOperation::WRITE, bytes);
    Simulator::Run();
    Time unicast = g_done;

    // Closed form (docs/fabric.md): 1024-byte packets with 58 bytes of RoCEv2 headers, 16 of
    // RETH on the first and 24 of framing; the last packet crosses the switch once more; the
    // 62-byte ACK comes back the same way.
    uint64_t packets = (bytes + 1023) / 1024;
    double bitNs = 1e9 / 100e9;
    double pktNs = (1024 + 58 + 24) * 8 * bitNs;
    double ackNs = (62 + 24) * 8 * bitNs;
    double formNs = packets * pktNs + 16 * 8 * bitNs + pktNs + ackNs * 2 + 4 * 1000 + 2 * 500;
    std::printf("RC WRITE of %llu bytes: %.3f us (closed form %.3f us)\n",
                static_cast<unsigned long long>(bytes),
                unicast.GetSeconds() * 1e6,
                formNs / 1e3);

    // 2. The same bytes from host 0 to hosts 1..7 through the P2MP delivery.
    std::vector<uint32_t> ranks{1, 2, 3, 4, 5, 6, 7};
    Ptr<P2mpChannel> channel = delivery->CreateChannel(0, ranks, 0x800000, MakeCallback(&NextPort));
    channel->SetDoneCallback(MakeCallback(&MessageDone));
    Time start = Simulator::Now();
    channel->Send(0, std::make_shared<const std::vector<uint32_t>>(ranks), bytes);
    Simulator::Run();
    std::printf("%s to 7 receivers: %.3f us, %.0f copies left the root per packet "
                "(unicast: 7 x the WRITE's serialisation)\n",
                mechanism.c_str(),
                (g_done - start).GetSeconds() * 1e6,
                channel->GetCopies());
    Simulator::Destroy();
    return 0;
}
