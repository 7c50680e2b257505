#include "scenario/model/output-schema.h"

#include "ns3/log.h"
#include "scenario/model/scenario-config.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OutputSchema");

void
OutputSchema::Declare(ConfigSchemaObject& root)
{
    NS_LOG_FUNCTION_NOARGS();
    ConfigSchemaObject& out
        = root.Object("output").Doc("the result directory").Bind(&ScenarioConfig::output).Fields();
    out.Section("Output");
    out.String("dir")
        .DefaultFrom(
            [](const ConfigSchemaView& v) -> std::optional<nlohmann::json>
            {
                auto it = v.Root().find("name");
                if (it == v.Root().end() || !it->is_string())
                {
                    return std::nullopt; // the name is invalid, and reported
                }
                return "results/" + it->get<std::string>();
            },
            "`\"results/<name>\"`")
        .Doc("result directory (mcast4ai-run --out overrides it)")
        .Bind(&OutputConfig::dir);
    out.Boolean("pcap")
        .Default(false)
        .Doc("write a pcap of every NIC and switch port")
        .Bind(&OutputConfig::pcap);
    out.Boolean("receivers")
        .Default(false)
        .Doc("ops.csv also gets one row per receiver of every operation that has several (a "
             "P2MP message's receivers, a collective iteration's ranks): its own completion, "
             "for per-receiver tail CDFs; a `kind` column then tells `op` rows from "
             "`receiver` rows")
        .Bind(&OutputConfig::receivers);
    out.Boolean("steps")
        .Default(false)
        .Doc("write steps.csv: one row per step of every collective iteration, with when it "
             "started and ended and the hosts of its last arrival (the rank or link that held "
             "it up)")
        .Bind(&OutputConfig::steps);
    out.Boolean("packet_trace")
        .Default(false)
        .Doc("write packets.csv: one row per link that each data frame of an operation crossed, "
             "with the operation's workload, op, request and session ids (ops.csv's join key), "
             "its PSN and size, and its wait, PFC-paused time and CE mark at the switch queue it "
             "left. A row per frame and hop: large on large runs")
        .Bind(&OutputConfig::packetTrace);
    out.Boolean("steering_trace")
        .Default(false)
        .Doc("write steering.csv: one row per change of a sending queue pair's UDP source port "
             "under `load_balancing.mode` `steering` (when, host, QPN, old and new port), so "
             "its repaths and their rate limit can be followed; only the header when nothing "
             "steers")
        .Bind(&OutputConfig::steeringTrace);
    out.Boolean("timeline")
        .Default(false)
        .Doc("write timeline.json in the Trace Event Format, for Perfetto (ui.perfetto.dev) or "
             "Chrome's trace viewer: operations and their phases, each request's parts "
             "(queueing, prefill, KV transfer, first token, decode), every host's compute, "
             "waiting-for-data and sending, port counters (queue bytes, PFC pause, transmit "
             "rate) and arrows from a request to the transfer it caused (docs/timeline.md); one "
             "process only")
        .Bind(&OutputConfig::timeline);
    out.Number("timeline_sample_us", ConfigSchemaBounds::Above(0))
        .Default(10.0)
        .Unit("µs")
        .Doc("how often the timeline samples every port's counters; a counter is written only "
             "when it changed")
        .Bind(&OutputConfig::timelineSampleUs);
    out.Integer("timeline_max_mb", 1, 100000)
        .Default(100)
        .Unit("MB")
        .Doc("the timeline's size bound: past it, host activity, request parts and counters "
             "are dropped (counted in the file's otherData); operations are always written")
        .Bind(&OutputConfig::timelineMaxMb);
}

} // namespace ns3
