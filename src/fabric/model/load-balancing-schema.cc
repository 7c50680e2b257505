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
    // The names the design reserves, then any other registered mode; a mode is implemented
    // when a PathChoice registered it (only ECMP today).
    const NamedTypeRegistry& modes = PathChoice::Registry();
    lb.Enum("mode",
            modes.NamesAfter({"ecmp", "spray-random", "spray-adaptive", "steering"}),
            modes.Names())
        .Default("ecmp")
        .Doc("ecmp: a flow hash (UDP source port) picks one path per flow; spray-random: every "
             "packet picks a path uniformly; spray-adaptive: every packet (or flowlet) takes the "
             "equal-cost port with the fewest bytes queued")
        .Bind(&LoadBalancingConfig::mode);
    // Optional, without defaults: given, they must go with the mode they configure.
    lb.Enum("tie_break", {"random", "first"})
        .Auto("random")
        .Doc("spray-adaptive: equally loaded ports are drawn uniformly (random) or the first in "
             "the route's order is taken (first)")
        .Bind(&LoadBalancingConfig::tieBreak, std::string("random"));
    lb.Number("flowlet_gap_us", ConfigSchemaBounds::AtLeast(0))
        .Auto("0: every packet chooses")
        .Unit("us")
        .Doc("spray-adaptive: a flow keeps its port until it pauses this long (a flowlet)")
        .Bind(&LoadBalancingConfig::flowletGapUs, 0.0);
    for (const char* key : {"tie_break", "flowlet_gap_us"})
    {
        const std::string k = key;
        lb.Rule(
            k,
            {k, "mode"},
            [k](const ConfigSchemaView& v) -> std::optional<std::string>
            {
                const nlohmann::json* mode = v.Get("mode");
                if (!v.Get(k) || !mode || *mode == "spray-adaptive")
                {
                    return std::nullopt;
                }
                return "applies only to " + v.Path("mode") + " 'spray-adaptive', got "
                       + ConfigSchema::ValueText(*mode);
            },
            "`" + k + "` only with `mode` 'spray-adaptive'");
    }
}

} // namespace ns3
