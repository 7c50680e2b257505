/*
 * What the processes of a distributed run send rank 0 after the simulation, and how it folds
 * them in: counters sum or keep the peak, a per-operation row names its links in the order the
 * whole fabric first used them, operations take their start and end from the process that ran
 * them, and a frame's record carries every field, the side-band ones included, and a deferred
 * ACK's bytes without writing them. And what
 * the processes of a collective tell one another of an iteration while it runs.
 */
#include "core/model/counter-set.h"
#include "core/model/packed-bytes.h"
#include "fabric/model/op-ledger.h"
#include "fabric/model/remote-frame-record.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "packet-bytes.h"
#include "wire/model/ack-frame-builder.h"
#include "wire/model/fabric-address.h"
#include "workload/model/collective-spread.h"
#include "workload/model/metrics.h"

#include <gtest/gtest.h>

using namespace ns3;

TEST(PackedBytes, ReadsBackWhatWasPutInOrder)
{
    PackedBytes out;
    out.Put<uint64_t>(7);
    out.PutString("queue_us");
    out.Put<double>(1.5);
    PackedBytes in(out.GetBytes());
    EXPECT_EQ(in.Take<uint64_t>(), 7u);
    EXPECT_EQ(in.TakeString(), "queue_us");
    EXPECT_EQ(in.Take<double>(), 1.5);
    EXPECT_TRUE(in.AtEnd());
}

TEST(CounterSet, MergeSumsCountsKeepsPeaksAndAddsHistograms)
{
    CounterSet a;
    CounterSet b;
    a.Add("link_bytes", 100);
    a.Max("qps_max", 4);
    b.Add("link_bytes", 23);
    b.Add("drops", 2);
    b.Max("qps_max", 9);
    const uint64_t ha[2] = {1, 2};
    const uint64_t hb[3] = {10, 0, 5};
    a.AddHistogram("reorder", ha, 2);
    b.AddHistogram("reorder", hb, 3);
    PackedBytes packed;
    b.Pack(packed);
    PackedBytes in(packed.GetBytes());
    a.MergeFrom(in);
    EXPECT_TRUE(in.AtEnd());
    EXPECT_EQ(a.Get("link_bytes"), 123u);
    EXPECT_EQ(a.Get("drops"), 2u);
    EXPECT_EQ(a.Get("qps_max"), 9u) << "a peak is not a sum";
    EXPECT_EQ(a.GetHistogram("reorder"), (std::vector<uint64_t>{11, 2, 5}));
}

namespace
{
/// A switch hop of operation tag 1 on link at time t, having waited wait units.
void
Hop(Ptr<OpLedger> ledger, uint32_t link, double t, uint32_t wait)
{
    Simulator::Schedule(NanoSeconds(t),
                        [ledger, link, wait]()
                        {
                            FrameInfo fi;
                            fi.op = 1;
                            fi.size = 1000;
                            ledger->Waited(wait, 0, false);
                            ledger->Sent(fi, link);
                        });
}

/// Two ledgers keeping first-use times, as two processes' are, with the same links: link l
/// from "n<l>" to to + (l + shift).
std::pair<Ptr<OpLedger>, Ptr<OpLedger>>
TwoLedgers(uint32_t links, const std::string& to, uint32_t shift)
{
    Ptr<OpLedger> a = CreateObject<OpLedger>();
    Ptr<OpLedger> b = CreateObject<OpLedger>();
    for (const Ptr<OpLedger>& ledger : {a, b})
    {
        for (uint32_t l = 0; l < links; ++l)
        {
            ledger->AddLink("n" + std::to_string(l), to + std::to_string(l + shift));
        }
        ledger->KeepTimes();
    }
    return {a, b};
}

/// Run the hops scheduled, then fold b's rows into a as the process writing the results does.
void
RunAndMerge(Ptr<OpLedger> a, Ptr<OpLedger> b)
{
    Simulator::Run();
    Simulator::Destroy();
    PackedBytes packed;
    b->Pack(packed);
    PackedBytes in(packed.GetBytes());
    a->MergeFrom(in);
    EXPECT_TRUE(in.AtEnd());
}
} // namespace

TEST(OpLedger, MergedRowsNameLinksInTheOrderTheFabricFirstUsedThem)
{
    // Two processes see one operation's frames: links 0 and 2 on the first, 1 and 3 on the
    // second, first used at 1, 3 and 2, 4 ns. One ledger seeing all would name 0 1 2 3.
    auto [a, b] = TwoLedgers(4, "n", 1);
    Hop(a, 0, 1, 5);
    Hop(b, 1, 2, 9); // the longest wait
    Hop(a, 2, 3, 9); // as long, later: not the one named
    Hop(b, 3, 4, 1);
    Hop(a, 0, 5, 1); // a link already named
    RunAndMerge(a, b);
    const OpLedger::Row& r = a->Get(1);
    EXPECT_EQ(r.frameHops, 5u);
    EXPECT_EQ(r.switchHops, 5u);
    EXPECT_EQ(r.linkBytes, 5000u);
    EXPECT_EQ(r.pathLinks, 4u);
    EXPECT_EQ(a->PathText(r), "n0>n1>n2>n3>n4");
    EXPECT_EQ(r.maxQueueLink, 1u) << "the earlier of two equal longest waits";
}

TEST(OpLedger, LinksFirstUsedAtOneInstantAreNamedByIndexWhicheverRanFirst)
{
    // Twelve links: 0 at 1 ns, then 11 down to 1 all at 2 ns (a tree's copies, in the order
    // one process happened to run them). The row names link 0 and the seven lowest of the
    // tied ones, in index order, and says there are more.
    auto run = [](bool split)
    {
        auto [a, b] = TwoLedgers(12, "m", 0);
        Hop(a, 0, 1, 1);
        for (uint32_t l = 11; l >= 1; --l)
        {
            // Split: the odd links on another process, as a distributed run would see them.
            Hop(split && l % 2 ? b : a, l, 2, 1);
        }
        RunAndMerge(a, b);
        return a->PathText(a->Get(1));
    };
    const std::string named = "n0>m0 n1>m1 n2>m2 n3>m3 n4>m4 n5>m5 n6>m6 n7>m7 +more";
    EXPECT_EQ(run(false), named);
    EXPECT_EQ(run(true), named) << "two processes name what one does";
}

TEST(OpLedger, EqualLongestWaitsAtOneInstantAreNamedByTheLowestLink)
{
    // Links 3, 1 and 2 each see a wait of 9 units at 2 ns (in the order one process happened
    // to run them), link 0 one of 9 at 3 ns: the longest wait is link 1's, the lowest of the
    // earliest, in one ledger and split over two alike.
    auto run = [](bool split)
    {
        auto [a, b] = TwoLedgers(4, "m", 0);
        Hop(a, 3, 2, 9);
        Hop(split ? b : a, 1, 2, 9);
        Hop(a, 2, 2, 9);
        Hop(split ? b : a, 0, 3, 9);
        RunAndMerge(a, b);
        return a->Get(1).maxQueueLink;
    };
    EXPECT_EQ(run(false), 1u);
    EXPECT_EQ(run(true), 1u) << "two processes name what one does";
}

TEST(Metrics, MergeTakesEachOperationFromTheProcessThatRanIt)
{
    // Both processes register the same two operations; each runs one.
    auto make = [](bool firstHere)
    {
        Ptr<Metrics> m = CreateObject<Metrics>();
        m->AddWorkload({"w", "flows", "list", false});
        for (int i = 0; i < 2; ++i)
        {
            Metrics::OpRecord r;
            r.op = i;
            r.src = i;
            r.elsewhere = (i == 0) != firstHere;
            m->AddOp(r);
        }
        return m;
    };
    Ptr<Metrics> a = make(true);
    Ptr<Metrics> b = make(false);
    EXPECT_EQ(a->GetPending(), 1u) << "a process waits for its own operations only";
    Simulator::Schedule(MicroSeconds(1), &Metrics::StartOp, a, 0);
    Simulator::Schedule(MicroSeconds(2), &Metrics::StartOp, b, 1);
    Simulator::Schedule(MicroSeconds(5), &Metrics::AddReceiverCompletion, b, 0, 3);
    Simulator::Schedule(MicroSeconds(4), &Metrics::AddReceiverCompletion, a, 1, 7);
    Simulator::Schedule(MicroSeconds(6), &Metrics::CompleteOp, b, 1);
    Simulator::Schedule(MicroSeconds(9), &Metrics::CompleteOp, a, 0);
    Simulator::Run();
    Simulator::Destroy();
    PackedBytes packed;
    b->PackOwn(packed);
    PackedBytes in(packed.GetBytes());
    a->MergeFrom(in);
    EXPECT_TRUE(in.AtEnd());
    a->FinishMerge();
    const auto& ops = a->GetOps();
    EXPECT_EQ(ops[1].start, MicroSeconds(2));
    EXPECT_EQ(ops[1].end, MicroSeconds(6));
    EXPECT_TRUE(ops[1].done);
    EXPECT_EQ(a->GetPending(), 0u);
    EXPECT_EQ(a->GetCompleted(), 2u);
    // Receiver completions in time order, durations from the operation's own start.
    ASSERT_EQ(a->GetReceiverRecords().size(), 2u);
    EXPECT_EQ(a->GetReceiverRecords()[0].host, 7u);
    EXPECT_EQ(a->GetReceiverRecords()[1].host, 3u);
    EXPECT_EQ(a->GetReceiverCompletions(0), (std::vector<double>{2.0, 4.0}));
}

TEST(Metrics, MergeTakesAWorkloadsFiguresFromTheProcessThatSetThem)
{
    // A broadcast's figures are set where its root is simulated; the others set none.
    Ptr<Metrics> a = CreateObject<Metrics>();
    Ptr<Metrics> b = CreateObject<Metrics>();
    for (const Ptr<Metrics>& m : {a, b})
    {
        m->AddWorkload({"w", "broadcast", "list", false});
    }
    a->SetExtra(0, "same_everywhere", 1);
    b->SetExtra(0, "same_everywhere", 1);
    b->SetExtra(0, "copies_from_source", 2.5);
    PackedBytes packed;
    b->PackOwn(packed);
    PackedBytes in(packed.GetBytes());
    a->MergeFrom(in);
    EXPECT_TRUE(in.AtEnd());
    EXPECT_EQ(a->GetExtras(0),
              (std::map<std::string, double>{{"copies_from_source", 2.5}, {"same_everywhere", 1}}));
    // Two processes that disagree on a figure: the merge cannot pick one.
    Ptr<Metrics> c = CreateObject<Metrics>();
    c->AddWorkload({"w", "broadcast", "list", false});
    c->SetExtra(0, "copies_from_source", 3);
    PackedBytes again(packed.GetBytes());
    EXPECT_DEATH(c->MergeFrom(again), "two processes set the figure copies_from_source");
}

namespace
{
/// One process's part of a two-step, one-phase iteration.
CollectiveSpread::Part
MakePart(bool arrivals, double lastUs, double firstStartUs)
{
    CollectiveSpread::Part p;
    p.arrivals = arrivals;
    p.last = MicroSeconds(lastUs);
    p.firstStart = MicroSeconds(firstStartUs);
    p.steps.resize(2);
    p.phaseStarted = {false};
    p.phaseStart = {Time()};
    p.phaseEnd = {Time()};
    return p;
}
} // namespace

TEST(CollectiveSpread, MergedPartIsOneProcesssViewWhateverTheOrder)
{
    // Process a: its ranks posted step 0 at 1 µs and received its last byte at 9 µs.
    CollectiveSpread::Part a = MakePart(true, 9, 1);
    a.steps[0] = {3, MicroSeconds(1), true, MicroSeconds(9), 4, 5};
    a.phaseStarted = {true};
    a.phaseStart = {MicroSeconds(1)};
    a.phaseEnd = {MicroSeconds(9)};
    // Process b: started first (0.5 µs), posted step 0 at 2 µs and step 1 at 12 µs, received
    // step 0's last byte at 9 µs too (from host 2 at host 7) and step 1's at 14 µs.
    CollectiveSpread::Part b = MakePart(true, 14, 0.5);
    b.steps[0] = {2, MicroSeconds(2), true, MicroSeconds(9), 2, 7};
    b.steps[1] = {1, MicroSeconds(12), true, MicroSeconds(14), 7, 2};
    b.phaseStarted = {true};
    b.phaseStart = {MicroSeconds(2)};
    b.phaseEnd = {MicroSeconds(14)};
    // Process c: nothing to receive, its last rank started at 20 µs; it does not end the
    // iteration, which ends at the last arrival anywhere.
    CollectiveSpread::Part c = MakePart(false, 20, 0.7);
    for (const auto& order : std::vector<std::vector<const CollectiveSpread::Part*>>{
             {&a, &b, &c}, {&c, &b, &a}, {&b, &c, &a}})
    {
        CollectiveSpread::Part m = *order[0];
        CollectiveSpread::Merge(m, *order[1]);
        // Packed and read back on the way, as a message carries it.
        PackedBytes out;
        CollectiveSpread::Pack(*order[2], out);
        PackedBytes in(out.GetBytes());
        CollectiveSpread::Merge(m, CollectiveSpread::Unpack(in));
        EXPECT_TRUE(in.AtEnd());
        EXPECT_TRUE(m.arrivals);
        EXPECT_EQ(m.last, MicroSeconds(14));
        EXPECT_EQ(m.firstStart, MicroSeconds(0.5));
        EXPECT_EQ(m.steps[0].transfers, 5u);
        EXPECT_EQ(m.steps[0].start, MicroSeconds(1));
        EXPECT_EQ(m.steps[0].end, MicroSeconds(9));
        // Both ended step 0 at 9 µs: named by the larger destination host, in any order.
        EXPECT_EQ(m.steps[0].lastDst, 7u);
        EXPECT_EQ(m.steps[0].lastSrc, 2u);
        EXPECT_EQ(m.steps[1].transfers, 1u);
        EXPECT_EQ(m.steps[1].start, MicroSeconds(12));
        EXPECT_EQ(m.phaseStart[0], MicroSeconds(1));
        EXPECT_EQ(m.phaseEnd[0], MicroSeconds(14));
    }
    // Nobody received anything: the iteration ends as its last rank starts it.
    CollectiveSpread::Part x = MakePart(false, 3, 0);
    CollectiveSpread::Merge(x, MakePart(false, 5, 1));
    EXPECT_FALSE(x.arrivals);
    EXPECT_EQ(x.last, MicroSeconds(5));
}

namespace
{
/// A record written and read back, from bytes with other values before it.
RemoteFrameRecord
RoundTrip(RemoteFrameRecord& r, std::size_t* bytes = nullptr)
{
    PackedBytes wire;
    wire.Put<uint8_t>(1);
    wire.Put<uint16_t>(2);
    r.Write(wire);
    if (bytes)
    {
        *bytes = wire.GetBytes().size() - 3;
    }
    PackedBytes in(wire.GetBytes());
    EXPECT_EQ(in.Take<uint8_t>(), 1);
    EXPECT_EQ(in.Take<uint16_t>(), 2);
    RemoteFrameRecord back = RemoteFrameRecord::Read(in);
    EXPECT_TRUE(in.AtEnd());
    return back;
}
} // namespace

TEST(RemoteFrameRecord, CarriesEveryFieldAndThePacketAsALength)
{
    FrameInfo fi;
    fi.size = 1106;
    fi.srcIp = 0x0a000001;
    fi.owner = 3;
    fi.op = 4242;
    fi.queuedAt = 99;
    RemoteFrameRecord r;
    r.node = 77;
    r.device = 5;
    r.arrival = PicoSeconds(123456789);
    r.delay = PicoSeconds(1606);
    r.tie = 0x01000005;
    r.frame = FabricFrame(Create<Packet>(1000), fi); // a payload that has no bytes yet
    std::size_t bytes = 0;
    RemoteFrameRecord back = RoundTrip(r, &bytes);
    EXPECT_LT(bytes, 250u) << "the payload travels as a length";
    EXPECT_EQ(back.node, 77u);
    EXPECT_EQ(back.device, 5u);
    EXPECT_EQ(back.arrival, PicoSeconds(123456789));
    EXPECT_EQ(back.delay, PicoSeconds(1606));
    EXPECT_EQ(back.tie, 0x01000005u);
    EXPECT_EQ(back.frame.info, fi);
    EXPECT_EQ(back.frame.info.owner, 3u);
    EXPECT_EQ(back.frame.info.op, 4242u);
    EXPECT_EQ(back.frame.info.queuedAt, 99u);
    ASSERT_TRUE(back.frame.HasBytes());
    EXPECT_FALSE(back.frame.HasPendingCe());
    EXPECT_EQ(back.frame.GetPacket()->GetSize(), 1000u);
}

TEST(RemoteFrameRecord, KeepsACeMarkPendingAsTheSenderHadIt)
{
    // An ACK's bytes stand in for any frame whose CE mark is in the fields only.
    AckFrameBuilder builder(Mac48Address("02:00:00:00:00:07"), false);
    RocePacketBuilder::Addressing a;
    a.srcIp = FabricAddress::HostIpv4(6).Get();
    a.dstIp = FabricAddress::HostIpv4(9).Get();
    a.srcPort = 0xC123;
    a.ecnCapable = true;
    FabricFrame eager = builder.Make(a, 9, 41, false, 2);
    RemoteFrameRecord r;
    r.frame = FabricFrame(eager.GetPacket()->Copy(), eager.info); // bytes of its own
    r.frame.MarkCe();
    ASSERT_TRUE(r.frame.HasPendingCe());
    RemoteFrameRecord back = RoundTrip(r);
    EXPECT_TRUE(r.frame.HasPendingCe()) << "writing the record left the sender's bytes alone";
    EXPECT_TRUE(back.frame.HasPendingCe());
    EXPECT_EQ(back.frame.info.ecn, Ipv4Header::ECN_CE);
    // Read, both sides write the mark alike.
    EXPECT_EQ(mcast4ai_test::CopyBytes(back.frame.GetPacket()),
              mcast4ai_test::CopyBytes(r.frame.GetPacket()));
}

TEST(RemoteFrameRecord, ADeferredAckCrossesWithoutBytesAndBuildsTheSameOnes)
{
    for (bool icrc : {false, true})
    {
        AckFrameBuilder builder(Mac48Address("02:00:00:00:01:2a"), icrc);
        RocePacketBuilder::Addressing a;
        a.srcIp = FabricAddress::HostIpv4(42).Get();
        a.dstIp = FabricAddress::HostIpv4(1000).Get();
        a.srcPort = 0xC0DE;
        a.priority = 3;
        for (bool nak : {false, true})
        {
            RemoteFrameRecord r;
            r.frame = builder.Make(a, 0x800001, 0xABCDEF, nak, 0x1234567);
            r.frame.info.owner = 2;
            std::size_t bytes = 0;
            RemoteFrameRecord back = RoundTrip(r, &bytes);
            EXPECT_FALSE(r.frame.HasBytes()) << "writing the record built no bytes";
            EXPECT_FALSE(back.frame.HasBytes());
            ASSERT_NE(back.frame.GetBuilder(), nullptr);
            EXPECT_NE(back.frame.GetBuilder(), r.frame.GetBuilder())
                << "the receiving process has a builder of its own";
            EXPECT_LT(bytes, 120u);
            EXPECT_EQ(back.frame.info, r.frame.info);
            EXPECT_EQ(mcast4ai_test::CopyBytes(back.frame.GetPacket()),
                      mcast4ai_test::CopyBytes(r.frame.GetPacket()))
                << "icrc " << icrc << " nak " << nak;
        }
    }
}
