#include "fabric/model/switch-schema.h"

#include "fabric/model/egress-scheduler.h"
#include "fabric/model/fabric-switch.h"
#include "fabric/model/switch-config.h"
#include "fabric/model/switch-mmu.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchSchema");

namespace
{

using Bounds = ConfigSchemaBounds;

// The config's "auto" marker; users cannot write it, they omit the key.
constexpr double kAuto = -1.0;

} // namespace

void
SwitchSchema::Declare(ConfigSchemaObject& sw)
{
    NS_LOG_FUNCTION_NOARGS();

    sw.Section("Switch",
               "A shared-buffer switch: each ingress (port, priority) has a guaranteed reserve, "
               "the rest is shared under a dynamic threshold; PFC pauses an ingress above its "
               "XOFF threshold, ECN marks egress queues between kmin and kmax.");
    // The keys below set the attributes of every switch's MMU unless they name another type.
    sw.Model(SwitchMmu::GetTypeId());
    sw.Number("buffer_mb", Bounds::AboveUpTo(0, 4096))
        .Default(32.0)
        .Unit("MB")
        .Doc("packet buffer of one switch")
        .Bind(&SwitchConfig::bufferMb)
        .Attribute("BufferBytes");
    sw.Number("latency_ns", Bounds::AtLeast(0))
        .Default(500.0)
        .Unit("ns")
        .Doc("forwarding latency, ingress to egress queue")
        .Bind(&SwitchConfig::latencyNs);
    sw.Number("reserve_kb", Bounds::AtLeast(0))
        .Default(4.0)
        .Unit("KB")
        .Doc("guaranteed buffer per ingress (port, priority)")
        .Bind(&SwitchConfig::reserveKb)
        .Attribute("ReserveBytes");
    sw.Number("alpha", Bounds::Above(0))
        .Default(1.0)
        .Doc("dynamic threshold: a queue may use alpha x the free shared buffer")
        .Bind(&SwitchConfig::alpha)
        .Attribute("Alpha");
    sw.Boolean("source_validation")
        .Default(false)
        .Doc("ingress filtering at the edge: a frame from a host port must carry that host's "
             "IPv4 source address, else it is refused and counted (network.source_refused); "
             "stops a host forging ACKs in a receiver's name at its own ToR")
        .Bind(&SwitchConfig::sourceValidation);

    sw.BindJson(&SwitchConfig::spec);
    const NamedTypeRegistry& schedulers = EgressScheduler::Registry();
    sw.Enum("scheduling", schedulers.NamesAfter({"strict", "dwrr"}), schedulers.Names())
        .Default("strict")
        .Doc("how an egress port picks the class it sends next: strict, the highest non-empty "
             "class; dwrr, deficit weighted round robin by dwrr.weights")
        .Bind(&SwitchConfig::scheduling);
    // Each scheduler's own keys, declared with it (switch.dwrr).
    schedulers.DeclareKeys(sw, "scheduling");

    ConfigSchemaObject& pfc
        = sw.Object("pfc").Doc("priority flow control").Bind(&SwitchConfig::pfc).Fields();
    pfc.Boolean("enabled")
        .Default(true)
        .Doc("lossless classes: pause instead of drop")
        .Bind(&PfcConfig::enabled)
        .Attribute("PfcEnabled");
    pfc.Number("headroom_kb", Bounds::AtLeast(0))
        .Auto("sized from the link BDP plus MTUs")
        .Unit("KB")
        .Doc("buffer kept per ingress for packets in flight after XOFF")
        .Bind(&PfcConfig::headroomKb, kAuto)
        .Attribute("HeadroomBytes");
    pfc.Number("hysteresis_kb", Bounds::AtLeast(0))
        .Auto("two max-size frames below the XOFF threshold")
        .Unit("KB")
        .Doc("XON is sent this far below XOFF")
        .Bind(&PfcConfig::hysteresisKb, kAuto)
        .Attribute("HysteresisBytes");

    ConfigSchemaObject& ecn
        = sw.Object("ecn").Doc("ECN marking of egress queues").Bind(&SwitchConfig::ecn).Fields();
    ecn.Boolean("enabled")
        .Default(true)
        .Doc("mark ECN-capable packets")
        .Bind(&EcnConfig::enabled)
        .Attribute(FabricSwitch::GetTypeId(), "EcnEnabled");
    ecn.Number("kmin_kb", Bounds::AtLeast(0))
        .Auto("4 KB per Gb/s of the port (100 KB at 25G, 400 KB at 100G)")
        .Unit("KB")
        .Doc("queue length where marking starts")
        .Bind(&EcnConfig::kminKb, kAuto)
        .Attribute("EcnKminBytes");
    ecn.Number("kmax_kb", Bounds::AtLeast(0))
        .Auto("16 KB per Gb/s of the port")
        .Unit("KB")
        .Doc("queue length where the marking probability reaches pmax")
        .Bind(&EcnConfig::kmaxKb, kAuto)
        .Attribute("EcnKmaxBytes");
    ecn.Number("pmax", Bounds::Between(0, 1))
        .Default(0.2)
        .Doc("marking probability at kmax (every packet above kmax is marked)")
        .Bind(&EcnConfig::pmax)
        .Attribute("EcnPmax");
    ecn.LessOrEqual("kmin_kb", "kmax_kb");
}

} // namespace ns3
