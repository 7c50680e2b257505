#include "core/model/config-schema-integer-set-type.h"

#include "core/model/config-schema.h"

#include <algorithm>

namespace ns3
{

using json = nlohmann::json;

const ConfigSchemaIntegerSetType&
ConfigSchemaIntegerSetType::Get()
{
    static const ConfigSchemaIntegerSetType type;
    return type;
}

std::string
ConfigSchemaIntegerSetType::Values(const ConfigSchemaLimits& limits)
{
    std::vector<std::string> s;
    for (uint64_t x : limits.allowed)
    {
        s.push_back(std::to_string(x));
    }
    return ConfigSchema::Join(s);
}

std::string
ConfigSchemaIntegerSetType::Expect(const ConfigSchemaKey& key,
                                   const ConfigSchemaContext* /* context */) const
{
    return "an integer, one of " + Values(key.GetLimits());
}

std::optional<json>
ConfigSchemaIntegerSetType::Validate(const ConfigSchemaKey& key,
                                     const json& v,
                                     const std::string& path,
                                     ConfigSchemaContext& context) const
{
    const std::vector<uint64_t>& allowed = key.GetLimits().allowed;
    if (v.is_number_integer() && (v.is_number_unsigned() || v.get<int64_t>() >= 0)
        && std::find(allowed.begin(), allowed.end(), v.get<uint64_t>()) != allowed.end())
    {
        return json(v.get<uint64_t>());
    }
    context.AddIssue(path, "must be " + Expect(key, &context) + ", got " + ConfigSchema::Shown(v));
    return std::nullopt;
}

std::vector<std::string>
ConfigSchemaIntegerSetType::AllowedText(const ConfigSchemaKey& key) const
{
    return {Values(key.GetLimits())};
}

bool
ConfigSchemaIntegerSetType::CapAt(ConfigSchemaLimits& /* limits */, double /* hi */) const
{
    return false; // a set is bounded by its values
}

} // namespace ns3
