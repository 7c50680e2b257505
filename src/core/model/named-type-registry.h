/*
 * The names a scenario uses for a model ("bier", "ecmp", "flows") and the ns-3 TypeId that
 * implements it. Each extension point keeps one registry; a model registers itself from its
 * own .cc file, so adding one is new files only, and the scenario layer creates it with an
 * ObjectFactory from the name.
 */
#ifndef MCAST4AI_NAMED_TYPE_REGISTRY_H
#define MCAST4AI_NAMED_TYPE_REGISTRY_H

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

    /// Register a model; a name registered twice, or a type of another family, aborts.
    void Add(const std::string& name, TypeId tid);
    bool Has(const std::string& name) const;
    /// The model's TypeId; aborts on an unknown name (validation rejects those first).
    TypeId Get(const std::string& name) const;
    /// Every registered name, in alphabetical order.
    std::vector<std::string> Names() const;
    /// The names a format reserves, in their order, followed by any other registered name
    /// (for an enum whose implemented values are the registered ones).
    std::vector<std::string> NamesAfter(std::vector<std::string> reserved) const;

private:
    std::string m_what;
    TypeId m_base;
    std::map<std::string, TypeId> m_types;
};

} // namespace ns3

/**
 * Register type under name in registry when the library loads, from the model's own .cc
 * file (as NS_OBJECT_ENSURE_REGISTERED registers its TypeId).
 */
#define MCAST4AI_REGISTER_NAMED_TYPE(registry, name, type)           \
    static const bool g_##type##NamedTypeRegistered [[maybe_unused]] \
    = ((registry).Add(name, type::GetTypeId()), true)

#endif /* MCAST4AI_NAMED_TYPE_REGISTRY_H */
