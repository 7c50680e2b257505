/*
 * One of a fixed list of names, some possibly reserved (named in messages and the reference,
 * refused as "not implemented yet"); a misspelling gets a suggestion. Sets an attribute from
 * the name's string, as ns-3's EnumValue reads its names (AttributeChecker::CreateValidValue).
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_ENUM_TYPE_H
#define MCAST4AI_CONFIG_SCHEMA_ENUM_TYPE_H

#include "core/model/config-schema-string-type.h"

namespace ns3
{

/**
 * \brief ConfigSchemaType::ENUM. Converts to attributes as a string does.
 */
class ConfigSchemaEnumType : public ConfigSchemaStringType
{
public:
    static const ConfigSchemaEnumType& Get();

    std::string Expect(const ConfigSchemaKey& key,
                       const ConfigSchemaContext* context) const override;
    std::optional<nlohmann::json> Validate(const ConfigSchemaKey& key,
                                           const nlohmann::json& value,
                                           const std::string& path,
                                           ConfigSchemaContext& context) const override;
    std::string TypeText(const ConfigSchemaKey& key) const override;
    std::vector<std::string> AllowedText(const ConfigSchemaKey& key) const override;
};

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_ENUM_TYPE_H */
