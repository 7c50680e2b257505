/*
 * The `stragglers` section of the scenario schema: an array of entries, one variant per
 * straggler type registered in StragglerTypeRegistry, bound to ScenarioConfig::stragglers.
 */
#ifndef MCAST4AI_STRAGGLERS_SCHEMA_H
#define MCAST4AI_STRAGGLERS_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares `stragglers` into the root object of the scenario schema (after `workloads`, whose
 * labels its entries may name).
 */
class StragglersSchema
{
public:
    static void Declare(ConfigSchemaObject& root);
};

} // namespace ns3

#endif /* MCAST4AI_STRAGGLERS_SCHEMA_H */
