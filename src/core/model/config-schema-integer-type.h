/*
 * A non-negative integer in a range, the range's top possibly a derived variable (a host
 * count); sets a UintegerValue attribute. Integer arrays check their elements with it.
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_INTEGER_TYPE_H
#define MCAST4AI_CONFIG_SCHEMA_INTEGER_TYPE_H

#include "core/model/config-schema-value-type.h"

namespace ns3
{

/**
 * \brief ConfigSchemaType::INTEGER.
 */
class ConfigSchemaIntegerType : public ConfigSchemaValueType
{
public:
    static const ConfigSchemaIntegerType& Get();

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

    /** \return "an integer between 1 and 7 (note)", without the article when !article */
    static std::string Describe(const ConfigSchemaLimits& limits,
                                const ConfigSchemaContext* context,
                                bool article);
    /** \return the range as the reference writes it ("1 .. hosts - 1", ">= 0") */
    static std::string Range(const ConfigSchemaLimits& limits);
    /**
     * Check one integer against the limits, reporting at `path` when it fails.
     *
     * \return whether it is in range; `out` holds it then
     */
    static bool Check(const ConfigSchemaLimits& limits,
                      const nlohmann::json& value,
                      const std::string& path,
                      ConfigSchemaContext& context,
                      uint64_t& out);
};

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_INTEGER_TYPE_H */
