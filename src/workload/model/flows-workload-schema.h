/*
 * The schema of workload type `flows`: point-to-point RDMA messages in an explicit list, a
 * random permutation or an incast.
 */
#ifndef MCAST4AI_FLOWS_WORKLOAD_SCHEMA_H
#define MCAST4AI_FLOWS_WORKLOAD_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares the keys of a `flows` entry of workloads[] (bound to WorkloadConfig).
 */
class FlowsWorkloadSchema
{
public:
    /// One line for the reference.
    static const char* const DOC;

    /// \param w the variant of a workloads[] entry for type 'flows'
    static void Declare(ConfigSchemaObject& w);
};

} // namespace ns3

#endif /* MCAST4AI_FLOWS_WORKLOAD_SCHEMA_H */
