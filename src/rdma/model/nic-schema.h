/*
 * The `nic` section of the scenario schema: the RDMA NIC of every host (MTU, ACK coalescing,
 * retransmission, PFC classes) and its DCQCN reaction point, with the presets that change the
 * DCQCN defaults.
 */
#ifndef MCAST4AI_NIC_SCHEMA_H
#define MCAST4AI_NIC_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares the keys of `nic` (and `nic.dcqcn`) into its object, bound to NicConfig (the scenario
 * binds that object; the keys sit here, next to the code they configure).
 */
class NicSchema
{
public:
    static void Declare(ConfigSchemaObject& section);
};

} // namespace ns3

#endif /* MCAST4AI_NIC_SCHEMA_H */
