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
};

} // namespace ns3

#endif /* MCAST4AI_WORKLOAD_SCHEMA_KEYS_H */
