/*
 * Keys that several straggler types declare the same way, declared once.
 */
#ifndef MCAST4AI_STRAGGLER_SCHEMA_KEYS_H
#define MCAST4AI_STRAGGLER_SCHEMA_KEYS_H

#include "core/model/config-schema-object.h"

namespace ns3
{

class StragglerSchemaKeys
{
public:
    /// `workload` (a label; every workload by default) and `ranks` (hosts; every host).
    static void Targets(ConfigSchemaObject& s);
    /// `probability` per rank and iteration, 1 by default.
    static void Probability(ConfigSchemaObject& s);
    /// `start_us` and `end_us` (none: until the run ends), end after start.
    static void Window(ConfigSchemaObject& s, const std::string& what);
    /// `host`: a host index, required.
    static ConfigSchemaKey& Host(ConfigSchemaObject& s);
};

} // namespace ns3

#endif /* MCAST4AI_STRAGGLER_SCHEMA_KEYS_H */
