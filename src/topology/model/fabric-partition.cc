#include "topology/model/fabric-partition.h"

#include "ns3/log.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricPartition");

namespace
{

/// Union-find root of x, with path halving.
uint32_t
Root(std::vector<uint32_t>& parent, uint32_t x)
{
    while (parent[x] != x)
    {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

} // namespace

FabricPartition
FabricPartition::Make(const TopologyGraph& graph, uint32_t ranks, Unit unit)
{
    const uint32_t nodes = graph.NodeCount();
    const uint32_t hosts = graph.HostCount();
    std::vector<uint32_t> racks; // top-of-rack switches, in node order
    uint32_t maxTier = 0;
    for (uint32_t n = hosts; n < nodes; ++n)
    {
        maxTier = std::max(maxTier, graph.Tier(n));
        if (graph.Tier(n) == 1)
        {
            racks.push_back(n);
        }
    }
    if (ranks == 0 || ranks > racks.size())
    {
        throw std::invalid_argument("cannot spread " + std::to_string(racks.size()) + " racks over "
                                    + std::to_string(ranks) + " ranks");
    }
    // A fat-tree's pods: its racks and aggregation switches, linked below the cores.
    std::vector<uint32_t> parent(nodes);
    std::iota(parent.begin(), parent.end(), 0);
    if (maxTier >= 3)
    {
        for (uint32_t n = hosts; n < nodes; ++n)
        {
            for (const TopologyGraph::Port& p : graph.Ports(n))
            {
                if (graph.Tier(n) <= 2 && graph.Tier(p.peer) >= 1 && graph.Tier(p.peer) <= 2)
                {
                    parent[Root(parent, n)] = Root(parent, p.peer);
                }
            }
        }
    }
    std::map<uint32_t, uint32_t> podOfRoot; // union-find root -> pod number, in rack order
    std::vector<uint32_t> podOfRack(racks.size());
    for (std::size_t i = 0; i < racks.size(); ++i)
    {
        podOfRack[i] = podOfRoot.emplace(Root(parent, racks[i]), podOfRoot.size()).first->second;
    }
    const uint32_t pods = maxTier >= 3 ? static_cast<uint32_t>(podOfRoot.size()) : 0;
    if (unit == Unit::AUTO)
    {
        unit = pods >= ranks ? Unit::POD : Unit::RACK;
    }
    if (unit == Unit::POD && pods == 0)
    {
        unit = Unit::RACK; // no pods: a rack is the largest unit below the top tier
    }
    if (unit == Unit::POD && pods < ranks)
    {
        throw std::invalid_argument("cannot spread " + std::to_string(pods) + " pods over "
                                    + std::to_string(ranks) + " ranks");
    }

    FabricPartition part;
    part.m_ranks = ranks;
    part.m_unit = unit;
    part.m_hosts = hosts;
    part.m_rank.assign(nodes, 0);
    // Units in the order of their first rack; a unit's hosts are its racks' hosts.
    std::vector<std::vector<uint32_t>> units;
    for (std::size_t i = 0; i < racks.size(); ++i)
    {
        const uint32_t u = unit == Unit::POD ? podOfRack[i] : static_cast<uint32_t>(i);
        if (u >= units.size())
        {
            units.resize(u + 1);
        }
        units[u].push_back(racks[i]);
    }
    auto rackHosts = [&graph](uint32_t rack)
    {
        uint32_t n = 0;
        for (const TopologyGraph::Port& p : graph.Ports(rack))
        {
            n += graph.IsHost(p.peer) ? 1 : 0;
        }
        return n;
    };
    // Contiguous blocks balanced by hosts: a unit goes where the middle of its hosts falls.
    uint64_t before = 0;
    for (const std::vector<uint32_t>& u : units)
    {
        uint64_t size = 0;
        for (uint32_t rack : u)
        {
            size += rackHosts(rack);
        }
        const uint64_t middle = 2 * before + size; // twice the middle, to stay in integers
        const uint32_t r = hosts > 0 ? static_cast<uint32_t>(
                               std::min<uint64_t>(ranks - 1, middle * ranks / (2 * hosts)))
                                     : 0;
        for (uint32_t rack : u)
        {
            part.m_rank[rack] = r;
        }
        before += size;
    }
    for (uint32_t h = 0; h < hosts; ++h)
    {
        part.m_rank[h] = part.m_rank[graph.LeafOf(h)];
    }
    // The tiers above, lowest first.
    for (uint32_t tier = 2; tier <= maxTier; ++tier)
    {
        uint32_t next = 0; // round-robin among the switches of this tier without a majority
        for (uint32_t n = hosts; n < nodes; ++n)
        {
            if (graph.Tier(n) != tier)
            {
                continue;
            }
            std::vector<uint32_t> below(ranks, 0);
            uint32_t total = 0;
            for (const TopologyGraph::Port& p : graph.Ports(n))
            {
                if (graph.Tier(p.peer) < tier)
                {
                    ++below[part.m_rank[p.peer]];
                    ++total;
                }
            }
            auto most = std::max_element(below.begin(), below.end());
            if (2 * *most > total)
            {
                part.m_rank[n] = static_cast<uint32_t>(most - below.begin());
            }
            else
            {
                part.m_rank[n] = next++ % ranks;
            }
        }
    }
    for (uint32_t n = 0; n < nodes; ++n)
    {
        for (const TopologyGraph::Port& p : graph.Ports(n))
        {
            if (p.peer < n)
            {
                continue;
            }
            ++part.m_links;
            if (part.m_rank[n] != part.m_rank[p.peer])
            {
                part.m_cut.push_back(CutLink{n, p.peer});
            }
        }
    }
    NS_LOG_INFO(ranks << " ranks by " << EnumName(unit) << ": " << part.m_cut.size() << " of "
                      << part.m_links << " links cut");
    return part;
}

uint32_t
FabricPartition::HostsOn(uint32_t r) const
{
    uint32_t n = 0;
    for (std::size_t node = 0; node < m_rank.size(); ++node)
    {
        n += m_rank[node] == r && node < m_hosts ? 1 : 0;
    }
    return n;
}

uint32_t
FabricPartition::SwitchesOn(uint32_t r) const
{
    uint32_t n = 0;
    for (std::size_t node = m_hosts; node < m_rank.size(); ++node)
    {
        n += m_rank[node] == r ? 1 : 0;
    }
    return n;
}

} // namespace ns3
