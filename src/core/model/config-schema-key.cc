#include "core/model/config-schema-key.h"

#include "core/model/config-schema-attribute.h"
#include "core/model/config-schema-object.h"
#include "core/model/config-schema-value-type.h"
#include "core/model/config-schema.h"
#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ConfigSchemaKey");

namespace
{

using json = nlohmann::json;

constexpr uint64_t kUintMax = std::numeric_limits<uint64_t>::max();

} // namespace

// ---------------------------------------------------------------------------------------------
// ConfigSchemaBounds

ConfigSchemaBounds
ConfigSchemaBounds::AtLeast(double lo)
{
    ConfigSchemaBounds b;
    b.lo = lo;
    return b;
}

ConfigSchemaBounds
ConfigSchemaBounds::Above(double lo)
{
    ConfigSchemaBounds b;
    b.lo = lo;
    b.loOpen = true;
    return b;
}

ConfigSchemaBounds
ConfigSchemaBounds::Between(double lo, double hi)
{
    ConfigSchemaBounds b;
    b.lo = lo;
    b.hi = hi;
    return b;
}

ConfigSchemaBounds
ConfigSchemaBounds::AboveUpTo(double lo, double hi)
{
    ConfigSchemaBounds b = Between(lo, hi);
    b.loOpen = true;
    return b;
}

bool
ConfigSchemaBounds::Contains(double x) const
{
    return std::isfinite(x) && (loOpen ? x > lo : x >= lo) && (hiOpen ? x < hi : x <= hi);
}

std::string
ConfigSchemaBounds::Text() const
{
    const bool hasLo = std::isfinite(lo);
    const bool hasHi = std::isfinite(hi);
    if (hasLo && hasHi && !loOpen && !hiOpen)
    {
        return "between " + ConfigSchema::FormatNumber(lo) + " and "
               + ConfigSchema::FormatNumber(hi);
    }
    const std::string lower = hasLo ? (loOpen ? "> " : ">= ") + ConfigSchema::FormatNumber(lo) : "";
    const std::string upper = hasHi ? (hiOpen ? "< " : "<= ") + ConfigSchema::FormatNumber(hi) : "";
    if (hasLo && hasHi)
    {
        return lower + " and " + upper;
    }
    return lower + upper;
}

// ---------------------------------------------------------------------------------------------
// ConfigSchemaContext

ConfigSchemaContext::ConfigSchemaContext(std::size_t maxIssues)
    : m_maxIssues(maxIssues)
{
}

void
ConfigSchemaContext::SetVariable(const std::string& name, const ConfigSchemaDerived& value)
{
    m_variables[name] = value;
}

const ConfigSchemaDerived*
ConfigSchemaContext::GetVariable(const std::string& name) const
{
    auto it = m_variables.find(name);
    return it == m_variables.end() ? nullptr : &it->second;
}

void
ConfigSchemaContext::AddIssue(const std::string& path, const std::string& reason)
{
    NS_LOG_LOGIC("issue at " << (path.empty() ? "(root)" : path) << ": " << reason);
    ++m_count;
    if (m_issues.size() < m_maxIssues)
    {
        m_issues.push_back({path, reason});
    }
}

std::size_t
ConfigSchemaContext::GetIssueCount() const
{
    return m_count;
}

const std::vector<ConfigSchemaIssue>&
ConfigSchemaContext::GetIssues() const
{
    return m_issues;
}

void
ConfigSchemaContext::SetRoot(const nlohmann::json* filledRoot)
{
    m_root = filledRoot;
}

const nlohmann::json&
ConfigSchemaContext::GetRoot() const
{
    static const json empty = json::object();
    return m_root ? *m_root : empty;
}

// ---------------------------------------------------------------------------------------------
// ConfigSchemaView

ConfigSchemaView::ConfigSchemaView(const nlohmann::json& filled,
                                   const std::string& path,
                                   const ConfigSchemaContext& context,
                                   std::optional<std::size_t> index)
    : m_filled(filled),
      m_path(path),
      m_context(context),
      m_index(index)
{
}

const nlohmann::json*
ConfigSchemaView::Get(const std::string& key) const
{
    auto it = m_filled.find(key);
    return it == m_filled.end() ? nullptr : &*it;
}

std::string
ConfigSchemaView::Path(const std::string& key) const
{
    return ConfigSchema::KeyPath(m_path, key);
}

const std::string&
ConfigSchemaView::GetPath() const
{
    return m_path;
}

const ConfigSchemaDerived*
ConfigSchemaView::Variable(const std::string& name) const
{
    return m_context.GetVariable(name);
}

std::optional<std::size_t>
ConfigSchemaView::GetIndex() const
{
    return m_index;
}

const nlohmann::json&
ConfigSchemaView::Root() const
{
    return m_context.GetRoot();
}

// ---------------------------------------------------------------------------------------------
// ConfigSchemaKey: declaration

ConfigSchemaKey::ConfigSchemaKey(const std::string& name,
                                 ConfigSchemaType type,
                                 const ConfigSchemaValueType& valueType)
    : m_name(name),
      m_type(type),
      m_valueType(&valueType)
{
    if (type == ConfigSchemaType::OBJECT || type == ConfigSchemaType::OBJECT_ARRAY)
    {
        m_fields = std::make_unique<ConfigSchemaObject>();
    }
}

ConfigSchemaKey::~ConfigSchemaKey() = default;

ConfigSchemaKey&
ConfigSchemaKey::Doc(const std::string& meaning)
{
    m_doc = meaning;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::Unit(const std::string& unit)
{
    m_unit = unit;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::Required()
{
    m_presence = Presence::REQUIRED;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::Default(const nlohmann::json& value)
{
    m_presence = Presence::DEFAULT;
    m_default = value;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::DefaultFrom(ConfigSchemaDefaultFunction compute, const std::string& text)
{
    m_presence = Presence::COMPUTED;
    m_compute = std::move(compute);
    m_defaultText = text;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::Auto(const std::string& text)
{
    m_presence = Presence::AUTO;
    m_defaultText = text;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::Note(const std::string& note)
{
    m_limits.note = note;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::MaxFromVariable(const std::string& variable, int64_t offset)
{
    if (m_type != ConfigSchemaType::INTEGER && m_type != ConfigSchemaType::INTEGER_ARRAY)
    {
        throw std::logic_error("ConfigSchemaKey " + m_name + ": MaxFromVariable on a non-integer");
    }
    m_limits.hiVariable = variable;
    m_limits.hiOffset = offset;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::Check(std::function<bool(const nlohmann::json&)> ok,
                       const std::string& text,
                       const std::string& reason)
{
    m_checks.push_back({std::move(ok), text, reason});
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::MinItems(std::size_t n)
{
    m_limits.minItems = n;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::AllOrCount()
{
    if (m_type != ConfigSchemaType::INTEGER_ARRAY || m_limits.hiVariable.empty())
    {
        throw std::logic_error("ConfigSchemaKey " + m_name
                               + ": AllOrCount needs an integer array with MaxFromVariable");
    }
    m_limits.allOrCount = true;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::MaxItems(std::size_t n, const std::string& reason)
{
    m_limits.maxItems = n;
    m_limits.maxItemsReason = reason;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::UniqueBy(const std::string& key)
{
    if (m_type != ConfigSchemaType::OBJECT_ARRAY)
    {
        throw std::logic_error("ConfigSchemaKey " + m_name + ": UniqueBy on a non-object array");
    }
    m_limits.uniqueBy.push_back(key);
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::Distinct()
{
    m_limits.distinct = true;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::Attribute(const std::string& attribute)
{
    NS_ABORT_MSG_UNLESS(m_model,
                        "schema key " << m_name << " sets attribute " << attribute
                                      << " but its object configures no model");
    return Attribute(*m_model, attribute);
}

ConfigSchemaKey&
ConfigSchemaKey::Attribute(TypeId owner, const std::string& attribute)
{
    m_attribute = attribute;
    m_attributeOwner = owner;
    const TypeId::AttributeInformation info
        = ConfigSchemaAttribute::Lookup(*this, owner, attribute);
    m_attributeChecker = info.checker;
    if (m_presence == Presence::OPTIONAL)
    {
        m_presence = Presence::DEFAULT;
        m_default = ConfigSchemaAttribute::FromValue(*this, *info.initialValue, info.checker);
    }
    if (m_presence == Presence::DEFAULT)
    {
        NS_ABORT_MSG_UNLESS(
            info.checker->CreateValidValue(*ConfigSchemaAttribute::ToValue(*this, m_default)),
            "schema key " << m_name << ": attribute " << owner.GetName() << "::" << attribute
                          << " does not accept the default " << m_default.dump());
    }
    return *this;
}

const std::string&
ConfigSchemaKey::GetAttribute() const
{
    return m_attribute;
}

Ptr<const AttributeChecker>
ConfigSchemaKey::GetAttributeChecker() const
{
    return m_attributeChecker;
}

TypeId
ConfigSchemaKey::GetAttributeOwner() const
{
    NS_ABORT_MSG_UNLESS(m_attributeOwner, "schema key " << m_name << " sets no attribute");
    return *m_attributeOwner;
}

ConfigSchemaObject&
ConfigSchemaKey::Fields()
{
    if (!m_fields)
    {
        throw std::logic_error("ConfigSchemaKey " + m_name + " holds no object");
    }
    return *m_fields;
}

const ConfigSchemaObject&
ConfigSchemaKey::Fields() const
{
    if (!m_fields)
    {
        throw std::logic_error("ConfigSchemaKey " + m_name + " holds no object");
    }
    return *m_fields;
}

const std::string&
ConfigSchemaKey::GetName() const
{
    return m_name;
}

ConfigSchemaType
ConfigSchemaKey::GetType() const
{
    return m_type;
}

bool
ConfigSchemaKey::IsRequired() const
{
    return m_presence == Presence::REQUIRED;
}

bool
ConfigSchemaKey::IsAuto() const
{
    return m_presence == Presence::AUTO;
}

const nlohmann::json*
ConfigSchemaKey::GetDefault() const
{
    return m_presence == Presence::DEFAULT ? &m_default : nullptr;
}

const ConfigSchemaDefaultFunction*
ConfigSchemaKey::GetDefaultFunction() const
{
    return m_presence == Presence::COMPUTED ? &m_compute : nullptr;
}

const std::vector<std::string>&
ConfigSchemaKey::GetNames() const
{
    return m_limits.names;
}

const std::vector<std::string>&
ConfigSchemaKey::GetImplemented() const
{
    return m_limits.implemented;
}

void
ConfigSchemaKey::SetEnumNames(std::vector<std::string> names)
{
    m_enumNames = std::move(names);
    for (const auto& n : m_limits.implemented)
    {
        if (std::find(m_enumNames.begin(), m_enumNames.end(), n) == m_enumNames.end())
        {
            throw std::logic_error("schema key " + m_name + ": '" + n
                                   + "' is not a name of the enum it is bound to");
        }
    }
}

void
ConfigSchemaKey::AddName(const std::string& name, bool implemented)
{
    if (implemented && !m_enumNames.empty()
        && std::find(m_enumNames.begin(), m_enumNames.end(), name) == m_enumNames.end())
    {
        throw std::logic_error("schema key " + m_name + ": '" + name
                               + "' is not a name of the enum it is bound to");
    }
    std::vector<std::string>& names = m_limits.names;
    std::vector<std::string>& done = m_limits.implemented;
    if (std::find(names.begin(), names.end(), name) == names.end())
    {
        names.push_back(name);
    }
    if (implemented && std::find(done.begin(), done.end(), name) == done.end())
    {
        // Keep the implemented names in declaration order, as messages list them.
        std::vector<std::string> ordered;
        for (const auto& n : names)
        {
            if (n == name || std::find(done.begin(), done.end(), n) != done.end())
            {
                ordered.push_back(n);
            }
        }
        done = std::move(ordered);
    }
}

const std::string&
ConfigSchemaKey::GetUnit() const
{
    return m_unit;
}

const std::string&
ConfigSchemaKey::GetDoc() const
{
    return m_doc;
}

const std::string&
ConfigSchemaKey::GetDefaultText() const
{
    return m_defaultText;
}

std::vector<std::string>
ConfigSchemaKey::GetCheckTexts() const
{
    std::vector<std::string> texts;
    for (const ExtraCheck& c : m_checks)
    {
        texts.push_back(c.text);
    }
    return texts;
}

const ConfigSchemaLimits&
ConfigSchemaKey::GetLimits() const
{
    return m_limits;
}

const ConfigSchemaValueType&
ConfigSchemaKey::GetValueType() const
{
    return *m_valueType;
}

const ConfigSchemaBinding*
ConfigSchemaKey::GetBinding() const
{
    return m_binding.get();
}

bool
ConfigSchemaKey::IsBoundTo(std::type_index type) const
{
    return m_binding && m_binding->owner == type;
}

void
ConfigSchemaKey::SetBinding(ConfigSchemaBinding binding, ConfigSchemaType kind)
{
    if (kind != m_type)
    {
        throw std::logic_error("ConfigSchemaKey " + m_name
                               + ": bound to a member of the wrong kind");
    }
    if (m_fields)
    {
        m_fields->SetStructType(binding.child);
    }
    m_binding = std::make_unique<ConfigSchemaBinding>(std::move(binding));
}

void
ConfigSchemaKey::CheckOwner(std::type_index type) const
{
    if (m_binding->owner != type)
    {
        throw std::logic_error("ConfigSchemaKey " + m_name
                               + ": bound to a member of another struct than its object's (a "
                                 "type whose keys bind to a struct of its own calls "
                                 "BindStruct on its variant)");
    }
}

// ---------------------------------------------------------------------------------------------
// ConfigSchemaLimits

std::optional<uint64_t>
ConfigSchemaLimits::UpperBound(const ConfigSchemaContext* context) const
{
    uint64_t bound = hi;
    if (!hiVariable.empty() && context)
    {
        const ConfigSchemaDerived* v = context->GetVariable(hiVariable);
        if (v && v->value.is_number_integer())
        {
            const int64_t x = v->value.get<int64_t>() + hiOffset;
            bound = std::min<uint64_t>(bound, x < 0 ? 0 : static_cast<uint64_t>(x));
        }
    }
    if (bound == kUintMax)
    {
        return std::nullopt;
    }
    return bound;
}

std::string
ConfigSchemaLimits::FormatNote(const ConfigSchemaContext* context) const
{
    std::string out;
    std::size_t pos = 0;
    while (pos < note.size())
    {
        const std::size_t open = note.find('{', pos);
        if (open == std::string::npos)
        {
            out += note.substr(pos);
            break;
        }
        const std::size_t close = note.find('}', open);
        if (close == std::string::npos)
        {
            out += note.substr(pos);
            break;
        }
        out += note.substr(pos, open - pos);
        const ConfigSchemaDerived* v
            = context ? context->GetVariable(note.substr(open + 1, close - open - 1)) : nullptr;
        if (!v)
        {
            return ""; // a note about a value nobody knows would mislead
        }
        out += v->value.is_number() ? ConfigSchema::FormatNumber(v->value.get<double>())
                                    : ConfigSchema::ValueText(v->value);
        pos = close + 1;
    }
    return out;
}

std::string
ConfigSchemaLimits::VariableExplanation(const ConfigSchemaContext& context) const
{
    if (hiVariable.empty())
    {
        return "";
    }
    const ConfigSchemaDerived* v = context.GetVariable(hiVariable);
    return v ? v->explanation : "";
}

// ---------------------------------------------------------------------------------------------
// ConfigSchemaKey: validation and binding, by the value type

std::string
ConfigSchemaKey::Expect(const ConfigSchemaContext* context) const
{
    return m_valueType->Expect(*this, context);
}

bool
ConfigSchemaKey::RunChecks(const nlohmann::json& v,
                           const std::string& path,
                           ConfigSchemaContext& context) const
{
    for (const ExtraCheck& c : m_checks)
    {
        if (!c.ok(v))
        {
            context.AddIssue(path, c.reason + ", got " + ConfigSchema::Shown(v));
            return false;
        }
    }
    return true;
}

std::optional<nlohmann::json>
ConfigSchemaKey::Validate(const nlohmann::json& v,
                          const std::string& path,
                          ConfigSchemaContext& context) const
{
    std::optional<json> out = m_valueType->Validate(*this, v, path, context);
    if (!out || !RunChecks(*out, path, context))
    {
        return std::nullopt;
    }
    return out;
}

void
ConfigSchemaKey::Read(const nlohmann::json& filledObject, void* target, std::type_index type) const
{
    if (!m_binding)
    {
        return;
    }
    CheckOwner(type);
    auto it = filledObject.find(m_name);
    m_valueType->Read(*this, it == filledObject.end() ? nullptr : &*it, target);
}

bool
ConfigSchemaKey::Write(nlohmann::json& out,
                       const void* source,
                       std::type_index type,
                       const nlohmann::json* fallback) const
{
    const json* fb = nullptr;
    if (fallback && fallback->is_object())
    {
        auto it = fallback->find(m_name);
        fb = it == fallback->end() ? nullptr : &*it;
    }
    std::optional<json> value;
    bool defaulted = false;
    if (m_binding && source)
    {
        CheckOwner(type);
        value = m_valueType->Write(*this, source, fb);
    }
    else if (fb)
    {
        value = *fb;
    }
    else
    {
        value = m_valueType->WriteDefault(*this);
        defaulted = true;
    }
    if (value)
    {
        out[m_name] = std::move(*value);
    }
    return defaulted;
}

} // namespace ns3
