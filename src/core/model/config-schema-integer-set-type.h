/*
 * A non-negative integer from a fixed set (a BitString length); sets a UintegerValue attribute.
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_INTEGER_SET_TYPE_H
#define MCAST4AI_CONFIG_SCHEMA_INTEGER_SET_TYPE_H

#include "core/model/config-schema-integer-type.h"

namespace ns3
{

/**
 * \brief ConfigSchemaType::INTEGER_SET. Converts to attributes as an integer does.
 */
class ConfigSchemaIntegerSetType : public ConfigSchemaIntegerType
{
public:
    static const ConfigSchemaIntegerSetType& Get();

    std::string Expect(const ConfigSchemaKey& key,
                       const ConfigSchemaContext* context) const override;
    std::optional<nlohmann::json> Validate(const ConfigSchemaKey& key,
                                           const nlohmann::json& value,
                                           const std::string& path,
                                           ConfigSchemaContext& context) const override;
    std::vector<std::string> AllowedText(const ConfigSchemaKey& key) const override;
    bool CapAt(ConfigSchemaLimits& limits, double hi) const override;

private:
    static std::string Values(const ConfigSchemaLimits& limits);
};

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_INTEGER_SET_TYPE_H */
