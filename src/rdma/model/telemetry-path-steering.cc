#include "rdma/model/telemetry-path-steering.h"

#include "core/model/mix64.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TelemetryPathSteering");
NS_OBJECT_ENSURE_REGISTERED(TelemetryPathSteering);
MCAST4AI_REGISTER_NAMED_TYPE(PathSteering::Registry(), "telemetry", TelemetryPathSteering);

namespace
{
/// Readings and unanswered probes kept per queue pair (the oldest go first).
constexpr std::size_t MAX_READINGS = 64;
constexpr std::size_t MAX_OUTSTANDING = 64;
} // namespace

TypeId
TelemetryPathSteering::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::TelemetryPathSteering")
              .SetParent<EndpointPathSteering>()
              .SetGroupName("Mcast4ai")
              .AddConstructor<TelemetryPathSteering>()
              .AddAttribute("NewPorts",
                            "Source ports never probed that a probing round tries",
                            UintegerValue(8),
                            MakeUintegerAccessor(&TelemetryPathSteering::m_newPorts),
                            MakeUintegerChecker<uint32_t>(1, 64))
              .AddAttribute("SurveyPorts",
                            "Ports besides the current one that every message start probes: "
                            "the known path read longest ago, or a new port",
                            UintegerValue(2),
                            MakeUintegerAccessor(&TelemetryPathSteering::m_surveyPorts),
                            MakeUintegerChecker<uint32_t>(0, 16))
              .AddAttribute("ProbeInterval",
                            "A probing round starts at most once per interval",
                            TimeValue(MicroSeconds(25)),
                            MakeTimeAccessor(&TelemetryPathSteering::m_probeInterval),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("ProbeLifetime",
                            "A reading older than this is not acted on",
                            TimeValue(MicroSeconds(50)),
                            MakeTimeAccessor(&TelemetryPathSteering::m_probeLifetime),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("FreeUtilisation",
                            "A path is free when no hop but the last is busier than this "
                            "(1 = line rate)",
                            DoubleValue(0.5),
                            MakeDoubleAccessor(&TelemetryPathSteering::m_freeUtilisation),
                            MakeDoubleChecker<double>(0, 1))
              .AddAttribute("LoadedQueueBytes",
                            "A hop whose egress queue is this deep loads its path",
                            UintegerValue(16384),
                            MakeUintegerAccessor(&TelemetryPathSteering::m_loadedQueueBytes),
                            MakeUintegerChecker<uint32_t>(1))
              .AddAttribute("ReorderBudget",
                            "A queue pair changes port without draining the old path when its "
                            "fresh reading shows less delay than this (the receiver's reorder "
                            "tolerance it relies on)",
                            TimeValue(MicroSeconds(80)),
                            MakeTimeAccessor(&TelemetryPathSteering::m_reorderBudget),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("DecisionInterval",
                            "A sender on a loaded path draws whether to leave it at most once "
                            "per interval",
                            TimeValue(MicroSeconds(60)),
                            MakeTimeAccessor(&TelemetryPathSteering::m_decisionInterval),
                            MakeTimeChecker(Seconds(0)))
              .AddAttribute("LineRateShare",
                            "A sender that gets this share of the line's payload rate over its "
                            "last messages is not on a loaded path",
                            DoubleValue(0.9),
                            MakeDoubleAccessor(&TelemetryPathSteering::m_lineRateShare),
                            MakeDoubleChecker<double>(0, 1))
              .AddTraceSource("Reading",
                              "A probe's acknowledgement gave a reading of a port's path "
                              "(port, path key, utilisation, queue bytes)",
                              MakeTraceSourceAccessor(&TelemetryPathSteering::m_readingTrace),
                              "ns3::TelemetryPathSteering::ReadingTracedCallback")
              .AddTraceSource("Claim",
                              "A claim's answer came back (the port claimed, and whether the "
                              "path was free for the taking)",
                              MakeTraceSourceAccessor(&TelemetryPathSteering::m_claimTrace),
                              "ns3::TelemetryPathSteering::ClaimTracedCallback");
    return tid;
}

const TelemetryPathSteering::Reading*
TelemetryPathSteering::Find(uint16_t port) const
{
    for (const Reading& r : m_readings)
    {
        if (r.port == port)
        {
            return &r;
        }
    }
    return nullptr;
}

const TelemetryPathSteering::Reading*
TelemetryPathSteering::CurrentReading(uint16_t current) const
{
    const Reading* r = Find(current);
    return r && Simulator::Now() - r->at <= m_probeLifetime && r->sent > m_currentSince ? r
                                                                                        : nullptr;
}

bool
TelemetryPathSteering::IsFree(const Reading& r) const
{
    return r.utilisation < m_freeUtilisation && r.queueBytes < m_loadedQueueBytes;
}

double
TelemetryPathSteering::WindowRate() const
{
    // Over the last DONE_WINDOW messages: PFC hands a shared line to its senders in turns,
    // so one message's rate says little.
    if (m_doneCount < DONE_WINDOW)
    {
        return 0;
    }
    const Done& oldest = m_done[m_doneCount % DONE_WINDOW];
    const Done& newest = m_done[(m_doneCount - 1) % DONE_WINDOW];
    uint64_t bytes = 0;
    for (uint32_t i = 1; i < DONE_WINDOW; ++i)
    {
        bytes += m_done[(m_doneCount + i) % DONE_WINDOW].bytes;
    }
    Time span = newest.at - oldest.at;
    return span.IsStrictlyPositive() ? bytes / span.GetSeconds() : 0;
}

bool
TelemetryPathSteering::AtLineRate() const
{
    return WindowRate() >= m_lineRateShare * GetPayloadRate();
}

bool
TelemetryPathSteering::Loaded(uint16_t current) const
{
    if (AtLineRate())
    {
        return false; // whatever stands in the queue, this path is this sender's
    }
    // CNPs are no test here: DCQCN cuts a rate and the marks stop, but the share stays low
    // long after a partner left; the queue tells a shared path from a cut one.
    const Reading* r = CurrentReading(current);
    return r && r->queueBytes >= m_loadedQueueBytes;
}

std::vector<const TelemetryPathSteering::Reading*>
TelemetryPathSteering::LatestPerPath(uint16_t current, bool freeOnly) const
{
    const Reading* cur = Find(current);
    Time now = Simulator::Now();
    std::vector<const Reading*> latest;
    for (const Reading& r : m_readings)
    {
        if (r.port == current || (cur && r.path == cur->path)
            || (freeOnly && (now - r.sent > m_probeLifetime || !IsFree(r) || Contested(r.path))))
        {
            continue;
        }
        auto same = std::find_if(latest.begin(),
                                 latest.end(),
                                 [&r](const Reading* l)
                                 {
                                     return l->path == r.path;
                                 });
        if (same == latest.end())
        {
            latest.push_back(&r);
        }
        else if ((*same)->at < r.at)
        {
            *same = &r;
        }
    }
    return latest;
}

bool
TelemetryPathSteering::WantsRepath(uint16_t current) const
{
    return m_target != 0 && m_target != current && MayRepath(current);
}

uint16_t
TelemetryPathSteering::Choose(uint16_t /* current */, bool& probe)
{
    uint16_t to = m_target;
    m_target = 0;
    probe = !HasEstimate(to);
    return to;
}

void
TelemetryPathSteering::Decide(uint16_t current)
{
    if (m_target)
    {
        // Chosen already: the queue pair may be draining its old path toward it, and a
        // choice undone then would have cost the drain for nothing.
        return;
    }
    if (!Loaded(current))
    {
        m_leaving = false;
        return;
    }
    Time now = Simulator::Now();
    if (!MayRepath(current) || m_leaving || (m_drew && now - m_lastDraw < m_decisionInterval))
    {
        // Not allowed to move yet (a choice made now would be acted on when the rate limit
        // ends, together with every other sender's on the path), already leaving, or a
        // partner that left may not show in this path's rate yet.
        return;
    }
    m_drew = true;
    m_lastDraw = now;
    const Reading* r = CurrentReading(current); // Loaded() found one
    if (r->sharers >= 2)
    {
        // The switch told the sharers apart: the lowest-ranked keeps the path, the rest go,
        // with no draw to agree by chance.
        if (r->rank == 0)
        {
            NS_LOG_LOGIC("port " << current << " shared by " << r->sharers
                                 << " at its busiest hop, rank 0 here: stays");
            return;
        }
        NS_LOG_LOGIC("port " << current << " shared by " << r->sharers << ", rank " << r->rank
                             << " here: leaves");
    }
    else
    {
        double rate = WindowRate();
        uint32_t sharing
            = rate > 0 ? static_cast<uint32_t>(std::lround(GetPayloadRate() / rate)) : 2;
        sharing = std::clamp<uint32_t>(sharing, 1, 16);
        if (sharing > 1 && DrawBelow(sharing) != 0)
        {
            NS_LOG_LOGIC("port " << current << " loaded, shared by about " << sharing
                                 << ": stays this time");
            return;
        }
    }
    m_leaving = true;
    PickTarget(current);
}

bool
TelemetryPathSteering::Contested(uint64_t path) const
{
    Time now = Simulator::Now();
    return std::any_of(m_contested.begin(),
                       m_contested.end(),
                       [&](const Contest& c)
                       {
                           return c.path == path && now - c.at <= m_probeLifetime;
                       });
}

void
TelemetryPathSteering::PickTarget(uint16_t current)
{
    Time now = Simulator::Now();
    if (m_claiming && now - m_claimSent <= m_probeLifetime)
    {
        return; // a claim is out: its answer decides
    }
    m_claiming = false;
    std::vector<const Reading*> free = LatestPerPath(current, true);
    if (free.empty())
    {
        ProbeRound(current); // nothing fresh to go to: choose when the answers are in
        return;
    }
    // The newest reading, the likeliest to be still true: one taken as the flows started shows
    // paths free that their data took since (a uniform draw among the free paths, tried,
    // lost more claims that way). Senders leaving at once may pick the same path: they claim
    // it first, so that the switch where they would meet orders them, and move only if no
    // one else is there.
    const Reading* pick = *std::max_element(free.begin(),
                                            free.end(),
                                            [](const Reading* a, const Reading* b)
                                            {
                                                return a->sent < b->sent;
                                            });
    m_claiming = true;
    m_claimSent = now;
    m_claimPath = pick->path;
    m_claimSharers = pick->hopSharers;
    // Per hop, the fewest sharers any fresh reading of the path named: a reading taken after
    // another sender's claim names that claim, and would let a second claim through.
    for (const Reading& other : m_readings)
    {
        if (other.path == m_claimPath && now - other.sent <= m_probeLifetime
            && other.hopSharers.size() == m_claimSharers.size())
        {
            for (std::size_t i = 0; i < other.hopSharers.size(); ++i)
            {
                m_claimSharers[i] = std::min(m_claimSharers[i], other.hopSharers[i]);
            }
        }
    }
    m_claimId = Probe(pick->port, true);
    ++m_claims;
    NS_LOG_LOGIC("port " << current << " loaded: claims " << pick->port << ", one of "
                         << free.size() << " free paths");
}

void
TelemetryPathSteering::ClaimAnswered(const Reading& r)
{
    m_claiming = false;
    // Compared hop by hop with what the path showed before the claim, not with one sharer: on
    // a fabric where flows from other ingress ports cross a free path's hops (a fat-tree's
    // aggregation and core), a path that no one new has taken still names them.
    bool won = IsFree(r) && r.path == m_claimPath && r.hopSharers.size() == m_claimSharers.size()
               && std::equal(r.hopSharers.begin(),
                             r.hopSharers.end(),
                             m_claimSharers.begin(),
                             [](uint8_t now, uint8_t before)
                             {
                                 return now <= before;
                             });
    m_claimTrace(r.port, won);
    if (!m_leaving || m_target)
    {
        return; // no longer leaving (the path came back): the claim lapses at the switch
    }
    if (won)
    {
        m_target = r.port;
        m_leaving = false;
        NS_LOG_LOGIC("claim on port " << r.port << " won: moving there");
        return;
    }
    // Another sender's data or claim is there: pass the path over while it is contested.
    ++m_claimsLost;
    m_contested.erase(std::remove_if(m_contested.begin(),
                                     m_contested.end(),
                                     [this](const Contest& c)
                                     {
                                         return Simulator::Now() - c.at > m_probeLifetime;
                                     }),
                      m_contested.end());
    m_contested.push_back(Contest{r.path, Simulator::Now()});
    NS_LOG_LOGIC("claim on port " << r.port << " lost (" << r.sharers << " sharers, utilisation "
                                  << r.utilisation << "): another path");
    PickTarget(GetCurrent());
}

uint32_t
TelemetryPathSteering::Probe(uint16_t port, bool claim)
{
    if (m_outstanding.size() >= MAX_OUTSTANDING)
    {
        m_outstanding.erase(m_outstanding.begin());
    }
    uint32_t id = m_nextProbeId++ & 0xFFFFFF; // the BTH PSN carries it
    m_outstanding.push_back(Outstanding{id, port, Simulator::Now()});
    ++m_probesSent;
    SendProbe(port, id, claim);
    return id;
}

void
TelemetryPathSteering::Survey(uint16_t current)
{
    // The known path read longest ago, unless every one was read recently: then a new port.
    const Reading* oldest = nullptr;
    for (const Reading* r : LatestPerPath(current, false))
    {
        oldest = !oldest || r->at < oldest->at ? r : oldest;
    }
    if (oldest && Simulator::Now() - oldest->at > m_probeLifetime / 2)
    {
        Probe(oldest->port);
        return;
    }
    uint16_t port = DrawNewPort(current);
    if (!Find(port))
    {
        Probe(port);
    }
}

void
TelemetryPathSteering::ProbeRound(uint16_t current)
{
    Time now = Simulator::Now();
    if (!CanProbe() || (m_probedRound && now - m_lastRound < m_probeInterval))
    {
        return;
    }
    m_probedRound = true;
    m_lastRound = now;
    Probe(current);
    std::vector<const Reading*> known = LatestPerPath(current, false);
    for (const Reading* r : known)
    {
        Probe(r->port);
    }
    for (uint32_t i = 0; i < m_newPorts; ++i)
    {
        uint16_t port = DrawNewPort(current);
        if (!Find(port))
        {
            Probe(port);
        }
    }
    NS_LOG_LOGIC("probing round from port " << current << ": " << known.size() << " known paths, "
                                            << m_newPorts << " new ports");
}

uint16_t
TelemetryPathSteering::NextPort(uint16_t current)
{
    uint16_t next = EndpointPathSteering::NextPort(current);
    if (next != current || !m_started)
    {
        m_started = true;
        m_currentSince = Simulator::Now();
        m_doneCount = 0;
        m_leaving = false;
        m_claiming = false;
    }
    if (CanProbe())
    {
        // Every message probes the path it takes (its queue as the message meets it) and
        // SurveyPorts others: some 170 wire bytes a probe.
        Probe(next);
        for (uint32_t i = 0; i < m_surveyPorts; ++i)
        {
            Survey(next);
        }
    }
    return next;
}

void
TelemetryPathSteering::MessageDone(
    uint16_t port, uint64_t bytes, Time firstSent, Time lastSent, uint32_t cnps)
{
    EndpointPathSteering::MessageDone(port, bytes, firstSent, lastSent, cnps);
    if (port == GetCurrent())
    {
        m_done[m_doneCount % DONE_WINDOW] = {Simulator::Now(), bytes};
        ++m_doneCount;
        Decide(port);
    }
}

void
TelemetryPathSteering::ProbeAnswered(uint32_t probeId, const IoamTraceHeader& trace)
{
    auto it = std::find_if(m_outstanding.begin(),
                           m_outstanding.end(),
                           [probeId](const Outstanding& o)
                           {
                               return o.id == probeId;
                           });
    const std::vector<IoamTraceHeader::NodeData>& nodes = trace.GetNodes();
    if (it == m_outstanding.end() || nodes.empty())
    {
        return; // forgotten, or a trace with nothing in it
    }
    Reading r;
    r.port = it->port;
    r.sent = it->sent;
    r.at = Simulator::Now();
    m_outstanding.erase(it);
    ++m_probesAnswered;
    for (std::size_t i = 0; i < nodes.size(); ++i)
    {
        r.path = Mix64(r.path ^ ((uint64_t{nodes[i].nodeId} << 16) | nodes[i].egressIf));
        if (i + 1 < nodes.size() || nodes.size() == 1)
        {
            r.utilisation = std::max(
                r.utilisation, double(nodes[i].utilisation) / IoamTraceHeader::UTILISATION_ONE);
            r.queueBytes = std::max(r.queueBytes, nodes[i].queueDepthBytes);
            r.hopSharers.push_back(nodes[i].sharers);
            if (nodes[i].sharers > r.sharers)
            {
                r.sharers = nodes[i].sharers;
                r.rank = nodes[i].rank;
            }
        }
        r.delay += NanoSeconds(nodes[i].transitDelayNs & ~IoamTraceHeader::TRANSIT_OVERFLOW);
    }
    auto old = std::find_if(m_readings.begin(),
                            m_readings.end(),
                            [&r](const Reading& x)
                            {
                                return x.port == r.port;
                            });
    if (old != m_readings.end())
    {
        *old = r;
    }
    else
    {
        if (m_readings.size() >= MAX_READINGS)
        {
            m_readings.erase(std::min_element(m_readings.begin(),
                                              m_readings.end(),
                                              [](const Reading& a, const Reading& b)
                                              {
                                                  return a.at < b.at;
                                              }));
        }
        m_readings.push_back(r);
    }
    m_readingTrace(r.port, r.path, r.utilisation, r.queueBytes);
    bool claim = m_claiming && probeId == m_claimId;
    NS_LOG_LOGIC("port " << r.port << ": path " << r.path << " (first egress " << nodes[0].egressIf
                         << "), utilisation " << r.utilisation << ", queue " << r.queueBytes
                         << " B, sharers " << r.sharers << " (rank " << r.rank << "), delay "
                         << r.delay.GetMicroSeconds() << " us");
    if (claim)
    {
        ClaimAnswered(r);
    }
    else if (r.port == GetCurrent())
    {
        Decide(r.port); // its path as the message that just started meets it
    }
    else if (m_leaving && !m_target)
    {
        PickTarget(GetCurrent()); // an answer of the round a decision to leave started
    }
}

bool
TelemetryPathSteering::DrainsBeforeRepath() const
{
    if (!PathSteering::DrainsBeforeRepath())
    {
        return false;
    }
    const Reading* r = CurrentReading(GetCurrent());
    return !(r && r->delay < m_reorderBudget);
}

uint64_t
TelemetryPathSteering::GetProbesSent() const
{
    return m_probesSent;
}

uint64_t
TelemetryPathSteering::GetProbesAnswered() const
{
    return m_probesAnswered;
}

bool
TelemetryPathSteering::UsesTelemetry() const
{
    return true;
}

void
TelemetryPathSteering::AddCounters(CounterSet& counters) const
{
    EndpointPathSteering::AddCounters(counters);
    counters.Add("telemetry.claims", GetClaims());
    counters.Add("telemetry.claims_lost", GetClaimsLost());
}

uint64_t
TelemetryPathSteering::GetClaims() const
{
    return m_claims;
}

uint64_t
TelemetryPathSteering::GetClaimsLost() const
{
    return m_claimsLost;
}

} // namespace ns3
