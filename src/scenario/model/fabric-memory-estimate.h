/*
 * What a fabric costs in memory before any traffic, estimated from its size before it is
 * built, so that a scenario whose fabric alone would pass limits.max_rss_mb is refused up
 * front instead of after minutes of route computation. The coefficients are a least-squares
 * fit of peak RSS over ten fabrics of 16 to 4,096 hosts (docs/robustness.md, "Resource
 * budgets"), every one within 5% of it.
 */
#ifndef MCAST4AI_FABRIC_MEMORY_ESTIMATE_H
#define MCAST4AI_FABRIC_MEMORY_ESTIMATE_H

#include <cstdint>

namespace ns3
{

class TopologyGraph;

/**
 * \brief Peak resident memory of a run whose fabric carries (almost) nothing.
 */
class FabricMemoryEstimate
{
public:
    /// The process with its libraries, and one tiny flow.
    static constexpr double BASE_MB = 25.03;
    /// A host: its node, port, NIC and its cable.
    static constexpr double HOST_KB = 4.92;
    /// A switch port: its device, eight egress rings, MMU counters and headroom.
    static constexpr double SWITCH_PORT_KB = 2.25;
    /// One route, a (switch, destination host) pair: its next-hop set and the switch's pointer.
    static constexpr double ROUTE_BYTES = 10.36;
    /// The largest error of the fit over the fabrics measured: a fabric is refused only when
    /// even the estimate less this fraction is above the budget.
    static constexpr double ERROR = 0.05;

    /// Estimate from counts: hosts, switches and ports on switches.
    static double Mb(uint64_t hosts, uint64_t switches, uint64_t switchPorts);
    /// Ports on the graph's switches (its routes need not be computed).
    static uint64_t SwitchPorts(const TopologyGraph& graph);
};

} // namespace ns3

#endif /* MCAST4AI_FABRIC_MEMORY_ESTIMATE_H */
