/*
 * The `p2mp` section of the scenario schema: how one message reaches a set of receivers
 * (unicast replication, BIER, BIER with XPU-ID lists, the new protocol) and how their ACKs come
 * back.
 */
#ifndef MCAST4AI_P2MP_SCHEMA_H
#define MCAST4AI_P2MP_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares the keys of `p2mp` into its object, bound to P2mpConfig (the scenario binds that
 * object; the keys sit here, next to the code they configure).
 */
class P2mpSchema
{
public:
    static void Declare(ConfigSchemaObject& section);
};

} // namespace ns3

#endif /* MCAST4AI_P2MP_SCHEMA_H */
