#include "scenario/model/limits-schema.h"

#include "core/model/sim-limits.h"
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
              "`stopped_by` naming the budget, and exits 3. Budgets are checked at t = 0 and then "
              "every 10 µs of simulated time, so a run may pass one by what it does in 10 µs; "
              "the watchdog "
              "every quarter of `watchdog_us`, so it stops a stalled run between 1 and 1.25 "
              "`watchdog_us` after its last progress.");
    l.Integer("max_events", 1, uint64_t{1} << 62)
        .Auto("no budget")
        .Doc("stop after this many simulation events (a run's `events` in summary.json)")
        .Bind(&LimitsConfig::maxEvents, uint64_t{0});
    l.Number("max_rss_mb", ConfigSchemaBounds::Between(1, 1 << 24))
        .Auto("no budget")
        .Unit("MB")
        .Doc("stop once the process's peak resident memory passes this; a fabric whose "
             "estimated memory alone (docs/robustness.md) is more is refused before it is built "
             "(exit 2)")
        .Bind(&LimitsConfig::maxRssMb, 0.0);
    l.Number("watchdog_us", ConfigSchemaBounds::Between(0, SimLimits::MAX_TIME_US))
        .Auto("10 x the longer of `nic.rto_us` and the time to send `nic.ack_every` MTU frames at "
              "the slowest rate a sender can be held to (its congestion control's floor, "
              "`nic.dcqcn.min_rate_mbps` or `nic.hpcc.min_rate_mbps`, or the slower link if "
              "slower): 10,000 µs with the defaults")
        .Unit("µs")
        .Doc("stop a run whose operations make no progress for this long while data is "
             "outstanding (no queue pair's acknowledged PSN moves and no operation completes), "
             "naming the stuck operations, the PFC-paused ports and their cycle if there is one "
             "(a deadlock); 0: never")
        .Bind(&LimitsConfig::watchdogUs, LimitsConfig::AUTO_WATCHDOG);
}

} // namespace ns3
