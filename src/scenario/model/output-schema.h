/*
 * The `output` section of the scenario schema: where results go and what is captured.
 */
#ifndef MCAST4AI_OUTPUT_SCHEMA_H
#define MCAST4AI_OUTPUT_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares `output` into a root object bound to ScenarioConfig (after its `name`).
 */
class OutputSchema
{
public:
    static void Declare(ConfigSchemaObject& root);
};

} // namespace ns3

#endif /* MCAST4AI_OUTPUT_SCHEMA_H */
