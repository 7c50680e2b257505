#include "rdma/model/dcqcn.h"

#include "core/model/ns3-compat.h"
#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "rdma/model/nic-config.h"
#include "rdma/model/rdma-nic.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Dcqcn");
NS_OBJECT_ENSURE_REGISTERED(Dcqcn);

namespace
{

using json = nlohmann::json;
using Bounds = ConfigSchemaBounds;

/// The preset a scenario gets when it names none: its values are the keys' declared defaults.
const char* const DEFAULT_PRESET = DcqcnConfig::DEFAULT_PRESET;

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

/// nic.dcqcn: every key but `preset` and `rate_trace` sets an attribute, of the model or of
/// the NIC (its notification point). Only `enabled`, `preset` and `rate_trace` are bound to
/// DcqcnConfig: the scenario reads nothing else, so the presets here are the one place a
/// scenario's DCQCN values are written. (The attributes' initial values are the model as
/// published, the `paper` row but for InitialAlpha, for programs without the scenario layer.)
void
DeclareKeys(ConfigSchemaObject& d)
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
    d.Boolean("enabled")
        .Default(true)
        .Doc("DCQCN rate control")
        .Bind(&DcqcnConfig::enabled)
        .Attribute(RdmaNic::GetTypeId(), "CongestionControlEnabled");
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
        .Attribute(RdmaNic::GetTypeId(), "CnpInterval");
    d.Number("g", Bounds::Between(0, 1)).Default(def("g")).Doc("alpha gain").Attribute("G");
    d.Number("alpha_update_us", Bounds::Above(0))
        .Default(def("alpha_update_us"))
        .Unit("µs")
        .Doc("K: the alpha update period (see alpha_update)")
        .Attribute("AlphaUpdatePeriod");
    d.Enum("alpha_update", {"per-cnp", "per-period"})
        .Default(def("alpha_update"))
        .Doc("per-cnp: alpha rises at every CNP and decays every K without one (the paper); "
             "per-period: every K, alpha rises if a CNP arrived in that period and decays "
             "otherwise (ConnectX firmware as HPCC's simulator models it)")
        .Attribute("AlphaUpdate");
    d.Number("rate_decrease_interval_us", Bounds::AtLeast(0))
        .Default(def("rate_decrease_interval_us"))
        .Unit("µs")
        .Doc("at most one rate cut per interval: the CNPs of an interval cause one cut at its "
             "end (ConnectX rate_reduce_monitor_period); 0: every CNP cuts at once")
        .Attribute("RateDecreaseInterval");
    d.Number("rate_increase_us", Bounds::Above(0))
        .Default(def("rate_increase_us"))
        .Unit("µs")
        .Doc("T: rate-increase timer")
        .Attribute("RateIncreasePeriod");
    d.Integer("byte_counter_bytes", 0, UINT32_MAX)
        .Default(def("byte_counter_bytes"))
        .Unit("bytes")
        .Doc("B: bytes per byte-counter stage; 0: no byte counter, the timer alone drives the "
             "increase")
        .Attribute("ByteCounter");
    d.Integer("fast_recovery_steps", 0, 1000)
        .Default(def("fast_recovery_steps"))
        .Doc("F: stages (counted from 1) are fast recovery while below F")
        .Attribute("FastRecoverySteps");
    d.Number("rate_ai_mbps", Bounds::AtLeast(0))
        .Default(def("rate_ai_mbps"))
        .Unit("Mb/s")
        .Doc("additive-increase step of the target rate (at rate_step_reference_gbps)")
        .Attribute("RateAi");
    d.Number("rate_hai_mbps", Bounds::AtLeast(0))
        .Default(def("rate_hai_mbps"))
        .Unit("Mb/s")
        .Doc("hyper-increase step of the target rate (at rate_step_reference_gbps)")
        .Attribute("RateHai");
    d.Number("rate_step_reference_gbps", Bounds::AtLeast(0))
        .Default(def("rate_step_reference_gbps"))
        .Unit("Gb/s")
        .Doc("the line rate rate_ai_mbps and rate_hai_mbps are given for: every NIC scales "
             "them by its own line rate over this one, as HPCC's run.py scales them with the "
             "link rate (`hpcc-simulator`: 5 and 50 Mb/s per 25 Gb/s, so 20 and 200 at "
             "100 Gb/s, 80 and 800 at 400); 0: the steps are the same at every line rate")
        .Attribute("StepReferenceRate");
    d.Number("min_rate_mbps", Bounds::Above(0))
        .Default(def("min_rate_mbps"))
        .Unit("Mb/s")
        .Doc("the rate never drops below this")
        .Attribute("MinRate");
    d.Number("rate_on_first_cnp_mbps", Bounds::AtLeast(0))
        .Default(def("rate_on_first_cnp_mbps"))
        .Unit("Mb/s")
        .Doc("rate after the first cut of a QP; 0: the first cut decreases like any other")
        .Attribute("RateOnFirstCnp");
    d.Number("initial_alpha", Bounds::Between(0, 1))
        .Default(def("initial_alpha"))
        .Doc("alpha of a QP at its first CNP")
        .Attribute("InitialAlpha");
    d.Boolean("clamp_target_rate")
        .Default(def("clamp_target_rate"))
        .Doc("every cut sets the target rate to the current rate (the paper); false: only the "
             "first cut after a rate increase does")
        .Attribute("ClampTargetRate");
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

} // namespace

MCAST4AI_REGISTER_NAMED_TYPE_WITH_KEYS(RdmaCongestionControl::Registry(),
                                       "dcqcn",
                                       Dcqcn,
                                       "dcqcn",
                                       "DCQCN congestion control",
                                       DeclareKeys);

TypeId
Dcqcn::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::Dcqcn")
              .SetParent<RdmaCongestionControl>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<Dcqcn>()
              .AddAttribute("G",
                            "Alpha gain g: alpha = (1 - g) alpha + g on a CNP",
                            DoubleValue(1.0 / 256),
                            MakeDoubleAccessor(&Dcqcn::m_g),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("AlphaUpdatePeriod",
                            "Alpha update period K: see AlphaUpdate",
                            TimeValue(MicroSeconds(55)),
                            MakeTimeAccessor(&Dcqcn::m_alphaPeriod),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("RateIncreasePeriod",
                            "Rate-increase timer period (T)",
                            TimeValue(MicroSeconds(55)),
                            MakeTimeAccessor(&Dcqcn::m_increasePeriod),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("ByteCounter",
                            "Bytes sent per byte-counter stage (B); 0: no byte counter, the "
                            "timer alone drives the rate increase",
                            UintegerValue(10 * 1024 * 1024),
                            MakeUintegerAccessor(&Dcqcn::m_byteCounter),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute("FastRecoverySteps",
                            "Stages of fast recovery before additive increase (F)",
                            UintegerValue(5),
                            MakeUintegerAccessor(&Dcqcn::m_fastRecoverySteps),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("RateAi",
                            "Additive-increase step of the target rate",
                            DataRateValue(DataRate("40Mbps")),
                            MakeDataRateAccessor(&Dcqcn::m_rateAi),
                            MakeDataRateChecker())
              .AddAttribute("RateHai",
                            "Hyper-increase step of the target rate",
                            DataRateValue(DataRate("200Mbps")),
                            MakeDataRateAccessor(&Dcqcn::m_rateHai),
                            MakeDataRateChecker())
              .AddAttribute("StepReferenceRate",
                            "The line rate RateAi and RateHai are given for: a reaction point "
                            "scales them by its own line rate over this one, as HPCC's run.py "
                            "scales them with the link rate; 0: as given at every line rate",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&Dcqcn::m_stepReference),
                            MakeDataRateChecker())
              .AddAttribute("MinRate",
                            "The rate never falls below this floor",
                            DataRateValue(DataRate("100Mbps")),
                            MakeDataRateAccessor(&Dcqcn::m_minRate),
                            MakeDataRateChecker())
              .AddAttribute("RateOnFirstCnp",
                            "Rate set by the first CNP of a queue pair; 0 = the normal decrease",
                            DataRateValue(DataRate(0)),
                            MakeDataRateAccessor(&Dcqcn::m_rateOnFirstCnp),
                            MakeDataRateChecker())
              .AddAttribute("InitialAlpha",
                            "Alpha before the first CNP",
                            DoubleValue(1.0),
                            MakeDoubleAccessor(&Dcqcn::m_initialAlpha),
                            MakeDoubleChecker<double>(0.0, 1.0))
              .AddAttribute("ClampTargetRate",
                            "true: every CNP sets the target rate to the current rate (the paper's "
                            "algorithm). false: only the first CNP after a rate increase does, so "
                            "back-to-back CNPs keep the older, higher target (the paper author's "
                            "simulator and NVIDIA firmware with clamp_tgt_rate = 0)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&Dcqcn::m_clampTarget),
                            MakeBooleanChecker())
              .AddAttribute("RateDecreaseInterval",
                            "At most one rate cut per interval: a CNP marks the interval it "
                            "falls in (intervals on a grid from the first CNP) and the rate is "
                            "cut once at its end (ConnectX rate_reduce_monitor_period). 0: "
                            "every CNP cuts at once",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&Dcqcn::m_decreaseInterval),
                            MakeTimeChecker(Time(0)))
              .AddAttribute(
                  "AlphaUpdate",
                  "per-cnp: alpha rises at every CNP and decays every "
                  "AlphaUpdatePeriod without one, the period restarting at each CNP "
                  "(the paper). per-period: once per AlphaUpdatePeriod, on a grid from "
                  "the first CNP, alpha rises if a CNP arrived in the period and "
                  "decays otherwise (ConnectX firmware, HPCC's ns-3 model)",
                  EnumValue(Dcqcn::ALPHA_PER_CNP),
                  MakeEnumAccessorFor<Dcqcn::AlphaUpdate>(&Dcqcn::m_alphaUpdate),
                  MakeEnumChecker(
                      Dcqcn::ALPHA_PER_CNP, "per-cnp", Dcqcn::ALPHA_PER_PERIOD, "per-period"))
              .AddTraceSource("Rate",
                              "Current (paced) rate changed, bit/s",
                              MakeTraceSourceAccessor(&Dcqcn::m_rateTrace),
                              "ns3::Dcqcn::RateTracedCallback")
              .AddTraceSource("TargetRate",
                              "Target rate changed, bit/s",
                              MakeTraceSourceAccessor(&Dcqcn::m_targetTrace),
                              "ns3::Dcqcn::RateTracedCallback")
              .AddTraceSource("Alpha",
                              "Alpha brought up to date at a CNP or a cut (old, new)",
                              MakeTraceSourceAccessor(&Dcqcn::m_alphaTrace),
                              "ns3::Dcqcn::RateTracedCallback")
              .AddTraceSource("CnpReceived",
                              "A CNP reached this queue pair",
                              MakeTraceSourceAccessor(&Dcqcn::m_cnpTrace),
                              "ns3::TracedCallback::Void");
    return tid;
}

Dcqcn::Dcqcn()
{
}

void
Dcqcn::DoDispose()
{
    m_timer.Cancel();
    m_cutEvent.Cancel();
    Object::DoDispose();
}

void
Dcqcn::SetLineRate(DataRate rate)
{
    m_lineBps = static_cast<double>(rate.GetBitRate());
    const double reference = static_cast<double>(m_stepReference.GetBitRate());
    m_stepScale = reference > 0 ? m_lineBps / reference : 1.0;
    NS_LOG_LOGIC(this << " line rate " << m_lineBps / 1e9 << " Gb/s: steps scaled by "
                      << m_stepScale);
    m_rateBps = m_lineBps;
    m_targetBps = m_lineBps;
    m_alpha = m_initialAlpha;
    m_alphaUpdated = Simulator::Now();
}

void
Dcqcn::SetRate(double bps)
{
    bps = std::min(m_lineBps, std::max(bps, static_cast<double>(m_minRate.GetBitRate())));
    if (bps != m_rateBps)
    {
        // Changed first, traced after: a sink that reads the reaction point sees the new state.
        double old = m_rateBps;
        m_rateBps = bps;
        m_rateTrace(old, bps);
        LogState();
        NotifyPacingChanged();
    }
}

void
Dcqcn::SetTarget(double bps)
{
    bps = std::min(m_lineBps, std::max(bps, static_cast<double>(m_minRate.GetBitRate())));
    if (bps != m_targetBps)
    {
        double old = m_targetBps;
        m_targetBps = bps;
        m_targetTrace(old, bps);
        LogState();
    }
}

void
Dcqcn::AdvanceAlpha() const
{
    if (!m_cnpSeen)
    {
        return; // alpha holds its initial value until the first CNP
    }
    int64_t periods = (Simulator::Now() - m_alphaUpdated).GetInteger() / m_alphaPeriod.GetInteger();
    if (periods <= 0)
    {
        return;
    }
    m_alphaUpdated += m_alphaPeriod * periods;
    if (m_cnpInAlphaPeriod)
    {
        // PER_PERIOD: the oldest of these periods saw a CNP; the later ones did not.
        m_alpha = (1.0 - m_g) * m_alpha + m_g;
        m_cnpInAlphaPeriod = false;
        --periods;
    }
    m_alpha *= std::pow(1.0 - m_g, static_cast<double>(periods));
}

void
Dcqcn::ReceiveCnp()
{
    ++m_cnps;
    m_cnpTrace();
    const Time now = Simulator::Now();
    if (!m_cnpSeen)
    {
        // The first CNP sets alpha to its initial value and starts its periods and the grid
        // of rate-decrease intervals; it does not count as a CNP of the first alpha period.
        m_cnpSeen = true;
        m_alpha = m_initialAlpha;
        m_alphaUpdated = now;
        m_firstCnp = now;
    }
    else
    {
        AdvanceAlpha();
        if (m_alphaUpdate == ALPHA_PER_PERIOD)
        {
            m_cnpInAlphaPeriod = true;
        }
    }
    if (m_decreaseInterval.IsZero())
    {
        Cut();
    }
    else if (m_cutEvent.IsExpired())
    {
        // One cut at the end of the interval this CNP falls in.
        int64_t k = (now - m_firstCnp).GetInteger() / m_decreaseInterval.GetInteger() + 1;
        Time at = m_firstCnp + m_decreaseInterval * k;
        NS_LOG_LOGIC(this << " CNP " << m_cnps << ": cut at the end of the interval, "
                          << (at - now).As(Time::US) << " from now");
        m_cutEvent = Simulator::Schedule(at - now, &Dcqcn::Cut, this);
    }
    else
    {
        NS_LOG_LOGIC(this << " CNP " << m_cnps
                          << ": a cut is already due in this interval, no further cut");
    }
    if (m_alphaUpdate == ALPHA_PER_CNP)
    {
        double old = m_alpha;
        m_alpha = (1.0 - m_g) * m_alpha + m_g;
        m_alphaTrace(old, m_alpha);
        m_alphaUpdated = now; // the alpha timer restarts at every CNP
    }
}

void
Dcqcn::Cut()
{
    double oldAlpha = m_alpha;
    AdvanceAlpha();
    if (m_alphaUpdate == ALPHA_PER_PERIOD && m_alpha != oldAlpha)
    {
        m_alphaTrace(oldAlpha, m_alpha);
    }
    if (m_clampTarget || m_increasedSinceCut)
    {
        SetTarget(m_rateBps);
    }
    m_increasedSinceCut = false;
    double before = m_rateBps;
    if (m_cuts == 0 && m_rateOnFirstCnp.GetBitRate() > 0)
    {
        SetRate(static_cast<double>(m_rateOnFirstCnp.GetBitRate()));
    }
    else
    {
        SetRate(m_rateBps * (1.0 - m_alpha / 2));
    }
    ++m_cuts;
    NS_LOG_DEBUG(this << " cut " << m_cuts << ": " << before / 1e9 << " -> " << m_rateBps / 1e9
                      << " Gb/s (alpha " << m_alpha << "), target " << m_targetBps / 1e9
                      << " Gb/s");
    // Both increase counters restart at every cut.
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesInStage = 0;
    m_timer.Cancel();
    ScheduleTimer();
}

void
Dcqcn::ScheduleTimer()
{
    if (m_rateBps < m_lineBps && m_timer.IsExpired())
    {
        m_timer = Simulator::Schedule(m_increasePeriod, &Dcqcn::RateIncreaseTimerExpired, this);
    }
}

void
Dcqcn::RateIncreaseTimerExpired()
{
    ++m_timerStage;
    RateIncrease();
    ScheduleTimer();
}

void
Dcqcn::BytesSent(uint32_t bytes)
{
    if (m_rateBps >= m_lineBps || m_byteCounter == 0)
    {
        return; // nothing to recover, or no byte counter
    }
    m_bytesInStage += bytes;
    while (m_bytesInStage >= m_byteCounter)
    {
        m_bytesInStage -= m_byteCounter;
        ++m_byteStage;
        RateIncrease();
    }
}

void
Dcqcn::RateIncrease()
{
    m_increasedSinceCut = true;
    uint32_t f = m_fastRecoverySteps;
    if (m_byteCounter == 0)
    {
        // The timer alone: fast recovery before stage F, one additive step at F, then a
        // hyper step of R_HAI per stage (HPCC's rdma-hw.cc, RateIncEventMlx).
        if (m_timerStage < f)
        {
            m_lastPhase = FAST_RECOVERY;
        }
        else if (m_timerStage == f)
        {
            m_lastPhase = ADDITIVE_INCREASE;
            SetTarget(m_targetBps + AdditiveStepBps());
        }
        else
        {
            m_lastPhase = HYPER_INCREASE;
            SetTarget(m_targetBps + HyperStepBps());
        }
        SetRate((m_targetBps + m_rateBps) / 2);
        NS_LOG_LOGIC(this << " timer stage " << m_timerStage << " phase " << int(m_lastPhase)
                          << ": rate " << m_rateBps / 1e9 << " Gb/s, target " << m_targetBps / 1e9
                          << " Gb/s");
        return;
    }
    uint32_t hi = std::max(m_timerStage, m_byteStage);
    uint32_t lo = std::min(m_timerStage, m_byteStage);
    if (hi < f)
    {
        m_lastPhase = FAST_RECOVERY; // the target stays: climb back halfway towards it
    }
    else if (lo < f)
    {
        m_lastPhase = ADDITIVE_INCREASE;
        SetTarget(m_targetBps + AdditiveStepBps());
    }
    else
    {
        m_lastPhase = HYPER_INCREASE;
        double i = lo - f + 1;
        SetTarget(m_targetBps + i * HyperStepBps());
    }
    SetRate((m_targetBps + m_rateBps) / 2);
}

DataRate
Dcqcn::GetRate() const
{
    return DataRate(static_cast<uint64_t>(m_rateBps));
}

DataRate
Dcqcn::GetMinRate() const
{
    return m_minRate;
}

DataRate
Dcqcn::GetTargetRate() const
{
    return DataRate(static_cast<uint64_t>(m_targetBps));
}

double
Dcqcn::AdditiveStepBps() const
{
    return m_stepScale * static_cast<double>(m_rateAi.GetBitRate());
}

double
Dcqcn::HyperStepBps() const
{
    return m_stepScale * static_cast<double>(m_rateHai.GetBitRate());
}

DataRate
Dcqcn::GetAdditiveStep() const
{
    return DataRate(static_cast<uint64_t>(AdditiveStepBps()));
}

DataRate
Dcqcn::GetHyperStep() const
{
    return DataRate(static_cast<uint64_t>(HyperStepBps()));
}

DataRate
Dcqcn::GetLineRate() const
{
    return DataRate(static_cast<uint64_t>(m_lineBps));
}

double
Dcqcn::GetAlpha() const
{
    AdvanceAlpha();
    return m_alpha;
}

uint32_t
Dcqcn::GetTimerStage() const
{
    return m_timerStage;
}

uint32_t
Dcqcn::GetByteStage() const
{
    return m_byteStage;
}

Dcqcn::Phase
Dcqcn::GetLastPhase() const
{
    return m_lastPhase;
}

uint64_t
Dcqcn::GetCnpsReceived() const
{
    return m_cnps;
}

uint64_t
Dcqcn::GetCuts() const
{
    return m_cuts;
}

bool
Dcqcn::IsCutPending() const
{
    return IsPending(m_cutEvent);
}

bool
Dcqcn::SetStateLog(StateLog log)
{
    m_stateLog = log;
    LogState();
    return true;
}

void
Dcqcn::LogState()
{
    if (!m_stateLog.IsNull())
    {
        m_stateLog(static_cast<double>(GetRate().GetBitRate()),
                   static_cast<double>(GetTargetRate().GetBitRate()),
                   GetAlpha());
    }
}

Time
Dcqcn::PacingDelay(uint32_t wireBytes) const
{
    return PicoSeconds(std::llround(wireBytes * 8e12 / m_rateBps));
}

} // namespace ns3
