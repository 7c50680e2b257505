/*
 * The shape of a fabric: its kind, its size and its two kinds of link. Plain data, filled by
 * the scenario loader or by a C++ program, read by TopologyGraph::Build.
 */
#ifndef MCAST4AI_TOPOLOGY_CONFIG_H
#define MCAST4AI_TOPOLOGY_CONFIG_H

#include "core/model/enum-names.h"

#include <cstdint>
#include <string>

namespace ns3
{

/// The fabric's shape (`topology.kind`).
enum class TopologyKind : uint8_t
{
    LEAF_SPINE,
    FAT_TREE,
    RING,
    MULTI_PLANE
};

MCAST4AI_ENUM_NAMES(TopologyKind,
                    {{TopologyKind::LEAF_SPINE, "leaf-spine"},
                     {TopologyKind::FAT_TREE, "fat-tree"},
                     {TopologyKind::RING, "ring"},
                     {TopologyKind::MULTI_PLANE, "multi-plane"}});

/// How an XPU of a multi-plane fabric spreads a transfer over its planes (`topology.spread`).
enum class PlaneSpreadRule : uint8_t
{
    STRIPE, ///< every transfer in equal parts, one per plane (address interleaving)
    HASH    ///< every transfer whole, on the plane a hash of its ends picks (flow pinning)
};

MCAST4AI_ENUM_NAMES(PlaneSpreadRule,
                    {{PlaneSpreadRule::STRIPE, "stripe"}, {PlaneSpreadRule::HASH, "hash"}});

struct LinkConfig
{
    double rateGbps{100.0};
    double delayUs{1.0};
    double lossRate{0}; ///< each frame is lost with this probability, in each direction
};

struct TopologyConfig
{
    TopologyKind kind{TopologyKind::LEAF_SPINE};
    uint32_t leaves{0}; ///< leaf-spine: leaves; ring: its switches (each a top-of-rack)
    uint32_t spines{0};
    uint32_t hostsPerLeaf{0}; ///< ring: hosts_per_switch
    uint32_t k{0};
    uint32_t xpus{0};        ///< multi-plane: XPUs, each with a port into every plane
    uint32_t planes{1};      ///< multi-plane: parallel switch planes
    uint32_t switchPorts{0}; ///< multi-plane: ports of a plane's switches (one tier if xpus fit)
    PlaneSpreadRule spread{PlaneSpreadRule::STRIPE};
    LinkConfig hostLink;
    LinkConfig fabricLink;
};

} // namespace ns3

#endif /* MCAST4AI_TOPOLOGY_CONFIG_H */
