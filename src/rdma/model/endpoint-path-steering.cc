#include "rdma/model/endpoint-path-steering.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EndpointPathSteering");
NS_OBJECT_ENSURE_REGISTERED(EndpointPathSteering);
MCAST4AI_REGISTER_NAMED_TYPE(PathSteering::Registry(), "endpoint", EndpointPathSteering);

namespace
{
/// Source ports a probe draws from: the IANA ephemeral range.
constexpr uint32_t PROBE_BASE = 49152;
constexpr uint32_t PROBE_RANGE = 65536 - PROBE_BASE;
} // namespace

TypeId
EndpointPathSteering::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::EndpointPathSteering")
              .SetParent<PathSteering>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<EndpointPathSteering>()
              .AddAttribute("RateThreshold",
                            "Without DCQCN, a path delivering below this fraction of the line's "
                            "payload rate is loaded",
                            DoubleValue(0.9),
                            MakeDoubleAccessor(&EndpointPathSteering::m_rateThreshold),
                            MakeDoubleChecker<double>(0, 1))
              .AddAttribute("Gain",
                            "Weight of a new message in a port's estimates (EWMA)",
                            DoubleValue(0.5),
                            MakeDoubleAccessor(&EndpointPathSteering::m_gain),
                            MakeDoubleChecker<double>(0, 1))
              .AddAttribute("LoadedMessages",
                            "A loaded port is left only if its last this many messages were "
                            "loaded too (the estimate alone still remembers a collision that "
                            "has gone)",
                            UintegerValue(1),
                            MakeUintegerAccessor(&EndpointPathSteering::m_loadedMessages),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("MaxPorts",
                            "Source ports a queue pair keeps estimates for (the slowest known "
                            "one is forgotten to make room)",
                            UintegerValue(16),
                            MakeUintegerAccessor(&EndpointPathSteering::m_maxPorts),
                            MakeUintegerChecker<uint32_t>(2));
    return tid;
}

EndpointPathSteering::Estimate*
EndpointPathSteering::Find(uint16_t port)
{
    for (Estimate& e : m_estimates)
    {
        if (e.port == port)
        {
            return &e;
        }
    }
    return nullptr;
}

const EndpointPathSteering::Estimate*
EndpointPathSteering::Find(uint16_t port) const
{
    return const_cast<EndpointPathSteering*>(this)->Find(port);
}

bool
EndpointPathSteering::HasEstimate(uint16_t port) const
{
    return Find(port) != nullptr;
}

double
EndpointPathSteering::CurrentRate(uint16_t port) const
{
    const Estimate* e = Find(port);
    return e ? e->rate : 0.0;
}

uint16_t
EndpointPathSteering::GetCurrent() const
{
    return m_current;
}

uint32_t
EndpointPathSteering::GetMaxPorts() const
{
    return m_maxPorts;
}

void
EndpointPathSteering::MessageDone(
    uint16_t port, uint64_t bytes, Time firstSent, Time lastSent, uint32_t cnps)
{
    Time now = Simulator::Now();
    // Messages queue behind each other on one queue pair: a message's own time starts when
    // the previous one was done, unless it was sent later than that.
    Time busy = now - std::max(firstSent, m_lastDone);
    m_lastDone = now;
    double rttUs = (now - lastSent).GetSeconds() * 1e6;
    double rate = busy.IsStrictlyPositive() ? bytes / busy.GetSeconds() : 0;
    Estimate* e = Find(port);
    if (!e)
    {
        if (m_estimates.size() >= m_maxPorts)
        {
            // Forget the slowest port other than the current one.
            auto worst = m_estimates.end();
            for (auto it = m_estimates.begin(); it != m_estimates.end(); ++it)
            {
                if (it->port != m_current
                    && (worst == m_estimates.end() || it->rttUs > worst->rttUs))
                {
                    worst = it;
                }
            }
            m_estimates.erase(worst);
        }
        m_estimates.push_back(Estimate{port, 0, 0, 0, 0});
        e = &m_estimates.back();
    }
    e->rttUs = e->samples == 0 ? rttUs : (1 - m_gain) * e->rttUs + m_gain * rttUs;
    e->rate = e->samples == 0 ? rate : (1 - m_gain) * e->rate + m_gain * rate;
    double marked = cnps > 0 ? 1.0 : 0.0;
    e->marked = e->samples == 0 ? marked : (1 - m_gain) * e->marked + m_gain * marked;
    ++e->samples;
    bool loaded = m_congestionControl ? cnps > 0 : rate < m_rateThreshold * m_payloadRate;
    if (port == m_current)
    {
        ++m_freshSamples;
        m_loadedStreak = loaded ? m_loadedStreak + 1 : 0;
    }
    NS_LOG_LOGIC("port " << port << ": RTT " << rttUs << " us (estimate " << e->rttUs << "), "
                         << e->rate * 8e-9 << " Gb/s, " << cnps << " CNPs");
}

bool
EndpointPathSteering::IsLoaded(const Estimate& e) const
{
    return m_congestionControl ? e.marked >= 0.5 : e.rate < m_rateThreshold * m_payloadRate;
}

bool
EndpointPathSteering::MayRepath(uint16_t current) const
{
    // Nothing learnt about this path since choosing it, or rate-limited.
    return current == m_current && m_freshSamples > 0
           && !(m_repathed && Simulator::Now() - m_lastRepath < m_minRepathInterval);
}

bool
EndpointPathSteering::CurrentLoaded(uint16_t current) const
{
    const Estimate* cur = Find(current);
    return cur && IsLoaded(*cur) && m_loadedStreak >= m_loadedMessages;
}

bool
EndpointPathSteering::WantsRepath(uint16_t current) const
{
    return MayRepath(current) && CurrentLoaded(current);
}

uint16_t
EndpointPathSteering::DrawNewPort(uint16_t current)
{
    uint16_t to;
    do
    {
        to = static_cast<uint16_t>(PROBE_BASE + DrawBelow(PROBE_RANGE));
    } while (to == current || Find(to));
    return to;
}

uint16_t
EndpointPathSteering::Choose(uint16_t current, bool& probe)
{
    const Estimate* best = nullptr;
    for (const Estimate& e : m_estimates)
    {
        if (e.samples > 0 && !IsLoaded(e) && (!best || e.rate > best->rate))
        {
            best = &e;
        }
    }
    probe = !best;
    return best ? best->port : DrawNewPort(current);
}

uint16_t
EndpointPathSteering::NextPort(uint16_t current)
{
    if (current != m_current)
    {
        m_current = current; // the first message, or a port set from outside
        m_freshSamples = 0;
    }
    if (!WantsRepath(current))
    {
        return current;
    }
    bool probe = false;
    uint16_t to = Choose(current, probe);
    Repathed(current, to, probe);
    m_current = to;
    m_freshSamples = 0;
    m_loadedStreak = 0;
    return to;
}

} // namespace ns3
