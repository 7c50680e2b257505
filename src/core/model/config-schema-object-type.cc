#include "core/model/config-schema-object-type.h"

#include "core/model/config-schema-object.h"

namespace ns3
{

using json = nlohmann::json;

const ConfigSchemaObjectType&
ConfigSchemaObjectType::Get()
{
    static const ConfigSchemaObjectType type;
    return type;
}

std::string
ConfigSchemaObjectType::Expect(const ConfigSchemaKey& /* key */,
                               const ConfigSchemaContext* /* context */) const
{
    return "an object";
}

std::optional<json>
ConfigSchemaObjectType::Validate(const ConfigSchemaKey& key,
                                 const json& value,
                                 const std::string& path,
                                 ConfigSchemaContext& context) const
{
    json out;
    if (!key.Fields().Validate(value, path, context, std::nullopt, out))
    {
        return std::nullopt;
    }
    return out;
}

std::string
ConfigSchemaObjectType::TypeText(const ConfigSchemaKey& /* key */) const
{
    return "object";
}

std::vector<std::string>
ConfigSchemaObjectType::AllowedText(const ConfigSchemaKey& /* key */) const
{
    return {}; // its keys have rows of their own
}

void
ConfigSchemaObjectType::Read(const ConfigSchemaKey& key, const json* value, void* target) const
{
    if (value)
    {
        const ConfigSchemaBinding& b = *key.GetBinding();
        key.Fields().Read(*value, b.member(target), b.child);
    }
}

std::optional<json>
ConfigSchemaObjectType::Write(const ConfigSchemaKey& key,
                              const void* source,
                              const json* fallback) const
{
    const ConfigSchemaBinding& b = *key.GetBinding();
    return key.Fields().Write(b.memberConst(source), b.child, fallback);
}

std::optional<json>
ConfigSchemaObjectType::WriteDefault(const ConfigSchemaKey& key) const
{
    json child = key.Fields().Write(nullptr, typeid(void), nullptr);
    return child.empty() ? std::nullopt : std::optional<json>(std::move(child));
}

} // namespace ns3
