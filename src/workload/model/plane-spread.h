/*
 * How an XPU of a multi-plane fabric spreads a collective's transfers over its ports: a
 * rewrite of the dependency graph, so that the engine that runs any graph runs it over planes.
 */
#ifndef MCAST4AI_PLANE_SPREAD_H
#define MCAST4AI_PLANE_SPREAD_H

#include "topology/model/topology-config.h"
#include "workload/model/collective-schedule.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief Rewrites a collective's graph for a fabric of several planes (topology.spread).
 *
 * stripe: every transfer of B bytes becomes P parts (B/P each, the remainder to the first;
 * fewer parts when B < P), part p on plane p, as an XPU that interleaves addresses over its
 * ports sends them. A part waits for the same plane's part of each transfer it depended on,
 * so the planes run P copies of the collective on 1/P of the data each, as a collective
 * library runs one channel per rail; local work (a reduction, an expert's compute) waits for
 * every part, and every part of what follows it waits for it.
 *
 * hash: every transfer stays whole, on the plane a hash of the seed, its source and its
 * destination (a P2MP transfer: its receiver set) picks, as flow hashing over ports does; the
 * graph keeps its edges.
 *
 * Bytes, phases and receivers are those of the graph given, so ops.csv's rows keep their
 * bytes; a step's transfer count counts parts.
 */
class PlaneSpread
{
public:
    /**
     * \param in the graph the collective's algorithm built (every transfer on plane 0)
     * \param planes the fabric's planes (>= 1; 1 returns the graph as it is)
     * \param rule the spreading rule
     * \param seed the hash rule's seed
     * \return the graph with every transfer's plane set
     */
    static CollectiveSchedule Apply(const CollectiveSchedule& in,
                                    uint32_t planes,
                                    PlaneSpreadRule rule,
                                    uint64_t seed);

    /// The plane the hash rule gives transfer tr.
    static uint32_t HashPlane(const CollectiveSchedule::Transfer& tr,
                              uint32_t planes,
                              uint64_t seed);
};

} // namespace ns3

#endif /* MCAST4AI_PLANE_SPREAD_H */
