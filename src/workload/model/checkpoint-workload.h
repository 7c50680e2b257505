/*
 * Checkpoint: one source (the first rank) delivers `bytes` to every other rank, in messages of
 * chunk_bytes, all posted at once: model checkpoints and weight distribution, P2MP in shape.
 * multicast: each message once, through p2mp.mechanism; unicast: a copy of each message per
 * target over RDMA WRITEs, as peer-to-peer distribution does, whatever the mechanism.
 */
#ifndef MCAST4AI_CHECKPOINT_WORKLOAD_H
#define MCAST4AI_CHECKPOINT_WORKLOAD_H

#include "workload/model/collective-workload.h"

namespace ns3
{

/**
 * \brief Workload type `checkpoint`.
 */
class CheckpointWorkload : public CollectiveWorkload
{
public:
    static TypeId GetTypeId();

protected:
    /// The source is the first rank; the others receive.
    void DescribeOp(Metrics::OpRecord& record) const override;
    CollectiveSchedule BuildSchedule(uint32_t ranks,
                                     uint64_t bytes,
                                     uint64_t chunkBytes) const override;
};

} // namespace ns3

#endif /* MCAST4AI_CHECKPOINT_WORKLOAD_H */
