#include "topology/model/multicast-tree.h"

#include "core/model/mix64.h"
#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MulticastTree");

namespace
{

constexpr uint32_t kOffTree = std::numeric_limits<uint32_t>::max();

} // namespace

uint16_t
MulticastTree::ChoosePort(const std::vector<uint16_t>& ports, uint32_t groupId, uint32_t node)
{
    NS_ASSERT(!ports.empty());
    if (ports.size() == 1)
    {
        return ports[0];
    }
    return ports[Mix64((uint64_t{groupId} << 32) | node) % ports.size()];
}

MulticastTree
MulticastTree::Compute(const TopologyGraph& g,
                       uint32_t source,
                       const std::vector<uint32_t>& receivers,
                       uint32_t groupId)
{
    NS_LOG_FUNCTION(source << receivers.size() << groupId);
    if (!g.HasRoutes())
    {
        throw std::logic_error("MulticastTree::Compute needs TopologyGraph::ComputeRoutes() first");
    }
    if (!g.IsHost(source))
    {
        throw std::invalid_argument("multicast source " + std::to_string(source)
                                    + " is not a host");
    }
    MulticastTree t;
    t.m_source = source;
    t.m_groupId = groupId;
    for (uint32_t r : receivers)
    {
        if (!g.IsHost(r))
        {
            throw std::invalid_argument("multicast receiver " + std::to_string(r)
                                        + " is not a host");
        }
        if (r != source)
        {
            t.m_receivers.push_back(r);
        }
    }
    // Sorted receivers make the tree independent of the order they were listed in.
    std::sort(t.m_receivers.begin(), t.m_receivers.end());
    t.m_receivers.erase(std::unique(t.m_receivers.begin(), t.m_receivers.end()),
                        t.m_receivers.end());

    const uint32_t nodes = g.NodeCount();
    std::vector<uint32_t> parent(nodes, kOffTree);
    parent[source] = source;
    std::vector<uint32_t> path;     // nodes of one receiver's walk, from the source
    std::vector<uint16_t> pathPort; // pathPort[i]: port of path[i] toward path[i + 1]
    for (uint32_t r : t.m_receivers)
    {
        path.assign(1, source);
        pathPort.clear();
        std::size_t graft = 0; // index in `path` of the last node already on the tree
        uint32_t node = source;
        while (node != r)
        {
            const std::vector<uint16_t>& ports = g.NextHopPorts(node, r);
            if (ports.empty() || path.size() > nodes)
            {
                throw std::logic_error(g.NodeName(r) + " is unreachable from "
                                       + g.NodeName(source));
            }
            const uint16_t port = ChoosePort(ports, groupId, node);
            node = g.Ports(node)[port].peer;
            pathPort.push_back(port);
            path.push_back(node);
            if (parent[node] != kOffTree)
            {
                graft = path.size() - 1;
            }
        }
        for (std::size_t i = graft; i + 1 < path.size(); ++i)
        {
            parent[path[i + 1]] = path[i];
            ++t.m_links;
            if (!g.IsHost(path[i]))
            {
                std::vector<uint16_t>& out = t.m_outPorts[path[i]];
                out.insert(std::lower_bound(out.begin(), out.end(), pathPort[i]), pathPort[i]);
            }
        }
    }
    NS_LOG_INFO("group " << groupId << ": " << t.m_receivers.size() << " receivers, "
                         << t.m_outPorts.size() << " switches, " << t.m_links << " links");
    return t;
}

const std::map<uint32_t, std::vector<uint16_t>>&
MulticastTree::OutPorts() const
{
    return m_outPorts;
}

std::size_t
MulticastTree::SwitchCount() const
{
    return m_outPorts.size();
}

uint32_t
MulticastTree::LinkCount() const
{
    return m_links;
}

uint32_t
MulticastTree::CopiesFromSource() const
{
    return m_receivers.empty() ? 0 : 1;
}

uint32_t
MulticastTree::Source() const
{
    return m_source;
}

uint32_t
MulticastTree::GroupId() const
{
    return m_groupId;
}

const std::vector<uint32_t>&
MulticastTree::Receivers() const
{
    return m_receivers;
}

} // namespace ns3
