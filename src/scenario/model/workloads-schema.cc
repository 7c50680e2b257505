#include "scenario/model/workloads-schema.h"

#include "ns3/log.h"
#include "scenario/model/scenario-config.h"
#include "workload/model/workload-type-registry.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadsSchema");

void
WorkloadsSchema::Declare(ConfigSchemaObject& root)
{
    ConfigSchemaObject& w = root.ObjectArray("workloads", "workload objects")
                                .Required()
                                .MinItems(1)
                                .UniqueBy("label")
                                .Doc("what runs, all concurrently")
                                .Bind(&ScenarioConfig::workloads)
                                .Fields();
    w.Section("Workloads",
              "Each element of `workloads` is one workload; they all run concurrently. `type` "
              "selects the keys. Labels name workloads in ops.csv and summary.json, so they "
              "must be unique.");
    w.BindJson(&WorkloadConfig::spec);
    w.Discriminator("type", WorkloadTypeRegistry::ReservedNames())
        .Required()
        .Doc("the kind of workload")
        .Bind(&WorkloadConfig::type);
    w.String("label")
        .DefaultFrom(
            [](const ConfigSchemaView& v) -> std::optional<nlohmann::json>
            {
                const nlohmann::json* type = v.Get("type");
                if (!type || !v.GetIndex())
                {
                    return std::nullopt;
                }
                return type->get<std::string>() + "-" + std::to_string(*v.GetIndex());
            },
            "`\"<type>-<index>\"`, e.g. `\"flows-0\"`")
        .Doc("names the workload in ops.csv and summary.json")
        .Bind(&WorkloadConfig::label);
    w.Integer("priority", 0, 7)
        .Note("nic.data_priority")
        .Doc("the PFC priority class (and DSCP class) of the workload's data frames, hence the "
             "switch egress queue they wait in; the class is lossless");
    w.Rule(
        "priority",
        {"priority"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const nlohmann::json* p = v.Get("priority");
            const nlohmann::json& root = v.Root();
            if (!p || !root.contains("nic") || !root["nic"].contains("ctrl_priority"))
            {
                return std::nullopt;
            }
            if (*p == root["nic"]["ctrl_priority"])
            {
                return "must differ from nic.ctrl_priority (" + p->dump()
                       + "): control frames need their own class";
            }
            return std::nullopt;
        },
        "priority != nic.ctrl_priority");
    for (const WorkloadTypeRegistry::Entry& e : WorkloadTypeRegistry::GetEntries())
    {
        e.declare(w.Variant(e.name, e.doc));
    }
}

} // namespace ns3
