#include "rdma/model/path-steering.h"

#include "core/model/mix64.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PathSteering");
NS_OBJECT_ENSURE_REGISTERED(PathSteering);

TypeId
PathSteering::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::PathSteering")
              .SetParent<Object>()
              .SetGroupName("Mcast4ai")
              .AddAttribute("MinRepathInterval",
                            "A queue pair changes its source port at most once per interval",
                            TimeValue(MicroSeconds(100)),
                            MakeTimeAccessor(&PathSteering::m_minRepathInterval),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("MessageBytes",
                            "Transfers larger than this are posted as messages of this size, "
                            "so that the path can change between them (0: as posted)",
                            UintegerValue(262144),
                            MakeUintegerAccessor(&PathSteering::m_messageBytes),
                            MakeUintegerChecker<uint64_t>())
              .AddAttribute("DrainBeforeRepath",
                            "A queue pair about to change port waits until everything it sent "
                            "on the old one is acknowledged: the new path's packets cannot "
                            "overtake the old one's (no reordering, as flowlet switching), for "
                            "an idle gap of about a round trip",
                            BooleanValue(true),
                            MakeBooleanAccessor(&PathSteering::m_drain),
                            MakeBooleanChecker())
              .AddTraceSource("Repath",
                              "The queue pair changed its source port (from, to)",
                              MakeTraceSourceAccessor(&PathSteering::m_repathTrace),
                              "ns3::PathSteering::RepathTracedCallback");
    return tid;
}

NamedTypeRegistry&
PathSteering::Registry()
{
    static NamedTypeRegistry registry("path-steering model", PathSteering::GetTypeId());
    return registry;
}

void
PathSteering::Setup(uint64_t seed, double payloadRate, bool cnpsSignal)
{
    m_seed = seed;
    m_payloadRate = payloadRate;
    m_congestionControl = cnpsSignal;
}

void
PathSteering::SetProbeSender(ProbeSender sender)
{
    m_probeSender = sender;
}

void
PathSteering::ProbeAnswered(uint32_t /* probeId */, const IoamTraceHeader& /* trace */)
{
}

bool
PathSteering::CanProbe() const
{
    return !m_probeSender.IsNull();
}

void
PathSteering::SendProbe(uint16_t port, uint32_t probeId, bool claim)
{
    NS_LOG_LOGIC("telemetry " << (claim ? "claim " : "probe ") << probeId << " on port " << port);
    m_probeSender(port, probeId, claim);
}

void
PathSteering::AddCounters(CounterSet& counters) const
{
    counters.Add("steering.repaths", m_repaths);
    counters.Add("steering.probes", m_probes);
}

uint64_t
PathSteering::GetRepaths() const
{
    return m_repaths;
}

uint64_t
PathSteering::GetProbes() const
{
    return m_probes;
}

bool
PathSteering::UsesTelemetry() const
{
    return false;
}

uint64_t
PathSteering::GetMessageBytes() const
{
    return m_messageBytes;
}

uint32_t
PathSteering::DrawBelow(uint32_t n)
{
    return static_cast<uint32_t>(Mix64(m_seed ^ Mix64(++m_draws)) % n);
}

void
PathSteering::Repathed(uint16_t from, uint16_t to, bool probe)
{
    NS_LOG_LOGIC((probe ? "probe" : "repath") << " from port " << from << " to " << to);
    ++m_repaths;
    m_probes += probe;
    m_lastRepath = Simulator::Now();
    m_repathed = true;
    m_repathTrace(from, to);
}

} // namespace ns3
