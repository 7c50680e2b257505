#include "scenario/model/output-schema.h"

#include "ns3/log.h"
#include "scenario/model/scenario-config.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OutputSchema");

void
OutputSchema::Declare(ConfigSchemaObject& root)
{
    NS_LOG_FUNCTION_NOARGS();
    ConfigSchemaObject& out
        = root.Object("output").Doc("the result directory").Bind(&ScenarioConfig::output).Fields();
    out.Section("Output");
    out.String("dir")
        .DefaultFrom(
            [](const ConfigSchemaView& v) -> std::optional<nlohmann::json>
            {
                auto it = v.Root().find("name");
                if (it == v.Root().end() || !it->is_string())
                {
                    return std::nullopt; // the name is invalid, and reported
                }
                return "results/" + it->get<std::string>();
            },
            "`\"results/<name>\"`")
        .Doc("result directory (mcast4ai-run --out overrides it)")
        .Bind(&OutputConfig::dir);
    out.Boolean("pcap")
        .Default(false)
        .Doc("write a pcap of every NIC and switch port")
        .Bind(&OutputConfig::pcap);
}

} // namespace ns3
