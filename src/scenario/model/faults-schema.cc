#include "scenario/model/faults-schema.h"

#include "ns3/log.h"
#include "scenario/model/scenario-config.h"
#include "workload/model/workload-schema-keys.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FaultsSchema");

namespace
{

void
DeclareTimes(ConfigSchemaObject& f)
{
    f.Number("at_us", ConfigSchemaBounds::AtLeast(0))
        .Required()
        .Unit("µs")
        .Doc("when the link loses its carrier: frames on it and every frame sent into it are "
             "lost until it is back")
        .Bind(&FaultConfig::atUs);
    f.Number("up_us", ConfigSchemaBounds::Above(0))
        .Auto("never (the link stays down)")
        .Unit("µs")
        .Doc("when the link is back (after `at_us`)")
        .Bind(&FaultConfig::upUs, FaultConfig::NEVER);
    f.Number("convergence_us", ConfigSchemaBounds::AtLeast(0))
        .Default(100.0)
        .Unit("µs")
        .Doc("how long after each change the routes, BIFTs and group trees are recomputed "
             "around it (or back over it); until then switches keep sending into the dead link")
        .Bind(&FaultConfig::convergenceUs);
    f.Rule(
        "up_us",
        {"at_us", "up_us"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const nlohmann::json* up = v.Get("up_us");
            if (!up || up->get<double>() > v.Get("at_us")->get<double>())
            {
                return std::nullopt;
            }
            return "must be after " + v.Path("at_us") + " (" + v.Get("at_us")->dump() + "), got "
                   + up->dump();
        },
        "up_us > at_us");
}

} // namespace

void
FaultsSchema::Declare(ConfigSchemaObject& root)
{
    NS_LOG_FUNCTION_NOARGS();
    ConfigSchemaObject& f = root.ObjectArray("faults", "fault objects")
                                .Default(nlohmann::json::array())
                                .Doc("links and NICs that fail during the run, and come back")
                                .Bind(&ScenarioConfig::faults)
                                .Fields();
    f.Section("Faults",
              "Each element of `faults` takes a link down at `at_us` and, with `up_us`, back "
              "up. The physical side is immediate: every frame on the cable or sent into it "
              "while it is down is lost (`network.link_down_losses`), and a pause the peer had "
              "set is forgotten. The control plane follows `convergence_us` later: routes are "
              "recomputed over the links that are up, every switch's BIFT is rebuilt from them "
              "and the new protocol's controller installs every group's tree again. A switch "
              "that a failure cut off from a destination drops what it cannot route "
              "(`network.unroutable_drops`). Queue pairs recover what was lost by "
              "retransmission once a path exists; what never recovers is reported by the "
              "watchdog and the run's invariants, never silently. Each fault's entry in "
              "summary.json says when it acted and what it cost (docs/robustness.md).");
    f.Discriminator("type").Required().Doc("what fails").Bind(&FaultConfig::type);
    DeclareTimes(f);
    ConfigSchemaObject& link
        = f.Variant("link-down",
                    "A link between two nodes, named as in results (`host3`, `leaf0`, `spine1`; "
                    "a fat-tree's `edge`, `agg` and `core`; a ring's `sw`).");
    link.String("from").Required().Doc("one end of the link").Bind(&FaultConfig::from);
    link.String("to").Required().Doc("the other end, a neighbour of `from`").Bind(&FaultConfig::to);
    ConfigSchemaObject& nic = f.Variant(
        "nic-down",
        "A host's NIC fails: its link to its top-of-rack switch goes down, and once the routes "
        "converge the ToR drops what is addressed to it. A receiver of a P2MP group stops "
        "acknowledging with it.");
    nic.Integer("host")
        .Required()
        .MaxFromVariable(WorkloadSchemaKeys::HOSTS, -1)
        .Note(WorkloadSchemaKeys::HOST_NOTE)
        .Doc("the host whose NIC fails")
        .Bind(&FaultConfig::host);
}

} // namespace ns3
