/*
 * AckAggregator: minimum-PSN aggregation, NAK forwarding with the minimum expected PSN,
 * receiver sets that change per message, 24-bit PSN wrap, CNP rate limiting, and the
 * validation that refuses forged ACKs (docs/robustness.md "ACK spoofing"), and the receiver
 * timeout that drops a silent receiver (docs/robustness.md "Silent receivers").
 */
#include "ns3/boolean.h"
#include "ns3/simulator.h"
#include "rdma/model/ack-aggregator.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

using Kind = AckAggregator::Action::Kind;
const uint64_t FLOW = AckAggregator::FlowKey(7, 0x100);

TEST(AckAggregator, EmitsOnlyWhenTheMinimumAdvances)
{
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    agg->ExpectMessage(FLOW, {1, 2, 3}, 0, 9);
    EXPECT_EQ(agg->Receive(FLOW, 1, 0, false).kind, Kind::NOTHING); // 1 at 1, others at 0
    EXPECT_EQ(agg->Receive(FLOW, 2, 0, false).kind, Kind::NOTHING);
    auto a = agg->Receive(FLOW, 3, 0, false); // all through 0
    EXPECT_EQ(a.kind, Kind::ACK);
    EXPECT_EQ(a.psn, 0u);
    EXPECT_EQ(agg->Receive(FLOW, 1, 5, false).kind, Kind::NOTHING); // min is still 2 and 3
    EXPECT_EQ(agg->Receive(FLOW, 2, 3, false).kind, Kind::NOTHING); // 3 holds at 1
    a = agg->Receive(FLOW, 3, 2, false); // expected: 6, 4, 3 -> through 2
    EXPECT_EQ(a.kind, Kind::ACK);
    EXPECT_EQ(a.psn, 2u);
    // A duplicate or stale ACK changes nothing.
    EXPECT_EQ(agg->Receive(FLOW, 3, 1, false).kind, Kind::NOTHING);
    EXPECT_EQ(agg->GetAcksIn(), 7u);
    EXPECT_EQ(agg->GetAcksOut(), 2u);
    EXPECT_EQ(agg->GetEntryCount(), 3u);
}

TEST(AckAggregator, NakCarriesTheMinimumExpectedPsn)
{
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    agg->ExpectMessage(FLOW, {1, 2}, 0, 99);
    agg->Receive(FLOW, 1, 10, false);         // child 1 expects 11
    agg->Receive(FLOW, 2, 6, false);          // child 2 expects 7: aggregate ACK through 6
    auto a = agg->Receive(FLOW, 1, 11, true); // child 1 lost 11
    EXPECT_EQ(a.kind, Kind::NAK);
    EXPECT_EQ(a.psn, 7u); // go back to where child 2 is
}

TEST(AckAggregator, GoBackNOneNakPerLoss)
{
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    agg->ExpectMessage(FLOW, {1, 2, 3}, 0, 99);
    for (uint32_t c : {1, 2, 3})
    {
        agg->Receive(FLOW, c, 9, false); // everyone through 9
    }
    // PSN 10 lost upstream of all three: the first NAK sends the root back to 10.
    auto a = agg->Receive(FLOW, 1, 10, true);
    EXPECT_EQ(a.kind, Kind::NAK);
    EXPECT_EQ(a.psn, 10u);
    EXPECT_TRUE(agg->WatchesResends());
    // The others' NAKs of the same loss, and a loss past it, are answered by that go-back.
    EXPECT_EQ(agg->Receive(FLOW, 2, 10, true).kind, Kind::NOTHING);
    EXPECT_EQ(agg->Receive(FLOW, 3, 14, true).kind, Kind::NOTHING);
    EXPECT_EQ(agg->GetNaksSuppressed(), 2u);
    // New packets pass before the root hears; then the resend from 10 passes up to 12.
    agg->DataPassed(FLOW, 30);
    EXPECT_EQ(agg->Receive(FLOW, 3, 14, true).kind, Kind::NOTHING) << "not resent yet";
    for (uint32_t psn : {10, 11, 12})
    {
        agg->DataPassed(FLOW, psn);
    }
    // Child 1 lost the resent 11: that needs a new go-back, to the minimum (10: 2 and 3).
    a = agg->Receive(FLOW, 1, 11, true);
    EXPECT_EQ(a.kind, Kind::NAK);
    EXPECT_EQ(a.psn, 10u);
    // A late NAK (below what the child acknowledged since) goes nowhere.
    agg->Receive(FLOW, 2, 20, false);
    EXPECT_EQ(agg->Receive(FLOW, 2, 10, true).kind, Kind::NOTHING);
    // Once every child is past the go-back point nothing is waited for.
    agg->Receive(FLOW, 1, 20, false);
    agg->Receive(FLOW, 3, 20, false);
    EXPECT_FALSE(agg->WatchesResends());
}

TEST(AckAggregator, EveryNakWithoutOneNakPerLoss)
{
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    agg->SetAttribute("OneNakPerLoss", BooleanValue(false));
    agg->ExpectMessage(FLOW, {1, 2}, 0, 99);
    EXPECT_EQ(agg->Receive(FLOW, 1, 10, true).kind, Kind::NAK);
    EXPECT_EQ(agg->Receive(FLOW, 2, 10, true).kind, Kind::NAK);
    EXPECT_FALSE(agg->WatchesResends());
}

TEST(AckAggregator, SelectiveOneNakPerPsn)
{
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    agg->SetAttribute("SelectiveNaks", BooleanValue(true));
    agg->ExpectMessage(FLOW, {1, 2}, 0, 99);
    auto a = agg->Receive(FLOW, 1, 10, true);
    EXPECT_EQ(a.kind, Kind::NAK);
    EXPECT_EQ(a.psn, 10u);
    EXPECT_EQ(agg->Receive(FLOW, 2, 10, true).kind, Kind::NOTHING) << "resend on its way";
    EXPECT_EQ(agg->Receive(FLOW, 1, 10, true).kind, Kind::NAK) << "the same child asks again";
    EXPECT_EQ(agg->Receive(FLOW, 2, 12, true).kind, Kind::NAK) << "another PSN";
    agg->DataPassed(FLOW, 10);
    EXPECT_EQ(agg->Receive(FLOW, 2, 10, true).kind, Kind::NOTHING) << "late: 2 NAKed 12";
}

TEST(AckAggregator, SelectiveNakFromADownstreamSwitchIsOneReceiversHole)
{
    // Hop by hop a child is a port; a selective NAK through it is one receiver's hole, and
    // others behind the port may be further back: the port's position must not move.
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    agg->SetAttribute("SelectiveNaks", BooleanValue(true));
    agg->ExpectMessage(FLOW, {5, 6}, 0, 99);
    agg->Receive(FLOW, 5, 19, false, false); // port 5's aggregate: through 19
    agg->Receive(FLOW, 6, 49, false, false);
    EXPECT_EQ(agg->Receive(FLOW, 5, 40, true, false).kind, Kind::NAK);
    auto a = agg->Receive(FLOW, 6, 59, false, false);
    EXPECT_EQ(a.kind, Kind::NOTHING) << "port 5 is still at 20, not 40";
    a = agg->Receive(FLOW, 5, 29, false, false);
    EXPECT_EQ(a.kind, Kind::ACK);
    EXPECT_EQ(a.psn, 29u);
}

TEST(AckAggregator, ReceiverSetsChangePerMessage)
{
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    agg->ExpectMessage(FLOW, {1, 2}, 0, 4);                         // message 1: PSN 0..4 to {1, 2}
    agg->ExpectMessage(FLOW, {2, 3}, 5, 9);                         // message 2: PSN 5..9 to {2, 3}
    EXPECT_EQ(agg->Receive(FLOW, 1, 4, false).kind, Kind::NOTHING); // 2 still owes from 0
    EXPECT_EQ(agg->GetEntryCount(), 2u) << "child 1 owes nothing: its entry is freed";
    auto a = agg->Receive(FLOW, 2, 4, false); // 1 done; 2 and 3 owe from 5
    EXPECT_EQ(a.kind, Kind::ACK);
    EXPECT_EQ(a.psn, 4u);
    EXPECT_EQ(agg->Receive(FLOW, 3, 9, false).kind, Kind::NOTHING); // 2 owes 5..9
    a = agg->Receive(FLOW, 2, 9, false);
    EXPECT_EQ(a.kind, Kind::ACK);
    EXPECT_EQ(a.psn, 9u);
    // Message 3 to {1} only: child 1 caught up at 5, jumps to 10.
    agg->ExpectMessage(FLOW, {1}, 10, 12);
    a = agg->Receive(FLOW, 1, 12, false);
    EXPECT_EQ(a.kind, Kind::ACK);
    EXPECT_EQ(a.psn, 12u);
    // Entries live while their child owes ACKs: {1, 2, 3} at most, 1 again for message 3.
    EXPECT_EQ(agg->GetEntryCount(), 0u);
    EXPECT_EQ(agg->GetPeakEntryCount(), 3u);
    EXPECT_EQ(agg->GetInstalls(), 4u);
    EXPECT_EQ(agg->GetFrees(), 4u);
}

TEST(AckAggregator, PsnWrapsAt24Bits)
{
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    const uint64_t first = 0xFFFFF0; // 16 before the wrap
    agg->ExpectMessage(FLOW, {1, 2}, first, first + 31);
    agg->Receive(FLOW, 1, 0x000005, false); // 24-bit 5 is full PSN 0x1000005
    auto a = agg->Receive(FLOW, 2, 0x000003, false);
    EXPECT_EQ(a.kind, Kind::ACK);
    EXPECT_EQ(a.psn, 0x1000003u);
}

TEST(AckAggregator, ManyChildrenOneAckPerAdvance)
{
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    std::vector<uint32_t> kids;
    for (uint32_t i = 0; i < 1024; ++i)
    {
        kids.push_back(i);
    }
    agg->ExpectMessage(FLOW, kids, 0, 99);
    for (uint32_t i = 1; i < 1024; ++i) // everyone but child 0 has it all
    {
        EXPECT_EQ(agg->Receive(FLOW, i, 99, false).kind, Kind::NOTHING);
    }
    for (uint32_t p = 0; p < 100; ++p) // the straggler drags the aggregate PSN by PSN
    {
        auto a = agg->Receive(FLOW, 0, p, false);
        EXPECT_EQ(a.kind, Kind::ACK);
        EXPECT_EQ(a.psn, p);
    }
    EXPECT_EQ(agg->GetAcksOut(), 100u);
}

TEST(AckAggregator, AtMostOneCnpPerInterval)
{
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    agg->ExpectMessage(FLOW, {1, 2}, 0, 9);
    int forwarded = 0;
    for (int us = 0; us < 200; us += 10) // a CNP every 10 us, interval 50 us
    {
        Simulator::Schedule(MicroSeconds(us),
                            [&]()
                            {
                                forwarded
                                    += agg->ReceiveCnp(FLOW, MicroSeconds(50)).kind == Kind::CNP;
                            });
    }
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(forwarded, 4); // at 0, 50, 100, 150 us
    EXPECT_EQ(agg->ReceiveCnp(AckAggregator::FlowKey(1, 1), MicroSeconds(50)).kind,
              Kind::NOTHING); // unknown flows are not ours to touch
}

TEST(AckAggregator, ValidationRefusesWhatNoReceiverCouldSend)
{
    using R = AckAggregator;
    for (bool validate : {true, false})
    {
        Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
        agg->SetAttribute("Validate", BooleanValue(validate));
        agg->ExpectMessage(FLOW, {1, 2}, 0, 9); // PSN 0..9 asked of receivers 1 and 2
        // Receiver 1 "acknowledges" PSN 20, never sent to it.
        auto a = agg->Receive(FLOW, 1, 20, false);
        EXPECT_EQ(agg->GetRefused(R::REFUSED_OUTSIDE_WINDOW), validate ? 1u : 0u);
        EXPECT_EQ(a.kind, Kind::NOTHING); // 2 still holds the minimum either way
        a = agg->Receive(FLOW, 2, 9, false);
        // Validated, 1 still owes everything: nothing goes up. Not validated, the forgery
        // stood for 1, and the whole message is acknowledged on 2's word alone.
        EXPECT_EQ(a.kind, validate ? Kind::NOTHING : Kind::ACK);
        // Host 3 was never asked anything: PSN 5 (within what was announced) is ignored
        // uncounted, as a late duplicate would be; PSN 10, beyond every message, is counted.
        EXPECT_EQ(agg->Receive(FLOW, 3, 5, false).kind, Kind::NOTHING);
        EXPECT_EQ(agg->GetRefused(R::REFUSED_NOT_AWAITED), 0u);
        EXPECT_EQ(agg->Receive(FLOW, 3, 10, false).kind, Kind::NOTHING);
        EXPECT_EQ(agg->GetRefused(R::REFUSED_NOT_AWAITED), validate ? 1u : 0u);
    }
}

TEST(AckAggregator, ADownstreamAggregateMayCoverLaterMessages)
{
    // Hop by hop, a downstream switch's aggregate may pass the messages this switch saw the
    // first packets of (the later ones came down another tree): it completes the child.
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    agg->SetAttribute("Validate", BooleanValue(true));
    agg->ExpectMessage(FLOW, {1, 2}, 0, 99);
    EXPECT_EQ(agg->Receive(FLOW, 2, 99, false).kind, Kind::NOTHING);
    auto a = agg->Receive(FLOW, 1, 149, false, /* fromReceiver */ false);
    EXPECT_EQ(a.kind, Kind::ACK);
    EXPECT_EQ(a.psn, 99u);
    EXPECT_EQ(agg->GetRefused(AckAggregator::REFUSED_OUTSIDE_WINDOW), 0u);
}

} // namespace

// The receiver timeout (docs/robustness.md "Silent receivers"): children 1, 2, 3 owe PSNs 0-9
// from t = 0; 1 and 2 acknowledge everything at 10 µs, 3 nothing. With a 100 µs timeout the
// ACKs before 100 µs change nothing; the first one at or after 100 µs drops 3 and carries the
// whole message upstream; 3 is skipped by later messages of the flow, and its late ACKs are
// ignored.
TEST(AckAggregator, ReceiverTimeoutDropsASilentChild)
{
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    agg->SetAttribute("ReceiverTimeout", TimeValue(MicroSeconds(100)));
    std::vector<uint32_t> dropped;
    agg->TraceConnectWithoutContext("ReceiverDropped",
                                    Callback<void, uint64_t, uint32_t>(
                                        [&dropped](uint64_t flow, uint32_t host)
                                        {
                                            EXPECT_EQ(flow, FLOW);
                                            dropped.push_back(host);
                                        }));
    std::vector<std::pair<double, AckAggregator::Action>> out;
    auto at = [&](double us, uint32_t child, uint32_t psn)
    {
        Simulator::Schedule(MicroSeconds(us),
                            [&, us, child, psn]()
                            {
                                out.emplace_back(us, agg->Receive(FLOW, child, psn, false));
                            });
    };
    agg->ExpectMessage(FLOW, {1, 2, 3}, 0, 9);
    at(10, 1, 9);
    at(10, 2, 9);
    at(99, 1, 9); // duplicates (the root's resends): 3 silent for 99 µs only
    at(100, 2, 9);
    Simulator::Schedule(MicroSeconds(150),
                        [&]()
                        {
                            agg->ExpectMessage(FLOW, {1, 2, 3}, 10, 19);
                        });
    at(160, 1, 19);
    at(160, 3, 19); // 3 back: no longer a child of the flow
    at(170, 2, 19);
    Simulator::Run();
    Simulator::Destroy();
    ASSERT_EQ(out.size(), 7u);
    EXPECT_EQ(out[0].second.kind, Kind::NOTHING);
    EXPECT_EQ(out[1].second.kind, Kind::NOTHING);
    EXPECT_EQ(out[2].second.kind, Kind::NOTHING); // 99 µs: not yet
    EXPECT_EQ(out[3].second.kind, Kind::ACK);     // 100 µs: 3 dropped, the message goes up
    EXPECT_EQ(out[3].second.psn, 9u);
    EXPECT_EQ(out[4].second.kind, Kind::NOTHING);
    EXPECT_EQ(out[5].second.kind, Kind::NOTHING);
    EXPECT_EQ(out[6].second.kind, Kind::ACK); // 1 and 2 are the set now
    EXPECT_EQ(out[6].second.psn, 19u);
    EXPECT_EQ(dropped, std::vector<uint32_t>{3});
    EXPECT_EQ(agg->GetReceiversDropped(), 1u);
    EXPECT_EQ(agg->GetEntryCount(), 0u);
}

// A child the ChildHost callback says is no receiver (hop by hop, a port to a switch) is never
// dropped: its subtree is another aggregator's to time out.
TEST(AckAggregator, ReceiverTimeoutSparesSwitchChildren)
{
    Ptr<AckAggregator> agg = CreateObject<AckAggregator>();
    agg->SetAttribute("ReceiverTimeout", TimeValue(MicroSeconds(100)));
    agg->SetChildHost(AckAggregator::ChildHostCallback(
        [](uint32_t port)
        {
            return port == 4 ? AckAggregator::NOT_A_RECEIVER : port + 10;
        }));
    agg->ExpectMessage(FLOW, {1, 4}, 0, 9);
    AckAggregator::Action last;
    Simulator::Schedule(MicroSeconds(500),
                        [&]()
                        {
                            last = agg->Receive(FLOW, 1, 9, false);
                        });
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(last.kind, Kind::NOTHING); // port 4 still holds the aggregate back
    EXPECT_EQ(agg->GetReceiversDropped(), 0u);
    EXPECT_EQ(agg->GetEntryCount(), 1u);
}
