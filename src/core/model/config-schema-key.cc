#include "core/model/config-schema-key.h"

#include "core/model/config-schema-attribute.h"
#include "core/model/config-schema-object.h"
#include "core/model/config-schema.h"
#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ConfigSchemaKey");

namespace
{

using json = nlohmann::json;

constexpr uint64_t kUintMax = std::numeric_limits<uint64_t>::max();

std::string
Join(const std::vector<std::string>& items)
{
    std::string s;
    for (std::size_t i = 0; i < items.size(); ++i)
    {
        s += (i > 0 ? ", " : "") + items[i];
    }
    return s;
}

std::string
JoinNumbers(const std::vector<uint64_t>& items)
{
    std::vector<std::string> s;
    for (uint64_t x : items)
    {
        s.push_back(std::to_string(x));
    }
    return Join(s);
}

std::string
Code(const std::string& s)
{
    return "`" + s + "`";
}

std::string
CodeList(const std::vector<std::string>& names)
{
    std::vector<std::string> s;
    for (const auto& n : names)
    {
        s.push_back(Code(json(n).dump()));
    }
    return Join(s);
}

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

ConfigSchemaKey::ConfigSchemaKey(const std::string& name, ConfigSchemaType type)
    : m_name(name),
      m_type(type)
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
    m_note = note;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::MaxFromVariable(const std::string& variable, int64_t offset)
{
    if (m_type != ConfigSchemaType::INTEGER && m_type != ConfigSchemaType::INTEGER_ARRAY)
    {
        throw std::logic_error("ConfigSchemaKey " + m_name + ": MaxFromVariable on a non-integer");
    }
    m_hiVariable = variable;
    m_hiOffset = offset;
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
    m_minItems = n;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::AllOrCount()
{
    if (m_type != ConfigSchemaType::INTEGER_ARRAY || m_hiVariable.empty())
    {
        throw std::logic_error("ConfigSchemaKey " + m_name
                               + ": AllOrCount needs an integer array with MaxFromVariable");
    }
    m_allOrCount = true;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::MaxItems(std::size_t n, const std::string& reason)
{
    m_maxItems = n;
    m_maxItemsReason = reason;
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::UniqueBy(const std::string& key)
{
    if (m_type != ConfigSchemaType::OBJECT_ARRAY)
    {
        throw std::logic_error("ConfigSchemaKey " + m_name + ": UniqueBy on a non-object array");
    }
    m_uniqueBy.push_back(key);
    return *this;
}

ConfigSchemaKey&
ConfigSchemaKey::Distinct()
{
    m_distinct = true;
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
    return m_names;
}

const std::vector<std::string>&
ConfigSchemaKey::GetImplemented() const
{
    return m_implemented;
}

void
ConfigSchemaKey::SetEnumNames(std::vector<std::string> names)
{
    m_enumNames = std::move(names);
    for (const auto& n : m_implemented)
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
    if (std::find(m_names.begin(), m_names.end(), name) == m_names.end())
    {
        m_names.push_back(name);
    }
    if (implemented
        && std::find(m_implemented.begin(), m_implemented.end(), name) == m_implemented.end())
    {
        // Keep the implemented names in declaration order, as messages list them.
        std::vector<std::string> ordered;
        for (const auto& n : m_names)
        {
            if (n == name
                || std::find(m_implemented.begin(), m_implemented.end(), n) != m_implemented.end())
            {
                ordered.push_back(n);
            }
        }
        m_implemented = std::move(ordered);
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

void
ConfigSchemaKey::SetBinding(Binding binding, ConfigSchemaType kind)
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
    m_binding = std::make_unique<Binding>(std::move(binding));
}

void
ConfigSchemaKey::CheckOwner(std::type_index type) const
{
    if (m_binding->owner != type)
    {
        throw std::logic_error("ConfigSchemaKey " + m_name
                               + ": bound to a member of another struct than its object's");
    }
}

// ---------------------------------------------------------------------------------------------
// ConfigSchemaKey: validation

std::optional<uint64_t>
ConfigSchemaKey::UpperBound(const ConfigSchemaContext* context) const
{
    uint64_t hi = m_hi;
    if (!m_hiVariable.empty() && context)
    {
        const ConfigSchemaDerived* v = context->GetVariable(m_hiVariable);
        if (v && v->value.is_number_integer())
        {
            const int64_t bound = v->value.get<int64_t>() + m_hiOffset;
            hi = std::min<uint64_t>(hi, bound < 0 ? 0 : static_cast<uint64_t>(bound));
        }
    }
    if (hi == kUintMax)
    {
        return std::nullopt;
    }
    return hi;
}

std::string
ConfigSchemaKey::FormatNote(const ConfigSchemaContext* context) const
{
    std::string out;
    std::size_t pos = 0;
    while (pos < m_note.size())
    {
        const std::size_t open = m_note.find('{', pos);
        if (open == std::string::npos)
        {
            out += m_note.substr(pos);
            break;
        }
        const std::size_t close = m_note.find('}', open);
        if (close == std::string::npos)
        {
            out += m_note.substr(pos);
            break;
        }
        out += m_note.substr(pos, open - pos);
        const ConfigSchemaDerived* v
            = context ? context->GetVariable(m_note.substr(open + 1, close - open - 1)) : nullptr;
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
ConfigSchemaKey::IntegerExpect(const ConfigSchemaContext* context, bool article) const
{
    const std::optional<uint64_t> hi = UpperBound(context);
    std::string s = article ? "an integer" : "integer";
    if (hi)
    {
        s += " between " + std::to_string(m_lo) + " and " + std::to_string(*hi);
    }
    else
    {
        s += " >= " + std::to_string(m_lo);
    }
    const std::string note = FormatNote(context);
    if (!note.empty())
    {
        s += " (" + note + ")";
    }
    return s;
}

std::string
ConfigSchemaKey::VariableExplanation(const ConfigSchemaContext& context) const
{
    if (m_hiVariable.empty())
    {
        return "";
    }
    const ConfigSchemaDerived* v = context.GetVariable(m_hiVariable);
    return v ? v->explanation : "";
}

std::string
ConfigSchemaKey::Expect(const ConfigSchemaContext* context) const
{
    switch (m_type)
    {
        case ConfigSchemaType::INTEGER:
            return IntegerExpect(context, true);
        case ConfigSchemaType::INTEGER_SET:
            return "an integer, one of " + JoinNumbers(m_allowed);
        case ConfigSchemaType::NUMBER:
        {
            const std::string text = m_bounds.Text();
            const std::string note = FormatNote(context);
            return "a number" + (text.empty() ? "" : " " + text)
                   + (note.empty() ? "" : " (" + note + ")");
        }
        case ConfigSchemaType::BOOLEAN:
            return "true or false";
        case ConfigSchemaType::STRING:
            return "a non-empty string";
        case ConfigSchemaType::ENUM:
            return "one of " + ConfigSchema::QuoteList(m_names);
        case ConfigSchemaType::OBJECT:
            return "an object";
        case ConfigSchemaType::OBJECT_ARRAY:
        {
            std::string noun = m_noun;
            if (noun.empty())
            {
                std::vector<std::string> keys;
                for (const auto& k : m_fields->m_keys)
                {
                    keys.push_back(k->GetName());
                }
                noun = "{" + Join(keys) + "} objects";
            }
            return (m_minItems > 0 ? "a non-empty array of " : "an array of ") + noun;
        }
        case ConfigSchemaType::INTEGER_ARRAY:
            return std::string("an array of ") + (m_distinct ? "distinct " : "") + m_noun;
    }
    return "";
}

bool
ConfigSchemaKey::CheckInteger(const nlohmann::json& v,
                              const std::string& path,
                              ConfigSchemaContext& context,
                              uint64_t& out) const
{
    bool isInteger = false;
    uint64_t x = 0;
    if (v.is_number_unsigned())
    {
        x = v.get<uint64_t>();
        isInteger = true;
    }
    else if (v.is_number_integer() && v.get<int64_t>() >= 0)
    {
        x = static_cast<uint64_t>(v.get<int64_t>());
        isInteger = true;
    }
    const std::optional<uint64_t> hi = UpperBound(&context);
    if (isInteger && x >= m_lo && (!hi || x <= *hi))
    {
        out = x;
        return true;
    }
    std::string reason
        = "must be " + IntegerExpect(&context, true) + ", got " + ConfigSchema::Shown(v);
    if (v.is_number_float())
    {
        const double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d))
        {
            reason += "; write integers without a decimal point or exponent";
        }
    }
    const std::string explanation = VariableExplanation(context);
    if (isInteger && !explanation.empty())
    {
        reason += "; " + explanation;
    }
    context.AddIssue(path, reason);
    return false;
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
    auto fail = [&](const std::string& reason) -> std::optional<json>
    {
        context.AddIssue(path, reason);
        return std::nullopt;
    };
    const std::string got = ", got " + ConfigSchema::Shown(v);
    json out;
    switch (m_type)
    {
        case ConfigSchemaType::INTEGER:
        {
            uint64_t x = 0;
            if (!CheckInteger(v, path, context, x))
            {
                return std::nullopt;
            }
            out = x;
            break;
        }
        case ConfigSchemaType::INTEGER_SET:
        {
            if (v.is_number_integer() && (v.is_number_unsigned() || v.get<int64_t>() >= 0)
                && std::find(m_allowed.begin(), m_allowed.end(), v.get<uint64_t>())
                       != m_allowed.end())
            {
                out = v.get<uint64_t>();
                break;
            }
            return fail("must be " + Expect(&context) + got);
        }
        case ConfigSchemaType::NUMBER:
            if (v.is_number() && m_bounds.Contains(v.get<double>()))
            {
                out = v.get<double>();
                break;
            }
            return fail("must be " + Expect(&context) + got);
        case ConfigSchemaType::BOOLEAN:
            if (!v.is_boolean())
            {
                return fail("must be true or false" + got);
            }
            out = v;
            break;
        case ConfigSchemaType::STRING:
            if (!v.is_string() || v.get_ref<const std::string&>().empty())
            {
                return fail("must be a non-empty string" + got);
            }
            out = v;
            break;
        case ConfigSchemaType::ENUM:
        {
            if (!v.is_string())
            {
                return fail("must be a string, " + Expect(&context) + got);
            }
            const std::string& s = v.get_ref<const std::string&>();
            if (std::find(m_names.begin(), m_names.end(), s) == m_names.end())
            {
                std::string reason = "must be " + Expect(&context) + got;
                const std::string best = ConfigSchema::Suggest(s, m_names);
                if (!best.empty())
                {
                    reason += " (did you mean " + ConfigSchema::Quote(best) + "?)";
                }
                return fail(reason);
            }
            if (std::find(m_implemented.begin(), m_implemented.end(), s) == m_implemented.end())
            {
                return fail(ConfigSchema::Quote(s) + " is not implemented yet; implemented: "
                            + ConfigSchema::QuoteList(m_implemented));
            }
            out = v;
            break;
        }
        case ConfigSchemaType::OBJECT:
            if (!m_fields->Validate(v, path, context, std::nullopt, out))
            {
                return std::nullopt;
            }
            break;
        case ConfigSchemaType::OBJECT_ARRAY:
        case ConfigSchemaType::INTEGER_ARRAY:
        {
            if (m_allOrCount && (v.is_string() || v.is_number_integer()))
            {
                // "all" or a count stands for the first indices below the bound.
                const ConfigSchemaDerived* bound = context.GetVariable(m_hiVariable);
                if (!bound)
                {
                    return std::nullopt; // the section that derives it has reported why
                }
                const int64_t limit = bound->value.get<int64_t>() + m_hiOffset + 1;
                int64_t n = limit;
                if (v.is_string() && v != "all")
                {
                    return fail("must be \"all\", a count or " + Expect(&context) + got);
                }
                if (v.is_number_integer())
                {
                    n = v.get<int64_t>();
                    if (n < static_cast<int64_t>(std::max<std::size_t>(m_minItems, 1)) || n > limit)
                    {
                        return fail("a count must be "
                                    + std::to_string(std::max<std::size_t>(m_minItems, 1)) + " .. "
                                    + std::to_string(limit) + got);
                    }
                }
                json all = json::array();
                for (int64_t i = 0; i < n; ++i)
                {
                    all.push_back(i);
                }
                return Validate(all, path, context);
            }
            if (v.is_array() && m_minItems > 1 && v.size() < m_minItems)
            {
                return fail("must have at least " + std::to_string(m_minItems) + " elements, got "
                            + std::to_string(v.size()));
            }
            if (!v.is_array() || v.size() < m_minItems)
            {
                return fail("must be " + Expect(&context) + got);
            }
            if (v.size() > m_maxItems)
            {
                return fail(m_maxItemsReason.empty()
                                ? "must have at most " + std::to_string(m_maxItems)
                                      + " element(s), got " + std::to_string(v.size())
                                : m_maxItemsReason);
            }
            out = json::array();
            bool ok = true;
            std::map<uint64_t, std::size_t> seen; // distinct values: first index of each
            for (std::size_t i = 0; i < v.size(); ++i)
            {
                const std::string ep = ConfigSchema::IndexPath(path, i);
                if (m_type == ConfigSchemaType::OBJECT_ARRAY)
                {
                    json e;
                    ok = m_fields->Validate(v[i], ep, context, i, e) && ok;
                    out.push_back(std::move(e));
                    continue;
                }
                uint64_t x = 0;
                if (!CheckInteger(v[i], ep, context, x))
                {
                    ok = false;
                    out.push_back(nullptr);
                    continue;
                }
                if (m_distinct)
                {
                    auto [at, inserted] = seen.emplace(x, i);
                    if (!inserted)
                    {
                        context.AddIssue(ep,
                                         std::to_string(x) + " is listed twice (also "
                                             + ConfigSchema::IndexPath(path, at->second) + ")");
                        ok = false;
                    }
                }
                out.push_back(x);
            }
            // Compare only values that validated; the others were reported already.
            for (const std::string& key : m_uniqueBy)
            {
                std::map<std::string, std::size_t> first;
                for (std::size_t i = 0; i < out.size(); ++i)
                {
                    auto it = out[i].find(key);
                    if (!out[i].is_object() || it == out[i].end())
                    {
                        continue;
                    }
                    auto [at, inserted] = first.emplace(it->dump(), i);
                    if (!inserted)
                    {
                        const std::string other
                            = ConfigSchema::KeyPath(ConfigSchema::IndexPath(path, at->second), key);
                        context.AddIssue(
                            ConfigSchema::KeyPath(ConfigSchema::IndexPath(path, i), key),
                            "must be unique, but " + other + " is also "
                                + ConfigSchema::ValueText(*it));
                        ok = false;
                    }
                }
            }
            if (!ok)
            {
                return std::nullopt;
            }
            break;
        }
    }
    if (!RunChecks(out, path, context))
    {
        return std::nullopt;
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// ConfigSchemaKey: Markdown cells

std::string
ConfigSchemaKey::TypeText() const
{
    switch (m_type)
    {
        case ConfigSchemaType::INTEGER:
        case ConfigSchemaType::INTEGER_SET:
            return "integer";
        case ConfigSchemaType::NUMBER:
            return "number";
        case ConfigSchemaType::BOOLEAN:
            return "boolean";
        case ConfigSchemaType::STRING:
            return "string";
        case ConfigSchemaType::ENUM:
            return "enum";
        case ConfigSchemaType::OBJECT:
            return "object";
        case ConfigSchemaType::OBJECT_ARRAY:
            return "array of objects";
        case ConfigSchemaType::INTEGER_ARRAY:
            return m_allOrCount ? "array of integers, `\"all\"` or integer" : "array of integers";
    }
    return "";
}

std::string
ConfigSchemaKey::AllowedText() const
{
    std::vector<std::string> parts;
    auto integerRange = [this]()
    {
        std::string hi;
        if (!m_hiVariable.empty())
        {
            hi = m_hiVariable;
            if (m_hiOffset != 0)
            {
                hi += (m_hiOffset > 0 ? " + " : " - ")
                      + std::to_string(m_hiOffset > 0 ? m_hiOffset : -m_hiOffset);
            }
            if (m_hi != kUintMax)
            {
                hi = "min(" + std::to_string(m_hi) + ", " + hi + ")";
            }
        }
        else if (m_hi != kUintMax)
        {
            hi = std::to_string(m_hi);
        }
        return hi.empty() ? ">= " + std::to_string(m_lo) : std::to_string(m_lo) + " .. " + hi;
    };
    switch (m_type)
    {
        case ConfigSchemaType::INTEGER:
            parts.push_back(integerRange());
            break;
        case ConfigSchemaType::INTEGER_SET:
            parts.push_back(JoinNumbers(m_allowed));
            break;
        case ConfigSchemaType::NUMBER:
            parts.push_back(m_bounds.Text().empty() ? "any" : m_bounds.Text());
            break;
        case ConfigSchemaType::BOOLEAN:
            parts.push_back("`true`, `false`");
            break;
        case ConfigSchemaType::STRING:
            parts.push_back("non-empty");
            break;
        case ConfigSchemaType::ENUM:
        {
            parts.push_back(CodeList(m_implemented));
            std::vector<std::string> reserved;
            for (const auto& n : m_names)
            {
                if (std::find(m_implemented.begin(), m_implemented.end(), n) == m_implemented.end())
                {
                    reserved.push_back(n);
                }
            }
            if (!reserved.empty())
            {
                parts.push_back("reserved, not implemented yet: " + CodeList(reserved));
            }
            break;
        }
        case ConfigSchemaType::OBJECT:
            break;
        case ConfigSchemaType::OBJECT_ARRAY:
        case ConfigSchemaType::INTEGER_ARRAY:
            if (m_type == ConfigSchemaType::INTEGER_ARRAY)
            {
                if (m_allOrCount)
                {
                    parts.push_back("`\"all\"` or a count n: the first n");
                }
                parts.push_back("elements " + integerRange());
            }
            if (m_minItems > 0)
            {
                parts.push_back("at least " + std::to_string(m_minItems) + " element(s)");
            }
            if (m_maxItems != std::numeric_limits<std::size_t>::max())
            {
                parts.push_back("at most " + std::to_string(m_maxItems) + " element(s)");
            }
            if (m_distinct)
            {
                parts.push_back("distinct");
            }
            for (const auto& k : m_uniqueBy)
            {
                parts.push_back("unique " + Code(k));
            }
            break;
    }
    for (const ExtraCheck& c : m_checks)
    {
        parts.push_back(c.text);
    }
    return parts.empty() ? "–" : Join(parts);
}

std::string
ConfigSchemaKey::DefaultText() const
{
    switch (m_presence)
    {
        case Presence::REQUIRED:
            return "**required**";
        case Presence::DEFAULT:
            if (m_type == ConfigSchemaType::OBJECT)
            {
                return "–";
            }
            return Code(m_default.dump());
        case Presence::COMPUTED:
            return m_defaultText;
        case Presence::AUTO:
            return "auto: " + m_defaultText;
        case Presence::OPTIONAL:
            return m_type == ConfigSchemaType::OBJECT ? "–" : "optional";
    }
    return "";
}

// ---------------------------------------------------------------------------------------------
// ConfigSchemaKey: struct binding

void
ConfigSchemaKey::Read(const nlohmann::json& filledObject, void* target, std::type_index type) const
{
    if (!m_binding)
    {
        return;
    }
    CheckOwner(type);
    auto it = filledObject.find(m_name);
    switch (m_type)
    {
        case ConfigSchemaType::OBJECT:
            if (it != filledObject.end())
            {
                m_fields->Read(*it, m_binding->member(target), m_binding->child);
            }
            return;
        case ConfigSchemaType::OBJECT_ARRAY:
        {
            const std::size_t n = (it != filledObject.end() && it->is_array()) ? it->size() : 0;
            m_binding->resize(target, n);
            for (std::size_t i = 0; i < n; ++i)
            {
                m_fields->Read((*it)[i], m_binding->element(target, i), m_binding->child);
            }
            return;
        }
        default:
            if (it != filledObject.end())
            {
                m_binding->read(target, *it);
            }
            else if (m_binding->readAuto)
            {
                m_binding->readAuto(target);
            }
            return;
    }
}

void
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
    if (m_binding && source)
    {
        CheckOwner(type);
        switch (m_type)
        {
            case ConfigSchemaType::OBJECT:
                out[m_name] = m_fields->Write(m_binding->memberConst(source), m_binding->child, fb);
                return;
            case ConfigSchemaType::OBJECT_ARRAY:
            {
                json array = json::array();
                const std::size_t n = m_binding->size(source);
                for (std::size_t i = 0; i < n; ++i)
                {
                    const json* efb
                        = (fb && fb->is_array() && i < fb->size()) ? &(*fb)[i] : nullptr;
                    array.push_back(
                        m_fields->Write(m_binding->elementConst(source, i), m_binding->child, efb));
                }
                out[m_name] = std::move(array);
                return;
            }
            default:
                if (m_binding->isAuto && m_binding->isAuto(source))
                {
                    return;
                }
                out[m_name] = m_binding->write(source);
                return;
        }
    }
    if (fb)
    {
        out[m_name] = *fb;
        return;
    }
    if (m_type == ConfigSchemaType::OBJECT)
    {
        json child = m_fields->Write(nullptr, typeid(void), nullptr);
        if (!child.empty())
        {
            out[m_name] = std::move(child);
        }
        return;
    }
    if (m_presence == Presence::DEFAULT)
    {
        out[m_name] = m_default;
    }
}

} // namespace ns3
