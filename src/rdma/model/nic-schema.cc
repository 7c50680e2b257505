#include "rdma/model/nic-schema.h"

#include "ns3/log.h"
#include "rdma/model/nic-config.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NicSchema");

namespace
{

using json = nlohmann::json;
using Bounds = ConfigSchemaBounds;

void
DeclareDcqcn(ConfigSchemaObject& d)
{
    d.Section("DCQCN",
              "The DCQCN reaction point of every queue pair (rate limiting on CNPs) and its "
              "notification point at the receiver (CNPs on ECN-marked packets). `preset` picks "
              "the defaults of the other keys; keys given explicitly still win.");
    d.Boolean("enabled").Default(true).Doc("DCQCN rate control").Bind(&DcqcnConfig::enabled);
    d.Enum("preset", {"paper", "nvidia-cx6"})
        .Default("paper")
        .Doc("where the defaults of the keys below come from")
        .Bind(&DcqcnConfig::preset);
    d.Number("cnp_interval_us", Bounds::AtLeast(0))
        .Default(50.0)
        .Unit("µs")
        .Doc("notification point: at most one CNP per QP per interval")
        .Bind(&DcqcnConfig::cnpIntervalUs);
    d.Number("g", Bounds::Between(0, 1)).Default(1.0 / 256).Doc("alpha gain").Bind(&DcqcnConfig::g);
    d.Number("alpha_update_us", Bounds::Above(0))
        .Default(55.0)
        .Unit("µs")
        .Doc("K: alpha decays every K without a CNP")
        .Bind(&DcqcnConfig::alphaUpdateUs);
    d.Number("rate_increase_us", Bounds::Above(0))
        .Default(55.0)
        .Unit("µs")
        .Doc("T: rate-increase timer")
        .Bind(&DcqcnConfig::rateIncreaseUs);
    d.Integer("byte_counter_bytes", 1, UINT32_MAX)
        .Default(10485760)
        .Unit("bytes")
        .Doc("B: bytes per byte-counter stage")
        .Bind(&DcqcnConfig::byteCounterBytes);
    d.Integer("fast_recovery_steps", 0, 1000)
        .Default(5)
        .Doc("F: fast-recovery stages before additive increase")
        .Bind(&DcqcnConfig::fastRecoverySteps);
    d.Number("rate_ai_mbps", Bounds::AtLeast(0))
        .Default(40.0)
        .Unit("Mb/s")
        .Doc("additive-increase step of the target rate")
        .Bind(&DcqcnConfig::rateAiMbps);
    d.Number("rate_hai_mbps", Bounds::AtLeast(0))
        .Default(200.0)
        .Unit("Mb/s")
        .Doc("hyper-increase step of the target rate")
        .Bind(&DcqcnConfig::rateHaiMbps);
    d.Number("min_rate_mbps", Bounds::Above(0))
        .Default(100.0)
        .Unit("Mb/s")
        .Doc("the rate never drops below this")
        .Bind(&DcqcnConfig::minRateMbps);
    d.Number("rate_on_first_cnp_mbps", Bounds::AtLeast(0))
        .Default(0.0)
        .Unit("Mb/s")
        .Doc("rate after the first CNP of a QP; 0: the first CNP decreases like any other")
        .Bind(&DcqcnConfig::rateOnFirstCnpMbps);
    d.Number("initial_alpha", Bounds::Between(0, 1))
        .Default(1.0)
        .Doc("alpha of a new QP")
        .Bind(&DcqcnConfig::initialAlpha);
    d.Boolean("clamp_target_rate")
        .Default(true)
        .Doc("every CNP sets the target rate to the current rate (the paper)")
        .Bind(&DcqcnConfig::clampTargetRate);
    d.Boolean("rate_trace")
        .Default(false)
        .Doc("write dcqcn-rates.csv into the result directory")
        .Bind(&DcqcnConfig::rateTrace);
    // ConnectX-6 Lx firmware defaults as mlxconfig reports them (rpg_* / dce_tcp_* /
    // min_time_between_cnps). g follows the firmware-modelled DCQCN of the HPCC study.
    d.Preset("preset",
             "nvidia-cx6",
             {{"cnp_interval_us", 4.0},
              {"alpha_update_us", 1.0},
              {"rate_increase_us", 300.0},
              {"byte_counter_bytes", 32767},
              {"fast_recovery_steps", 1},
              {"rate_ai_mbps", 5.0},
              {"rate_hai_mbps", 50.0},
              {"min_rate_mbps", 1.0},
              {"initial_alpha", 1023.0 / 1024},
              {"clamp_target_rate", false}},
             "ConnectX-6 Lx firmware defaults (mlxconfig rpg_*, dce_tcp_*, "
             "min_time_between_cnps)");
}

} // namespace

void
NicSchema::Declare(ConfigSchemaObject& nic)
{
    NS_LOG_FUNCTION_NOARGS();

    nic.Section("NIC");
    nic.IntegerIn("mtu_bytes", {256, 512, 1024, 2048, 4096})
        .Default(1024)
        .Unit("bytes")
        .Doc("RDMA path MTU: payload bytes per packet")
        .Bind(&NicConfig::mtuBytes);
    nic.Integer("ack_every", 1, 65536)
        .Default(1)
        .Doc("coalescing: one ACK per N in-order packets (and at message end)")
        .Bind(&NicConfig::ackEvery);
    nic.Number("rto_us", Bounds::Above(0))
        .Default(1000.0)
        .Unit("µs")
        .Doc("retransmission timeout")
        .Bind(&NicConfig::rtoUs);
    nic.Integer("data_priority", 0, 7)
        .Default(3)
        .Doc("PFC priority class of RDMA data")
        .Bind(&NicConfig::dataPriority);
    nic.Integer("ctrl_priority", 0, 7)
        .Default(6)
        .Doc("PFC priority class of ACK/NAK/CNP, served before data")
        .Bind(&NicConfig::ctrlPriority);
    DeclareDcqcn(
        nic.Object("dcqcn").Doc("DCQCN congestion control").Bind(&NicConfig::dcqcn).Fields());
    // ACKs and CNPs sharing the data class would be paused by the very congestion they report.
    nic.Different("ctrl_priority", "data_priority", "control packets need their own PFC class");
}

} // namespace ns3
