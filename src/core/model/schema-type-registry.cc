#include "core/model/schema-type-registry.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SchemaTypeRegistry");

SchemaTypeRegistry::SchemaTypeRegistry(std::vector<std::string> reserved)
    : m_reserved(std::move(reserved))
{
}

const std::vector<std::string>&
SchemaTypeRegistry::ReservedNames() const
{
    return m_reserved;
}

void
SchemaTypeRegistry::Register(const std::string& name,
                             TypeId tid,
                             DeclareFunction declare,
                             const std::string& doc)
{
    NS_LOG_FUNCTION(name);
    for (Entry& e : m_entries)
    {
        if (e.name == name)
        {
            e = Entry{name, tid, std::move(declare), doc};
            m_keys.erase(name);
            return;
        }
    }
    m_entries.push_back({name, tid, std::move(declare), doc});
}

bool
SchemaTypeRegistry::Unregister(const std::string& name)
{
    NS_LOG_FUNCTION(name);
    auto it = std::find_if(m_entries.begin(),
                           m_entries.end(),
                           [&name](const Entry& e)
                           {
                               return e.name == name;
                           });
    if (it == m_entries.end())
    {
        return false;
    }
    m_entries.erase(it);
    m_keys.erase(name);
    return true;
}

const SchemaTypeRegistry::Entry*
SchemaTypeRegistry::Find(const std::string& name) const
{
    for (const Entry& e : m_entries)
    {
        if (e.name == name)
        {
            return &e;
        }
    }
    return nullptr;
}

std::vector<SchemaTypeRegistry::Entry>
SchemaTypeRegistry::GetEntries() const
{
    auto rank = [this](const Entry& e)
    {
        auto it = std::find(m_reserved.begin(), m_reserved.end(), e.name);
        return std::make_pair(static_cast<std::size_t>(it - m_reserved.begin()), e.name);
    };
    std::vector<Entry> entries = m_entries;
    std::sort(entries.begin(),
              entries.end(),
              [&rank](const Entry& a, const Entry& b)
              {
                  return rank(a) < rank(b);
              });
    return entries;
}

std::vector<std::string>
SchemaTypeRegistry::GetNames() const
{
    std::vector<std::string> names;
    for (const Entry& e : GetEntries())
    {
        names.push_back(e.name);
    }
    return names;
}

const ConfigSchemaObject&
SchemaTypeRegistry::Keys(const std::string& name) const
{
    std::unique_ptr<ConfigSchemaObject>& keys = m_keys[name];
    if (!keys)
    {
        const Entry* e = Find(name);
        NS_ABORT_MSG_UNLESS(e, "no type is registered as " << name);
        keys = std::make_unique<ConfigSchemaObject>();
        Declare(*e, *keys);
    }
    return *keys;
}

void
SchemaTypeRegistry::Declare(const Entry& entry, ConfigSchemaObject& variant)
{
    if (entry.tid != TypeId())
    {
        variant.Model(entry.tid);
    }
    entry.declare(variant);
}

bool
SchemaTypeRegistry::ReadBound(const std::string& name,
                              const nlohmann::json& spec,
                              void* target,
                              std::type_index type) const
{
    if (!Find(name))
    {
        return false;
    }
    Keys(name).ReadBound(spec, target, type);
    return true;
}

void
SchemaTypeRegistry::ApplyAttributes(const std::string& name,
                                    const nlohmann::json& spec,
                                    Object& object) const
{
    if (!Find(name))
    {
        return; // an object made in C++, not from a scenario entry, sets its own attributes
    }
    const TypeId tid = object.GetInstanceTypeId();
    Keys(name).ApplyAttributes(
        spec,
        [&object, &tid](TypeId owner, const std::string& attribute, const AttributeValue& value)
        {
            if (ConfigSchemaAttribute::IsOf(tid, owner))
            {
                NS_LOG_LOGIC(tid.GetName() << "::" << attribute << " from the scenario");
                object.SetAttribute(attribute, value);
            }
        });
}

} // namespace ns3
