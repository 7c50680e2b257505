/*
 * What every array key shares: its length (at least, at most) and how the reference lists it.
 * The element check is the subclass's: integers or objects.
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_ARRAY_TYPE_H
#define MCAST4AI_CONFIG_SCHEMA_ARRAY_TYPE_H

#include "core/model/config-schema-value-type.h"

namespace ns3
{

/**
 * \brief The length checks of an array key; ConfigSchemaIntegerArrayType and
 * ConfigSchemaObjectArrayType check the elements.
 */
class ConfigSchemaArrayType : public ConfigSchemaValueType
{
public:
    std::optional<nlohmann::json> Validate(const ConfigSchemaKey& key,
                                           const nlohmann::json& value,
                                           const std::string& path,
                                           ConfigSchemaContext& context) const override;
    /** \return the elements' constraints, then the length's, distinctness and unique keys */
    std::vector<std::string> AllowedText(const ConfigSchemaKey& key) const override;

protected:
    /**
     * Check every element of an array of acceptable length, and the elements together.
     *
     * \param out receives the normalized elements
     * \return whether none failed (each failure is reported)
     */
    virtual bool ValidateElements(const ConfigSchemaKey& key,
                                  const nlohmann::json& array,
                                  const std::string& path,
                                  ConfigSchemaContext& context,
                                  nlohmann::json& out) const = 0;
    /** \return what the reference says about every element ("elements 0 .. 7") */
    virtual std::vector<std::string> ElementText(const ConfigSchemaKey& key) const = 0;
};

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_ARRAY_TYPE_H */
