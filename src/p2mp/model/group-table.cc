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
    entry.lastUse = Simulator::Now();
    m_entries[groupId] = std::move(entry);
    m_peak = std::max<uint64_t>(m_peak, m_entries.size());
}

void
GroupTable::Remove(uint32_t groupId)
{
    m_entries.erase(groupId);
}

const GroupTable::Entry*
GroupTable::Lookup(uint32_t groupId)
{
    auto it = m_entries.find(groupId);
    if (it == m_entries.end())
    {
        ++m_misses;
        return nullptr;
    }
    it->second.lastUse = Simulator::Now();
    return &it->second;
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
