/*
 * Keys that several workload types declare the same way, declared once.
 */
#ifndef MCAST4AI_WORKLOAD_SCHEMA_KEYS_H
#define MCAST4AI_WORKLOAD_SCHEMA_KEYS_H

#include "core/model/config-schema-object.h"

namespace ns3
{

class WorkloadSchemaKeys
{
public:
    /// The variable the topology section derives: host indices are below it.
    static const char* const HOSTS;
    static const char* const HOST_NOTE;

    /// `ranks`: distinct host indices, every host by default. The caller adds its meaning,
    /// its binding and any further constraint.
    static ConfigSchemaKey& Ranks(ConfigSchemaObject& w);
    /// The rule end_us > start_us, for objects that declare both (end_us optional).
    static void EndAfterStart(ConfigSchemaObject& w);
    /// `iterations` of a CollectiveWorkload, `dflt` by default, bound to
    /// WorkloadConfig::iterations (0 there: the type's default). The caller adds its meaning.
    static ConfigSchemaKey& Iterations(ConfigSchemaObject& w, uint32_t dflt);
    /// `chunk_bytes` of a CollectiveWorkload, 0 (one loop) by default, bound to
    /// WorkloadConfig::chunkBytes. The caller adds its meaning.
    static ConfigSchemaKey& ChunkBytes(ConfigSchemaObject& w);
    /// The number of ranks a `ranks` key gives: its list's length, or every host.
    static std::size_t RankCount(const ConfigSchemaView& v);
    /// `compute_us` between a CollectiveWorkload's iterations, 0 by default, bound to
    /// WorkloadConfig::computeUs. The caller adds its meaning.
    static ConfigSchemaKey& ComputeUs(ConfigSchemaObject& w);
    /// `barrier` between a CollectiveWorkload's iterations, true by default, bound to
    /// WorkloadConfig::barrier. The caller adds its meaning.
    static ConfigSchemaKey& Barrier(ConfigSchemaObject& w);
};

} // namespace ns3

#endif /* MCAST4AI_WORKLOAD_SCHEMA_KEYS_H */
