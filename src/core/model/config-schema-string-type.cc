#include "core/model/config-schema-string-type.h"

#include "core/model/config-schema.h"
#include "ns3/string.h"

namespace ns3
{

using json = nlohmann::json;

const ConfigSchemaStringType&
ConfigSchemaStringType::Get()
{
    static const ConfigSchemaStringType type;
    return type;
}

std::string
ConfigSchemaStringType::Expect(const ConfigSchemaKey& /* key */,
                               const ConfigSchemaContext* /* context */) const
{
    return "a non-empty string";
}

std::optional<json>
ConfigSchemaStringType::Validate(const ConfigSchemaKey& key,
                                 const json& v,
                                 const std::string& path,
                                 ConfigSchemaContext& context) const
{
    if (!v.is_string() || v.get_ref<const std::string&>().empty())
    {
        context.AddIssue(path,
                         "must be " + Expect(key, &context) + ", got " + ConfigSchema::Shown(v));
        return std::nullopt;
    }
    return v;
}

std::string
ConfigSchemaStringType::TypeText(const ConfigSchemaKey& /* key */) const
{
    return "string";
}

std::vector<std::string>
ConfigSchemaStringType::AllowedText(const ConfigSchemaKey& /* key */) const
{
    return {"non-empty"};
}

Ptr<AttributeValue>
ConfigSchemaStringType::ToAttribute(const ConfigSchemaKey& /* key */,
                                    const json& value,
                                    Ptr<const AttributeChecker> /* checker */) const
{
    return Create<StringValue>(value.get<std::string>());
}

json
ConfigSchemaStringType::FromAttribute(const ConfigSchemaKey& /* key */,
                                      const AttributeValue& value,
                                      Ptr<const AttributeChecker> checker) const
{
    return value.SerializeToString(checker);
}

} // namespace ns3
