/*
 * The distribution tree the new protocol's controller installs for one group: one shortest path
 * per receiver, merged so that every node has a single parent.
 */
#ifndef MCAST4AI_MULTICAST_TREE_H
#define MCAST4AI_MULTICAST_TREE_H

#include "topology/model/topology-graph.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \brief A source-rooted multicast tree over a TopologyGraph.
 *
 * Paths follow the fabric's shortest-path next-hop sets (TopologyGraph::NextHopPorts, which the
 * graph computes with Boost BFS). Where a node has several equal-cost ports, the port is picked
 * by ChoosePort(ports, groupId, node): one choice per (group, switch), so receivers that leave a
 * switch the same way share its link, and different groups spread over the fabric.
 *
 * The result is a tree even if the per-switch choice were to route two receivers into one node
 * from different parents: a receiver's path is grafted onto the tree at the LAST node of its walk
 * that is already on the tree (that node's tree depth equals its distance from the source, so
 * the receiver still gets a shortest path), and only the nodes after it are added.
 */
class MulticastTree
{
public:
    /// An empty tree (no receiver).
    MulticastTree() = default;

    /**
     * \param g a topology with routes computed
     * \param source the sending host
     * \param receivers receiving hosts; duplicates and the source itself are ignored
     * \param groupId seeds the equal-cost choices (the controller passes the source, so that
     *        all groups of one sender share their paths)
     * \return the tree
     * \throws std::invalid_argument for a non-host source or receiver; std::logic_error
     *         without routes or if a receiver is unreachable
     */
    static MulticastTree Compute(const TopologyGraph& g,
                                 uint32_t source,
                                 const std::vector<uint32_t>& receivers,
                                 uint32_t groupId);

    /**
     * The equal-cost choice: ports[Mix64(groupId << 32 | node) % ports.size()].
     * \param ports a non-empty candidate set
     * \param groupId the group
     * \param node the switch choosing
     * \return one port of the set
     */
    static uint16_t ChoosePort(const std::vector<uint16_t>& ports, uint32_t groupId, uint32_t node);

    /// \return per switch on the tree, the ports it replicates onto (ascending)
    const std::map<uint32_t, std::vector<uint16_t>>& OutPorts() const;
    /// \return the switches on the tree (= group-table entries installed)
    std::size_t SwitchCount() const;
    /// \return the links of the tree, host links included (= tree nodes - 1)
    uint32_t LinkCount() const;
    /// \return copies of each message leaving the source: 1, or 0 without receivers
    uint32_t CopiesFromSource() const;

    uint32_t Source() const;
    uint32_t GroupId() const;
    /// \return the receivers on the tree: ascending, distinct, without the source
    const std::vector<uint32_t>& Receivers() const;

private:
    uint32_t m_source{0};
    uint32_t m_groupId{0};
    uint32_t m_links{0};
    std::vector<uint32_t> m_receivers;
    std::map<uint32_t, std::vector<uint16_t>> m_outPorts;
};

} // namespace ns3

#endif /* MCAST4AI_MULTICAST_TREE_H */
