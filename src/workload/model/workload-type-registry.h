/*
 * The workload types a scenario may name in workloads[].type: for each, the Workload subclass
 * the runner creates and the schema of its keys, registered together from the type's own .cc
 * file. Built-in types (flows, broadcast) register like any other; a type defined outside the
 * library (in a test, in a user's program) does the same, and its entries then validate and
 * run without an edit anywhere else.
 */
#ifndef MCAST4AI_WORKLOAD_TYPE_REGISTRY_H
#define MCAST4AI_WORKLOAD_TYPE_REGISTRY_H

#include "core/model/schema-type-registry.h"
#include "ns3/type-id.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * Registry of workload types: name, class and schema (one SchemaTypeRegistry).
 *
 * Not thread-safe: register types before loading scenarios.
 */
class WorkloadTypeRegistry
{
public:
    /**
     * Declares the keys of one type. It receives the variant of a workloads[] entry whose
     * `type` is the registered name; `type` and `label` are declared already. Keys may be bound
     * to WorkloadConfig members; unbound ones reach the program through WorkloadConfig::spec.
     * The variable "hosts" (the topology's host count) may bound host indices
     * (ConfigSchemaKey::MaxFromVariable("hosts", -1)).
     */
    using DeclareFunction = SchemaTypeRegistry::DeclareFunction;
    using Entry = SchemaTypeRegistry::Entry;

    /// Every name the design reserves for workload types, in the order messages list them.
    static const std::vector<std::string>& ReservedNames();
    /**
     * Register (or replace) a workload type.
     *
     * \param name the value of workloads[].type
     * \param tid the Workload subclass that runs it (TypeId(): keys only, nothing can run it)
     * \param declare declares its keys
     * \param doc one line for the reference
     */
    static void Register(const std::string& name,
                         TypeId tid,
                         DeclareFunction declare,
                         const std::string& doc);
    /** \return whether the type was registered (built-in types may be removed too) */
    static bool Unregister(const std::string& name);
    /** \return the entry of a type, or nullptr */
    static const Entry* Find(const std::string& name);
    /** \return every type: the reserved names first, in their order, then the others by name */
    static std::vector<Entry> GetEntries();
    /** \return the registered names, in the order of GetEntries() */
    static std::vector<std::string> GetNames();
    /** Read a type's keys bound to `type` (SchemaTypeRegistry::ReadBound). */
    static bool ReadBound(const std::string& name,
                          const nlohmann::json& spec,
                          void* target,
                          std::type_index type);
    /** Set the attributes a type's keys name on its workload (SchemaTypeRegistry). */
    static void ApplyAttributes(const std::string& name,
                                const nlohmann::json& spec,
                                Object& object);

private:
    static SchemaTypeRegistry& Instance();
};

} // namespace ns3

/**
 * Register workload type `name`, run by class `type` (a Workload subclass), its keys declared
 * by `declare`, from the type's own .cc file.
 */
#define MCAST4AI_REGISTER_WORKLOAD(name, type, declare, doc)        \
    static const bool g_##type##WorkloadRegistered [[maybe_unused]] \
    = (::ns3::WorkloadTypeRegistry::Register(name, type::GetTypeId(), declare, doc), true)

#endif /* MCAST4AI_WORKLOAD_TYPE_REGISTRY_H */
