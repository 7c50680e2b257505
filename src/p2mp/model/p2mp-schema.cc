#include "p2mp/model/p2mp-schema.h"

#include "ns3/log.h"
#include "p2mp/model/new-protocol-delivery.h"
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
    // The keys below set the attributes of every mechanism (P2mpDelivery's); the whole object,
    // the mechanisms' own keys included, is kept for them.
    p.Model(P2mpDelivery::GetTypeId());
    p.BindJson(&P2mpConfig::spec);
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
        .Bind(&P2mpConfig::ackAggregation)
        .Attribute("AckAggregation");
    p.Enum("ack_mode", P2mpDelivery::AckModeNames())
        .Default("per-packet")
        .Doc("when receivers acknowledge")
        .Bind(&P2mpConfig::ackMode)
        .Attribute("AckMode");
    p.Integer("ack_every", 1, 65536)
        .Default(8)
        .Note("the N of ack_mode 'every-n'")
        .Doc("the N of ack_mode 'every-n'")
        .Bind(&P2mpConfig::ackEvery)
        .Attribute("AckEvery");
    p.Boolean("ack_validation")
        .Default(true)
        .Doc("every ACK aggregation point (NIC or switch) refuses ACKs that cannot be a real "
             "receiver's: on a port that does not lead to the ACK's source, or for a PSN "
             "beyond every message the flow has announced; with aggregation in the switches "
             "the root takes ACKs only from its ToR; refusals are counted "
             "(network.acks_refused)")
        .Bind(&P2mpConfig::ackValidation)
        .Attribute("AckValidation");
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
        .Bind(&P2mpConfig::receiverTimeoutUs, -1.0)
        .Attribute("ReceiverTimeout");
    p.Enum("on_receiver_timeout", {"drop", "fail"})
        .Default("drop")
        .Doc("what the receiver timeout does to the operations the receiver did not have: "
             "both policies take it out of the set; 'drop' completes them without it (their "
             "lost_bytes), 'fail' fails them (ops.csv outcome 'failed', out of the workload's "
             "completed operations and durations, counted in its 'failed')")
        .Bind(&P2mpConfig::onReceiverTimeout)
        .Attribute("OnReceiverTimeout");
    p.Enum("address_mapping", {"group-region", "per-receiver-list"})
        .Default("group-region")
        .Doc("how a receiver finds the message's memory region")
        .Bind(&P2mpConfig::addressMapping)
        .Attribute(NewProtocolDelivery::GetTypeId(), "AddressMapping");
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

    // Each mechanism's own keys, declared with it (p2mp.bier, p2mp.xpu_list, ...).
    mechanisms.DeclareKeys(p, "mechanism");
}

} // namespace ns3
