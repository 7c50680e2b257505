#include "core/model/config-schema-value-type.h"

#include "core/model/config-schema-object.h"
#include "core/model/config-schema.h"

namespace ns3
{

using json = nlohmann::json;

ConfigSchemaValueType::~ConfigSchemaValueType() = default;

bool
ConfigSchemaValueType::CapAt(ConfigSchemaLimits& /* limits */, double /* hi */) const
{
    return false;
}

Ptr<AttributeValue>
ConfigSchemaValueType::ToAttribute(const ConfigSchemaKey& key,
                                   const json& /* value */,
                                   Ptr<const AttributeChecker> /* checker */) const
{
    NoAttribute(key);
}

json
ConfigSchemaValueType::FromAttribute(const ConfigSchemaKey& key,
                                     const AttributeValue& /* value */,
                                     Ptr<const AttributeChecker> /* checker */) const
{
    NoAttribute(key);
}

void
ConfigSchemaValueType::Read(const ConfigSchemaKey& key, const json* value, void* target) const
{
    const ConfigSchemaBinding& b = *key.GetBinding();
    if (value)
    {
        b.read(target, *value);
    }
    else if (b.readAuto)
    {
        b.readAuto(target);
    }
    else if (const json* d = key.GetDefault())
    {
        b.read(target, *d); // an object never validated (a spec built in code) lacks it
    }
}

std::optional<json>
ConfigSchemaValueType::Write(const ConfigSchemaKey& key,
                             const void* source,
                             const json* fallback) const
{
    const ConfigSchemaBinding& b = *key.GetBinding();
    if (b.isAuto && b.isAuto(source))
    {
        // A member left at its auto value: what the kept JSON says, else omitted (auto).
        return fallback ? std::optional<json>(*fallback) : std::nullopt;
    }
    return b.write(source);
}

std::optional<json>
ConfigSchemaValueType::WriteDefault(const ConfigSchemaKey& key) const
{
    const json* d = key.GetDefault();
    return d ? std::optional<json>(*d) : std::nullopt;
}

void
ConfigSchemaValueType::NoAttribute(const ConfigSchemaKey& key)
{
    NS_ABORT_MSG("schema key " << key.GetName() << ": " << key.GetValueType().TypeText(key)
                               << " has no attribute value");
    std::abort(); // not reached
}

std::string
ConfigSchemaValueType::CodeList(const std::vector<std::string>& names)
{
    std::vector<std::string> s;
    for (const auto& n : names)
    {
        s.push_back(ConfigSchema::Code(json(n).dump()));
    }
    return ConfigSchema::Join(s);
}

} // namespace ns3
