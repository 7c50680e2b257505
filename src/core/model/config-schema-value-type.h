/*
 * What a key's value type does, in one place per type: what a message says is allowed, the
 * check of a present value, the reference's type and "allowed" cells, the conversion to and
 * from the ns-3 attribute the key sets, and the read into and write from the bound struct
 * member. ConfigSchemaKey holds what is common to every key (presence, default, unit, extra
 * checks, binding) and hands the rest to its type, as ns-3's AttributeChecker does for an
 * attribute. The types are stateless: one instance of each serves every key.
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_VALUE_TYPE_H
#define MCAST4AI_CONFIG_SCHEMA_VALUE_TYPE_H

#include "core/model/config-schema-key.h"
#include "ns3/abort.h"
#include "ns3/attribute.h"
#include "ns3/ptr.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief The behaviour of one value type of a schema key.
 */
class ConfigSchemaValueType
{
public:
    virtual ~ConfigSchemaValueType();

    /** \return what is allowed, as messages say it ("an integer between 1 and 7 (...)") */
    virtual std::string Expect(const ConfigSchemaKey& key,
                               const ConfigSchemaContext* context) const = 0;
    /**
     * Check one present value (the key's extra checks run after, on the result).
     *
     * \return the normalized value, or nullopt after reporting to the context
     */
    virtual std::optional<nlohmann::json> Validate(const ConfigSchemaKey& key,
                                                   const nlohmann::json& value,
                                                   const std::string& path,
                                                   ConfigSchemaContext& context) const = 0;
    /** \return the reference's type cell ("integer", "array of objects") */
    virtual std::string TypeText(const ConfigSchemaKey& key) const = 0;
    /** \return the constraints the reference's "allowed" cell lists, in order */
    virtual std::vector<std::string> AllowedText(const ConfigSchemaKey& key) const = 0;
    /**
     * Cap an unbounded key at `hi` (ConfigSchemaObject::LimitUnit).
     *
     * \return whether this type has a bound and it was open
     */
    virtual bool CapAt(ConfigSchemaLimits& limits, double hi) const;

    /** \return the attribute value of a validated value; aborts for a type that sets none */
    virtual Ptr<AttributeValue> ToAttribute(const ConfigSchemaKey& key,
                                            const nlohmann::json& value,
                                            Ptr<const AttributeChecker> checker) const;
    /** \return the key's value of an attribute value; aborts when the two do not fit */
    virtual nlohmann::json FromAttribute(const ConfigSchemaKey& key,
                                         const AttributeValue& value,
                                         Ptr<const AttributeChecker> checker) const;

    /**
     * Copy a filled value into the bound member of the struct at `target`; when the document
     * has none, the member's auto value, or else the key's constant default.
     *
     * \param value the key's filled value, nullptr when the document has none
     */
    virtual void Read(const ConfigSchemaKey& key, const nlohmann::json* value, void* target) const;
    /**
     * \return the JSON of the bound member of the struct at `source`, nullopt to omit the key;
     *         a member at its auto value gives the fallback's value, if any
     * \param fallback the key's value in the object kept beside the struct, or nullptr
     */
    virtual std::optional<nlohmann::json> Write(const ConfigSchemaKey& key,
                                                const void* source,
                                                const nlohmann::json* fallback) const;
    /** \return what an unbound key with no kept value writes: its constant default, if any */
    virtual std::optional<nlohmann::json> WriteDefault(const ConfigSchemaKey& key) const;

protected:
    /** \return `value` as a V; aborts naming the key and attribute when it is not one */
    template<class V>
    static const V& As(const ConfigSchemaKey& key, const AttributeValue& value, const char* what);
    /** Abort: the key's type has no attribute value. */
    [[noreturn]] static void NoAttribute(const ConfigSchemaKey& key);
    /** \return the names as a list of quoted inline code */
    static std::string CodeList(const std::vector<std::string>& names);
};

template<class V>
const V&
ConfigSchemaValueType::As(const ConfigSchemaKey& key, const AttributeValue& value, const char* what)
{
    const V* v = dynamic_cast<const V*>(&value);
    NS_ABORT_MSG_UNLESS(v,
                        "schema key " << key.GetName() << " (" << key.GetValueType().TypeText(key)
                                      << ", unit '" << key.GetUnit() << "') sets attribute "
                                      << key.GetAttribute() << ", which is no " << what);
    return *v;
}

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_VALUE_TYPE_H */
