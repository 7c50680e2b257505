/*
 * The collective algorithms as builders of a CollectiveSchedule. Ring and multicast steps cut
 * the buffer of S bytes into loops of N chunks (NCCL's slicing): N shards of chunk_bytes each,
 * the last loop shorter, so that successive loops pipeline through the same ring. Tree steps
 * (NCCL's double binary tree, chain and tree broadcasts) cut it into chunks that pipeline down
 * (and up) the tree.
 */
#ifndef MCAST4AI_COLLECTIVE_ALGORITHMS_H
#define MCAST4AI_COLLECTIVE_ALGORITHMS_H

#include "workload/model/collective-schedule.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \brief Ring, multicast and tree building blocks of AllReduce, AllGather, ReduceScatter and
 * Broadcast.
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

    /// A rooted tree over positions 0..N-1.
    struct Tree
    {
        uint32_t root{0};
        std::vector<uint32_t> parent;                ///< NONE at the root
        std::vector<std::vector<uint32_t>> children; ///< ascending

        /// Every position after its parent, the root first.
        std::vector<uint32_t> TopDown() const;
        /// Edges from the root to each position.
        std::vector<uint32_t> Depths() const;
        /// Edges of the longest root-to-leaf path.
        uint32_t Depth() const;
    };

    /// The chain 0 -> 1 -> ... -> N-1, rooted at 0.
    static Tree Chain(uint32_t ranks);
    /**
     * NCCL's binary tree (ncclGetBtree), rooted at 0: odd positions are leaves; an even
     * position p > 0 whose lowest set bit is b has children p - b/2 and the first of
     * p + b/2, p + b/4, ... below N; 0 has the single child 2^(ceil(log2 N) - 1). Its depth is
     * ceil(log2 N).
     */
    static Tree BinaryTree(uint32_t ranks);
    /**
     * The second tree of NCCL's double binary tree (ncclGetDtree): BinaryTree mirrored
     * (position r is N-1-r) for even N, shifted by one (position r is r-1 mod N) for odd N.
     * With an even N every rank is a leaf in one of the two trees and internal in the other.
     */
    static Tree ComplementTree(uint32_t ranks);
    /// `bytes` cut into chunks of `chunkBytes` (> 0), the last shorter.
    static std::vector<uint64_t> Chunks(uint64_t bytes, uint64_t chunkBytes);

    /**
     * AllReduce over NCCL's double binary tree: BinaryTree carries the first ceil(S/2) bytes,
     * ComplementTree the rest, each in chunks of chunkBytes (0: ceil(S/N)). Per tree and chunk,
     * a rank sends its partial sum up once the chunk has arrived from each of its children (a
     * leaf at once); the root, once it has them all, sends the sum down; every other rank
     * forwards it down once it has arrived from its parent. Chunks pipeline: 2D dependent steps
     * for trees of depth D, whatever the chunking.
     */
    static void DoubleTreeAllReduce(CollectiveSchedule& schedule,
                                    uint64_t bytes,
                                    uint64_t chunkBytes);
    /**
     * Broadcast of `bytes` from the tree's root, in chunks of chunkBytes (0: ceil(S/N)): the
     * root sends every chunk to its children at once, every other rank forwards a chunk to its
     * children once it has arrived. Over Chain this is the ring (pipelined chain) broadcast.
     */
    static void TreeBroadcast(CollectiveSchedule& schedule,
                              const Tree& tree,
                              uint64_t bytes,
                              uint64_t chunkBytes);

private:
    /// N-1 steps around the ring; at step s rank r sends shard r + shardOffset - s to r+1.
    static Frontier RingPass(CollectiveSchedule& schedule,
                             const Slicing& slicing,
                             uint32_t shardOffset,
                             const Frontier& after);
};

} // namespace ns3

#endif /* MCAST4AI_COLLECTIVE_ALGORITHMS_H */
