/*
 * ReduceScatter: every rank ends with one shard of the sum. ring (N-1 dependent steps).
 */
#ifndef MCAST4AI_REDUCESCATTER_WORKLOAD_H
#define MCAST4AI_REDUCESCATTER_WORKLOAD_H

#include "workload/model/collective-workload.h"

namespace ns3
{

/**
 * \brief Workload type `reducescatter`.
 */
class ReducescatterWorkload : public CollectiveWorkload
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
