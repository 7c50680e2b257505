#include "scenario/model/limits-schema.h"

#include "ns3/log.h"
#include "scenario/model/scenario-config.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LimitsSchema");

void
LimitsSchema::Declare(ConfigSchemaObject& root)
{
    NS_LOG_FUNCTION_NOARGS();
    ConfigSchemaObject& l
        = root.Object("limits")
              .Doc("budgets the run stops at, with what it has so far, instead of exhausting the "
                   "machine")
              .Bind(&ScenarioConfig::limits)
              .Fields();
    l.Section("Limits",
              "A run past a budget stops, writes its results with `\"complete\": false` and "
              "`stopped_by` naming the budget, and exits 3. Budgets are checked every 10 µs of "
              "simulated time, so a run may pass one by what it does in 10 µs.");
    l.Integer("max_events", 1, uint64_t{1} << 62)
        .Auto("no budget")
        .Doc("stop after this many simulation events (a run's `events` in summary.json)")
        .Bind(&LimitsConfig::maxEvents, uint64_t{0});
    l.Number("max_rss_mb", ConfigSchemaBounds::Between(1, 1 << 24))
        .Auto("no budget")
        .Unit("MB")
        .Doc("stop once the process's peak resident memory passes this")
        .Bind(&LimitsConfig::maxRssMb, 0.0);
}

} // namespace ns3
