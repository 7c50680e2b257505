#include "scenario/model/load-balancing-schema.h"

#include "ns3/log.h"
#include "scenario/model/scenario-config.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LoadBalancingSchema");

void
LoadBalancingSchema::Declare(ConfigSchemaObject& root)
{
    NS_LOG_FUNCTION_NOARGS();
    ConfigSchemaObject& lb = root.Object("load_balancing")
                                 .Doc("path choice among equal-cost next hops")
                                 .Bind(&ScenarioConfig::loadBalancing)
                                 .Fields();
    lb.Section("Load balancing");
    // The design reserves the spraying and steering modes; only ECMP runs today.
    lb.Enum("mode", {"ecmp", "spray-random", "spray-adaptive", "steering"}, {"ecmp"})
        .Default("ecmp")
        .Doc("ecmp: a flow hash (UDP source port) picks one path per flow")
        .Bind(&LoadBalancingConfig::mode);
}

} // namespace ns3
