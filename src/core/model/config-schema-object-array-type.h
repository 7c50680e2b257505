/*
 * An array of objects with the same keys (ConfigSchemaKey::Fields), optionally unique by some
 * of them, read into and written from a std::vector of structs.
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_OBJECT_ARRAY_TYPE_H
#define MCAST4AI_CONFIG_SCHEMA_OBJECT_ARRAY_TYPE_H

#include "core/model/config-schema-array-type.h"

namespace ns3
{

/**
 * \brief ConfigSchemaType::OBJECT_ARRAY. Sets no attribute itself.
 */
class ConfigSchemaObjectArrayType : public ConfigSchemaArrayType
{
public:
    static const ConfigSchemaObjectArrayType& Get();

    std::string Expect(const ConfigSchemaKey& key,
                       const ConfigSchemaContext* context) const override;
    std::string TypeText(const ConfigSchemaKey& key) const override;
    void Read(const ConfigSchemaKey& key, const nlohmann::json* value, void* target) const override;
    std::optional<nlohmann::json> Write(const ConfigSchemaKey& key,
                                        const void* source,
                                        const nlohmann::json* fallback) const override;

protected:
    bool ValidateElements(const ConfigSchemaKey& key,
                          const nlohmann::json& array,
                          const std::string& path,
                          ConfigSchemaContext& context,
                          nlohmann::json& out) const override;
    std::vector<std::string> ElementText(const ConfigSchemaKey& key) const override;
};

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_OBJECT_ARRAY_TYPE_H */
