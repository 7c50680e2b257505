#include "rdma/model/path-steering-schema.h"

#include "core/model/config-schema.h"
#include "fabric/model/switch-config.h"
#include "ns3/log.h"
#include "rdma/model/path-steering.h"
#include "rdma/model/telemetry-path-steering.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PathSteeringSchema");

void
PathSteeringSchema::Declare(ConfigSchemaObject& lb)
{
    NS_LOG_FUNCTION_NOARGS();
    lb.Boolean("endpoint_steering")
        .DefaultFrom(
            [](const ConfigSchemaView& v) -> std::optional<nlohmann::json>
            {
                const nlohmann::json* mode = v.Get("mode");
                return nlohmann::json(mode && *mode == "steering");
            },
            "true with mode steering, else false")
        .Doc("senders steer their source port between messages "
             "(docs/load-balancing.md#path-steering); true with a spraying mode runs both on the "
             "same traffic, which needs allow_steering_with_spraying")
        .Bind(&LoadBalancingConfig::endpointSteering);
    lb.Boolean("allow_steering_with_spraying")
        .Default(false)
        .Doc("the explicit override that lets endpoint steering and switch spraying act on the "
             "same traffic (the inference-transport draft warns that they interact)")
        .Bind(&LoadBalancingConfig::allowSteeringWithSpraying);
    lb.Number("min_repath_interval_us", ConfigSchemaBounds::AtLeast(0))
        .Auto("100 with endpoint steering")
        .Unit("us")
        .Doc("steering: a queue pair changes its source port at most once per interval")
        .Bind(&LoadBalancingConfig::minRepathIntervalUs, 100.0)
        .Attribute(PathSteering::GetTypeId(), "MinRepathInterval");
    lb.Integer("message_bytes", 0)
        .Auto("262144 with endpoint steering")
        .Unit("bytes")
        .Doc("steering: a flow's transfer is posted as messages of this size, the granularity at "
             "which its path may change (0: as posted)")
        .Bind(&LoadBalancingConfig::messageBytes, uint64_t{262144})
        .Attribute(PathSteering::GetTypeId(), "MessageBytes");
    lb.Boolean("telemetry")
        .Default(false)
        .Doc("steering: switches stamp an IOAM trace (RFC 9197: node, interfaces, queue depth, "
             "transit delay, egress utilisation) into the senders' probes, which come back in "
             "the probes' acknowledgements; senders move to ports whose paths the probes showed "
             "free (docs/load-balancing.md#in-band-telemetry)")
        .Bind(&LoadBalancingConfig::telemetry);
    lb.Integer("probe_ports", 1, 64)
        .Auto("8 with telemetry")
        .Doc("telemetry: source ports never probed that a probing round tries, besides the "
             "current port and one port of every other path seen")
        .Bind(&LoadBalancingConfig::probePorts, uint32_t{8})
        .Attribute(TelemetryPathSteering::GetTypeId(), "NewPorts");
    lb.Number("probe_interval_us", ConfigSchemaBounds::AtLeast(0))
        .Auto("25 with telemetry")
        .Unit("us")
        .Doc("telemetry: a probing round (the current port, one port of every other path seen "
             "and probe_ports new ones) starts at most once per interval; the probes every "
             "message start sends are not limited by it")
        .Bind(&LoadBalancingConfig::probeIntervalUs, 25.0)
        .Attribute(TelemetryPathSteering::GetTypeId(), "ProbeInterval");
    lb.Number("telemetry_window_us", ConfigSchemaBounds::Above(0))
        .Auto("5 with telemetry")
        .Unit("us")
        .Doc("telemetry: time constant of the switches' egress utilisation estimate (a byte "
             "sent this long ago counts 1/e)")
        .Bind(&LoadBalancingConfig::telemetryWindowUs, 5.0);
    lb.Rule(
        "telemetry",
        {"telemetry", "endpoint_steering"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const nlohmann::json* telemetry = v.Get("telemetry");
            const nlohmann::json* steer = v.Get("endpoint_steering");
            if (!telemetry || !telemetry->get<bool>() || !steer || steer->get<bool>())
            {
                return std::nullopt;
            }
            return "applies only with endpoint steering (" + v.Path("endpoint_steering")
                   + " true, as mode 'steering' sets it): only steering senders probe";
        },
        "`telemetry` true only with endpoint steering");
    for (const char* key : {"probe_ports", "probe_interval_us", "telemetry_window_us"})
    {
        const std::string k = key;
        lb.Rule(
            k,
            {k, "telemetry"},
            [k](const ConfigSchemaView& v) -> std::optional<std::string>
            {
                const nlohmann::json* telemetry = v.Get("telemetry");
                if (!v.Get(k) || (telemetry && telemetry->get<bool>()))
                {
                    return std::nullopt;
                }
                return "applies only with " + v.Path("telemetry") + " true";
            },
            "`" + k + "` only with `telemetry` true");
    }
    lb.Rule(
        "endpoint_steering",
        {"endpoint_steering", "mode", "allow_steering_with_spraying"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const nlohmann::json* steer = v.Get("endpoint_steering");
            const nlohmann::json* mode = v.Get("mode");
            const nlohmann::json* allow = v.Get("allow_steering_with_spraying");
            if (!steer || !mode)
            {
                return std::nullopt;
            }
            if (!steer->get<bool>() && *mode == "steering")
            {
                return "cannot be false with " + v.Path("mode") + " 'steering'";
            }
            std::string m = mode->get<std::string>();
            if (steer->get<bool>() && m.rfind("spray-", 0) == 0 && !(allow && allow->get<bool>()))
            {
                return "endpoint steering and " + v.Path("mode") + " '" + m
                       + "' would act on the same traffic, and the inference-transport draft "
                         "warns that they interact; set "
                       + v.Path("allow_steering_with_spraying") + " to run them together";
            }
            return std::nullopt;
        },
        "endpoint steering with switch spraying only with allow_steering_with_spraying");
    // The model, by its registered name; the design's two are chosen by `telemetry` alone.
    const NamedTypeRegistry& models = PathSteering::Registry();
    lb.Enum("steering_model", models.NamesAfter({"endpoint", "telemetry"}), models.Names())
        .Auto("telemetry with `telemetry` true, else endpoint")
        .Doc("steering: the path-steering model senders run, by its registered name: endpoint "
             "(estimates from the messages' own delivery) or telemetry (probes the switches "
             "stamp, endpoint estimates kept); a model registered in PathSteering::Registry() "
             "is chosen here (docs/extending.md#a-path-steering-model)")
        .Bind(&LoadBalancingConfig::steeringModel, std::string());
    for (const char* key : {"min_repath_interval_us", "message_bytes", "steering_model"})
    {
        const std::string k = key;
        lb.Rule(
            k,
            {k, "endpoint_steering"},
            [k](const ConfigSchemaView& v) -> std::optional<std::string>
            {
                const nlohmann::json* steer = v.Get("endpoint_steering");
                if (!v.Get(k) || !steer || steer->get<bool>())
                {
                    return std::nullopt;
                }
                return "applies only with endpoint steering (" + v.Path("endpoint_steering")
                       + " true, as mode 'steering' sets it)";
            },
            "`" + k + "` only with endpoint steering");
    }
    models.DeclareKeys(lb, "steering_model");
}

std::string
PathSteeringSchema::ModelName(const LoadBalancingConfig& lb)
{
    if (!lb.endpointSteering)
    {
        return "";
    }
    if (!lb.steeringModel.empty())
    {
        return lb.steeringModel;
    }
    // Both sources of path-load awareness with telemetry, endpoint estimation alone without.
    return lb.telemetry ? "telemetry" : "endpoint";
}

} // namespace ns3
