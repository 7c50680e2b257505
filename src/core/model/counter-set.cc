#include "core/model/counter-set.h"

namespace ns3
{

uint64_t&
CounterSet::At(std::string_view key)
{
    auto it = m_counters.find(key);
    if (it == m_counters.end())
    {
        it = m_counters.emplace(std::string(key), 0).first;
    }
    return it->second;
}

void
CounterSet::Add(std::string_view key, uint64_t value)
{
    At(key) += value;
}

void
CounterSet::Max(std::string_view key, uint64_t value)
{
    uint64_t& c = At(key);
    c = c < value ? value : c;
}

uint64_t
CounterSet::Get(std::string_view key) const
{
    auto it = m_counters.find(key);
    return it == m_counters.end() ? 0 : it->second;
}

void
CounterSet::AddHistogram(std::string_view key, const uint64_t* buckets, std::size_t n)
{
    auto it = m_histograms.find(key);
    if (it == m_histograms.end())
    {
        it = m_histograms.emplace(std::string(key), std::vector<uint64_t>()).first;
    }
    std::vector<uint64_t>& h = it->second;
    if (h.size() < n)
    {
        h.resize(n, 0);
    }
    for (std::size_t b = 0; b < n; ++b)
    {
        h[b] += buckets[b];
    }
}

std::vector<uint64_t>
CounterSet::GetHistogram(std::string_view key) const
{
    auto it = m_histograms.find(key);
    return it == m_histograms.end() ? std::vector<uint64_t>() : it->second;
}

} // namespace ns3
