/*
 * Runs one scenario: builds the fabric and workloads, simulates until every operation has
 * completed or stop_time_ms is reached, and produces the summary the result files hold.
 * The ns-3 simulator is a process-wide singleton: one runner at a time, and the runner's
 * destructor calls Simulator::Destroy().
 */
#ifndef MCAST4AI_SCENARIO_RUNNER_H
#define MCAST4AI_SCENARIO_RUNNER_H

#include "core/model/counter-set.h"
#include "rdma/model/path-steering.h"
#include "rdma/model/rdma-nic.h"
#include "scenario/model/packet-trace-writer.h"
#include "scenario/model/rank-completion.h"
#include "scenario/model/rate-trace-writer.h"
#include "scenario/model/run-watchdog.h"
#include "scenario/model/scenario-config.h"
#include "scenario/model/steering-trace-writer.h"
#include "scenario/model/timeline-writer.h"
#include "scenario/model/topology-builder.h"
#include "workload/model/metrics.h"
#include "workload/model/workload.h"

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Drives a scenario from a validated config to its results.
 */
class ScenarioRunner
{
public:
    struct Options
    {
        bool progress{false}; ///< print a progress line (only makes sense on a terminal)
        /// The ns-3 engine (SimulatorImplementationType) Build() binds before the simulator is
        /// made; empty: whatever is bound. Every engine runs the same events in the same order.
        std::string engine{"ns3::FabricSimulatorImpl"};
    };

    explicit ScenarioRunner(const ScenarioConfig& config);
    ScenarioRunner(const ScenarioConfig& config, Options options);
    ~ScenarioRunner();
    ScenarioRunner(const ScenarioRunner&) = delete;
    ScenarioRunner& operator=(const ScenarioRunner&) = delete;

    /**
     * Switch ns-3 to picosecond time, once per process, before any simulation runs. The
     * default nanosecond resolution truncates frame times (88.48 ns for a 1106-byte frame at
     * 100 Gb/s, 1.72 ns for an ACK at 400 Gb/s) and would bias every closed-form check.
     */
    static void UsePicoseconds();

    void Build();
    /// Simulate; returns true if every operation completed before stop_time_ms.
    bool Run();

    /// summary.json as DESIGN.md specifies it.
    nlohmann::json Summary() const;
    /// faults[i]'s entry in summary.json: what failed, when, when routes followed, losses.
    nlohmann::json FaultSummary(uint32_t i) const;
    /// Human-readable description of up to max unfinished operations.
    std::vector<std::string> StuckOps(std::size_t max) const;
    /**
     * What ended an incomplete run: "stop_time_ms", or the budget of `limits` it passed
     * ("limits.max_events", "limits.max_rss_mb", "limits.watchdog_us"); "" when every
     * operation completed.
     */
    const std::string& GetStoppedBy() const;

    const ScenarioConfig& GetConfig() const;
    TopologyBuilder& GetFabric();
    Ptr<Metrics> GetMetrics() const;
    /// The watchdog (null when limits.watchdog_us is 0); its report says why it stopped a run.
    Ptr<RunWatchdog> GetWatchdog() const;
    /// Workload i as installed (the class its type names: FlowWorkload, BroadcastWorkload...).
    Ptr<Workload> GetWorkload(uint32_t i) const;
    Ptr<Straggler> GetStraggler(uint32_t i) const;
    /// The events the stragglers fired (stragglers.csv).
    Ptr<StragglerLog> GetStragglerLog() const;
    /// "workloads[i].KEY: why" for each key a workload found has no effect (after Build).
    std::vector<std::string> WorkloadWarnings() const;

private:
    /// Calls f(host, QP) for every queue pair the fabric's NICs have when it is built.
    void ForEachQp(const std::function<void(uint32_t, Ptr<QueuePair>)>& f) const;
    void Progress();
    /// Every 10 µs of simulated time while a `limits` budget is set: stop past it.
    void CheckBudgets();
    /// Every quarter of limits.watchdog_us: stop a run that has stalled.
    void CheckWatchdog();
    /// output.timeline: sample the port counters, every output.timeline_sample_us.
    void SampleTimeline();
    Time TimelineInterval() const;
    /// Model events so far (ns-3's initialisation and the bookkeeping ticks left out).
    uint64_t ModelEvents() const;
    /**
     * Every component's counters (hosts, their queue pairs by owner as "owner.N.KEY", their
     * receive paths as "receive_path.KEY", switches): this process's, or after a distributed
     * run every process's (MergeRanks).
     */
    CounterSet FabricCounters() const;
    /**
     * A distributed run, after Simulator::Run on every rank: rank 0 takes every other rank's
     * records (operations, per-operation and per-owner ledgers, counters, events) so that its
     * summary and ops.csv cover the whole fabric.
     */
    void MergeRanks();
    /// ScenarioError for what a run spread over processes cannot do yet.
    void RefuseSpread() const;
    /// New-protocol P2MP senders (Workload::GetP2mpRoots) on two processes: refused, once the
    /// workloads are installed.
    void RefuseSpreadGroups() const;
    /// By rank: the port the messages of a distributed run to it go to (RankMessenger).
    std::vector<Ptr<NetDevice>> Mailboxes() const;
    /// The distributed engine's lookahead: the delay of the cut cables, all fabric cables.
    Time Lookahead() const;
    nlohmann::json NetworkSummary(const CounterSet& c) const;
    /// summary.json's `watchdog` block, when the watchdog stopped the run.
    nlohmann::json WatchdogSummary() const;
    /// The reorder histogram of tolerant receivers (RdmaNicCounters::RecordDisplacement: bucket
    /// b holds displacements 2^b .. 2^(b+1) - 1) for summary.json.
    static nlohmann::json ReorderSummary(const std::vector<uint64_t>& hist, uint64_t drops);
    /// FrameInfo::owner of workload k (k < workloads) or straggler k - workloads.
    static uint8_t OwnerOf(std::size_t k);
    /// FrameInfo::owner of workload i's P2MP channels (Workload::Context::p2mpOwner).
    uint8_t P2mpOwnerOf(std::size_t i) const;
    /// summary.json workloads[k].phases: per phase name, its durations and data frames' counts
    /// over the completed operations; empty for a workload without phases.
    nlohmann::json PhaseSummary(std::size_t k) const;
    /// One source's counters as summary.json gives them.
    static nlohmann::json CountersJson(const TrafficLedger::Counters& c, uint64_t retx);
    /// The NICs' receive paths (NicReceivePipeline): load, backlog, waits, pauses; from c
    /// (FabricCounters), as the other parts of the summary below.
    nlohmann::json ReceivePathSummary(const CounterSet& c) const;
    /// ACK frames put on links of each class ("leaf>spine"...) (TrafficLedger).
    nlohmann::json AcksByLinkSummary() const;
    /// Retransmitted packets of each owner's queue pairs (TrafficLedger::MAX_OWNERS entries).
    std::vector<uint64_t> RetransmissionsByOwner(const CounterSet& c) const;
    /// The `loss_tolerant` entry of workload k's summary: what was lost, given up on and
    /// skipped.
    nlohmann::json LossSummary(std::size_t k, const CounterSet& counters) const;
    /// The network counters of owner OwnerOf(k)'s frames; null if it has none.
    nlohmann::json OwnerNetworkSummary(std::size_t k,
                                       const std::vector<uint64_t>& retxByOwner) const;

    ScenarioConfig m_config;
    Options m_options;
    std::unique_ptr<TopologyBuilder> m_fabric;
    Ptr<Metrics> m_metrics;
    std::vector<Ptr<Workload>> m_workloads;
    std::vector<Ptr<Straggler>> m_stragglers;
    Ptr<StragglerLog> m_stragglerLog;
    std::unique_ptr<RateTraceWriter> m_rateTrace;
    std::unique_ptr<PacketTraceWriter> m_packetTrace;
    std::unique_ptr<SteeringTraceWriter> m_steeringTrace;
    std::unique_ptr<TimelineWriter> m_timeline;
    Ptr<RunWatchdog> m_watchdog;
    double m_wallSeconds{0};
    double m_progressStartWall{0};
    double m_lastProgressWall{0};
    uint64_t m_progressEvents{0};       // bookkeeping ticks (progress, budgets): not model events
    uint64_t m_bookkeepingScheduled{0}; // ... scheduled so far (those run: m_progressEvents)
    uint64_t m_eventsBefore{0};
    std::string m_stoppedBy;
    uint64_t m_events{0};
    Time m_simEnd;
    bool m_complete{false};
    uint32_t m_ranks{1}; ///< processes the run is spread over (ProcessRanks)
    Ptr<RankMessenger> m_messenger;
    Ptr<RankCompletion> m_completion;
    std::unique_ptr<CounterSet> m_mergedCounters; ///< every process's, on rank 0 (MergeRanks)
    nlohmann::json m_distribution; ///< summary.json's `distribution`, on rank 0 (MergeRanks)
};

} // namespace ns3

#endif /* MCAST4AI_SCENARIO_RUNNER_H */
