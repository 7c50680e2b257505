/*
 * The schemas of the collective workload types `allreduce`, `allgather` and `reducescatter`:
 * the same keys (ranks, bytes, chunking, iterations, compute time), each with its algorithms.
 */
#ifndef MCAST4AI_COLLECTIVE_WORKLOAD_SCHEMA_H
#define MCAST4AI_COLLECTIVE_WORKLOAD_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares the keys of a collective entry of workloads[] (bytes, ranks, algorithm and
 * start_us bound to WorkloadConfig; the others read from its spec).
 */
class CollectiveWorkloadSchema
{
public:
    static const char* const ALLREDUCE_DOC;
    static const char* const ALLGATHER_DOC;
    static const char* const REDUCESCATTER_DOC;
    static const char* const CHECKPOINT_DOC;

    static void DeclareAllreduce(ConfigSchemaObject& w);
    static void DeclareAllgather(ConfigSchemaObject& w);
    static void DeclareReducescatter(ConfigSchemaObject& w);
    static void DeclareCheckpoint(ConfigSchemaObject& w);

    /// P2MP channels take one group QPN each from a workload's range of 4096.
    static constexpr uint32_t MAX_MULTICAST_RANKS = 4096;

private:
    static void DeclareCommon(ConfigSchemaObject& w);
};

} // namespace ns3

#endif /* MCAST4AI_COLLECTIVE_WORKLOAD_SCHEMA_H */
