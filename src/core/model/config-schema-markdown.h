/*
 * The Markdown reference of a schema: a section per object that asks for one (heading, intro,
 * a table with a row per key, then its rules, presets and derived values), a sub-section per
 * variant. Reads the declarations and asks each key's value type for its "type" and "allowed"
 * cells; validation knows nothing of it.
 */
#ifndef MCAST4AI_CONFIG_SCHEMA_MARKDOWN_H
#define MCAST4AI_CONFIG_SCHEMA_MARKDOWN_H

#include "core/model/config-schema-object.h"

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \brief Renders a schema's reference (ConfigSchema::Markdown).
 */
class ConfigSchemaMarkdown
{
public:
    /**
     * Write the reference of the object `root` and everything nested in it.
     *
     * \param title the document's heading
     * \param intro paragraphs after the heading ("" for none)
     */
    static void Document(std::ostream& os,
                         const std::string& title,
                         const std::string& intro,
                         const ConfigSchemaObject& root);

    /** \return the "default" cell of a key, without the presets that change it */
    static std::string DefaultText(const ConfigSchemaKey& key);

private:
    /// Objects (with their paths) that get a section of their own after the current one.
    using Sections = std::vector<std::pair<const ConfigSchemaObject*, std::string>>;

    static void Section(std::ostream& os,
                        const ConfigSchemaObject& object,
                        const std::string& path,
                        int level);
    static void Variants(std::ostream& os,
                         const ConfigSchemaObject& object,
                         const std::string& path,
                         int level,
                         Sections& sections);
    static void Rows(std::ostream& os,
                     const ConfigSchemaObject& object,
                     const std::string& path,
                     const std::vector<const ConfigSchemaObject*>& scope,
                     Sections& sections);
    static Sections Inlined(const ConfigSchemaObject& object, const std::string& path);
    static void Notes(std::ostream& os, const ConfigSchemaObject& object, const std::string& path);
    static std::string DefaultCell(const ConfigSchemaKey& key,
                                   const std::vector<const ConfigSchemaObject*>& scope);
    static std::string AllowedCell(const ConfigSchemaKey& key);
};

} // namespace ns3

#endif /* MCAST4AI_CONFIG_SCHEMA_MARKDOWN_H */
