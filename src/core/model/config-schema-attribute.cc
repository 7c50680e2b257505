#include "core/model/config-schema-attribute.h"

#include "core/model/config-schema-value-type.h"
#include "ns3/abort.h"

namespace ns3
{

Ptr<AttributeValue>
ConfigSchemaAttribute::ToValue(const ConfigSchemaKey& key, const nlohmann::json& value)
{
    return key.GetValueType().ToAttribute(key, value, key.GetAttributeChecker());
}

nlohmann::json
ConfigSchemaAttribute::FromValue(const ConfigSchemaKey& key,
                                 const AttributeValue& value,
                                 Ptr<const AttributeChecker> checker)
{
    return key.GetValueType().FromAttribute(key, value, checker);
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
