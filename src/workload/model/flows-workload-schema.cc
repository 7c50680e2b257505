#include "workload/model/flows-workload-schema.h"

#include "ns3/log.h"
#include "workload/model/workload-config.h"
#include "workload/model/workload-schema-keys.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowsWorkloadSchema");

const char* const FlowsWorkloadSchema::DOC
    = "RDMA WRITE or SEND messages between pairs of hosts, each on its own queue pair; one "
      "operation per flow.";

namespace
{

using json = nlohmann::json;

void
DeclareBytesAndStart(ConfigSchemaObject& o)
{
    o.Integer("bytes", 1)
        .Required()
        .Unit("bytes")
        .Doc("message size of every flow")
        .Bind(&WorkloadConfig::bytes);
    o.Number("start_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("when every flow is posted")
        .Bind(&WorkloadConfig::startUs);
}

} // namespace

void
FlowsWorkloadSchema::Declare(ConfigSchemaObject& w)
{
    NS_LOG_FUNCTION_NOARGS();
    w.Enum<RdmaOperation>("op")
        .Default("write")
        .Doc("RDMA WRITE or SEND")
        .Bind(&WorkloadConfig::op);
    w.Integer("qps_per_connection", 1, 256)
        .Default(1)
        .Doc("queue pairs each flow is split over, each with its own UDP source port (more "
             "entropy for ECMP, the inference-transport draft's first mitigation); the bytes are "
             "shared out evenly and the flow ends when every part is acknowledged")
        .Bind(&WorkloadConfig::qpsPerConnection);
    w.Discriminator("pattern").Required().Doc("which pairs send").Bind(&WorkloadConfig::pattern);
    w.Rule(
        "pattern",
        {"pattern"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const ConfigSchemaDerived* hosts = v.Variable(WorkloadSchemaKeys::HOSTS);
            if (!hosts || hosts->value.get<uint64_t>() >= 2)
            {
                return std::nullopt;
            }
            return "pattern '" + v.Get("pattern")->get<std::string>()
                   + "' needs at least 2 hosts; the topology has " + hosts->value.dump() + " ("
                   + hosts->explanation + ")";
        },
        "every pattern needs at least 2 hosts");

    ConfigSchemaObject& list = w.Variant("list", "The flows as given.");
    ConfigSchemaObject& f = list.ObjectArray("flows")
                                .Required()
                                .MinItems(1)
                                .Doc("one message each")
                                .Bind(&WorkloadConfig::flows)
                                .Fields();
    f.Integer("src")
        .Required()
        .MaxFromVariable(WorkloadSchemaKeys::HOSTS, -1)
        .Note(WorkloadSchemaKeys::HOST_NOTE)
        .Doc("sending host")
        .Bind(&FlowSpec::src);
    f.Integer("dst")
        .Required()
        .MaxFromVariable(WorkloadSchemaKeys::HOSTS, -1)
        .Note(WorkloadSchemaKeys::HOST_NOTE)
        .Doc("receiving host")
        .Bind(&FlowSpec::dst);
    f.Integer("bytes", 1).Required().Unit("bytes").Doc("message size").Bind(&FlowSpec::bytes);
    f.Number("start_us", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("µs")
        .Doc("when the message is posted")
        .Bind(&FlowSpec::startUs);
    f.Different("dst", "src");

    DeclareBytesAndStart(w.Variant("permutation",
                                   "Every host h sends `bytes` to π(h), π a uniformly random "
                                   "single cycle: every host sends and receives one flow."));

    ConfigSchemaObject& incast = w.Variant("incast",
                                           "Hosts receiver+1, ..., receiver+senders (mod H) each "
                                           "send `bytes` to `receiver`.");
    incast.Integer("senders", 1)
        .Required()
        .MaxFromVariable(WorkloadSchemaKeys::HOSTS, -1)
        .Note("hosts other than the receiver; the topology has {hosts} hosts")
        .Doc("how many hosts send")
        .Bind(&WorkloadConfig::senders);
    incast.Integer("receiver")
        .Required()
        .MaxFromVariable(WorkloadSchemaKeys::HOSTS, -1)
        .Note(WorkloadSchemaKeys::HOST_NOTE)
        .Doc("the host every flow goes to")
        .Bind(&WorkloadConfig::receiver);
    DeclareBytesAndStart(incast);
}

} // namespace ns3
