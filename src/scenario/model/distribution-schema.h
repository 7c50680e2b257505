/*
 * The `distribution` section of the scenario schema: how a run spread over processes (mpirun)
 * splits the fabric.
 */
#ifndef MCAST4AI_DISTRIBUTION_SCHEMA_H
#define MCAST4AI_DISTRIBUTION_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares `distribution` into a root object bound to ScenarioConfig.
 */
class DistributionSchema
{
public:
    static void Declare(ConfigSchemaObject& root);
};

} // namespace ns3

#endif /* MCAST4AI_DISTRIBUTION_SCHEMA_H */
