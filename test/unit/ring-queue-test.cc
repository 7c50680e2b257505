/*
 * RingQueue is the FIFO of every cable and egress queue: it must keep first-in first-out
 * order through growth and wrap-around, and destroy each element exactly once.
 */
#include "core/model/ring-queue.h"
#include "wire/model/fabric-frame.h"

#include <cstdint>
#include <deque>
#include <gtest/gtest.h>
#include <memory>
#include <random>

using namespace ns3;

TEST(RingQueue, KeepsOrderThroughGrowthAndWrapAround)
{
    RingQueue<uint64_t> q;
    std::deque<uint64_t> reference;
    std::mt19937 rng(7);
    uint64_t next = 0;
    // Random pushes and pops, biased to grow, then to drain: the ring wraps many times at
    // each capacity from 4 to 1,024.
    for (int step = 0; step < 200000; ++step)
    {
        bool push = reference.empty() || (rng() % 100) < (step < 100000 ? 55u : 45u);
        if (push)
        {
            q.push_back(uint64_t{next});
            reference.push_back(next++);
        }
        else
        {
            ASSERT_EQ(q.front(), reference.front()) << "step " << step;
            q.pop_front();
            reference.pop_front();
        }
        ASSERT_EQ(q.size(), reference.size());
        ASSERT_EQ(q.empty(), reference.empty());
        if (!reference.empty())
        {
            std::size_t i = rng() % reference.size(); // indexing counts from the front
            ASSERT_EQ(q[i], reference[i]) << "step " << step << ", index " << i;
        }
    }
}

TEST(RingQueue, DestroysEveryElementOnce)
{
    auto alive = std::make_shared<int>(0);
    {
        RingQueue<std::shared_ptr<int>> q;
        for (int i = 0; i < 37; ++i) // grows 4 -> 8 -> 16 -> 32 -> 64
        {
            q.push_back(std::shared_ptr<int>(alive));
        }
        EXPECT_EQ(alive.use_count(), 38);
        for (int i = 0; i < 5; ++i)
        {
            q.pop_front();
        }
        EXPECT_EQ(alive.use_count(), 33);
        RingQueue<std::shared_ptr<int>> moved(std::move(q));
        EXPECT_TRUE(q.empty());
        EXPECT_EQ(moved.size(), 32u);
        EXPECT_EQ(alive.use_count(), 33);
    }
    EXPECT_EQ(alive.use_count(), 1); // the queue's destructor released the rest
}

TEST(RingQueue, FramesFillWholeCacheLines)
{
    // A frame is one cache line and the storage is line-aligned, so reading a frame that has
    // gone cold costs one miss, not two.
    static_assert(sizeof(FabricFrame) == 64, "FabricFrame should be one cache line");
    RingQueue<FabricFrame> q;
    for (int i = 0; i < 13; ++i) // capacity 16, after two growths
    {
        q.push_back(FabricFrame());
    }
    while (!q.empty())
    {
        EXPECT_EQ(reinterpret_cast<uintptr_t>(&q.front()) % 64, 0u);
        q.pop_front();
    }
}

TEST(FabricFrame, MovesWithoutTouchingThePacketCount)
{
    Ptr<Packet> p = Create<Packet>(100);
    FrameInfo info;
    info.size = 100;
    FabricFrame a(p, info);
    EXPECT_EQ(p->GetReferenceCount(), 2u); // p and the frame
    FabricFrame b(std::move(a));
    EXPECT_TRUE(a.IsEmpty());
    EXPECT_EQ(p->GetReferenceCount(), 2u);
    FabricFrame c;
    c = std::move(b);
    EXPECT_EQ(p->GetReferenceCount(), 2u);
    EXPECT_EQ(c.info.size, 100u);
    {
        FabricFrame copy(c); // a copy shares the packet
        EXPECT_EQ(p->GetReferenceCount(), 3u);
    }
    EXPECT_EQ(p->GetReferenceCount(), 2u);
}
