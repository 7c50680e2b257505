#include "core/model/counter-set.h"

namespace ns3
{

void
CounterSet::Add(const std::string& key, uint64_t value)
{
    m_counters[key] += value;
}

void
CounterSet::Max(const std::string& key, uint64_t value)
{
    uint64_t& c = m_counters[key];
    c = c < value ? value : c;
}

uint64_t
CounterSet::Get(const std::string& key) const
{
    auto it = m_counters.find(key);
    return it == m_counters.end() ? 0 : it->second;
}

} // namespace ns3
