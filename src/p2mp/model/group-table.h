/*
 * A switch's group table for the new protocol: group ID -> replication ports (and, at the
 * source's ToR, the receivers, which ACK aggregation needs). Capacity is finite; entries
 * remember when they were last used so the controller can evict the least recently used.
 */
#ifndef MCAST4AI_GROUP_TABLE_H
#define MCAST4AI_GROUP_TABLE_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \brief Controller-installed multicast state of one switch.
 */
class GroupTable : public Object
{
public:
    static TypeId GetTypeId();

    struct Entry
    {
        std::vector<uint16_t> ports;
        std::vector<uint32_t> receivers;
        Time lastUse;
    };

    bool IsFull() const;
    bool Contains(uint32_t groupId) const;
    void Install(uint32_t groupId, Entry entry);
    void Remove(uint32_t groupId);
    /// The entry for a data packet (refreshes its LRU time), or null if not installed.
    const Entry* Lookup(uint32_t groupId);
    /// Least recently used group among those the predicate allows evicting; false if none.
    template<typename Pred>
    bool LeastRecentlyUsed(Pred evictable, uint32_t& groupId) const
    {
        bool found = false;
        Time oldest = Time::Max();
        for (const auto& [id, e] : m_entries)
        {
            if (evictable(id)
                && (!found || e.lastUse < oldest || (e.lastUse == oldest && id < groupId)))
            {
                found = true;
                oldest = e.lastUse;
                groupId = id;
            }
        }
        return found;
    }

    uint32_t GetCapacity() const;
    uint64_t GetSize() const;
    uint64_t GetPeakSize() const;
    uint64_t GetMisses() const;

private:
    uint32_t m_capacity;
    std::unordered_map<uint32_t, Entry> m_entries;
    uint64_t m_peak{0};
    uint64_t m_misses{0};
};

} // namespace ns3

#endif /* MCAST4AI_GROUP_TABLE_H */
