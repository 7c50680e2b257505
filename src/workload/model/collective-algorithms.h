/*
 * The collective algorithms as builders of a CollectiveSchedule. The buffer of S bytes is
 * cut into loops of N chunks (NCCL's slicing): N shards of chunk_bytes each, the last loop
 * shorter, so that successive loops pipeline through the same ring.
 */
#ifndef MCAST4AI_COLLECTIVE_ALGORITHMS_H
#define MCAST4AI_COLLECTIVE_ALGORITHMS_H

#include "workload/model/collective-schedule.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief Ring and multicast building blocks of AllReduce, AllGather and ReduceScatter.
 *
 * Ranks are positions 0..N-1; rank r's ring successor is r+1 mod N. Each builder takes a
 * Frontier: per loop and rank, the transfer that must have arrived at the rank before its
 * first send of that loop (NONE, or an empty Frontier: it sends as soon as it starts the
 * iteration); and returns the Frontier of what it built: per loop and rank, the last transfer
 * that arrives there. Chaining phases loop by loop lets loop l of the second phase start as
 * soon as loop l of the first is done at that rank.
 */
class CollectiveAlgorithms
{
public:
    static constexpr uint32_t NONE = 0xFFFFFFFF;
    using Frontier = std::vector<std::vector<uint32_t>>; ///< [loop][rank] -> transfer

    /// How S bytes are cut into loops of N shards.
    struct Slicing
    {
        uint32_t ranks{0};
        uint64_t bytes{0};
        uint64_t chunkBytes{0}; ///< per shard per loop; 0: bytes / ranks, a single loop

        uint32_t Loops() const;
        /// Bytes of shard j (0..N-1) of loop l: the loop's bytes split as evenly as possible.
        uint64_t ShardBytes(uint32_t loop, uint32_t shard) const;
    };

    /**
     * Reduce-scatter: N-1 steps; at step s rank r sends its partial sum of shard r-s to r+1,
     * which adds its own. Afterwards rank r holds the full sum of shard r+1.
     */
    static Frontier RingReduceScatter(CollectiveSchedule& schedule,
                                      const Slicing& slicing,
                                      const Frontier& after);
    /**
     * All-gather: N-1 steps; at step s rank r forwards shard owned(r)-s to r+1, where rank r
     * starts with shard r + ownedOffset (0 for a plain AllGather, 1 after a reduce-scatter).
     */
    static Frontier RingAllGather(CollectiveSchedule& schedule,
                                  const Slicing& slicing,
                                  uint32_t ownedOffset,
                                  const Frontier& after);
    /// All-gather in one step: every rank sends its shard to all others as one P2MP message.
    static Frontier MulticastAllGather(CollectiveSchedule& schedule,
                                       const Slicing& slicing,
                                       uint32_t ownedOffset,
                                       const Frontier& after);

private:
    /// N-1 steps around the ring; at step s rank r sends shard r + shardOffset - s to r+1.
    static Frontier RingPass(CollectiveSchedule& schedule,
                             const Slicing& slicing,
                             uint32_t shardOffset,
                             const Frontier& after);
};

} // namespace ns3

#endif /* MCAST4AI_COLLECTIVE_ALGORITHMS_H */
