/*
 * A first-in first-out queue in one power-of-two array that grows and is then reused.
 */
#ifndef MCAST4AI_RING_QUEUE_H
#define MCAST4AI_RING_QUEUE_H

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

namespace ns3
{

/**
 * \brief FIFO of T in a ring of 64-byte-aligned storage.
 *
 * For the queues every frame passes through (cables, egress queues, control frames).
 * std::deque allocates and frees a 512-byte block every few elements and keeps its ends in
 * two 32-byte iterators; here the ends are two counters beside the pointer, the storage
 * is allocated only when the queue outgrows it, and a 64-byte element fills exactly one
 * cache line. The storage is kept at its largest size until the queue is destroyed. The first
 * allocation holds FIRST_CAPACITY elements: 1 where a million queues each hold one or two
 * (a queue pair's messages).
 */
template<typename T, uint32_t FIRST_CAPACITY = 4>
class RingQueue
{
    static_assert(FIRST_CAPACITY > 0 && (FIRST_CAPACITY & (FIRST_CAPACITY - 1)) == 0,
                  "a power of two");

public:
    RingQueue() = default;
    RingQueue(const RingQueue&) = delete;
    RingQueue& operator=(const RingQueue&) = delete;

    RingQueue(RingQueue&& o) noexcept
        : m_slots(o.m_slots),
          m_mask(o.m_mask),
          m_head(o.m_head),
          m_tail(o.m_tail)
    {
        o.m_slots = nullptr;
        o.m_mask = o.m_head = o.m_tail = 0;
    }

    RingQueue& operator=(RingQueue&& o) noexcept
    {
        if (this != &o)
        {
            this->~RingQueue();
            new (this) RingQueue(std::move(o));
        }
        return *this;
    }

    ~RingQueue()
    {
        clear();
        ::operator delete (m_slots, std::align_val_t{ALIGN});
    }

    bool empty() const
    {
        return m_head == m_tail;
    }

    std::size_t size() const
    {
        return m_tail - m_head;
    }

    T& front()
    {
        return m_slots[m_head & m_mask];
    }

    const T& front() const
    {
        return m_slots[m_head & m_mask];
    }

    /// The i-th element from the front (i < size()).
    T& operator[](std::size_t i)
    {
        return m_slots[(m_head + i) & m_mask];
    }

    const T& operator[](std::size_t i) const
    {
        return m_slots[(m_head + i) & m_mask];
    }

    void push_back(T&& value)
    {
        if (m_tail - m_head == Capacity())
        {
            Grow();
        }
        new (&m_slots[m_tail & m_mask]) T(std::move(value));
        ++m_tail;
        // The next push writes the following slot, which has gone cold since it was last
        // popped (a slot is reused once per lap of the ring); an element larger than a line
        // spans two.
        const T* next = &m_slots[m_tail & m_mask];
        __builtin_prefetch(next, 1);
        if constexpr (sizeof(T) > ALIGN)
        {
            __builtin_prefetch(reinterpret_cast<const char*>(next + 1) - 1, 1);
        }
    }

    void pop_front()
    {
        m_slots[m_head & m_mask].~T();
        ++m_head;
    }

    void clear()
    {
        while (!empty())
        {
            pop_front();
        }
    }

private:
    static constexpr std::size_t ALIGN = 64;

    uint32_t Capacity() const
    {
        return m_slots ? m_mask + 1 : 0;
    }

    void Grow()
    {
        uint32_t capacity = m_slots ? 2 * (m_mask + 1) : FIRST_CAPACITY;
        T* slots = static_cast<T*>(::operator new (capacity * sizeof(T), std::align_val_t{ALIGN}));
        uint32_t n = m_tail - m_head;
        for (uint32_t i = 0; i < n; ++i)
        {
            T& old = m_slots[(m_head + i) & m_mask];
            new (&slots[i]) T(std::move(old));
            old.~T();
        }
        ::operator delete (m_slots, std::align_val_t{ALIGN});
        m_slots = slots;
        m_mask = capacity - 1;
        m_head = 0;
        m_tail = n;
    }

    T* m_slots{nullptr};
    uint32_t m_mask{0};
    uint32_t m_head{0}; ///< counters run freely; the slot is the counter masked
    uint32_t m_tail{0};
};

} // namespace ns3

#endif /* MCAST4AI_RING_QUEUE_H */
