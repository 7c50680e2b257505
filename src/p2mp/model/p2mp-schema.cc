#include "p2mp/model/p2mp-schema.h"

#include "ns3/log.h"
#include "p2mp/model/p2mp-config.h"
#include "p2mp/model/p2mp-delivery.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("P2mpSchema");

void
P2mpSchema::Declare(ConfigSchemaObject& p)
{
    NS_LOG_FUNCTION_NOARGS();

    p.Section("P2MP",
              "How a broadcast message reaches its receivers and how their ACKs return. BIER "
              "with ACK aggregation is \"extended BIER\".");
    // The design's four mechanisms, then any other registered one; each is implemented when a
    // P2mpDelivery registered it.
    const NamedTypeRegistry& mechanisms = P2mpDelivery::Registry();
    p.Enum("mechanism",
           mechanisms.NamesAfter({"unicast", "bier", "bier-xpu-list", "new-protocol"}),
           mechanisms.Names())
        .Default("unicast")
        .Doc("unicast: one RC message per receiver; bier: RFC 8296 BitString; bier-xpu-list: "
             "BIER forwarding driven by a list of receiver IDs; new-protocol: group ID in a shim, "
             "group tree installed by a controller")
        .Bind(&P2mpConfig::mechanism);
    p.Enum("ack_aggregation", P2mpDelivery::AckAggregationNames())
        .Default("none")
        .Doc("where receivers' ACKs are merged into one; none: every ACK reaches the sender")
        .Bind(&P2mpConfig::ackAggregation);
    p.Enum("ack_mode", P2mpDelivery::AckModeNames())
        .Default("per-packet")
        .Doc("when receivers acknowledge")
        .Bind(&P2mpConfig::ackMode);
    p.Integer("ack_every", 1, 65536)
        .Default(8)
        .Note("the N of ack_mode 'every-n'")
        .Doc("the N of ack_mode 'every-n'")
        .Bind(&P2mpConfig::ackEvery);
    p.Boolean("ack_validation")
        .Default(true)
        .Doc("every ACK aggregation point (NIC or switch) refuses ACKs that cannot be a real "
             "receiver's: on a port that does not lead to the ACK's source, or for a PSN "
             "beyond every message the flow has announced; with aggregation in the switches "
             "the root takes ACKs only from its ToR; refusals are counted "
             "(network.acks_refused)")
        .Bind(&P2mpConfig::ackValidation);
    p.Number("receiver_timeout_us", ConfigSchemaBounds::Above(0))
        .Auto("never: a silent receiver holds its group until the watchdog stops the run")
        .Unit("µs")
        .Doc("an aggregation point (NIC or switch) drops a receiver that has owed packets "
             "without acknowledging any for this long, once its flow's aggregate has not moved "
             "for as long either; checked as the flow's ACKs and data pass and at the root's "
             "RTO, so a drop comes at most an RTO and a round trip after the timeout. The "
             "receiver is out of the root's set for the rest of the run; each message that "
             "was for it and that it did not have counts its bytes in the operation's "
             "lost_bytes (docs/robustness.md#silent-receivers)")
        .Bind(&P2mpConfig::receiverTimeoutUs, -1.0);
    p.Enum("on_receiver_timeout", {"drop", "fail"})
        .Default("drop")
        .Doc("what the receiver timeout does to the operations the receiver did not have: "
             "both policies take it out of the set; 'drop' completes them without it (their "
             "lost_bytes), 'fail' fails them (ops.csv outcome 'failed', out of the workload's "
             "completed operations and durations, counted in its 'failed')")
        .Bind(&P2mpConfig::onReceiverTimeout);
    p.Enum("address_mapping", {"group-region", "per-receiver-list"})
        .Default("group-region")
        .Doc("how a receiver finds the message's memory region")
        .Bind(&P2mpConfig::addressMapping);
    // The new protocol aggregates at the source ToR by design; the others do not by default.
    p.Preset("mechanism",
             "new-protocol",
             {{"ack_aggregation", "source-tor"}},
             "the new protocol aggregates ACKs at the source ToR by design");
    p.OnlyWith("ack_aggregation",
               {"none"},
               "mechanism",
               "unicast",
               "every receiver has its own queue pair, so there is nothing to aggregate");
    p.Rule(
        "receiver_timeout_us",
        {"receiver_timeout_us", "mechanism", "ack_mode"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            if (!v.Get("receiver_timeout_us"))
            {
                return std::nullopt;
            }
            if (v.Get("mechanism")->get<std::string>() == "unicast")
            {
                return "needs a multicast " + v.Path("mechanism")
                       + ": with unicast every receiver has its own queue pair, and no "
                         "aggregation point to time it out";
            }
            if (v.Get("ack_mode")->get<std::string>() == "ack-free")
            {
                return "needs ACKs: with " + v.Path("ack_mode")
                       + " 'ack-free' no receiver acknowledges, so none can be silent";
            }
            return std::nullopt;
        },
        "receiver_timeout_us needs a multicast mechanism and ACKs");
    p.Requires("address_mapping",
               {"per-receiver-list"},
               "mechanism",
               {"new-protocol"},
               "its shim carries the list; BIER has no field for it");

    ConfigSchemaObject& bier
        = p.Object("bier").Doc("BIER (RFC 8279/8296)").Bind(&P2mpConfig::bier).Fields();
    bier.IntegerIn("bsl_bits", {64, 128, 256, 512, 1024, 2048, 4096})
        .Default(256)
        .Unit("bits")
        .Doc("BitString length; one copy per set identifier leaves the source")
        .Bind(&BierConfig::bslBits);

    ConfigSchemaObject& xpu
        = p.Object("xpu_list").Doc("BIER with XPU-ID lists").Bind(&P2mpConfig::xpuList).Fields();
    xpu.Number("lookup_ns_per_id", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("ns")
        .Doc("switch forwarding time per listed receiver ID")
        .Bind(&XpuListConfig::lookupNsPerId);

    ConfigSchemaObject& np = p.Object("new_protocol")
                                 .Doc("the purpose-built protocol")
                                 .Bind(&P2mpConfig::newProtocol)
                                 .Fields();
    np.Number("install_us", ConfigSchemaBounds::AtLeast(0))
        .Default(10.0)
        .Unit("µs")
        .Doc("controller: group request to group entries usable")
        .Bind(&NewProtocolConfig::installUs);
    np.Number("controller_installs_per_s", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("1/s")
        .Doc("controller throughput: group installations served per second, one at a time in "
             "request order, before install_us; 0: no limit. No published figure for an AI "
             "fabric controller: sweep it (docs/p2mp.md)")
        .Bind(&NewProtocolConfig::controllerInstallsPerS);
    np.Number("switch_writes_per_s", ConfigSchemaBounds::AtLeast(0))
        .Default(0.0)
        .Unit("1/s")
        .Doc("group-table entry writes each switch makes per second, one at a time, after the "
             "controller served the request; 0: no limit")
        .Bind(&NewProtocolConfig::switchWritesPerS);
    np.Integer("table_entries", 1, 16777216)
        .Default(4096)
        .Doc("group-table capacity of every switch")
        .Bind(&NewProtocolConfig::tableEntries);
    np.Number("idle_teardown_us", ConfigSchemaBounds::AtLeast(0))
        .Auto("never: a group stays installed until evicted")
        .Unit("µs")
        .Doc("controller: tear a group's switch entries down once no message has used it for "
             "this long (one teardown message per switch, counted); its next message installs "
             "it again, paying install_us")
        .Bind(&NewProtocolConfig::idleTeardownUs, -1.0);
    np.Enum("on_table_full", {"evict-lru", "fallback-unicast"})
        .Default("evict-lru")
        .Doc("what a full group table does with a new group")
        .Bind(&NewProtocolConfig::onTableFull);
}

} // namespace ns3
