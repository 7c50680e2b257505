/*
 * A full group table evicts the idle entry used least recently (ties: the lowest group id).
 * The table keeps its idle entries ordered instead of scanning them all per request; these
 * tests hold that index to the rule, against a brute-force scan of a reference model.
 */
#include "ns3/simulator.h"
#include "p2mp/model/group-table.h"

#include <gtest/gtest.h>
#include <map>
#include <random>

using namespace ns3;

namespace
{

// Run f at simulated time t (the table stamps entries with Simulator::Now()).
template<typename F>
void
At(Time t, F f)
{
    Simulator::Schedule(t - Simulator::Now(), f);
    Simulator::Run();
}

} // namespace

TEST(GroupTable, EvictsTheIdleEntryUsedLeastRecently)
{
    Ptr<GroupTable> t = CreateObject<GroupTable>();
    uint32_t victim = 99;
    At(Seconds(0),
       [&]
       {
           for (uint32_t id : {1, 2, 3})
           {
               t->Install(id, GroupTable::Entry{});
           }
           EXPECT_FALSE(t->LeastRecentlyUsedIdle(victim)) << "installed entries are busy";
           t->SetIdle(2, true);
           t->SetIdle(1, true);
           ASSERT_TRUE(t->LeastRecentlyUsedIdle(victim));
           EXPECT_EQ(victim, 1u) << "equal last use: the lowest id";
       });
    At(MicroSeconds(5),
       [&]
       {
           ASSERT_NE(t->Lookup(1), nullptr); // a straggler refreshes an idle entry
           ASSERT_TRUE(t->LeastRecentlyUsedIdle(victim));
           EXPECT_EQ(victim, 2u);
           t->SetIdle(2, false);
           ASSERT_TRUE(t->LeastRecentlyUsedIdle(victim));
           EXPECT_EQ(victim, 1u) << "a busy entry is never the victim";
           t->Remove(1);
           EXPECT_FALSE(t->LeastRecentlyUsedIdle(victim)) << "removed entries leave the index";
           t->SetIdle(7, true); // not installed: nothing to mark
           EXPECT_FALSE(t->LeastRecentlyUsedIdle(victim));
           t->SetIdle(3, true);
           t->Install(3, GroupTable::Entry{}); // a reinstall is busy again
           EXPECT_FALSE(t->LeastRecentlyUsedIdle(victim));
       });
    Simulator::Destroy();
}

TEST(GroupTable, IdleIndexAgreesWithAScanOfEveryEntry)
{
    struct Ref
    {
        Time lastUse;
        bool idle{false};
    };

    Ptr<GroupTable> t = CreateObject<GroupTable>();
    std::map<uint32_t, Ref> ref;
    std::mt19937 rng(11);
    for (int step = 0; step < 20000; ++step)
    {
        // Several operations share a timestamp, so ties by id are exercised.
        At(NanoSeconds(step / 4),
           [&]
           {
               uint32_t id = rng() % 64;
               switch (rng() % 5)
               {
                   case 0:
                       t->Install(id, GroupTable::Entry{});
                       ref[id] = {Simulator::Now(), false};
                       break;
                   case 1:
                       t->Remove(id);
                       ref.erase(id);
                       break;
                   case 2:
                       if (t->Lookup(id))
                       {
                           ref.at(id).lastUse = Simulator::Now();
                       }
                       break;
                   default:
                   {
                       bool idle = rng() % 2;
                       t->SetIdle(id, idle);
                       if (auto it = ref.find(id); it != ref.end())
                       {
                           it->second.idle = idle;
                       }
                   }
               }
               // The rule, by brute force: the oldest last use among idle entries, lowest id.
               bool found = false;
               uint32_t expected = 0;
               Time oldest;
               for (const auto& [gid, r] : ref)
               {
                   if (r.idle && (!found || r.lastUse < oldest))
                   {
                       found = true;
                       oldest = r.lastUse;
                       expected = gid;
                   }
               }
               uint32_t victim = 0;
               ASSERT_EQ(t->LeastRecentlyUsedIdle(victim), found) << "step " << step;
               if (found)
               {
                   ASSERT_EQ(victim, expected) << "step " << step;
               }
               ASSERT_EQ(t->GetSize(), ref.size());
           });
    }
    Simulator::Destroy();
}
