/*
 * The schema of workload type `broadcast`: a root sends messages to a set of ranks through the
 * scenario's P2MP mechanism, or the ranks relay them in chunks along a chain or a tree.
 */
#ifndef MCAST4AI_BROADCAST_WORKLOAD_SCHEMA_H
#define MCAST4AI_BROADCAST_WORKLOAD_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares the keys of a `broadcast` entry of workloads[] (bound to WorkloadConfig).
 */
class BroadcastWorkloadSchema
{
public:
    /// One line for the reference.
    static const char* const DOC;

    /// \param w the variant of a workloads[] entry for type 'broadcast'
    static void Declare(ConfigSchemaObject& w);
};

} // namespace ns3

#endif /* MCAST4AI_BROADCAST_WORKLOAD_SCHEMA_H */
