/*
 * CounterSet: what components add under one name is summed, what they give to Max keeps the
 * largest; a name nothing was added to reads 0 (a model that did not run reports nothing, not
 * an error).
 */
#include "core/model/counter-set.h"

#include <gtest/gtest.h>

namespace
{

TEST(CounterSet, SumsByNameAndReadsZeroForUnknownNames)
{
    ns3::CounterSet c;
    EXPECT_EQ(c.Get("telemetry.claims"), 0u);
    c.Add("telemetry.claims", 5);
    c.Add("telemetry.claims", 2);
    c.Add("steering.repaths", 0);
    c.Add("steering.probes", 3);
    EXPECT_EQ(c.Get("telemetry.claims"), 7u);
    EXPECT_EQ(c.Get("steering.repaths"), 0u);
    EXPECT_EQ(c.Get("steering.probes"), 3u);
    EXPECT_EQ(c.Get("telemetry"), 0u) << "no prefix matching: a key is a whole name";
}

TEST(CounterSet, MaxKeepsThePeakOverComponents)
{
    ns3::CounterSet c;
    c.Max("switch_buffer_peak_bytes", 300);
    c.Max("switch_buffer_peak_bytes", 900);
    c.Max("switch_buffer_peak_bytes", 500);
    EXPECT_EQ(c.Get("switch_buffer_peak_bytes"), 900u) << "the peak, not the sum (1,700)";
    c.Max("qps_max", 0);
    EXPECT_EQ(c.Get("qps_max"), 0u);
}

} // namespace

TEST(CounterSet, HistogramsAddBucketByBucketAndGrowToTheLongest)
{
    ns3::CounterSet c;
    EXPECT_TRUE(c.GetHistogram("reorder.displacement").empty());
    const uint64_t a[] = {1, 0, 2};
    const uint64_t b[] = {4, 5, 0, 0, 7};
    c.AddHistogram("reorder.displacement", a, 3);
    c.AddHistogram("reorder.displacement", b, 5);
    EXPECT_EQ(c.GetHistogram("reorder.displacement"), (std::vector<uint64_t>{5, 5, 2, 0, 7}));
    // A histogram is not a counter of the same name.
    EXPECT_EQ(c.Get("reorder.displacement"), 0u);
}
