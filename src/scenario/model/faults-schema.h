/*
 * The `faults` section of the scenario schema: links and NICs that fail, and come back, at
 * given times.
 */
#ifndef MCAST4AI_FAULTS_SCHEMA_H
#define MCAST4AI_FAULTS_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares `faults` into a root object bound to ScenarioConfig.
 */
class FaultsSchema
{
public:
    static void Declare(ConfigSchemaObject& root);
};

} // namespace ns3

#endif /* MCAST4AI_FAULTS_SCHEMA_H */
