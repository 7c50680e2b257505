/*
 * P2MP delivery against closed forms: unicast pays N serialisations at the root, BIER and the
 * new protocol one (plus the path); BIER sends one copy per set identifier with RFC 8296
 * header sizes; ACKs implode without aggregation (N per PSN) and arrive once per advance of
 * the minimum with it; a lost packet is repaired through the aggregator; random small
 * receiver sets favour the XPU-ID list and churn the new protocol's group tables; a
 * multicast AllGather leaves one group responder per (receiver, sender) and no queue pair.
 * The broadcast forms, the ACK implosion count and the aggregation check each reject the
 * other design's run.
 */
#include "ns3/ethernet-header.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "p2mp/model/p2mp-sender.h"
#include "rdma/model/rdma-nic.h"
#include "scenario/model/run-invariants.h"
#include "scenario/model/scenario-runner.h"
#include "scenario/model/scenario.h"
#include "test-fabric.h"
#include "wire/model/bier-header.h"

#include <cmath>
#include <iostream>
#include <map>
#include <memory>

using namespace ns3;
using namespace ns3::test;

namespace
{

WorkloadConfig
Broadcast(uint32_t root, uint64_t bytes, uint64_t messages = 1, uint32_t perMessage = 0)
{
    WorkloadConfig w;
    w.type = "broadcast";
    w.label = "broadcast";
    w.algorithm = CollectiveAlgorithm::MULTICAST;
    w.root = root;
    w.bytes = bytes;
    w.messages = messages;
    w.receiversPerMessage = perMessage;
    return w;
}

/// 64 hosts, everything at 100 Gbps with 1 us cables and 500 ns switches.
ScenarioConfig
Fabric64(const std::string& mechanism, const std::string& name)
{
    ScenarioConfig c = LeafSpine(4, 2, 16, name);
    c.stopTimeMs = 200;
    c.p2mp.mechanism = mechanism;
    c.p2mp.ackAggregation = mechanism == "new-protocol" ? "source-tor" : "none";
    return c;
}

WorkloadConfig
WithRanks(WorkloadConfig w, uint32_t hosts)
{
    for (uint32_t h = 0; h < hosts; ++h)
    {
        w.ranks.push_back(h);
    }
    return w;
}

/// What the broadcast forms read from an 8 MiB broadcast to 63 receivers.
struct BroadcastOutcome
{
    bool complete{false};
    uint64_t receivers{0};
    double root{0};         ///< s, the root's completion
    double lastReceiver{0}; ///< s
    uint64_t rootFrames{0};
    double copies{0};
};

/// Each mechanism's broadcast, run once and shared by the cases that judge it.
const BroadcastOutcome&
RunBroadcast(const std::string& mechanism)
{
    static std::map<std::string, BroadcastOutcome> runs;
    auto it = runs.find(mechanism);
    if (it != runs.end())
    {
        return it->second;
    }
    ScenarioConfig c = Fabric64(mechanism, "p2mp-broadcast-" + mechanism);
    c.workloads.push_back(WithRanks(Broadcast(0, 8u << 20), 64));
    ScenarioRunner runner(c);
    runner.Build();
    BroadcastOutcome o;
    o.complete = runner.Run();
    nlohmann::json s = runner.Summary();
    const nlohmann::json& w = s["workloads"][0];
    o.receivers = w["receiver_completions"].get<uint64_t>();
    o.root = w["duration_us"]["max"].get<double>() * 1e-6;
    o.lastReceiver = w["receiver_completion_us"]["max"].get<double>() * 1e-6;
    o.rootFrames = runner.GetFabric().GetNic(0)->GetDevice()->GetTxFrames();
    o.copies = s["network"]["copies_from_source"].get<double>();
    return runs.emplace(mechanism, o).first->second;
}

constexpr uint64_t BROADCAST_PACKETS = 8192;

/// One serialisation of the message at 100 Gbps, in frames that carry the P2MP header.
double
SerialSeconds(uint32_t header)
{
    return BROADCAST_PACKETS * WireSeconds(1024 + ROCE_HEADER_BYTES + header, 100);
}

/// Host, leaf, spine, leaf, host: 4 cables, 3 pipelines, 3 store-and-forward frames.
double
PathSeconds(uint32_t header)
{
    return 4 * 1e-6 + 3 * 500e-9 + 3 * WireSeconds(1024 + ROCE_HEADER_BYTES + header, 100);
}

/// Unicast: the root's NIC serialises every copy itself.
bool
UnicastFormHolds(const BroadcastOutcome& o)
{
    return o.root >= 63 * SerialSeconds(0) && o.rootFrames == 63 * BROADCAST_PACKETS
           && std::abs(o.copies - 63) < 1e-9;
}

/// Multicast: the last receiver no sooner than one serialisation and within 15% of it plus
/// the path; one copy leaves the root.
bool
MulticastFormHolds(const BroadcastOutcome& o, uint32_t header)
{
    const double serial = SerialSeconds(header);
    const double path = PathSeconds(header);
    return o.lastReceiver >= serial && o.lastReceiver <= 1.15 * (serial + path)
           && o.rootFrames == BROADCAST_PACKETS && std::abs(o.copies - 1) < 1e-9;
}

class BroadcastTestCase : public TestCase
{
public:
    BroadcastTestCase(const std::string& mechanism, uint32_t p2mpHeader)
        : TestCase("8 MiB broadcast to 63 receivers: " + mechanism),
          m_mechanism(mechanism),
          m_header(p2mpHeader)
    {
    }

private:
    void DoRun() override
    {
        const BroadcastOutcome& o = RunBroadcast(m_mechanism);
        NS_TEST_ASSERT_MSG_EQ(o.complete, true, "completes");
        NS_TEST_ASSERT_MSG_EQ(o.receivers, 63, "63 receivers");
        const uint64_t n = BROADCAST_PACKETS;
        const double serial = SerialSeconds(m_header);
        const double path = PathSeconds(m_header);
        if (m_mechanism == "unicast")
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(o.root, 63 * serial, "at least 63 serialisations");
            NS_TEST_ASSERT_MSG_EQ(o.rootFrames, 63 * n, "63 copies leave the root");
            NS_TEST_ASSERT_MSG_EQ_TOL(o.copies, 63.0, 1e-9, "copies per message");
            NS_TEST_ASSERT_MSG_EQ(UnicastFormHolds(o), true, "the form holds");
            // BIER's broadcast, one copy from the root, is rejected.
            NS_TEST_ASSERT_MSG_EQ(UnicastFormHolds(RunBroadcast("bier")), false, "BIER rejected");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(o.lastReceiver, serial, "no faster than one serialisation");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(o.lastReceiver,
                                        1.15 * (serial + path),
                                        "within 15% of one serialisation plus the path");
            NS_TEST_ASSERT_MSG_EQ(o.rootFrames, n, "exactly one copy leaves the root");
            NS_TEST_ASSERT_MSG_EQ_TOL(o.copies, 1.0, 1e-9, "copies per message");
            NS_TEST_ASSERT_MSG_EQ(MulticastFormHolds(o, m_header), true, "the form holds");
            // The same broadcast by unicast copies is rejected.
            NS_TEST_ASSERT_MSG_EQ(MulticastFormHolds(RunBroadcast("unicast"), m_header),
                                  false,
                                  "unicast copies rejected");
        }
    }

    std::string m_mechanism;
    uint32_t m_header;
};

class BierSetIdentifiersTestCase : public TestCase
{
public:
    BierSetIdentifiersTestCase()
        : TestCase("1023 receivers with BSL 256: four copies, RFC 8296 header bytes")
    {
    }

private:
    void DoRun() override
    {
        ScenarioRunner::UsePicoseconds();
        ScenarioConfig c;
        c.name = "p2mp-bier-1024";
        c.file = c.name + ".json";
        c.topology.kind = TopologyKind::FAT_TREE;
        c.topology.k = 16; // 1024 hosts
        c.stopTimeMs = 50;
        c.p2mp.mechanism = "bier";
        c.p2mp.spec["bier"]["bsl_bits"] = 256;
        c.output.dir = "/tmp/mcast4ai-test-bier-1024";
        c.workloads.push_back(WithRanks(Broadcast(0, 4096), 1024)); // 4 packets
        ScenarioRunner runner(c);
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "completes");
        nlohmann::json s = runner.Summary();
        // Hosts 0..1023 span set identifiers 0..3 of 256 bits: one copy per SI per packet.
        NS_TEST_ASSERT_MSG_EQ_TOL(
            s["network"]["copies_from_source"].get<double>(), 4.0, 1e-9, "four copies per message");
        Ptr<RdmaNic> root = runner.GetFabric().GetNic(0);
        NS_TEST_ASSERT_MSG_EQ(root->GetDevice()->GetTxFrames(), 16, "4 packets x 4 SIs");
        // RFC 8296: 12 bytes + a 256-bit BitString = 44 bytes in front of IPv4, on every copy;
        // the RETH rides on the first packet's four copies.
        uint64_t perCopy = ROCE_HEADER_BYTES + 12 + 256 / 8;
        NS_TEST_ASSERT_MSG_EQ(root->GetCounters().headerBytes,
                              16 * perCopy + 4 * RETH_BYTES,
                              "header bytes at the root");
        NS_TEST_ASSERT_MSG_EQ(s["workloads"][0]["receiver_completions"].get<uint64_t>(),
                              1023,
                              "every receiver has it");
    }
};

/// Records the PSN and time of every ACK a device sends or receives.
struct AckLog
{
    std::vector<uint32_t> psn;
    std::vector<Time> at;
    uint64_t naks{0};
};

void
LogAck(AckLog* log, Ptr<const Packet> p)
{
    FrameInfo fi;
    fi.Parse(p);
    if (fi.roce && fi.opcode == 0x11)
    {
        log->naks += ((fi.syndrome >> 5) & 0x3) == 0x3;
        log->psn.push_back(fi.psn);
        log->at.push_back(Simulator::Now());
    }
}

class AckImplosionTestCase : public TestCase
{
public:
    AckImplosionTestCase()
        : TestCase("without aggregation the root's NIC takes 63 ACKs per PSN")
    {
    }

private:
    void DoRun() override
    {
        ScenarioConfig c = Fabric64("bier", "p2mp-ack-none");
        c.workloads.push_back(WithRanks(Broadcast(0, 64 * 1024), 64)); // 64 packets
        ScenarioRunner runner(c);
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "completes");
        nlohmann::json s = runner.Summary();
        NS_TEST_ASSERT_MSG_EQ(runner.GetFabric().GetNic(0)->GetCounters().acksReceived,
                              63 * 64,
                              "63 ACKs for each of the 64 PSNs");
        NS_TEST_ASSERT_MSG_EQ_TOL(
            s["network"]["acks_per_data_packet"].get<double>(), 63.0, 1e-9, "per data packet");
        // With source-ToR aggregation the root takes one ACK per PSN: the count rejects it.
        ScenarioConfig agg = Fabric64("bier", "p2mp-ack-tor");
        agg.p2mp.ackAggregation = "source-tor";
        agg.workloads.push_back(WithRanks(Broadcast(0, 64 * 1024), 64));
        ScenarioRunner aggregated(agg);
        aggregated.Build();
        NS_TEST_ASSERT_MSG_EQ(aggregated.Run(), true, "completes");
        NS_TEST_ASSERT_MSG_NE(aggregated.GetFabric().GetNic(0)->GetCounters().acksReceived,
                              63 * 64,
                              "aggregation rejected by the implosion count");
    }
};

class AckAggregationTestCase : public TestCase
{
public:
    explicit AckAggregationTestCase(const std::string& mechanism)
        : TestCase("source-ToR aggregation follows the slowest receiver: " + mechanism),
          m_mechanism(mechanism)
    {
    }

private:
    void DoRun() override
    {
        ScenarioConfig c = Fabric64(m_mechanism, "p2mp-ack-tor-" + m_mechanism);
        c.p2mp.ackAggregation = "source-tor";
        c.workloads.push_back(WithRanks(Broadcast(0, 64 * 1024), 64)); // 64 packets
        ScenarioRunner runner(c);
        runner.Build();
        // Hold receiver 63 back: its link runs at a quarter of the others' rate, so it is the
        // last to receive, and to acknowledge, every PSN.
        const uint32_t slow = 63;
        runner.GetFabric().GetNic(slow)->GetDevice()->SetAttribute(
            "DataRate", DataRateValue(DataRate("25Gbps")));
        runner.GetFabric().GetLeafPortToHost(slow)->SetAttribute("DataRate",
                                                                 DataRateValue(DataRate("25Gbps")));
        AckLog atRoot;
        AckLog fromSlow;
        runner.GetFabric().GetNic(0)->GetDevice()->TraceConnectWithoutContext(
            "Rx", MakeBoundCallback(&LogAck, &atRoot));
        runner.GetFabric().GetNic(slow)->GetDevice()->TraceConnectWithoutContext(
            "Tx", MakeBoundCallback(&LogAck, &fromSlow));
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "completes");

        // One ACK per advance of the minimum: 64 ACKs, PSN 0, 1, ..., 63, each carrying the
        // slow receiver's PSN and reaching the root only after the slow receiver sent it.
        NS_TEST_ASSERT_MSG_EQ(atRoot.psn.size(), 64, "one ACK per PSN at the root");
        NS_TEST_ASSERT_MSG_EQ(fromSlow.psn.size(), 64, "the slow receiver acks every PSN");
        for (uint32_t i = 0; i < atRoot.psn.size() && i < fromSlow.psn.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(atRoot.psn[i], i, "aggregated PSN is the minimum");
            NS_TEST_ASSERT_MSG_EQ(fromSlow.psn[i], i, "the straggler's PSN");
            NS_TEST_ASSERT_MSG_GT(atRoot.at[i], fromSlow.at[i], "it follows the straggler");
        }
        nlohmann::json s = runner.Summary();
        NS_TEST_ASSERT_MSG_EQ(s["network"]["aggregated_acks"].get<uint64_t>(), 64, "64 emitted");
        // One message: the source ToR holds an entry per receiver, all freed at the end.
        const nlohmann::json& st = s["network"]["switch_state"];
        NS_TEST_ASSERT_MSG_EQ(st["aggregation_live_peak_max"].get<uint64_t>(),
                              63,
                              "one aggregation entry per receiver");
        NS_TEST_ASSERT_MSG_EQ(st["aggregation_installs"].get<uint64_t>(), 63, "63 created");
        NS_TEST_ASSERT_MSG_EQ(st["aggregation_frees"].get<uint64_t>(), 63, "and freed");
        // Without aggregation every receiver's ACK reaches the root: 63 x 64, and the first
        // of them before the straggler's. The one-per-PSN check rejects it.
        ScenarioConfig none = Fabric64(m_mechanism, "p2mp-ack-none-" + m_mechanism);
        none.p2mp.ackAggregation = "none";
        none.workloads.push_back(WithRanks(Broadcast(0, 64 * 1024), 64));
        ScenarioRunner plain(none);
        plain.Build();
        AckLog plainAtRoot;
        plain.GetFabric().GetNic(0)->GetDevice()->TraceConnectWithoutContext(
            "Rx", MakeBoundCallback(&LogAck, &plainAtRoot));
        NS_TEST_ASSERT_MSG_EQ(plain.Run(), true, "completes");
        NS_TEST_ASSERT_MSG_NE(plainAtRoot.psn.size(), 64, "no aggregation: rejected");
    }

    std::string m_mechanism;
};

/// Drops the data packet with PSN `psn` on its way out of `port`, once.
bool
DropOnce(uint32_t port, uint32_t psn, bool* done, uint32_t outPort, Ptr<const Packet> p)
{
    if (*done || outPort != port)
    {
        return false;
    }
    FrameInfo fi;
    fi.Parse(p);
    if (fi.roce && fi.opcode != 0x11 && fi.opcode != 0x81 && fi.psn == psn)
    {
        *done = true;
        return true;
    }
    return false;
}

class LossRecoveryTestCase : public TestCase
{
public:
    LossRecoveryTestCase(const std::string& mechanism, const std::string& aggregation)
        : TestCase("a packet lost toward one receiver is recovered: " + mechanism + ", "
                   + aggregation),
          m_mechanism(mechanism),
          m_aggregation(aggregation)
    {
    }

private:
    void DoRun() override
    {
        ScenarioConfig c = Fabric64(m_mechanism, "p2mp-loss-" + m_mechanism + m_aggregation);
        c.p2mp.ackAggregation = m_aggregation;
        c.workloads.push_back(WithRanks(Broadcast(0, 64 * 1024), 64));
        ScenarioRunner runner(c);
        runner.Build();
        // Receiver 20 sits behind leaf 1: drop PSN 10 on that leaf's port to it.
        const uint32_t victim = 20;
        const TopologyGraph& g = runner.GetFabric().GetGraph();
        Ptr<FabricSwitch> leaf = runner.GetFabric().GetSwitch(g.LeafOf(victim) - g.HostCount());
        bool dropped = false;
        leaf->SetDropFilter(
            MakeBoundCallback(&DropOnce, g.Ports(victim)[0].peerPort, 10u, &dropped));
        AckLog atRoot;
        runner.GetFabric().GetNic(0)->GetDevice()->TraceConnectWithoutContext(
            "Rx", MakeBoundCallback(&LogAck, &atRoot));
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "every receiver completes");
        NS_TEST_ASSERT_MSG_EQ(dropped, true, "the packet was dropped");
        NS_TEST_ASSERT_MSG_EQ(leaf->GetInjectedDrops(), 1, "once");
        nlohmann::json s = runner.Summary();
        NS_TEST_ASSERT_MSG_EQ(s["workloads"][0]["receiver_completions"].get<uint64_t>(),
                              63,
                              "all 63 receivers have the message");
        std::clog << m_mechanism << "/" << m_aggregation << ": "
                  << s["network"]["retransmissions"].get<uint64_t>() << " resent, " << atRoot.naks
                  << " NAKs at the root" << std::endl;
        // One go-back to the group: the message's 64 frames (5.7 us at 100 Gb/s) are all out
        // before the NAK is back (a round trip, 11 us), so the root resends from PSN 10, or
        // from the group's slowest acknowledged PSN a few below it (the NAK carries the
        // minimum), to the end: 54 to 64 packets; a second go-back would pass 64.
        const uint64_t resent = s["network"]["retransmissions"].get<uint64_t>();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(resent, 64 - 10, "PSN 10 to the end, at least");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(resent, 64, "one go-back, at most the message");
        // The receiver's NAK (PSN sequence error, expecting 10) reached the root, directly or
        // re-issued by the aggregator with the minimum expected PSN, once.
        NS_TEST_ASSERT_MSG_EQ(atRoot.naks, 1, "one NAK reached the root");
    }

    std::string m_mechanism;
    std::string m_aggregation;
};

/// Drops, on their way out of `port`, packets [from, to) of the first message that reaches it
/// (counted from the message's first packet; retransmissions pass).
struct MessageDrop
{
    uint32_t port{0};
    uint32_t from{0};
    uint32_t to{1};
    uint32_t dropped{0};
    bool done{false};
    FrameInfo first; // the message's first packet, once seen
    bool started{false};
};

bool
DropInMessage(MessageDrop* d, uint32_t outPort, Ptr<const Packet> p)
{
    if (d->done || outPort != d->port)
    {
        return false;
    }
    FrameInfo fi;
    fi.Parse(p);
    if (!fi.roce || fi.opcode > BthHeader::RC_WRITE_ONLY)
    {
        return false; // ACKs, NAKs, CNPs
    }
    if (!d->started)
    {
        if (!BthHeader::IsFirst(fi.opcode))
        {
            return false;
        }
        d->started = true;
        d->first = fi;
    }
    const uint64_t index = (fi.psn - d->first.psn) & 0xFFFFFF;
    d->done = BthHeader::IsLast(fi.opcode);
    if (index >= d->from && index < d->to)
    {
        ++d->dropped;
        return true;
    }
    return false;
}

/**
 * Messages to changing receiver subsets share one PSN space, so a go-back-N receiver may skip
 * the PSNs of messages it is not part of, but only at a message boundary and never past a
 * message of its own it has seen part of. A receiver that lost its message's tail, or its
 * head, must NAK it when the next message it is part of begins, not take that first packet as
 * a skip (which would acknowledge past the loss, and the message would never complete there).
 * A message lost whole cannot be told from one sent to others: the run reports it.
 */
class SubsetLossTestCase : public TestCase
{
public:
    /// Drop packets [from, to) of one of the victim's 8-packet messages.
    SubsetLossTestCase(uint32_t from, uint32_t to, const std::string& what)
        : TestCase("a subset receiver loses " + what
                   + (to - from < 8 ? ": NAKed, not skipped at the next message"
                                    : ": reported, not taken as a skip silently")),
          m_from(from),
          m_to(to)
    {
    }

private:
    void DoRun() override
    {
        ScenarioConfig c = Fabric64("bier-xpu-list", "p2mp-subset-loss");
        // 64 messages of 8 KiB (8 packets) to random 32-of-63 sets, 8 in flight: the
        // victim's next message arrives right behind its damaged one, long before the RTO.
        WorkloadConfig w = WithRanks(Broadcast(0, 8 * 1024, 64, 32), 64);
        w.window = 8;
        c.workloads.push_back(w);
        ScenarioRunner runner(c);
        runner.Build();
        const uint32_t victim = 20;
        const TopologyGraph& g = runner.GetFabric().GetGraph();
        Ptr<FabricSwitch> leaf = runner.GetFabric().GetSwitch(g.LeafOf(victim) - g.HostCount());
        MessageDrop drop;
        drop.port = g.Ports(victim)[0].peerPort;
        drop.from = m_from;
        drop.to = m_to;
        leaf->SetDropFilter(MakeBoundCallback(&DropInMessage, &drop));
        const bool complete = runner.Run();
        NS_TEST_ASSERT_MSG_EQ(drop.dropped, m_to - m_from, "the packets were dropped");
        nlohmann::json s = runner.Summary();
        const uint64_t delivered = s["workloads"][0]["receiver_completions"].get<uint64_t>();
        const std::vector<std::string> violations = RunInvariants::Check(runner.GetFabric(), c);
        if (m_to - m_from < 8)
        {
            NS_TEST_ASSERT_MSG_EQ(complete, true, "every receiver completes every message");
            NS_TEST_ASSERT_MSG_EQ(delivered, 64 * 32, "64 messages, 32 receivers each");
            NS_TEST_ASSERT_MSG_GT(s["network"]["naks"].get<uint64_t>(), 0, "the loss NAKed");
            NS_TEST_ASSERT_MSG_EQ(
                violations.size(), 0, (violations.empty() ? "none" : violations[0]));
        }
        else
        {
            // Nothing of the message reached the victim, so its next first packet looks like
            // a skip over messages sent to others, and it acknowledges past the message. A
            // go-back-N receiver cannot tell the two apart without knowing, per receiver,
            // what it was sent; the run must say so instead of reporting success.
            NS_TEST_ASSERT_MSG_EQ(delivered, 64 * 32 - 1, "one delivery missing");
            NS_TEST_ASSERT_MSG_EQ(violations.size(), 1, "reported as an invariant violation");
            const std::string v = violations.empty() ? "" : violations[0];
            NS_TEST_ASSERT_MSG_NE(
                v.find("1 P2MP receiver deliveries missing"), std::string::npos, v);
            NS_TEST_ASSERT_MSG_NE(v.find("1 of 32 receivers"), std::string::npos, v);
        }
    }

    uint32_t m_from;
    uint32_t m_to;
};

class RandomSetsTestCase : public TestCase
{
public:
    RandomSetsTestCase()
        : TestCase("10000 messages to random 8-of-256 sets: XPU lists, BIER, group churn")
    {
    }

private:
    struct Result
    {
        double headerPerPacket;
        uint64_t completed;
        nlohmann::json network;
    };

    Result Run(const std::string& mechanism)
    {
        ScenarioConfig c = LeafSpine(8, 4, 32, "p2mp-random-" + mechanism); // 256 hosts
        c.stopTimeMs = 1000;
        c.p2mp.mechanism = mechanism;
        c.p2mp.ackAggregation = mechanism == "new-protocol" ? "source-tor" : "none";
        c.p2mp.spec["new_protocol"]["table_entries"] = 512; // small enough to see eviction
        c.workloads.push_back(WithRanks(Broadcast(0, 1024, 10000, 8), 256));
        ScenarioRunner runner(c);
        runner.Build();
        runner.Run();
        nlohmann::json s = runner.Summary();
        Ptr<RdmaNic> root = runner.GetFabric().GetNic(0);
        return {double(root->GetCounters().headerBytes) / root->GetCounters().dataPackets,
                s["workloads"][0]["completed"].get<uint64_t>(),
                s["network"]};
    }

    void DoRun() override
    {
        Result bier = Run("bier");
        Result xpu = Run("bier-xpu-list");
        Result np = Run("new-protocol");
        NS_TEST_ASSERT_MSG_EQ(bier.completed, 10000, "BIER: all complete");
        NS_TEST_ASSERT_MSG_EQ(xpu.completed, 10000, "XPU list: all complete");
        NS_TEST_ASSERT_MSG_EQ(np.completed, 10000, "new protocol: all complete");
        // Per packet: BIER 12 + 256/8 = 44 bytes; 8 IDs: 12 + 2 + 16 + 2 = 32 bytes.
        NS_TEST_ASSERT_MSG_EQ_TOL(bier.headerPerPacket - xpu.headerPerPacket,
                                  12.0,
                                  1e-9,
                                  "the ID list saves 12 bytes a packet");
        NS_TEST_ASSERT_MSG_GT(np.network["group_installs"].get<uint64_t>(),
                              9000,
                              "almost every random set needs its own group");
        NS_TEST_ASSERT_MSG_GT(
            np.network["group_evictions"].get<uint64_t>(), 0, "512-entry tables evict");
        NS_TEST_ASSERT_MSG_GT(
            np.network["switch_state"]["group_table_live_peak_max"].get<uint64_t>(),
            0,
            "occupancy is reported");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(
            np.network["switch_state"]["group_table_live_peak_max"].get<uint64_t>(),
            512,
            "no table holds more than its 512 entries at once");
        NS_TEST_ASSERT_MSG_EQ_TOL(np.network["group_install_us_mean"].get<double>(),
                                  10.0,
                                  1e-6,
                                  "installation takes install_us");
    }
};

/**
 * Switch state lives as long as it is needed. Aggregation entries go when their receiver has
 * acknowledged everything asked of it; new-protocol groups idle for idle_teardown_us are torn
 * down and the next message installs them again.
 */
class StateLifetimesTestCase : public TestCase
{
public:
    StateLifetimesTestCase()
        : TestCase("switch state lifetimes: aggregation entries freed, idle groups torn down")
    {
    }

private:
    static nlohmann::json Run(ScenarioConfig c)
    {
        ScenarioRunner runner(c);
        runner.Build();
        runner.Run();
        return runner.Summary();
    }

    void DoRun() override
    {
        // 400 messages to random 8-of-63 sets, at most W = 4 in flight, source-ToR aggregation.
        const uint32_t messages = 400;
        const uint32_t window = 4;
        ScenarioConfig c = Fabric64("new-protocol", "p2mp-state-aggregation");
        WorkloadConfig w = WithRanks(Broadcast(0, 4096, messages, 8), 64);
        w.window = window;
        c.workloads.push_back(w);
        nlohmann::json s = Run(c);
        NS_TEST_ASSERT_MSG_EQ(s["workloads"][0]["completed"].get<uint64_t>(), messages, "done");
        const nlohmann::json& st = s["network"]["switch_state"];
        uint64_t installs = st["aggregation_installs"];
        NS_TEST_ASSERT_MSG_EQ(st["aggregation_frees"].get<uint64_t>(),
                              installs,
                              "every completed message frees its entries");
        // Only the source's ToR aggregates, one entry per receiver owing ACKs: at most W
        // messages of 8 receivers, at least one message's 8.
        uint64_t live = st["aggregation_live_peak_max"];
        NS_TEST_ASSERT_MSG_LT_OR_EQ(live, uint64_t{window} * 8, "live entries <= W x 8");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(live, 8u, "one message's receivers at least");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(installs, uint64_t{messages} * 8, "<= 8 per message");
        NS_TEST_ASSERT_MSG_EQ(st["aggregation_peak_sum"].get<uint64_t>(),
                              live,
                              "one aggregating switch: the sum is its peak");

        // The same receivers twice: workload A at 0, B from 300 us, 200 us after A is done.
        auto twice = [](double teardownUs)
        {
            ScenarioConfig c = Fabric64("new-protocol", "p2mp-state-teardown");
            if (teardownUs >= 0)
            {
                c.p2mp.spec["new_protocol"]["idle_teardown_us"] = teardownUs;
            }
            WorkloadConfig a = WithRanks(Broadcast(0, 4096, 10), 9);
            a.label = "a";
            WorkloadConfig b = a;
            b.label = "b";
            b.startUs = 300;
            c.workloads = {a, b};
            return Run(c);
        };
        nlohmann::json kept = twice(-1);
        nlohmann::json torn = twice(50);
        NS_TEST_ASSERT_MSG_LT(kept["workloads"][0]["duration_us"]["max"].get<double>() + 50,
                              300,
                              "A is done and idle for 50 us before B starts");
        NS_TEST_ASSERT_MSG_EQ(kept["network"]["group_installs"].get<uint64_t>(), 1, "kept: once");
        NS_TEST_ASSERT_MSG_EQ(kept["network"]["group_teardowns"].get<uint64_t>(), 0, "never");
        NS_TEST_ASSERT_MSG_EQ(torn["network"]["group_installs"].get<uint64_t>(), 2, "again for B");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(torn["network"]["group_teardowns"].get<uint64_t>(),
                                    1,
                                    "A's group torn down while idle");
        // Hosts 1-8 are on host 0's leaf: the tree is that one switch, one message each way.
        const nlohmann::json& ts = torn["network"]["switch_state"];
        NS_TEST_ASSERT_MSG_EQ(ts["group_table_installs"].get<uint64_t>(), 2, "2 installs");
        NS_TEST_ASSERT_MSG_EQ(ts["group_table_teardowns"].get<uint64_t>(),
                              torn["network"]["group_teardowns"].get<uint64_t>(),
                              "1 switch per teardown");
        // B's first message waits for the reinstall: install_us (10) more than when kept.
        double extra = torn["workloads"][1]["duration_us"]["max"].get<double>()
                       - kept["workloads"][1]["duration_us"]["max"].get<double>();
        NS_TEST_ASSERT_MSG_EQ_TOL(extra, 10.0, 0.5, "the reinstall costs install_us");
    }
};

class EcnOnP2mpTestCase : public TestCase
{
public:
    explicit EcnOnP2mpTestCase(const std::string& mechanism)
        : TestCase("CE marks rewrite the IPv4 header behind the P2MP header: " + mechanism),
          m_mechanism(mechanism)
    {
    }

private:
    void DoRun() override
    {
        ScenarioConfig c = Fabric64(m_mechanism, "p2mp-ecn-" + m_mechanism);
        c.sw.ecn.kminKb = 0; // every queued frame is marked
        c.sw.ecn.kmaxKb = 0;
        c.nic.dcqcn.enabled = false; // marks must not change the rates here
        c.workloads.push_back(WithRanks(Broadcast(0, 64 * 1024), 64));
        ScenarioRunner runner(c);
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "marked frames still arrive intact");
        nlohmann::json s = runner.Summary();
        NS_TEST_ASSERT_MSG_GT(s["network"]["ecn_marks"].get<uint64_t>(), 0, "frames were marked");
        NS_TEST_ASSERT_MSG_EQ(s["network"]["retransmissions"].get<uint64_t>(), 0, "none lost");
        NS_TEST_ASSERT_MSG_EQ(s["workloads"][0]["receiver_completions"].get<uint64_t>(),
                              63,
                              "every receiver has the message");
    }

    std::string m_mechanism;
};

class ConcurrentFanOutTestCase : public TestCase
{
public:
    ConcurrentFanOutTestCase()
        : TestCase("four concurrent broadcasts on a k=8 fat-tree stay lossless under PFC")
    {
    }

private:
    void DoRun() override
    {
        // A replicated frame is stored once at ingress: charging every copy against the
        // ingress port would trip PFC on phantom bytes and overflow its headroom.
        ScenarioRunner::UsePicoseconds();
        ScenarioConfig c;
        c.name = "p2mp-fan-out";
        c.file = c.name + ".json";
        c.topology.kind = TopologyKind::FAT_TREE;
        c.topology.k = 8; // 128 hosts
        c.stopTimeMs = 100;
        c.p2mp.mechanism = "new-protocol";
        c.p2mp.ackAggregation = "source-tor";
        c.output.dir = "/tmp/mcast4ai-test-fan-out";
        for (uint32_t root : {0u, 32u, 64u, 96u})
        {
            WorkloadConfig w = WithRanks(Broadcast(root, 256 * 1024), 128);
            w.label = "root-" + std::to_string(root);
            c.workloads.push_back(w);
        }
        ScenarioRunner runner(c);
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "all four complete");
        nlohmann::json s = runner.Summary();
        NS_TEST_ASSERT_MSG_EQ(s["network"]["drops"].get<uint64_t>(), 0, "no drops with PFC");
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(s["workloads"][i]["receiver_completions"].get<uint64_t>(),
                                  127,
                                  "every receiver of every root");
        }
    }
};

class HopByHopChangingTreesTestCase : public TestCase
{
public:
    HopByHopChangingTreesTestCase()
        : TestCase("hop-by-hop aggregation with a tree per message and four messages in flight")
    {
    }

private:
    void DoRun() override
    {
        // Each random receiver set gets its own tree, so a leaf may be fed through one spine for
        // one message and another spine for the next while both are in flight: its aggregated
        // ACKs must reach every parent that fed it.
        ScenarioConfig c = LeafSpine(8, 4, 32, "p2mp-hop-trees"); // 256 hosts
        c.stopTimeMs = 100;
        c.p2mp.mechanism = "new-protocol";
        c.p2mp.ackAggregation = "hop-by-hop";
        WorkloadConfig w = WithRanks(Broadcast(5, 8192, 200, 8), 256);
        w.window = 4;
        c.workloads.push_back(w);
        ScenarioRunner runner(c);
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "every message completes");
        nlohmann::json s = runner.Summary();
        NS_TEST_ASSERT_MSG_EQ(s["workloads"][0]["receiver_completions"].get<uint64_t>(),
                              200 * 8,
                              "every receiver of every message");
        NS_TEST_ASSERT_MSG_EQ(
            s["network"]["retransmissions"].get<uint64_t>(), 0, "no timeout: no ACK went astray");
    }
};

class NoOvertakingTestCase : public TestCase
{
public:
    NoOvertakingTestCase()
        : TestCase("new protocol, a group per message, four in flight: every receiver gets every "
                   "message it was sent")
    {
    }

private:
    void DoRun() override
    {
        // A receiver skips the PSNs of messages it is not part of; if a later message could
        // overtake an earlier one on another path, the earlier one would be acknowledged
        // without having arrived. Trees of one sender share their paths, so none can.
        ScenarioRunner::UsePicoseconds();
        ScenarioConfig c;
        c.name = "p2mp-no-overtaking";
        c.file = c.name + ".json";
        c.topology.kind = TopologyKind::FAT_TREE;
        c.topology.k = 8;
        c.stopTimeMs = 100;
        c.p2mp.mechanism = "new-protocol";
        c.p2mp.ackAggregation = "none";
        c.output.dir = "/tmp/mcast4ai-test-no-overtaking";
        for (uint32_t root : {0u, 40u, 80u, 120u})
        {
            WorkloadConfig w = WithRanks(Broadcast(root, 16384, 100, 12), 128);
            w.label = "root-" + std::to_string(root);
            w.window = 4;
            c.workloads.push_back(w);
        }
        ScenarioRunner runner(c);
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "completes");
        nlohmann::json s = runner.Summary();
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(s["workloads"][i]["receiver_completions"].get<uint64_t>(),
                                  100 * 12,
                                  "each of the 12 receivers of each of the 100 messages");
        }
    }
};

class GroupRespondersTestCase : public TestCase
{
public:
    GroupRespondersTestCase()
        : TestCase("multicast AllGather over 24 of 32 hosts: one group responder per receiver "
                   "and sender, no queue pair for it, none at the other hosts")
    {
    }

private:
    void DoRun() override
    {
        // 24 ranks (hosts 0..23) of 5000-byte shards: 5 packets of 1024 bytes per message.
        const uint32_t ranks = 24;
        const uint32_t hosts = 32;
        const uint64_t packets = 5;
        ScenarioConfig c = Scenario::Parse(
            R"({"name": "p2mp-group-responders", "stop_time_ms": 100,
                "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2,
                             "hosts_per_leaf": 16},
                "nic": {"mtu_bytes": 1024, "ack_every": 1, "dcqcn": {"enabled": true}},
                "p2mp": {"mechanism": "new-protocol", "ack_aggregation": "source-tor"},
                "workloads": [{"type": "allgather", "algorithm": "multicast",
                               "ranks": 24, "bytes": 120000}],
                "output": {"dir": "/tmp/mcast4ai-test-group-responders"}})",
            "p2mp-group-responders.json",
            {});
        ScenarioRunner::UsePicoseconds();
        ScenarioRunner runner(c);
        runner.Build();
        NS_TEST_ASSERT_MSG_EQ(runner.Run(), true, "completes");
        // The workload's channel of rank r answers to group QPN 0x800000 + r.
        const uint32_t groupBase = 0x800000;
        for (uint32_t h = 0; h < hosts; ++h)
        {
            Ptr<RdmaNic> nic = runner.GetFabric().GetNic(h);
            if (h >= ranks)
            {
                NS_TEST_ASSERT_MSG_EQ(nic->GetNGroupResponders(), 0, "no responder off the ranks");
                NS_TEST_ASSERT_MSG_EQ(nic->GetNQps(), 0, "no queue pair off the ranks");
                continue;
            }
            NS_TEST_ASSERT_MSG_EQ(nic->GetNGroupResponders(),
                                  ranks - 1,
                                  "host " << h << ": one responder per other sender");
            // The rank's own P2MP requester is its only queue pair. Responders take QPNs as
            // queue pairs did: the channels of ranks 0 .. h-1 were set up before h's own.
            NS_TEST_ASSERT_MSG_EQ(nic->GetNQps(), 1, "host " << h << ": only its requester");
            NS_TEST_ASSERT_MSG_EQ(
                nic->GetQpByIndex(0)->GetQpn(), 0x100 + h, "host " << h << ": the requester's QPN");
            NS_TEST_ASSERT_MSG_EQ(nic->GetGroupReceivedPackets(groupBase + h),
                                  0,
                                  "host " << h << ": no responder for its own group");
            for (uint32_t s = 0; s < ranks; ++s)
            {
                if (s != h)
                {
                    NS_TEST_ASSERT_MSG_EQ(nic->GetGroupReceivedPackets(groupBase + s),
                                          packets,
                                          "host " << h << " has the shard of rank " << s);
                }
            }
        }
    }
};

/// Two fixed slots, the first free one handed out: a freed receiver list's address is taken by
/// the next list allocated, as malloc's free lists do, so the reuse below is deterministic.
struct SlotArena
{
    alignas(std::max_align_t) unsigned char slot[2][256];
    bool used[2]{false, false};
};

template<typename T>
struct SlotAllocator
{
    using value_type = T;

    explicit SlotAllocator(SlotArena* a)
        : arena(a)
    {
    }

    template<typename U>
    SlotAllocator(const SlotAllocator<U>& o)
        : arena(o.arena)
    {
    }

    T* allocate(std::size_t n)
    {
        NS_ABORT_MSG_IF(n * sizeof(T) > sizeof(arena->slot[0]), "slot too small");
        for (int i = 0; i < 2; ++i)
        {
            if (!arena->used[i])
            {
                arena->used[i] = true;
                return reinterpret_cast<T*>(arena->slot[i]);
            }
        }
        NS_ABORT_MSG("both slots in use");
        return nullptr;
    }

    void deallocate(T* p, std::size_t)
    {
        for (int i = 0; i < 2; ++i)
        {
            if (reinterpret_cast<unsigned char*>(p) == arena->slot[i])
            {
                arena->used[i] = false;
            }
        }
    }

    template<typename U>
    bool operator==(const SlotAllocator<U>& o) const
    {
        return arena == o.arena;
    }

    template<typename U>
    bool operator!=(const SlotAllocator<U>& o) const
    {
        return arena != o.arena;
    }

    SlotArena* arena;
};

class ReusedReceiverListTestCase : public TestCase
{
public:
    ReusedReceiverListTestCase()
        : TestCase("BIER headers follow the receiver set when a finished message's list is "
                   "freed and the next message's list takes its address")
    {
    }

private:
    static P2mpEncapsulator::Target Target(SlotArena* arena, std::vector<uint32_t> hosts)
    {
        P2mpEncapsulator::Target t;
        t.receivers = std::allocate_shared<const std::vector<uint32_t>>(SlotAllocator<char>(arena),
                                                                        std::move(hosts));
        return t;
    }

    void DoRun() override
    {
        SlotArena arena; // outlives the sender, which may hold a list
        Ptr<P2mpSender> sender = CreateObject<P2mpSender>();
        sender->Setup(P2mpSender::BIER, 2, 64, 0); // BSL 64: host h is bit h % 64 of SI h / 64

        // KV fan-out from host 2: a message to decode hosts 14 and 15 (SI 0), then, once it is
        // acknowledged and its list freed, the next one to 12, 13 and 70 (SI 0 and SI 1).
        P2mpEncapsulator::Target first = Target(&arena, {14, 15});
        NS_TEST_ASSERT_MSG_EQ(sender->CopiesFor(first), 1, "14 and 15: one SI, one copy");
        first = P2mpEncapsulator::Target();
        P2mpEncapsulator::Target next = Target(&arena, {12, 13, 70});
        NS_TEST_ASSERT_MSG_EQ(sender->CopiesFor(next), 2, "12, 13 and 70 span SIs 0 and 1");

        std::vector<Ptr<Packet>> out;
        sender->Encapsulate(Create<Packet>(64), next, true, Mac48Address("00:00:00:00:00:02"), out);
        NS_TEST_ASSERT_MSG_EQ(out.size(), 2, "one frame per SI");
        if (out.size() != 2)
        {
            return;
        }
        std::vector<uint32_t> bits[2]; // BFR bits set, per SI
        for (const Ptr<Packet>& f : out)
        {
            EthernetHeader eth(false);
            f->RemoveHeader(eth);
            BierHeader hdr;
            f->RemoveHeader(hdr);
            uint16_t si = hdr.GetSetIdentifier();
            NS_TEST_ASSERT_MSG_LT(si, 2, "SI 0 or 1");
            for (uint32_t b = 0; b < 64 && si < 2; ++b)
            {
                if (hdr.GetBitString().Test(b))
                {
                    bits[si].push_back(b);
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ((bits[0] == std::vector<uint32_t>{12, 13}),
                              true,
                              "SI 0 names hosts 12 and 13, not the previous 14 and 15");
        NS_TEST_ASSERT_MSG_EQ((bits[1] == std::vector<uint32_t>{6}), true, "SI 1 names host 70");
    }
};

/**
 * PFC headroom is sized for the largest frame a port can receive, the mechanism's largest P2MP
 * header included (a frame in flight after XOFF that carries a header the headroom did not
 * count would overflow it). Every port of a leaf holds two such frames per lossless priority
 * (data and control), so against unicast the carved bytes grow by ports x 2 x 2 x header.
 */
class HeadroomCountsP2mpHeaderTestCase : public TestCase
{
public:
    HeadroomCountsP2mpHeaderTestCase()
        : TestCase("PFC headroom includes the largest P2MP header of each mechanism")
    {
    }

private:
    static uint64_t Carved(const std::string& mechanism, bool addressList = false)
    {
        ScenarioConfig c = LeafSpine(2, 2, 8, "headroom-" + mechanism);
        c.p2mp.mechanism = mechanism;
        c.p2mp.ackAggregation = mechanism == "new-protocol" ? "source-tor" : "none";
        if (addressList)
        {
            c.p2mp.addressMapping = "per-receiver-list";
        }
        TopologyBuilder fabric(c);
        fabric.Build();
        uint64_t carved = fabric.GetSwitch(0)->GetMmu()->GetCarvedBytes(); // leaf 0
        Simulator::Destroy();
        return carved;
    }

    void DoRun() override
    {
        const uint64_t base = Carved("unicast");
        const uint64_t perHeaderByte = (8 + 2) * 2 * 2; // leaf ports x priorities x frames
        const uint32_t hosts = 16;
        NS_TEST_EXPECT_MSG_EQ(
            Carved("bier") - base, perHeaderByte * (12 + 256 / 8), "BIER, BSL 256");
        // The ID list of every host: 16 bytes and a 16-bit ID per host (a bound; 4-byte padded).
        NS_TEST_EXPECT_MSG_EQ(Carved("bier-xpu-list") - base,
                              perHeaderByte * (16 + 2 * hosts),
                              "XPU-ID list of every host");
        NS_TEST_EXPECT_MSG_EQ(Carved("new-protocol") - base, perHeaderByte * 12, "the shim");
        NS_TEST_EXPECT_MSG_EQ(Carved("new-protocol", true) - base,
                              perHeaderByte * (16 + 16 * hosts),
                              "the shim with an entry per host");
    }
};

class P2mpTestSuite : public TestSuite
{
public:
    P2mpTestSuite()
        : TestSuite("mcast4ai-p2mp", TestSuite::Type::UNIT)
    {
        AddTestCase(new BroadcastTestCase("unicast", 0));
        AddTestCase(new BroadcastTestCase("bier", 12 + 256 / 8));
        AddTestCase(new BroadcastTestCase("new-protocol", 12));
        AddTestCase(new BierSetIdentifiersTestCase());
        AddTestCase(new AckImplosionTestCase());
        AddTestCase(new AckAggregationTestCase("new-protocol"));
        AddTestCase(new AckAggregationTestCase("bier"));
        AddTestCase(new LossRecoveryTestCase("new-protocol", "source-tor"));
        AddTestCase(new LossRecoveryTestCase("bier", "none"));
        AddTestCase(new LossRecoveryTestCase("bier", "hop-by-hop"));
        AddTestCase(new SubsetLossTestCase(6, 8, "its message's last two packets"));
        AddTestCase(new SubsetLossTestCase(0, 1, "its message's first packet"));
        AddTestCase(new SubsetLossTestCase(0, 8, "a message whole"));
        AddTestCase(new RandomSetsTestCase());
        AddTestCase(new StateLifetimesTestCase());
        AddTestCase(new ConcurrentFanOutTestCase());
        AddTestCase(new HopByHopChangingTreesTestCase());
        AddTestCase(new NoOvertakingTestCase());
        AddTestCase(new GroupRespondersTestCase());
        AddTestCase(new ReusedReceiverListTestCase());
        AddTestCase(new EcnOnP2mpTestCase("bier"));
        AddTestCase(new EcnOnP2mpTestCase("bier-xpu-list"));
        AddTestCase(new EcnOnP2mpTestCase("new-protocol"));
        AddTestCase(new HeadroomCountsP2mpHeaderTestCase());
    }
};

P2mpTestSuite g_p2mpTestSuite;

} // namespace
