/*
 * The straggler types a scenario may name in stragglers[].type: for each, the Straggler
 * subclass the runner creates and the schema of its keys, registered together from the
 * type's own .cc file, as workload types are.
 */
#ifndef MCAST4AI_STRAGGLER_TYPE_REGISTRY_H
#define MCAST4AI_STRAGGLER_TYPE_REGISTRY_H

#include "core/model/schema-type-registry.h"

namespace ns3
{

/**
 * Registry of straggler types: name, class and schema.
 *
 * Not thread-safe: register types before loading scenarios.
 */
class StragglerTypeRegistry
{
public:
    /// Declares the keys of one type; `type` is declared already. The variable "hosts" (the
    /// topology's host count) may bound host indices.
    using DeclareFunction = SchemaTypeRegistry::DeclareFunction;
    using Entry = SchemaTypeRegistry::Entry;

    static SchemaTypeRegistry& Instance();
};

} // namespace ns3

/**
 * Register straggler type `name`, run by class `type` (a Straggler subclass), its keys
 * declared by `declare`, from the type's own .cc file.
 */
#define MCAST4AI_REGISTER_STRAGGLER(name, type, declare, doc)                                    \
    static const bool g_##type##StragglerRegistered [[maybe_unused]]                             \
    = (::ns3::StragglerTypeRegistry::Instance().Register(name, type::GetTypeId(), declare, doc), \
       true)

#endif /* MCAST4AI_STRAGGLER_TYPE_REGISTRY_H */
