/*
 * Which process simulates which node when one run is spread over several (ns-3's distributed
 * simulator, one MPI rank per process): racks never split, so every host link stays inside a
 * process and only fabric links are cut.
 */
#ifndef MCAST4AI_FABRIC_PARTITION_H
#define MCAST4AI_FABRIC_PARTITION_H

#include "core/model/enum-names.h"
#include "topology/model/topology-graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief An assignment of a fabric's nodes to ranks, and what it cuts.
 *
 * Units are placed first, in node order, in contiguous blocks balanced by hosts: a *rack* is a
 * top-of-rack switch (leaf, edge, ring switch) with its hosts; a *pod* is a fat-tree pod's
 * racks, which then stay on one rank with their aggregation switches. A switch above the racks
 * goes to the rank holding more than half of its lower-tier neighbours (a pod's aggregation
 * switch), else round-robin over the ranks in node order (spines, cores), which spreads the
 * switches every rack reaches.
 *
 * The cut links are the fabric links whose ends are on two ranks: each carries its frames as
 * messages between processes, and the least delay among them is the lookahead of ns-3's
 * conservative synchronisation (each rank may run that far ahead of the others).
 */
class FabricPartition
{
public:
    /// What is never split.
    enum class Unit
    {
        AUTO, ///< POD when a fat-tree has at least as many pods as ranks, else RACK
        POD,  ///< a fat-tree pod (elsewhere the same as RACK)
        RACK, ///< a top-of-rack switch and its hosts
    };

    /// Partition graph over ranks (1 or more, and no more than the racks).
    static FabricPartition Make(const TopologyGraph& graph, uint32_t ranks, Unit unit = Unit::AUTO);

    uint32_t GetRanks() const
    {
        return m_ranks;
    }

    /// The unit Make() used (AUTO resolved).
    Unit GetUnit() const
    {
        return m_unit;
    }

    /// The rank that simulates node.
    uint32_t RankOf(uint32_t node) const
    {
        return m_rank[node];
    }

    /// Hosts and switches rank r simulates.
    uint32_t HostsOn(uint32_t r) const;
    uint32_t SwitchesOn(uint32_t r) const;

    /// A link whose two ends are on different ranks.
    struct CutLink
    {
        uint32_t a; ///< the lower node id
        uint32_t b; ///< the higher
    };

    const std::vector<CutLink>& GetCutLinks() const
    {
        return m_cut;
    }

    /// Every link of the graph, cut or not.
    uint32_t GetLinkCount() const
    {
        return m_links;
    }

private:
    uint32_t m_ranks{1};
    Unit m_unit{Unit::RACK};
    uint32_t m_hosts{0};          ///< hosts are nodes 0 .. m_hosts - 1
    std::vector<uint32_t> m_rank; ///< by node
    std::vector<CutLink> m_cut;
    uint32_t m_links{0};
};

MCAST4AI_ENUM_NAMES(FabricPartition::Unit,
                    {{FabricPartition::Unit::AUTO, "auto"},
                     {FabricPartition::Unit::POD, "pod"},
                     {FabricPartition::Unit::RACK, "rack"}});

} // namespace ns3

#endif // MCAST4AI_FABRIC_PARTITION_H
