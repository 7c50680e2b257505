/*
 * Workload type `chakra`: one MLCommons Chakra execution trace per rank, run on the collective
 * engine. The traces' compute nodes become the ranks' local work, their collectives the
 * engine's ring, multicast or direct steps (so multicast steps go through p2mp.mechanism), and
 * their sends and receives RDMA WRITEs, all in one graph that honours every dependency.
 */
#ifndef MCAST4AI_CHAKRA_WORKLOAD_H
#define MCAST4AI_CHAKRA_WORKLOAD_H

#include "workload/model/chakra-trace.h"
#include "workload/model/collective-workload.h"

namespace ns3
{

class ConfigSchemaObject;

/**
 * \brief Workload type `chakra`.
 *
 * One operation (ops.csv row) per iteration, from the first rank starting the trace to its last
 * node done anywhere; each collective node is a phase of it, named after the node.
 */
class ChakraWorkload : public CollectiveWorkload
{
public:
    static TypeId GetTypeId();
    /// The entry's keys: trace, ranks, algorithm, chunk_bytes, iterations, compute_us,
    /// barrier, start_us.
    static void Declare(ConfigSchemaObject& w);
    /// `algorithm` multicast on a trace without an AllReduce, AllGather or Broadcast;
    /// `chunk_bytes` on a trace without collectives.
    std::vector<Warning> GetWarnings() const override;

protected:
    void DoInstall() override;
    CollectiveSchedule BuildSchedule(uint32_t ranks,
                                     uint64_t bytes,
                                     uint64_t chunkBytes) const override;
    void DescribeOp(Metrics::OpRecord& record) const override;

private:
    /// Add collective step s of the trace; done[r][node] is set for its nodes.
    void AddCollective(CollectiveSchedule& schedule,
                       const ChakraTrace::Step& s,
                       uint64_t chunkBytes,
                       std::vector<std::vector<uint32_t>>& done) const;

    /// Collective node n over positions 0..size-1 of its group (step s's ranks).
    CollectiveSchedule BuildCollective(const ChakraTrace::Node& n,
                                       uint32_t size,
                                       uint64_t chunkBytes,
                                       const ChakraTrace::Step& s) const;
    /// Add `from`'s transfers to `into`, position p becoming rank ranks[p], with their
    /// dependencies and phase (into's current one).
    static void Append(CollectiveSchedule& into,
                       const CollectiveSchedule& from,
                       const std::vector<uint32_t>& ranks);

    ChakraTrace m_trace;
    uint64_t m_traceBytes{0}; ///< per iteration: collectives' comm_size, then sends'
};

} // namespace ns3

#endif /* MCAST4AI_CHAKRA_WORKLOAD_H */
