#include "rdma/model/reorder-buffer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReorderBuffer");

ReorderBuffer::Result
ReorderBuffer::Hold(uint64_t ahead, uint32_t window, const Slot& packet)
{
    if (ahead >= window)
    {
        NS_LOG_LOGIC("PSN " << ahead << " ahead, past the window of " << window);
        return BEYOND;
    }
    while (m_slots.size() <= ahead)
    {
        // A missing PSN below this packet: a hole, first seen now.
        Slot hole;
        hole.arrival = packet.arrival;
        m_slots.push_back(std::move(hole));
    }
    Slot& s = m_slots[ahead];
    if (s.present)
    {
        NS_LOG_LOGIC("PSN " << ahead << " ahead held already: duplicate");
        return DUPLICATE;
    }
    s = packet;
    s.present = true;
    if (m_held++ == 0)
    {
        m_holeSince = packet.arrival;
    }
    return HELD;
}

uint64_t
ReorderBuffer::NextHoleToNak(Time olderThan, uint32_t maxScan)
{
    // Slot 0 is the responder's own business (the cumulative hole); from the frontier on,
    // the first missing slot first seen before olderThan, if any within maxScan slots.
    std::size_t end = std::min<std::size_t>(m_slots.size(), m_nakFrontier + maxScan);
    for (std::size_t i = std::max<std::size_t>(m_nakFrontier, 1); i < end; ++i)
    {
        const Slot& s = m_slots[i];
        if (s.present)
        {
            m_nakFrontier = i + 1;
            continue;
        }
        if (s.arrival >= olderThan)
        {
            return 0; // later holes were seen later still
        }
        m_nakFrontier = i + 1;
        NS_LOG_LOGIC("hole " << i << " ahead, first seen " << s.arrival.As(Time::US) << ": NAK it");
        return i;
    }
    return 0;
}

bool
ReorderBuffer::Advance(Slot& next)
{
    if (m_slots.empty())
    {
        return false;
    }
    m_slots.pop_front(); // the hole just filled
    m_nakFrontier = m_nakFrontier > 1 ? m_nakFrontier - 1 : 1;
    if (m_held == 0)
    {
        m_slots.clear();
        return false;
    }
    if (!m_slots.front().present)
    {
        // A new hole opens at the front: its age counts from the first packet held behind it.
        for (std::size_t i = 1; i < m_slots.size(); ++i)
        {
            if (m_slots[i].present)
            {
                m_holeSince = m_slots[i].arrival;
                break;
            }
        }
        return false;
    }
    next = m_slots.front();
    // Taken in order now: slot 0 becomes the (empty) expected PSN's slot.
    m_slots.front() = Slot();
    --m_held;
    return true;
}

} // namespace ns3
