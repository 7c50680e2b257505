#include "scenario/model/stragglers-schema.h"

#include "ns3/log.h"
#include "scenario/model/scenario-config.h"
#include "workload/model/straggler-type-registry.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StragglersSchema");

void
StragglersSchema::Declare(ConfigSchemaObject& root)
{
    NS_LOG_FUNCTION_NOARGS();
    const SchemaTypeRegistry& registry = StragglerTypeRegistry::Instance();
    ConfigSchemaObject& s = root.ObjectArray("stragglers", "straggler objects")
                                .Default(nlohmann::json::array())
                                .Doc("what slows part of the run down; each event that fires "
                                     "is a row of stragglers.csv")
                                .Bind(&ScenarioConfig::stragglers)
                                .Fields();
    s.Section("Stragglers",
              "Each element of `stragglers` slows part of the run: a rank's compute "
              "(`slow-node`, `jitter`), a link (`slow-link`) or a receiver's downlink "
              "(`congested-receiver`). `type` selects the keys. Compute stragglers act on the "
              "compute time a collective's rank spends before each iteration after the first "
              "(its `compute_us`), in list order: a `slow-node` then a `jitter` entry multiply, "
              "then add. Random choices are fixed by the seed, the entry's index and what is "
              "drawn for (workload, host, iteration), so they do not depend on event order.");
    s.BindJson(&StragglerConfig::spec);
    s.Discriminator("type", registry.ReservedNames())
        .Required()
        .Doc("the kind of straggler")
        .Bind(&StragglerConfig::type);
    for (const SchemaTypeRegistry::Entry& e : registry.GetEntries())
    {
        SchemaTypeRegistry::Declare(e, s.Variant(e.name, e.doc));
    }
}

} // namespace ns3
