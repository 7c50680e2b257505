/*
 * The `load_balancing` section of the scenario schema: how switches choose among equal-cost
 * paths.
 */
#ifndef MCAST4AI_LOAD_BALANCING_SCHEMA_H
#define MCAST4AI_LOAD_BALANCING_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares `load_balancing` into a root object bound to ScenarioConfig.
 */
class LoadBalancingSchema
{
public:
    static void Declare(ConfigSchemaObject& root);
};

} // namespace ns3

#endif /* MCAST4AI_LOAD_BALANCING_SCHEMA_H */
