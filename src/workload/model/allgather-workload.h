/*
 * AllGather: every rank contributes bytes / N and ends with all of it. ring (N-1 dependent
 * steps) or multicast (one P2MP message per rank, no dependencies).
 */
#ifndef MCAST4AI_ALLGATHER_WORKLOAD_H
#define MCAST4AI_ALLGATHER_WORKLOAD_H

#include "workload/model/collective-workload.h"

namespace ns3
{

/**
 * \brief Workload type `allgather`.
 */
class AllgatherWorkload : public CollectiveWorkload
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
