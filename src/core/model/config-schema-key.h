/*
 * One key of a declarative configuration schema: its name, type, allowed values, default (or
 * "required", or "auto"), unit and meaning, declared once. Validation, default filling, the
 * typed read into a C++ struct, the write back to JSON and the Markdown row all come from this
 * one declaration. Knows nothing about what is being configured.
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_KEY_H
#define MCAST4AI_CONFIG_SCHEMA_KEY_H

#include "core/model/enum-names.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <type_traits>
#include <typeindex>
#include <vector>

namespace ns3
{

class ConfigSchemaObject;

/// What a key holds.
enum class ConfigSchemaType
{
    INTEGER,       ///< a non-negative integer in a range
    INTEGER_SET,   ///< a non-negative integer from a fixed set
    NUMBER,        ///< a finite number in an interval
    BOOLEAN,       ///< true or false
    STRING,        ///< a non-empty string
    ENUM,          ///< one of a fixed list of names (some may be reserved, not implemented)
    OBJECT,        ///< a nested object with its own keys
    OBJECT_ARRAY,  ///< an array of objects with the same keys
    INTEGER_ARRAY, ///< an array of non-negative integers in a range
};

/// One problem found in a document: its JSON path ("" for the document itself) and why.
struct ConfigSchemaIssue
{
    std::string path;
    std::string reason;
};

/// The interval a NUMBER key allows; open or closed at either end.
struct ConfigSchemaBounds
{
    double lo{-std::numeric_limits<double>::infinity()};
    double hi{std::numeric_limits<double>::infinity()};
    bool loOpen{false};
    bool hiOpen{false};

    static ConfigSchemaBounds AtLeast(double lo);
    static ConfigSchemaBounds Above(double lo);
    static ConfigSchemaBounds Between(double lo, double hi);
    static ConfigSchemaBounds AboveUpTo(double lo, double hi);

    /** \return whether x is finite and inside */
    bool Contains(double x) const;
    /** \return e.g. "between 0 and 1", "> 0 and <= 1600", ">= 0"; "" when unbounded */
    std::string Text() const;
};

/// A value computed by a declaration (a derived variable), with how it was obtained.
struct ConfigSchemaDerived
{
    nlohmann::json value;
    std::string explanation; ///< e.g. "hosts = topology.leaves x topology.hosts_per_leaf = 2 x 4"
};

class ConfigSchemaContext;
class ConfigSchemaValueType;

/**
 * What a key's declaration constrains; each value type reads the fields it uses
 * (ConfigSchemaValueType). Set by ConfigSchemaObject's key factories and the key's
 * declaration methods.
 */
struct ConfigSchemaLimits
{
    uint64_t lo{0};                                    ///< integers: least value
    uint64_t hi{std::numeric_limits<uint64_t>::max()}; ///< integers: greatest value
    std::string hiVariable;                            ///< integers: also at most this variable
    int64_t hiOffset{0};                               ///< ... plus this offset
    std::vector<uint64_t> allowed;                     ///< integer sets: the values
    ConfigSchemaBounds bounds;                         ///< numbers: the interval
    std::vector<std::string> names;                    ///< enums: every name, in order
    std::vector<std::string> implemented;              ///< enums: the names not reserved
    std::size_t minItems{0};                           ///< arrays: least length
    std::size_t maxItems{std::numeric_limits<std::size_t>::max()}; ///< arrays: greatest length
    std::string maxItemsReason;        ///< arrays: message when too long
    std::vector<std::string> uniqueBy; ///< object arrays: keys that must differ
    bool distinct{false};              ///< integer arrays: no value twice
    bool allOrCount{false};            ///< integer arrays: "all" or a count
    std::string noun;                  ///< arrays: what the elements are
    std::string note;                  ///< appended to the allowed range

    /** \return the upper bound of an integer (hi, or the variable's value), none if unbounded */
    std::optional<uint64_t> UpperBound(const ConfigSchemaContext* context) const;
    /** \return the note with "{name}" replaced by the variable; "" if a variable is unknown */
    std::string FormatNote(const ConfigSchemaContext* context) const;
    /** \return how the variable bounding the key was derived, "" if none */
    std::string VariableExplanation(const ConfigSchemaContext& context) const;
};

/**
 * The state of one validation walk: the issues found so far (the first maxIssues kept, the rest
 * counted), the variables derived so far (e.g. a host count other keys are bounded by) and the
 * document filled so far.
 */
class ConfigSchemaContext
{
public:
    /** \param maxIssues how many issues to keep; later ones are only counted */
    explicit ConfigSchemaContext(std::size_t maxIssues);

    void SetVariable(const std::string& name, const ConfigSchemaDerived& value);
    /** \return the variable, or nullptr when it was not derived (its inputs were invalid) */
    const ConfigSchemaDerived* GetVariable(const std::string& name) const;

    void AddIssue(const std::string& path, const std::string& reason);
    /** \return every issue found, kept or not */
    std::size_t GetIssueCount() const;
    /** \return the first maxIssues issues, in the order they were found */
    const std::vector<ConfigSchemaIssue>& GetIssues() const;

    void SetRoot(const nlohmann::json* filledRoot);
    /** \return the document filled so far (keys before the current one in declaration order) */
    const nlohmann::json& GetRoot() const;

private:
    std::size_t m_maxIssues;
    std::size_t m_count{0};
    std::vector<ConfigSchemaIssue> m_issues;
    std::map<std::string, ConfigSchemaDerived> m_variables;
    const nlohmann::json* m_root{nullptr};
};

/**
 * What a rule, a computed default or a derived variable sees: the object being validated as
 * filled so far (keys that failed validation are absent), its path, the variables and its index
 * when it is an array element.
 */
class ConfigSchemaView
{
public:
    ConfigSchemaView(const nlohmann::json& filled,
                     const std::string& path,
                     const ConfigSchemaContext& context,
                     std::optional<std::size_t> index);

    /** \return the validated value of a key of this object, or nullptr */
    const nlohmann::json* Get(const std::string& key) const;
    /** \return the full JSON path of a key of this object, for messages naming it */
    std::string Path(const std::string& key) const;
    /** \return the path of the object itself ("" for the document) */
    const std::string& GetPath() const;
    /** \return a derived variable, or nullptr */
    const ConfigSchemaDerived* Variable(const std::string& name) const;
    /** \return the index of the object in its array, if it is an element */
    std::optional<std::size_t> GetIndex() const;
    /** \return the document filled so far */
    const nlohmann::json& Root() const;

private:
    const nlohmann::json& m_filled;
    std::string m_path;
    const ConfigSchemaContext& m_context;
    std::optional<std::size_t> m_index;
};

/// Computes a default from the rest of the object; nullopt when its inputs are invalid.
using ConfigSchemaDefaultFunction
    = std::function<std::optional<nlohmann::json>(const ConfigSchemaView&)>;

/// Type-erased accessors of the struct member a key is bound to (ConfigSchemaKey::Bind).
struct ConfigSchemaBinding
{
    std::type_index owner{typeid(void)};
    std::type_index child{typeid(void)}; ///< struct type of an OBJECT / element type
    std::function<void(void*, const nlohmann::json&)> read;
    std::function<nlohmann::json(const void*)> write;
    std::function<void(void*)> readAuto;
    std::function<bool(const void*)> isAuto;
    std::function<void*(void*)> member;
    std::function<const void*(const void*)> memberConst;
    std::function<void(void*, std::size_t)> resize;
    std::function<std::size_t(const void*)> size;
    std::function<void*(void*, std::size_t)> element;
    std::function<const void*(const void*, std::size_t)> elementConst;
};

/**
 * One key, declared once. Declaration methods return *this so a key reads as one statement:
 * object.Integer("leaves", 1, 65536).Required().Doc("leaf switches").Bind(&T::leaves);
 */
class ConfigSchemaKey
{
public:
    /// \param valueType the handler of `type` (one per type: ConfigSchemaIntegerType::Get(), ...)
    ConfigSchemaKey(const std::string& name,
                    ConfigSchemaType type,
                    const ConfigSchemaValueType& valueType);
    ~ConfigSchemaKey();
    ConfigSchemaKey(const ConfigSchemaKey&) = delete;
    ConfigSchemaKey& operator=(const ConfigSchemaKey&) = delete;

    /// One line: what the key means (the Markdown "meaning" column).
    ConfigSchemaKey& Doc(const std::string& meaning);
    /// Unit of the value ("µs", "Gb/s"); empty for plain counts and names.
    ConfigSchemaKey& Unit(const std::string& unit);
    /// The key must be present.
    ConfigSchemaKey& Required();
    /// Omitted means this value (objects default to {} with their own defaults filled in).
    ConfigSchemaKey& Default(const nlohmann::json& value);
    /// Omitted means a value computed from the document; `text` documents it.
    ConfigSchemaKey& DefaultFrom(ConfigSchemaDefaultFunction compute, const std::string& text);
    /// Omitted means "sized later" by the code that uses it; `text` says how.
    ConfigSchemaKey& Auto(const std::string& text);
    /// Appended in parentheses to the allowed range in messages; "{name}" is a variable's value.
    ConfigSchemaKey& Note(const std::string& note);
    /// INTEGER, INTEGER_ARRAY: the upper bound is a derived variable plus an offset.
    ConfigSchemaKey& MaxFromVariable(const std::string& variable, int64_t offset);
    /// Any type: an extra single-value condition, `text` for the docs, `reason` when it fails.
    ConfigSchemaKey& Check(std::function<bool(const nlohmann::json&)> ok,
                           const std::string& text,
                           const std::string& reason);
    /// Arrays: at least n elements.
    ConfigSchemaKey& MinItems(std::size_t n);
    /// An INTEGER_ARRAY bounded by MaxFromVariable also accepts "all" (every index below the
    /// bound) and a count n (the first n indices); the filled document holds the array.
    ConfigSchemaKey& AllOrCount();
    /// Arrays: at most n elements; `reason` replaces the generic message.
    ConfigSchemaKey& MaxItems(std::size_t n, const std::string& reason = "");
    /// OBJECT_ARRAY: the elements' values of `key` must differ.
    ConfigSchemaKey& UniqueBy(const std::string& key);
    /// INTEGER_ARRAY: no value twice.
    ConfigSchemaKey& Distinct();

    /**
     * Where the value lives in a C++ struct: a scalar member (read with json::get), a struct
     * member (OBJECT) or a std::vector of structs (OBJECT_ARRAY). The struct type is checked
     * against the enclosing object's when reading and writing.
     */
    template<class S, class T>
    ConfigSchemaKey& Bind(T S::*member);

    /// A scalar member of an "auto" key: `whenAuto` when omitted, and omitted when it holds it.
    template<class S, class T>
    ConfigSchemaKey& Bind(T S::*member, const typename std::common_type<T>::type& whenAuto);

    /**
     * The ns-3 attribute the key sets: of the model its object configures
     * (ConfigSchemaObject::Model), or of `owner`. Declared after Default or Auto: a key
     * without either takes the attribute's initial value as its default, so the two cannot
     * differ. The attribute must exist and accept the default (checked here, when the schema
     * is built); values are converted by the key's type and unit (ConfigSchemaAttribute). An
     * omitted "auto" key leaves the attribute at its initial value.
     */
    ConfigSchemaKey& Attribute(const std::string& attribute);
    ConfigSchemaKey& Attribute(TypeId owner, const std::string& attribute);
    /** \return the attribute the key sets, "" for none */
    const std::string& GetAttribute() const;
    /** \return the type that declares the attribute */
    TypeId GetAttributeOwner() const;
    /** \return the checker of the attribute it sets (null if it sets none) */
    Ptr<const AttributeChecker> GetAttributeChecker() const;

    /// OBJECT: its keys; OBJECT_ARRAY: the keys of each element.
    ConfigSchemaObject& Fields();
    const ConfigSchemaObject& Fields() const;

    const std::string& GetName() const;
    ConfigSchemaType GetType() const;
    bool IsRequired() const;
    bool IsAuto() const;
    /** \return the constant default, or nullptr */
    const nlohmann::json* GetDefault() const;
    /** \return the computed default, or nullptr */
    const ConfigSchemaDefaultFunction* GetDefaultFunction() const;

    /// ENUM: every name, in declaration order (reserved ones included).
    const std::vector<std::string>& GetNames() const;
    /// ENUM: the names that are implemented; the others are reserved.
    const std::vector<std::string>& GetImplemented() const;
    /// ENUM: add a name (or mark a reserved one implemented).
    void AddName(const std::string& name, bool implemented);
    /// The key is bound to an enum with these names: every name it implements must be one.
    void SetEnumNames(std::vector<std::string> names);
    /// The key's values are E's names (MCAST4AI_ENUM_NAMES), for a key read from the spec as
    /// an E (`spec.at("type").get<E>()`) rather than bound to a member: every name it
    /// implements must be one of E's.
    template<class E>
    ConfigSchemaKey& NamesOf()
    {
        SetEnumNames(EnumNameList<E>());
        return *this;
    }

    /**
     * Validate one present value.
     *
     * \return the normalized value (integers unsigned, numbers double), or nullopt after
     *         reporting to the context
     */
    std::optional<nlohmann::json> Validate(const nlohmann::json& value,
                                           const std::string& path,
                                           ConfigSchemaContext& context) const;

    /** \return what is allowed, as messages say it ("an integer between 1 and 7 (...)") */
    std::string Expect(const ConfigSchemaContext* context) const;

    const std::string& GetUnit() const;
    const std::string& GetDoc() const;
    /** \return how a computed or "auto" default is obtained */
    const std::string& GetDefaultText() const;
    /** \return the extra conditions' texts (Check), in declaration order */
    std::vector<std::string> GetCheckTexts() const;
    /** \return what the declaration constrains */
    const ConfigSchemaLimits& GetLimits() const;
    /** \return the handler of the key's value type */
    const ConfigSchemaValueType& GetValueType() const;
    /** \return the struct member the key is bound to, or nullptr */
    const ConfigSchemaBinding* GetBinding() const;
    /** \return whether the key is bound to a member of `type` */
    bool IsBoundTo(std::type_index type) const;

    /// Copy the filled value of this key into the struct at `target` (of type `type`).
    void Read(const nlohmann::json& filledObject, void* target, std::type_index type) const;
    /**
     * Write this key of the struct at `source` into `out`; unbound keys come from `fallback`.
     * \return whether it wrote the declared default (neither the struct nor `fallback` had it)
     */
    bool Write(nlohmann::json& out,
               const void* source,
               std::type_index type,
               const nlohmann::json* fallback) const;

private:
    enum class Presence
    {
        OPTIONAL,
        REQUIRED,
        DEFAULT,
        COMPUTED,
        AUTO
    };

    struct ExtraCheck
    {
        std::function<bool(const nlohmann::json&)> ok;
        std::string text;
        std::string reason;
    };

    template<class T>
    struct IsVector : std::false_type
    {
    };

    template<class E, class A>
    struct IsVector<std::vector<E, A>> : std::true_type
    {
    };

    /// A std::vector of structs (not of scalars, strings or JSON values).
    template<class T>
    struct IsStructVector : std::false_type
    {
    };

    template<class E, class A>
    struct IsStructVector<std::vector<E, A>>
        : std::bool_constant<
              std::is_class_v<
                  E> && !std::is_same_v<E, std::string> && !std::is_same_v<E, nlohmann::json>>
    {
    };

    void SetBinding(ConfigSchemaBinding binding, ConfigSchemaType kind);
    void CheckOwner(std::type_index type) const;
    bool RunChecks(const nlohmann::json& v,
                   const std::string& path,
                   ConfigSchemaContext& context) const;

    std::string m_name;
    ConfigSchemaType m_type;
    std::string m_doc;
    std::string m_unit;
    Presence m_presence{Presence::OPTIONAL};
    nlohmann::json m_default;
    ConfigSchemaDefaultFunction m_compute;
    std::string m_defaultText; // COMPUTED and AUTO
    const ConfigSchemaValueType* m_valueType;
    ConfigSchemaLimits m_limits;
    std::vector<std::string> m_enumNames; // of the enum it is bound to, if any
    std::vector<ExtraCheck> m_checks;
    std::unique_ptr<ConfigSchemaObject> m_fields;
    std::unique_ptr<ConfigSchemaBinding> m_binding;
    std::optional<TypeId> m_model; // of the object that declared the key
    std::string m_attribute;
    std::optional<TypeId> m_attributeOwner;
    Ptr<const AttributeChecker> m_attributeChecker; // looked up once, when declared

    friend class ConfigSchemaObject;
};

template<class S, class T>
ConfigSchemaKey&
ConfigSchemaKey::Bind(T S::*member)
{
    ConfigSchemaBinding b;
    b.owner = typeid(S);
    if constexpr (IsStructVector<T>::value)
    {
        using E = typename T::value_type;
        b.child = typeid(E);
        b.resize = [member](void* o, std::size_t n)
        {
            (static_cast<S*>(o)->*member).resize(n);
        };
        b.size = [member](const void* o)
        {
            return (static_cast<const S*>(o)->*member).size();
        };
        b.element = [member](void* o, std::size_t i) -> void*
        {
            return &(static_cast<S*>(o)->*member)[i];
        };
        b.elementConst = [member](const void* o, std::size_t i) -> const void*
        {
            return &(static_cast<const S*>(o)->*member)[i];
        };
        SetBinding(std::move(b), ConfigSchemaType::OBJECT_ARRAY);
    }
    else if constexpr (std::is_class_v<T> && !std::is_same_v<T, std::string> && !IsVector<T>::value
                       && !std::is_same_v<T, nlohmann::json>)
    {
        b.child = typeid(T);
        b.member = [member](void* o) -> void*
        {
            return &(static_cast<S*>(o)->*member);
        };
        b.memberConst = [member](const void* o) -> const void*
        {
            return &(static_cast<const S*>(o)->*member);
        };
        SetBinding(std::move(b), ConfigSchemaType::OBJECT);
    }
    else
    {
        if constexpr (std::is_enum_v<T>)
        {
            static_assert(HasEnumNames<T>::value, "declare the enum's names: MCAST4AI_ENUM_NAMES");
            SetEnumNames(EnumNameList<T>());
        }
        b.read = [member](void* o, const nlohmann::json& v)
        {
            static_cast<S*>(o)->*member = v.get<T>();
        };
        b.write = [member](const void* o)
        {
            return nlohmann::json(static_cast<const S*>(o)->*member);
        };
        SetBinding(std::move(b), m_type);
    }
    return *this;
}

template<class S, class T>
ConfigSchemaKey&
ConfigSchemaKey::Bind(T S::*member, const typename std::common_type<T>::type& whenAuto)
{
    static_assert(!std::is_class_v<T> || std::is_same_v<T, std::string>,
                  "only scalar members have an auto value");
    Bind(member);
    m_binding->readAuto = [member, whenAuto](void* o)
    {
        static_cast<S*>(o)->*member = whenAuto;
    };
    m_binding->isAuto = [member, whenAuto](const void* o)
    {
        return static_cast<const S*>(o)->*member == whenAuto;
    };
    return *this;
}

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_KEY_H */
