#include "core/model/config-schema-attribute.h"

#include "core/model/config-schema-key.h"
#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <sstream>

namespace ns3
{

namespace
{

using json = nlohmann::json;

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

/// Bytes per unit of a size key given in kibibytes or mebibytes; 0 otherwise.
double
ByteScale(const std::string& unit)
{
    return unit == "KB" ? 1024.0 : unit == "MB" ? 1024.0 * 1024 : 0;
}

template<class V>
const V&
As(const ConfigSchemaKey& key, const AttributeValue& value, const char* what)
{
    const V* v = dynamic_cast<const V*>(&value);
    NS_ABORT_MSG_UNLESS(v,
                        "schema key " << key.GetName() << " (" << key.TypeText() << ", unit '"
                                      << key.GetUnit() << "') sets attribute " << key.GetAttribute()
                                      << ", which is no " << what);
    return *v;
}

} // namespace

Ptr<AttributeValue>
ConfigSchemaAttribute::ToValue(const ConfigSchemaKey& key, const json& value)
{
    const std::string& unit = key.GetUnit();
    switch (key.GetType())
    {
        case ConfigSchemaType::BOOLEAN:
            return Create<BooleanValue>(value.get<bool>());
        case ConfigSchemaType::INTEGER:
        case ConfigSchemaType::INTEGER_SET:
            return Create<UintegerValue>(value.get<uint64_t>());
        case ConfigSchemaType::NUMBER:
        {
            const double x = value.get<double>();
            if (std::optional<Time::Unit> t = TimeUnit(unit))
            {
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
        case ConfigSchemaType::STRING:
        case ConfigSchemaType::ENUM:
            // An enum attribute takes its names from a string (AttributeChecker::CreateValidValue).
            return Create<StringValue>(value.get<std::string>());
        case ConfigSchemaType::INTEGER_ARRAY:
        {
            std::ostringstream list;
            for (std::size_t i = 0; i < value.size(); ++i)
            {
                list << (i ? "," : "") << value[i].get<uint64_t>();
            }
            return Create<StringValue>(list.str());
        }
        case ConfigSchemaType::OBJECT:
        case ConfigSchemaType::OBJECT_ARRAY:
            break;
    }
    NS_ABORT_MSG("schema key " << key.GetName() << ": an object sets no attribute");
    return nullptr;
}

json
ConfigSchemaAttribute::FromValue(const ConfigSchemaKey& key,
                                 const AttributeValue& value,
                                 Ptr<const AttributeChecker> checker)
{
    const std::string& unit = key.GetUnit();
    switch (key.GetType())
    {
        case ConfigSchemaType::BOOLEAN:
            return As<BooleanValue>(key, value, "boolean").Get();
        case ConfigSchemaType::INTEGER:
        case ConfigSchemaType::INTEGER_SET:
            return As<UintegerValue>(key, value, "unsigned integer").Get();
        case ConfigSchemaType::NUMBER:
            if (std::optional<Time::Unit> t = TimeUnit(unit))
            {
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
        case ConfigSchemaType::STRING:
        case ConfigSchemaType::ENUM:
            return value.SerializeToString(checker);
        case ConfigSchemaType::INTEGER_ARRAY:
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
        case ConfigSchemaType::OBJECT:
        case ConfigSchemaType::OBJECT_ARRAY:
            break;
    }
    NS_ABORT_MSG("schema key " << key.GetName() << ": an object has no attribute value");
    return json();
}

bool
ConfigSchemaAttribute::IsOf(TypeId model, TypeId owner)
{
    return model == owner || model.IsChildOf(owner);
}

TypeId::AttributeInformation
ConfigSchemaAttribute::Lookup(const ConfigSchemaKey& key,
                              TypeId owner,
                              const std::string& attribute)
{
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(owner.LookupAttributeByName(attribute, &info),
                        "schema key " << key.GetName() << " sets attribute " << attribute
                                      << ", which " << owner.GetName() << " does not have");
    return info;
}

} // namespace ns3
