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
    if (m_maxima.find(key) == m_maxima.end())
    {
        m_maxima.emplace(key);
    }
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

void
CounterSet::Pack(PackedBytes& out) const
{
    out.Put<uint64_t>(m_counters.size());
    for (const auto& [key, value] : m_counters)
    {
        out.PutString(key);
        out.Put(value);
        out.Put<uint8_t>(m_maxima.count(key) > 0);
    }
    out.Put<uint64_t>(m_histograms.size());
    for (const auto& [key, buckets] : m_histograms)
    {
        out.PutString(key);
        out.Put<uint64_t>(buckets.size());
        for (uint64_t b : buckets)
        {
            out.Put(b);
        }
    }
}

void
CounterSet::MergeFrom(PackedBytes& in)
{
    const auto counters = in.Take<uint64_t>();
    for (uint64_t i = 0; i < counters; ++i)
    {
        const std::string key = in.TakeString();
        const auto value = in.Take<uint64_t>();
        if (in.Take<uint8_t>())
        {
            Max(key, value);
        }
        else
        {
            Add(key, value);
        }
    }
    const auto histograms = in.Take<uint64_t>();
    for (uint64_t i = 0; i < histograms; ++i)
    {
        const std::string key = in.TakeString();
        std::vector<uint64_t> buckets(in.Take<uint64_t>());
        for (uint64_t& b : buckets)
        {
            b = in.Take<uint64_t>();
        }
        AddHistogram(key, buckets.data(), buckets.size());
    }
}

} // namespace ns3
