/*
 * Routed topologies shared by the GoogleTest units that need one (BIFT, multicast trees).
 * Built once per process: a 1,024-host fat-tree is not free to route.
 */
#ifndef MCAST4AI_TEST_TOPOLOGIES_H
#define MCAST4AI_TEST_TOPOLOGIES_H

#include "topology/model/topology-graph.h"

namespace mcast4ai_test
{

inline ns3::TopologyGraph
LeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf)
{
    ns3::TopologyConfig t;
    t.kind = ns3::TopologyKind::LEAF_SPINE;
    t.leaves = leaves;
    t.spines = spines;
    t.hostsPerLeaf = hostsPerLeaf;
    ns3::TopologyGraph g = ns3::TopologyGraph::Build(t);
    g.ComputeRoutes();
    return g;
}

inline ns3::TopologyGraph
FatTree(uint32_t k)
{
    ns3::TopologyConfig t;
    t.kind = ns3::TopologyKind::FAT_TREE;
    t.k = k;
    ns3::TopologyGraph g = ns3::TopologyGraph::Build(t);
    g.ComputeRoutes();
    return g;
}

/// 4 x 2 x 16 leaf-spine: hosts 0..63, leaves 64..67 (ports 0..15 hosts, 16/17 spines),
/// spines 68, 69 (port l = leaf l).
inline const ns3::TopologyGraph&
Ls()
{
    static const ns3::TopologyGraph g = LeafSpine(4, 2, 16);
    return g;
}

/// Fat-tree k=16: hosts 0..1023 (8 per edge, 64 per pod), edges 1024..1151, aggregations
/// 1152..1279, cores 1280..1343. Edge/aggregation ports 0..7 down, 8..15 up; core port p = pod p.
inline const ns3::TopologyGraph&
Ft16()
{
    static const ns3::TopologyGraph g = FatTree(16);
    return g;
}

} // namespace mcast4ai_test

#endif /* MCAST4AI_TEST_TOPOLOGIES_H */
