#include "core/model/config-schema-boolean-type.h"

#include "core/model/config-schema.h"
#include "ns3/boolean.h"

namespace ns3
{

using json = nlohmann::json;

const ConfigSchemaBooleanType&
ConfigSchemaBooleanType::Get()
{
    static const ConfigSchemaBooleanType type;
    return type;
}

std::string
ConfigSchemaBooleanType::Expect(const ConfigSchemaKey& /* key */,
                                const ConfigSchemaContext* /* context */) const
{
    return "true or false";
}

std::optional<json>
ConfigSchemaBooleanType::Validate(const ConfigSchemaKey& key,
                                  const json& v,
                                  const std::string& path,
                                  ConfigSchemaContext& context) const
{
    if (!v.is_boolean())
    {
        context.AddIssue(path,
                         "must be " + Expect(key, &context) + ", got " + ConfigSchema::Shown(v));
        return std::nullopt;
    }
    return v;
}

std::string
ConfigSchemaBooleanType::TypeText(const ConfigSchemaKey& /* key */) const
{
    return "boolean";
}

std::vector<std::string>
ConfigSchemaBooleanType::AllowedText(const ConfigSchemaKey& /* key */) const
{
    return {"`true`, `false`"};
}

Ptr<AttributeValue>
ConfigSchemaBooleanType::ToAttribute(const ConfigSchemaKey& /* key */,
                                     const json& value,
                                     Ptr<const AttributeChecker> /* checker */) const
{
    return Create<BooleanValue>(value.get<bool>());
}

json
ConfigSchemaBooleanType::FromAttribute(const ConfigSchemaKey& key,
                                       const AttributeValue& value,
                                       Ptr<const AttributeChecker> /* checker */) const
{
    return As<BooleanValue>(key, value, "boolean").Get();
}

} // namespace ns3
