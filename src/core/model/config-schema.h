/*
 * A declarative configuration schema: every key of a JSON document declared once (type, range,
 * default, unit, meaning), objects with variants, cross-key rules and presets. From that one
 * declaration come validation (every problem with its JSON path, not just the first), the
 * normalized document (every default filled in), the typed read into a C++ struct, the write
 * back to JSON and a Markdown reference. It knows nothing about what it configures.
 *
 * Paths use dots for object keys and [i] for array elements (workloads[0].flows[3].dst); the
 * document itself is "".
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_H
#define MCAST4AI_CONFIG_SCHEMA_H

#include "core/model/config-schema-object.h"

#include <map>
#include <stdexcept>
#include <string>
#include <typeindex>
#include <vector>

namespace ns3
{

/// What ConfigSchema::Validate found.
struct ConfigSchemaResult
{
    nlohmann::json value;                  ///< the normalized document (meaningful when Ok())
    std::vector<ConfigSchemaIssue> issues; ///< the first maxIssues problems, in document order
    std::size_t omitted{0};                ///< problems found beyond those

    bool Ok() const
    {
        return issues.empty();
    }
};

/**
 * A whole document's schema: its root object, and the operations derived from it.
 */
class ConfigSchema
{
public:
    /// How many issues Validate keeps by default.
    static constexpr std::size_t DEFAULT_MAX_ISSUES = 20;

    /**
     * \param title heading of the Markdown reference
     * \param intro paragraphs after the heading
     */
    ConfigSchema(const std::string& title, const std::string& intro);

    ConfigSchemaObject& Root();
    const ConfigSchemaObject& Root() const;

    /**
     * Validate a document and fill in its defaults.
     *
     * \param doc the document
     * \param variables variables known before the walk (e.g. a name computed from a file name)
     * \param maxIssues issues to keep; later ones are counted in `omitted`
     */
    ConfigSchemaResult Validate(const nlohmann::json& doc,
                                const std::map<std::string, ConfigSchemaDerived>& variables = {},
                                std::size_t maxIssues = DEFAULT_MAX_ISSUES) const;

    /// Copy a normalized document (Validate's value) into the struct bound to the root.
    template<class S>
    void Read(const nlohmann::json& normalized, S& out) const;

    /// The document of a struct bound to the root: bound keys from the struct, unbound ones from
    /// their BindJson fallback or their constant default; "auto" keys at their auto value are
    /// omitted.
    template<class S>
    nlohmann::json Write(const S& in) const;

    /// The reference: one section per object declared with Section(), a table each.
    std::string Markdown() const;

    /// \name Text helpers shared by the schema and the code that declares one
    /// \{
    static std::string KeyPath(const std::string& parent, const std::string& key);
    static std::string IndexPath(const std::string& parent, std::size_t index);
    static std::string Quote(const std::string& s);
    /// "a, b, c" (with another separator if given)
    static std::string Join(const std::vector<std::string>& items,
                            const std::string& separator = ", ");
    /// `s` as Markdown inline code
    static std::string Code(const std::string& s);
    /// "'a', 'b' or 'c'" (or "'a', 'b', 'c'" with conjunction "")
    static std::string QuoteList(const std::vector<std::string>& items,
                                 const std::string& conjunction = "");
    /// A value as the user wrote it, short enough for a one-line message (never deep).
    static std::string Shown(const nlohmann::json& v);
    static std::string FormatNumber(double x);
    /// A value named inside a reason: strings as 'text', numbers as FormatNumber, else Shown.
    static std::string ValueText(const nlohmann::json& v);
    /// The candidate a misspelt word most likely meant, or "" when none is close.
    static std::string Suggest(const std::string& word, const std::vector<std::string>& candidates);
    /// Edit distance (insertions, deletions, substitutions).
    static std::size_t Distance(const std::string& a, const std::string& b);
    /// \}

private:
    std::string m_title;
    std::string m_intro;
    std::unique_ptr<ConfigSchemaObject> m_root;
};

template<class S>
void
ConfigSchema::Read(const nlohmann::json& normalized, S& out) const
{
    const auto type = m_root->GetStructType();
    if (!type || *type != std::type_index(typeid(S)))
    {
        throw std::logic_error("ConfigSchema::Read: the root is not bound to this struct");
    }
    m_root->Read(normalized, &out, typeid(S));
}

template<class S>
nlohmann::json
ConfigSchema::Write(const S& in) const
{
    const auto type = m_root->GetStructType();
    if (!type || *type != std::type_index(typeid(S)))
    {
        throw std::logic_error("ConfigSchema::Write: the root is not bound to this struct");
    }
    return m_root->Write(&in, typeid(S), nullptr);
}

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_H */
