/*
 * The names a scenario uses for a model ("bier", "ecmp", "flows") and the ns-3 TypeId that
 * implements it. Each extension point keeps one registry; a model registers itself from its
 * own .cc file, so adding one is new files only, and the scenario layer creates it with an
 * ObjectFactory from the name. A model may bring scenario keys of its own, declared with it:
 * each sets one of its attributes (ConfigSchemaKey::Attribute), so the section that selects
 * the model validates them, documents them and applies them without naming the model.
 */
#ifndef MCAST4AI_NAMED_TYPE_REGISTRY_H
#define MCAST4AI_NAMED_TYPE_REGISTRY_H

#include "core/model/config-schema-object.h"
#include "ns3/type-id.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Scenario names of the models behind one extension point.
 */
class NamedTypeRegistry
{
public:
    /// \param what the extension point, for messages ("P2MP delivery")
    /// \param base every registered TypeId must be this or a child of it
    NamedTypeRegistry(std::string what, TypeId base);

    /**
     * A model's own keys. `declare` declares them into `object`, a nested object of the
     * section that selects the model (p2mp.bier), or, when `object` is empty, into that
     * section itself, where they may be given only with the model selected and so take no
     * default.
     */
    struct Keys
    {
        std::string object;
        std::string doc; ///< of `object`
        std::function<void(ConfigSchemaObject&)> declare;
    };

    /// Register a model; a name registered twice, or a type of another family, aborts.
    void Add(const std::string& name, TypeId tid, Keys keys = {});
    /** Unregister a model (one a test defined). \return whether it was registered */
    bool Remove(const std::string& name);
    bool Has(const std::string& name) const;
    /// The model's TypeId; aborts on an unknown name (validation rejects those first).
    TypeId Get(const std::string& name) const;
    /// Every registered name, in alphabetical order.
    std::vector<std::string> Names() const;
    /// The names a format reserves, in their order, followed by any other registered name
    /// (for an enum whose implemented values are the registered ones).
    std::vector<std::string> NamesAfter(std::vector<std::string> reserved) const;

    /**
     * Declare every registered model's keys into `section`, whose key `selector` names the
     * model. A nested object the section declared itself (to bind it to a struct) receives
     * the model's keys; otherwise the object is declared here.
     */
    void DeclareKeys(ConfigSchemaObject& section, const std::string& selector) const;
    /// Each model that has a nested object of its own, with the object's name.
    std::vector<std::pair<std::string, std::string>> KeyObjects() const;
    /**
     * Give `set` the attributes the keys of model `name`'s nested object set, from the filled
     * `section` whose declaration (`declared`, DeclareKeys's `section`) holds that object.
     * Keys a model declared into the section itself are the section's: its ApplyAttributes
     * sets them.
     */
    void ApplyKeys(const std::string& name,
                   const ConfigSchemaObject& declared,
                   const nlohmann::json& section,
                   const ConfigSchemaSetter& set) const;

private:
    struct Entry
    {
        TypeId tid;
        Keys keys;
    };

    std::string m_what;
    TypeId m_base;
    std::map<std::string, Entry> m_types;
};

} // namespace ns3

/**
 * Register type under name in registry when the library loads, from the model's own .cc
 * file (as NS_OBJECT_ENSURE_REGISTERED registers its TypeId).
 */
#define MCAST4AI_REGISTER_NAMED_TYPE(registry, name, type)           \
    static const bool g_##type##NamedTypeRegistered [[maybe_unused]] \
    = ((registry).Add(name, type::GetTypeId()), true)

/// As MCAST4AI_REGISTER_NAMED_TYPE, with the model's keys (NamedTypeRegistry::Keys).
#define MCAST4AI_REGISTER_NAMED_TYPE_WITH_KEYS(registry, name, type, ...) \
    static const bool g_##type##NamedTypeRegistered [[maybe_unused]]      \
    = ((registry).Add(name, type::GetTypeId(), NamedTypeRegistry::Keys{__VA_ARGS__}), true)

#endif /* MCAST4AI_NAMED_TYPE_REGISTRY_H */
