/*
 * What a finished run tells its user to look at: settings that had no effect and results
 * that rest on fewer samples or less state than the scenario suggests.
 */
#ifndef MCAST4AI_RUN_WARNINGS_H
#define MCAST4AI_RUN_WARNINGS_H

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

struct ScenarioConfig;
class StragglerLog;

/**
 * \brief Warnings about a run that completed, from its scenario, its summary and its
 * straggler log. Each names the scenario path it is about, as a load-time warning does:
 *
 * - a straggler that never fired (a `slow-node` or `jitter` entry on a workload without
 *   compute time, a probability that drew nothing, a window outside the run) changed nothing;
 * - group tables that evicted groups, or requests that fell back to unicast: the new
 *   protocol's results include re-installs or unicast copies;
 * - a workload whose p99 (or p99.9) rests on fewer than 100 (1,000) operations: the printed
 *   figure is the maximum.
 */
class RunWarnings
{
public:
    static std::vector<std::string> Check(const ScenarioConfig& config,
                                          const nlohmann::json& summary,
                                          const StragglerLog& stragglers);
};

} // namespace ns3

#endif /* MCAST4AI_RUN_WARNINGS_H */
