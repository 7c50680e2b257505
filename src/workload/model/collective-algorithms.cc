#include "workload/model/collective-algorithms.h"

#include "ns3/log.h"

#include <algorithm>
#include <memory>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveAlgorithms");

uint32_t
CollectiveAlgorithms::Slicing::Loops() const
{
    if (chunkBytes == 0)
    {
        return 1;
    }
    uint64_t perLoop = chunkBytes * ranks;
    return static_cast<uint32_t>((bytes + perLoop - 1) / perLoop);
}

uint64_t
CollectiveAlgorithms::Slicing::ShardBytes(uint32_t loop, uint32_t shard) const
{
    uint64_t perLoop = chunkBytes == 0 ? bytes : chunkBytes * ranks;
    uint64_t begin = perLoop * loop;
    uint64_t loopBytes = std::min(perLoop, bytes - begin);
    return loopBytes / ranks + (shard < loopBytes % ranks ? 1 : 0);
}

namespace
{
uint32_t
Mod(int64_t x, uint32_t n)
{
    int64_t m = x % static_cast<int64_t>(n);
    return static_cast<uint32_t>(m < 0 ? m + n : m);
}

/// What loop l of rank r waits for, NONE if nothing.
std::vector<uint32_t>
Start(const CollectiveAlgorithms::Frontier& after, uint32_t loop, uint32_t ranks)
{
    if (after.empty())
    {
        return std::vector<uint32_t>(ranks, CollectiveAlgorithms::NONE);
    }
    return after.at(loop);
}
} // namespace

CollectiveAlgorithms::Frontier
CollectiveAlgorithms::RingPass(CollectiveSchedule& schedule,
                               const Slicing& slicing,
                               uint32_t shardOffset,
                               const Frontier& after)
{
    const uint32_t n = slicing.ranks;
    Frontier last;
    for (uint32_t l = 0; l < slicing.Loops(); ++l)
    {
        // prev[r]: the transfer of the previous step that arrived at r.
        std::vector<uint32_t> prev = Start(after, l, n);
        for (uint32_t s = 0; s + 1 < n; ++s)
        {
            std::vector<uint32_t> sent(n);
            for (uint32_t r = 0; r < n; ++r)
            {
                uint32_t to = (r + 1) % n;
                uint32_t shard = Mod(static_cast<int64_t>(r) + shardOffset - s, n);
                sent[to] = schedule.AddUnicast(r, to, slicing.ShardBytes(l, shard), s);
                if (prev[r] != NONE)
                {
                    schedule.AddDependency(sent[to], prev[r]);
                }
            }
            prev = sent;
        }
        last.push_back(prev);
    }
    return last;
}

CollectiveAlgorithms::Frontier
CollectiveAlgorithms::RingReduceScatter(CollectiveSchedule& schedule,
                                        const Slicing& slicing,
                                        const Frontier& after)
{
    // On the wire a reduce-scatter is the same pass as an all-gather from shard r: rank r
    // sends shard r-s at step s; only what the receiver does with it (add, or keep) differs.
    return RingPass(schedule, slicing, 0, after);
}

CollectiveAlgorithms::Frontier
CollectiveAlgorithms::RingAllGather(CollectiveSchedule& schedule,
                                    const Slicing& slicing,
                                    uint32_t ownedOffset,
                                    const Frontier& after)
{
    return RingPass(schedule, slicing, ownedOffset, after);
}

CollectiveAlgorithms::Frontier
CollectiveAlgorithms::MulticastAllGather(CollectiveSchedule& schedule,
                                         const Slicing& slicing,
                                         uint32_t ownedOffset,
                                         const Frontier& after)
{
    const uint32_t n = slicing.ranks;
    std::vector<CollectiveSchedule::RankSet> others(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        std::vector<uint32_t> set;
        set.reserve(n - 1);
        for (uint32_t o = 0; o < n; ++o)
        {
            if (o != r)
            {
                set.push_back(o);
            }
        }
        others[r] = std::make_shared<const std::vector<uint32_t>>(std::move(set));
    }
    Frontier last;
    for (uint32_t l = 0; l < slicing.Loops(); ++l)
    {
        std::vector<uint32_t> wait = Start(after, l, n);
        std::vector<uint32_t> arrived(n, NONE);
        for (uint32_t r = 0; r < n; ++r)
        {
            uint32_t shard = (r + ownedOffset) % n;
            uint32_t t = schedule.AddMulticast(r, others[r], slicing.ShardBytes(l, shard), 0);
            if (wait[r] != NONE)
            {
                schedule.AddDependency(t, wait[r]);
            }
            for (uint32_t o : *others[r])
            {
                arrived[o] = t;
            }
        }
        last.push_back(arrived);
    }
    return last;
}

} // namespace ns3
