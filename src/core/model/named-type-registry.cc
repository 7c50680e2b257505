#include "core/model/named-type-registry.h"

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
NamedTypeRegistry::Add(const std::string& name, TypeId tid)
{
    NS_ABORT_MSG_IF(m_types.count(name),
                    m_what << " '" << name << "' is registered twice ("
                           << m_types.at(name).GetName() << " and " << tid.GetName() << ")");
    NS_ABORT_MSG_UNLESS(tid == m_base || tid.IsChildOf(m_base),
                        tid.GetName()
                            << " cannot be a " << m_what << ": it is not a " << m_base.GetName());
    NS_LOG_INFO(m_what << " '" << name << "' is " << tid.GetName());
    m_types.emplace(name, tid);
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
    return it->second;
}

std::vector<std::string>
NamedTypeRegistry::Names() const
{
    std::vector<std::string> names;
    for (const auto& [name, tid] : m_types)
    {
        names.push_back(name);
    }
    return names;
}

std::vector<std::string>
NamedTypeRegistry::NamesAfter(std::vector<std::string> reserved) const
{
    for (const auto& [name, tid] : m_types)
    {
        if (std::find(reserved.begin(), reserved.end(), name) == reserved.end())
        {
            reserved.push_back(name);
        }
    }
    return reserved;
}

} // namespace ns3
