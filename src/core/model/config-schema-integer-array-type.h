/*
 * An array of non-negative integers in a range (host indices, say), optionally distinct, and
 * optionally written as "all" or a count n (the first n indices below the bound). Sets a
 * string attribute as a comma-separated list.
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_INTEGER_ARRAY_TYPE_H
#define MCAST4AI_CONFIG_SCHEMA_INTEGER_ARRAY_TYPE_H

#include "core/model/config-schema-array-type.h"

namespace ns3
{

/**
 * \brief ConfigSchemaType::INTEGER_ARRAY; each element is checked as an integer key is
 * (ConfigSchemaIntegerType::Check).
 */
class ConfigSchemaIntegerArrayType : public ConfigSchemaArrayType
{
public:
    static const ConfigSchemaIntegerArrayType& Get();

    std::string Expect(const ConfigSchemaKey& key,
                       const ConfigSchemaContext* context) const override;
    /** Expands "all" or a count, then checks the array. */
    std::optional<nlohmann::json> Validate(const ConfigSchemaKey& key,
                                           const nlohmann::json& value,
                                           const std::string& path,
                                           ConfigSchemaContext& context) const override;
    std::string TypeText(const ConfigSchemaKey& key) const override;
    bool CapAt(ConfigSchemaLimits& limits, double hi) const override;
    Ptr<AttributeValue> ToAttribute(const ConfigSchemaKey& key,
                                    const nlohmann::json& value,
                                    Ptr<const AttributeChecker> checker) const override;
    nlohmann::json FromAttribute(const ConfigSchemaKey& key,
                                 const AttributeValue& value,
                                 Ptr<const AttributeChecker> checker) const override;

protected:
    bool ValidateElements(const ConfigSchemaKey& key,
                          const nlohmann::json& array,
                          const std::string& path,
                          ConfigSchemaContext& context,
                          nlohmann::json& out) const override;
    std::vector<std::string> ElementText(const ConfigSchemaKey& key) const override;
};

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_INTEGER_ARRAY_TYPE_H */
