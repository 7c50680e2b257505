#include "rdma/model/dcqcn.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Dcqcn");
NS_OBJECT_ENSURE_REGISTERED(Dcqcn);
MCAST4AI_REGISTER_NAMED_TYPE(RdmaCongestionControl::Registry(), "dcqcn", Dcqcn);

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
                            "Alpha decays by (1 - g) every period without a CNP (K)",
                            TimeValue(MicroSeconds(55)),
                            MakeTimeAccessor(&Dcqcn::m_alphaPeriod),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("RateIncreasePeriod",
                            "Rate-increase timer period (T)",
                            TimeValue(MicroSeconds(55)),
                            MakeTimeAccessor(&Dcqcn::m_increasePeriod),
                            MakeTimeChecker(NanoSeconds(1)))
              .AddAttribute("ByteCounter",
                            "Bytes sent per byte-counter stage (B)",
                            UintegerValue(10 * 1024 * 1024),
                            MakeUintegerAccessor(&Dcqcn::m_byteCounter),
                            MakeUintegerChecker<uint64_t>(1))
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
              .AddTraceSource("Rate",
                              "Current (paced) rate changed, bit/s",
                              MakeTraceSourceAccessor(&Dcqcn::m_rateTrace),
                              "ns3::Dcqcn::RateTracedCallback")
              .AddTraceSource("TargetRate",
                              "Target rate changed, bit/s",
                              MakeTraceSourceAccessor(&Dcqcn::m_targetTrace),
                              "ns3::Dcqcn::RateTracedCallback")
              .AddTraceSource("Alpha",
                              "Alpha changed at a CNP (old, new)",
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
    Object::DoDispose();
}

void
Dcqcn::SetLineRate(DataRate rate)
{
    m_lineBps = static_cast<double>(rate.GetBitRate());
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
        m_rateTrace(m_rateBps, bps);
        m_rateBps = bps;
    }
}

void
Dcqcn::SetTarget(double bps)
{
    bps = std::min(m_lineBps, std::max(bps, static_cast<double>(m_minRate.GetBitRate())));
    if (bps != m_targetBps)
    {
        m_targetTrace(m_targetBps, bps);
        m_targetBps = bps;
    }
}

void
Dcqcn::DecayAlpha() const
{
    Time now = Simulator::Now();
    int64_t periods = (now - m_alphaUpdated).GetInteger() / m_alphaPeriod.GetInteger();
    if (periods > 0)
    {
        m_alpha *= std::pow(1.0 - m_g, static_cast<double>(periods));
        m_alphaUpdated += m_alphaPeriod * periods;
    }
}

void
Dcqcn::ReceiveCnp()
{
    ++m_cnps;
    m_cnpTrace();
    DecayAlpha();
    if (m_clampTarget || m_increasedSinceCnp)
    {
        SetTarget(m_rateBps);
    }
    m_increasedSinceCnp = false;
    if (!m_cnpSeen && m_rateOnFirstCnp.GetBitRate() > 0)
    {
        SetRate(static_cast<double>(m_rateOnFirstCnp.GetBitRate()));
    }
    else
    {
        SetRate(m_rateBps * (1.0 - m_alpha / 2));
    }
    m_cnpSeen = true;
    double old = m_alpha;
    m_alpha = (1.0 - m_g) * m_alpha + m_g;
    m_alphaTrace(old, m_alpha);
    // The alpha timer and both increase counters restart at every CNP.
    m_alphaUpdated = Simulator::Now();
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
    if (m_rateBps >= m_lineBps)
    {
        return; // nothing to recover
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
    m_increasedSinceCnp = true;
    uint32_t f = m_fastRecoverySteps;
    uint32_t hi = std::max(m_timerStage, m_byteStage);
    uint32_t lo = std::min(m_timerStage, m_byteStage);
    if (hi < f)
    {
        m_lastPhase = FAST_RECOVERY; // the target stays: climb back halfway towards it
    }
    else if (lo < f)
    {
        m_lastPhase = ADDITIVE_INCREASE;
        SetTarget(m_targetBps + static_cast<double>(m_rateAi.GetBitRate()));
    }
    else
    {
        m_lastPhase = HYPER_INCREASE;
        double i = lo - f + 1;
        SetTarget(m_targetBps + i * static_cast<double>(m_rateHai.GetBitRate()));
    }
    SetRate((m_targetBps + m_rateBps) / 2);
}

DataRate
Dcqcn::GetRate() const
{
    return DataRate(static_cast<uint64_t>(m_rateBps));
}

DataRate
Dcqcn::GetTargetRate() const
{
    return DataRate(static_cast<uint64_t>(m_targetBps));
}

DataRate
Dcqcn::GetLineRate() const
{
    return DataRate(static_cast<uint64_t>(m_lineBps));
}

double
Dcqcn::GetAlpha() const
{
    DecayAlpha();
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

Time
Dcqcn::PacingDelay(uint32_t wireBytes) const
{
    return PicoSeconds(std::llround(wireBytes * 8e12 / m_rateBps));
}

} // namespace ns3
