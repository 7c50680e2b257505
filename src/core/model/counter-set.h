/*
 * Named counters a model adds its own results to, and a summary folds: the summary asks each
 * component for its counters instead of knowing the component's class. Keys are dotted paths
 * of summary.json's "network" object ("telemetry.claims"); adding to a key sums, Max keeps the
 * largest value given (a peak over components). A key is either summed or maximised. A
 * histogram is a key of its own whose buckets add bucket by bucket.
 */
#ifndef MCAST4AI_COUNTER_SET_H
#define MCAST4AI_COUNTER_SET_H

#include "core/model/packed-bytes.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ns3
{

/**
 * \brief Counters by name, summed over the components that add to them.
 */
class CounterSet
{
public:
    /// Add value to the counter key (created at 0).
    void Add(std::string_view key, uint64_t value);
    /// Raise the counter key to value if it is below (created at 0).
    void Max(std::string_view key, uint64_t value);
    /// The counter key; 0 if nothing was added to it.
    uint64_t Get(std::string_view key) const;
    /// Add n buckets to histogram key, bucket by bucket (it grows to the longest given).
    void AddHistogram(std::string_view key, const uint64_t* buckets, std::size_t n);
    /// The histogram key; empty if nothing was added to it.
    std::vector<uint64_t> GetHistogram(std::string_view key) const;

    /// Every counter and histogram, and which counters are maxima.
    void Pack(PackedBytes& out) const;
    /// Fold in another set (Pack) as if its components had added to this one.
    void MergeFrom(PackedBytes& in);

private:
    /// The counter key, created at 0 (no string is built for a key that exists).
    uint64_t& At(std::string_view key);

    std::map<std::string, uint64_t, std::less<>> m_counters;
    std::map<std::string, std::vector<uint64_t>, std::less<>> m_histograms;
    std::set<std::string, std::less<>> m_maxima; ///< the counters Max() sets
};

} // namespace ns3

#endif /* MCAST4AI_COUNTER_SET_H */
