/*
 * A finite number in an interval. The key's unit decides the attribute it sets: a Time ("s",
 * "ms", "µs", "ns"), a DataRate ("Mb/s", "Gb/s"), a byte count ("KB", "MB") or a Double.
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_NUMBER_TYPE_H
#define MCAST4AI_CONFIG_SCHEMA_NUMBER_TYPE_H

#include "core/model/config-schema-value-type.h"

namespace ns3
{

/**
 * \brief ConfigSchemaType::NUMBER.
 */
class ConfigSchemaNumberType : public ConfigSchemaValueType
{
public:
    static const ConfigSchemaNumberType& Get();

    std::string Expect(const ConfigSchemaKey& key,
                       const ConfigSchemaContext* context) const override;
    std::optional<nlohmann::json> Validate(const ConfigSchemaKey& key,
                                           const nlohmann::json& value,
                                           const std::string& path,
                                           ConfigSchemaContext& context) const override;
    std::string TypeText(const ConfigSchemaKey& key) const override;
    std::vector<std::string> AllowedText(const ConfigSchemaKey& key) const override;
    bool CapAt(ConfigSchemaLimits& limits, double hi) const override;
    Ptr<AttributeValue> ToAttribute(const ConfigSchemaKey& key,
                                    const nlohmann::json& value,
                                    Ptr<const AttributeChecker> checker) const override;
    nlohmann::json FromAttribute(const ConfigSchemaKey& key,
                                 const AttributeValue& value,
                                 Ptr<const AttributeChecker> checker) const override;
};

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_NUMBER_TYPE_H */
