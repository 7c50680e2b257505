#include "core/model/config-schema-enum-type.h"

#include "core/model/config-schema.h"

#include <algorithm>

namespace ns3
{

using json = nlohmann::json;

const ConfigSchemaEnumType&
ConfigSchemaEnumType::Get()
{
    static const ConfigSchemaEnumType type;
    return type;
}

std::string
ConfigSchemaEnumType::Expect(const ConfigSchemaKey& key,
                             const ConfigSchemaContext* /* context */) const
{
    return "one of " + ConfigSchema::QuoteList(key.GetLimits().names);
}

std::optional<json>
ConfigSchemaEnumType::Validate(const ConfigSchemaKey& key,
                               const json& v,
                               const std::string& path,
                               ConfigSchemaContext& context) const
{
    const std::string got = ", got " + ConfigSchema::Shown(v);
    const ConfigSchemaLimits& limits = key.GetLimits();
    if (!v.is_string())
    {
        context.AddIssue(path, "must be a string, " + Expect(key, &context) + got);
        return std::nullopt;
    }
    const std::string& s = v.get_ref<const std::string&>();
    if (std::find(limits.names.begin(), limits.names.end(), s) == limits.names.end())
    {
        std::string reason = "must be " + Expect(key, &context) + got;
        const std::string best = ConfigSchema::Suggest(s, limits.names);
        if (!best.empty())
        {
            reason += " (did you mean " + ConfigSchema::Quote(best) + "?)";
        }
        context.AddIssue(path, reason);
        return std::nullopt;
    }
    if (std::find(limits.implemented.begin(), limits.implemented.end(), s)
        == limits.implemented.end())
    {
        context.AddIssue(path,
                         ConfigSchema::Quote(s) + " is not implemented yet; implemented: "
                             + ConfigSchema::QuoteList(limits.implemented));
        return std::nullopt;
    }
    return v;
}

std::string
ConfigSchemaEnumType::TypeText(const ConfigSchemaKey& /* key */) const
{
    return "enum";
}

std::vector<std::string>
ConfigSchemaEnumType::AllowedText(const ConfigSchemaKey& key) const
{
    const ConfigSchemaLimits& limits = key.GetLimits();
    std::vector<std::string> parts{CodeList(limits.implemented)};
    std::vector<std::string> reserved;
    for (const auto& n : limits.names)
    {
        if (std::find(limits.implemented.begin(), limits.implemented.end(), n)
            == limits.implemented.end())
        {
            reserved.push_back(n);
        }
    }
    if (!reserved.empty())
    {
        parts.push_back("reserved, not implemented yet: " + CodeList(reserved));
    }
    return parts;
}

} // namespace ns3
