/*
 * Keys that several straggler types declare the same way, declared once.
 */
#ifndef MCAST4AI_STRAGGLER_SCHEMA_KEYS_H
#define MCAST4AI_STRAGGLER_SCHEMA_KEYS_H

#include "core/model/config-schema-object.h"

namespace ns3
{

/// When a straggler acts (`start_us`, `end_us`), as StragglerSchemaKeys::Window binds them.
struct StragglerWindowKeys
{
    double startUs{0};
    double endUs{0}; ///< 0: until the run ends
};

/// Whom a straggler may slow (`workload`, `ranks`), as StragglerSchemaKeys::Targets binds them.
struct StragglerTargetKeys
{
    std::string workload;        ///< "": every workload
    std::vector<uint32_t> ranks; ///< empty: every host
};

class StragglerSchemaKeys
{
public:
    /// `workload` (a label; every workload by default) and `ranks` (hosts; every host), bound
    /// to StragglerTargetKeys (read by Straggler::Install).
    static void Targets(ConfigSchemaObject& s);
    /// `probability` per rank and iteration, 1 by default: the type's attribute "Probability".
    static void Probability(ConfigSchemaObject& s);
    /// `start_us` and `end_us` (none: until the run ends), end after start, bound to
    /// StragglerWindowKeys (Straggler::ReadKeys).
    static void Window(ConfigSchemaObject& s, const std::string& what);
    /// `host`: a host index, required.
    static ConfigSchemaKey& Host(ConfigSchemaObject& s);
};

} // namespace ns3

#endif /* MCAST4AI_STRAGGLER_SCHEMA_KEYS_H */
