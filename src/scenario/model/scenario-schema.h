/*
 * The scenario schema (version 1), assembled from its sections: the top-level keys here, each
 * section in its own file (topology, nic, switch, load_balancing, p2mp, workloads, output).
 */
#ifndef MCAST4AI_SCENARIO_SCHEMA_H
#define MCAST4AI_SCENARIO_SCHEMA_H

#include "core/model/config-schema.h"

namespace ns3
{

/**
 * Builds the ConfigSchema of a scenario, bound to ScenarioConfig.
 */
class ScenarioSchema
{
public:
    /// Variable the loader sets to the scenario file's stem, the default `name`.
    static const char* const FILE_STEM;

    /// The schema with every registered workload type.
    static ConfigSchema Build();
};

} // namespace ns3

#endif /* MCAST4AI_SCENARIO_SCHEMA_H */
