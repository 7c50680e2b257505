#include "core/model/quad-heap-scheduler.h"

#include "core/model/prefetching-event.h"
#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/boolean.h"
#include "ns3/log.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuadHeapScheduler");
NS_OBJECT_ENSURE_REGISTERED(QuadHeapScheduler);

namespace
{
constexpr std::size_t kArity = 4;

uint32_t g_lanes = 0;
std::vector<uint32_t> g_freeLanes; // ids given back by owners that are gone
uint32_t g_nextLane = QuadHeapScheduler::NO_LANE;
bool g_nextPrefetching = false;
bool g_nextRemote = false;
uint64_t g_nextDelay = 0;
uint32_t g_nextTie = 0;
constexpr uint64_t DELAY_MAX = (uint64_t{1} << QuadHeapScheduler::DELAY_BITS) - 1;

inline bool
Earlier(const Scheduler::EventKey& a, const Scheduler::EventKey& b)
{
    return a.m_ts < b.m_ts || (a.m_ts == b.m_ts && a.m_uid < b.m_uid);
}

} // namespace

TypeId
QuadHeapScheduler::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::QuadHeapScheduler")
              .SetParent<Scheduler>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<QuadHeapScheduler>()
              .AddAttribute("CausalTies",
                            "Order the events of one timestamp by when they were scheduled, so "
                            "that events another process hands in (SetNextRemote) take the place "
                            "one process gives them; for a run spread over processes. Limits it "
                            "to 2^40 time steps and 2^31 events",
                            BooleanValue(false),
                            MakeBooleanAccessor(&QuadHeapScheduler::m_causal),
                            MakeBooleanChecker());
    return tid;
}

uint32_t
QuadHeapScheduler::NewLane()
{
    if (!g_freeLanes.empty())
    {
        uint32_t lane = g_freeLanes.back();
        g_freeLanes.pop_back();
        return lane;
    }
    return g_lanes++;
}

void
QuadHeapScheduler::ReleaseLane(uint32_t lane)
{
    g_freeLanes.push_back(lane);
}

void
QuadHeapScheduler::SetNextLane(uint32_t lane)
{
    g_nextLane = lane;
}

void
QuadHeapScheduler::SetNextPrefetching()
{
    g_nextPrefetching = true;
}

void
QuadHeapScheduler::SetNextRemote(uint64_t delay, uint32_t tie)
{
    g_nextRemote = true;
    g_nextDelay = delay;
    g_nextTie = tie;
}

QuadHeapScheduler* QuadHeapScheduler::s_current = nullptr;

QuadHeapScheduler::QuadHeapScheduler()
{
    NS_LOG_FUNCTION(this);
    m_slots.reserve(4096);
    s_current = this;
}

QuadHeapScheduler::~QuadHeapScheduler()
{
    NS_LOG_FUNCTION(this);
    std::free(m_block);
    if (s_current == this)
    {
        s_current = nullptr;
    }
}

uint64_t
QuadHeapScheduler::GetCrossTies() const
{
    return m_crossTies;
}

uint64_t
QuadHeapScheduler::CurrentCrossTies()
{
    return s_current ? s_current->GetCrossTies() : 0;
}

std::optional<std::size_t>
QuadHeapScheduler::CurrentSize()
{
    if (!s_current)
    {
        return std::nullopt;
    }
    return s_current->GetSize();
}

void
QuadHeapScheduler::Lane::Push(const Event& ev)
{
    if (count == ring.size())
    {
        std::vector<Event> grown(ring.empty() ? 16 : 2 * ring.size());
        for (std::size_t k = 0; k < count; ++k)
        {
            grown[k] = ring[(first + k) & (ring.size() - 1)];
        }
        ring.swap(grown);
        first = 0;
    }
    ring[(first + count) & (ring.size() - 1)] = ev;
    ++count;
    last = ev.key;
}

Scheduler::Event
QuadHeapScheduler::Lane::Pop()
{
    Event ev = ring[first];
    first = (first + 1) & (ring.size() - 1);
    --count;
    return ev;
}

QuadHeapScheduler::Entry
QuadHeapScheduler::MakeEntry(const EventKey& key, uint32_t slot)
{
    return (static_cast<Entry>(key.m_ts) << 64) | (static_cast<Entry>(key.m_uid) << 32) | slot;
}

Scheduler::Event
QuadHeapScheduler::ToEvent(Entry e) const
{
    const Slot& slot = m_slots[static_cast<uint32_t>(e)];
    Event ev;
    ev.impl = slot.impl;
    ev.key.m_ts = static_cast<uint64_t>(e >> 64) >> (m_causal ? DELAY_BITS : 0);
    ev.key.m_uid = static_cast<uint32_t>(e >> 32);
    ev.key.m_context = slot.context;
    return ev;
}

uint32_t
QuadHeapScheduler::NewSlot(const Event& ev, uint32_t lane)
{
    uint32_t index;
    if (!m_freeSlots.empty())
    {
        index = m_freeSlots.back();
        m_freeSlots.pop_back();
    }
    else
    {
        index = static_cast<uint32_t>(m_slots.size());
        m_slots.emplace_back();
    }
    m_slots[index] = Slot{ev.impl, ev.key.m_context, lane};
    return index;
}

void
QuadHeapScheduler::Grow()
{
    std::size_t capacity = m_capacity ? 2 * m_capacity : 4096;
    // 3 entries of padding put the children of every node on one 64-byte line; aligned_alloc
    // wants a size that is a multiple of the alignment.
    std::size_t bytes = ((capacity + 3) * sizeof(Entry) + 63) / 64 * 64;
    auto* block = static_cast<Entry*>(std::aligned_alloc(64, bytes));
    NS_ABORT_MSG_IF(!block, "QuadHeapScheduler: out of memory for " << capacity << " events");
    if (m_size > 0)
    {
        std::memcpy(block + 3, m_heap, m_size * sizeof(Entry));
    }
    std::free(m_block);
    m_block = block;
    m_heap = block + 3;
    m_capacity = capacity;
}

void
QuadHeapScheduler::SiftUp(std::size_t i, Entry e)
{
    while (i > 0)
    {
        std::size_t parent = (i - 1) / kArity;
        if (!(e < m_heap[parent]))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = e;
}

void
QuadHeapScheduler::SiftDown(std::size_t i, Entry e)
{
    const std::size_t n = m_size;
    for (;;)
    {
        std::size_t first = kArity * i + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t end = std::min(first + kArity, n);
        // The next level is one of these children's groups: ask for all four (four lines in a
        // row) while this level is compared, so that a sift waits on memory once, not once per
        // level (on a 1,024-host run the heap has gone cold between two removals). A prefetch
        // past the end is harmless.
        if (kArity * first + 1 < n)
        {
            const char* next = reinterpret_cast<const char*>(&m_heap[kArity * first + 1]);
            __builtin_prefetch(next);
            __builtin_prefetch(next + 64);
            __builtin_prefetch(next + 128);
            __builtin_prefetch(next + 192);
        }
        std::size_t best = first;
        Entry bestKey = m_heap[first];
        for (std::size_t c = first + 1; c < end; ++c)
        {
            // Select without a branch: which child is earliest is a coin toss.
            bool earlier = m_heap[c] < bestKey;
            best = earlier ? c : best;
            bestKey = earlier ? m_heap[c] : bestKey;
        }
        if (!(bestKey < e))
        {
            break;
        }
        m_heap[i] = bestKey;
        i = best;
    }
    m_heap[i] = e;
}

Scheduler::Event
QuadHeapScheduler::Encode(const Event& ev) const
{
    const bool remote = g_nextRemote;
    g_nextRemote = false;
    // Now is the time of the event the engine removed last (every ns-3 engine's m_currentTs).
    const uint64_t delay = remote ? g_nextDelay : ev.key.m_ts - m_now;
    NS_ABORT_MSG_IF(ev.key.m_ts >> (64 - DELAY_BITS),
                    "QuadHeapScheduler: CausalTies orders at most 2^40 time steps");
    NS_ABORT_MSG_IF(!remote && (ev.key.m_uid & REMOTE),
                    "QuadHeapScheduler: CausalTies orders at most 2^31 events");
    Event out = ev;
    // Longer delays first: the complement sorts them low. Past the clamp, uid order decides.
    out.key.m_ts = ev.key.m_ts << DELAY_BITS | (DELAY_MAX - std::min(delay, DELAY_MAX));
    out.key.m_uid = remote ? REMOTE | g_nextTie : ev.key.m_uid;
    return out;
}

uint32_t
QuadHeapScheduler::CurrentUid(const EventKey& key, uint64_t order)
{
    // Two events of one node at one instant scheduled at one instant, by two processes:
    // nothing tells which one process would have run first. (Events of two nodes do not touch
    // each other's state.)
    const uint32_t origin = key.m_uid & REMOTE ? 1 + ((key.m_uid & ~REMOTE) >> 24) : 0;
    if (order != m_lastOrder)
    {
        m_lastOrder = order;
        m_sameOrder.clear();
    }
    if (key.m_uid != ~0u)
    {
        // Other nodes' events of the order come between (local ones by uid, then remote ones
        // by tie key), so look at all of them, not the last only.
        bool seen = false;
        bool other = false;
        for (const auto& [context, from] : m_sameOrder)
        {
            seen = seen || (context == key.m_context && from == origin);
            other = other || (context == key.m_context && from != origin);
        }
        m_crossTies += other;
        if (!seen)
        {
            m_sameOrder.emplace_back(key.m_context, origin);
        }
    }
    if (!(key.m_uid & REMOTE))
    {
        m_lastLocalTs = key.m_ts;
        m_lastLocalUid = key.m_uid;
        return key.m_uid;
    }
    // The engine takes the running event's uid as the line between the events of its instant
    // that have run and those that have not (EventId::IsExpired: uid <= the current one). A
    // remote event runs after the local ones of its instant that came before it, which are
    // exactly those up to the last one handed out, and before every other.
    return m_lastLocalTs == key.m_ts ? m_lastLocalUid : 0;
}

void
QuadHeapScheduler::Insert(const Event& given)
{
    Event encoded;
    const Event& ev = m_causal ? (encoded = Encode(given)) : given;
    uint32_t lane = g_nextLane;
    bool prefetching = g_nextPrefetching;
    g_nextLane = NO_LANE;
    g_nextPrefetching = false;
    if (lane != NO_LANE)
    {
        if (lane >= m_lanes.size())
        {
            m_lanes.resize(lane + 1);
        }
        Lane& l = m_lanes[lane];
        if (!l.headInHeap)
        {
            l.headInHeap = true;
            l.last = ev.key;
            l.prefetching = prefetching;
        }
        else if (!Earlier(ev.key, l.last) && prefetching == l.prefetching)
        {
            l.Push(ev);
            ++m_queued;
            return;
        }
        else
        {
            // Out of the lane's order (or tagged differently): an ordinary event keeps the
            // order exact.
            lane = NO_LANE;
        }
    }
    if (m_size == m_capacity)
    {
        Grow();
    }
    ++m_size;
    SiftUp(m_size - 1, MakeEntry(ev.key, NewSlot(ev, lane | (prefetching ? PREFETCHING : 0))));
}

bool
QuadHeapScheduler::IsEmpty() const
{
    return m_size == 0;
}

Scheduler::Event
QuadHeapScheduler::PeekNext() const
{
    NS_ASSERT(m_size > 0);
    return ToEvent(m_heap[0]);
}

void
QuadHeapScheduler::RemoveAt(std::size_t i)
{
    uint32_t slot = static_cast<uint32_t>(m_heap[i]);
    uint32_t lane = m_slots[slot].lane & ~PREFETCHING;
    if (lane != NO_LANE)
    {
        Lane& l = m_lanes[lane];
        if (l.count > 0)
        {
            // The lane's next event takes over the slot; it is no earlier than the one it
            // replaces, so it can only sink.
            --m_queued;
            Event next = l.Pop();
            m_slots[slot].impl = next.impl;
            m_slots[slot].context = next.key.m_context;
            SiftDown(i, MakeEntry(next.key, slot));
            return;
        }
        l.headInHeap = false;
    }
    m_freeSlots.push_back(slot);
    Entry last = m_heap[--m_size];
    if (i == m_size)
    {
        return;
    }
    if (i > 0 && last < m_heap[(i - 1) / kArity])
    {
        SiftUp(i, last);
    }
    else
    {
        SiftDown(i, last);
    }
}

Scheduler::Event
QuadHeapScheduler::RemoveNext()
{
    NS_ASSERT(m_size > 0);
    Event next = ToEvent(m_heap[0]);
    m_now = next.key.m_ts;
    if (m_causal)
    {
        next.key.m_uid = CurrentUid(next.key, static_cast<uint64_t>(m_heap[0] >> 64));
    }
    RemoveAt(0);
    if (m_size > 0)
    {
        PrefetchAhead();
    }
    return next;
}

void
QuadHeapScheduler::PrefetchAhead() const
{
    // A two-stage pipeline. The likely next event's object was requested one event ago, so its
    // Prefetch() can read it now and ask for the lines its Notify() reads (a cable's frame, a
    // port's fields). The likely event after it is one of the top's four children: request its
    // object now, for the next round.
    const Slot& top = m_slots[static_cast<uint32_t>(m_heap[0])];
    if (top.lane & PREFETCHING)
    {
        static_cast<const PrefetchingEvent*>(top.impl)->Prefetch();
    }
    // A lane's next event replaces its head when the head runs: its ring entry is read then.
    uint32_t topLane = top.lane & ~PREFETCHING;
    if (topLane != NO_LANE)
    {
        const Lane& l = m_lanes[topLane];
        if (l.count > 0)
        {
            __builtin_prefetch(&l.ring[l.first]);
        }
    }
    std::size_t end = std::min<std::size_t>(kArity + 1, m_size);
    if (end > 1)
    {
        std::size_t best = 1;
        for (std::size_t c = 2; c < end; ++c)
        {
            best = m_heap[c] < m_heap[best] ? c : best;
        }
        const Slot& second = m_slots[static_cast<uint32_t>(m_heap[best])];
        __builtin_prefetch(second.impl);
        uint32_t lane = second.lane & ~PREFETCHING;
        if (lane != NO_LANE)
        {
            __builtin_prefetch(&m_lanes[lane]);
        }
    }
}

void
QuadHeapScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    for (std::size_t i = 0; i < m_size; ++i)
    {
        if (static_cast<uint32_t>(m_heap[i] >> 32) == ev.key.m_uid)
        {
            RemoveAt(i);
            return;
        }
    }
    // Queued behind a lane head: close the gap in that lane's ring.
    for (Lane& l : m_lanes)
    {
        std::size_t mask = l.ring.size() - 1;
        for (std::size_t k = 0; k < l.count; ++k)
        {
            if (l.ring[(l.first + k) & mask].key.m_uid != ev.key.m_uid)
            {
                continue;
            }
            for (std::size_t j = k; j + 1 < l.count; ++j)
            {
                l.ring[(l.first + j) & mask] = l.ring[(l.first + j + 1) & mask];
            }
            --l.count;
            --m_queued;
            if (k == l.count && l.count > 0)
            {
                l.last = l.ring[(l.first + l.count - 1) & mask].key;
            }
            return;
        }
    }
    NS_ASSERT_MSG(false, "QuadHeapScheduler::Remove: event " << ev.key.m_uid << " not pending");
}

std::size_t
QuadHeapScheduler::GetSize() const
{
    return m_size + m_queued;
}

std::size_t
QuadHeapScheduler::GetHeapSize() const
{
    return m_size;
}

} // namespace ns3
