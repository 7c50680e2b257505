#include "fabric/model/load-balancing-schema.h"

#include "fabric/model/path-choice.h"
#include "fabric/model/switch-config.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LoadBalancingSchema");

void
LoadBalancingSchema::Declare(ConfigSchemaObject& lb)
{
    NS_LOG_FUNCTION_NOARGS();

    lb.Section("Load balancing");
    // The names the design reserves, then any other registered mode; a mode is implemented
    // when a PathChoice registered it (only ECMP today).
    const NamedTypeRegistry& modes = PathChoice::Registry();
    lb.Enum("mode",
            modes.NamesAfter({"ecmp", "spray-random", "spray-adaptive", "steering"}),
            modes.Names())
        .Default("ecmp")
        .Doc("ecmp: a flow hash (UDP source port) picks one path per flow")
        .Bind(&LoadBalancingConfig::mode);
}

} // namespace ns3
