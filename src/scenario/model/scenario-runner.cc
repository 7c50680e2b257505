#include "scenario/model/scenario-runner.h"

#include "core/model/counter-set.h"
#include "core/model/fabric-simulator-impl.h"
#include "core/model/ns3-compat.h"
#include "core/model/process-ranks.h"
#include "core/model/quad-heap-scheduler.h"
#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "rdma/model/rdma-congestion-control.h"
#include "scenario/model/rank-completion.h"
#include "scenario/model/scenario-error.h"
#include "workload/model/straggler-type-registry.h"
#include "workload/model/workload-type-registry.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <sys/resource.h>

// Generated at build time by cmake/revision.cmake (the waf build defines it instead).
#if __has_include("mcast4ai-revision.h")
#include "mcast4ai-revision.h"
#endif
#ifndef MCAST4AI_REVISION
#define MCAST4AI_REVISION "unknown"
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioRunner");

namespace
{
double
WallNow()
{
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

/// How often the `limits` budgets are checked, in simulated time (made when used: a static
/// Time would precede the switch to picoseconds).
Time
BudgetCheckInterval()
{
    return MicroSeconds(10);
}

/**
 * MCAST4AI_REMOTE_ORDER=arrival: order frames from other processes as ns-3's engine hands them
 * in (when the message came), not as one process would. Only for test/mpi/equality.sh, to show
 * that its check rejects a run without CausalTies.
 */
bool
ArrivalOrderForced()
{
    const char* order = std::getenv("MCAST4AI_REMOTE_ORDER");
    return order && std::string(order) == "arrival";
}

/**
 * MCAST4AI_P2MP_MESSAGES=off: P2MP channels and the group controller keep to their own process
 * (no RankMessenger), as a distributed run without them would. Only for test/mpi/equality.sh,
 * to show that its broadcast check rejects that run.
 */
bool
P2mpMessagesOff()
{
    const char* off = std::getenv("MCAST4AI_P2MP_MESSAGES");
    return off && std::string(off) == "off";
}

/**
 * MCAST4AI_BARRIER=heard: a collective's ranks start an iteration compute_us after their
 * process heard that the last one completed (CollectiveSpread::HeardBarrier). Only for
 * test/mpi/equality.sh, to show that its collective check rejects that run.
 */
bool
HeardBarrier()
{
    const char* b = std::getenv("MCAST4AI_BARRIER");
    return b && std::string(b) == "heard";
}

double
PeakRssMb()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0; // kilobytes on Linux
}

void
StopSimulation()
{
    Simulator::Stop();
}

nlohmann::json
DistributionJson(const Metrics::Distribution& d)
{
    return {{"mean", d.mean},
            {"p50", d.p50},
            {"p95", d.p95},
            {"p99", d.p99},
            {"p999", d.p999},
            {"max", d.max}};
}
} // namespace

ScenarioRunner::ScenarioRunner(const ScenarioConfig& config)
    : ScenarioRunner(config, Options())
{
}

ScenarioRunner::ScenarioRunner(const ScenarioConfig& config, Options options)
    : m_config(config),
      m_options(options)
{
    UsePicoseconds();
}

void
ScenarioRunner::UsePicoseconds()
{
    if (Time::GetResolution() != Time::PS)
    {
        Time::SetResolution(Time::PS);
    }
}

ScenarioRunner::~ScenarioRunner()
{
    m_workloads.clear();
    m_stragglers.clear();
    Simulator::Destroy();
    m_rateTrace.reset(); // after the QPs that call it are gone
    m_steeringTrace.reset();
    m_packetTrace.reset();
}

void
ScenarioRunner::Build()
{
    // Fixed seed, run number = scenario seed: the ns-3 way to get independent replications.
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(m_config.seed);
    // A run spread over processes (mpirun) keeps the engine ProcessRanks::Init bound, ns-3's
    // DistributedSimulatorImpl; the engine is made at the first Simulator call: the next line,
    // unless one came first.
    m_ranks = ProcessRanks::GetSize();
    if (m_ranks == 1 && !m_options.engine.empty())
    {
        GlobalValue::Bind("SimulatorImplementationType", StringValue(m_options.engine));
    }
    // Every ns-3 scheduler runs events in the same (time, uid) order, so this choice changes
    // speed only; see QuadHeapScheduler for why it beats the default map.
    ObjectFactory scheduler;
    scheduler.SetTypeId(QuadHeapScheduler::GetTypeId());
    // Spread over processes, frames from other processes take the places one process gives
    // them among events of the same instant (FabricRemoteChannel).
    scheduler.Set("CausalTies", BooleanValue(m_ranks > 1 && !ArrivalOrderForced()));
    Simulator::SetScheduler(scheduler);
    m_fabric = std::make_unique<TopologyBuilder>(m_config);
    if (m_ranks > 1)
    {
        RefuseSpread();
        m_fabric->SetRanks(m_ranks);
    }
    m_fabric->Build();
    m_fabric->AssignStreams(0);
    if (m_config.output.pcap)
    {
        m_fabric->EnablePcap(m_config.output.dir);
    }
    m_metrics = CreateObject<Metrics>();
    // Stragglers first: the workloads ask them for compute times, and their cross-traffic
    // queue pairs exist before the workloads' (so adding a workload moves none of theirs).
    m_stragglerLog = CreateObject<StragglerLog>();
    Straggler::Context sc;
    for (uint32_t h = 0; h < m_fabric->GetHostCount(); ++h)
    {
        sc.nics.push_back(m_fabric->GetNic(h));
        sc.torPorts.push_back(m_fabric->GetLeafPortToHost(h));
    }
    for (const WorkloadConfig& w : m_config.workloads)
    {
        sc.workloads.push_back(w.label);
    }
    sc.log = m_stragglerLog;
    sc.seed = m_config.seed;
    for (uint32_t i = 0; i < m_config.stragglers.size(); ++i)
    {
        const StragglerConfig& s = m_config.stragglers[i];
        const SchemaTypeRegistry::Entry* type = StragglerTypeRegistry::Instance().Find(s.type);
        NS_ABORT_MSG_IF(!type || type->tid == TypeId(),
                        "straggler type '" << s.type << "' has keys but no Straggler class");
        ObjectFactory factory(type->tid.GetName());
        Ptr<Straggler> straggler = factory.Create<Straggler>();
        sc.index = i;
        sc.owner = OwnerOf(m_config.workloads.size() + i);
        if (const std::string no = straggler->MultiPlaneRefusal();
            !no.empty() && m_fabric->GetGraph().PlaneCount() > 1)
        {
            throw ScenarioError(m_config.file,
                                "stragglers[" + std::to_string(i) + "].type",
                                "'" + s.type + "' on a multi-plane topology: " + no);
        }
        straggler->Install(s, sc);
        m_stragglers.push_back(straggler);
    }
    Workload::Context context;
    context.stragglers = m_stragglers;
    for (uint32_t h = 0; h < m_fabric->GetHostCount(); ++h)
    {
        context.nics.push_back(m_fabric->GetNic(h));
    }
    context.delivery = m_fabric->GetDelivery();
    context.metrics = m_metrics;
    context.seed = m_config.seed;
    context.planes = m_fabric->GetGraph().PlaneCount();
    context.spread = m_config.topology.spread;
    if (m_ranks > 1)
    {
        const FabricPartition& part = m_fabric->GetPartition();
        for (uint32_t h = 0; h < m_fabric->GetHostCount(); ++h)
        {
            context.localHosts.push_back(part.RankOf(h) == ProcessRanks::GetRank());
        }
        // Rows several processes fill are merged in the order their links were first used.
        m_fabric->GetTrafficLedger()->GetOpLedger()->KeepTimes();
        // What one process decides and another must know travels as messages: before the
        // workloads, whose P2MP channels take their handlers.
        m_messenger = CreateObject<RankMessenger>();
        m_messenger->Install(Mailboxes(), Lookahead());
        context.messenger = m_messenger;
        if (HeardBarrier())
        {
            Config::SetDefault("ns3::CollectiveSpread::HeardBarrier", BooleanValue(true));
        }
        if (!P2mpMessagesOff())
        {
            m_fabric->GetDelivery()->SetMessenger(m_messenger);
        }
    }
    for (uint32_t i = 0; i < m_config.workloads.size(); ++i)
    {
        const WorkloadConfig& w = m_config.workloads[i];
        // Its P2MP frames count apart in ops.csv when they are a source of their own.
        const bool p2mpApart
            = OwnerOf(i) != TrafficLedger::NO_OWNER && P2mpOwnerOf(i) != OwnerOf(i);
        if (OpLedger* ops = m_fabric->GetTrafficLedger()->GetOpLedger(); ops && p2mpApart)
        {
            ops->SetP2mpOwner(P2mpOwnerOf(i));
        }
        m_metrics->AddWorkload({w.label, w.type, EnumName(w.pattern), p2mpApart});
        // The type's own class, by the name the scenario gives it: the runner knows none.
        const WorkloadTypeRegistry::Entry* type = WorkloadTypeRegistry::Find(w.type);
        NS_ABORT_MSG_IF(!type || type->tid == TypeId(),
                        "workload type '" << w.type << "' has keys but no Workload class");
        ObjectFactory factory(type->tid.GetName());
        Ptr<Workload> wl = factory.Create<Workload>();
        if (m_config.output.timeline)
        {
            if (!m_timeline)
            {
                m_timeline
                    = std::make_unique<TimelineWriter>(m_config.output.dir + "/timeline.json",
                                                       m_config.output.timelineMaxMb * 1000000,
                                                       *m_fabric,
                                                       m_metrics);
            }
            m_timeline->Attach(wl); // before Install: a workload may pass it on (IsTimed)
        }
        if (const Workload::Refusal no
            = m_ranks > 1 ? wl->SpreadRefusal(w, Lookahead()) : Workload::Refusal{};
            !no.key.empty())
        {
            const std::string path = "workloads[" + std::to_string(i) + "]." + no.key;
            if (!no.why.empty())
            {
                throw ScenarioError(
                    m_config.file, path, "'" + w.type + "' spread over processes: " + no.why);
            }
            throw ScenarioError(
                m_config.file,
                path,
                "'" + w.type + "'" + (no.key == "type" ? "" : " with this " + no.key)
                    + " does not run spread over processes yet (" + std::to_string(m_ranks)
                    + " here); run it in one process (without mpirun)");
        }
        if (const std::string no = wl->MultiPlaneRefusal(); !no.empty() && context.planes > 1)
        {
            throw ScenarioError(m_config.file,
                                "workloads[" + std::to_string(i) + "].type",
                                "'" + w.type + "' on a multi-plane topology ("
                                    + std::to_string(context.planes) + " planes): " + no
                                    + "; use topology.planes 1 for it");
        }
        context.index = i;
        context.owner = OwnerOf(i);
        context.p2mpOwner = P2mpOwnerOf(i);
        if (w.priority >= 0 && context.owner != TrafficLedger::NO_OWNER)
        {
            // Its queue pairs' frames ride its class at every NIC, so its switch queues too.
            for (const Ptr<RdmaNic>& nic : context.nics)
            {
                nic->SetOwnerPriority(context.owner, static_cast<uint8_t>(w.priority));
                nic->SetOwnerPriority(context.p2mpOwner, static_cast<uint8_t>(w.priority));
            }
        }
        if (w.lossTolerant)
        {
            if (context.owner == TrafficLedger::NO_OWNER)
            {
                // Queue pairs learn their budget from their owner: without one, the workload
                // would silently be reliable.
                throw ScenarioError(m_config.file,
                                    "workloads[" + std::to_string(i) + "].loss_tolerant",
                                    "only the first "
                                        + std::to_string(TrafficLedger::MAX_OWNERS - 1)
                                        + " workloads and stragglers can be loss-tolerant");
            }
            const auto budget = static_cast<uint8_t>(std::max<int16_t>(0, w.maxRetransmissions));
            for (const Ptr<RdmaNic>& nic : context.nics)
            {
                nic->SetOwnerMaxRetransmissions(context.owner, budget);
                nic->SetOwnerMaxRetransmissions(context.p2mpOwner, budget);
            }
        }
        wl->Install(w, context);
        m_workloads.push_back(wl);
    }
    if (m_ranks > 1)
    {
        RefuseSpreadGroups();
        // Done here is not done everywhere: stop once every process has said so.
        m_completion = CreateObject<RankCompletion>();
        m_completion->Install(m_messenger);
        m_metrics->SetAllDoneCallback(MakeCallback(&RankCompletion::LocalDone, m_completion));
    }
    else
    {
        m_metrics->SetAllDoneCallback(MakeCallback(&StopSimulation));
    }
    // The slowest a sender can be held to is its congestion control's floor, the same at every
    // NIC (one model, one set of attributes).
    double ccFloorGbps = std::numeric_limits<double>::infinity();
    if (Ptr<RdmaCongestionControl> cc = m_fabric->GetNic(0)->CreateCongestionControl())
    {
        ccFloorGbps = cc->GetMinRate().GetBitRate() / 1e9;
    }
    const double watchdogUs = m_config.WatchdogUs(ccFloorGbps);
    // A process sees only its own queue pairs and events: it cannot tell a stalled fabric
    // from one whose traffic is on the other processes (docs/performance.md).
    if (watchdogUs > 0 && m_ranks == 1)
    {
        m_watchdog = CreateObject<RunWatchdog>();
        m_watchdog->SetAttribute("Timeout", TimeValue(MicroSeconds(1) * watchdogUs));
        m_watchdog->Attach(*m_fabric, m_metrics);
    }
    if (m_config.output.packetTrace)
    {
        m_packetTrace
            = std::make_unique<PacketTraceWriter>(m_config.output.dir + "/packets.csv",
                                                  m_fabric->GetTrafficLedger()->GetOpLedger(),
                                                  m_metrics);
    }
    if (m_config.output.steeringTrace)
    {
        m_steeringTrace
            = std::make_unique<SteeringTraceWriter>(m_config.output.dir + "/steering.csv");
        ForEachQp(
            [this](uint32_t host, Ptr<QueuePair> qp)
            {
                m_steeringTrace->Attach(host, qp);
            });
    }
    if (m_config.nic.dcqcn.enabled && m_config.nic.dcqcn.rateTrace)
    {
        m_rateTrace = std::make_unique<RateTraceWriter>(m_config.output.dir + "/dcqcn-rates.csv");
        ForEachQp(
            [this](uint32_t host, Ptr<QueuePair> qp)
            {
                m_rateTrace->Attach(host, qp);
            });
    }
}

void
ScenarioRunner::ForEachQp(const std::function<void(uint32_t, Ptr<QueuePair>)>& f) const
{
    for (uint32_t h = 0; h < m_fabric->GetHostCount(); ++h)
    {
        Ptr<RdmaNic> nic = m_fabric->GetNic(h);
        for (uint32_t q = 0; q < nic->GetNQps(); ++q)
        {
            f(h, nic->GetQpByIndex(q));
        }
    }
}

bool
ScenarioRunner::Run()
{
    Time stop = MilliSeconds(1) * m_config.stopTimeMs;
    Simulator::Stop(stop);
    // ns-3's own initialisation events are not the model's, and their number differs between
    // ns-3 releases: leave them out, as the progress ticks below.
    m_eventsBefore = Simulator::GetEventCount() + Ns3InitializationEvents();
    m_progressStartWall = WallNow();
    m_lastProgressWall = m_progressStartWall;
    if (m_options.progress)
    {
        ++m_bookkeepingScheduled;
        Simulator::Schedule(stop / 1000, &ScenarioRunner::Progress, this);
    }
    if (m_config.limits.maxEvents > 0 || m_config.limits.maxRssMb > 0)
    {
        // First at t = 0: a fabric and workloads built past the memory budget stop before
        // the run, however short it would be.
        ++m_bookkeepingScheduled;
        Simulator::ScheduleNow(&ScenarioRunner::CheckBudgets, this);
    }
    if (m_watchdog)
    {
        ++m_bookkeepingScheduled;
        Simulator::Schedule(m_watchdog->GetTimeout() / 4, &ScenarioRunner::CheckWatchdog, this);
    }
    if (m_timeline)
    {
        ++m_bookkeepingScheduled;
        Simulator::Schedule(TimelineInterval(), &ScenarioRunner::SampleTimeline, this);
    }
    if (m_completion && m_metrics->GetPending() == 0)
    {
        // Nothing of its own to wait for: done from the start.
        m_completion->ScheduleLocalDone();
    }
    double t0 = WallNow();
    try
    {
        Simulator::Run();
    }
    catch (const std::invalid_argument& e)
    {
        // A combination the model refuses only once it happens (P2mpChannel).
        throw ScenarioError(m_config.file, "nic.reorder", e.what());
    }
    m_wallSeconds = WallNow() - t0;
    if (m_options.progress)
    {
        std::fprintf(stderr, "\r%-78s\r", "");
    }
    m_simEnd = Simulator::Now();
    // Progress ticks are bookkeeping, not simulation: keep event counts identical either way.
    m_events = ModelEvents();
    if (m_ranks > 1)
    {
        MergeRanks();
    }
    // Operations a receiver timeout failed (the fail policy) are in the ledger by tag.
    if (const OpLedger* ops = m_fabric->GetTrafficLedger()->GetOpLedger())
    {
        for (uint64_t h = 0; h < m_metrics->GetOps().size(); ++h)
        {
            if (ops->Sum(m_metrics->TagsOf(h)).failed)
            {
                m_metrics->MarkFailed(h);
            }
        }
    }
    if (m_timeline)
    {
        m_timeline->Finish(m_simEnd);
        m_timeline.reset();
    }
    m_complete = m_metrics->GetPending() == 0;
    if (m_ranks > 1)
    {
        // Rank 0 has every operation now; the others learn from it whether all completed.
        const uint64_t mine = ProcessRanks::GetRank() == 0 ? m_metrics->GetPending() : 0;
        m_complete = ProcessRanks::SumOverRanks(mine) == 0;
    }
    if (m_complete)
    {
        m_stoppedBy.clear();
    }
    else if (m_stoppedBy.empty())
    {
        m_stoppedBy = "stop_time_ms";
    }
    for (uint32_t i = 0; i < m_workloads.size(); ++i)
    {
        std::map<std::string, double> figures;
        m_workloads[i]->Report(figures);
        for (const auto& [key, value] : figures)
        {
            m_metrics->SetExtra(i, key, value);
        }
    }
    return m_complete;
}

uint64_t
ScenarioRunner::ModelEvents() const
{
    return Simulator::GetEventCount() - m_eventsBefore - m_progressEvents;
}

void
ScenarioRunner::CheckBudgets()
{
    ++m_progressEvents;
    const LimitsConfig& l = m_config.limits;
    if (l.maxEvents > 0 && ModelEvents() >= l.maxEvents)
    {
        NS_LOG_INFO("budget: " << ModelEvents() << " events >= limits.max_events " << l.maxEvents);
        m_stoppedBy = "limits.max_events";
        Simulator::Stop();
        return;
    }
    if (l.maxRssMb > 0 && PeakRssMb() > l.maxRssMb)
    {
        NS_LOG_INFO("budget: peak RSS " << PeakRssMb() << " MB > limits.max_rss_mb " << l.maxRssMb);
        m_stoppedBy = "limits.max_rss_mb";
        Simulator::Stop();
        return;
    }
    ++m_bookkeepingScheduled;
    Simulator::Schedule(BudgetCheckInterval(), &ScenarioRunner::CheckBudgets, this);
}

void
ScenarioRunner::CheckWatchdog()
{
    ++m_progressEvents;
    // Pending besides the runner's own ticks and the stop at stop_time_ms: nothing, and no
    // model event can ever run again.
    const uint64_t ours = m_bookkeepingScheduled - m_progressEvents + 1;
    const std::optional<std::size_t> pending = QuadHeapScheduler::CurrentSize();
    // A port's reserved end of transmission counts as pending: another engine schedules it.
    const FabricSimulatorImpl* engine = FabricSimulatorImpl::Reserving();
    const bool reservedAhead = engine && engine->HasReservationAhead();
    if (m_watchdog->Check(pending && *pending <= ours && !reservedAhead))
    {
        m_stoppedBy = "limits.watchdog_us";
        Simulator::Stop();
        return;
    }
    ++m_bookkeepingScheduled;
    Simulator::Schedule(m_watchdog->GetTimeout() / 4, &ScenarioRunner::CheckWatchdog, this);
}

Time
ScenarioRunner::TimelineInterval() const
{
    return Time::FromDouble(m_config.output.timelineSampleUs, Time::US);
}

void
ScenarioRunner::SampleTimeline()
{
    ++m_progressEvents;
    m_timeline->Sample(TimelineInterval());
    ++m_bookkeepingScheduled;
    Simulator::Schedule(TimelineInterval(), &ScenarioRunner::SampleTimeline, this);
}

std::vector<std::string>
ScenarioRunner::WorkloadWarnings() const
{
    std::vector<std::string> out;
    for (std::size_t i = 0; i < m_workloads.size(); ++i)
    {
        for (const Workload::Warning& w : m_workloads[i]->GetWarnings())
        {
            out.push_back("workloads[" + std::to_string(i) + "]." + w.key + ": " + w.why);
        }
    }
    return out;
}

Ptr<RunWatchdog>
ScenarioRunner::GetWatchdog() const
{
    return m_watchdog;
}

const std::string&
ScenarioRunner::GetStoppedBy() const
{
    return m_stoppedBy;
}

void
ScenarioRunner::Progress()
{
    ++m_progressEvents;
    double now = WallNow();
    if (now - m_lastProgressWall >= 0.5)
    {
        m_lastProgressWall = now;
        double elapsed = now - m_progressStartWall;
        uint64_t total = m_metrics->GetOps().size();
        double frac = total ? static_cast<double>(m_metrics->GetCompleted()) / total : 0.0;
        double simFrac = Simulator::Now().GetSeconds() / (m_config.stopTimeMs / 1000.0);
        frac = std::max(frac, 0.0);
        double eventsPerS = (Simulator::GetEventCount() - m_progressEvents) / elapsed;
        char eta[32] = "?";
        if (frac > 0)
        {
            std::snprintf(eta, sizeof(eta), "%.0f s", elapsed * (1 - frac) / frac);
        }
        std::fprintf(stderr,
                     "\r[sim %.3f ms | ops %" PRIu64 "/%" PRIu64 " (%.1f%%) | %.2f M ev/s | "
                     "ETA %s | stop at %.0f%%]   ",
                     Simulator::Now().GetSeconds() * 1e3,
                     m_metrics->GetCompleted(),
                     total,
                     100.0 * frac,
                     eventsPerS / 1e6,
                     eta,
                     100.0 * simFrac);
        std::fflush(stderr);
    }
    Time stop = MilliSeconds(1) * m_config.stopTimeMs;
    ++m_bookkeepingScheduled;
    Simulator::Schedule(stop / 1000, &ScenarioRunner::Progress, this);
}

void
ScenarioRunner::RefuseSpread() const
{
    const std::string n = std::to_string(m_ranks);
    auto refuse = [this, &n](const std::string& path, const std::string& what)
    {
        throw ScenarioError(m_config.file,
                            path,
                            what + " is not supported in a run spread over processes yet (" + n
                                + " here); run it in one process (without mpirun)");
    };
    if (m_ranks > ProcessRanks::MAX_RANKS)
    {
        // A message's tie key holds its sender's rank in 7 bits (ProcessRanks::NextTie).
        throw ScenarioError(m_config.file,
                            "distribution",
                            "a run spread over " + n + " processes: at most "
                                + std::to_string(ProcessRanks::MAX_RANKS) + " are supported");
    }
    if (!m_config.stragglers.empty())
    {
        refuse("stragglers", "a straggler");
    }
    if (m_config.topology.kind == TopologyKind::MULTI_PLANE)
    {
        refuse("topology.kind", "a multi-plane topology");
    }
    if (m_config.output.timeline)
    {
        refuse("output.timeline", "a timeline");
    }
    const bool p2mp = std::any_of(m_config.workloads.begin(),
                                  m_config.workloads.end(),
                                  [](const WorkloadConfig& w)
                                  {
                                      return w.type != "flows";
                                  });
    if (p2mp)
    {
        // What a P2MP channel needs beyond a message's last PSN at its receivers' processes:
        // the root's own knowledge of every delivery, or queue pairs made at first use.
        const P2mpConfig& c = m_config.p2mp;
        if (c.mechanism == "unicast")
        {
            refuse("p2mp.mechanism", "the unicast mechanism (queue pairs made at first use)");
        }
        if (c.ackMode == "ack-free")
        {
            refuse("p2mp.ack_mode", "an ack-free P2MP message (done at its last delivery)");
        }
        if (c.receiverTimeoutUs >= 0)
        {
            refuse("p2mp.receiver_timeout_us", "a receiver timeout");
        }
        if (!m_config.faults.empty())
        {
            refuse("faults", "a fault with P2MP traffic (its groups' trees reconverge)");
        }
    }
    if (m_config.loadBalancing.mode.rfind("spray-", 0) == 0)
    {
        // A switch sprays a flow's packets onto parallel paths at one instant; they meet again
        // at one instant, often on another process, where one process orders them by their
        // common origin and nothing else can (docs/performance.md).
        refuse("load_balancing.mode", "packet spraying ('" + m_config.loadBalancing.mode + "')");
    }
    if (m_config.nic.congestionControl == "hpcc")
    {
        // Its data frames carry in-band telemetry as bytes, past ns-3's 2,000-byte messages.
        refuse("nic.congestion_control", "HPCC");
    }
    const OutputConfig& out = m_config.output;
    if (out.pcap)
    {
        refuse("output.pcap", "pcap capture");
    }
    if (out.packetTrace)
    {
        refuse("output.packet_trace", "the packet trace");
    }
    if (out.steeringTrace)
    {
        refuse("output.steering_trace", "the steering trace");
    }
    if (m_config.nic.dcqcn.enabled && m_config.nic.dcqcn.rateTrace)
    {
        refuse("nic.dcqcn.rate_trace", "the rate trace");
    }
}

void
ScenarioRunner::RefuseSpreadGroups() const
{
    // One process's controller installs every group (GroupController::SetMessenger): the
    // workloads' P2MP roots must all be simulated by one process.
    if (!m_fabric->GetGroupController())
    {
        return;
    }
    const FabricPartition& part = m_fabric->GetPartition();
    std::optional<std::pair<uint32_t, uint32_t>> first; // root, its rank
    for (uint32_t i = 0; i < m_workloads.size(); ++i)
    {
        const Workload::P2mpRoots roots = m_workloads[i]->GetP2mpRoots();
        for (uint32_t root : roots.hosts)
        {
            const uint32_t rank = part.RankOf(root);
            if (!first)
            {
                first.emplace(root, rank);
            }
            else if (first->second != rank)
            {
                throw ScenarioError(
                    m_config.file,
                    "workloads[" + std::to_string(i) + "]." + roots.key,
                    "host " + std::to_string(root) + " sends P2MP messages from process "
                        + std::to_string(rank) + " and host " + std::to_string(first->first)
                        + " from process " + std::to_string(first->second)
                        + ": a run spread over processes installs the new protocol's groups from "
                          "one process, so the hosts that send P2MP messages must share one "
                          "(distribution.unit may keep them together)");
            }
        }
    }
}

std::vector<Ptr<NetDevice>>
ScenarioRunner::Mailboxes() const
{
    // Each rank's first host: its port is never on a cut cable.
    const FabricPartition& part = m_fabric->GetPartition();
    std::vector<Ptr<NetDevice>> mailboxes(m_ranks);
    for (uint32_t h = m_fabric->GetHostCount(); h-- > 0;)
    {
        mailboxes[part.RankOf(h)] = m_fabric->GetNic(h)->GetDevice();
    }
    return mailboxes;
}

Time
ScenarioRunner::Lookahead() const
{
    return Time::FromDouble(m_config.topology.fabricLink.delayUs, Time::US);
}

void
ScenarioRunner::MergeRanks()
{
    // Every rank packs its figures and what it recorded; rank 0 folds the others' into its
    // own. A collective MPI call: here, after Simulator::Run on every rank, never in an event.
    Ptr<TrafficLedger> ledger = m_fabric->GetTrafficLedger();
    PackedBytes own;
    // The model's events: less those of the frames' crossings (a frame's hand-over to the
    // other process, a message's flush and receipt), the other messages' and the stop.
    own.Put(m_events - ProcessRanks::GetExtraEvents() - m_messenger->GetEvents()
            - m_completion->GetEvents());
    own.Put(m_simEnd.GetTimeStep());
    own.Put(ProcessRanks::GetSentFrames());
    own.Put(ProcessRanks::GetSentMessages());
    own.Put(ProcessRanks::GetSentBytes());
    own.Put(m_messenger->GetParts());
    own.Put(m_messenger->GetSent());
    own.Put(m_wallSeconds);
    own.Put(ProcessRanks::GetSyncSeconds());
    own.Put(QuadHeapScheduler::CurrentCrossTies());
    m_metrics->PackOwn(own);
    for (const Ptr<Workload>& wl : m_workloads)
    {
        wl->PackOwn(own);
    }
    ledger->GetOpLedger()->Pack(own);
    ledger->Pack(own);
    CounterSet counters = FabricCounters();
    counters.Pack(own);
    Ptr<GroupController> ctl = m_fabric->GetGroupController();
    if (ctl)
    {
        ctl->Pack(own);
    }
    std::vector<std::vector<uint8_t>> all = ProcessRanks::GatherToRoot(own.GetBytes());
    if (ProcessRanks::GetRank() != 0)
    {
        return;
    }
    CounterSet merged = std::move(counters);
    nlohmann::json events = nlohmann::json::array();
    nlohmann::json wall = nlohmann::json::array();
    nlohmann::json sync = nlohmann::json::array();
    uint64_t frames = 0;
    uint64_t messages = 0;
    uint64_t messageBytes = 0;
    uint64_t controls = 0;
    uint64_t controlMessages = 0;
    uint64_t ties = 0;
    m_events = 0;
    for (uint32_t r = 0; r < all.size(); ++r)
    {
        PackedBytes in(std::move(all[r]));
        const auto rankEvents = in.Take<uint64_t>();
        m_events += rankEvents;
        events.push_back(rankEvents);
        m_simEnd = std::max(m_simEnd, TimeStep(in.Take<int64_t>()));
        frames += in.Take<uint64_t>();
        messages += in.Take<uint64_t>();
        messageBytes += in.Take<uint64_t>();
        controls += in.Take<uint64_t>();
        controlMessages += in.Take<uint64_t>();
        wall.push_back(in.Take<double>());
        sync.push_back(in.Take<double>());
        ties += in.Take<uint64_t>();
        if (r == 0)
        {
            continue; // its records are this process's own
        }
        m_metrics->MergeFrom(in);
        for (const Ptr<Workload>& wl : m_workloads)
        {
            wl->MergeFrom(in);
        }
        ledger->GetOpLedger()->MergeFrom(in);
        ledger->MergeFrom(in);
        merged.MergeFrom(in);
        if (ctl)
        {
            ctl->MergeFrom(in);
        }
        NS_ABORT_MSG_UNLESS(in.AtEnd(), "ScenarioRunner: rank " << r << " sent more than read");
    }
    m_metrics->FinishMerge();
    m_mergedCounters = std::make_unique<CounterSet>(std::move(merged));
    // The run ended where the last process finished its operations, as one process would
    // have stopped; the others ran on two message delays to hear of it (RankCompletion).
    if (m_completion->AllDone())
    {
        // A collective's process may hear of its end (the last arrival, elsewhere) later.
        m_simEnd = m_metrics->GetLastEnd();
    }
    const FabricPartition& part = m_fabric->GetPartition();
    m_distribution = {{"ranks", m_ranks},
                      {"unit", EnumName(part.GetUnit())},
                      {"cut_links", part.GetCutLinks().size()},
                      {"lookahead_us", m_config.topology.fabricLink.delayUs},
                      {"frames", frames},
                      {"messages", messages},
                      {"message_bytes", messageBytes},
                      {"controls", controls},
                      {"control_messages", controlMessages},
                      {"sync_rounds", ProcessRanks::GetSyncRounds()},
                      {"cross_rank_ties", ties},
                      {"events_by_rank", events},
                      {"wall_s_by_rank", wall},
                      {"sync_wait_s_by_rank", sync}};
}

CounterSet
ScenarioRunner::FabricCounters() const
{
    if (m_mergedCounters)
    {
        return *m_mergedCounters; // every process's, after a distributed run
    }
    CounterSet c;
    // Queue pairs count by owner: summed here per owner, then given one key each.
    std::vector<std::array<uint64_t, 4>> byOwner(TrafficLedger::MAX_OWNERS);
    // A process counts the hosts and switches it simulates (in one process: all of them).
    const FabricPartition& part = m_fabric->GetPartition();
    const uint32_t me = ProcessRanks::GetRank();
    for (uint32_t h = 0; h < m_fabric->GetHostCount(); ++h)
    {
        if (part.RankOf(h) != me)
        {
            continue;
        }
        Ptr<RdmaNic> nic = m_fabric->GetNic(h);
        nic->AddCounters(c);
        nic->GetDevice()->AddCounters(c);
        for (uint32_t q = 0; q < nic->GetNQps(); ++q)
        {
            Ptr<QueuePair> qp = nic->GetQpByIndex(q);
            std::array<uint64_t, 4>& o = byOwner[qp->GetOwner()];
            o[0] += qp->GetRetransmissions();
            o[1] += qp->GetAbandonedPackets();
            o[2] += qp->GetAbandonedBytes();
            o[3] += qp->GetSkipsSent();
        }
        if (Ptr<NicReceivePipeline> rx = nic->GetReceivePipeline())
        {
            c.Add("receive_path.packets", rx->GetPackets());
            c.Add("receive_path.delayed_packets", rx->GetDelayedPackets());
            c.Max("receive_path.max_backlog_packets", rx->GetMaxBacklogPackets());
            c.Max("receive_path.max_backlog_bytes", rx->GetMaxBacklogBytes());
            c.Add("receive_path.pauses", rx->GetPauses());
            c.Max("receive_path.busiest_packets", rx->GetPackets());
            c.Max("receive_path.max_wait_ps", rx->GetMaxWait().GetTimeStep());
            c.Add("receive_path.total_wait_ps", rx->GetTotalWait().GetTimeStep());
        }
    }
    for (uint32_t owner = 0; owner < byOwner.size(); ++owner)
    {
        static const char* const kKeys[4]
            = {"retransmissions", "abandoned_packets", "abandoned_bytes", "skips_sent"};
        for (std::size_t k = 0; k < 4; ++k)
        {
            if (byOwner[owner][k] > 0)
            {
                c.Add("owner." + std::to_string(owner) + "." + kKeys[k], byOwner[owner][k]);
            }
        }
    }
    for (uint32_t s = 0; s < m_fabric->GetSwitchCount(); ++s)
    {
        if (part.RankOf(m_fabric->GetHostCount() + s) == me)
        {
            m_fabric->GetSwitch(s)->AddCounters(c);
        }
    }
    // ACKs the P2MP aggregation points refused: another process's see nothing here.
    Ptr<P2mpDelivery> delivery = m_fabric->GetDelivery();
    c.Add("acks_refused.not_awaited", delivery->GetAcksRefused(AckAggregator::REFUSED_NOT_AWAITED));
    c.Add("acks_refused.wrong_port", delivery->GetAcksRefused(AckAggregator::REFUSED_WRONG_PORT));
    c.Add("acks_refused.outside_window",
          delivery->GetAcksRefused(AckAggregator::REFUSED_OUTSIDE_WINDOW));
    return c;
}

nlohmann::json
ScenarioRunner::NetworkSummary(const CounterSet& c) const
{
    // Every component reports its own counters (FabricCounters); the summary only lays them out.
    const uint64_t acks = c.Get("acks_at_senders");
    const uint64_t groupPeak = c.Get("switch_state.group_table_peak_sum");
    const uint64_t aggPeak = c.Get("switch_state.aggregation_peak_sum");
    // Copies per P2MP message leaving its source: over the broadcast workloads' messages.
    double copies = 0;
    uint64_t p2mpMessages = 0;
    const auto& infos = m_metrics->GetWorkloads();
    for (uint32_t i = 0; i < infos.size(); ++i)
    {
        const auto& extras = m_metrics->GetExtras(i);
        auto it = extras.find("copies_from_source");
        if (it != extras.end())
        {
            uint64_t n = m_metrics->Durations(i).size();
            copies += it->second * n;
            p2mpMessages += n;
        }
    }
    // Logical packets (each PSN sent once per queue pair): copies made at the NIC excluded.
    uint64_t logical = c.Get("data_packets") - (c.Get("p2mp_copies") - c.Get("p2mp_packets"));
    double switches = std::max<uint32_t>(1, m_fabric->GetSwitchCount());
    Ptr<GroupController> ctl = m_fabric->GetGroupController();
    double simS = m_simEnd.GetSeconds();
    nlohmann::json refused = {{"not_awaited", c.Get("acks_refused.not_awaited")},
                              {"wrong_port", c.Get("acks_refused.wrong_port")},
                              {"outside_window", c.Get("acks_refused.outside_window")},
                              {"not_from_aggregator", c.Get("acks_refused.not_from_aggregator")}};
    nlohmann::json state
        = {{"bift_entries", c.Get("switch_state.bift_entries")},
           {"group_table_live_peak_max", c.Get("switch_state.group_table_live_peak_max")},
           {"group_table_live_peak_mean", groupPeak / switches},
           {"group_table_peak_sum", groupPeak},
           {"group_table_installs", ctl ? ctl->GetEntryInstalls() : 0},
           {"group_table_teardowns", ctl ? ctl->GetEntryTeardowns() : 0},
           {"group_table_evictions", ctl ? ctl->GetEntryEvictions() : 0},
           {"aggregation_live_peak_max", c.Get("switch_state.aggregation_live_peak_max")},
           {"aggregation_live_peak_mean", aggPeak / switches},
           {"aggregation_peak_sum", aggPeak},
           {"aggregation_installs", c.Get("switch_state.aggregation_installs")},
           {"aggregation_frees", c.Get("switch_state.aggregation_frees")},
           {"extended_bier", m_fabric->GetDelivery()->ExtendsBier() && aggPeak > 0}};
    return {
        {"link_bytes", c.Get("link_bytes")},
        {"sender_nic_bytes", c.Get("sender_nic_bytes")},
        {"pfc_pauses", c.Get("pfc_pauses")},
        {"ecn_marks", c.Get("ecn_marks")},
        {"cnps", c.Get("cnps")},
        {"drops", c.Get("drops")},
        {"link_losses", c.Get("link_losses")},
        {"link_down_losses", c.Get("link_down_losses")},
        {"unroutable_drops", c.Get("unroutable_drops")},
        {"retransmissions", c.Get("retransmissions")},
        {"naks", c.Get("naks")},
        {"spurious_retransmissions", c.Get("spurious_retransmissions")},
        {"reorder", ReorderSummary(c.GetHistogram("reorder.displacement"), c.Get("reorder.drops"))},
        {"qps_per_host",
         {{"mean",
           m_fabric->GetHostCount() ? double(c.Get("qps")) / m_fabric->GetHostCount() : 0.0},
          {"max", c.Get("qps_max")}}},
        {"steering",
         {{"repaths", c.Get("steering.repaths")}, {"probes", c.Get("steering.probes")}}},
        {"telemetry",
         {{"probes", c.Get("telemetry.probes")},
          {"claims", c.Get("telemetry.claims")},
          {"claims_lost", c.Get("telemetry.claims_lost")},
          {"probe_acks", c.Get("telemetry.probe_acks")},
          {"probe_bytes", c.Get("telemetry.probe_bytes")},
          {"stamps", c.Get("telemetry.stamps")},
          {"overflows", c.Get("telemetry.overflows")}}},
        {"acks_at_senders", acks},
        {"header_bytes", c.Get("header_bytes")},
        {"data_packets", c.Get("data_packets")},
        {"copies_from_source",
         p2mpMessages ? nlohmann::json(copies / p2mpMessages) : nlohmann::json(nullptr)},
        {"acks_per_data_packet", logical ? double(acks) / logical : 0.0},
        {"switch_state_peak_sum", c.Get("switch_state.bift_entries") + groupPeak + aggPeak},
        {"switch_state", state},
        {"bth_parsed_packets", c.Get("bth_parsed_packets")},
        {"aggregated_acks", c.Get("aggregated_acks")},
        {"acks_refused", refused},
        {"source_refused", c.Get("source_refused")},
        {"group_installs", ctl ? ctl->GetInstalls() : 0},
        {"group_install_us_mean", ctl ? ctl->GetMeanInstallUs() : 0.0},
        {"group_evictions", ctl ? ctl->GetEvictions() : 0},
        {"group_teardowns", ctl ? ctl->GetTeardowns() : 0},
        {"group_install_rate_per_s", ctl && simS > 0 ? ctl->GetInstalls() / simS : 0.0},
        {"group_fallbacks", ctl ? ctl->GetFallbacks() : 0},
        {"switch_buffer_peak_bytes", c.Get("switch_buffer_peak_bytes")},
        {"nic_receive", ReceivePathSummary(c)},
        {"acks_by_link", AcksByLinkSummary()},
        {"packet_hops", c.Get("packet_hops")}};
}

nlohmann::json
ScenarioRunner::AcksByLinkSummary() const
{
    // Tiers by their leaf-spine names; a fat-tree's edge is "leaf", its aggregation "spine".
    static const char* const kTier[TrafficLedger::TIERS] = {"host", "leaf", "spine", "core"};
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [cls, acks] : m_fabric->GetTrafficLedger()->GetAcksByLinkClass())
    {
        out[std::string(kTier[cls / TrafficLedger::TIERS]) + ">"
            + kTier[cls % TrafficLedger::TIERS]]
            = acks;
    }
    return out;
}

nlohmann::json
ScenarioRunner::ReceivePathSummary(const CounterSet& c) const
{
    // The rate is the scenario's, the same at every NIC (each process builds them all).
    double rate = 0;
    for (uint32_t h = 0; h < m_fabric->GetHostCount(); ++h)
    {
        if (Ptr<NicReceivePipeline> rx = m_fabric->GetNic(h)->GetReceivePipeline())
        {
            rate = rx->GetPacketRate();
        }
    }
    const uint64_t packets = c.Get("receive_path.packets");
    const double simS = m_simEnd.GetSeconds();
    const Time totalWait = TimeStep(c.Get("receive_path.total_wait_ps"));
    return {{"rate_mpps", rate / 1e6},
            {"packets", packets},
            {"delayed_packets", c.Get("receive_path.delayed_packets")},
            {"max_backlog_packets", c.Get("receive_path.max_backlog_packets")},
            {"max_backlog_bytes", c.Get("receive_path.max_backlog_bytes")},
            {"max_wait_us", TimeStep(c.Get("receive_path.max_wait_ps")).GetSeconds() * 1e6},
            {"mean_wait_us", packets ? totalWait.GetSeconds() * 1e6 / packets : 0.0},
            {"pauses", c.Get("receive_path.pauses")},
            {"busiest_nic_load",
             rate > 0 && simS > 0 ? c.Get("receive_path.busiest_packets") / rate / simS : 0.0}};
}

nlohmann::json
ScenarioRunner::ReorderSummary(const std::vector<uint64_t>& hist, uint64_t drops)
{
    // Buckets by powers of two, in order, only those with packets (a run without reordering
    // shows an empty list).
    nlohmann::json buckets = nlohmann::json::array();
    uint64_t early = 0;
    for (uint32_t b = 0; b < hist.size(); ++b)
    {
        if (hist[b] == 0)
        {
            continue;
        }
        uint64_t lo = uint64_t{1} << b;
        buckets.push_back({{"ahead_min", lo}, {"ahead_max", (lo << 1) - 1}, {"packets", hist[b]}});
        early += hist[b];
    }
    return {{"early_packets", early}, {"displacement", buckets}, {"window_drops", drops}};
}

uint8_t
ScenarioRunner::OwnerOf(std::size_t k)
{
    // Workloads, then stragglers, take owners 1, 2, ...; past the one-byte range a source is
    // left unattributed (its summary entry has "network": null).
    return k + 1 < TrafficLedger::MAX_OWNERS ? static_cast<uint8_t>(k + 1)
                                             : TrafficLedger::NO_OWNER;
}

uint8_t
ScenarioRunner::P2mpOwnerOf(std::size_t i) const
{
    // After every workload and straggler: so the first sources keep the numbers they had.
    uint8_t p2mp = OwnerOf(m_config.workloads.size() + m_config.stragglers.size() + i);
    return p2mp != TrafficLedger::NO_OWNER ? p2mp : OwnerOf(i);
}

std::vector<uint64_t>
ScenarioRunner::RetransmissionsByOwner(const CounterSet& c) const
{
    // Queue pairs count their own (FabricCounters: one pass for every owner at once).
    std::vector<uint64_t> retx(TrafficLedger::MAX_OWNERS, 0);
    for (uint32_t owner = 0; owner < retx.size(); ++owner)
    {
        retx[owner] = c.Get("owner." + std::to_string(owner) + ".retransmissions");
    }
    return retx;
}

nlohmann::json
ScenarioRunner::OwnerNetworkSummary(std::size_t k, const std::vector<uint64_t>& retxByOwner) const
{
    uint8_t owner = OwnerOf(k);
    if (owner == TrafficLedger::NO_OWNER)
    {
        return nullptr;
    }
    const Ptr<TrafficLedger> ledger = m_fabric->GetTrafficLedger();
    if (k >= m_config.workloads.size() || P2mpOwnerOf(k) == owner)
    {
        return CountersJson(ledger->Get(owner), retxByOwner[owner]);
    }
    // A workload's two sources: its queue pairs and its P2MP channels, apart and summed.
    const uint8_t p2mpOwner = P2mpOwnerOf(k);
    const TrafficLedger::Counters& q = ledger->Get(owner);
    const TrafficLedger::Counters& p = ledger->Get(p2mpOwner);
    TrafficLedger::Counters sum = q;
    sum += p;
    nlohmann::json net = CountersJson(sum, retxByOwner[owner] + retxByOwner[p2mpOwner]);
    net["by_transport"] = {{"p2mp", CountersJson(p, retxByOwner[p2mpOwner])},
                           {"unicast", CountersJson(q, retxByOwner[owner])}};
    return net;
}

nlohmann::json
ScenarioRunner::PhaseSummary(std::size_t k) const
{
    // Per phase name, over the workload's completed operations: its data frames' counts (as
    // ops.csv's network columns) and its durations, so that no figure mixes two phases.
    const OpLedger* ops = m_fabric->GetTrafficLedger()->GetOpLedger();
    const auto& all = m_metrics->GetOps();
    const auto& phases = m_metrics->GetPhases();
    std::map<std::string, OpLedger::Row> rows;
    std::map<std::string, std::vector<double>> durations;
    std::vector<std::string> order;
    for (uint64_t p = 0; p < phases.size(); ++p)
    {
        const Metrics::PhaseRecord& ph = phases[p];
        const Metrics::OpRecord& op = all[ph.handle];
        if (op.workload != k || !op.done || op.failed)
        {
            continue;
        }
        if (!durations.count(ph.name))
        {
            order.push_back(ph.name);
        }
        durations[ph.name].push_back((ph.end - ph.start).GetNanoSeconds() / 1e3);
        const uint32_t tag = Metrics::PhaseTag(p);
        if (ops && tag)
        {
            rows[ph.name] += ops->Get(tag);
        }
    }
    nlohmann::json out = nlohmann::json::object();
    for (const std::string& name : order)
    {
        const OpLedger::Row& r = rows[name];
        nlohmann::json e = {{"ops", durations[name].size()},
                            {"duration_us", DistributionJson(Metrics::Summarize(durations[name]))}};
        if (ops)
        {
            e["net_bytes"] = r.linkBytes;
            if (m_metrics->GetWorkloads()[k].p2mpApart)
            {
                e["p2mp_net_bytes"] = r.p2mpLinkBytes;
            }
            e["packets"] = r.packets;
            e["switch_hops"] = r.switchHops;
            e["queue_us"] = r.packets ? r.QueueNs() / r.packets / 1e3 : 0.0;
            e["queue_max_us"] = r.maxQueueNs / 1e3;
            e["pause_us"] = r.packets ? r.PauseNs() / r.packets / 1e3 : 0.0;
            e["ecn_marks"] = r.ecnMarks;
            e["retransmissions"] = r.retransmissions;
            e["drops"] = r.drops;
            e["lost_bytes"] = r.lostBytes;
        }
        out[name] = e;
    }
    return out;
}

nlohmann::json
ScenarioRunner::CountersJson(const TrafficLedger::Counters& c, uint64_t retx)
{
    // As the scenario's acks_per_data_packet: copies made at the NIC are one logical packet.
    uint64_t logical = c.dataPackets - (c.p2mpCopies - c.p2mpPackets);
    return {{"link_bytes", c.linkBytes},
            {"packet_hops", c.packetHops},
            {"sender_nic_bytes", c.dataBytes + c.headerBytes},
            {"header_bytes", c.headerBytes},
            {"data_packets", c.dataPackets},
            {"retransmissions", retx},
            {"acks_at_senders", c.acksAtSenders},
            {"acks_per_data_packet", logical ? double(c.acksAtSenders) / logical : 0.0},
            {"aggregated_acks", c.aggregatedAcks},
            {"cnps", c.cnps},
            {"ecn_marks", c.ecnMarks},
            {"drops", c.drops}};
}

nlohmann::json
ScenarioRunner::LossSummary(std::size_t k, const CounterSet& counters) const
{
    // What the senders gave up on, and what the receivers went without: they differ when a
    // packet given up on arrived after all (the skip is then a duplicate), or is in flight.
    uint8_t owner = OwnerOf(k);
    uint8_t p2mpOwner = P2mpOwnerOf(k);
    auto byOwners = [&counters, owner, p2mpOwner](const char* key)
    {
        uint64_t n = counters.Get("owner." + std::to_string(owner) + "." + key);
        if (p2mpOwner != owner)
        {
            n += counters.Get("owner." + std::to_string(p2mpOwner) + "." + key);
        }
        return n;
    };
    const uint64_t abandoned = byOwners("abandoned_packets");
    const uint64_t abandonedBytes = byOwners("abandoned_bytes");
    const uint64_t skips = byOwners("skips_sent");
    // Operations that completed short of bytes, from their ops.csv rows.
    uint64_t lossyOps = 0;
    const OpLedger* ops = m_fabric->GetTrafficLedger()->GetOpLedger();
    const auto& all = m_metrics->GetOps();
    for (uint64_t h = 0; ops && h < all.size(); ++h)
    {
        if (all[h].workload == k && ops->Sum(m_metrics->TagsOf(h)).lostBytes > 0)
        {
            ++lossyOps;
        }
    }
    TrafficLedger::Counters c = m_fabric->GetTrafficLedger()->Get(owner);
    if (p2mpOwner != owner)
    {
        c += m_fabric->GetTrafficLedger()->Get(p2mpOwner);
    }
    return {{"max_retransmissions", std::max<int>(0, m_config.workloads[k].maxRetransmissions)},
            {"lost_packets", c.lostPackets},
            {"lost_bytes", c.lostBytes},
            {"ops_with_loss", lossyOps},
            {"abandoned_packets", abandoned},
            {"abandoned_bytes", abandonedBytes},
            {"skips_sent", skips}};
}

nlohmann::json
ScenarioRunner::WatchdogSummary() const
{
    const RunWatchdog::Report& r = m_watchdog->GetReport();
    nlohmann::json ops = nlohmann::json::array();
    const auto& all = m_metrics->GetOps();
    const auto& infos = m_metrics->GetWorkloads();
    for (uint64_t h : r.stuckOps)
    {
        if (h < all.size())
        {
            const Metrics::OpRecord& op = all[h];
            ops.push_back({{"workload", infos[op.workload].label},
                           {"op", op.op},
                           {"src", op.src},
                           {"dst", op.dst},
                           {"bytes", op.bytes}});
        }
    }
    nlohmann::json paused = nlohmann::json::array();
    for (const auto& [link, prio] : r.pausedPorts)
    {
        paused.push_back({{"link", link}, {"priority", prio}});
    }
    return {{"timeout_us", m_watchdog->GetTimeout().GetSeconds() * 1e6},
            {"last_progress_us", r.stalledSince.GetSeconds() * 1e6},
            {"detected_us", r.detectedAt.GetSeconds() * 1e6},
            {"nothing_scheduled", r.nothingScheduled},
            {"stuck_queue_pairs", r.stuckQueuePairs},
            {"stuck_operations", ops},
            {"paused_ports", paused},
            {"pause_cycle", r.pauseCycle}};
}

nlohmann::json
ScenarioRunner::Summary() const
{
    // Every counter of every component, collected once for all the summary's parts.
    const CounterSet counters = FabricCounters();
    nlohmann::json net = NetworkSummary(counters);
    uint64_t hops = net["packet_hops"];
    net.erase("packet_hops");
    nlohmann::json s;
    s["scenario"] = m_config.name;
    s["seed"] = m_config.seed;
    s["mechanism"] = m_config.p2mp.mechanism;
    s["revision"] = MCAST4AI_REVISION;
    s["ns3_version"] = kNs3Version;
    s["complete"] = m_complete;
    s["stopped_by"] = m_stoppedBy.empty() ? nlohmann::json() : nlohmann::json(m_stoppedBy);
    if (m_stoppedBy == "limits.watchdog_us")
    {
        s["watchdog"] = WatchdogSummary();
    }
    s["sim_time_s"] = m_simEnd.GetSeconds();
    s["wall_s"] = m_wallSeconds;
    s["events"] = m_events;
    s["events_per_s"] = m_wallSeconds > 0 ? m_events / m_wallSeconds : 0.0;
    s["packet_hops"] = hops;
    s["packet_hops_per_s"] = m_wallSeconds > 0 ? hops / m_wallSeconds : 0.0;
    s["peak_rss_mb"] = PeakRssMb();
    if (!m_distribution.is_null())
    {
        s["distribution"] = m_distribution;
    }
    s["workloads"] = nlohmann::json::array();
    const std::vector<uint64_t> retx = RetransmissionsByOwner(counters);
    const auto& infos = m_metrics->GetWorkloads();
    for (uint32_t i = 0; i < infos.size(); ++i)
    {
        uint64_t ops = 0;
        uint64_t bytes = 0;
        for (const auto& r : m_metrics->GetOps())
        {
            if (r.workload == i)
            {
                ++ops;
                bytes += r.bytes;
            }
        }
        Metrics::Distribution d = Metrics::Summarize(m_metrics->Durations(i));
        nlohmann::json w = {{"label", infos[i].label},
                            {"type", infos[i].type},
                            {"ops", ops},
                            {"completed", d.count},
                            {"failed", m_metrics->GetFailed(i)},
                            {"bytes", bytes},
                            {"duration_us", DistributionJson(d)}};
        if (!infos[i].pattern.empty())
        {
            w["pattern"] = infos[i].pattern;
        }
        const auto& rx = m_metrics->GetReceiverCompletions(i);
        if (!rx.empty())
        {
            w["receiver_completion_us"] = DistributionJson(Metrics::Summarize(rx));
            w["receiver_completions"] = rx.size();
        }
        for (const auto& [key, value] : m_metrics->GetExtras(i))
        {
            w[key] = value;
        }
        std::map<std::string, std::vector<double>> samples;
        m_workloads[i]->ReportSamples(samples);
        for (const auto& [key, values] : samples)
        {
            w[key] = DistributionJson(Metrics::Summarize(values));
        }
        w["network"] = OwnerNetworkSummary(i, retx);
        if (nlohmann::json phases = PhaseSummary(i); !phases.empty())
        {
            w["phases"] = phases;
        }
        const nlohmann::json& spec = m_config.workloads[i].spec;
        if (m_config.workloads[i].lossTolerant
            || (spec.is_object() && spec.contains("loss_tolerant_layers")))
        {
            w["loss_tolerant"] = LossSummary(i, counters);
        }
        s["workloads"].push_back(w);
    }
    s["network"] = net;
    // Only when there are any: the key is new, and runs without stragglers keep their bytes.
    for (std::size_t i = 0; i < m_stragglers.size(); ++i)
    {
        const Ptr<Straggler>& st = m_stragglers[i];
        nlohmann::json e = {{"type", st->GetConfig().type}, {"events", st->GetEventCount()}};
        std::map<std::string, double> figures;
        st->Report(figures);
        for (const auto& [key, value] : figures)
        {
            e[key] = value;
        }
        // Its own traffic (a congested receiver's incast); zeros for the others.
        e["network"] = OwnerNetworkSummary(infos.size() + i, retx);
        s["stragglers"].push_back(e);
    }
    for (uint32_t i = 0; i < m_config.faults.size(); ++i)
    {
        s["faults"].push_back(FaultSummary(i));
    }
    return s;
}

nlohmann::json
ScenarioRunner::FaultSummary(uint32_t i) const
{
    const FaultConfig& f = m_config.faults[i];
    Ptr<LinkFault> fault = m_fabric->GetFault(i);
    const auto [a, b] = m_fabric->GetFaultLink(i);
    const TopologyGraph& g = m_fabric->GetGraph();
    nlohmann::json converged = nlohmann::json::array();
    for (const Time& t : fault->GetConvergedAt())
    {
        converged.push_back(t.ToDouble(Time::US));
    }
    return {
        {"type", f.type},
        {"link", g.NodeName(a) + "-" + g.NodeName(b)},
        {"down_us", f.atUs},
        {"up_us", f.upUs == FaultConfig::NEVER ? nlohmann::json(nullptr) : nlohmann::json(f.upUs)},
        {"converged_us", converged},
        {"frames_lost", fault->GetLosses()}};
}

std::vector<std::string>
ScenarioRunner::StuckOps(std::size_t max) const
{
    std::vector<std::string> out;
    const auto& infos = m_metrics->GetWorkloads();
    for (const auto& r : m_metrics->GetOps())
    {
        if (r.done || r.background)
        {
            continue;
        }
        if (out.size() == max)
        {
            out.push_back("...");
            break;
        }
        std::ostringstream os;
        os << infos[r.workload].label << " op " << r.op;
        if (r.src >= 0 && r.dst >= 0)
        {
            os << " (host " << r.src << " -> " << r.dst << ", " << r.bytes << " B)";
        }
        else if (r.src >= 0)
        {
            os << " (host " << r.src << " -> " << r.receivers << " receivers, " << r.bytes << " B)";
        }
        os << (r.started ? " started, not completed" : " never started");
        out.push_back(os.str());
    }
    return out;
}

const ScenarioConfig&
ScenarioRunner::GetConfig() const
{
    return m_config;
}

TopologyBuilder&
ScenarioRunner::GetFabric()
{
    return *m_fabric;
}

Ptr<Workload>
ScenarioRunner::GetWorkload(uint32_t i) const
{
    return m_workloads.at(i);
}

Ptr<Straggler>
ScenarioRunner::GetStraggler(uint32_t i) const
{
    return m_stragglers.at(i);
}

Ptr<StragglerLog>
ScenarioRunner::GetStragglerLog() const
{
    return m_stragglerLog;
}

Ptr<Metrics>
ScenarioRunner::GetMetrics() const
{
    return m_metrics;
}

} // namespace ns3
