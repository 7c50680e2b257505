#include "rdma/model/nic-schema.h"

#include "core/model/config-schema.h"
#include "ns3/abort.h"
#include "ns3/log.h"
#include "rdma/model/nic-config.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NicSchema");

namespace
{

using json = nlohmann::json;
using Bounds = ConfigSchemaBounds;

/// The preset a scenario gets when it names none; DcqcnConfig's initialisers are its values.
const char* const DEFAULT_PRESET = "hpcc-simulator";

/// Every preset sets every parameter, so that none inherits another preset's value.
struct DcqcnPresetDecl
{
    const char* name;
    const char* doc;
    json values;
};

const std::vector<DcqcnPresetDecl>&
DcqcnPresets()
{
    // Each value's source is in docs/rdma-dcqcn.md#presets, row by row; the unit test
    // `ns3-dcqcn-presets` (the cited values) holds the resolved values at 100 and 400 Gb/s.
    static const std::vector<DcqcnPresetDecl> presets{
        // Zhu et al., SIGCOMM 2015, at 40 Gb/s; what the paper leaves open (N, F, R_HAI, the
        // floor, alpha's start, clamping) from its authors' simulator, github.com/bobzhuyb/
        // ns3-rdma at e8a27d0 (mix/config.txt and qbb-net-device.cc).
        {"paper",
         "DCQCN as published (Zhu et al., SIGCOMM 2015) at 40 Gb/s, with its authors' ns-3 "
         "simulator for what the paper leaves open",
         {{"cnp_interval_us", 50.0},
          {"g", 1.0 / 256},
          {"alpha_update_us", 55.0},
          {"alpha_update", "per-cnp"},
          {"rate_decrease_interval_us", 0.0},
          {"rate_increase_us", 55.0},
          {"byte_counter_bytes", 10485760},
          {"fast_recovery_steps", 5},
          {"rate_ai_mbps", 40.0},
          {"rate_hai_mbps", 200.0},
          {"rate_step_reference_gbps", 0.0},
          {"min_rate_mbps", 100.0},
          {"rate_on_first_cnp_mbps", 0.0},
          {"initial_alpha", 0.5},
          {"clamp_target_rate", true}}},
        // NVIDIA's documented DCQCN firmware parameters of ConnectX-4 and later (the DOCA
        // "DCQCN CC parameters" page, Mellanox DOC-2790), the rate-increase defaults as
        // mlxconfig reports them, min_time_between_cnps as the mlx5 driver documents it.
        {"nvidia-cx6",
         "NVIDIA ConnectX firmware (ConnectX-4 and later) as documented: dce_tcp_*, "
         "rate_reduce_monitor_period, rpg_*, initial_alpha_value, min_time_between_cnps",
         {{"cnp_interval_us", 0.0},
          {"g", 5.0 / 1024},
          {"alpha_update_us", 1.0},
          {"alpha_update", "per-period"},
          {"rate_decrease_interval_us", 4.0},
          {"rate_increase_us", 300.0},
          {"byte_counter_bytes", 32767},
          {"fast_recovery_steps", 2},
          {"rate_ai_mbps", 5.0},
          {"rate_hai_mbps", 50.0},
          {"rate_step_reference_gbps", 0.0},
          {"min_rate_mbps", 1.0},
          {"rate_on_first_cnp_mbps", 0.0},
          {"initial_alpha", 1023.0 / 1024},
          {"clamp_target_rate", false}}},
        // The DCQCN of HPCC's ns-3 simulator (github.com/alibaba-edu/
        // High-Precision-Congestion-Control at 9f4be2a) as simulation/run.py configures it for
        // `--cc dcqcn` (R_AI = 5 bw/25, R_HAI = 50 bw/25 Mb/s: scaled with the line rate),
        // with the algorithm of rdma-hw.cc (the "Mellanox version").
        {"hpcc-simulator",
         "HPCC's ns-3 simulator (simulation/run.py --cc dcqcn, "
         "src/point-to-point/model/rdma-hw.cc), its increase steps scaled with the line rate",
         {{"cnp_interval_us", 0.0},
          {"g", 1.0 / 256},
          {"alpha_update_us", 1.0},
          {"alpha_update", "per-period"},
          {"rate_decrease_interval_us", 4.0},
          {"rate_increase_us", 300.0},
          {"byte_counter_bytes", 0},
          {"fast_recovery_steps", 2},
          {"rate_ai_mbps", 5.0},
          {"rate_hai_mbps", 50.0},
          {"rate_step_reference_gbps", 25.0},
          {"min_rate_mbps", 1000.0},
          {"rate_on_first_cnp_mbps", 0.0},
          {"initial_alpha", 1.0},
          {"clamp_target_rate", false}}},
    };
    return presets;
}

void
DeclareDcqcn(ConfigSchemaObject& d)
{
    const json* defaults = nullptr;
    std::vector<std::string> names;
    for (const DcqcnPresetDecl& p : DcqcnPresets())
    {
        names.push_back(p.name);
        if (std::string(p.name) == DEFAULT_PRESET)
        {
            defaults = &p.values;
        }
    }
    NS_ABORT_MSG_UNLESS(defaults, "the default DCQCN preset is not declared");
    std::string defaultDoc;
    for (const DcqcnPresetDecl& p : DcqcnPresets())
    {
        if (std::string(p.name) == DEFAULT_PRESET)
        {
            defaultDoc = p.doc;
        }
    }
    auto def = [defaults](const char* key)
    {
        return defaults->at(key);
    };

    d.Section("DCQCN",
              "The DCQCN reaction point of every queue pair (rate limiting on CNPs) and its "
              "notification point at the receiver (CNPs on ECN-marked packets). `preset` picks "
              "the defaults of the other keys; keys given explicitly still win.");
    d.Boolean("enabled").Default(true).Doc("DCQCN rate control").Bind(&DcqcnConfig::enabled);
    d.Enum("preset", names)
        .Default(DEFAULT_PRESET)
        .Doc(std::string("where the defaults of the keys below come from "
                         "(docs/rdma-dcqcn.md#presets); the defaults shown first are `")
             + DEFAULT_PRESET + "`'s: " + defaultDoc)
        .Bind(&DcqcnConfig::preset);
    d.Number("cnp_interval_us", Bounds::AtLeast(0))
        .Default(def("cnp_interval_us"))
        .Unit("µs")
        .Doc("notification point: at most one CNP per QP per interval (0: one per CE-marked "
             "packet)")
        .Bind(&DcqcnConfig::cnpIntervalUs);
    d.Number("g", Bounds::Between(0, 1)).Default(def("g")).Doc("alpha gain").Bind(&DcqcnConfig::g);
    d.Number("alpha_update_us", Bounds::Above(0))
        .Default(def("alpha_update_us"))
        .Unit("µs")
        .Doc("K: the alpha update period (see alpha_update)")
        .Bind(&DcqcnConfig::alphaUpdateUs);
    d.Enum("alpha_update", {"per-cnp", "per-period"})
        .Default(def("alpha_update"))
        .Doc("per-cnp: alpha rises at every CNP and decays every K without one (the paper); "
             "per-period: every K, alpha rises if a CNP arrived in that period and decays "
             "otherwise (ConnectX firmware as HPCC's simulator models it)")
        .Bind(&DcqcnConfig::alphaUpdate);
    d.Number("rate_decrease_interval_us", Bounds::AtLeast(0))
        .Default(def("rate_decrease_interval_us"))
        .Unit("µs")
        .Doc("at most one rate cut per interval: the CNPs of an interval cause one cut at its "
             "end (ConnectX rate_reduce_monitor_period); 0: every CNP cuts at once")
        .Bind(&DcqcnConfig::rateDecreaseIntervalUs);
    d.Number("rate_increase_us", Bounds::Above(0))
        .Default(def("rate_increase_us"))
        .Unit("µs")
        .Doc("T: rate-increase timer")
        .Bind(&DcqcnConfig::rateIncreaseUs);
    d.Integer("byte_counter_bytes", 0, UINT32_MAX)
        .Default(def("byte_counter_bytes"))
        .Unit("bytes")
        .Doc("B: bytes per byte-counter stage; 0: no byte counter, the timer alone drives the "
             "increase")
        .Bind(&DcqcnConfig::byteCounterBytes);
    d.Integer("fast_recovery_steps", 0, 1000)
        .Default(def("fast_recovery_steps"))
        .Doc("F: stages (counted from 1) are fast recovery while below F")
        .Bind(&DcqcnConfig::fastRecoverySteps);
    d.Number("rate_ai_mbps", Bounds::AtLeast(0))
        .Default(def("rate_ai_mbps"))
        .Unit("Mb/s")
        .Doc("additive-increase step of the target rate (at rate_step_reference_gbps)")
        .Bind(&DcqcnConfig::rateAiMbps);
    d.Number("rate_hai_mbps", Bounds::AtLeast(0))
        .Default(def("rate_hai_mbps"))
        .Unit("Mb/s")
        .Doc("hyper-increase step of the target rate (at rate_step_reference_gbps)")
        .Bind(&DcqcnConfig::rateHaiMbps);
    d.Number("rate_step_reference_gbps", Bounds::AtLeast(0))
        .Default(def("rate_step_reference_gbps"))
        .Unit("Gb/s")
        .Doc("the line rate rate_ai_mbps and rate_hai_mbps are given for: every NIC scales "
             "them by its own line rate over this one, as HPCC's run.py scales them with the "
             "link rate (`hpcc-simulator`: 5 and 50 Mb/s per 25 Gb/s, so 20 and 200 at "
             "100 Gb/s, 80 and 800 at 400); 0: the steps are the same at every line rate")
        .Bind(&DcqcnConfig::rateStepReferenceGbps);
    d.Number("min_rate_mbps", Bounds::Above(0))
        .Default(def("min_rate_mbps"))
        .Unit("Mb/s")
        .Doc("the rate never drops below this")
        .Bind(&DcqcnConfig::minRateMbps);
    d.Number("rate_on_first_cnp_mbps", Bounds::AtLeast(0))
        .Default(def("rate_on_first_cnp_mbps"))
        .Unit("Mb/s")
        .Doc("rate after the first cut of a QP; 0: the first cut decreases like any other")
        .Bind(&DcqcnConfig::rateOnFirstCnpMbps);
    d.Number("initial_alpha", Bounds::Between(0, 1))
        .Default(def("initial_alpha"))
        .Doc("alpha of a QP at its first CNP")
        .Bind(&DcqcnConfig::initialAlpha);
    d.Boolean("clamp_target_rate")
        .Default(def("clamp_target_rate"))
        .Doc("every cut sets the target rate to the current rate (the paper); false: only the "
             "first cut after a rate increase does")
        .Bind(&DcqcnConfig::clampTargetRate);
    d.Boolean("rate_trace")
        .Default(false)
        .Doc("write dcqcn-rates.csv into the result directory")
        .Bind(&DcqcnConfig::rateTrace);
    for (const DcqcnPresetDecl& p : DcqcnPresets())
    {
        if (std::string(p.name) != DEFAULT_PRESET)
        {
            d.Preset("preset", p.name, p.values, p.doc);
        }
    }
}

void
DeclareHpcc(ConfigSchemaObject& h)
{
    h.Section("HPCC",
              "HPCC's sender (Li et al., SIGCOMM 2019), with nic.congestion_control 'hpcc': a "
              "window and pacing rate from the in-band telemetry every switch writes into the "
              "data packets and the ACKs bring back. Defaults are HPCC's simulator's "
              "(simulation/run.py --cc hp at 9f4be2a); see docs/hpcc.md.");
    h.Number("eta", Bounds::Between(0.01, 1))
        .Default(0.95)
        .Doc("η: the utilisation of the most loaded hop the sender aims at (run.py U_TARGET)")
        .Bind(&HpccConfig::eta);
    h.Integer("max_stage", 0, 1000)
        .Default(0)
        .Doc("maxStage: additive-increase steps before a multiplicative update (run.py "
             "MI_THRESH; the paper's 5 was a typo for its simulations)")
        .Bind(&HpccConfig::maxStage);
    h.Number("rate_ai_mbps", Bounds::AtLeast(0))
        .Default(10.0)
        .Unit("Mb/s")
        .Doc("W_AI as a rate: the additive step per update, at rate_step_reference_gbps "
             "(run.py RATE_AI = 10 bw/25: 40 Mb/s at 100 Gb/s)")
        .Bind(&HpccConfig::rateAiMbps);
    h.Number("rate_step_reference_gbps", Bounds::AtLeast(0))
        .Default(25.0)
        .Unit("Gb/s")
        .Doc("the line rate rate_ai_mbps is given for: every NIC scales it by its own line "
             "rate over this one; 0: the same step at every line rate")
        .Bind(&HpccConfig::rateStepReferenceGbps);
    h.Number("min_rate_mbps", Bounds::Above(0))
        .Default(1000.0)
        .Unit("Mb/s")
        .Doc("the rate never drops below this (run.py MIN_RATE)")
        .Bind(&HpccConfig::minRateMbps);
    h.Number("base_rtt_us", Bounds::Above(0))
        .Auto("the fabric's longest unloaded round trip")
        .Unit("µs")
        .Doc("T: the window is rate x T and the EWMA spans T; HPCC's simulator takes the "
             "longest round trip between two hosts (GLOBAL_T): twice the cable and switch "
             "delays of the longest path plus one MTU's serialisation on each of its links")
        .Bind(&HpccConfig::baseRttUs, 0.0);
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
    nic.Enum("reorder", {"go-back-n", "tolerant"})
        .Default("go-back-n")
        .Doc("the receiver: go-back-n (the classic RoCE NIC: a gap is NAKed and what follows it "
             "dropped until the requester goes back) or tolerant (packets ahead of a hole are "
             "placed and held in a bitmap, a hole is NAKed selectively once it is "
             "reorder_timeout_us old, requesters resend only the PSNs asked for); see "
             "docs/rdma-dcqcn.md#reorder-tolerant-receivers")
        .Bind(&NicConfig::reorder);
    nic.Integer("reorder_window", 1, 1u << 22)
        .Auto("4096 with reorder tolerant")
        .Unit("packets")
        .Doc("tolerant: bitmap size of every responder, in packets past its next expected PSN; "
             "a packet further ahead is dropped")
        .Bind(&NicConfig::reorderWindow, uint32_t{4096});
    nic.Number("reorder_timeout_us", Bounds::AtLeast(0))
        .Auto("100 with reorder tolerant")
        .Unit("µs")
        .Doc("tolerant: a hole is NAKed selectively once the first packet held behind it is "
             "this old (0: at once)")
        .Bind(&NicConfig::reorderTimeoutUs, 100.0);
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
        .Default(0.0)
        .Unit("Mpps")
        .Doc("packet rate of the receive path: every frame a NIC receives (data, ACK, NAK, CNP, "
             "probe) holds it for 1 / rate and later ones wait, so an ACK implosion loads the "
             "sender's NIC; 0: unlimited, a frame costs the NIC nothing. ConnectX-7's product "
             "brief gives up to 330-370 M messages/s; see docs/rdma-dcqcn.md#receive-path")
        .Bind(&NicConfig::receiveMpps);
    nic.Integer("receive_pause_bytes", 0, UINT32_MAX)
        .Auto("0 (never paused) with receive_mpps")
        .Unit("bytes")
        .Doc("receive buffer: frames waiting for the receive path pause the link peer (PFC, "
             "each class waiting) at this many bytes and resume it one MTU-sized frame below, "
             "as the mlx5 driver sets XOFF and XON; 0: never paused, the buffer is unbounded")
        .Bind(&NicConfig::receivePauseBytes, uint32_t{0});
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
    nic.Enum("congestion_control", {"dcqcn", "hpcc", "none"})
        .Default("dcqcn")
        .Doc("the rate control of every sending queue pair: dcqcn (CNPs on ECN marks, "
             "configured by nic.dcqcn; nic.dcqcn.enabled false is none), hpcc (in-band "
             "telemetry on every data packet, configured by nic.hpcc; data is sent without "
             "ECN capability, so no CNPs) or none (line rate); see docs/hpcc.md")
        .Bind(&NicConfig::congestionControl);
    DeclareDcqcn(
        nic.Object("dcqcn").Doc("DCQCN congestion control").Bind(&NicConfig::dcqcn).Fields());
    DeclareHpcc(nic.Object("hpcc").Doc("HPCC congestion control").Bind(&NicConfig::hpcc).Fields());
    // ACKs and CNPs sharing the data class would be paused by the very congestion they report.
    nic.Different("ctrl_priority", "data_priority", "control packets need their own PFC class");
}

} // namespace ns3
