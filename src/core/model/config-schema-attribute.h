/*
 * Where a scenario key meets the ns-3 attribute it sets: a key's JSON value becomes the
 * attribute's value, and an attribute's initial value becomes the key's default, by the key's
 * type and unit ("µs" is a Time, "Mb/s" a DataRate, "KB" a byte count), so a model's
 * parameter is declared once, as its attribute. Each value type converts its own values
 * (ConfigSchemaValueType::ToAttribute); this is the entry point the helpers call.
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_ATTRIBUTE_H
#define MCAST4AI_CONFIG_SCHEMA_ATTRIBUTE_H

#include "ns3/attribute.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

class ConfigSchemaKey;

/// Receives one attribute of a configured model: the type that declares it, its name, its value.
using ConfigSchemaSetter
    = std::function<void(TypeId owner, const std::string& attribute, const AttributeValue& value)>;

/**
 * \brief Conversions between a key's JSON values and its attribute's values.
 */
class ConfigSchemaAttribute
{
public:
    /**
     * \return the attribute value of a validated JSON value of `key`; aborts for a key type
     *         that has none (objects)
     */
    static Ptr<AttributeValue> ToValue(const ConfigSchemaKey& key, const nlohmann::json& value);
    /**
     * \return the JSON value of an attribute value (an initial value) for `key`; aborts when
     *         the attribute's type does not fit the key's type and unit
     */
    static nlohmann::json FromValue(const ConfigSchemaKey& key,
                                    const AttributeValue& value,
                                    Ptr<const AttributeChecker> checker);
    /**
     * \return whether an attribute of `owner` is one of `model`'s: the helpers set a key's
     *         attribute on the object of that type they build, and skip a key of a model they
     *         do not build (another mechanism's, at its default)
     */
    static bool IsOf(TypeId model, TypeId owner);
    /**
     * Look an attribute up; aborts naming the key when `owner` has no such attribute (a typo in a
     * declaration fails the first time the schema is built).
     */
    static TypeId::AttributeInformation Lookup(const ConfigSchemaKey& key,
                                               TypeId owner,
                                               const std::string& attribute);
};

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_ATTRIBUTE_H */
