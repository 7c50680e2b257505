/*
 * ReorderBuffer is the bitmap of a reorder-tolerant responder: whatever order the packets of a
 * PSN range arrive in, the responder must take each exactly once and in PSN order, hold no
 * more than its window, and date a hole from the first packet held behind it.
 */
#include "rdma/model/reorder-buffer.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <numeric>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/// A responder's use of the buffer: the expected PSN, what it took in order, and the outcomes.
struct Receiver
{
    uint64_t expected{0};
    std::vector<uint64_t> taken; // PSNs (as payload bytes) in the order taken
    uint64_t duplicates{0};
    uint64_t beyond{0};
    ReorderBuffer buffer;

    void Arrive(uint64_t psn, uint32_t window, Time now)
    {
        if (psn < expected)
        {
            ++duplicates;
            return;
        }
        if (psn > expected)
        {
            ReorderBuffer::Slot s;
            s.arrival = now;
            s.bytes = static_cast<uint32_t>(psn);
            switch (buffer.Hold(psn - expected, window, s))
            {
                case ReorderBuffer::DUPLICATE:
                    ++duplicates;
                    break;
                case ReorderBuffer::BEYOND:
                    ++beyond;
                    break;
                case ReorderBuffer::HELD:
                    break;
            }
            return;
        }
        taken.push_back(psn);
        ++expected;
        ReorderBuffer::Slot next;
        while (buffer.Advance(next))
        {
            taken.push_back(next.bytes);
            ++expected;
        }
    }
};

} // namespace

TEST(ReorderBuffer, TakesEveryPsnOnceInOrderWhateverTheArrivalOrder)
{
    std::mt19937 rng(11);
    for (int trial = 0; trial < 50; ++trial)
    {
        const uint64_t n = 1000;
        std::vector<uint64_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), rng);
        // Every fifth arrival repeated: a spurious retransmission.
        std::vector<uint64_t> arrivals;
        for (uint64_t i = 0; i < n; ++i)
        {
            arrivals.push_back(order[i]);
            if (i % 5 == 0)
            {
                arrivals.push_back(order[i]);
            }
        }
        Receiver r;
        for (uint64_t psn : arrivals)
        {
            r.Arrive(psn, 4096, Seconds(0));
        }
        ASSERT_EQ(r.taken.size(), n);
        for (uint64_t i = 0; i < n; ++i)
        {
            EXPECT_EQ(r.taken[i], i);
        }
        EXPECT_EQ(r.duplicates, n / 5);
        EXPECT_EQ(r.beyond, 0u);
        EXPECT_EQ(r.buffer.GetHeld(), 0u);
    }
}

TEST(ReorderBuffer, DropsPastTheWindow)
{
    Receiver r;
    // Window 4: slots 0 (the hole at PSN 0) .. 3, so PSNs 1..3 are held and 4 is beyond.
    for (uint64_t psn : {1, 2, 3, 4, 5})
    {
        r.Arrive(psn, 4, Seconds(0));
    }
    EXPECT_EQ(r.beyond, 2u);
    EXPECT_EQ(r.buffer.GetHeld(), 3u);
    r.Arrive(0, 4, Seconds(0));
    EXPECT_EQ(r.expected, 4u); // 4 and 5 were dropped: the next hole is at 4
    EXPECT_EQ(r.buffer.GetHeld(), 0u);
}

TEST(ReorderBuffer, DatesAHoleFromTheFirstPacketHeldBehindIt)
{
    Receiver r;
    r.Arrive(2, 64, MicroSeconds(10)); // holes at 0 and 1
    r.Arrive(5, 64, MicroSeconds(20)); // and at 3, 4
    EXPECT_EQ(r.buffer.GetHoleSince(), MicroSeconds(10));
    r.Arrive(0, 64, MicroSeconds(30));
    r.Arrive(1, 64, MicroSeconds(40)); // takes 1 and the held 2; the hole at 3 is next
    EXPECT_EQ(r.expected, 3u);
    EXPECT_EQ(r.buffer.GetHoleSince(), MicroSeconds(20)); // PSN 5's arrival
}
