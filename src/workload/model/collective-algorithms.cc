#include "workload/model/collective-algorithms.h"

#include "ns3/abort.h"
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

/// Lowest set bit of p > 0.
uint32_t
LowBit(uint32_t p)
{
    return p & (~p + 1);
}

/// A tree from the parent of each position (NONE at the root).
CollectiveAlgorithms::Tree
FromParents(std::vector<uint32_t> parent)
{
    CollectiveAlgorithms::Tree t;
    t.children.assign(parent.size(), {});
    for (uint32_t p = 0; p < parent.size(); ++p)
    {
        if (parent[p] == CollectiveAlgorithms::NONE)
        {
            t.root = p;
        }
        else
        {
            t.children[parent[p]].push_back(p);
        }
    }
    t.parent = std::move(parent);
    return t;
}

/// The default chunk of the tree algorithms: the ring's shard, ceil(S/N).
uint64_t
TreeChunk(uint64_t bytes, uint32_t ranks, uint64_t chunkBytes)
{
    return chunkBytes != 0 ? chunkBytes : std::max<uint64_t>(1, (bytes + ranks - 1) / ranks);
}

/**
 * One chunk of a reduction to the tree's root followed by its broadcast back down: up
 * transfers from the leaves to the root, each waiting for its children's, then down
 * transfers from the root, each waiting for the one that brought the chunk to its source
 * (at the root: for every child's partial sum).
 */
void
ReduceBroadcastChunk(CollectiveSchedule& schedule,
                     const CollectiveAlgorithms::Tree& tree,
                     const std::vector<uint32_t>& topDown,
                     const std::vector<uint32_t>& depth,
                     uint32_t treeDepth,
                     uint64_t bytes)
{
    const uint32_t none = CollectiveAlgorithms::NONE;
    std::vector<uint32_t> up(tree.parent.size(), none);
    for (auto it = topDown.rbegin(); it != topDown.rend(); ++it)
    {
        uint32_t p = *it;
        if (p == tree.root)
        {
            continue;
        }
        up[p] = schedule.AddUnicast(p, tree.parent[p], bytes, treeDepth - depth[p]);
        for (uint32_t c : tree.children[p])
        {
            schedule.AddDependency(up[p], up[c]);
        }
    }
    std::vector<uint32_t> down(tree.parent.size(), none);
    for (uint32_t p : topDown)
    {
        for (uint32_t c : tree.children[p])
        {
            down[c] = schedule.AddUnicast(p, c, bytes, treeDepth + depth[p]);
            if (p == tree.root)
            {
                for (uint32_t o : tree.children[p])
                {
                    schedule.AddDependency(down[c], up[o]);
                }
            }
            else
            {
                schedule.AddDependency(down[c], down[p]);
            }
        }
    }
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

std::vector<uint32_t>
CollectiveAlgorithms::Tree::TopDown() const
{
    std::vector<uint32_t> order{root};
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        for (uint32_t c : children[order[i]])
        {
            order.push_back(c);
        }
    }
    return order;
}

std::vector<uint32_t>
CollectiveAlgorithms::Tree::Depths() const
{
    std::vector<uint32_t> depth(parent.size(), 0);
    for (uint32_t p : TopDown())
    {
        if (p != root)
        {
            depth[p] = depth[parent[p]] + 1;
        }
    }
    return depth;
}

uint32_t
CollectiveAlgorithms::Tree::Depth() const
{
    std::vector<uint32_t> depth = Depths();
    return *std::max_element(depth.begin(), depth.end());
}

CollectiveAlgorithms::Tree
CollectiveAlgorithms::Chain(uint32_t ranks)
{
    std::vector<uint32_t> parent(ranks, NONE);
    for (uint32_t p = 1; p < ranks; ++p)
    {
        parent[p] = p - 1;
    }
    return FromParents(std::move(parent));
}

CollectiveAlgorithms::Tree
CollectiveAlgorithms::BinaryTree(uint32_t ranks)
{
    // Position p > 0 with lowest set bit b sits between the subtrees of its children, b/2
    // below and above it; its parent is p + b when that clears a bit 2b of p and is below N,
    // p - b otherwise. The root 0 hangs the largest such subtree, at 2^(ceil(log2 N) - 1).
    std::vector<uint32_t> parent(ranks, NONE);
    for (uint32_t p = 1; p < ranks; ++p)
    {
        uint32_t b = LowBit(p);
        bool upward = (p & (b << 1)) == 0 && static_cast<uint64_t>(p) + b < ranks;
        parent[p] = upward ? p + b : p - b;
    }
    return FromParents(std::move(parent));
}

CollectiveAlgorithms::Tree
CollectiveAlgorithms::ComplementTree(uint32_t ranks)
{
    // rank(q): the rank at position q of BinaryTree; pos(r) its inverse.
    const bool mirror = ranks % 2 == 0;
    auto rank = [ranks, mirror](uint32_t q)
    {
        return mirror ? ranks - 1 - q : (q + 1) % ranks;
    };
    auto pos = [ranks, mirror](uint32_t r)
    {
        return mirror ? ranks - 1 - r : (r + ranks - 1) % ranks;
    };
    Tree first = BinaryTree(ranks);
    std::vector<uint32_t> parent(ranks, NONE);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        uint32_t up = first.parent[pos(r)];
        parent[r] = up == NONE ? NONE : rank(up);
    }
    return FromParents(std::move(parent));
}

std::vector<uint64_t>
CollectiveAlgorithms::Chunks(uint64_t bytes, uint64_t chunkBytes)
{
    NS_ABORT_MSG_IF(chunkBytes == 0, "chunks of zero bytes");
    std::vector<uint64_t> chunks;
    for (uint64_t done = 0; done < bytes; done += chunkBytes)
    {
        chunks.push_back(std::min(chunkBytes, bytes - done));
    }
    return chunks;
}

void
CollectiveAlgorithms::DoubleTreeAllReduce(CollectiveSchedule& schedule,
                                          uint64_t bytes,
                                          uint64_t chunkBytes)
{
    const uint32_t n = schedule.GetRanks();
    const uint64_t chunk = TreeChunk(bytes, n, chunkBytes);
    const Tree trees[2] = {BinaryTree(n), ComplementTree(n)};
    const std::vector<uint64_t> chunks[2]
        = {Chunks(bytes - bytes / 2, chunk), Chunks(bytes / 2, chunk)};
    std::vector<uint32_t> topDown[2];
    std::vector<uint32_t> depths[2];
    uint32_t depth[2];
    for (uint32_t t = 0; t < 2; ++t)
    {
        topDown[t] = trees[t].TopDown();
        depths[t] = trees[t].Depths();
        depth[t] = trees[t].Depth();
    }
    NS_LOG_FUNCTION(n << bytes << chunk << depth[0] << depth[1]);
    // Chunk k of both trees before chunk k+1 of either: each rank posts in pipeline order.
    for (std::size_t k = 0; k < chunks[0].size(); ++k)
    {
        for (uint32_t t = 0; t < 2; ++t)
        {
            if (k < chunks[t].size())
            {
                ReduceBroadcastChunk(
                    schedule, trees[t], topDown[t], depths[t], depth[t], chunks[t][k]);
            }
        }
    }
}

void
CollectiveAlgorithms::TreeBroadcast(CollectiveSchedule& schedule,
                                    const Tree& tree,
                                    uint64_t bytes,
                                    uint64_t chunkBytes)
{
    const uint32_t n = schedule.GetRanks();
    NS_ABORT_MSG_UNLESS(tree.parent.size() == n, "the tree does not span the ranks");
    const std::vector<uint32_t> topDown = tree.TopDown();
    const std::vector<uint32_t> depth = tree.Depths();
    for (uint64_t c : Chunks(bytes, TreeChunk(bytes, n, chunkBytes)))
    {
        // down[p]: the transfer that brings this chunk to p.
        std::vector<uint32_t> down(n, NONE);
        for (uint32_t p : topDown)
        {
            for (uint32_t child : tree.children[p])
            {
                down[child] = schedule.AddUnicast(p, child, c, depth[p]);
                if (down[p] != NONE)
                {
                    schedule.AddDependency(down[child], down[p]);
                }
            }
        }
    }
}

} // namespace ns3
