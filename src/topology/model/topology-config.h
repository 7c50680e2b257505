/*
 * The shape of a fabric: its kind, its size and its two kinds of link. Plain data, filled by
 * the scenario loader or by a C++ program, read by TopologyGraph::Build.
 */
#ifndef MCAST4AI_TOPOLOGY_CONFIG_H
#define MCAST4AI_TOPOLOGY_CONFIG_H

#include <cstdint>
#include <string>

namespace ns3
{

struct LinkConfig
{
    double rateGbps{100.0};
    double delayUs{1.0};
    double lossRate{0}; ///< each frame is lost with this probability, in each direction
};

struct TopologyConfig
{
    std::string kind;   // "leaf-spine", "fat-tree" or "ring"
    uint32_t leaves{0}; ///< leaf-spine: leaves; ring: its switches (each a top-of-rack)
    uint32_t spines{0};
    uint32_t hostsPerLeaf{0}; ///< ring: hosts_per_switch
    uint32_t k{0};
    LinkConfig hostLink;
    LinkConfig fabricLink;
};

} // namespace ns3

#endif /* MCAST4AI_TOPOLOGY_CONFIG_H */
