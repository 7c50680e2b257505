#include "workload/model/straggler-schema-keys.h"

#include "workload/model/workload-schema-keys.h"

namespace ns3
{

using json = nlohmann::json;

void
StragglerSchemaKeys::Targets(ConfigSchemaObject& s)
{
    s.String("workload")
        .Note("a label of workloads[]")
        .Doc("the workload whose ranks it slows; every workload that computes between "
             "iterations (the collectives) if left out")
        .Bind(&StragglerTargetKeys::workload);
    s.Rule(
        "workload",
        {"workload"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* label = v.Get("workload");
            const json& root = v.Root();
            if (!label || !root.contains("workloads") || !root["workloads"].is_array())
            {
                return std::nullopt;
            }
            std::string known;
            for (const json& w : root["workloads"])
            {
                if (w.is_object() && w.contains("label") && w["label"] == *label)
                {
                    return std::nullopt;
                }
                if (w.is_object() && w.contains("label") && w["label"].is_string())
                {
                    known += (known.empty() ? "" : ", ") + w["label"].get<std::string>();
                }
            }
            return "no workload is labelled " + label->dump() + " (labels: " + known + ")";
        },
        "a label of workloads[]");
    WorkloadSchemaKeys::Ranks(s)
        .Doc("the hosts it may slow (those that are ranks of the workload); every host if left "
             "out")
        .Bind(&StragglerTargetKeys::ranks);
}

void
StragglerSchemaKeys::Probability(ConfigSchemaObject& s)
{
    s.Number("probability", ConfigSchemaBounds::Between(0, 1))
        .Default(1.0)
        .Doc("chance, drawn independently per rank and iteration, that it fires; 1 = always, "
             "0 = never (the baseline of a sweep)")
        .Attribute("Probability");
}

void
StragglerSchemaKeys::Window(ConfigSchemaObject& s, const std::string& what)
{
    s.Number("start_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("when " + what + " begins")
        .Bind(&StragglerWindowKeys::startUs);
    s.Number("end_us", ConfigSchemaBounds::Above(0))
        .Unit("µs")
        .Note("none: until the run ends")
        .Doc("when " + what + " ends")
        .Bind(&StragglerWindowKeys::endUs);
    WorkloadSchemaKeys::EndAfterStart(s);
}

ConfigSchemaKey&
StragglerSchemaKeys::Host(ConfigSchemaObject& s)
{
    return s.Integer("host")
        .Required()
        .MaxFromVariable(WorkloadSchemaKeys::HOSTS, -1)
        .Note(WorkloadSchemaKeys::HOST_NOTE);
}

} // namespace ns3
