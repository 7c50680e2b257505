#include "core/model/config-schema-object-array-type.h"

#include "core/model/config-schema.h"

#include <map>

namespace ns3
{

using json = nlohmann::json;

const ConfigSchemaObjectArrayType&
ConfigSchemaObjectArrayType::Get()
{
    static const ConfigSchemaObjectArrayType type;
    return type;
}

std::string
ConfigSchemaObjectArrayType::Expect(const ConfigSchemaKey& key,
                                    const ConfigSchemaContext* /* context */) const
{
    const ConfigSchemaLimits& limits = key.GetLimits();
    std::string noun = limits.noun;
    if (noun.empty())
    {
        noun = "{" + ConfigSchema::Join(key.Fields().KeyNames()) + "} objects";
    }
    return (limits.minItems > 0 ? "a non-empty array of " : "an array of ") + noun;
}

bool
ConfigSchemaObjectArrayType::ValidateElements(const ConfigSchemaKey& key,
                                              const json& v,
                                              const std::string& path,
                                              ConfigSchemaContext& context,
                                              json& out) const
{
    bool ok = true;
    for (std::size_t i = 0; i < v.size(); ++i)
    {
        json e;
        ok = key.Fields().Validate(v[i], ConfigSchema::IndexPath(path, i), context, i, e) && ok;
        out.push_back(std::move(e));
    }
    // Compare only values that validated; the others were reported already.
    for (const std::string& unique : key.GetLimits().uniqueBy)
    {
        std::map<std::string, std::size_t> first;
        for (std::size_t i = 0; i < out.size(); ++i)
        {
            auto it = out[i].find(unique);
            if (!out[i].is_object() || it == out[i].end())
            {
                continue;
            }
            auto [at, inserted] = first.emplace(it->dump(), i);
            if (!inserted)
            {
                const std::string other
                    = ConfigSchema::KeyPath(ConfigSchema::IndexPath(path, at->second), unique);
                context.AddIssue(ConfigSchema::KeyPath(ConfigSchema::IndexPath(path, i), unique),
                                 "must be unique, but " + other + " is also "
                                     + ConfigSchema::ValueText(*it));
                ok = false;
            }
        }
    }
    return ok;
}

std::string
ConfigSchemaObjectArrayType::TypeText(const ConfigSchemaKey& /* key */) const
{
    return "array of objects";
}

std::vector<std::string>
ConfigSchemaObjectArrayType::ElementText(const ConfigSchemaKey& /* key */) const
{
    return {}; // the elements' keys have rows of their own
}

void
ConfigSchemaObjectArrayType::Read(const ConfigSchemaKey& key, const json* value, void* target) const
{
    const ConfigSchemaBinding& b = *key.GetBinding();
    const std::size_t n = (value && value->is_array()) ? value->size() : 0;
    b.resize(target, n);
    for (std::size_t i = 0; i < n; ++i)
    {
        key.Fields().Read((*value)[i], b.element(target, i), b.child);
    }
}

std::optional<json>
ConfigSchemaObjectArrayType::Write(const ConfigSchemaKey& key,
                                   const void* source,
                                   const json* fallback) const
{
    const ConfigSchemaBinding& b = *key.GetBinding();
    json array = json::array();
    const std::size_t n = b.size(source);
    for (std::size_t i = 0; i < n; ++i)
    {
        const json* efb = (fallback && fallback->is_array() && i < fallback->size())
                              ? &(*fallback)[i]
                              : nullptr;
        array.push_back(key.Fields().Write(b.elementConst(source, i), b.child, efb));
    }
    return array;
}

} // namespace ns3
