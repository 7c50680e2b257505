#include "p2mp/model/bift.h"

#include "core/model/mix64.h"
#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Bift");

namespace
{

inline uint32_t
LowestBit(uint64_t word)
{
    return static_cast<uint32_t>(__builtin_ctzll(word));
}

template<typename Pair>
void
SortByPort(std::vector<Pair>& out)
{
    auto byPort = [](const Pair& a, const Pair& b)
    {
        return a.first < b.first;
    };
    if (!std::is_sorted(out.begin(), out.end(), byPort))
    {
        std::sort(out.begin(), out.end(), byPort);
    }
}

} // namespace

uint16_t
Bift::ChoosePort(const std::vector<uint16_t>& ports, uint32_t node, uint32_t entropy)
{
    NS_ASSERT(!ports.empty());
    if (ports.size() == 1)
    {
        return ports[0];
    }
    const uint64_t key = (uint64_t{node} << 32) | entropy;
    const uint64_t h = Mix64(Mix64(key) ^ ports[0]);
    return ports[h % ports.size()];
}

Bift
Bift::Build(const TopologyGraph& g, uint32_t switchNode, uint32_t bslBits)
{
    NS_LOG_FUNCTION(switchNode << bslBits);
    if (!g.HasRoutes())
    {
        throw std::logic_error("Bift::Build needs TopologyGraph::ComputeRoutes() first");
    }
    if (switchNode < g.HostCount() || switchNode >= g.NodeCount())
    {
        throw std::invalid_argument("Bift::Build: node " + std::to_string(switchNode)
                                    + " is not a switch");
    }
    if (bslBits < kMinBsl || bslBits > kMaxBsl || (bslBits & (bslBits - 1)) != 0)
    {
        throw std::invalid_argument("Bift::Build: BSL " + std::to_string(bslBits)
                                    + " is not a power of two in [64, 4096]");
    }
    const uint32_t hosts = g.HostCount();
    Bift b;
    b.m_node = switchNode;
    b.m_bslBits = bslBits;
    b.m_words = bslBits / 64;
    const uint32_t sets = (hosts + bslBits - 1) / bslBits;
    b.m_entries.resize(sets);
    b.m_disjoint.assign(sets, 1);
    b.m_bitEntry.assign(std::size_t{sets} * bslBits, kNoEntry);

    for (uint32_t si = 0; si < sets; ++si)
    {
        // Group the SI's hosts by next-hop set; the map orders entries by port set.
        std::map<std::vector<uint16_t>, std::vector<uint64_t>> masks;
        const uint32_t first = si * bslBits;
        const uint32_t last = std::min(hosts, first + bslBits);
        for (uint32_t host = first; host < last; ++host)
        {
            const std::vector<uint16_t>& ports = g.NextHopPorts(switchNode, host);
            if (ports.empty())
            {
                continue; // unreachable: no entry, its bit is dropped
            }
            auto it = masks.find(ports);
            if (it == masks.end())
            {
                it = masks.emplace(ports, std::vector<uint64_t>(b.m_words, 0)).first;
            }
            const uint32_t bit = host - first;
            it->second[bit / 64] |= uint64_t{1} << (bit % 64);
        }
        std::vector<Entry>& entries = b.m_entries[si];
        entries.reserve(masks.size());
        std::vector<uint16_t> used;
        for (auto& [ports, mask] : masks)
        {
            const auto index = static_cast<uint16_t>(entries.size());
            for (uint32_t w = 0; w < b.m_words; ++w)
            {
                for (uint64_t word = mask[w]; word != 0; word &= word - 1)
                {
                    b.m_bitEntry[std::size_t{si} * bslBits + w * 64 + LowestBit(word)] = index;
                }
            }
            used.insert(used.end(), ports.begin(), ports.end());
            entries.push_back(Entry{ports, std::move(mask)});
        }
        // Disjoint sets never send two entries to one port: Replicate can skip merging.
        std::sort(used.begin(), used.end());
        b.m_disjoint[si] = std::adjacent_find(used.begin(), used.end()) == used.end();
        b.m_entryCount += entries.size();
    }
    NS_LOG_INFO(g.NodeName(switchNode)
                << " BSL " << bslBits << ": " << sets << " SIs, " << b.m_entryCount << " entries");
    return b;
}

uint32_t
Bift::SetCount() const
{
    return static_cast<uint32_t>(m_entries.size());
}

uint32_t
Bift::Words() const
{
    return m_words;
}

uint32_t
Bift::BslBits() const
{
    return m_bslBits;
}

uint32_t
Bift::Node() const
{
    return m_node;
}

const std::vector<Bift::Entry>&
Bift::Entries(uint32_t si) const
{
    if (si >= m_entries.size())
    {
        throw std::out_of_range("Bift::Entries: SI " + std::to_string(si)
                                + " >= " + std::to_string(m_entries.size()));
    }
    return m_entries[si];
}

void
Bift::Replicate(uint32_t si,
                const uint64_t* bitString,
                uint32_t entropy,
                Copies& out,
                PathChoice* spray,
                const FrameInfo* fi) const
{
    if (si >= m_entries.size())
    {
        out.clear();
        return;
    }
    std::array<uint64_t, kMaxBsl / 64> rest;
    std::copy(bitString, bitString + m_words, rest.begin());
    const std::vector<Entry>& entries = m_entries[si];
    const uint16_t* bitEntry = m_bitEntry.data() + std::size_t{si} * m_bslBits;
    const bool disjoint = m_disjoint[si] != 0;
    std::size_t n = 0;
    for (uint32_t w = 0; w < m_words; ++w)
    {
        while (rest[w] != 0)
        {
            const uint32_t bit = w * 64 + LowestBit(rest[w]);
            const uint16_t e = bitEntry[bit];
            if (e == kNoEntry)
            {
                rest[w] &= rest[w] - 1;
                continue;
            }
            const Entry& entry = entries[e];
            const uint16_t port = (spray && entry.ports.size() > 1)
                                      ? spray->Choose(*fi, entry.ports)
                                      : ChoosePort(entry.ports, m_node, entropy);
            std::size_t c = disjoint ? n : 0;
            while (c < n && out[c].first != port)
            {
                ++c;
            }
            if (c == n)
            {
                if (n == out.size())
                {
                    out.emplace_back();
                }
                out[n].first = port;
                out[n].second.assign(m_words, 0); // reuses the capacity of earlier calls
                ++n;
            }
            // Words below w are already clear in `rest`.
            std::vector<uint64_t>& copy = out[c].second;
            for (uint32_t v = w; v < m_words; ++v)
            {
                copy[v] |= rest[v] & entry.mask[v];
                rest[v] &= ~entry.mask[v];
            }
        }
    }
    out.resize(n);
    SortByPort(out);
}

void
Bift::SplitIds(const TopologyGraph& g,
               uint32_t switchNode,
               const std::vector<uint16_t>& bfrIds,
               uint32_t entropy,
               IdGroups& out,
               PathChoice* spray,
               const FrameInfo* fi)
{
    const uint32_t hosts = g.HostCount();
    std::size_t n = 0;
    std::size_t lastGroup = 0;
    for (uint16_t id : bfrIds)
    {
        if (id == 0 || id > hosts)
        {
            continue; // not a BFR-id of this fabric
        }
        const std::vector<uint16_t>& ports = g.NextHopPorts(switchNode, id - 1u);
        if (ports.empty())
        {
            continue; // switchNode is that host itself
        }
        const uint16_t port = (spray && ports.size() > 1) ? spray->Choose(*fi, ports)
                                                          : ChoosePort(ports, switchNode, entropy);
        std::size_t c = lastGroup;
        if (c >= n || out[c].first != port)
        {
            for (c = 0; c < n && out[c].first != port; ++c)
            {
            }
            if (c == n)
            {
                if (n == out.size())
                {
                    out.emplace_back();
                }
                out[n].first = port;
                out[n].second.clear();
                ++n;
            }
        }
        out[c].second.push_back(id);
        lastGroup = c;
    }
    out.resize(n);
    SortByPort(out);
}

std::size_t
Bift::EntryCount() const
{
    return m_entryCount;
}

std::size_t
Bift::Bytes() const
{
    std::size_t bytes = sizeof(*this);
    bytes += m_entries.capacity() * sizeof(std::vector<Entry>);
    for (const std::vector<Entry>& entries : m_entries)
    {
        bytes += entries.capacity() * sizeof(Entry);
        for (const Entry& e : entries)
        {
            bytes += e.ports.capacity() * sizeof(uint16_t) + e.mask.capacity() * sizeof(uint64_t);
        }
    }
    bytes += m_disjoint.capacity() + m_bitEntry.capacity() * sizeof(uint16_t);
    return bytes;
}

} // namespace ns3
