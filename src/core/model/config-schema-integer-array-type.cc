#include "core/model/config-schema-integer-array-type.h"

#include "core/model/config-schema-integer-type.h"
#include "core/model/config-schema.h"
#include "ns3/string.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ns3
{

using json = nlohmann::json;

const ConfigSchemaIntegerArrayType&
ConfigSchemaIntegerArrayType::Get()
{
    static const ConfigSchemaIntegerArrayType type;
    return type;
}

std::string
ConfigSchemaIntegerArrayType::Expect(const ConfigSchemaKey& key,
                                     const ConfigSchemaContext* /* context */) const
{
    const ConfigSchemaLimits& limits = key.GetLimits();
    return std::string("an array of ") + (limits.distinct ? "distinct " : "") + limits.noun;
}

std::optional<json>
ConfigSchemaIntegerArrayType::Validate(const ConfigSchemaKey& key,
                                       const json& v,
                                       const std::string& path,
                                       ConfigSchemaContext& context) const
{
    const ConfigSchemaLimits& limits = key.GetLimits();
    if (!limits.allOrCount || !(v.is_string() || v.is_number_integer()))
    {
        return ConfigSchemaArrayType::Validate(key, v, path, context);
    }
    // "all" or a count stands for the first indices below the bound.
    const ConfigSchemaDerived* bound = context.GetVariable(limits.hiVariable);
    if (!bound)
    {
        return std::nullopt; // the section that derives it has reported why
    }
    const std::string got = ", got " + ConfigSchema::Shown(v);
    const int64_t limit = bound->value.get<int64_t>() + limits.hiOffset + 1;
    int64_t n = limit;
    if (v.is_string() && v != "all")
    {
        context.AddIssue(path, "must be \"all\", a count or " + Expect(key, &context) + got);
        return std::nullopt;
    }
    if (v.is_number_integer())
    {
        n = v.get<int64_t>();
        const auto least = static_cast<int64_t>(std::max<std::size_t>(limits.minItems, 1));
        if (n < least || n > limit)
        {
            context.AddIssue(path,
                             "a count must be " + std::to_string(least) + " .. "
                                 + std::to_string(limit) + got);
            return std::nullopt;
        }
    }
    json all = json::array();
    for (int64_t i = 0; i < n; ++i)
    {
        all.push_back(i);
    }
    return ConfigSchemaArrayType::Validate(key, all, path, context);
}

bool
ConfigSchemaIntegerArrayType::ValidateElements(const ConfigSchemaKey& key,
                                               const json& v,
                                               const std::string& path,
                                               ConfigSchemaContext& context,
                                               json& out) const
{
    const ConfigSchemaLimits& limits = key.GetLimits();
    bool ok = true;
    std::map<uint64_t, std::size_t> seen; // distinct values: first index of each
    for (std::size_t i = 0; i < v.size(); ++i)
    {
        const std::string ep = ConfigSchema::IndexPath(path, i);
        uint64_t x = 0;
        if (!ConfigSchemaIntegerType::Check(limits, v[i], ep, context, x))
        {
            ok = false;
            out.push_back(nullptr);
            continue;
        }
        if (limits.distinct)
        {
            auto [at, inserted] = seen.emplace(x, i);
            if (!inserted)
            {
                context.AddIssue(ep,
                                 std::to_string(x) + " is listed twice (also "
                                     + ConfigSchema::IndexPath(path, at->second) + ")");
                ok = false;
            }
        }
        out.push_back(x);
    }
    return ok;
}

std::string
ConfigSchemaIntegerArrayType::TypeText(const ConfigSchemaKey& key) const
{
    return key.GetLimits().allOrCount ? "array of integers, `\"all\"` or integer"
                                      : "array of integers";
}

std::vector<std::string>
ConfigSchemaIntegerArrayType::ElementText(const ConfigSchemaKey& key) const
{
    std::vector<std::string> parts;
    if (key.GetLimits().allOrCount)
    {
        parts.push_back("`\"all\"` or a count n: the first n");
    }
    parts.push_back("elements " + ConfigSchemaIntegerType::Range(key.GetLimits()));
    return parts;
}

bool
ConfigSchemaIntegerArrayType::CapAt(ConfigSchemaLimits& limits, double hi) const
{
    return ConfigSchemaIntegerType::Get().CapAt(limits, hi);
}

Ptr<AttributeValue>
ConfigSchemaIntegerArrayType::ToAttribute(const ConfigSchemaKey& /* key */,
                                          const json& value,
                                          Ptr<const AttributeChecker> /* checker */) const
{
    std::ostringstream list;
    for (std::size_t i = 0; i < value.size(); ++i)
    {
        list << (i ? "," : "") << value[i].get<uint64_t>();
    }
    return Create<StringValue>(list.str());
}

json
ConfigSchemaIntegerArrayType::FromAttribute(const ConfigSchemaKey& /* key */,
                                            const AttributeValue& value,
                                            Ptr<const AttributeChecker> checker) const
{
    json list = json::array();
    std::istringstream in(value.SerializeToString(checker));
    std::string item;
    while (std::getline(in, item, ','))
    {
        list.push_back(std::stoull(item));
    }
    return list;
}

} // namespace ns3
