#include "fabric/model/load-balancing-schema.h"

#include "core/model/config-schema.h"
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
    lb.BindJson(&LoadBalancingConfig::spec);
    // The names the design reserves, then any other registered mode; a mode is implemented
    // when a PathChoice registered it.
    const NamedTypeRegistry& modes = PathChoice::Registry();
    lb.Enum("mode",
            modes.NamesAfter({"ecmp", "spray-random", "spray-adaptive", "steering"}),
            modes.Names())
        .Default("ecmp")
        .Doc("ecmp: a flow hash (UDP source port) picks one path per flow; spray-random: every "
             "packet picks a path uniformly; spray-adaptive: every packet (or flowlet) takes the "
             "equal-cost port with the fewest bytes queued; steering: switches hash as ecmp and "
             "senders change a queue pair's UDP source port between messages, toward the port "
             "their messages were delivered fastest on; hpcc-ecmp: one path per flow, the one "
             "HPCC's simulator hashes it onto (its switch's MurmurHash3 of the flow's addresses "
             "and ports in HPCC's numbering, seeded with the switch's node number), to compare "
             "runs with that simulator's flow by flow (docs/load-balancing.md)")
        .Bind(&LoadBalancingConfig::mode);
    // A mode's own keys, declared with it, given only with it (spray-adaptive's tie_break).
    modes.DeclareKeys(lb, "mode");
}

} // namespace ns3
