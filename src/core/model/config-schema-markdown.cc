#include "core/model/config-schema-markdown.h"

#include "core/model/config-schema-value-type.h"
#include "core/model/config-schema.h"
#include "ns3/log.h"

#include <algorithm>
#include <ostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ConfigSchemaMarkdown");

namespace
{

using json = nlohmann::json;

// A Markdown table cell: pipes would end the cell.
std::string
Cell(const std::string& s)
{
    std::string out;
    for (char c : s)
    {
        if (c == '|')
        {
            out += "\\|";
        }
        else if (c == '\n')
        {
            out += ' ';
        }
        else
        {
            out += c;
        }
    }
    return out.empty() ? "–" : out;
}

const char* const kTableHead = "| key | type | allowed | default | unit | meaning |\n"
                               "|---|---|---|---|---|---|\n";

} // namespace

void
ConfigSchemaMarkdown::Document(std::ostream& os,
                               const std::string& title,
                               const std::string& intro,
                               const ConfigSchemaObject& root)
{
    NS_LOG_FUNCTION(title);
    os << "# " << title << "\n";
    if (!intro.empty())
    {
        os << "\n" << intro << "\n";
    }
    Section(os, root, "", 2);
}

std::string
ConfigSchemaMarkdown::DefaultText(const ConfigSchemaKey& key)
{
    const bool object = key.GetType() == ConfigSchemaType::OBJECT;
    if (key.IsRequired())
    {
        return "**required**";
    }
    if (const json* d = key.GetDefault())
    {
        return object ? "–" : ConfigSchema::Code(d->dump()); // an object's defaults are its keys'
    }
    if (key.GetDefaultFunction())
    {
        return key.GetDefaultText();
    }
    if (key.IsAuto())
    {
        return "auto: " + key.GetDefaultText();
    }
    return object ? "–" : "optional";
}

std::string
ConfigSchemaMarkdown::AllowedCell(const ConfigSchemaKey& key)
{
    std::vector<std::string> parts = key.GetValueType().AllowedText(key);
    for (const std::string& text : key.GetCheckTexts())
    {
        parts.push_back(text);
    }
    return parts.empty() ? "–" : ConfigSchema::Join(parts);
}

std::string
ConfigSchemaMarkdown::DefaultCell(const ConfigSchemaKey& key,
                                  const std::vector<const ConfigSchemaObject*>& scope)
{
    std::string text = DefaultText(key);
    for (const ConfigSchemaObject* o : scope)
    {
        for (const ConfigSchemaObject::PresetDecl& p : o->m_presets)
        {
            auto it = p.defaults.find(key.GetName());
            if (it != p.defaults.end())
            {
                text += "; " + ConfigSchema::Code(p.selector) + " "
                        + ConfigSchema::Code(json(p.value).dump()) + ": "
                        + ConfigSchema::Code(it->dump());
            }
        }
    }
    return text;
}

void
ConfigSchemaMarkdown::Rows(std::ostream& os,
                           const ConfigSchemaObject& object,
                           const std::string& path,
                           const std::vector<const ConfigSchemaObject*>& scope,
                           Sections& sections)
{
    std::vector<const ConfigSchemaObject*> here{&object};
    here.insert(here.end(), scope.begin(), scope.end());
    for (const auto& k : object.m_keys)
    {
        const std::string keyPath = ConfigSchema::KeyPath(path, k->GetName());
        std::string meaning = k->GetDoc();
        if (k->GetName() == object.m_discriminator && !object.m_variants.empty())
        {
            meaning += (meaning.empty() ? "" : "; ") + std::string("selects the keys below");
        }
        os << "| " << ConfigSchema::Code(keyPath) << " | " << Cell(k->GetValueType().TypeText(*k))
           << " | " << Cell(AllowedCell(*k)) << " | " << Cell(DefaultCell(*k, here)) << " | "
           << Cell(k->GetUnit()) << " | " << Cell(meaning) << " |\n";
        if (k->GetType() == ConfigSchemaType::OBJECT
            || k->GetType() == ConfigSchemaType::OBJECT_ARRAY)
        {
            const std::string sub
                = keyPath + (k->GetType() == ConfigSchemaType::OBJECT_ARRAY ? "[]" : "");
            const ConfigSchemaObject& fields = k->Fields();
            if (!fields.m_sectionTitle.empty())
            {
                sections.push_back({&fields, sub});
            }
            else
            {
                Rows(os, fields, sub, {}, sections);
            }
        }
    }
}

ConfigSchemaMarkdown::Sections
ConfigSchemaMarkdown::Inlined(const ConfigSchemaObject& object, const std::string& path)
{
    // The object and the nested ones without a section of their own: they share its table.
    Sections objects{{&object, path}};
    for (std::size_t i = 0; i < objects.size(); ++i)
    {
        const auto [o, p] = objects[i];
        for (const auto& k : o->m_keys)
        {
            const bool array = k->GetType() == ConfigSchemaType::OBJECT_ARRAY;
            if ((array || k->GetType() == ConfigSchemaType::OBJECT)
                && k->Fields().m_sectionTitle.empty())
            {
                objects.push_back(
                    {&k->Fields(), ConfigSchema::KeyPath(p, k->GetName()) + (array ? "[]" : "")});
            }
        }
    }
    return objects;
}

void
ConfigSchemaMarkdown::Notes(std::ostream& os,
                            const ConfigSchemaObject& object,
                            const std::string& path)
{
    // Rules, presets and derived values of the object and of the objects inlined in its table.
    std::vector<std::string> lines;
    for (const auto& [o, p] : Inlined(object, path))
    {
        for (const ConfigSchemaObject::RuleDecl& r : o->m_rules)
        {
            std::vector<std::string> keys;
            for (const auto& k : r.keys)
            {
                keys.push_back(ConfigSchema::Code(ConfigSchema::KeyPath(p, k)));
            }
            if (keys.empty())
            {
                keys.push_back(ConfigSchema::Code(r.target.empty()
                                                      ? (p.empty() ? "(root)" : p)
                                                      : ConfigSchema::KeyPath(p, r.target)));
            }
            lines.push_back("- Rule (" + ConfigSchema::Join(keys) + "): " + r.doc);
        }
        for (const ConfigSchemaObject::PresetDecl& pr : o->m_presets)
        {
            std::vector<std::string> values;
            for (const auto& item : pr.defaults.items())
            {
                values.push_back(ConfigSchema::Code(item.key()) + " "
                                 + ConfigSchema::Code(item.value().dump()));
            }
            lines.push_back("- Preset " + ConfigSchema::Code(ConfigSchema::KeyPath(p, pr.selector))
                            + " " + ConfigSchema::Code(json(pr.value).dump()) + ": " + pr.doc
                            + "; defaults " + ConfigSchema::Join(values));
        }
        for (const ConfigSchemaObject::DeriveDecl& d : o->m_derives)
        {
            lines.push_back("- Derived value " + ConfigSchema::Code(d.variable) + ": " + d.doc);
        }
    }
    if (!lines.empty())
    {
        os << "\n";
        for (const auto& l : lines)
        {
            os << l << "\n";
        }
    }
}

void
ConfigSchemaMarkdown::Variants(std::ostream& os,
                               const ConfigSchemaObject& object,
                               const std::string& path,
                               int level,
                               Sections& sections)
{
    for (const ConfigSchemaObject::VariantDecl& v : object.m_variants)
    {
        os << "\n"
           << std::string(std::min(level, 6), '#') << " "
           << ConfigSchema::Code(ConfigSchema::KeyPath(path, object.m_discriminator)) << " = "
           << ConfigSchema::Code(json(v.value).dump()) << "\n\n";
        if (!v.object->m_doc.empty())
        {
            os << v.object->m_doc << "\n\n";
        }
        if (!v.object->m_keys.empty())
        {
            os << kTableHead;
            std::vector<const ConfigSchemaObject*> scope;
            for (const ConfigSchemaObject* o = &object; o; o = o->m_parent)
            {
                scope.push_back(o);
            }
            Rows(os, *v.object, path, scope, sections);
        }
        else
        {
            os << "No keys of its own.\n";
        }
        Notes(os, *v.object, path);
        for (const auto& [o, p] : Inlined(*v.object, path))
        {
            Variants(os, *o, p, level + 1, sections);
        }
    }
}

void
ConfigSchemaMarkdown::Section(std::ostream& os,
                              const ConfigSchemaObject& object,
                              const std::string& path,
                              int level)
{
    const std::string hashes(std::min(level, 6), '#');
    os << "\n"
       << hashes << " "
       << (object.m_sectionTitle.empty() ? ConfigSchema::Code(path) : object.m_sectionTitle)
       << (path.empty() ? "" : " (" + ConfigSchema::Code(path) + ")") << "\n\n";
    if (!object.m_sectionIntro.empty())
    {
        os << object.m_sectionIntro << "\n\n";
    }
    Sections sections;
    os << kTableHead;
    std::vector<const ConfigSchemaObject*> scope;
    for (const ConfigSchemaObject* o = object.m_parent; o; o = o->m_parent)
    {
        scope.push_back(o);
    }
    Rows(os, object, path, scope, sections);
    Notes(os, object, path);
    for (const auto& [o, p] : Inlined(object, path))
    {
        Variants(os, *o, p, level + 1, sections);
    }
    for (const auto& [o, p] : sections)
    {
        Section(os, *o, p, level);
    }
}

} // namespace ns3
