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
 * Declares the keys of `load_balancing` into its object, bound to LoadBalancingConfig (the scenario
 * binds that object; the keys sit here, next to the code they configure).
 */
class LoadBalancingSchema
{
public:
    static void Declare(ConfigSchemaObject& section);
};

} // namespace ns3

#endif /* MCAST4AI_LOAD_BALANCING_SCHEMA_H */
