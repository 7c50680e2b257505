/*
 * The `workloads` section of the scenario schema: an array of entries, one variant per
 * workload type registered in WorkloadTypeRegistry, bound to ScenarioConfig::workloads.
 */
#ifndef MCAST4AI_WORKLOADS_SCHEMA_H
#define MCAST4AI_WORKLOADS_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares `workloads` into the root object of the scenario schema.
 */
class WorkloadsSchema
{
public:
    static void Declare(ConfigSchemaObject& root);
};

} // namespace ns3

#endif /* MCAST4AI_WORKLOADS_SCHEMA_H */
