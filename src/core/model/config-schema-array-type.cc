#include "core/model/config-schema-array-type.h"

#include "core/model/config-schema.h"

namespace ns3
{

using json = nlohmann::json;

std::optional<json>
ConfigSchemaArrayType::Validate(const ConfigSchemaKey& key,
                                const json& v,
                                const std::string& path,
                                ConfigSchemaContext& context) const
{
    const ConfigSchemaLimits& limits = key.GetLimits();
    auto fail = [&](const std::string& reason) -> std::optional<json>
    {
        context.AddIssue(path, reason);
        return std::nullopt;
    };
    if (v.is_array() && limits.minItems > 1 && v.size() < limits.minItems)
    {
        return fail("must have at least " + std::to_string(limits.minItems) + " elements, got "
                    + std::to_string(v.size()));
    }
    if (!v.is_array() || v.size() < limits.minItems)
    {
        return fail("must be " + Expect(key, &context) + ", got " + ConfigSchema::Shown(v));
    }
    if (v.size() > limits.maxItems)
    {
        return fail(limits.maxItemsReason.empty()
                        ? "must have at most " + std::to_string(limits.maxItems)
                              + " element(s), got " + std::to_string(v.size())
                        : limits.maxItemsReason);
    }
    json out = json::array();
    if (!ValidateElements(key, v, path, context, out))
    {
        return std::nullopt;
    }
    return out;
}

std::vector<std::string>
ConfigSchemaArrayType::AllowedText(const ConfigSchemaKey& key) const
{
    const ConfigSchemaLimits& limits = key.GetLimits();
    std::vector<std::string> parts = ElementText(key);
    if (limits.minItems > 0)
    {
        parts.push_back("at least " + std::to_string(limits.minItems) + " element(s)");
    }
    if (limits.maxItems != std::numeric_limits<std::size_t>::max())
    {
        parts.push_back("at most " + std::to_string(limits.maxItems) + " element(s)");
    }
    if (limits.distinct)
    {
        parts.push_back("distinct");
    }
    for (const auto& k : limits.uniqueBy)
    {
        parts.push_back("unique " + ConfigSchema::Code(k));
    }
    return parts;
}

} // namespace ns3
