#include "p2mp/model/group-table.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GroupTable");
NS_OBJECT_ENSURE_REGISTERED(GroupTable);

TypeId
GroupTable::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GroupTable")
                            .SetParent<Object>()
                            .SetGroupName("Mcast4ai")
                            .AddConstructor<GroupTable>()
                            .AddAttribute("Capacity",
                                          "Group entries the switch can hold",
                                          UintegerValue(4096),
                                          MakeUintegerAccessor(&GroupTable::m_capacity),
                                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

bool
GroupTable::IsFull() const
{
    return m_entries.size() >= m_capacity;
}

bool
GroupTable::Contains(uint32_t groupId) const
{
    return m_entries.count(groupId) != 0;
}

void
GroupTable::Install(uint32_t groupId, Entry entry)
{
    NS_LOG_FUNCTION(this << groupId << entry.ports.size());
    Remove(groupId); // a reinstall replaces the entry, busy
    entry.lastUse = Simulator::Now();
    entry.idle = false;
    m_entries[groupId] = std::move(entry);
    m_peak = std::max<uint64_t>(m_peak, m_entries.size());
}

void
GroupTable::Remove(uint32_t groupId)
{
    auto it = m_entries.find(groupId);
    if (it == m_entries.end())
    {
        return;
    }
    NS_LOG_LOGIC("group " << groupId << (it->second.idle ? " (idle)" : "") << " removed");
    if (it->second.idle)
    {
        m_idle.erase({it->second.lastUse.GetTimeStep(), groupId});
    }
    m_entries.erase(it);
}

void
GroupTable::SetIdle(uint32_t groupId, bool idle)
{
    auto it = m_entries.find(groupId);
    if (it == m_entries.end() || it->second.idle == idle)
    {
        return;
    }
    NS_LOG_LOGIC("group " << groupId << (idle ? " idle" : " busy"));
    it->second.idle = idle;
    std::pair<int64_t, uint32_t> key{it->second.lastUse.GetTimeStep(), groupId};
    if (idle)
    {
        m_idle.insert(key);
    }
    else
    {
        m_idle.erase(key);
    }
}

bool
GroupTable::LeastRecentlyUsedIdle(uint32_t& groupId) const
{
    if (m_idle.empty())
    {
        return false;
    }
    groupId = m_idle.begin()->second;
    return true;
}

const GroupTable::Entry*
GroupTable::Lookup(uint32_t groupId)
{
    auto it = m_entries.find(groupId);
    if (it == m_entries.end())
    {
        ++m_misses;
        NS_LOG_LOGIC("group " << groupId << ": miss");
        return nullptr;
    }
    Entry& e = it->second;
    Time now = Simulator::Now();
    if (e.idle && e.lastUse != now)
    {
        // A straggling copy of a finished message: keep the idle order by last use.
        m_idle.erase({e.lastUse.GetTimeStep(), groupId});
        m_idle.insert({now.GetTimeStep(), groupId});
    }
    e.lastUse = now;
    return &e;
}

uint32_t
GroupTable::GetCapacity() const
{
    return m_capacity;
}

uint64_t
GroupTable::GetSize() const
{
    return m_entries.size();
}

uint64_t
GroupTable::GetPeakSize() const
{
    return m_peak;
}

uint64_t
GroupTable::GetMisses() const
{
    return m_misses;
}

} // namespace ns3
