#include "scenario/model/fabric-memory-estimate.h"

#include "topology/model/topology-graph.h"

namespace ns3
{

double
FabricMemoryEstimate::Mb(uint64_t hosts, uint64_t switches, uint64_t switchPorts)
{
    // Every switch holds a route to every host: the term that grows as the square of a
    // fabric's size (a k = 24 fat-tree: 720 x 3,456 routes, a quarter of its memory).
    return BASE_MB + (static_cast<double>(hosts) * HOST_KB + switchPorts * SWITCH_PORT_KB) / 1024.0
           + static_cast<double>(switches) * hosts * ROUTE_BYTES / (1024.0 * 1024.0);
}

uint64_t
FabricMemoryEstimate::SwitchPorts(const TopologyGraph& graph)
{
    uint64_t ports = 0;
    for (uint32_t n = graph.HostCount(); n < graph.NodeCount(); ++n)
    {
        ports += graph.Ports(n).size();
    }
    return ports;
}

} // namespace ns3
