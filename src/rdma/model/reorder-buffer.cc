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
        return BEYOND;
    }
    while (m_slots.size() <= ahead)
    {
        m_slots.push_back(Slot());
    }
    Slot& s = m_slots[ahead];
    if (s.present)
    {
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

bool
ReorderBuffer::Advance(Slot& next)
{
    if (m_slots.empty())
    {
        return false;
    }
    m_slots.pop_front(); // the hole just filled
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
