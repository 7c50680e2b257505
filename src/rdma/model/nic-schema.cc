#include "rdma/model/nic-schema.h"

#include "core/model/config-schema.h"
#include "ns3/abort.h"
#include "ns3/log.h"
#include "rdma/model/nic-config.h"
#include "rdma/model/nic-receive-pipeline.h"
#include "rdma/model/rdma-congestion-control.h"
#include "rdma/model/rdma-nic.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NicSchema");

namespace
{

using Bounds = ConfigSchemaBounds;

} // namespace

void
NicSchema::Declare(ConfigSchemaObject& nic)
{
    NS_LOG_FUNCTION_NOARGS();

    nic.Section("NIC");
    nic.BindJson(&NicConfig::spec);
    // The keys below set the attributes of every host's NIC unless they name another type.
    nic.Model(RdmaNic::GetTypeId());
    nic.IntegerIn("mtu_bytes", {256, 512, 1024, 2048, 4096})
        .Default(1024)
        .Unit("bytes")
        .Doc("RDMA path MTU: payload bytes per packet")
        .Bind(&NicConfig::mtuBytes)
        .Attribute("Mtu");
    nic.Integer("ack_every", 1, 65536)
        .Default(1)
        .Doc("coalescing: one ACK per N in-order packets (and at message end)")
        .Bind(&NicConfig::ackEvery)
        .Attribute("AckEvery");
    nic.Number("rto_us", Bounds::Above(0))
        .Default(1000.0)
        .Unit("µs")
        .Doc("retransmission timeout")
        .Bind(&NicConfig::rtoUs)
        .Attribute("Rto");
    nic.Integer("data_priority", 0, 7)
        .Default(3)
        .Doc("PFC priority class of RDMA data")
        .Bind(&NicConfig::dataPriority)
        .Attribute("DataPriority");
    nic.Integer("ctrl_priority", 0, 7)
        .Default(6)
        .Doc("PFC priority class of ACK/NAK/CNP, served before data")
        .Bind(&NicConfig::ctrlPriority)
        .Attribute("ControlPriority");
    nic.Enum("reorder", {"go-back-n", "tolerant"})
        .Default("go-back-n")
        .Doc("the receiver: go-back-n (the classic RoCE NIC: a gap is NAKed and what follows it "
             "dropped until the requester goes back) or tolerant (packets ahead of a hole are "
             "placed and held in a bitmap, a hole is NAKed selectively once it is "
             "reorder_timeout_us old, requesters resend only the PSNs asked for); see "
             "docs/rdma-dcqcn.md#reorder-tolerant-receivers")
        .Bind(&NicConfig::reorder)
        .Attribute("Reorder");
    nic.Integer("reorder_window", 1, 1u << 22)
        .Auto("4096 with reorder tolerant")
        .Unit("packets")
        .Doc("tolerant: bitmap size of every responder, in packets past its next expected PSN; "
             "a packet further ahead is dropped")
        .Bind(&NicConfig::reorderWindow, uint32_t{4096})
        .Attribute("ReorderWindow");
    nic.Number("reorder_timeout_us", Bounds::AtLeast(0))
        .Auto("100 with reorder tolerant")
        .Unit("µs")
        .Doc("tolerant: a hole is NAKed selectively once the first packet held behind it is "
             "this old (0: at once)")
        .Bind(&NicConfig::reorderTimeoutUs, 100.0)
        .Attribute("ReorderTimeout");
    // Optional, without defaults: given, they must go with the receiver they configure.
    for (const char* key : {"reorder_window", "reorder_timeout_us"})
    {
        const std::string k = key;
        nic.Rule(
            k,
            {k, "reorder"},
            [k](const ConfigSchemaView& v) -> std::optional<std::string>
            {
                const nlohmann::json* reorder = v.Get("reorder");
                if (!v.Get(k) || !reorder || *reorder == "tolerant")
                {
                    return std::nullopt;
                }
                return "applies only to " + v.Path("reorder") + " 'tolerant', got "
                       + ConfigSchema::ValueText(*reorder);
            },
            "`" + k + "` only with `reorder` 'tolerant'");
    }
    nic.Number("receive_mpps", Bounds::AtLeast(0))
        .Unit("Mpps")
        .Doc("packet rate of the receive path: every frame a NIC receives (data, ACK, NAK, CNP, "
             "probe) holds it for 1 / rate and later ones wait, so an ACK implosion loads the "
             "sender's NIC; 0: unlimited, a frame costs the NIC nothing. ConnectX-7's product "
             "brief gives up to 330-370 M messages/s; see docs/rdma-dcqcn.md#receive-path")
        .Attribute(NicReceivePipeline::GetTypeId(), "PacketRate");
    nic.Integer("receive_pause_bytes", 0, UINT32_MAX)
        .Auto("0 (never paused) with receive_mpps")
        .Unit("bytes")
        .Doc("receive buffer: frames waiting for the receive path pause the link peer (PFC, "
             "each class waiting) at this many bytes and resume it one MTU-sized frame below, "
             "as the mlx5 driver sets XOFF and XON; 0: never paused, the buffer is unbounded")
        .Attribute(NicReceivePipeline::GetTypeId(), "PauseThreshold");
    nic.Rule(
        "receive_pause_bytes",
        {"receive_pause_bytes", "receive_mpps"},
        [](const ConfigSchemaView& v) -> std::optional<std::string>
        {
            const nlohmann::json* rate = v.Get("receive_mpps");
            if (!v.Get("receive_pause_bytes") || (rate && rate->get<double>() > 0))
            {
                return std::nullopt;
            }
            return "has no effect without a receive rate: set " + v.Path("receive_mpps")
                   + " above 0";
        },
        "`receive_pause_bytes` only with `receive_mpps` above 0");
    // The design's models, then any other registered one; "none" is no model at all.
    const NamedTypeRegistry& models = RdmaCongestionControl::Registry();
    std::vector<std::string> implemented = models.Names();
    implemented.push_back(RdmaCongestionControl::NONE);
    nic.Enum("congestion_control",
             models.NamesAfter({"dcqcn", "hpcc", RdmaCongestionControl::NONE}),
             implemented)
        .Default("dcqcn")
        .Doc("the rate control of every sending queue pair: dcqcn (CNPs on ECN marks, "
             "configured by nic.dcqcn; nic.dcqcn.enabled false is none), hpcc (in-band "
             "telemetry on every data packet, configured by nic.hpcc; data is sent without "
             "ECN capability, so no CNPs) or none (line rate); see docs/hpcc.md")
        .Bind(&NicConfig::congestionControl);
    // Each model's own keys are declared with it (nic.dcqcn, nic.hpcc). The runner reads three
    // of DCQCN's (enabled, preset, rate_trace), so its object binds to NicConfig::dcqcn; every
    // other key is kept in NicConfig::spec and sets its attribute.
    nic.Object("dcqcn").Doc("DCQCN congestion control").Bind(&NicConfig::dcqcn);
    models.DeclareKeys(nic, "congestion_control");
    // ACKs and CNPs sharing the data class would be paused by the very congestion they report.
    nic.Different("ctrl_priority", "data_priority", "control packets need their own PFC class");
}

} // namespace ns3
