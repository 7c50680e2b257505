#include "scenario/model/workloads-schema.h"

#include "ns3/log.h"
#include "rdma/model/queue-pair.h"
#include "scenario/model/scenario-config.h"
#include "workload/model/workload-type-registry.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadsSchema");

void
WorkloadsSchema::Declare(ConfigSchemaObject& root)
{
    NS_LOG_FUNCTION_NOARGS();
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
             "switch egress queue they wait in; the class is lossless")
        .Bind(&WorkloadConfig::priority, int32_t{-1});
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
    w.Boolean("loss_tolerant")
        .Auto("false")
        .Doc("differentiated reliability (the inference-transport draft): the workload's data "
             "may lose bytes. A PSN the network loses is sent again at most "
             "`max_retransmissions` times, then given up on: the sender sends a PSN skip "
             "instead, and the receiver completes the message without those bytes, which "
             "`lost_bytes` reports (summary.json, ops.csv). A message's first packet is always "
             "recovered; see docs/rdma-dcqcn.md#loss-tolerant-data")
        .Bind(&WorkloadConfig::lossTolerant, false);
    w.Integer("max_retransmissions", 0, QueuePair::RELIABLE - 1)
        .Auto("0 with loss_tolerant")
        .Doc("loss_tolerant: how often each lost packet is sent again before it is given up on")
        .Bind(&WorkloadConfig::maxRetransmissions, int16_t{-1});
    w.Rule(
        "max_retransmissions",
        {"max_retransmissions", "loss_tolerant", "type"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const nlohmann::json* tolerant = v.Get("loss_tolerant");
            if (!v.Get("max_retransmissions") || (tolerant && *tolerant == true))
            {
                return std::nullopt;
            }
            const nlohmann::json* type = v.Get("type");
            if (type && *type == "moe-dispatch")
            {
                return std::nullopt; // it has loss_tolerant_layers too, and checks this itself
            }
            return "applies only with " + v.Path("loss_tolerant")
                   + " true (or moe-dispatch's loss_tolerant_layers): every loss of reliable "
                     "data is recovered";
        },
        "`max_retransmissions` only with `loss_tolerant` true or `loss_tolerant_layers`");
    for (const WorkloadTypeRegistry::Entry& e : WorkloadTypeRegistry::GetEntries())
    {
        SchemaTypeRegistry::Declare(e, w.Variant(e.name, e.doc));
    }
}

} // namespace ns3
