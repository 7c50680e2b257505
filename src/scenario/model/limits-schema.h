/*
 * The `limits` section of the scenario schema: budgets a run stops at instead of exhausting the
 * machine.
 */
#ifndef MCAST4AI_LIMITS_SCHEMA_H
#define MCAST4AI_LIMITS_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares `limits` into a root object bound to ScenarioConfig.
 */
class LimitsSchema
{
public:
    static void Declare(ConfigSchemaObject& root);
};

} // namespace ns3

#endif /* MCAST4AI_LIMITS_SCHEMA_H */
