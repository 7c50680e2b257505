#include "topology/model/topology-schema.h"

#include "core/model/config-schema.h"
#include "ns3/log.h"
#include "topology/model/topology-config.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TopologySchema");

const char* const TopologySchema::HOSTS = "hosts";

namespace
{

using json = nlohmann::json;

void
DeclareLink(ConfigSchemaObject& link)
{
    link.Number("rate_gbps", ConfigSchemaBounds::Between(0.001, 1600))
        .Default(100.0)
        .Unit("Gb/s")
        .Doc("line rate of the link, both directions")
        .Bind(&LinkConfig::rateGbps);
    link.Number("delay_us", ConfigSchemaBounds::Between(0, 1e6))
        .Default(1.0)
        .Unit("µs")
        .Doc("propagation delay")
        .Bind(&LinkConfig::delayUs);
    link.Number("loss_rate", ConfigSchemaBounds::Between(0, 1))
        .Default(0.0)
        .Doc("probability that a frame is lost on the link (bit errors: the receiver's MAC drops "
             "it), independently per frame and direction, drawn from the seed; PFC keeps "
             "congestion lossless, a lossy link still drops")
        .Bind(&LinkConfig::lossRate);
    link.Rule(
        "loss_rate",
        {"loss_rate"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const json* rate = v.Get("loss_rate");
            if (!rate || rate->get<double>() < 1)
            {
                return std::nullopt;
            }
            return "must be below 1: a link that loses every frame delivers nothing";
        },
        "loss_rate < 1");
}

/// A switch's port count split in halves (fat-tree k, multi-plane switch_ports).
bool
IsEven(const json& v)
{
    return v.get<uint64_t>() % 2 == 0;
}

/// Topologies sized as switches x hosts per switch (leaf-spine, ring): at most MAX_HOSTS hosts.
void
DeclareHostLimit(ConfigSchemaObject& o, const std::string& switches, const std::string& perSwitch)
{
    o.Rule(
        "",
        {switches, perSwitch},
        [switches, perSwitch](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const uint64_t hosts
                = v.Get(switches)->get<uint64_t>() * v.Get(perSwitch)->get<uint64_t>();
            if (hosts <= TopologySchema::MAX_HOSTS)
            {
                return std::nullopt;
            }
            return v.Path(switches) + " x " + v.Path(perSwitch) + " = " + std::to_string(hosts)
                   + " hosts; at most " + std::to_string(TopologySchema::MAX_HOSTS)
                   + " are supported";
        },
        switches + " x " + perSwitch + " <= 65535 hosts (16-bit BFR-ids and XPU IDs, 0 reserved)");
}

/// ... and their host count, the derived value `hosts`.
void
DeclareHostCount(ConfigSchemaObject& o, const std::string& switches, const std::string& perSwitch)
{
    o.Derive(
        TopologySchema::HOSTS,
        [switches, perSwitch](const ConfigSchemaView& v) -> std::optional<ConfigSchemaDerived>
        {
            const uint64_t n = v.Get(switches)->get<uint64_t>();
            const uint64_t each = v.Get(perSwitch)->get<uint64_t>();
            return ConfigSchemaDerived{n * each,
                                       "hosts = " + v.Path(switches) + " x " + v.Path(perSwitch)
                                           + " = " + std::to_string(n) + " x "
                                           + std::to_string(each)};
        },
        "the host count, " + switches + " x " + perSwitch);
}

} // namespace

void
TopologySchema::Declare(ConfigSchemaObject& t)
{
    NS_LOG_FUNCTION_NOARGS();

    t.Section("Topology",
              "Hosts are numbered 0..H-1, leaf by leaf (edge switch by edge switch in a "
              "fat-tree). The host count H is the derived value `hosts`: host indices "
              "elsewhere in the scenario must be below it.");
    t.Discriminator("kind").Required().Doc("the fabric's shape").Bind(&TopologyConfig::kind);
    DeclareLink(t.Object("host_link")
                    .Doc("every link between a host and its leaf (edge) switch")
                    .Bind(&TopologyConfig::hostLink)
                    .Fields());
    DeclareLink(t.Object("fabric_link")
                    .Doc("every link between two switches")
                    .Bind(&TopologyConfig::fabricLink)
                    .Fields());

    ConfigSchemaObject& ls
        = t.Variant("leaf-spine",
                    "Two tiers: every leaf connects to every spine; a leaf-spine is sized by "
                    "leaves, spines and hosts_per_leaf.");
    ls.Integer("leaves", 1, MAX_PORTS)
        .Required()
        .Doc("leaf (top-of-rack) switches")
        .Bind(&TopologyConfig::leaves);
    ls.Integer("spines", 1, MAX_PORTS)
        .Required()
        .Doc("spine switches, each connected to every leaf")
        .Bind(&TopologyConfig::spines);
    ls.Integer("hosts_per_leaf", 1, MAX_PORTS)
        .Required()
        .Doc("hosts below each leaf")
        .Bind(&TopologyConfig::hostsPerLeaf);
    DeclareHostLimit(ls, "leaves", "hosts_per_leaf");
    ls.Rule(
        "spines",
        {"spines", "hosts_per_leaf"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            // Port numbers are 16-bit in the forwarding tables.
            const uint64_t ports
                = v.Get("hosts_per_leaf")->get<uint64_t>() + v.Get("spines")->get<uint64_t>();
            if (ports <= MAX_PORTS)
            {
                return std::nullopt;
            }
            return "a leaf would have " + v.Path("hosts_per_leaf") + " + " + v.Path("spines")
                   + " = " + std::to_string(ports) + " ports; at most " + std::to_string(MAX_PORTS)
                   + " are supported";
        },
        "hosts_per_leaf + spines <= 65536 ports per leaf");
    DeclareHostCount(ls, "leaves", "hosts_per_leaf");

    ConfigSchemaObject& ft
        = t.Variant("fat-tree",
                    "Three tiers of k-port switches (k pods of k/2 edge and k/2 aggregation "
                    "switches, (k/2)^2 cores); a fat-tree is sized by k alone: k^3/4 hosts.");
    ft.Integer("k", 2, 62)
        .Required()
        .Note("even; k^3/4 hosts (k = 64 would number 65,536, one past the 16-bit host IDs)")
        .Check(
            IsEven, "even", "must be an even integer between 2 and 62 (k/2 hosts per edge switch)")
        .Doc("switch port count")
        .Bind(&TopologyConfig::k);
    ft.Derive(
        HOSTS,
        [](const ConfigSchemaView& v) -> std::optional<ConfigSchemaDerived>
        {
            const uint64_t k = v.Get("k")->get<uint64_t>();
            return ConfigSchemaDerived{k * k * k / 4,
                                       "hosts = " + v.Path("k")
                                           + "^3/4 = " + std::to_string(k * k * k / 4)};
        },
        "the host count, k^3/4");

    ConfigSchemaObject& ring
        = t.Variant("ring",
                    "Switches in a ring, each with its own hosts; a ring is sized by switches "
                    "and hosts_per_switch. Routes take the shortest way round (both ways, as "
                    "ECMP, when they tie). Rings are where cyclic buffer dependencies, and so "
                    "PFC deadlocks, form (see `limits.watchdog_us`).");
    ring.Integer("switches", 3, MAX_PORTS)
        .Required()
        .Doc("switches in the ring, each linked to the next and the last to the first")
        .Bind(&TopologyConfig::leaves);
    ring.Integer("hosts_per_switch", 1, MAX_PORTS - 2)
        .Required()
        .Doc("hosts attached to each switch")
        .Bind(&TopologyConfig::hostsPerLeaf);
    DeclareHostLimit(ring, "switches", "hosts_per_switch");
    DeclareHostCount(ring, "switches", "hosts_per_switch");

    ConfigSchemaObject& mp = t.Variant(
        "multi-plane",
        "A scale-up domain (docs/multi-plane.md): xpus XPUs, each with one port into every "
        "one of planes parallel, disjoint switch planes. A plane is one switch of "
        "switch_ports ports when the XPUs fit on it, else a two-tier leaf-spine of such "
        "switches (switch_ports/2 XPUs and switch_ports/2 spines per leaf). host_link is an "
        "XPU port's link; fabric_link a leaf-spine link inside a plane. Workload host indices "
        "are XPUs (hosts = xpus); XPU x's port on plane p is the fabric's node host<p x xpus "
        "+ x>, and its traffic is spread over the planes by `spread`. Only workloads built "
        "on the collective engine (allreduce, allgather, reducescatter, moe-dispatch, "
        "chakra, spec-decode, checkpoint) spread their traffic over planes yet; a run of "
        "another type is refused.");
    mp.Integer("xpus", 2, TopologySchema::MAX_HOSTS)
        .Required()
        .Doc("XPUs in the scale-up domain (the scale-up draft: no more than 1K)")
        .Bind(&TopologyConfig::xpus);
    mp.Integer("planes", 1, 64)
        .Required()
        .Doc("parallel switch planes; every XPU has one port (host_link) into each")
        .Bind(&TopologyConfig::planes);
    mp.Integer("switch_ports", 2, 1024)
        .Default(64)
        .Note("64: Broadcom Tomahawk 5 and Tomahawk Ultra, 51.2 Tb/s as 64 x 800GbE")
        .Check(IsEven,
               "even",
               "must be even: a two-tier plane's leaf has switch_ports/2 XPU ports and as many "
               "uplinks")
        .Doc("ports of every switch in a plane; xpus <= switch_ports gives one switch per "
             "plane, more XPUs a two-tier leaf-spine per plane")
        .Bind(&TopologyConfig::switchPorts);
    mp.Enum("spread", {"stripe", "hash"})
        .Default("stripe")
        .Doc("how an XPU spreads a transfer over its planes: stripe (every transfer in equal "
             "parts, one per plane, as address interleaving does; a part waits only for the "
             "same plane's part of the data it depends on) or hash (every transfer whole, on "
             "the plane a hash of its source and destination or receiver set picks, as "
             "flow-hashing over ports does)")
        .Bind(&TopologyConfig::spread);
    mp.Rule(
        "",
        {"xpus", "planes", "switch_ports"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const uint64_t xpus = v.Get("xpus")->get<uint64_t>();
            const uint64_t planes = v.Get("planes")->get<uint64_t>();
            const uint64_t ports = v.Get("switch_ports")->get<uint64_t>();
            if (xpus * planes > TopologySchema::MAX_HOSTS)
            {
                return v.Path("xpus") + " x " + v.Path("planes") + " = "
                       + std::to_string(xpus * planes) + " XPU ports; at most "
                       + std::to_string(TopologySchema::MAX_HOSTS) + " are supported";
            }
            if (xpus <= ports)
            {
                return std::nullopt;
            }
            const uint64_t half = ports / 2;
            if (xpus % half != 0)
            {
                return v.Path("xpus") + " = " + std::to_string(xpus) + " does not fill "
                       + "two-tier planes of " + v.Path("switch_ports") + " = "
                       + std::to_string(ports) + " (leaves of " + std::to_string(half)
                       + " XPUs): make xpus a multiple of " + std::to_string(half) + " or at most "
                       + std::to_string(ports);
            }
            if (xpus / half > ports)
            {
                return v.Path("xpus") + " = " + std::to_string(xpus) + " needs "
                       + std::to_string(xpus / half) + " leaves per plane, more than a spine's "
                       + std::to_string(ports) + " ports: at most " + std::to_string(ports * half)
                       + " XPUs on two tiers";
            }
            return std::nullopt;
        },
        "xpus x planes <= 65535; xpus <= switch_ports, or a multiple of switch_ports/2 and at "
        "most switch_ports^2/2");
    mp.Derive(
        HOSTS,
        [](const ConfigSchemaView& v) -> std::optional<ConfigSchemaDerived>
        {
            const uint64_t xpus = v.Get("xpus")->get<uint64_t>();
            return ConfigSchemaDerived{xpus,
                                       "hosts = " + v.Path("xpus") + " = " + std::to_string(xpus)};
        },
        "the XPU count, xpus");
}

} // namespace ns3
