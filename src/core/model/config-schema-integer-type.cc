#include "core/model/config-schema-integer-type.h"

#include "core/model/config-schema.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

using json = nlohmann::json;

namespace
{
constexpr uint64_t kUintMax = std::numeric_limits<uint64_t>::max();
} // namespace

const ConfigSchemaIntegerType&
ConfigSchemaIntegerType::Get()
{
    static const ConfigSchemaIntegerType type;
    return type;
}

std::string
ConfigSchemaIntegerType::Describe(const ConfigSchemaLimits& limits,
                                  const ConfigSchemaContext* context,
                                  bool article)
{
    const std::optional<uint64_t> hi = limits.UpperBound(context);
    std::string s = article ? "an integer" : "integer";
    if (hi)
    {
        s += " between " + std::to_string(limits.lo) + " and " + std::to_string(*hi);
    }
    else
    {
        s += " >= " + std::to_string(limits.lo);
    }
    const std::string note = limits.FormatNote(context);
    if (!note.empty())
    {
        s += " (" + note + ")";
    }
    return s;
}

std::string
ConfigSchemaIntegerType::Range(const ConfigSchemaLimits& limits)
{
    std::string hi;
    if (!limits.hiVariable.empty())
    {
        hi = limits.hiVariable;
        if (limits.hiOffset != 0)
        {
            hi += (limits.hiOffset > 0 ? " + " : " - ")
                  + std::to_string(limits.hiOffset > 0 ? limits.hiOffset : -limits.hiOffset);
        }
        if (limits.hi != kUintMax)
        {
            hi = "min(" + std::to_string(limits.hi) + ", " + hi + ")";
        }
    }
    else if (limits.hi != kUintMax)
    {
        hi = std::to_string(limits.hi);
    }
    return hi.empty() ? ">= " + std::to_string(limits.lo) : std::to_string(limits.lo) + " .. " + hi;
}

bool
ConfigSchemaIntegerType::Check(const ConfigSchemaLimits& limits,
                               const json& v,
                               const std::string& path,
                               ConfigSchemaContext& context,
                               uint64_t& out)
{
    bool isInteger = false;
    uint64_t x = 0;
    if (v.is_number_unsigned())
    {
        x = v.get<uint64_t>();
        isInteger = true;
    }
    else if (v.is_number_integer() && v.get<int64_t>() >= 0)
    {
        x = static_cast<uint64_t>(v.get<int64_t>());
        isInteger = true;
    }
    const std::optional<uint64_t> hi = limits.UpperBound(&context);
    if (isInteger && x >= limits.lo && (!hi || x <= *hi))
    {
        out = x;
        return true;
    }
    std::string reason
        = "must be " + Describe(limits, &context, true) + ", got " + ConfigSchema::Shown(v);
    if (v.is_number_float())
    {
        const double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d))
        {
            reason += "; write integers without a decimal point or exponent";
        }
    }
    const std::string explanation = limits.VariableExplanation(context);
    if (isInteger && !explanation.empty())
    {
        reason += "; " + explanation;
    }
    context.AddIssue(path, reason);
    return false;
}

std::string
ConfigSchemaIntegerType::Expect(const ConfigSchemaKey& key,
                                const ConfigSchemaContext* context) const
{
    return Describe(key.GetLimits(), context, true);
}

std::optional<json>
ConfigSchemaIntegerType::Validate(const ConfigSchemaKey& key,
                                  const json& value,
                                  const std::string& path,
                                  ConfigSchemaContext& context) const
{
    uint64_t x = 0;
    if (!Check(key.GetLimits(), value, path, context, x))
    {
        return std::nullopt;
    }
    return json(x);
}

std::string
ConfigSchemaIntegerType::TypeText(const ConfigSchemaKey& /* key */) const
{
    return "integer";
}

std::vector<std::string>
ConfigSchemaIntegerType::AllowedText(const ConfigSchemaKey& key) const
{
    return {Range(key.GetLimits())};
}

bool
ConfigSchemaIntegerType::CapAt(ConfigSchemaLimits& limits, double hi) const
{
    if (limits.hi != kUintMax)
    {
        return false;
    }
    limits.hi = static_cast<uint64_t>(std::floor(hi));
    return true;
}

Ptr<AttributeValue>
ConfigSchemaIntegerType::ToAttribute(const ConfigSchemaKey& /* key */,
                                     const json& value,
                                     Ptr<const AttributeChecker> /* checker */) const
{
    return Create<UintegerValue>(value.get<uint64_t>());
}

json
ConfigSchemaIntegerType::FromAttribute(const ConfigSchemaKey& key,
                                       const AttributeValue& value,
                                       Ptr<const AttributeChecker> /* checker */) const
{
    return As<UintegerValue>(key, value, "unsigned integer").Get();
}

} // namespace ns3
