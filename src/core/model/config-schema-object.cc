#include "core/model/config-schema-object.h"

#include "core/model/config-schema-boolean-type.h"
#include "core/model/config-schema-enum-type.h"
#include "core/model/config-schema-integer-array-type.h"
#include "core/model/config-schema-integer-set-type.h"
#include "core/model/config-schema-integer-type.h"
#include "core/model/config-schema-number-type.h"
#include "core/model/config-schema-object-array-type.h"
#include "core/model/config-schema-object-type.h"
#include "core/model/config-schema-string-type.h"
#include "core/model/config-schema.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ConfigSchemaObject");

namespace
{

using json = nlohmann::json;

// A declared default in the form a written value takes (integers unsigned, numbers double);
// a default the key itself rejects is a bug in the declaration.
json
NormalizedDefault(const ConfigSchemaKey& key, const json& value)
{
    ConfigSchemaContext scratch(1);
    std::optional<json> v = key.Validate(value, key.GetName(), scratch);
    if (!v)
    {
        // A default that needs the document's context (a host count) cannot be checked here.
        throw std::logic_error("ConfigSchema: default of " + key.GetName() + " is invalid: "
                               + (scratch.GetIssues().empty()
                                      ? "it needs a derived variable"
                                      : scratch.GetIssues().front().reason));
    }
    return *v;
}

/// Whether `defaults` name a key of `chain` not bound to `type`: one whose value is kept in the
/// JSON beside the struct, not in it.
bool
NamesUnboundKey(const std::vector<const ConfigSchemaObject*>& chain,
                const json& defaults,
                std::type_index type)
{
    for (auto d = defaults.begin(); d != defaults.end(); ++d)
    {
        for (const ConfigSchemaObject* level : chain)
        {
            const ConfigSchemaKey* key = level->FindKey(d.key());
            if (key && !key->IsBoundTo(type))
            {
                return true;
            }
        }
    }
    return false;
}

} // namespace

ConfigSchemaObject::ConfigSchemaObject() = default;

ConfigSchemaObject::~ConfigSchemaObject() = default;

// ---------------------------------------------------------------------------------------------
// Declaration

ConfigSchemaKey&
ConfigSchemaObject::Add(const std::string& name,
                        ConfigSchemaType type,
                        const ConfigSchemaValueType& valueType)
{
    // A name may appear once along any chain of variants: otherwise a document could not say
    // which declaration it meant.
    for (const ConfigSchemaObject* o = this; o; o = o->m_parent)
    {
        if (o->FindKey(name))
        {
            throw std::logic_error("ConfigSchemaObject: key " + name + " declared twice");
        }
    }
    m_keys.push_back(std::make_unique<ConfigSchemaKey>(name, type, valueType));
    // A nested object configures the same model unless it names its own.
    m_keys.back()->m_model = m_model;
    if (m_keys.back()->m_fields)
    {
        m_keys.back()->m_fields->m_model = m_model;
    }
    return *m_keys.back();
}

ConfigSchemaKey&
ConfigSchemaObject::Integer(const std::string& name, uint64_t lo, uint64_t hi)
{
    ConfigSchemaKey& k = Add(name, ConfigSchemaType::INTEGER, ConfigSchemaIntegerType::Get());
    k.m_limits.lo = lo;
    k.m_limits.hi = hi;
    return k;
}

ConfigSchemaKey&
ConfigSchemaObject::IntegerIn(const std::string& name, const std::vector<uint64_t>& allowed)
{
    ConfigSchemaKey& k
        = Add(name, ConfigSchemaType::INTEGER_SET, ConfigSchemaIntegerSetType::Get());
    k.m_limits.allowed = allowed;
    return k;
}

ConfigSchemaKey&
ConfigSchemaObject::Number(const std::string& name, const ConfigSchemaBounds& bounds)
{
    ConfigSchemaKey& k = Add(name, ConfigSchemaType::NUMBER, ConfigSchemaNumberType::Get());
    k.m_limits.bounds = bounds;
    return k;
}

ConfigSchemaKey&
ConfigSchemaObject::Boolean(const std::string& name)
{
    return Add(name, ConfigSchemaType::BOOLEAN, ConfigSchemaBooleanType::Get());
}

ConfigSchemaKey&
ConfigSchemaObject::String(const std::string& name)
{
    return Add(name, ConfigSchemaType::STRING, ConfigSchemaStringType::Get());
}

ConfigSchemaKey&
ConfigSchemaObject::Enum(const std::string& name,
                         const std::vector<std::string>& names,
                         const std::vector<std::string>& implemented)
{
    ConfigSchemaKey& k = Add(name, ConfigSchemaType::ENUM, ConfigSchemaEnumType::Get());
    for (const auto& n : names)
    {
        k.AddName(n, implemented.empty());
    }
    for (const auto& n : implemented)
    {
        k.AddName(n, true);
    }
    return k;
}

ConfigSchemaKey&
ConfigSchemaObject::Object(const std::string& name)
{
    return Add(name, ConfigSchemaType::OBJECT, ConfigSchemaObjectType::Get());
}

ConfigSchemaKey&
ConfigSchemaObject::ObjectArray(const std::string& name, const std::string& noun)
{
    ConfigSchemaKey& k
        = Add(name, ConfigSchemaType::OBJECT_ARRAY, ConfigSchemaObjectArrayType::Get());
    k.m_limits.noun = noun;
    return k;
}

ConfigSchemaKey&
ConfigSchemaObject::IntegerArray(const std::string& name,
                                 const std::string& noun,
                                 uint64_t lo,
                                 uint64_t hi)
{
    ConfigSchemaKey& k
        = Add(name, ConfigSchemaType::INTEGER_ARRAY, ConfigSchemaIntegerArrayType::Get());
    k.m_limits.noun = noun;
    k.m_limits.lo = lo;
    k.m_limits.hi = hi;
    return k;
}

ConfigSchemaKey&
ConfigSchemaObject::Discriminator(const std::string& name, const std::vector<std::string>& names)
{
    if (!m_discriminator.empty())
    {
        throw std::logic_error("ConfigSchemaObject: a second discriminator " + name);
    }
    ConfigSchemaKey& k = Add(name, ConfigSchemaType::ENUM, ConfigSchemaEnumType::Get());
    for (const auto& n : names)
    {
        k.AddName(n, false); // implemented once a variant declares it
    }
    m_discriminator = name;
    return k;
}

ConfigSchemaObject&
ConfigSchemaObject::Model(std::optional<TypeId> tid)
{
    m_model = tid;
    return *this;
}

std::optional<TypeId>
ConfigSchemaObject::GetModel() const
{
    return m_model;
}

void
ConfigSchemaObject::ApplyAttributes(const nlohmann::json& filled,
                                    const ConfigSchemaSetter& set) const
{
    const std::vector<const ConfigSchemaObject*> chain = Chain(filled);
    json scratch;
    const json& complete = WithPresetDefaults(chain, filled, scratch);
    for (const ConfigSchemaObject* level : chain)
    {
        for (const auto& key : level->m_keys)
        {
            auto it = complete.find(key->GetName());
            if (it == complete.end())
            {
                continue;
            }
            // A nested object of the same model (switch.pfc) is this object's; one that
            // configures another model (p2mp.bier) is that model's to apply, when selected.
            if (key->GetType() == ConfigSchemaType::OBJECT && it->is_object()
                && key->Fields().m_model == m_model)
            {
                key->Fields().ApplyAttributes(*it, set);
                continue;
            }
            if (key->GetAttribute().empty())
            {
                continue;
            }
            NS_LOG_LOGIC(key->GetName()
                         << " = " << it->dump() << " sets " << key->GetAttributeOwner().GetName()
                         << "::" << key->GetAttribute());
            set(key->GetAttributeOwner(),
                key->GetAttribute(),
                *ConfigSchemaAttribute::ToValue(*key, *it));
        }
    }
}

void
ConfigSchemaObject::Visit(
    const std::string& path,
    const std::function<void(const std::string&, const ConfigSchemaKey&)>& visit) const
{
    for (const auto& key : m_keys)
    {
        const std::string keyPath = ConfigSchema::KeyPath(path, key->GetName());
        visit(keyPath, *key);
        if (key->GetType() == ConfigSchemaType::OBJECT)
        {
            key->Fields().Visit(keyPath, visit);
        }
        else if (key->GetType() == ConfigSchemaType::OBJECT_ARRAY)
        {
            key->Fields().Visit(keyPath + "[]", visit);
        }
    }
    for (const VariantDecl& v : m_variants)
    {
        v.object->Visit(path, visit);
    }
}

std::vector<std::string>
ConfigSchemaObject::KeyNames() const
{
    std::vector<std::string> names;
    for (const auto& key : m_keys)
    {
        names.push_back(key->GetName());
    }
    return names;
}

ConfigSchemaObject&
ConfigSchemaObject::Variant(const std::string& value, const std::string& doc)
{
    if (m_discriminator.empty())
    {
        throw std::logic_error("ConfigSchemaObject: variant " + value + " without discriminator");
    }
    if (FindVariant(value))
    {
        throw std::logic_error("ConfigSchemaObject: variant " + value + " declared twice");
    }
    FindKey(m_discriminator)->AddName(value, true);
    VariantDecl v;
    v.value = value;
    v.object = std::make_unique<ConfigSchemaObject>();
    v.object->m_parent = this;
    v.object->m_variantValue = value;
    v.object->m_doc = doc;
    v.object->m_model = m_model;
    m_variants.push_back(std::move(v));
    return *m_variants.back().object;
}

ConfigSchemaObject&
ConfigSchemaObject::Rule(const std::string& target,
                         const std::vector<std::string>& keys,
                         ConfigSchemaRuleFunction check,
                         const std::string& doc)
{
    m_rules.push_back({target, keys, std::move(check), doc});
    return *this;
}

ConfigSchemaObject&
ConfigSchemaObject::LessOrEqual(const std::string& a, const std::string& b)
{
    return Rule(
        a,
        {a, b},
        [a, b](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* x = v.Get(a);
            const json* y = v.Get(b);
            if (!x || !y || !x->is_number() || !y->is_number()
                || x->get<double>() <= y->get<double>())
            {
                return std::nullopt;
            }
            return "must be <= " + v.Path(b) + " (" + ConfigSchema::ValueText(*y) + "), got "
                   + ConfigSchema::ValueText(*x);
        },
        ConfigSchema::Code(a) + " <= " + ConfigSchema::Code(b) + " when both are given");
}

ConfigSchemaObject&
ConfigSchemaObject::Different(const std::string& a, const std::string& b, const std::string& why)
{
    return Rule(
        a,
        {a, b},
        [a, b, why](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* x = v.Get(a);
            const json* y = v.Get(b);
            if (!x || !y || *x != *y)
            {
                return std::nullopt;
            }
            return "must differ from " + v.Path(b) + " (" + ConfigSchema::ValueText(*y) + ")"
                   + (why.empty() ? "" : ": " + why);
        },
        ConfigSchema::Code(a) + " != " + ConfigSchema::Code(b) + (why.empty() ? "" : ": " + why));
}

ConfigSchemaObject&
ConfigSchemaObject::Requires(const std::string& key,
                             const std::vector<std::string>& values,
                             const std::string& other,
                             const std::vector<std::string>& otherValues,
                             const std::string& why)
{
    auto contains = [](const std::vector<std::string>& list, const json* v)
    {
        return v && v->is_string()
               && std::find(list.begin(), list.end(), v->get<std::string>()) != list.end();
    };
    return Rule(
        key,
        {key, other},
        [=](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* x = v.Get(key);
            const json* y = v.Get(other);
            if (!y || !contains(values, x) || contains(otherValues, y))
            {
                return std::nullopt;
            }
            return ConfigSchema::ValueText(*x) + " needs " + v.Path(other) + " "
                   + ConfigSchema::QuoteList(otherValues, "or") + ", got "
                   + ConfigSchema::ValueText(*y) + (why.empty() ? "" : " (" + why + ")");
        },
        ConfigSchema::Code(key) + " " + ConfigSchema::QuoteList(values, "or") + " needs "
            + ConfigSchema::Code(other) + " " + ConfigSchema::QuoteList(otherValues, "or")
            + (why.empty() ? "" : ": " + why));
}

ConfigSchemaObject&
ConfigSchemaObject::OnlyWith(const std::string& key,
                             const std::vector<std::string>& allowed,
                             const std::string& other,
                             const std::string& otherValue,
                             const std::string& why)
{
    return Rule(
        key,
        {key, other},
        [=](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* x = v.Get(key);
            const json* y = v.Get(other);
            if (!x || !y || *y != json(otherValue) || !x->is_string()
                || std::find(allowed.begin(), allowed.end(), x->get<std::string>())
                       != allowed.end())
            {
                return std::nullopt;
            }
            return "must be " + ConfigSchema::QuoteList(allowed, "or") + " with " + v.Path(other)
                   + " " + ConfigSchema::Quote(otherValue) + ", got " + ConfigSchema::ValueText(*x)
                   + (why.empty() ? "" : ": " + why);
        },
        ConfigSchema::Code(other) + " " + ConfigSchema::Quote(otherValue) + " allows only "
            + ConfigSchema::Code(key) + " " + ConfigSchema::QuoteList(allowed, "or")
            + (why.empty() ? "" : ": " + why));
}

ConfigSchemaObject&
ConfigSchemaObject::Preset(const std::string& selector,
                           const std::string& value,
                           const nlohmann::json& defaults,
                           const std::string& doc)
{
    if (!m_discriminator.empty() && defaults.contains(m_discriminator))
    {
        // The variant is chosen before defaults are filled: a preset cannot choose it.
        throw std::logic_error("ConfigSchema: preset " + value + " defaults the discriminator "
                               + m_discriminator);
    }
    m_presets.push_back({selector, value, defaults, doc});
    return *this;
}

ConfigSchemaObject&
ConfigSchemaObject::Derive(const std::string& variable,
                           ConfigSchemaDeriveFunction derive,
                           const std::string& doc)
{
    m_derives.push_back({variable, std::move(derive), doc});
    return *this;
}

void
ConfigSchemaObject::LimitUnit(const std::string& unit, double hi, const std::string& why)
{
    for (auto& k : m_keys)
    {
        if (k->m_fields)
        {
            k->m_fields->LimitUnit(unit, hi, why);
        }
        if (k->m_unit == unit && k->GetValueType().CapAt(k->m_limits, hi)
            && k->m_limits.note.empty())
        {
            k->m_limits.note = why;
        }
    }
    for (auto& v : m_variants)
    {
        v.object->LimitUnit(unit, hi, why);
    }
}

ConfigSchemaObject&
ConfigSchemaObject::Section(const std::string& title, const std::string& intro)
{
    m_sectionTitle = title;
    m_sectionIntro = intro;
    return *this;
}

ConfigSchemaObject&
ConfigSchemaObject::Doc(const std::string& doc)
{
    m_doc = doc;
    return *this;
}

const ConfigSchemaKey*
ConfigSchemaObject::FindKey(const std::string& name) const
{
    for (const auto& k : m_keys)
    {
        if (k->GetName() == name)
        {
            return k.get();
        }
    }
    return nullptr;
}

ConfigSchemaKey*
ConfigSchemaObject::FindKey(const std::string& name)
{
    return const_cast<ConfigSchemaKey*>(std::as_const(*this).FindKey(name));
}

const ConfigSchemaObject*
ConfigSchemaObject::FindVariant(const std::string& value) const
{
    for (const auto& v : m_variants)
    {
        if (v.value == value)
        {
            return v.object.get();
        }
    }
    return nullptr;
}

ConfigSchemaObject*
ConfigSchemaObject::FindVariant(const std::string& value)
{
    return const_cast<ConfigSchemaObject*>(std::as_const(*this).FindVariant(value));
}

const std::string&
ConfigSchemaObject::GetDiscriminator() const
{
    return m_discriminator;
}

std::optional<std::type_index>
ConfigSchemaObject::GetStructType() const
{
    return m_structType;
}

void
ConfigSchemaObject::SetStructType(std::type_index type)
{
    m_structType = type;
}

bool
ConfigSchemaObject::HasOwnStruct(std::type_index type) const
{
    return m_parent && m_structType && *m_structType != type;
}

std::string
ConfigSchemaObject::VariantContext() const
{
    if (!m_parent)
    {
        return "";
    }
    return "for " + m_parent->m_discriminator + " " + ConfigSchema::Quote(m_variantValue);
}

// ---------------------------------------------------------------------------------------------
// Validation

void
ConfigSchemaObject::ReportUndeclared(const nlohmann::json& value,
                                     const std::string& path,
                                     const std::vector<const ConfigSchemaObject*>& chain,
                                     ConfigSchemaContext& context) const
{
    std::vector<std::string> known;
    for (const ConfigSchemaObject* level : chain)
    {
        for (const auto& k : level->m_keys)
        {
            known.push_back(k->GetName());
        }
    }
    auto isKnown = [&known](const std::string& key)
    {
        return std::find(known.begin(), known.end(), key) != known.end();
    };
    const std::string knownText = "; known keys: " + ConfigSchema::Join(known);

    // Keys of the variants not chosen, in declaration order, each with the variants it is in.
    std::vector<std::string> reported;
    // Innermost first: 'bytes' in a flows 'list' belongs to the other patterns before it
    // belongs to other workload types.
    for (std::size_t l = chain.size() - 1; l-- > 0;)
    {
        const ConfigSchemaObject* level = chain[l];
        const ConfigSchemaObject* chosen = chain[l + 1];
        std::vector<std::pair<std::string, std::vector<std::string>>> owners;
        for (const VariantDecl& v : level->m_variants)
        {
            if (v.object.get() == chosen)
            {
                continue;
            }
            // Every key of the variant, its nested variants included.
            std::vector<const ConfigSchemaObject*> todo{v.object.get()};
            while (!todo.empty())
            {
                const ConfigSchemaObject* o = todo.back();
                todo.pop_back();
                for (const auto& k : o->m_keys)
                {
                    auto it = std::find_if(owners.begin(),
                                           owners.end(),
                                           [&k](const auto& e)
                                           {
                                               return e.first == k->GetName();
                                           });
                    if (it == owners.end())
                    {
                        owners.push_back({k->GetName(), {v.value}});
                    }
                    else if (std::find(it->second.begin(), it->second.end(), v.value)
                             == it->second.end())
                    {
                        it->second.push_back(v.value);
                    }
                }
                for (const VariantDecl& nested : o->m_variants)
                {
                    todo.push_back(nested.object.get());
                }
            }
        }
        for (const auto& [key, values] : owners)
        {
            if (isKnown(key) || !value.contains(key)
                || std::find(reported.begin(), reported.end(), key) != reported.end())
            {
                continue;
            }
            reported.push_back(key);
            context.AddIssue(ConfigSchema::KeyPath(path, key),
                             "unknown key " + ConfigSchema::Quote(key) + " "
                                 + chosen->VariantContext() + ": it applies only to "
                                 + level->m_discriminator + " "
                                 + ConfigSchema::QuoteList(values, "or") + knownText);
        }
    }

    const std::string where = chain.back()->VariantContext();
    for (const auto& item : value.items())
    {
        const std::string& key = item.key();
        if (isKnown(key) || std::find(reported.begin(), reported.end(), key) != reported.end())
        {
            continue;
        }
        std::string reason = "unknown key " + ConfigSchema::Quote(key);
        if (!where.empty())
        {
            reason += " " + where;
        }
        const std::string best = ConfigSchema::Suggest(key, known);
        if (!best.empty())
        {
            reason += " (did you mean " + ConfigSchema::Quote(best) + "?)";
        }
        context.AddIssue(ConfigSchema::KeyPath(path, key), reason + knownText);
    }
}

void
ConfigSchemaObject::ValidateKey(const ConfigSchemaKey& key,
                                const nlohmann::json& value,
                                const std::string& path,
                                const std::vector<const ConfigSchemaObject*>& chain,
                                ConfigSchemaContext& context,
                                std::optional<std::size_t> index,
                                nlohmann::json& filled,
                                std::set<std::string>& invalid) const
{
    const std::string& name = key.GetName();
    const std::string keyPath = ConfigSchema::KeyPath(path, name);
    auto it = value.find(name);
    if (it != value.end())
    {
        std::optional<json> v = key.Validate(*it, keyPath, context);
        if (v)
        {
            filled[name] = std::move(*v);
        }
        else
        {
            invalid.insert(name);
        }
        return;
    }
    if (const json* preset = PresetDefault(chain, filled, name))
    {
        filled[name] = NormalizedDefault(key, *preset);
        return;
    }
    switch (key.m_presence)
    {
        case ConfigSchemaKey::Presence::REQUIRED:
            context.AddIssue(keyPath, "required key is missing; expected " + key.Expect(&context));
            invalid.insert(name);
            return;
        case ConfigSchemaKey::Presence::AUTO:
            return;
        case ConfigSchemaKey::Presence::COMPUTED:
        {
            const ConfigSchemaView view(filled, path, context, index);
            std::optional<json> v = key.m_compute(view);
            if (v)
            {
                v = key.Validate(*v, keyPath, context);
            }
            if (v)
            {
                filled[name] = std::move(*v);
            }
            else
            {
                invalid.insert(name); // its inputs were reported already
            }
            return;
        }
        case ConfigSchemaKey::Presence::DEFAULT:
        case ConfigSchemaKey::Presence::OPTIONAL:
            if (key.GetType() == ConfigSchemaType::OBJECT)
            {
                // An absent object is {}: its own defaults apply.
                json sub;
                if (key.m_fields->Validate(json::object(), keyPath, context, std::nullopt, sub))
                {
                    filled[name] = std::move(sub);
                }
                else
                {
                    invalid.insert(name);
                }
                return;
            }
            if (key.m_presence == ConfigSchemaKey::Presence::DEFAULT)
            {
                filled[name] = NormalizedDefault(key, key.m_default);
            }
            return;
    }
}

bool
ConfigSchemaObject::Validate(const nlohmann::json& value,
                             const std::string& path,
                             ConfigSchemaContext& context,
                             std::optional<std::size_t> index,
                             nlohmann::json& filled) const
{
    const std::size_t before = context.GetIssueCount();
    if (!value.is_object())
    {
        context.AddIssue(path, "must be an object, got " + ConfigSchema::Shown(value));
        return false;
    }
    if (!filled.is_object())
    {
        filled = json::object();
    }
    std::set<std::string> invalid;

    // The discriminators first: they say which keys exist.
    std::vector<const ConfigSchemaObject*> chain{this};
    bool resolved = true;
    for (std::size_t l = 0; l < chain.size(); ++l)
    {
        const ConfigSchemaObject* level = chain[l];
        if (level->m_discriminator.empty())
        {
            break;
        }
        ValidateKey(*level->FindKey(level->m_discriminator),
                    value,
                    path,
                    chain,
                    context,
                    index,
                    filled,
                    invalid);
        auto it = filled.find(level->m_discriminator);
        const ConfigSchemaObject* variant = (it != filled.end() && it->is_string())
                                                ? level->FindVariant(it->get<std::string>())
                                                : nullptr;
        if (!variant)
        {
            resolved = false; // unknown or reserved: reported; its keys cannot be judged
            break;
        }
        NS_LOG_LOGIC((path.empty() ? "(root)" : path)
                     << ": " << level->m_discriminator << " " << it->get<std::string>());
        chain.push_back(variant);
    }
    if (resolved)
    {
        ReportUndeclared(value, path, chain, context);
    }

    // Preset selectors before the keys whose defaults they change.
    std::set<std::string> selectors;
    for (const ConfigSchemaObject* level : chain)
    {
        for (const PresetDecl& p : level->m_presets)
        {
            selectors.insert(p.selector);
        }
    }
    for (const ConfigSchemaObject* level : chain)
    {
        for (const auto& k : level->m_keys)
        {
            if (selectors.count(k->GetName()) > 0 && k->GetName() != level->m_discriminator)
            {
                ValidateKey(*k, value, path, chain, context, index, filled, invalid);
            }
        }
    }

    // Level by level: its keys, each rule as soon as the keys it names are validated (so its
    // error comes where the old hand-written checks put it), then the chosen variant's keys.
    const ConfigSchemaView view(filled, path, context, index);
    std::set<std::string> done(selectors.begin(), selectors.end());
    for (const ConfigSchemaObject* level : chain)
    {
        done.insert(level->m_discriminator);
    }
    for (const ConfigSchemaObject* level : chain)
    {
        std::vector<bool> ran(level->m_rules.size(), false);
        auto runRules = [&](bool all)
        {
            for (std::size_t i = 0; i < level->m_rules.size(); ++i)
            {
                const RuleDecl& r = level->m_rules[i];
                const bool ready = std::all_of(r.keys.begin(),
                                               r.keys.end(),
                                               [&](const auto& k)
                                               {
                                                   return done.count(k) > 0;
                                               });
                if (ran[i] || (!all && (!ready || r.keys.empty())))
                {
                    continue;
                }
                ran[i] = true;
                const bool skip = std::any_of(r.keys.begin(),
                                              r.keys.end(),
                                              [&](const auto& k)
                                              {
                                                  return invalid.count(k) > 0;
                                              });
                if (skip)
                {
                    continue;
                }
                std::optional<std::string> reason = r.check(view);
                if (reason)
                {
                    context.AddIssue(
                        r.target.empty() ? path : ConfigSchema::KeyPath(path, r.target), *reason);
                }
            }
        };
        runRules(false);
        for (const auto& k : level->m_keys)
        {
            if (k->GetName() != level->m_discriminator && selectors.count(k->GetName()) == 0)
            {
                ValidateKey(*k, value, path, chain, context, index, filled, invalid);
                done.insert(k->GetName());
                runRules(false);
            }
        }
        runRules(true);
    }

    const bool ok = context.GetIssueCount() == before;
    if (ok)
    {
        // Only a clean object feeds other keys' bounds: no error follows from another.
        for (const ConfigSchemaObject* level : chain)
        {
            for (const DeriveDecl& d : level->m_derives)
            {
                std::optional<ConfigSchemaDerived> v = d.derive(view);
                if (v)
                {
                    context.SetVariable(d.variable, *v);
                }
            }
        }
    }
    return ok;
}

// ---------------------------------------------------------------------------------------------
// Struct binding

std::vector<const ConfigSchemaObject*>
ConfigSchemaObject::Chain(const nlohmann::json& filled) const
{
    std::vector<const ConfigSchemaObject*> chain{this};
    while (!chain.back()->m_discriminator.empty())
    {
        auto it = filled.find(chain.back()->m_discriminator);
        if (it == filled.end() || !it->is_string())
        {
            break;
        }
        const ConfigSchemaObject* v = chain.back()->FindVariant(it->get<std::string>());
        if (!v)
        {
            break;
        }
        chain.push_back(v);
    }
    return chain;
}

void
ConfigSchemaObject::Read(const nlohmann::json& filled, void* target, std::type_index type) const
{
    if (m_structType && *m_structType != type)
    {
        throw std::logic_error("ConfigSchemaObject::Read: object bound to another struct");
    }
    const std::vector<const ConfigSchemaObject*> chain = Chain(filled);
    json scratch;
    const json& complete = WithPresetDefaults(chain, filled, scratch);
    for (const ConfigSchemaObject* level : chain)
    {
        // A variant with a struct of its own reads into this one only the keys bound to it;
        // its type reads the rest (ReadBound), whose values stay in the JSON kept here.
        const bool own = level->HasOwnStruct(type);
        for (const auto& k : level->m_keys)
        {
            if (!own || k->IsBoundTo(type))
            {
                k->Read(complete, target, type);
            }
        }
    }
    if (m_jsonRead)
    {
        if (*m_jsonOwner != type)
        {
            throw std::logic_error("ConfigSchemaObject::BindJson: member of another struct");
        }
        m_jsonRead(target, filled);
    }
}

void
ConfigSchemaObject::ReadBound(const nlohmann::json& filled,
                              void* target,
                              std::type_index type) const
{
    const std::vector<const ConfigSchemaObject*> chain = Chain(filled);
    json scratch;
    const json& complete = WithPresetDefaults(chain, filled, scratch);
    for (const ConfigSchemaObject* level : chain)
    {
        for (const auto& k : level->m_keys)
        {
            if (k->IsBoundTo(type))
            {
                k->Read(complete, target, type);
            }
        }
    }
}

nlohmann::json
ConfigSchemaObject::Write(const void* source,
                          std::type_index type,
                          const nlohmann::json* fallback) const
{
    const json* fb = fallback;
    if (m_jsonWrite && source)
    {
        if (*m_jsonOwner != type)
        {
            throw std::logic_error("ConfigSchemaObject::BindJson: member of another struct");
        }
        const json* kept = m_jsonWrite(source);
        if (kept && kept->is_object())
        {
            fb = kept;
        }
    }
    json out = json::object();
    std::vector<const ConfigSchemaObject*> chain;
    std::vector<const ConfigSchemaKey*> defaulted;
    const ConfigSchemaObject* level = this;
    while (level)
    {
        chain.push_back(level);
        // A variant's keys bound to a struct of its own write their values from the JSON kept.
        const bool own = level->HasOwnStruct(type);
        for (const auto& k : level->m_keys)
        {
            if (k->Write(out, !own || k->IsBoundTo(type) ? source : nullptr, type, fb))
            {
                defaulted.push_back(k.get());
            }
        }
        if (level->m_discriminator.empty())
        {
            break;
        }
        auto it = out.find(level->m_discriminator);
        level = (it != out.end() && it->is_string()) ? level->FindVariant(it->get<std::string>())
                                                     : nullptr;
    }
    // The kept JSON holds the values a preset filled into keys the struct does not hold: a
    // struct that names another preset than the kept JSON's (a scenario read, then its preset
    // changed in code, or a preset set in the kept JSON under a bound selector) would run one
    // preset's values under the other's name. (Keys the struct holds follow the struct.)
    for (const ConfigSchemaObject* l : chain)
    {
        for (const PresetDecl& p : l->m_presets)
        {
            auto written = out.find(p.selector);
            const json* kept
                = fb && fb->is_object() && fb->contains(p.selector) ? &fb->at(p.selector) : nullptr;
            if (kept && written != out.end() && *kept != *written
                && NamesUnboundKey(chain, p.defaults, type))
            {
                throw std::logic_error("ConfigSchema: " + p.selector + " is " + written->dump()
                                       + " in the config but " + kept->dump()
                                       + " in the JSON kept with it, whose values are that "
                                         "preset's: set it in the JSON, or clear the JSON");
            }
        }
    }
    // A key neither the struct nor the kept JSON gives takes the default validation would
    // give it: a preset's where its selector picks one (a config built in code that names a
    // preset gets the preset's values, not the declared defaults).
    for (const ConfigSchemaKey* k : defaulted)
    {
        if (const json* preset = PresetDefault(chain, out, k->GetName()))
        {
            out[k->GetName()] = NormalizedDefault(*k, *preset);
        }
    }
    return out;
}

const nlohmann::json&
ConfigSchemaObject::WithPresetDefaults(const std::vector<const ConfigSchemaObject*>& chain,
                                       const nlohmann::json& filled,
                                       nlohmann::json& scratch)
{
    const json* complete = &filled;
    for (const ConfigSchemaObject* level : chain)
    {
        for (const auto& k : level->m_keys)
        {
            if (filled.is_object() && filled.contains(k->GetName()))
            {
                continue;
            }
            if (const json* preset = PresetDefault(chain, filled, k->GetName()))
            {
                if (complete == &filled)
                {
                    scratch = filled.is_object() ? filled : json::object();
                    complete = &scratch;
                }
                scratch[k->GetName()] = NormalizedDefault(*k, *preset);
            }
        }
    }
    return *complete;
}

const nlohmann::json*
ConfigSchemaObject::PresetDefault(const std::vector<const ConfigSchemaObject*>& chain,
                                  const nlohmann::json& filled,
                                  const std::string& name)
{
    for (const ConfigSchemaObject* level : chain)
    {
        for (const PresetDecl& p : level->m_presets)
        {
            auto s = filled.find(p.selector);
            if (s != filled.end() && *s == json(p.value) && p.defaults.contains(name))
            {
                return &p.defaults.at(name);
            }
        }
    }
    return nullptr;
}

} // namespace ns3
