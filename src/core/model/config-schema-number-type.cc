#include "core/model/config-schema-number-type.h"

#include "core/model/config-schema.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

using json = nlohmann::json;

namespace
{

/// The time unit a key's unit names, if it is one.
std::optional<Time::Unit>
TimeUnit(const std::string& unit)
{
    if (unit == "s")
    {
        return Time::S;
    }
    if (unit == "ms")
    {
        return Time::MS;
    }
    if (unit == "µs" || unit == "us")
    {
        return Time::US;
    }
    if (unit == "ns")
    {
        return Time::NS;
    }
    return std::nullopt;
}

/// Bits per second per unit of a rate key; 0 when the unit is no rate.
double
RateScale(const std::string& unit)
{
    return unit == "Mb/s" ? 1e6 : unit == "Gb/s" ? 1e9 : 0;
}

/// Events per second per unit of a count-rate key given in millions (a double attribute in
/// events per second); 0 otherwise.
double
CountRateScale(const std::string& unit)
{
    return unit == "Mpps" ? 1e6 : 0;
}

/// Whether the attribute is a plain double. A duration key then passes its number in the key's
/// unit, as is (a duration a model keeps in µs as a double would round to the clock's tick as
/// a Time); a rate or byte key into a double is not converted, and its attribute rejects it.
bool
IsPlainDouble(const Ptr<const AttributeChecker>& checker)
{
    return checker && checker->GetValueTypeName() == "ns3::DoubleValue";
}

/// Bytes per unit of a size key given in kibibytes or mebibytes; 0 otherwise.
double
ByteScale(const std::string& unit)
{
    return unit == "KB" ? 1024.0 : unit == "MB" ? 1024.0 * 1024 : 0;
}

} // namespace

const ConfigSchemaNumberType&
ConfigSchemaNumberType::Get()
{
    static const ConfigSchemaNumberType type;
    return type;
}

std::string
ConfigSchemaNumberType::Expect(const ConfigSchemaKey& key, const ConfigSchemaContext* context) const
{
    const std::string text = key.GetLimits().bounds.Text();
    const std::string note = key.GetLimits().FormatNote(context);
    return "a number" + (text.empty() ? "" : " " + text) + (note.empty() ? "" : " (" + note + ")");
}

std::optional<json>
ConfigSchemaNumberType::Validate(const ConfigSchemaKey& key,
                                 const json& v,
                                 const std::string& path,
                                 ConfigSchemaContext& context) const
{
    if (v.is_number() && key.GetLimits().bounds.Contains(v.get<double>()))
    {
        return json(v.get<double>());
    }
    context.AddIssue(path, "must be " + Expect(key, &context) + ", got " + ConfigSchema::Shown(v));
    return std::nullopt;
}

std::string
ConfigSchemaNumberType::TypeText(const ConfigSchemaKey& /* key */) const
{
    return "number";
}

std::vector<std::string>
ConfigSchemaNumberType::AllowedText(const ConfigSchemaKey& key) const
{
    const std::string text = key.GetLimits().bounds.Text();
    return {text.empty() ? "any" : text};
}

bool
ConfigSchemaNumberType::CapAt(ConfigSchemaLimits& limits, double hi) const
{
    if (std::isfinite(limits.bounds.hi))
    {
        return false;
    }
    limits.bounds.hi = hi;
    limits.bounds.hiOpen = false;
    return true;
}

Ptr<AttributeValue>
ConfigSchemaNumberType::ToAttribute(const ConfigSchemaKey& key,
                                    const json& value,
                                    Ptr<const AttributeChecker> checker) const
{
    const std::string& unit = key.GetUnit();
    const double x = value.get<double>();
    if (double perSecond = CountRateScale(unit))
    {
        return Create<DoubleValue>(x * perSecond);
    }
    if (std::optional<Time::Unit> t = TimeUnit(unit))
    {
        if (IsPlainDouble(checker))
        {
            return Create<DoubleValue>(x);
        }
        return Create<TimeValue>(Time::FromDouble(x, *t));
    }
    if (double bps = RateScale(unit))
    {
        return Create<DataRateValue>(DataRate(static_cast<uint64_t>(x * bps)));
    }
    if (double bytes = ByteScale(unit))
    {
        return Create<UintegerValue>(static_cast<uint64_t>(std::llround(x * bytes)));
    }
    return Create<DoubleValue>(x);
}

json
ConfigSchemaNumberType::FromAttribute(const ConfigSchemaKey& key,
                                      const AttributeValue& value,
                                      Ptr<const AttributeChecker> checker) const
{
    const std::string& unit = key.GetUnit();
    if (double perSecond = CountRateScale(unit))
    {
        return As<DoubleValue>(key, value, "double").Get() / perSecond;
    }
    if (std::optional<Time::Unit> t = TimeUnit(unit))
    {
        if (IsPlainDouble(checker))
        {
            return As<DoubleValue>(key, value, "double").Get();
        }
        return As<TimeValue>(key, value, "time").Get().ToDouble(*t);
    }
    if (double bps = RateScale(unit))
    {
        return As<DataRateValue>(key, value, "data rate").Get().GetBitRate() / bps;
    }
    if (double bytes = ByteScale(unit))
    {
        return As<UintegerValue>(key, value, "byte count").Get() / bytes;
    }
    return As<DoubleValue>(key, value, "double").Get();
}

} // namespace ns3
