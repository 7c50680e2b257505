/*
 * HPCC's sender: model in hpcc.h. Line numbers cite alibaba-edu/High-Precision-Congestion-
 * Control at 9f4be2a, simulation/src/point-to-point/model/rdma-hw.cc (UpdateRateHp) and
 * simulation/run.py.
 */
#include "rdma/model/hpcc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Hpcc");
NS_OBJECT_ENSURE_REGISTERED(Hpcc);

namespace
{

using Bounds = ConfigSchemaBounds;

/// nic.hpcc: each key sets the attribute it names.
void
DeclareKeys(ConfigSchemaObject& h)
{
    h.Section("HPCC",
              "HPCC's sender (Li et al., SIGCOMM 2019), with nic.congestion_control 'hpcc': a "
              "window and pacing rate from the in-band telemetry every switch writes into the "
              "data packets and the ACKs bring back. Defaults are HPCC's simulator's "
              "(simulation/run.py --cc hp at 9f4be2a); see docs/hpcc.md.");
    h.Number("eta", Bounds::Between(0.01, 1))
        .Doc("η: the utilisation of the most loaded hop the sender aims at (run.py U_TARGET)")
        .Attribute("TargetUtilisation");
    h.Integer("max_stage", 0, 1000)
        .Doc("maxStage: additive-increase steps before a multiplicative update (run.py "
             "MI_THRESH; the paper's 5 was a typo for its simulations)")
        .Attribute("MaxStage");
    h.Number("rate_ai_mbps", Bounds::AtLeast(0))
        .Unit("Mb/s")
        .Doc("W_AI as a rate: the additive step per update, at rate_step_reference_gbps "
             "(run.py RATE_AI = 10 bw/25: 40 Mb/s at 100 Gb/s)")
        .Attribute("RateAi");
    h.Number("rate_step_reference_gbps", Bounds::AtLeast(0))
        .Unit("Gb/s")
        .Doc("the line rate rate_ai_mbps is given for: every NIC scales it by its own line "
             "rate over this one; 0: the same step at every line rate")
        .Attribute("StepReferenceRate");
    h.Number("min_rate_mbps", Bounds::Above(0))
        .Unit("Mb/s")
        .Doc("the rate never drops below this (run.py MIN_RATE)")
        .Attribute("MinRate");
    h.Number("base_rtt_us", Bounds::Above(0))
        .Auto("the fabric's longest unloaded round trip")
        .Unit("µs")
        .Doc("T: the window is rate x T and the EWMA spans T; HPCC's simulator takes the "
             "longest round trip between two hosts (GLOBAL_T): twice the cable and switch "
             "delays of the longest path plus one MTU's serialisation on each of its links")
        .Attribute("BaseRtt");
}

} // namespace

MCAST4AI_REGISTER_NAMED_TYPE_WITH_KEYS(RdmaCongestionControl::Registry(),
                                       "hpcc",
                                       Hpcc,
                                       "hpcc",
                                       "HPCC congestion control",
                                       DeclareKeys);

namespace
{
constexpr int64_t NS_PER_SECOND = 1000000000;
} // namespace

TypeId
Hpcc::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::Hpcc")
              .SetParent<RdmaCongestionControl>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<Hpcc>()
              .AddAttribute("TargetUtilisation",
                            "eta: the utilisation the sender aims the most loaded hop at (the "
                            "paper's 95%; run.py U_TARGET)",
                            DoubleValue(0.95),
                            MakeDoubleAccessor(&Hpcc::m_eta),
                            MakeDoubleChecker<double>(0.01, 1.0))
              .AddAttribute("MaxStage",
                            "Additive-increase steps before a multiplicative update is forced "
                            "(run.py MI_THRESH, 0 in HPCC's released configuration)",
                            UintegerValue(0),
                            MakeUintegerAccessor(&Hpcc::m_maxStage),
                            MakeUintegerChecker<uint32_t>())
              .AddAttribute("RateAi",
                            "W_AI as a rate: the additive step per update (run.py RATE_AI)",
                            DataRateValue(DataRate("10Mbps")),
                            MakeDataRateAccessor(&Hpcc::m_rateAi),
                            MakeDataRateChecker())
              .AddAttribute("StepReferenceRate",
                            "The line rate RateAi is given for: the step scales with the line "
                            "rate over this one, as run.py's 10 x bw / 25; 0: as given",
                            DataRateValue(DataRate("25Gbps")),
                            MakeDataRateAccessor(&Hpcc::m_stepReference),
                            MakeDataRateChecker())
              .AddAttribute("MinRate",
                            "The rate never falls below this floor (run.py MIN_RATE)",
                            DataRateValue(DataRate("1Gbps")),
                            MakeDataRateAccessor(&Hpcc::m_minRate),
                            MakeDataRateChecker())
              .AddAttribute("BaseRtt",
                            "T: the base round trip the window and the EWMA are measured in; "
                            "zero: FabricRtt, the fabric's longest (HPCC's GLOBAL_T)",
                            TimeValue(Time(0)),
                            MakeTimeAccessor(&Hpcc::m_baseRtt),
                            MakeTimeChecker(Time(0)))
              .AddAttribute("FastReact",
                            "Set the current rate at every ACK, not only once per round trip "
                            "(run.py FAST_REACT)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&Hpcc::m_fastReact),
                            MakeBooleanChecker())
              .AddAttribute("Window",
                            "Bound the unacknowledged bytes by rate x BaseRtt (run.py HAS_WIN "
                            "and VAR_WIN)",
                            BooleanValue(true),
                            MakeBooleanAccessor(&Hpcc::m_window),
                            MakeBooleanChecker())
              .AddTraceSource("Rate",
                              "Current (paced) rate changed, bit/s",
                              MakeTraceSourceAccessor(&Hpcc::m_rateTrace),
                              "ns3::Hpcc::RateTracedCallback");
    return tid;
}

Hpcc::Hpcc()
{
}

void
Hpcc::NotifyConstructionCompleted()
{
    if (m_baseRtt.IsZero())
    {
        m_baseRtt = GetFabricRtt();
    }
    NS_LOG_LOGIC(this << " T " << m_baseRtt.As(Time::US));
    RdmaCongestionControl::NotifyConstructionCompleted();
}

bool
Hpcc::UsesEcn() const
{
    return false;
}

void
Hpcc::SetLineRate(DataRate rate)
{
    m_lineBps = static_cast<double>(rate.GetBitRate());
    const double reference = static_cast<double>(m_stepReference.GetBitRate());
    m_rateAiBps = m_rateAi.GetBitRate() * (reference > 0 ? m_lineBps / reference : 1.0);
    m_rateBps = m_lineBps;
    m_referenceBps = m_lineBps;
    m_u = 1.0;
    NS_LOG_LOGIC(this << " line rate " << m_lineBps / 1e9 << " Gb/s, additive step "
                      << m_rateAiBps / 1e6 << " Mb/s, T " << m_baseRtt.As(Time::US));
}

void
Hpcc::ReceiveCnp()
{
}

void
Hpcc::BytesSent(uint32_t /* wireBytes */)
{
}

Time
Hpcc::PacingDelay(uint32_t wireBytes) const
{
    return Seconds(wireBytes * 8.0 / m_rateBps);
}

DataRate
Hpcc::GetRate() const
{
    return DataRate(static_cast<uint64_t>(m_rateBps));
}

DataRate
Hpcc::GetMinRate() const
{
    return m_minRate;
}

bool
Hpcc::UsesTelemetry() const
{
    return true;
}

uint64_t
Hpcc::GetWindowBytes() const
{
    if (!m_window)
    {
        return 0;
    }
    // VAR_WIN: the base-RTT window at line rate, scaled by the current rate.
    return std::max<uint64_t>(1, static_cast<uint64_t>(m_rateBps / 8.0 * m_baseRtt.GetSeconds()));
}

double
Hpcc::GetUtilisationEstimate() const
{
    return m_u;
}

double
Hpcc::GetReferenceRate() const
{
    return m_referenceBps;
}

Time
Hpcc::GetBaseRtt() const
{
    return m_baseRtt;
}

void
Hpcc::SetRate(double bps)
{
    bps = std::min(m_lineBps, std::max(bps, static_cast<double>(m_minRate.GetBitRate())));
    if (bps != m_rateBps)
    {
        double old = m_rateBps;
        m_rateBps = bps;
        m_rateTrace(old, bps);
        NotifyPacingChanged();
    }
}

void
Hpcc::ReceiveTelemetry(const IoamTraceHeader& trace, uint64_t ackedPsn, uint64_t nextPsn)
{
    const std::vector<IoamTraceHeader::NodeData>& nodes = trace.GetNodes();
    std::vector<Hop> hops(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
    {
        hops[i].departureNs
            = (int64_t{nodes[i].nanoseconds} + nodes[i].transitDelayNs) % NS_PER_SECOND;
        hops[i].txBytes = nodes[i].txBytes;
        hops[i].queueBytes = nodes[i].queueDepthBytes;
    }
    if (!m_started || hops.size() != m_hops.size())
    {
        // The first ACK (rdma-hw.cc:757-763), or a path of another length: records only.
        m_started = true;
        m_lastUpdatePsn = nextPsn;
        m_hops = std::move(hops);
        return;
    }
    // A full update once per round trip: the ACK covers a PSN sent after the last one.
    const bool full = ackedPsn + 1 > m_lastUpdatePsn;
    if (!full && !m_fastReact)
    {
        m_hops = std::move(hops);
        return;
    }
    const double t = m_baseRtt.GetSeconds();
    double maxU = 0;
    double tau = 0;
    bool updated = false;
    for (std::size_t i = 0; i < hops.size(); ++i)
    {
        int64_t dt = hops[i].departureNs - m_hops[i].departureNs;
        if (dt < 0)
        {
            dt += NS_PER_SECOND; // the nanoseconds field wrapped at a second
        }
        const double rateBps = nodes[i].linkRateMbps * 1e6;
        if (dt <= 0 || rateBps <= 0)
        {
            continue; // the same record twice (two ACKs of one packet's trace), or no rate
        }
        const double seconds = dt * 1e-9;
        const uint32_t sent = hops[i].txBytes - m_hops[i].txBytes; // modulo 2^32
        const double txRate = sent * 8.0 / seconds;
        // rdma-hw.cc:800: qLen x maxRate / (B x W) with W = maxRate x T.
        const double queue = std::min(hops[i].queueBytes, m_hops[i].queueBytes);
        const double u = txRate / rateBps + queue * 8.0 / (rateBps * t);
        updated = true;
        if (u > maxU)
        {
            maxU = u;
            tau = seconds;
        }
    }
    m_hops = std::move(hops);
    if (updated)
    {
        // rdma-hw.cc:826-842: the EWMA over T, then the window (here: rate) law.
        tau = std::min(tau, t);
        m_u = (m_u * (t - tau) + maxU * tau) / t;
        const double c = m_u / m_eta;
        double rate;
        uint32_t stage;
        if (c >= 1 || m_incStage >= m_maxStage)
        {
            rate = m_referenceBps / c + m_rateAiBps;
            stage = 0;
        }
        else
        {
            rate = m_referenceBps + m_rateAiBps;
            stage = m_incStage + 1;
        }
        rate = std::min(m_lineBps, std::max(rate, static_cast<double>(m_minRate.GetBitRate())));
        NS_LOG_LOGIC(this << (full ? " update" : " fast react") << ": max u " << maxU << ", U "
                          << m_u << ", rate " << m_rateBps / 1e9 << " -> " << rate / 1e9
                          << " Gb/s, stage " << stage);
        SetRate(rate);
        if (full)
        {
            m_referenceBps = rate;
            m_incStage = stage;
        }
    }
    if (full)
    {
        m_lastUpdatePsn = std::max(m_lastUpdatePsn, nextPsn);
    }
}

} // namespace ns3
