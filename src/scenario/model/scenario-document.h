/*
 * A scenario document before validation: JSON text parsed strictly (duplicate keys and syntax
 * errors are errors, with their path or line and column) and --set overrides applied to it.
 */
#ifndef MCAST4AI_SCENARIO_DOCUMENT_H
#define MCAST4AI_SCENARIO_DOCUMENT_H

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * Parsing and overriding scenario JSON; every failure is a ScenarioError.
 */
class ScenarioDocument
{
public:
    /// Deepest nesting of objects and arrays a document may have (a scenario needs about 6);
    /// deeper input is refused as it is read, before it is built.
    static constexpr std::size_t MAX_DEPTH = 64;
    /// Largest scenario file, checked before it is read.
    static constexpr std::uintmax_t MAX_FILE_BYTES = 64u << 20;

    /**
     * \param text the JSON document
     * \param file name used in messages
     * \return the document
     * \throws ScenarioError at (root) with line and column on a syntax error, or at the path of
     *         a duplicate key
     */
    static nlohmann::json Parse(const std::string& text, const std::string& file);

    /**
     * Apply one override "PATH=VALUE" (a.b[0].c or a.b.0.c); VALUE is JSON if it parses as JSON,
     * otherwise a string; missing intermediate objects are created.
     *
     * \return the canonical JSON path that was set (a.b[0].c)
     * \throws ScenarioError with file "--set" when the override is malformed
     */
    static std::string ApplySet(nlohmann::json& doc, const std::string& set);
};

} // namespace ns3

#endif /* MCAST4AI_SCENARIO_DOCUMENT_H */
