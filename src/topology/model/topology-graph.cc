#include "topology/model/topology-graph.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <limits>
#include <map>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TopologyGraph");

namespace
{

constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kMaxPorts = 65536; // port numbers are uint16_t in the next-hop sets

} // namespace

TopologyGraph
TopologyGraph::Build(const TopologyConfig& t)
{
    NS_LOG_FUNCTION(static_cast<int>(t.kind));
    TopologyGraph g;
    g.m_kind = t.kind;
    switch (t.kind)
    {
        case TopologyKind::LEAF_SPINE:
        {
            if (t.leaves == 0 || t.spines == 0 || t.hostsPerLeaf == 0)
            {
                throw std::invalid_argument(
                    "leaf-spine needs leaves, spines and hosts_per_leaf >= 1");
            }
            g.InitLeafSpines(1, t.leaves, t.spines, t.hostsPerLeaf);
        }
        break;
        case TopologyKind::FAT_TREE:
        {
            if (t.k < 2 || t.k % 2 != 0 || t.k > 2048)
            {
                throw std::invalid_argument("fat-tree needs an even k >= 2");
            }
            const uint32_t half = t.k / 2;
            const uint32_t h = t.k * half * half;
            const uint32_t edges = t.k * half; // also the number of aggregation switches
            const uint32_t cores = half * half;
            const uint32_t firstAgg = h + edges;
            const uint32_t firstCore = firstAgg + edges;
            g.Init(h, 2 * edges + cores);
            g.m_leaves = edges;
            for (uint32_t i = 0; i < edges; ++i)
            {
                g.m_tier[h + i] = 1;
                g.m_tier[firstAgg + i] = 2;
            }
            for (uint32_t c = 0; c < cores; ++c)
            {
                g.m_tier[firstCore + c] = 3;
            }
            for (uint32_t host = 0; host < h; ++host)
            {
                g.AddLink(host, h + host / half);
            }
            for (uint32_t pod = 0; pod < t.k; ++pod)
            {
                for (uint32_t e = 0; e < half; ++e)
                {
                    for (uint32_t a = 0; a < half; ++a)
                    {
                        g.AddLink(h + pod * half + e, firstAgg + pod * half + a);
                    }
                }
                // Aggregation switch j of every pod reaches core group j.
                for (uint32_t a = 0; a < half; ++a)
                {
                    for (uint32_t i = 0; i < half; ++i)
                    {
                        g.AddLink(firstAgg + pod * half + a, firstCore + a * half + i);
                    }
                }
            }
        }
        break;
        case TopologyKind::RING:
        {
            // Every ring switch is a top-of-rack switch (tier 1), linked to its two neighbours.
            if (t.leaves < 3 || t.hostsPerLeaf == 0)
            {
                throw std::invalid_argument("ring needs switches >= 3 and hosts_per_switch >= 1");
            }
            const uint64_t hosts = uint64_t{t.leaves} * t.hostsPerLeaf;
            if (hosts + t.leaves > std::numeric_limits<uint32_t>::max())
            {
                throw std::invalid_argument("ring is too large");
            }
            const uint32_t h = static_cast<uint32_t>(hosts);
            g.Init(h, t.leaves);
            g.m_leaves = t.leaves;
            for (uint32_t s = 0; s < t.leaves; ++s)
            {
                g.m_tier[h + s] = 1;
            }
            for (uint32_t host = 0; host < h; ++host)
            {
                g.AddLink(host, h + host / t.hostsPerLeaf);
            }
            for (uint32_t s = 0; s < t.leaves; ++s)
            {
                g.AddLink(h + s, h + (s + 1) % t.leaves);
            }
        }
        break;
        case TopologyKind::MULTI_PLANE:
        {
            // The XPUs' ports are the hosts, plane by plane: host p * xpus + x is XPU x's
            // port on plane p. A plane is one switch (one leaf, no spine) when the XPUs fit.
            if (t.xpus < 2 || t.planes == 0 || t.switchPorts < 2 || t.switchPorts % 2 != 0)
            {
                throw std::invalid_argument(
                    "multi-plane needs xpus >= 2, planes >= 1 and an even switch_ports");
            }
            const bool oneTier = t.xpus <= t.switchPorts;
            const uint32_t perLeaf = oneTier ? t.xpus : t.switchPorts / 2;
            if (t.xpus % perLeaf != 0 || t.xpus / perLeaf > t.switchPorts)
            {
                throw std::invalid_argument("multi-plane: xpus do not fill two-tier planes");
            }
            const uint32_t leaves = t.xpus / perLeaf;
            const uint32_t spines = oneTier ? 0 : t.switchPorts / 2;
            g.InitLeafSpines(t.planes, leaves, spines, perLeaf);
        }
        break;
        default:
            throw std::invalid_argument("unknown topology kind " + std::to_string(int(t.kind)));
    }
    g.NumberPorts();
    NS_LOG_INFO(EnumName(t.kind) << ": " << g.HostCount() << " hosts, " << g.SwitchCount()
                                 << " switches, " << boost::num_edges(g.m_graph) << " links");
    return g;
}

void
TopologyGraph::InitLeafSpines(uint32_t planes,
                              uint32_t leaves,
                              uint32_t spines,
                              uint32_t hostsPerLeaf)
{
    // Plane by plane: the hosts, then the leaves, then the spines (a leaf-spine is one plane).
    const uint64_t hosts = uint64_t{planes} * leaves * hostsPerLeaf;
    if (hosts + uint64_t{planes} * (leaves + spines) > std::numeric_limits<uint32_t>::max())
    {
        throw std::invalid_argument(std::string(EnumName(m_kind)) + " is too large");
    }
    const uint32_t h = static_cast<uint32_t>(hosts);
    const uint32_t firstSpine = h + planes * leaves;
    Init(h, planes * (leaves + spines));
    m_leaves = planes * leaves;
    m_planes = planes;
    for (uint32_t l = 0; l < planes * leaves; ++l)
    {
        m_tier[h + l] = 1;
    }
    for (uint32_t s = 0; s < planes * spines; ++s)
    {
        m_tier[firstSpine + s] = 2;
    }
    for (uint32_t host = 0; host < h; ++host)
    {
        AddLink(host, h + host / hostsPerLeaf); // a plane's leaves follow its hosts
    }
    for (uint32_t p = 0; p < planes; ++p)
    {
        for (uint32_t l = 0; l < leaves; ++l)
        {
            for (uint32_t s = 0; s < spines; ++s)
            {
                AddLink(h + p * leaves + l, firstSpine + p * spines + s);
            }
        }
    }
}

void
TopologyGraph::Init(uint32_t hosts, uint32_t switches)
{
    m_hosts = hosts;
    m_graph = Graph(hosts + switches);
    m_tier.assign(hosts + switches, 0);
}

void
TopologyGraph::AddLink(uint32_t a, uint32_t b)
{
    boost::add_edge(a, b, m_graph);
}

void
TopologyGraph::NumberPorts()
{
    const uint32_t n = NodeCount();
    // Port order key: downlinks before uplinks, then node id.
    auto before = [this](uint32_t self)
    {
        return [this, self](uint32_t x, uint32_t y)
        {
            const bool upX = m_tier[x] >= m_tier[self];
            const bool upY = m_tier[y] >= m_tier[self];
            return upX != upY ? upY : x < y;
        };
    };
    std::vector<std::vector<uint32_t>> neighbours(n);
    for (uint32_t v = 0; v < n; ++v)
    {
        auto [it, end] = boost::adjacent_vertices(v, m_graph);
        neighbours[v].assign(it, end);
        if (neighbours[v].size() > kMaxPorts)
        {
            throw std::invalid_argument("node " + NodeName(v) + " would have "
                                        + std::to_string(neighbours[v].size())
                                        + " ports; at most 65536 are supported");
        }
        std::sort(neighbours[v].begin(), neighbours[v].end(), before(v));
    }
    m_ports.assign(n, {});
    for (uint32_t v = 0; v < n; ++v)
    {
        m_ports[v].reserve(neighbours[v].size());
        for (uint32_t u : neighbours[v])
        {
            // The peer's list is sorted by the same key, so its port to v is a binary search.
            const auto& back = neighbours[u];
            const auto pos = std::lower_bound(back.begin(), back.end(), v, before(u));
            NS_ASSERT(pos != back.end() && *pos == v);
            m_ports[v].push_back(
                Port{u, static_cast<uint32_t>(pos - back.begin()), IsHost(u) || IsHost(v)});
        }
    }
}

std::vector<uint32_t>
TopologyGraph::Distances(uint32_t source) const
{
    std::vector<uint32_t> dist(NodeCount(), kUnreached);
    dist[source] = 0;
    boost::breadth_first_search(m_graph,
                                boost::vertex(source, m_graph),
                                boost::visitor(boost::make_bfs_visitor(
                                    boost::record_distances(dist.data(), boost::on_tree_edge()))));
    return dist;
}

void
TopologyGraph::ComputeRoutes()
{
    NS_LOG_FUNCTION(this);
    const uint32_t n = NodeCount();
    const uint32_t switches = SwitchCount();
    m_portSets.clear();
    m_routeIndex.assign(std::size_t{switches} * m_leaves, 0);
    m_torDistance.assign(std::size_t{switches} * m_leaves, 0);
    m_hostDownSet.assign(m_hosts, 0);

    std::map<std::vector<uint16_t>, uint32_t> ids;
    auto intern = [this, &ids](const std::vector<uint16_t>& ports)
    {
        auto it = ids.find(ports);
        if (it != ids.end())
        {
            return it->second;
        }
        const uint32_t id = static_cast<uint32_t>(m_portSets.size());
        ids.emplace(ports, id);
        m_portSets.push_back(ports);
        return id;
    };
    std::vector<uint16_t> scratch;
    intern(scratch); // id 0: the empty set

    // A host has one neighbour, its ToR, so every switch other than the ToR reaches the host
    // exactly through the ports that reach the ToR: one BFS per ToR covers all its hosts.
    for (uint32_t t = 0; t < m_leaves; ++t)
    {
        const std::vector<uint32_t> dist = Distances(m_hosts + t);
        for (uint32_t sw = m_hosts; sw < n; ++sw)
        {
            const uint32_t d = dist[sw];
            if (d == kUnreached && (!m_downLinks.empty() || m_planes > 1))
            {
                // Cut off by a failure, or in another plane: no next hop, so the switch drops
                // what it cannot route.
                const std::size_t slot = std::size_t{sw - m_hosts} * m_leaves + t;
                m_routeIndex[slot] = 0;
                m_torDistance[slot] = std::numeric_limits<uint16_t>::max();
                continue;
            }
            if (d == kUnreached || d > std::numeric_limits<uint16_t>::max())
            {
                throw std::logic_error(NodeName(sw) + " cannot reach " + NodeName(m_hosts + t));
            }
            scratch.clear();
            const std::vector<Port>& ports = m_ports[sw];
            for (std::size_t p = 0; p < ports.size() && d > 0; ++p)
            {
                // A neighbour one step nearer counts only over a link that is up.
                if (dist[ports[p].peer] + 1 == d
                    && (m_downLinks.empty() || IsLinkUp(sw, static_cast<uint32_t>(p))))
                {
                    scratch.push_back(static_cast<uint16_t>(p));
                }
            }
            const std::size_t slot = std::size_t{sw - m_hosts} * m_leaves + t;
            m_routeIndex[slot] = intern(scratch);
            m_torDistance[slot] = static_cast<uint16_t>(d);
        }
    }
    for (uint32_t host = 0; host < m_hosts; ++host)
    {
        // A host whose own link is down cannot be reached even from its ToR.
        m_hostDownSet[host]
            = IsLinkUp(host, 0) ? intern({static_cast<uint16_t>(m_ports[host][0].peerPort)}) : 0;
    }
    m_hostUpSet = intern({0});
    NS_LOG_INFO("routes: " << m_portSets.size() << " distinct next-hop sets for " << switches
                           << " switches x " << m_leaves << " ToRs");
}

void
TopologyGraph::SetLinkUp(uint32_t node, uint32_t port, bool up)
{
    NS_LOG_FUNCTION(this << node << port << up);
    NS_ASSERT_MSG(node < NodeCount() && port < m_ports[node].size(),
                  "no port " << port << " on node " << node);
    const uint32_t peer = m_ports[node][port].peer;
    const auto key = std::minmax(node, peer);
    const bool wasUp = m_downLinks.count(key) == 0;
    if (up == wasUp)
    {
        return;
    }
    if (up)
    {
        m_downLinks.erase(key);
        boost::add_edge(node, peer, m_graph);
    }
    else
    {
        m_downLinks.insert(key);
        boost::remove_edge(node, peer, m_graph);
    }
    NS_LOG_INFO("link " << NodeName(node) << "-" << NodeName(peer) << (up ? " up" : " down"));
}

bool
TopologyGraph::IsLinkUp(uint32_t node, uint32_t port) const
{
    if (m_downLinks.empty())
    {
        return true;
    }
    return m_downLinks.count(std::minmax(node, m_ports[node][port].peer)) == 0;
}

uint32_t
TopologyGraph::DownLinkCount() const
{
    return static_cast<uint32_t>(m_downLinks.size());
}

std::optional<uint32_t>
TopologyGraph::FindNode(const std::string& name) const
{
    // Names are a tier's prefix and an index within it: parse, then confirm by NodeName.
    const std::size_t digits = name.find_first_of("0123456789");
    if (digits == std::string::npos || digits == 0 || name.size() - digits > 9
        || name.find_first_not_of("0123456789", digits) != std::string::npos)
    {
        return std::nullopt;
    }
    const uint64_t index = std::stoull(name.substr(digits));
    const std::string prefix = name.substr(0, digits);
    uint64_t node = index;
    if (prefix == "leaf" || prefix == "edge" || prefix == "sw")
    {
        node = m_hosts + index;
    }
    else if (prefix == "spine" || prefix == "agg")
    {
        node = m_hosts + m_leaves + index;
    }
    else if (prefix == "core")
    {
        node = m_hosts + 2ULL * m_leaves + index;
    }
    if (node >= NodeCount() || NodeName(static_cast<uint32_t>(node)) != name)
    {
        return std::nullopt;
    }
    return static_cast<uint32_t>(node);
}

std::optional<uint32_t>
TopologyGraph::FindPort(uint32_t a, uint32_t b) const
{
    const std::vector<Port>& ports = m_ports.at(a);
    for (uint32_t p = 0; p < ports.size(); ++p)
    {
        if (ports[p].peer == b)
        {
            return p;
        }
    }
    return std::nullopt;
}

bool
TopologyGraph::HasRoutes() const
{
    return !m_portSets.empty();
}

const std::vector<uint16_t>&
TopologyGraph::NextHopPorts(uint32_t node, uint32_t dstHost) const
{
    NS_ASSERT_MSG(HasRoutes(), "ComputeRoutes() has not been called");
    NS_ASSERT_MSG(node < NodeCount() && dstHost < m_hosts, "bad node " << node << "/" << dstHost);
    if (node == dstHost)
    {
        return m_portSets[0];
    }
    if (node < m_hosts)
    {
        return m_portSets[m_hostUpSet];
    }
    const uint32_t tor = m_ports[dstHost][0].peer;
    if (node == tor)
    {
        return m_portSets[m_hostDownSet[dstHost]];
    }
    return m_portSets[m_routeIndex[std::size_t{node - m_hosts} * m_leaves + (tor - m_hosts)]];
}

uint32_t
TopologyGraph::HopCount(uint32_t a, uint32_t b) const
{
    if (a >= m_hosts || b >= m_hosts)
    {
        throw std::invalid_argument("HopCount is defined between hosts");
    }
    if (a == b)
    {
        return 0;
    }
    const uint32_t ta = LeafOf(a);
    const uint32_t tb = LeafOf(b);
    if (ta == tb)
    {
        return 2;
    }
    if (PlaneOf(a) != PlaneOf(b))
    {
        throw std::invalid_argument("HopCount: " + NodeName(a) + " and " + NodeName(b)
                                    + " are ports on different planes");
    }
    if (HasRoutes())
    {
        return 2 + m_torDistance[std::size_t{ta - m_hosts} * m_leaves + (tb - m_hosts)];
    }
    return Distances(a)[b];
}

uint32_t
TopologyGraph::MaxSwitchesOnPath() const
{
    // Host to ToR, the ToRs' distance in links, ToR to host: the switches are one more than
    // that distance. Only ToR-to-ToR distances count (a spine's distance to the only ToR of a
    // one-leaf fabric is no host's path); a ToR cut off by a failure does not count.
    uint32_t most = 0;
    for (uint32_t a = 0; a < m_leaves; ++a)
    {
        for (uint32_t b = 0; b < m_leaves; ++b)
        {
            const uint16_t d = m_torDistance[std::size_t{a} * m_leaves + b];
            most = d == std::numeric_limits<uint16_t>::max() ? most : std::max<uint32_t>(most, d);
        }
    }
    return most + 1;
}

uint32_t
TopologyGraph::DistinctPortSets() const
{
    return static_cast<uint32_t>(m_portSets.size());
}

const TopologyGraph::Graph&
TopologyGraph::GetGraph() const
{
    return m_graph;
}

uint32_t
TopologyGraph::NodeCount() const
{
    return static_cast<uint32_t>(m_tier.size());
}

uint32_t
TopologyGraph::HostCount() const
{
    return m_hosts;
}

uint32_t
TopologyGraph::SwitchCount() const
{
    return NodeCount() - m_hosts;
}

uint32_t
TopologyGraph::PlaneCount() const
{
    return m_planes;
}

uint32_t
TopologyGraph::PlaneOf(uint32_t host) const
{
    NS_ASSERT_MSG(host < m_hosts, "node " << host << " is not a host");
    return host / (m_hosts / m_planes);
}

uint32_t
TopologyGraph::LeafCount() const
{
    return m_leaves;
}

bool
TopologyGraph::IsHost(uint32_t node) const
{
    return node < m_hosts;
}

uint32_t
TopologyGraph::Tier(uint32_t node) const
{
    NS_ASSERT(node < NodeCount());
    return m_tier[node];
}

std::string
TopologyGraph::NodeName(uint32_t node) const
{
    const bool fatTree = m_kind == TopologyKind::FAT_TREE;
    switch (m_tier.at(node))
    {
        case 0:
            return "host" + std::to_string(node);
        case 1:
            if (m_kind == TopologyKind::RING)
            {
                return "sw" + std::to_string(node - m_hosts);
            }
            return (fatTree ? "edge" : "leaf") + std::to_string(node - m_hosts);
        case 2:
            return (fatTree ? "agg" : "spine") + std::to_string(node - m_hosts - m_leaves);
        default:
            return "core" + std::to_string(node - m_hosts - 2 * m_leaves);
    }
}

const std::vector<TopologyGraph::Port>&
TopologyGraph::Ports(uint32_t node) const
{
    NS_ASSERT(node < NodeCount());
    return m_ports[node];
}

uint32_t
TopologyGraph::LeafOf(uint32_t host) const
{
    NS_ASSERT_MSG(host < m_hosts, "node " << host << " is not a host");
    return m_ports[host][0].peer;
}

} // namespace ns3
