/*
 * The types behind one list of a scenario whose entries are chosen by a "type" key
 * (workloads[], stragglers[]): for each type name, the class the runner creates and the
 * schema of the entry's keys, registered together from the type's own .cc file. A type
 * defined outside the library (in a test, in a user's program) registers the same way, and
 * its entries then validate and run without an edit anywhere else.
 */
#ifndef MCAST4AI_SCHEMA_TYPE_REGISTRY_H
#define MCAST4AI_SCHEMA_TYPE_REGISTRY_H

#include "core/model/config-schema-object.h"
#include "ns3/object.h"
#include "ns3/type-id.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <typeindex>
#include <vector>

namespace ns3
{

/**
 * \brief Registry of the types of one list: name, class and schema.
 *
 * Not thread-safe: register types before loading scenarios.
 */
class SchemaTypeRegistry
{
public:
    /// Declares the keys of one type, in the variant of an entry whose `type` is its name.
    using DeclareFunction = std::function<void(ConfigSchemaObject&)>;

    struct Entry
    {
        std::string name;
        TypeId tid; ///< the class; TypeId() for a schema without a class
        DeclareFunction declare;
        std::string doc;
    };

    /**
     * Declare a type's keys in `variant`, which configures the type's class (so its keys may
     * name the class's attributes: ConfigSchemaKey::Attribute).
     */
    static void Declare(const Entry& entry, ConfigSchemaObject& variant);

    /// \param reserved every name the format reserves, in the order messages list them
    explicit SchemaTypeRegistry(std::vector<std::string> reserved);

    const std::vector<std::string>& ReservedNames() const;
    /// Register (or replace) a type.
    void Register(const std::string& name,
                  TypeId tid,
                  DeclareFunction declare,
                  const std::string& doc);
    /** \return whether the type was registered */
    bool Unregister(const std::string& name);
    /** \return the entry of a type, or nullptr */
    const Entry* Find(const std::string& name) const;
    /** \return every type: the reserved names first, in their order, then the others by name */
    std::vector<Entry> GetEntries() const;
    /** \return the registered names, in the order of GetEntries() */
    std::vector<std::string> GetNames() const;
    /**
     * The keys of a type declared on their own (its variant without the keys every entry
     * has), configuring its class (ConfigSchemaObject::Model), for what the class does with an
     * entry's validated values: read the keys bound to a struct of the type's own
     * (ConfigSchemaObject::Read) and set the attributes its keys name
     * (ConfigSchemaObject::ApplyAttributes). Declared the first time they are asked for, and
     * kept until the type is registered again or removed.
     *
     * \return the keys; aborts for a name that is not registered
     */
    const ConfigSchemaObject& Keys(const std::string& name) const;

    /**
     * Read the keys of type `name` bound to members of `type` from an entry into the struct at
     * `target` (ConfigSchemaObject::ReadBound); a key the entry lacks takes its default.
     *
     * \return false, reading nothing, for a name not registered (an object made in C++)
     */
    bool ReadBound(const std::string& name,
                   const nlohmann::json& spec,
                   void* target,
                   std::type_index type) const;

    /**
     * Set on `object` every attribute of its own class that the keys of type `name` name, from
     * an entry as validated; nothing for a name not registered (an object made in C++ sets its
     * own).
     */
    void ApplyAttributes(const std::string& name, const nlohmann::json& spec, Object& object) const;

private:
    std::vector<std::string> m_reserved;
    std::vector<Entry> m_entries;
    /// Keys() of each type asked for, by name: every workload and straggler reads its own.
    mutable std::map<std::string, std::unique_ptr<ConfigSchemaObject>> m_keys;
};

} // namespace ns3

#endif /* MCAST4AI_SCHEMA_TYPE_REGISTRY_H */
