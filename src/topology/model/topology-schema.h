/*
 * The `topology` section of the scenario schema: the fabric's kind, size and links. It derives
 * the variable "hosts" (the host count) that workload sections bound host indices by.
 */
#ifndef MCAST4AI_TOPOLOGY_SCHEMA_H
#define MCAST4AI_TOPOLOGY_SCHEMA_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/**
 * Declares the keys of `topology` into its object, bound to TopologyConfig (the scenario binds that
 * object; the keys sit here, next to the code they configure).
 */
class TopologySchema
{
public:
    /// Name of the derived host count variable.
    static const char* const HOSTS;
    /// Most hosts a fabric may have: a host's BFR-id and XPU ID is its index + 1 in 16 bits,
    /// and 0 is not a valid BFR-id (RFC 8279).
    static constexpr uint64_t MAX_HOSTS = 65535;
    /// Most ports a switch may have (port numbers are 16-bit in forwarding tables).
    static constexpr uint64_t MAX_PORTS = 65536;

    static void Declare(ConfigSchemaObject& section);
};

} // namespace ns3

#endif /* MCAST4AI_TOPOLOGY_SCHEMA_H */
