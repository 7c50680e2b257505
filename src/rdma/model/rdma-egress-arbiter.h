/*
 * What an RDMA NIC's port sends next: ACKs, NAKs and CNPs first, then telemetry probes (in
 * their queue pair's class), then the other copies of the P2MP packet just sent (back to back),
 * then data round robin over the queue pairs that have some. It chooses; the NIC builds and
 * encapsulates what it chose.
 */
#ifndef MCAST4AI_RDMA_EGRESS_ARBITER_H
#define MCAST4AI_RDMA_EGRESS_ARBITER_H

#include "core/model/ring-queue.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "rdma/model/queue-pair.h"
#include "wire/model/fabric-frame.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

/**
 * \brief Egress arbitration of one RDMA NIC: strict priority among frames already built,
 * round robin among queue pairs.
 */
class RdmaEgressArbiter
{
public:
    /// What Next() found.
    enum Choice : uint8_t
    {
        FRAME, ///< a built frame (control, probe or P2MP copy) goes now
        DATA,  ///< none: a queue pair's data may go (NextQp)
        NONE   ///< nothing may go: every class it could send on is paused
    };

    /// Priority class of ACKs, NAKs and CNPs.
    void SetControlPriority(uint8_t priority)
    {
        m_ctrlPriority = priority;
    }

    /// Its queue pairs send data on this class too.
    void AddDataClass(uint8_t priority)
    {
        m_dataClasses |= static_cast<uint8_t>(1u << priority);
    }

    /// Queue pair index (QpTable::IndexOf) has data to send: it joins the round robin if not
    /// in it. The ring learns indices as they come, so it needs no word of the table's.
    void Activate(uint32_t index)
    {
        if (index >= m_isActive.size())
        {
            m_isActive.resize(index + 1, false);
        }
        if (!m_isActive[index])
        {
            m_isActive[index] = true;
            m_active.push_back(index);
        }
    }

    void QueueControl(FabricFrame frame)
    {
        m_control.push_back(std::move(frame));
    }

    void QueueProbe(FabricFrame frame)
    {
        m_probes.push_back(std::move(frame));
    }

    /// The other copies of the P2MP packet just sent, in class priority, go next.
    void SetCopiesPriority(uint8_t priority)
    {
        m_copiesPriority = priority;
    }

    void QueueCopy(FabricFrame frame)
    {
        m_copies.push_back(std::move(frame));
    }

    /**
     * The strict-priority part: a frame built already that may go under pausedMask (into
     * frame), or whether data may go. hint: the control frame that will go after this one,
     * to warm up (ACKs can queue by the thousand behind a paused port), or null.
     */
    Choice Next(uint8_t pausedMask, FabricFrame& frame, const FabricFrame*& hint)
    {
        // Inline: it runs for every frame the NIC sends.
        hint = nullptr;
        if (!m_control.empty() && !(pausedMask & (1u << m_ctrlPriority)))
        {
            frame = std::move(m_control.front());
            m_control.pop_front();
            hint = m_control.empty() ? nullptr : &m_control.front();
            return FRAME;
        }
        if (!m_probes.empty() && !(pausedMask & (1u << (m_probes.front().info.dscp >> 3))))
        {
            // Telemetry probes ride their queue pair's class, to see the queues its data sees.
            frame = std::move(m_probes.front());
            m_probes.pop_front();
            return FRAME;
        }
        if ((m_dataClasses & ~pausedMask) == 0)
        {
            return NONE; // every class it sends on is paused
        }
        if (!m_copies.empty())
        {
            if (pausedMask & (1u << m_copiesPriority))
            {
                return NONE; // the rest of a P2MP packet goes first, back to back
            }
            frame = std::move(m_copies.front());
            m_copies.pop_front();
            return FRAME;
        }
        return DATA;
    }

    /**
     * The round-robin part: the next queue pair in turn that may send now (its class not
     * paused, its pacing time come), or null; earliest: when a paced one that had to wait
     * becomes ready (Time::Max if none). A queue pair found without data leaves the ring; one
     * that waits keeps its place. After building from the one returned, call Served().
     */
    QueuePair* NextQp(const std::vector<Ptr<QueuePair>>& qps,
                      uint8_t pausedMask,
                      Time now,
                      Time& earliest);
    /// Nothing queued: no frame built, no queue pair in the ring (one in it may have no data
    /// left; it leaves when NextQp finds so).
    bool IsEmpty() const
    {
        return m_control.empty() && m_probes.empty() && m_copies.empty() && m_active.empty();
    }

    /// Queue pair index sent a frame; more: it has more to send (to the back of the ring).
    void Served(uint32_t index, bool more);

    void Clear();

private:
    RingQueue<FabricFrame> m_control; // ACK/NAK/CNP; parsed as built: a paused port holds them
    RingQueue<FabricFrame> m_probes;  // telemetry probes, each in its queue pair's class
    RingQueue<FabricFrame> m_copies;  // further P2MP copies of the packet just sent
    std::deque<uint32_t> m_active;    // round-robin ring of queue pair indices with data
    std::vector<bool> m_isActive;     // by index, as far as the largest index activated
    uint8_t m_ctrlPriority{6};
    uint8_t m_copiesPriority{0};
    uint8_t m_dataClasses{0}; // priorities its queue pairs send on
};

} // namespace ns3

#endif /* MCAST4AI_RDMA_EGRESS_ARBITER_H */
