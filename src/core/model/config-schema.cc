#include "core/model/config-schema.h"

#include "core/model/config-schema-markdown.h"
#include "ns3/log.h"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ConfigSchema");

namespace
{

using json = nlohmann::json;

constexpr std::size_t kShownChars = 60;

// Serialise at most a few levels and a few dozen characters: a message must stay one line, and
// a hostile document nested a million levels deep must not recurse a million times.
void
AppendShown(std::string& out, const json& v, int depth)
{
    if (out.size() > kShownChars)
    {
        return;
    }
    if (v.is_object() || v.is_array())
    {
        const bool object = v.is_object();
        out += object ? '{' : '[';
        if (depth >= 3 && !v.empty())
        {
            out += "...";
        }
        else
        {
            bool first = true;
            for (auto it = v.begin(); it != v.end() && out.size() <= kShownChars; ++it)
            {
                if (!first)
                {
                    out += ',';
                }
                first = false;
                if (object)
                {
                    out += json(it.key()).dump() + ':';
                }
                AppendShown(out, *it, depth + 1);
            }
        }
        out += object ? '}' : ']';
        return;
    }
    if (v.is_string() && v.get_ref<const std::string&>().size() > kShownChars)
    {
        out += json(v.get_ref<const std::string&>().substr(0, kShownChars)).dump();
        return;
    }
    out += v.dump();
}

// Case and '_' versus '-' do not make a different word.
std::string
Folded(const std::string& s)
{
    std::string out;
    for (char c : s)
    {
        out += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

} // namespace

ConfigSchema::ConfigSchema(const std::string& title, const std::string& intro)
    : m_title(title),
      m_intro(intro),
      m_root(std::make_unique<ConfigSchemaObject>())
{
}

ConfigSchemaObject&
ConfigSchema::Root()
{
    return *m_root;
}

const ConfigSchemaObject&
ConfigSchema::Root() const
{
    return *m_root;
}

ConfigSchemaResult
ConfigSchema::Validate(const nlohmann::json& doc,
                       const std::map<std::string, ConfigSchemaDerived>& variables,
                       std::size_t maxIssues) const
{
    ConfigSchemaContext context(maxIssues);
    for (const auto& [name, value] : variables)
    {
        context.SetVariable(name, value);
    }
    ConfigSchemaResult result;
    result.value = json::object();
    context.SetRoot(&result.value);
    m_root->Validate(doc, "", context, std::nullopt, result.value);
    result.issues = context.GetIssues();
    result.omitted = context.GetIssueCount() - result.issues.size();
    NS_LOG_INFO("validated: " << context.GetIssueCount() << " issue(s)");
    return result;
}

std::string
ConfigSchema::Markdown() const
{
    std::ostringstream os;
    ConfigSchemaMarkdown::Document(os, m_title, m_intro, *m_root);
    return os.str();
}

std::string
ConfigSchema::KeyPath(const std::string& parent, const std::string& key)
{
    return parent.empty() ? key : parent + "." + key;
}

std::string
ConfigSchema::IndexPath(const std::string& parent, std::size_t index)
{
    return parent + "[" + std::to_string(index) + "]";
}

std::string
ConfigSchema::Quote(const std::string& s)
{
    return "'" + s + "'";
}

std::string
ConfigSchema::Join(const std::vector<std::string>& items, const std::string& separator)
{
    std::string s;
    for (std::size_t i = 0; i < items.size(); ++i)
    {
        s += (i > 0 ? separator : "") + items[i];
    }
    return s;
}

std::string
ConfigSchema::Code(const std::string& s)
{
    return "`" + s + "`";
}

std::string
ConfigSchema::QuoteList(const std::vector<std::string>& items, const std::string& conjunction)
{
    std::string s;
    for (std::size_t i = 0; i < items.size(); ++i)
    {
        if (i > 0)
        {
            s += (!conjunction.empty() && i + 1 == items.size()) ? " " + conjunction + " " : ", ";
        }
        s += Quote(items[i]);
    }
    return s;
}

std::string
ConfigSchema::Shown(const nlohmann::json& v)
{
    std::string s;
    AppendShown(s, v, 0);
    if (s.size() > kShownChars)
    {
        s = s.substr(0, kShownChars - 3) + "...";
    }
    return s;
}

std::string
ConfigSchema::FormatNumber(double x)
{
    std::ostringstream os;
    os << std::setprecision(15) << x;
    return os.str();
}

std::string
ConfigSchema::ValueText(const nlohmann::json& v)
{
    if (v.is_string())
    {
        return Quote(v.get<std::string>());
    }
    if (v.is_number_float())
    {
        return FormatNumber(v.get<double>());
    }
    return Shown(v);
}

std::size_t
ConfigSchema::Distance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
    {
        row[j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i)
    {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
        {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1] ? 1 : 0)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string
ConfigSchema::Suggest(const std::string& word, const std::vector<std::string>& candidates)
{
    // Best first: the same word spelt differently ("source_tor"), a truncation ("mtu",
    // "bier-xpu"), a typo of at most two edits, a word with something appended ("seeds"). A
    // word merely inside another ("list" in "bier-xpu-list") is no evidence.
    constexpr std::size_t kNone = 4;
    if (word.size() > 200)
    {
        return ""; // nobody misspells 200 characters; and Distance is quadratic
    }
    std::string best;
    std::size_t bestScore = kNone;
    const std::string folded = Folded(word);
    for (const std::string& c : candidates)
    {
        std::size_t score = kNone;
        const std::string fc = Folded(c);
        if (fc == folded)
        {
            score = 0;
        }
        else if (folded.size() >= 3 && fc.compare(0, folded.size(), folded) == 0)
        {
            score = 1;
        }
        else if (const std::size_t d = Distance(folded, fc);
                 d <= 2 && 2 * d <= std::min(folded.size(), fc.size()))
        {
            score = 1 + d; // two edits turn "mid" into "hi": not a typo of it
        }
        else if (fc.size() >= 3 && folded.compare(0, fc.size(), fc) == 0)
        {
            score = 3;
        }
        if (score < bestScore)
        {
            bestScore = score;
            best = c;
        }
    }
    return best;
}

} // namespace ns3
