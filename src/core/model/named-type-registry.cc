#include "core/model/named-type-registry.h"

#include "core/model/config-schema.h"
#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NamedTypeRegistry");

NamedTypeRegistry::NamedTypeRegistry(std::string what, TypeId base)
    : m_what(std::move(what)),
      m_base(base)
{
}

void
NamedTypeRegistry::Add(const std::string& name, TypeId tid, Keys keys)
{
    NS_ABORT_MSG_IF(m_types.count(name),
                    m_what << " '" << name << "' is registered twice ("
                           << m_types.at(name).tid.GetName() << " and " << tid.GetName() << ")");
    NS_ABORT_MSG_UNLESS(tid == m_base || tid.IsChildOf(m_base),
                        tid.GetName()
                            << " cannot be a " << m_what << ": it is not a " << m_base.GetName());
    NS_LOG_INFO(m_what << " '" << name << "' is " << tid.GetName());
    m_types.emplace(name, Entry{tid, std::move(keys)});
}

bool
NamedTypeRegistry::Remove(const std::string& name)
{
    return m_types.erase(name) != 0;
}

bool
NamedTypeRegistry::Has(const std::string& name) const
{
    return m_types.count(name) != 0;
}

TypeId
NamedTypeRegistry::Get(const std::string& name) const
{
    auto it = m_types.find(name);
    NS_ABORT_MSG_IF(it == m_types.end(), "no " << m_what << " is named '" << name << "'");
    return it->second.tid;
}

std::vector<std::string>
NamedTypeRegistry::Names() const
{
    std::vector<std::string> names;
    for (const auto& [name, entry] : m_types)
    {
        names.push_back(name);
    }
    return names;
}

std::vector<std::string>
NamedTypeRegistry::NamesAfter(std::vector<std::string> reserved) const
{
    for (const auto& [name, entry] : m_types)
    {
        if (std::find(reserved.begin(), reserved.end(), name) == reserved.end())
        {
            reserved.push_back(name);
        }
    }
    return reserved;
}

void
NamedTypeRegistry::DeclareKeys(ConfigSchemaObject& section, const std::string& selector) const
{
    for (const auto& [name, entry] : m_types)
    {
        const Keys& keys = entry.keys;
        if (!keys.declare)
        {
            continue;
        }
        if (!keys.object.empty())
        {
            ConfigSchemaKey* own = section.FindKey(keys.object);
            ConfigSchemaObject& object
                = own ? own->Fields() : section.Object(keys.object).Doc(keys.doc).Fields();
            keys.declare(object.Model(entry.tid));
            continue;
        }
        // Keys in the section itself: valid only with this model selected.
        const std::size_t before = section.KeyNames().size();
        const std::optional<TypeId> previous = section.GetModel();
        keys.declare(section.Model(entry.tid));
        section.Model(previous);
        const std::vector<std::string> all = section.KeyNames();
        for (std::size_t i = before; i < all.size(); ++i)
        {
            const std::string key = all[i];
            NS_ABORT_MSG_IF(section.FindKey(key)->GetDefault(),
                            m_what << " '" << name << "': key " << key
                                   << " is given only with it, so it can have no default");
            const std::string model = name;
            section.Rule(
                key,
                {key, selector},
                [key, selector, model](const ConfigSchemaView& v) -> std::optional<std::string>
                {
                    const nlohmann::json* chosen = v.Get(selector);
                    if (!v.Get(key) || !chosen || *chosen == model)
                    {
                        return std::nullopt;
                    }
                    return "applies only to " + v.Path(selector) + " " + ConfigSchema::Quote(model)
                           + ", got " + ConfigSchema::ValueText(*chosen);
                },
                "`" + key + "` only with `" + selector + "` " + ConfigSchema::Quote(model));
        }
    }
}

std::vector<std::pair<std::string, std::string>>
NamedTypeRegistry::KeyObjects() const
{
    std::vector<std::pair<std::string, std::string>> objects;
    for (const auto& [name, entry] : m_types)
    {
        if (entry.keys.declare && !entry.keys.object.empty())
        {
            objects.emplace_back(name, entry.keys.object);
        }
    }
    return objects;
}

void
NamedTypeRegistry::ApplyKeys(const std::string& name,
                             const ConfigSchemaObject& declared,
                             const nlohmann::json& section,
                             const ConfigSchemaSetter& set) const
{
    auto it = m_types.find(name);
    NS_ABORT_MSG_IF(it == m_types.end(), "no " << m_what << " is named '" << name << "'");
    const Keys& keys = it->second.keys;
    if (!keys.declare || keys.object.empty())
    {
        return;
    }
    auto object = section.find(keys.object);
    if (object != section.end())
    {
        declared.FindKey(keys.object)->Fields().ApplyAttributes(*object, set);
    }
}

} // namespace ns3
