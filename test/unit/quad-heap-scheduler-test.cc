/*
 * QuadHeapScheduler must hand out events in exactly (timestamp, uid) order, whatever lanes the
 * callers tag, because the runner's results depend on that order and nothing else.
 */
#include "core/model/prefetching-event.h"
#include "core/model/quad-heap-scheduler.h"
#include "ns3/boolean.h"
#include "ns3/event-impl.h"
#include "ns3/map-scheduler.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

Scheduler::Event
MakeEv(uint64_t ts, uint32_t uid)
{
    Scheduler::Event ev;
    ev.impl = nullptr;
    ev.key.m_ts = ts;
    ev.key.m_uid = uid;
    ev.key.m_context = 0;
    return ev;
}

std::vector<std::pair<uint64_t, uint32_t>>
Drain(Ptr<QuadHeapScheduler> s)
{
    std::vector<std::pair<uint64_t, uint32_t>> out;
    while (!s->IsEmpty())
    {
        Scheduler::Event next = s->PeekNext();
        Scheduler::Event ev = s->RemoveNext();
        EXPECT_EQ(next.key.m_uid, ev.key.m_uid);
        out.emplace_back(ev.key.m_ts, ev.key.m_uid);
    }
    return out;
}

} // namespace

TEST(QuadHeapScheduler, OrdersByTimeThenUidWithManyTies)
{
    Ptr<QuadHeapScheduler> s = CreateObject<QuadHeapScheduler>();
    std::mt19937_64 rng(7);
    std::vector<std::pair<uint64_t, uint32_t>> keys;
    for (uint32_t uid = 0; uid < 20000; ++uid)
    {
        uint64_t ts = rng() % 500; // 40 events per timestamp on average: ties decided by uid
        keys.emplace_back(ts, uid);
        s->Insert(MakeEv(ts, uid));
    }
    EXPECT_EQ(s->GetSize(), 20000u);
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(Drain(s), keys);
}

TEST(QuadHeapScheduler, LanesKeepOneHeapEntryPerStream)
{
    Ptr<QuadHeapScheduler> s = CreateObject<QuadHeapScheduler>();
    const uint32_t lanes[3] = {
        QuadHeapScheduler::NewLane(), QuadHeapScheduler::NewLane(), QuadHeapScheduler::NewLane()};
    uint32_t uid = 0;
    std::vector<std::pair<uint64_t, uint32_t>> keys;
    // Three cables, 100 frames each, sent 88 time units apart and arriving 1000 later.
    for (uint64_t k = 0; k < 100; ++k)
    {
        for (uint32_t c = 0; c < 3; ++c)
        {
            uint64_t ts = 1000 + 88 * k + c;
            QuadHeapScheduler::SetNextLane(lanes[c]);
            s->Insert(MakeEv(ts, uid));
            keys.emplace_back(ts, uid++);
        }
    }
    EXPECT_EQ(s->GetSize(), 300u);
    EXPECT_EQ(s->GetHeapSize(), 3u); // one head per lane, 99 queued behind each
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(Drain(s), keys);
    EXPECT_EQ(s->GetSize(), 0u);
}

TEST(QuadHeapScheduler, MisorderedLaneEventsStillRunInOrder)
{
    // A caller that tags events which are not in time order must not change the order: those
    // events go to the heap as ordinary events.
    Ptr<QuadHeapScheduler> s = CreateObject<QuadHeapScheduler>();
    const uint32_t lane = QuadHeapScheduler::NewLane();
    std::mt19937_64 rng(11);
    std::vector<std::pair<uint64_t, uint32_t>> keys;
    for (uint32_t uid = 0; uid < 5000; ++uid)
    {
        uint64_t ts = rng() % 2000;
        if (uid % 3 != 0)
        {
            QuadHeapScheduler::SetNextLane(lane);
        }
        s->Insert(MakeEv(ts, uid));
        keys.emplace_back(ts, uid);
        if (uid % 7 == 0 && !s->IsEmpty())
        {
            // Interleave removals, as a running simulation does.
            Scheduler::Event ev = s->RemoveNext();
            auto it = std::min_element(keys.begin(), keys.end());
            EXPECT_EQ(ev.key.m_ts, it->first);
            EXPECT_EQ(ev.key.m_uid, it->second);
            keys.erase(it);
        }
    }
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(Drain(s), keys);
}

TEST(QuadHeapScheduler, RemoveFindsEventsInHeapAndBehindLaneHeads)
{
    Ptr<QuadHeapScheduler> s = CreateObject<QuadHeapScheduler>();
    const uint32_t lane = QuadHeapScheduler::NewLane();
    for (uint32_t uid = 0; uid < 10; ++uid)
    {
        QuadHeapScheduler::SetNextLane(lane);
        s->Insert(MakeEv(100 + uid, uid)); // lane: head uid 0, then 1..9 queued
    }
    for (uint32_t uid = 10; uid < 20; ++uid)
    {
        s->Insert(MakeEv(50 + uid, uid)); // heap: ts 60..69
    }
    s->Remove(MakeEv(105, 5)); // queued in the lane
    s->Remove(MakeEv(100, 0)); // the lane head: uid 1 takes its place
    s->Remove(MakeEv(109, 9)); // the lane's last event
    s->Remove(MakeEv(63, 13)); // an ordinary event
    EXPECT_EQ(s->GetSize(), 16u);
    std::vector<std::pair<uint64_t, uint32_t>> expected;
    for (uint32_t uid = 10; uid < 20; ++uid)
    {
        if (uid != 13)
        {
            expected.emplace_back(50 + uid, uid);
        }
    }
    for (uint32_t uid : {1, 2, 3, 4, 6, 7, 8})
    {
        expected.emplace_back(100 + uid, uid);
    }
    EXPECT_EQ(Drain(s), expected);
}

namespace
{
std::vector<int> g_order;

void
Record(int id)
{
    g_order.push_back(id);
}

/// Runs a burst of same-time and laned events under the given scheduler; returns the run order.
std::vector<int>
RunBurst(const std::string& scheduler)
{
    g_order.clear();
    Simulator::SetScheduler(ObjectFactory(scheduler));
    const uint32_t lane = QuadHeapScheduler::NewLane();
    for (int i = 0; i < 200; ++i)
    {
        // Laned arrivals every 10 ps, interleaved with unlaned events that tie with them.
        QuadHeapScheduler::SetNextLane(lane);
        Simulator::Schedule(PicoSeconds(1000 + 10 * i), &Record, i);
        Simulator::Schedule(PicoSeconds(1000 + 10 * (i % 17)), &Record, 1000 + i);
    }
    Simulator::Run();
    Simulator::Destroy();
    QuadHeapScheduler::SetNextLane(QuadHeapScheduler::NO_LANE); // the map never consumes it
    QuadHeapScheduler::ReleaseLane(lane);
    return g_order;
}
} // namespace

TEST(QuadHeapScheduler, RunsASimulationInTheSameOrderAsTheMapScheduler)
{
    std::vector<int> map = RunBurst("ns3::MapScheduler");
    std::vector<int> quad = RunBurst("ns3::QuadHeapScheduler");
    ASSERT_EQ(map.size(), 400u);
    EXPECT_EQ(quad, map);
}

TEST(QuadHeapScheduler, ReleasedLaneIdsAreReused)
{
    // A process that builds fabric after fabric must not grow lane ids without bound.
    uint32_t a = QuadHeapScheduler::NewLane();
    uint32_t b = QuadHeapScheduler::NewLane();
    QuadHeapScheduler::ReleaseLane(a);
    QuadHeapScheduler::ReleaseLane(b);
    uint32_t c = QuadHeapScheduler::NewLane();
    uint32_t d = QuadHeapScheduler::NewLane();
    EXPECT_EQ(std::min(c, d), std::min(a, b));
    EXPECT_EQ(std::max(c, d), std::max(a, b));
}

TEST(QuadHeapScheduler, AgreesWithAnOrderedSetUnderRandomOperations)
{
    // Inserts with and without lanes (in and out of lane order), removals of the next event
    // and of arbitrary pending ones, checked step by step against std::set.
    std::mt19937_64 rng(2026);
    for (int round = 0; round < 20; ++round)
    {
        Ptr<QuadHeapScheduler> s = CreateObject<QuadHeapScheduler>();
        uint32_t lanes[4];
        uint64_t laneClock[4] = {0, 0, 0, 0};
        for (uint32_t& l : lanes)
        {
            l = QuadHeapScheduler::NewLane();
        }
        std::set<std::pair<uint64_t, uint32_t>> ref;
        uint64_t now = 0;
        uint32_t uid = 0;
        for (int op = 0; op < 6000; ++op)
        {
            uint64_t r = rng() % 10;
            if (r < 6 || ref.empty())
            {
                uint64_t ts = now + rng() % 300;
                uint64_t which = rng() % 6;
                if (which < 4)
                {
                    // Mostly in lane order (a cable), sometimes not.
                    if (rng() % 8 != 0)
                    {
                        ts = std::max(ts, laneClock[which]);
                        laneClock[which] = ts;
                    }
                    QuadHeapScheduler::SetNextLane(lanes[which]);
                }
                s->Insert(MakeEv(ts, uid));
                ref.emplace(ts, uid++);
            }
            else if (r < 9)
            {
                Scheduler::Event ev = s->RemoveNext();
                ASSERT_EQ(std::make_pair(ev.key.m_ts, ev.key.m_uid), *ref.begin());
                now = ev.key.m_ts;
                ref.erase(ref.begin());
            }
            else
            {
                auto it = ref.begin();
                std::advance(it, rng() % ref.size());
                s->Remove(MakeEv(it->first, it->second));
                ref.erase(it);
            }
            ASSERT_EQ(s->GetSize(), ref.size());
            ASSERT_EQ(s->IsEmpty(), ref.empty());
        }
        std::vector<std::pair<uint64_t, uint32_t>> rest(ref.begin(), ref.end());
        EXPECT_EQ(Drain(s), rest);
        for (uint32_t l : lanes)
        {
            QuadHeapScheduler::ReleaseLane(l);
        }
    }
}

namespace
{

/// Records, for its own ts, whether Prefetch() came before the event was handed out.
class CountingEvent : public PrefetchingEvent
{
public:
    void Prefetch() const override
    {
        ++prefetches;
    }

    mutable uint32_t prefetches{0};

protected:
    void Notify() override
    {
    }
};

} // namespace

TEST(QuadHeapScheduler, PrefetchesTheNextTaggedEventAndKeepsTheOrder)
{
    Ptr<QuadHeapScheduler> s = CreateObject<QuadHeapScheduler>();
    const uint32_t lane = QuadHeapScheduler::NewLane();
    std::vector<Ptr<CountingEvent>> events;
    std::vector<std::pair<uint64_t, uint32_t>> keys;
    // Uid u at time 10 * (u / 3): ties of three. Every third event goes to the lane (in
    // order); of the rest, even uids are tagged. A lane event that is tagged unlike its lane
    // must leave the lane (uid 30 onwards are untagged lane events).
    for (uint32_t uid = 0; uid < 60; ++uid)
    {
        events.push_back(Create<CountingEvent>());
        Scheduler::Event ev = MakeEv(10 * (uid / 3), uid);
        ev.impl = PeekPointer(events.back());
        bool inLane = uid % 3 == 0;
        bool tagged = inLane ? uid < 30 : uid % 2 == 0;
        if (inLane)
        {
            QuadHeapScheduler::SetNextLane(lane);
        }
        if (tagged)
        {
            QuadHeapScheduler::SetNextPrefetching();
        }
        s->Insert(ev);
        keys.emplace_back(ev.key.m_ts, uid);
    }
    std::vector<uint32_t> prefetchedBeforeRun(60);
    std::vector<std::pair<uint64_t, uint32_t>> order;
    while (!s->IsEmpty())
    {
        Scheduler::Event ev = s->RemoveNext();
        uint32_t uid = ev.key.m_uid;
        prefetchedBeforeRun[uid] = events[uid]->prefetches;
        order.emplace_back(ev.key.m_ts, uid);
    }
    EXPECT_EQ(order, keys);
    for (uint32_t uid = 1; uid < 60; ++uid) // the first is handed out before any hint
    {
        bool tagged = uid % 3 == 0 ? uid < 30 : uid % 2 == 0;
        // Each event is next exactly once: a tagged one gets exactly one hint, others none.
        EXPECT_EQ(prefetchedBeforeRun[uid], tagged ? 1u : 0u) << "uid " << uid;
    }
    QuadHeapScheduler::ReleaseLane(lane);
}

namespace
{
/// A program of events run by hand on a scheduler: each removed event schedules 0-3 children
/// with delays drawn from a few values (ties galore); returns the (ts, uid) order it ran in.
std::vector<std::pair<uint64_t, uint32_t>>
RunProgram(Ptr<QuadHeapScheduler> s, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    uint32_t uid = 0;
    for (int i = 0; i < 50; ++i)
    {
        s->Insert(MakeEv(rng() % 4, uid++));
    }
    std::vector<std::pair<uint64_t, uint32_t>> order;
    const uint64_t delays[4] = {0, 3, 5, 8};
    while (!s->IsEmpty() && order.size() < 20000)
    {
        Scheduler::Event ev = s->RemoveNext();
        order.emplace_back(ev.key.m_ts, ev.key.m_uid);
        for (uint64_t k = rng() % 4; k > 0 && uid < 15000; --k)
        {
            s->Insert(MakeEv(ev.key.m_ts + delays[rng() % 4], uid++));
        }
    }
    return order;
}
} // namespace

TEST(QuadHeapScheduler, CausalTiesRunOneProcesssEventsInUidOrder)
{
    // Ordering ties by when events were scheduled is the uid order when one process schedules
    // them all (uids grow with time): a run gives the same results with CausalTies on.
    Ptr<QuadHeapScheduler> plain = CreateObject<QuadHeapScheduler>();
    Ptr<QuadHeapScheduler> causal = CreateObject<QuadHeapScheduler>();
    causal->SetAttribute("CausalTies", BooleanValue(true));
    const auto expected = RunProgram(plain, 3);
    ASSERT_GT(expected.size(), 10000u);
    EXPECT_EQ(RunProgram(causal, 3), expected);
}

TEST(QuadHeapScheduler, CausalTiesPlaceARemoteEventAsScheduledWhenItsSenderScheduledIt)
{
    Ptr<QuadHeapScheduler> s = CreateObject<QuadHeapScheduler>();
    s->SetAttribute("CausalTies", BooleanValue(true));
    // Events told apart by a dummy impl pointer (the scheduler never calls an untagged one).
    auto ev = [](uint64_t ts, uint32_t uid, uintptr_t name)
    {
        Scheduler::Event e = MakeEv(ts, uid);
        e.impl = reinterpret_cast<EventImpl*>(name * 64);
        return e;
    };
    s->Insert(ev(100, 1, 'a')); // scheduled at 0
    s->Insert(ev(50, 2, 'x'));
    ASSERT_EQ(s->RemoveNext().key.m_uid, 2u); // now 50
    s->Insert(ev(100, 3, 'b'));               // scheduled at 50
    // From another process: scheduled at 30; at 50 (with the local one above: after it); two at
    // 20 that their tie keys order.
    QuadHeapScheduler::SetNextRemote(70, 9);
    s->Insert(ev(100, 4, 'r'));
    QuadHeapScheduler::SetNextRemote(50, 1);
    s->Insert(ev(100, 5, 's'));
    QuadHeapScheduler::SetNextRemote(80, 7);
    s->Insert(ev(100, 6, 'u'));
    QuadHeapScheduler::SetNextRemote(80, 2);
    s->Insert(ev(100, 7, 't'));
    std::string order;
    std::vector<uint32_t> uids;
    while (!s->IsEmpty())
    {
        Scheduler::Event e = s->RemoveNext();
        EXPECT_EQ(e.key.m_ts, 100u) << "the timestamp comes back whole";
        order += static_cast<char>(reinterpret_cast<uintptr_t>(e.impl) / 64);
        uids.push_back(e.key.m_uid);
    }
    // a (at 0); the remote ones of 20 by tie key, t then u; r (of 30); b (at 50); s (of 50).
    EXPECT_EQ(order, "aturbs");
    // A remote event hands the engine the uid of the last local event of its instant that ran
    // (0: none), so that EventId::IsExpired still tells the local events that ran from those
    // that have not: for 'b' (uid 3), pending while 't', 'u', 'r' run, 3 > 1.
    EXPECT_EQ(uids, (std::vector<uint32_t>{1, 1, 1, 1, 3, 3}));
}

TEST(QuadHeapScheduler, CausalTiesCountsARemoteEventTiedWithALocalOneOfItsNode)
{
    Ptr<QuadHeapScheduler> s = CreateObject<QuadHeapScheduler>();
    s->SetAttribute("CausalTies", BooleanValue(true));
    auto ev = [](uint64_t ts, uint32_t uid, uint32_t node)
    {
        Scheduler::Event e = MakeEv(ts, uid);
        e.impl = reinterpret_cast<EventImpl*>(64 * (uid + 1));
        e.key.m_context = node;
        return e;
    };
    // At 100, all scheduled at 0: node 7's and node 8's local events, then from another
    // process one for node 7 (which one process could have run before node 7's own) and one
    // for node 9 (no local event of its node and instant: no tie). Node 8's event runs between
    // the two of node 7.
    s->Insert(ev(100, 1, 7));
    s->Insert(ev(100, 2, 8));
    QuadHeapScheduler::SetNextRemote(100, (1u << 24) | 5);
    s->Insert(ev(100, 3, 7));
    QuadHeapScheduler::SetNextRemote(100, (1u << 24) | 6);
    s->Insert(ev(100, 4, 9));
    // One scheduled later (a shorter delay) is not a tie.
    QuadHeapScheduler::SetNextRemote(40, (1u << 24) | 7);
    s->Insert(ev(100, 5, 8));
    while (!s->IsEmpty())
    {
        s->RemoveNext();
    }
    EXPECT_EQ(s->GetCrossTies(), 1u);
}
