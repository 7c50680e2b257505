/*
 * The event set of a fabric run: a 4-ary min-heap of events in one flat array, plus FIFO lanes
 * for streams of events that are scheduled in time order (the frames on a cable).
 */
#ifndef MCAST4AI_QUAD_HEAP_SCHEDULER_H
#define MCAST4AI_QUAD_HEAP_SCHEDULER_H

#include "ns3/scheduler.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * \brief ns-3 Scheduler: a 4-ary heap ordered by (timestamp, uid), with FIFO lanes.
 *
 * Events run in the order every ns-3 scheduler gives (earliest timestamp first, ties in the
 * order they were scheduled), so swapping it for MapScheduler or HeapScheduler changes no result,
 * only speed.
 *
 * Why it is faster on a fabric: most pending events are frames in flight on cables, up to a
 * bandwidth-delay product of them per cable (about 145 ACK frames on 1 µs of 100 Gb/s).
 * A cable delivers in the order it sends, so its arrivals form a sorted stream. A channel
 * announces a stream with NewLane() and tags each arrival with SetNextLane() just before it
 * schedules it; the lane keeps them in a FIFO, and only its earliest event sits in the heap.
 * The heap then holds one entry per busy cable instead of one per frame, and an arrival costs
 * a ring-buffer push instead of a heap insertion. An event that is earlier than its lane's last
 * one (which a cable never produces) goes into the heap directly, so the order stays exact
 * whatever a caller tags.
 *
 * The heap allocates nothing once its array has grown, and four children share a cache line.
 * Remove() of an arbitrary event is a linear scan: ns-3 only calls it for Simulator::Remove, which
 * no fabric model uses (cancelled events are skipped when they come up).
 */
class QuadHeapScheduler : public Scheduler
{
public:
    static TypeId GetTypeId();

    /// Lane id of an event that belongs to no lane.
    static constexpr uint32_t NO_LANE = 0x7FFFFFFF;

    /// A lane id no other live owner holds; lanes cost nothing until used.
    static uint32_t NewLane();
    /**
     * Give a lane id back when its owner goes away, so that a process building fabric after
     * fabric (a sweep in one process, a test binary) reuses ids instead of growing every
     * scheduler's lane table. Reuse is safe even with events still queued: a lane only ever
     * holds events in order.
     */
    static void ReleaseLane(uint32_t lane);
    /// Tag the next Insert (the next event scheduled) as belonging to lane. A hint for the
    /// simulator's own thread: a tag no Insert consumes only costs a later event its lane.
    static void SetNextLane(uint32_t lane);
    /**
     * Tag the next Insert as a PrefetchingEvent. When it is the next event to run, the
     * scheduler calls its Prefetch() while handing out the event before it. The events of one
     * lane are all tagged or all untagged (a differing one goes into the heap on its own).
     */
    static void SetNextPrefetching();
    /**
     * Tag the next Insert as an event another process scheduled `delay` before its timestamp
     * (a frame from a cut cable), with tie a key of the sender's that orders such events among
     * themselves; for CausalTies only.
     */
    static void SetNextRemote(uint64_t delay, uint32_t tie);

    QuadHeapScheduler();
    ~QuadHeapScheduler() override;
    QuadHeapScheduler(const QuadHeapScheduler&) = delete;
    QuadHeapScheduler& operator=(const QuadHeapScheduler&) = delete;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// Pending events, in the heap and in lanes.
    std::size_t GetSize() const;
    /**
     * The pending events of the simulator's scheduler, if it is a QuadHeapScheduler (the
     * latest one constructed and not yet destroyed); nullopt otherwise. Lets a watchdog tell a
     * run with nothing left to happen from one that waits on a timer.
     */
    static std::optional<std::size_t> CurrentSize();
    /// Entries in the heap: events outside lanes plus one per non-empty lane.
    std::size_t GetHeapSize() const;

    /**
     * CausalTies: with the timestamp, a key's high word holds how long before it the event was
     * scheduled (DELAY_BITS, longer first, longer ones clamped), and its uid word the engine's
     * uid, or for a remote event REMOTE | its tie key. Among one process's events that is the
     * uid order; a remote event takes the place of one scheduled `delay` earlier, after the
     * local events scheduled at that instant.
     */
    static constexpr uint32_t DELAY_BITS = 24;
    static constexpr uint32_t REMOTE = 0x80000000;

    /**
     * CausalTies: events handed out after one of the same node and instant, scheduled at the
     * same instant, by another process (or it by another): pairs whose order one process could
     * have given the other way. Zero, and a run spread over processes runs one process's
     * order.
     * The stop (tie key 0x7FFFFFFF) does not count.
     */
    uint64_t GetCrossTies() const;
    /// GetCrossTies of the simulator's scheduler (as CurrentSize), 0 if there is none.
    static uint64_t CurrentCrossTies();

private:
    /// The key Insert orders ev by (CausalTies), or ev's own.
    Event Encode(const Event& ev) const;
    /// The uid RemoveNext hands the engine for the event of key, ordered by order (timestamp and
    /// delay, CausalTies): its own, or for a remote event the last local one of its instant (0
    /// if none), as EventId::IsExpired needs; counts cross-process ties.
    uint32_t CurrentUid(const EventKey& key, uint64_t order);

    /**
     * A heap entry: timestamp << 64 | uid << 32 | slot. Comparing two entries compares
     * (timestamp, uid); the slot never decides, uids being unique. Four entries fill one cache
     * line, so each level of a sift reads one line.
     */
    // A GCC/Clang extension: __extension__ keeps -Wpedantic (ns-3 warnings-as-errors) quiet.
    __extension__ typedef unsigned __int128 Entry;

    /// The rest of a pending event, found through the low 32 bits of its entry.
    struct Slot
    {
        EventImpl* impl;
        uint32_t context;
        uint32_t lane; ///< the lane this event heads, or NO_LANE; | PREFETCHING if tagged
    };
    static constexpr uint32_t PREFETCHING = 0x80000000;

    /// The events of one lane behind its head, oldest first, in a ring buffer.
    struct Lane
    {
        std::vector<Event> ring; ///< capacity a power of two (or empty)
        std::size_t first{0};    ///< index of the oldest queued event
        std::size_t count{0};    ///< events queued behind the head
        bool headInHeap{false};  ///< the lane's earliest event is in the heap
        bool prefetching{false}; ///< its events are PrefetchingEvents
        EventKey last{};         ///< key of its latest event

        void Push(const Event& ev);
        Event Pop();
    };

    static Entry MakeEntry(const EventKey& key, uint32_t slot);
    Event ToEvent(Entry e) const;
    uint32_t NewSlot(const Event& ev, uint32_t lane);
    /// Place e in the hole at index i and move it towards the root while it is earlier.
    void SiftUp(std::size_t i, Entry e);
    /// Fill the hole at index i with e, which is no earlier than the hole's parent.
    void SiftDown(std::size_t i, Entry e);
    /// Remove the heap entry at index i, letting its lane (if any) supply the next head.
    void RemoveAt(std::size_t i);
    /// Room for one more entry.
    void Grow();
    /// Hints for the events that come next: see SetNextPrefetching.
    void PrefetchAhead() const;

    // The heap: m_heap[0] is the next event; the children of i are 4i+1..4i+4. The array starts
    // 3 entries into a 64-byte aligned block, so that every group of four children is one line.
    Entry* m_block{nullptr};
    Entry* m_heap{nullptr};
    std::size_t m_size{0};
    std::size_t m_capacity{0};
    std::vector<Slot> m_slots;
    std::vector<uint32_t> m_freeSlots;
    std::vector<Lane> m_lanes;           ///< indexed by lane id, grown on first use
    static QuadHeapScheduler* s_current; ///< CurrentSize's scheduler
    std::size_t m_queued{0};             ///< events in lanes behind their heads
    bool m_causal{false};                ///< the CausalTies attribute
    uint64_t m_now{0}; ///< the timestamp of the event removed last: the simulator's now
    uint64_t m_lastLocalTs{UINT64_MAX}; ///< CausalTies: the last local event handed out ...
    uint32_t m_lastLocalUid{0};         ///< ... and its uid
    uint64_t m_lastOrder{UINT64_MAX};   ///< CausalTies: the last event's ordering word ...
    /// ... and the (node, process: 0 this one, else rank + 1) of the events handed out with it
    std::vector<std::pair<uint32_t, uint32_t>> m_sameOrder;
    uint64_t m_crossTies{0}; ///< GetCrossTies
};

} // namespace ns3

#endif // MCAST4AI_QUAD_HEAP_SCHEDULER_H
