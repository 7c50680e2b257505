/*
 * The new protocol's controller under a throughput limit: each install waits for the
 * controller (one request at a time, ControllerRate per second) and then for every switch of
 * its tree (one entry write at a time, SwitchWriteRate per second), then InstallLatency. The
 * ready times below follow from those FIFO servers by hand; with both rates 0 every group is
 * ready after InstallLatency alone, as before the limits existed.
 */
#include "core/model/packed-bytes.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "p2mp/model/group-controller.h"
#include "p2mp/model/group-table.h"
#include "test-topologies.h"

#include <gtest/gtest.h>
#include <memory>
#include <vector>

using namespace ns3;

namespace
{

struct Recorder
{
    std::vector<double> ready;

    void Ready(std::size_t i, uint32_t /* group */)
    {
        ready[i] = Simulator::Now().GetMicroSeconds();
    }
};

/// When each of `groups` (receiver sets of host 0) becomes ready, all requested at t = 0.
std::vector<double>
ReadyUs(double controllerRate,
        double switchRate,
        Time latency,
        const std::vector<std::vector<uint32_t>>& groups)
{
    const TopologyGraph& g = mcast4ai_test::Ls();
    std::vector<Ptr<GroupTable>> tables;
    for (uint32_t i = 0; i < g.SwitchCount(); ++i)
    {
        tables.push_back(CreateObject<GroupTable>());
    }
    Ptr<GroupController> c = CreateObject<GroupController>();
    c->SetAttribute("InstallLatency", TimeValue(latency));
    c->SetAttribute("ControllerRate", DoubleValue(controllerRate));
    c->SetAttribute("SwitchWriteRate", DoubleValue(switchRate));
    c->Setup(&g, tables);
    Recorder r;
    r.ready.assign(groups.size(), -1);
    for (std::size_t i = 0; i < groups.size(); ++i)
    {
        auto receivers = std::make_shared<const std::vector<uint32_t>>(groups[i]);
        c->Request(0, receivers, MakeCallback(&Recorder::Ready, &r, i));
    }
    Simulator::Run();
    Simulator::Destroy();
    return r.ready;
}

const std::vector<std::vector<uint32_t>> kThreeGroups{{17}, {18}, {33, 34}};

} // namespace

TEST(GroupController, NoLimitIsTheInstallLatencyAlone)
{
    EXPECT_EQ(ReadyUs(0, 0, MicroSeconds(10), kThreeGroups), (std::vector<double>{10, 10, 10}));
}

TEST(GroupController, TheControllerServesOneInstallAtATime)
{
    // 100,000 installs/s: 10 us each, in request order; then the 5 us latency.
    EXPECT_EQ(ReadyUs(1e5, 0, MicroSeconds(5), kThreeGroups), (std::vector<double>{15, 25, 35}));
}

TEST(GroupController, EachSwitchWritesOneEntryAtATime)
{
    // Every tree starts at host 0's leaf, which writes its three entries 10 us apart; the
    // spines and the other leaves are not slower than that.
    EXPECT_EQ(ReadyUs(0, 1e5, Time(0), kThreeGroups), (std::vector<double>{10, 20, 30}));
    // The controller's 20 us per install and then the leaf's 10 us per write.
    EXPECT_EQ(ReadyUs(5e4, 1e5, Time(0), kThreeGroups), (std::vector<double>{30, 50, 70}));
}

TEST(GroupController, MergedCountersAreTheSumOfTheProcesses)
{
    // In a distributed run only the sources' process installs; the others' counters are zero,
    // so rank 0's merged figures are that process's whichever rank it is.
    const TopologyGraph& g = mcast4ai_test::Ls();
    auto make = [&g]()
    {
        std::vector<Ptr<GroupTable>> tables;
        for (uint32_t i = 0; i < g.SwitchCount(); ++i)
        {
            tables.push_back(CreateObject<GroupTable>());
        }
        Ptr<GroupController> c = CreateObject<GroupController>();
        c->Setup(&g, tables);
        return c;
    };
    Ptr<GroupController> here = make();
    Ptr<GroupController> there = make();
    Recorder r;
    r.ready.assign(kThreeGroups.size(), -1);
    for (std::size_t i = 0; i < kThreeGroups.size(); ++i)
    {
        auto receivers = std::make_shared<const std::vector<uint32_t>>(kThreeGroups[i]);
        there->Request(0, receivers, MakeCallback(&Recorder::Ready, &r, i));
    }
    Simulator::Run();
    Simulator::Destroy();
    PackedBytes packed;
    there->Pack(packed);
    PackedBytes in(packed.GetBytes());
    here->MergeFrom(in);
    EXPECT_TRUE(in.AtEnd());
    EXPECT_EQ(here->GetInstalls(), 3u);
    EXPECT_EQ(here->GetEntryInstalls(), there->GetEntryInstalls());
    EXPECT_DOUBLE_EQ(here->GetMeanInstallUs(), there->GetMeanInstallUs());
    EXPECT_GT(here->GetEntryInstalls(), 0u);
}
