/*
 * One object of a declarative configuration schema: its keys in declaration order, variants
 * chosen by a discriminator key (each with keys of its own), cross-key rules, presets that
 * change defaults, and variables derived from it for other keys' bounds.
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_OBJECT_H
#define MCAST4AI_CONFIG_SCHEMA_OBJECT_H

#include "core/model/config-schema-attribute.h"
#include "core/model/config-schema-key.h"

#include <set>

namespace ns3
{

/// A cross-key rule: the reason it fails, or nullopt when the object satisfies it.
using ConfigSchemaRuleFunction = std::function<std::optional<std::string>(const ConfigSchemaView&)>;

/// Derives a variable from a validated object; nullopt when it cannot.
using ConfigSchemaDeriveFunction
    = std::function<std::optional<ConfigSchemaDerived>(const ConfigSchemaView&)>;

/**
 * An object's declaration. Keys, rules and variants are declared in the order messages and the
 * Markdown reference list them.
 */
class ConfigSchemaObject
{
public:
    ConfigSchemaObject();
    ~ConfigSchemaObject();
    ConfigSchemaObject(const ConfigSchemaObject&) = delete;
    ConfigSchemaObject& operator=(const ConfigSchemaObject&) = delete;

    /// \name Keys (a name may be declared once per object and variant chain)
    /// \{
    ConfigSchemaKey& Integer(const std::string& name,
                             uint64_t lo = 0,
                             uint64_t hi = std::numeric_limits<uint64_t>::max());
    ConfigSchemaKey& IntegerIn(const std::string& name, const std::vector<uint64_t>& allowed);
    ConfigSchemaKey& Number(const std::string& name, const ConfigSchemaBounds& bounds = {});
    ConfigSchemaKey& Boolean(const std::string& name);
    ConfigSchemaKey& String(const std::string& name);
    /// `implemented` empty: every name is; otherwise the rest are reserved ("not implemented").
    ConfigSchemaKey& Enum(const std::string& name,
                          const std::vector<std::string>& names,
                          const std::vector<std::string>& implemented = {});
    /// An enum key whose names are E's (MCAST4AI_ENUM_NAMES), all implemented.
    template<class E>
    ConfigSchemaKey& Enum(const std::string& name)
    {
        return Enum(name, EnumNameList<E>());
    }

    ConfigSchemaKey& Object(const std::string& name);
    /// `noun` names the elements in messages ("workload objects"); default "{k1, k2} objects".
    ConfigSchemaKey& ObjectArray(const std::string& name, const std::string& noun = "");
    ConfigSchemaKey& IntegerArray(const std::string& name,
                                  const std::string& noun,
                                  uint64_t lo = 0,
                                  uint64_t hi = std::numeric_limits<uint64_t>::max());
    /// \}

    /**
     * The key whose value selects a variant of this object. It is an ENUM whose implemented
     * names are the variants; `names` fixes the order and adds reserved names.
     */
    ConfigSchemaKey& Discriminator(const std::string& name,
                                   const std::vector<std::string>& names = {});
    /// The keys that exist only when the discriminator has this value.
    ConfigSchemaObject& Variant(const std::string& value, const std::string& doc = "");

    /**
     * A rule over several keys of this object (or over the variables). It runs as soon as the
     * keys it names are validated (a rule naming none: after the keys declared here, before
     * those of a chosen variant), and only if none of `keys` failed; the error is reported at
     * `target` (a key of this object, or "" for the object itself) and should name every key
     * it involves (ConfigSchemaView::Path).
     */
    ConfigSchemaObject& Rule(const std::string& target,
                             const std::vector<std::string>& keys,
                             ConfigSchemaRuleFunction check,
                             const std::string& doc);
    /// a <= b when both are present ("must be <= PATH_OF_B (vb), got va").
    ConfigSchemaObject& LessOrEqual(const std::string& a, const std::string& b);
    /// a != b ("must differ from PATH_OF_B (vb): why").
    ConfigSchemaObject& Different(const std::string& a,
                                  const std::string& b,
                                  const std::string& why = "");
    /// key in `values` needs other in `otherValues` ("'v' needs PATH_OF_OTHER 'x' (why)").
    ConfigSchemaObject& Requires(const std::string& key,
                                 const std::vector<std::string>& values,
                                 const std::string& other,
                                 const std::vector<std::string>& otherValues,
                                 const std::string& why);
    /// other == otherValue restricts key to `allowed` ("must be 'x' with PATH_OF_OTHER 'v': why").
    ConfigSchemaObject& OnlyWith(const std::string& key,
                                 const std::vector<std::string>& allowed,
                                 const std::string& other,
                                 const std::string& otherValue,
                                 const std::string& why);

    /// When `selector` has `value`, the keys in `defaults` default to those values instead.
    ConfigSchemaObject& Preset(const std::string& selector,
                               const std::string& value,
                               const nlohmann::json& defaults,
                               const std::string& doc);
    /// After the object validates cleanly, set a variable other keys may be bounded by.
    ConfigSchemaObject& Derive(const std::string& variable,
                               ConfigSchemaDeriveFunction derive,
                               const std::string& doc);

    /**
     * Bound every key of this object, its nested objects and its variants that is in `unit`
     * and declares no upper bound of its own by `hi` (inclusive; integers by its floor), with
     * `why` as the note its messages add. For what the configured model can represent (how
     * far its clock counts), declared once rather than at every key.
     */
    void LimitUnit(const std::string& unit, double hi, const std::string& why);
    /// The model whose attributes the keys declared from now on set (ConfigSchemaKey::Attribute),
    /// or none; variants declared later inherit it.
    ConfigSchemaObject& Model(std::optional<TypeId> tid);
    /** \return the model set by Model() */
    std::optional<TypeId> GetModel() const;
    /**
     * Give `set` the attribute value of every key of this object (and of its chosen variant)
     * that sets an attribute and has a value in `filled`, and of the nested objects that
     * configure the same model (a nested object of another model, p2mp.bier, is skipped: it is
     * applied with its model, NamedTypeRegistry::ApplyKeys).
     */
    void ApplyAttributes(const nlohmann::json& filled, const ConfigSchemaSetter& set) const;
    /// Visit every key of this object, its variants and its nested objects, in declaration
    /// order, with its JSON path ("p2mp.bier.bsl_bits"; array elements as "workloads[]").
    void Visit(const std::string& path,
               const std::function<void(const std::string&, const ConfigSchemaKey&)>& visit) const;
    /** \return the names of the keys declared here, in declaration order */
    std::vector<std::string> KeyNames() const;

    /// Give this object its own section (heading and table) in the Markdown reference.
    ConfigSchemaObject& Section(const std::string& title, const std::string& intro = "");
    /// Documentation of a variant (or of an object without a section).
    ConfigSchemaObject& Doc(const std::string& doc);

    /**
     * The struct the root object reads into (nested objects get theirs from Bind). A variant
     * may name a struct of its own: its keys bound to it are then read by the type that
     * declared them (SchemaTypeRegistry::Keys, ReadBound), not into the enclosing object's
     * struct, which keeps their values in its JSON member (BindJson); its keys bound to the
     * enclosing struct are read into that as usual.
     */
    template<class S>
    ConfigSchemaObject& BindStruct();
    /// Keep the whole validated object (defaults filled) in a JSON member; on write, the
    /// values of unbound keys come from it.
    template<class S>
    ConfigSchemaObject& BindJson(nlohmann::json S::*member);

    /** \return the key declared here (not in variants), or nullptr */
    const ConfigSchemaKey* FindKey(const std::string& name) const;
    ConfigSchemaKey* FindKey(const std::string& name);
    /** \return the variant, or nullptr */
    const ConfigSchemaObject* FindVariant(const std::string& value) const;
    ConfigSchemaObject* FindVariant(const std::string& value);
    /** \return the discriminator's name, "" when the object has no variants */
    const std::string& GetDiscriminator() const;

    /**
     * Validate `value` at `path`, reporting every problem to the context.
     *
     * \param filled receives the normalized object with every default filled in
     * \return whether no problem was found inside it
     */
    bool Validate(const nlohmann::json& value,
                  const std::string& path,
                  ConfigSchemaContext& context,
                  std::optional<std::size_t> index,
                  nlohmann::json& filled) const;

    /// Copy a filled object into the struct at `target` (whose type is `type`).
    void Read(const nlohmann::json& filled, void* target, std::type_index type) const;
    /// Copy the keys bound to members of `type` into the struct at `target`, and no others
    /// (a type's own keys beside the ones every entry has: SchemaTypeRegistry::Keys).
    void ReadBound(const nlohmann::json& filled, void* target, std::type_index type) const;
    /// The JSON of the struct at `source`; unbound keys come from `fallback` (may be null).
    nlohmann::json Write(const void* source,
                         std::type_index type,
                         const nlohmann::json* fallback) const;

    std::optional<std::type_index> GetStructType() const;
    void SetStructType(std::type_index type);

private:
    struct RuleDecl
    {
        std::string target;
        std::vector<std::string> keys;
        ConfigSchemaRuleFunction check;
        std::string doc;
    };

    struct PresetDecl
    {
        std::string selector;
        std::string value;
        nlohmann::json defaults;
        std::string doc;
    };

    struct DeriveDecl
    {
        std::string variable;
        ConfigSchemaDeriveFunction derive;
        std::string doc;
    };

    struct VariantDecl
    {
        std::string value;
        std::unique_ptr<ConfigSchemaObject> object;
    };

    ConfigSchemaKey& Add(const std::string& name,
                         ConfigSchemaType type,
                         const ConfigSchemaValueType& valueType);
    std::vector<const ConfigSchemaObject*> Chain(const nlohmann::json& filled) const;
    void ReportUndeclared(const nlohmann::json& value,
                          const std::string& path,
                          const std::vector<const ConfigSchemaObject*>& chain,
                          ConfigSchemaContext& context) const;
    void ValidateKey(const ConfigSchemaKey& key,
                     const nlohmann::json& value,
                     const std::string& path,
                     const std::vector<const ConfigSchemaObject*>& chain,
                     ConfigSchemaContext& context,
                     std::optional<std::size_t> index,
                     nlohmann::json& filled,
                     std::set<std::string>& invalid) const;
    std::string VariantContext() const;
    /// `filled` with the value a preset of `chain` gives each key it lacks (a spec built in
    /// code is never validated, so its absent keys take the defaults validation would give
    /// them); a copy in `scratch` when one is needed.
    static const nlohmann::json& WithPresetDefaults(
        const std::vector<const ConfigSchemaObject*>& chain,
        const nlohmann::json& filled,
        nlohmann::json& scratch);
    /// The default a preset of `chain` gives key `name` in `filled`, or nullptr.
    static const nlohmann::json* PresetDefault(const std::vector<const ConfigSchemaObject*>& chain,
                                               const nlohmann::json& filled,
                                               const std::string& name);
    /// A variant bound to a struct of its own, not `type`: only its keys bound to `type` are
    /// read into a `type`.
    bool HasOwnStruct(std::type_index type) const;

    std::vector<std::unique_ptr<ConfigSchemaKey>> m_keys;
    std::string m_discriminator;
    std::vector<VariantDecl> m_variants;
    const ConfigSchemaObject* m_parent{nullptr}; // of a variant
    std::string m_variantValue;                  // of a variant
    std::vector<RuleDecl> m_rules;
    std::vector<PresetDecl> m_presets;
    std::vector<DeriveDecl> m_derives;
    std::string m_sectionTitle;
    std::string m_sectionIntro;
    std::string m_doc;
    std::optional<std::type_index> m_structType;
    std::optional<TypeId> m_model;
    std::function<void(void*, const nlohmann::json&)> m_jsonRead;
    std::function<const nlohmann::json*(const void*)> m_jsonWrite;
    std::optional<std::type_index> m_jsonOwner;

    friend class ConfigSchemaKey;
    friend class ConfigSchemaMarkdown; // reads the declarations it renders
};

template<class S>
ConfigSchemaObject&
ConfigSchemaObject::BindStruct()
{
    SetStructType(typeid(S));
    return *this;
}

template<class S>
ConfigSchemaObject&
ConfigSchemaObject::BindJson(nlohmann::json S::*member)
{
    m_jsonOwner = typeid(S);
    m_jsonRead = [member](void* o, const nlohmann::json& v)
    {
        static_cast<S*>(o)->*member = v;
    };
    m_jsonWrite = [member](const void* o) -> const nlohmann::json*
    {
        return &(static_cast<const S*>(o)->*member);
    };
    return *this;
}

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_OBJECT_H */
