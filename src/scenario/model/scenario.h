/*
 * Loading a scenario: JSON text -> --set overrides -> validation -> ScenarioConfig with every
 * default filled in. Nothing is accepted silently: an unknown key, a wrong type or an
 * out-of-range value is a ScenarioError naming the JSON path and what is allowed there, and
 * every such problem of a file is reported at once. The schema itself is declared once, section
 * by section (ScenarioSchema); validation, defaults, ToJson and the reference come from it.
 */
#ifndef MCAST4AI_SCENARIO_H
#define MCAST4AI_SCENARIO_H

#include "scenario/model/scenario-config.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

class ConfigSchemaObject;

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
     *         "--set") or an invalid scenario (then listing every problem found, up to
     *         ScenarioError::MAX_REPORTED)
     */
    static ScenarioConfig Load(const std::string& file, const std::vector<std::string>& sets);

    /**
     * What a valid scenario asks for that will likely not do what was meant, one line each
     * ("PATH: why"): a retransmission timeout shorter than one full frame on the slowest link
     * (every packet would be resent before it could be acknowledged).
     */
    static std::vector<std::string> Warnings(const ScenarioConfig& config);

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
     * since "auto" is resolved per port when the fabric is built. Keys of registered workload
     * types that are not bound to WorkloadConfig members come from WorkloadConfig::spec.
     *
     * \param c a validated config
     * \return the scenario document
     */
    static nlohmann::json ToJson(const ScenarioConfig& c);

    /**
     * Check a config built in C++ by the rules a scenario file is checked by: the config is
     * written as its JSON document and validated, so a program that never touches JSON gets
     * the same errors, at the same JSON paths.
     *
     * \param c the config (c.file names it in messages)
     * \return the config as validated (the same as c when c is valid)
     * \throws ScenarioError naming each violation (up to 20) at its JSON path
     */
    static ScenarioConfig Check(const ScenarioConfig& c);

    /**
     * Apply one override to a JSON document (exposed for tests and tools).
     *
     * \param doc the document to modify; missing intermediate objects are created
     * \param set "PATH=VALUE"
     * \return the canonical JSON path that was set (a.b[0].c)
     * \throws ScenarioError with file "--set" when the override is malformed
     */
    static std::string ApplySet(nlohmann::json& doc, const std::string& set);

    /// Declares the keys of a workload type (see WorkloadTypeRegistry::DeclareFunction).
    using WorkloadDeclareFunction = std::function<void(ConfigSchemaObject&)>;

    /**
     * Make `name` a valid workloads[].type whose entries have the keys `declare` declares
     * (besides `type` and `label`). Entries of the type reach the program as WorkloadConfig with
     * type, label and spec (the entry, defaults filled in) set. Registering a name again
     * replaces its declaration; the built-in types are registered the same way.
     *
     * \param name the type name
     * \param declare declares its keys on the entry's variant object
     * \param doc one line for the reference
     */
    static void RegisterWorkloadType(const std::string& name,
                                     WorkloadDeclareFunction declare,
                                     const std::string& doc);

    /** \return whether a type of that name was registered and is now removed */
    static bool UnregisterWorkloadType(const std::string& name);

    /** \return the scenario reference in Markdown (docs/scenario-reference.md) */
    static std::string SchemaMarkdown();

private:
    static ScenarioConfig Validate(const nlohmann::json& doc, const std::string& file);
};

} // namespace ns3

#endif /* MCAST4AI_SCENARIO_H */
