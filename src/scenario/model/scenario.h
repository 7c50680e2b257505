/*
 * Loading a scenario: JSON text -> --set overrides -> validation -> ScenarioConfig with every
 * default filled in. Nothing is accepted silently: an unknown key, a wrong type or an
 * out-of-range value is a ScenarioError naming the JSON path and what is allowed there.
 */
#ifndef MCAST4AI_SCENARIO_H
#define MCAST4AI_SCENARIO_H

#include "scenario/model/scenario-config.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * Scenario JSON (version 1) reader, validator and writer.
 */
class Scenario
{
public:
    /**
     * Read, override, validate and resolve a scenario file.
     *
     * \param file path of the JSON scenario; also the FILE part of every error message
     * \param sets overrides "a.b.c=VALUE" (a.b[0].c or a.b.0.c for array elements); VALUE is
     *        JSON if it parses as JSON, otherwise a string
     * \return the validated config, defaults filled in
     * \throws ScenarioError on an unreadable file, a syntax error, a malformed override (file
     *         "--set") or an invalid scenario
     */
    static ScenarioConfig Load(const std::string& file, const std::vector<std::string>& sets);

    /**
     * Same as Load, from text already in memory.
     *
     * \param text the JSON document
     * \param fileLabel name used for messages, for ScenarioConfig::file and for the default name
     *        (its stem)
     * \param sets overrides, as for Load
     * \return the validated config
     */
    static ScenarioConfig Parse(const std::string& text,
                                const std::string& fileLabel,
                                const std::vector<std::string>& sets);

    /**
     * The fully resolved scenario with the JSON key names: Parse(ToJson(c).dump()) gives c
     * back. Auto-sized values (PFC headroom/hysteresis, ECN thresholds left at -1) are omitted,
     * since "auto" is resolved per port when the fabric is built.
     *
     * \param c a validated config
     * \return the scenario document
     */
    static nlohmann::json ToJson(const ScenarioConfig& c);

    /**
     * Apply one override to a JSON document (exposed for tests and tools).
     *
     * \param doc the document to modify; missing intermediate objects are created
     * \param set "PATH=VALUE"
     * \return the canonical JSON path that was set (a.b[0].c)
     * \throws ScenarioError with file "--set" when the override is malformed
     */
    static std::string ApplySet(nlohmann::json& doc, const std::string& set);

private:
    static ScenarioConfig Validate(const nlohmann::json& doc, const std::string& file);
};

} // namespace ns3

#endif /* MCAST4AI_SCENARIO_H */
