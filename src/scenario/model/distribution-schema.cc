#include "scenario/model/distribution-schema.h"

#include "ns3/log.h"
#include "scenario/model/scenario-config.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DistributionSchema");

void
DistributionSchema::Declare(ConfigSchemaObject& root)
{
    NS_LOG_FUNCTION_NOARGS();
    ConfigSchemaObject& d
        = root.Object("distribution")
              .Doc("how a run spread over processes (`mpirun -np N`, an ns-3 built with MPI) "
                   "splits the fabric; one process ignores it")
              .Bind(&ScenarioConfig::distribution)
              .Fields();
    d.Section("Distribution",
              "Under `mpirun -np N` the fabric is split into N parts by FabricPartition "
              "(docs/performance.md): racks are never split, and units of the kind below go to "
              "ranks in contiguous blocks balanced by hosts; a switch above them goes with the "
              "rank holding most of its lower neighbours, or is dealt out in turn. "
              "`mcast4ai-run SCENARIO --partition N` prints the plan.");
    d.Enum<FabricPartition::Unit>("unit")
        .Default("auto")
        .Doc("what is kept whole: `pod` (a fat-tree pod with its aggregation switches; "
             "elsewhere a rack), `rack` (a top-of-rack switch and its hosts), `auto` (pods when "
             "a fat-tree has at least as many pods as ranks, else racks)")
        .Bind(&DistributionConfig::unit);
}

} // namespace ns3
