/*
 * A nested object with its own keys (ConfigSchemaKey::Fields), read into and written from a
 * struct member.
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_OBJECT_TYPE_H
#define MCAST4AI_CONFIG_SCHEMA_OBJECT_TYPE_H

#include "core/model/config-schema-value-type.h"

namespace ns3
{

/**
 * \brief ConfigSchemaType::OBJECT. Sets no attribute itself; its keys do.
 */
class ConfigSchemaObjectType : public ConfigSchemaValueType
{
public:
    static const ConfigSchemaObjectType& Get();

    std::string Expect(const ConfigSchemaKey& key,
                       const ConfigSchemaContext* context) const override;
    std::optional<nlohmann::json> Validate(const ConfigSchemaKey& key,
                                           const nlohmann::json& value,
                                           const std::string& path,
                                           ConfigSchemaContext& context) const override;
    std::string TypeText(const ConfigSchemaKey& key) const override;
    std::vector<std::string> AllowedText(const ConfigSchemaKey& key) const override;
    void Read(const ConfigSchemaKey& key, const nlohmann::json* value, void* target) const override;
    std::optional<nlohmann::json> Write(const ConfigSchemaKey& key,
                                        const void* source,
                                        const nlohmann::json* fallback) const override;
    /** \return the object of its keys' defaults, nullopt when that is empty */
    std::optional<nlohmann::json> WriteDefault(const ConfigSchemaKey& key) const override;
};

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_OBJECT_TYPE_H */
