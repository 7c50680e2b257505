/*
 * A switch's group table for the new protocol: group ID -> replication ports (and, at the
 * source's ToR, the receivers, which ACK aggregation needs). Capacity is finite; entries
 * remember when they were last used so the controller can evict the least recently used.
 */
#ifndef MCAST4AI_GROUP_TABLE_H
#define MCAST4AI_GROUP_TABLE_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <set>
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
        bool idle{false};
    };

    bool IsFull() const;
    bool Contains(uint32_t groupId) const;
    void Install(uint32_t groupId, Entry entry);
    void Remove(uint32_t groupId);
    /// The entry for a data packet (refreshes its LRU time), or null if not installed.
    const Entry* Lookup(uint32_t groupId);
    /**
     * Mark an entry as idle (its group has no message in flight and is not being installed:
     * it may be evicted) or busy. The controller, which knows the groups, keeps this current.
     */
    void SetIdle(uint32_t groupId, bool idle);
    /// The idle entry used least recently (ties: the lowest group id); false if none is idle.
    bool LeastRecentlyUsedIdle(uint32_t& groupId) const;
    uint32_t GetCapacity() const;
    uint64_t GetSize() const;
    uint64_t GetPeakSize() const;
    uint64_t GetMisses() const;

private:
    uint32_t m_capacity;
    std::unordered_map<uint32_t, Entry> m_entries;
    // The idle entries by (last use, id): eviction takes the first. A full table with
    // thousands of busy groups then answers "nothing to evict" at once, instead of scanning
    // every entry for each request (a 1,024-rank MoE layer makes 131,072 of them at once).
    std::set<std::pair<int64_t, uint32_t>> m_idle;
    uint64_t m_peak{0};
    uint64_t m_misses{0};
};

} // namespace ns3

#endif /* MCAST4AI_GROUP_TABLE_H */
