/*
 * The fabric as a graph: node numbering, port numbering and ECMP next-hop sets, independent of
 * ns-3 objects so the builder, the forwarding tables and closed-form checks share one truth.
 */
#ifndef MCAST4AI_TOPOLOGY_GRAPH_H
#define MCAST4AI_TOPOLOGY_GRAPH_H

#include "topology/model/topology-config.h"

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * Leaf-spine, k-ary fat-tree, ring or multi-plane topology with deterministic node and port
 * numbers.
 *
 * Nodes: hosts 0..H-1 (leaf by leaf; fat-tree: pod by pod, edge switch by edge switch;
 * multi-plane: plane by plane), then leaves/edge switches (a ring's switches, a one-tier
 * plane's switch), then spines (leaf-spine, a two-tier plane) or aggregation and then core
 * switches (fat-tree). Ports of a switch: downlinks (lower-tier neighbours, ascending node
 * id), then uplinks (ascending node id). A host has a single port 0.
 */
class TopologyGraph
{
public:
    /// Undirected Boost graph; vertex descriptors are the node ids above.
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;

    /// One end of a link.
    struct Port
    {
        uint32_t peer;     ///< node at the other end
        uint32_t peerPort; ///< port number at the other end
        bool hostLink;     ///< host <-> leaf/edge link (topology.host_link), else fabric_link
    };

    /**
     * \param t a topology config (as validated by Scenario)
     * \return the graph, with ports numbered; routes are not computed yet
     * \throws std::invalid_argument if the config does not describe a buildable topology
     */
    static TopologyGraph Build(const TopologyConfig& t);

    uint32_t NodeCount() const;
    uint32_t HostCount() const;
    uint32_t SwitchCount() const;
    /// \return the number of leaf (leaf-spine) or edge (fat-tree) switches
    uint32_t LeafCount() const;
    /// \return the number of disjoint switch planes: 1 but for a multi-plane fabric, whose
    /// hosts are its XPUs' ports, plane by plane (host p * H / planes + x: XPU x on plane p)
    uint32_t PlaneCount() const;
    /// \return the plane a host (an XPU's port) is on; 0 in a fabric of one plane
    uint32_t PlaneOf(uint32_t host) const;
    bool IsHost(uint32_t node) const;
    /// \return 0 host, 1 leaf/edge, 2 spine/aggregation, 3 core
    uint32_t Tier(uint32_t node) const;
    /// \return a readable name such as "host3", "leaf1", "spine0", "edge5", "agg2", "core7",
    /// "sw4" (a ring's switch)
    std::string NodeName(uint32_t node) const;

    /// \return the ports of a node; port p connects to Ports(node)[p]
    const std::vector<Port>& Ports(uint32_t node) const;
    /// \return the host's top-of-rack (leaf or edge) switch
    uint32_t LeafOf(uint32_t host) const;

    /// Fill the ECMP next-hop tables (one BFS per destination ToR), over the links that are
    /// up. A node a failure cut off gets an empty next-hop set (its frames are unroutable).
    void ComputeRoutes();

    /**
     * Take a link out of (up = false) or back into the graph the routes are computed over: the
     * control plane's view of a failure. Port numbers never change. Call ComputeRoutes() after.
     * \param node either end of the link
     * \param port that end's port
     */
    void SetLinkUp(uint32_t node, uint32_t port, bool up);
    /// \return whether the link on this port is in the routing graph
    bool IsLinkUp(uint32_t node, uint32_t port) const;
    /// \return links taken out by SetLinkUp(..., false) and not yet restored
    uint32_t DownLinkCount() const;
    /// \return the node NodeName() calls name, if there is one
    std::optional<uint32_t> FindNode(const std::string& name) const;
    /// \return the port of node a that links it to node b, if they are neighbours
    std::optional<uint32_t> FindPort(uint32_t a, uint32_t b) const;
    bool HasRoutes() const;

    /**
     * \param node a switch (or a host: its only port, unless node == dstHost)
     * \param dstHost destination host
     * \return the ports of `node` on a shortest path to dstHost, ascending; empty if
     *         node == dstHost. Requires ComputeRoutes().
     */
    const std::vector<uint16_t>& NextHopPorts(uint32_t node, uint32_t dstHost) const;

    /// \return the number of links on a shortest path between two hosts
    uint32_t HopCount(uint32_t a, uint32_t b) const;

    /// \return the most switches a shortest path between two hosts goes through (what an
    /// in-band telemetry trace needs room for). Requires ComputeRoutes().
    uint32_t MaxSwitchesOnPath() const;

    /// \return how many distinct next-hop sets the routing tables hold (they are shared)
    uint32_t DistinctPortSets() const;

    /// \return the underlying Boost graph (for tree computations)
    const Graph& GetGraph() const;

private:
    TopologyGraph() = default;

    void Init(uint32_t hosts, uint32_t switches);
    /// Init as `planes` disjoint leaf-spines of `leaves` leaves, each with `hostsPerLeaf`
    /// hosts and a link to each of its plane's `spines` spines (a leaf-spine is one plane).
    void InitLeafSpines(uint32_t planes, uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf);
    void AddLink(uint32_t a, uint32_t b);
    void NumberPorts();
    std::vector<uint32_t> Distances(uint32_t source) const;

    TopologyKind m_kind{TopologyKind::LEAF_SPINE};
    uint32_t m_hosts{0};
    uint32_t m_leaves{0};
    uint32_t m_planes{1}; ///< disjoint planes (multi-plane): hosts cannot reach other planes
    Graph m_graph;
    std::vector<uint8_t> m_tier;
    std::vector<std::vector<Port>> m_ports;
    std::set<std::pair<uint32_t, uint32_t>> m_downLinks; ///< (lower node, higher node)

    // Routing: distinct port sets, shared by every (switch, destination) that uses them.
    std::vector<std::vector<uint16_t>> m_portSets;
    std::vector<uint32_t> m_routeIndex;  // [(switch - H) * leaves + tor - H] -> port set
    std::vector<uint32_t> m_hostDownSet; // per host: {its port on its ToR}
    uint32_t m_hostUpSet{0};             // {0}: a host's only port
    std::vector<uint16_t> m_torDistance; // [(switch - H) * leaves + tor - H] -> links
};

} // namespace ns3

#endif /* MCAST4AI_TOPOLOGY_GRAPH_H */
