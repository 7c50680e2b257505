/*
 * Per-operation records (one per flow, collective operation or request) and the distribution
 * summaries the result files report.
 */
#ifndef MCAST4AI_METRICS_H
#define MCAST4AI_METRICS_H

#include "core/model/packed-bytes.h"
#include "fabric/model/op-ledger.h"
#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "wire/model/frame-info.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Collects operation start/end times and tells the runner when all have finished.
 */
class Metrics : public Object
{
public:
    static TypeId GetTypeId();

    /// One row of ops.csv; -1 marks a column that does not apply.
    struct OpRecord
    {
        uint32_t workload{0};
        uint64_t op{0};
        int64_t iteration{-1};
        int64_t rank{-1};
        int64_t request{-1};
        int64_t session{-1};
        int64_t src{-1};
        int64_t dst{-1};
        uint64_t bytes{0};
        uint32_t receivers{0};
        Time start;
        Time end;
        bool started{false};
        bool done{false};
        /// It ended, but as a failure (a receiver it was for will not have it): it is not
        /// among the completed operations or their durations.
        bool failed{false};
        /// Cross-traffic: the run does not wait for it, and it may be added while it goes.
        bool background{false};
        /// Started and ended by another process of a distributed run (its src host is
        /// there): this one neither waits for it nor records it until MergeFrom.
        bool elsewhere{false};
        uint64_t firstPhase{0}; ///< its phases: PhaseRecords firstPhase .. + phases - 1
        uint32_t phases{0};
    };

    /**
     * A named part of an operation whose data frames are counted apart (its own tag): an MoE
     * layer's dispatch and combine, an AllReduce's reduce-scatter and all-gather. Its row of
     * ops.csv (kind `phase`) spans its first post to its last arrival.
     */
    struct PhaseRecord
    {
        uint64_t handle{0}; ///< the operation it is part of
        std::string name;
        uint64_t bytes{0};     ///< its transfers' bytes, a P2MP message's once
        uint32_t receivers{0}; ///< ranks that receive data in it
        Time start;
        Time end;
        bool started{false};
        bool done{false};
    };

    /// Mean and nearest-rank percentiles of a sample.
    struct Distribution
    {
        uint64_t count{0};
        double mean{0};
        double p50{0};
        double p95{0};
        double p99{0};
        double p999{0};
        double max{0};
    };

    struct WorkloadInfo
    {
        std::string label;
        std::string type;
        std::string pattern;
        /// Its P2MP channels' frames are a source of their own (OpLedger::SetP2mpOwner), so
        /// ops.csv can give their bytes apart (p2mp_net_bytes).
        bool p2mpApart{false};
    };

    uint32_t AddWorkload(const WorkloadInfo& info);
    /// The tag an operation's data frames carry (FrameInfo::op, OpLedger rows): its handle + 1,
    /// or 0 (not counted per operation) past the 2^23 - 1 operation tags a frame can carry.
    static uint32_t OpTag(uint64_t handle)
    {
        return handle + 1 < OpLedger::FIRST_PHASE_TAG ? static_cast<uint32_t>(handle + 1) : 0;
    }
    /// The tag a phase's data frames carry instead of its operation's: FIRST_PHASE_TAG + its
    /// index, or 0 past the tags a frame can carry (its frames then carry the operation's).
    static uint32_t PhaseTag(uint64_t phase)
    {
        return phase <= FrameInfo::MAX_OP_TAG - OpLedger::FIRST_PHASE_TAG
                   ? static_cast<uint32_t>(OpLedger::FIRST_PHASE_TAG + phase)
                   : 0;
    }
    /// The operation a frame's tag counts for (a phase's, its operation's), or -1 for none.
    int64_t HandleOfTag(uint32_t tag) const;
    /// The phase a frame's tag names, or null (an operation's own tag, or none).
    const PhaseRecord* PhaseOfTag(uint32_t tag) const;
    /// Register an operation (a background one also while the run goes); returns its handle.
    uint64_t AddOp(const OpRecord& record);
    /// Register a phase of an operation (the phases of one operation one after the other);
    /// returns its index.
    uint64_t AddPhase(const PhaseRecord& record);
    /// A phase's bytes and receivers, once the graph it is part of is built.
    void SetPhaseSize(uint64_t phase, uint64_t bytes, uint32_t receivers);
    /// A phase's first data is posted, now.
    void StartPhase(uint64_t phase);
    /// A phase's first data was posted at start (learnt later, from another process).
    void StartPhaseAt(uint64_t phase, Time start);
    /// A phase's last data arrived at end.
    void CompletePhase(uint64_t phase, Time end);
    const std::vector<PhaseRecord>& GetPhases() const;
    /// The tags an operation's data frames carry: its own, then its phases'.
    std::vector<uint32_t> TagsOf(uint64_t handle) const;
    /// Name an operation's hosts once the run has chosen them (a request's prefill and
    /// decode ranks); -1 leaves a column empty.
    void SetOpHosts(uint64_t handle, int64_t src, int64_t dst);
    void StartOp(uint64_t handle);
    void CompleteOp(uint64_t handle);
    /// The operation started at start: as StartOp, for a start learnt later (the first of
    /// several processes' ranks to start it).
    void StartOpAt(uint64_t handle, Time start);
    /// The operation ended at end, at or before now: as CompleteOp, for an end learnt later
    /// (the last arrival, on another process).
    void CompleteOpAt(uint64_t handle, Time end);
    /// The operation failed (OpLedger::Failed): it ends, or has ended, as a failure.
    void MarkFailed(uint64_t handle);

    /// Called once when the last registered foreground operation completes.
    void SetAllDoneCallback(Callback<void> cb);

    /// Foreground operations not completed yet.
    uint64_t GetPending() const;
    uint64_t GetCompleted() const;
    /// The latest end of a completed foreground operation (where one process stops), zero if
    /// none.
    Time GetLastEnd() const;
    const std::vector<OpRecord>& GetOps() const;
    const std::vector<WorkloadInfo>& GetWorkloads() const;
    /// Operations of one workload that ended as failures.
    uint64_t GetFailed(uint32_t workload) const;
    /// Durations (microseconds) of the completed operations of one workload (failed ones
    /// left out).
    std::vector<double> Durations(uint32_t workload) const;

    /// One receiver's own completion of an operation (a P2MP message, a collective iteration).
    struct ReceiverRecord
    {
        uint64_t handle{0}; ///< the operation
        uint32_t host{0};   ///< the receiver
        Time end;           ///< when it had everything of the operation
    };

    /// One step of a collective iteration: when its first transfer was posted, when its last
    /// arrived, and that last arrival's hosts (the rank or link that held the step up).
    struct StepRecord
    {
        uint64_t handle{0}; ///< the iteration's operation
        uint32_t step{0};
        uint32_t transfers{0};
        Time start;
        Time end;
        uint32_t lastSrc{0}; ///< host
        uint32_t lastDst{0}; ///< host
    };

    void AddStep(const StepRecord& record);
    const std::vector<StepRecord>& GetSteps() const;

    /// A receiver of a started operation has all of it, now: from the operation's start to
    /// that receiver's last byte.
    void AddReceiverCompletion(uint64_t handle, uint32_t host);
    /// Durations (microseconds) of one workload's receiver completions, in the order they
    /// happened.
    const std::vector<double>& GetReceiverCompletions(uint32_t workload) const;
    /// Every receiver completion, in the order they happened.
    const std::vector<ReceiverRecord>& GetReceiverRecords() const;
    /// Workload-specific figures for summary.json (copies per message, installs, ...).
    void SetExtra(uint32_t workload, const std::string& key, double value);
    const std::map<std::string, double>& GetExtras(uint32_t workload) const;

    /**
     * What this process recorded of its own operations (not `elsewhere`): their start, end and
     * outcome, their phases', and every receiver completion and step it saw. For the process
     * that writes the results of a distributed run (MergeFrom).
     */
    void PackOwn(PackedBytes& out) const;
    /// Take another process's PackOwn; then FinishMerge() once all are in.
    void MergeFrom(PackedBytes& in);
    /**
     * Every operation is now known here: order the receiver completions and steps by time (a
     * process's own in the order it saw them), and count completions again.
     */
    void FinishMerge();

    /// Nearest-rank percentiles: the p-quantile is the ceil(p * n)-th smallest value.
    static Distribution Summarize(std::vector<double> values);

private:
    std::vector<WorkloadInfo> m_workloads;
    std::vector<std::vector<double>> m_receiverUs;
    std::vector<ReceiverRecord> m_receivers;
    std::vector<StepRecord> m_steps;
    std::vector<std::map<std::string, double>> m_extras;
    std::vector<OpRecord> m_ops;
    std::vector<PhaseRecord> m_phases;
    uint64_t m_completed{0};
    uint64_t m_foreground{0};
    uint64_t m_foregroundDone{0};
    Callback<void> m_allDone;
};

} // namespace ns3

#endif /* MCAST4AI_METRICS_H */
