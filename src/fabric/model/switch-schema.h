/*
 * The `switch` section of the scenario schema: the shared-buffer MMU of every switch, its PFC
 * thresholds and its ECN marking (RED) thresholds; "auto" thresholds are sized per port when
 * the fabric is built.
 */
#ifndef MCAST4AI_SWITCH_SCHEMA_H
#define MCAST4AI_SWITCH_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares the keys of `switch` (and `switch.pfc`, `switch.ecn`) into its object, bound to
 * SwitchConfig (the scenario binds that object; the keys sit here, next to the code they
 * configure).
 */
class SwitchSchema
{
public:
    static void Declare(ConfigSchemaObject& section);
};

} // namespace ns3

#endif /* MCAST4AI_SWITCH_SCHEMA_H */
