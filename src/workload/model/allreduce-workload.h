/*
 * AllReduce: every rank ends with the sum of all ranks' buffers. ring (NCCL's ring: reduce-scatter,
 * then all-gather, 2(N-1) dependent steps), tree (NCCL's double binary tree: each tree reduces
 * half the buffer to its root and broadcasts it back, pipelined in chunks, 2D dependent steps)
 * or multicast (the reduce-scatter by ring, then the all-gather as one P2MP message per rank).
 */
#ifndef MCAST4AI_ALLREDUCE_WORKLOAD_H
#define MCAST4AI_ALLREDUCE_WORKLOAD_H

#include "workload/model/collective-workload.h"

namespace ns3
{

/**
 * \brief Workload type `allreduce`.
 */
class AllreduceWorkload : public CollectiveWorkload
{
public:
    static TypeId GetTypeId();

protected:
    CollectiveSchedule BuildSchedule(uint32_t ranks,
                                     uint64_t bytes,
                                     uint64_t chunkBytes) const override;
};

} // namespace ns3

#endif
