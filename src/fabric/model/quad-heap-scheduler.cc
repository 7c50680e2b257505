#include "fabric/model/quad-heap-scheduler.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("QuadHeapScheduler");
NS_OBJECT_ENSURE_REGISTERED(QuadHeapScheduler);

namespace
{
constexpr std::size_t kArity = 4;

uint32_t g_lanes = 0;
uint32_t g_nextLane = QuadHeapScheduler::NO_LANE;

inline bool
Earlier(const Scheduler::EventKey& a, const Scheduler::EventKey& b)
{
    return a.m_ts < b.m_ts || (a.m_ts == b.m_ts && a.m_uid < b.m_uid);
}

inline unsigned __int128
Key(const Scheduler::EventKey& k)
{
    return (static_cast<unsigned __int128>(k.m_ts) << 32) | k.m_uid;
}
} // namespace

TypeId
QuadHeapScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::QuadHeapScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<QuadHeapScheduler>();
    return tid;
}

uint32_t
QuadHeapScheduler::NewLane()
{
    return g_lanes++;
}

void
QuadHeapScheduler::SetNextLane(uint32_t lane)
{
    g_nextLane = lane;
}

QuadHeapScheduler::QuadHeapScheduler()
{
    NS_LOG_FUNCTION(this);
    m_heap.reserve(4096);
}

QuadHeapScheduler::~QuadHeapScheduler()
{
    NS_LOG_FUNCTION(this);
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

Scheduler::Event
QuadHeapScheduler::ToEvent(const Entry& e)
{
    Event ev;
    ev.impl = e.impl;
    ev.key.m_ts = static_cast<uint64_t>(e.key >> 32);
    ev.key.m_uid = static_cast<uint32_t>(e.key);
    ev.key.m_context = e.context;
    return ev;
}

void
QuadHeapScheduler::SiftUp(std::size_t i, const Entry& e)
{
    while (i > 0)
    {
        std::size_t parent = (i - 1) / kArity;
        if (!(e.key < m_heap[parent].key))
        {
            break;
        }
        m_heap[i] = m_heap[parent];
        i = parent;
    }
    m_heap[i] = e;
}

void
QuadHeapScheduler::SiftDown(std::size_t i, const Entry& e)
{
    const std::size_t n = m_heap.size();
    for (;;)
    {
        std::size_t first = kArity * i + 1;
        if (first >= n)
        {
            break;
        }
        std::size_t best = first;
        unsigned __int128 bestKey = m_heap[first].key;
        std::size_t end = std::min(first + kArity, n);
        for (std::size_t c = first + 1; c < end; ++c)
        {
            // Select without a branch: which child is earliest is a coin toss.
            bool earlier = m_heap[c].key < bestKey;
            best = earlier ? c : best;
            bestKey = earlier ? m_heap[c].key : bestKey;
        }
        if (!(bestKey < e.key))
        {
            break;
        }
        m_heap[i] = m_heap[best];
        i = best;
    }
    m_heap[i] = e;
}

void
QuadHeapScheduler::Insert(const Event& ev)
{
    uint32_t lane = g_nextLane;
    g_nextLane = NO_LANE;
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
        }
        else if (!Earlier(ev.key, l.last))
        {
            l.Push(ev);
            ++m_queued;
            return;
        }
        else
        {
            lane = NO_LANE; // out of the lane's order: an ordinary event keeps the order exact
        }
    }
    m_heap.emplace_back();
    SiftUp(m_heap.size() - 1, Entry{Key(ev.key), ev.impl, ev.key.m_context, lane});
}

bool
QuadHeapScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
QuadHeapScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    return ToEvent(m_heap.front());
}

void
QuadHeapScheduler::RemoveAt(std::size_t i)
{
    uint32_t lane = m_heap[i].lane;
    if (lane != NO_LANE)
    {
        Lane& l = m_lanes[lane];
        if (l.count > 0)
        {
            // The lane's next event is no earlier than the one it replaces: it can only sink.
            --m_queued;
            Event next = l.Pop();
            SiftDown(i, Entry{Key(next.key), next.impl, next.key.m_context, lane});
            return;
        }
        l.headInHeap = false;
    }
    Entry last = m_heap.back();
    m_heap.pop_back();
    if (i == m_heap.size())
    {
        return;
    }
    if (i > 0 && last.key < m_heap[(i - 1) / kArity].key)
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
    NS_ASSERT(!m_heap.empty());
    Event next = ToEvent(m_heap.front());
    RemoveAt(0);
    return next;
}

void
QuadHeapScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    for (std::size_t i = 0; i < m_heap.size(); ++i)
    {
        if (static_cast<uint32_t>(m_heap[i].key) == ev.key.m_uid)
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
    return m_heap.size() + m_queued;
}

std::size_t
QuadHeapScheduler::GetHeapSize() const
{
    return m_heap.size();
}

} // namespace ns3
