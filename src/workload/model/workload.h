/*
 * A workload: per-rank state machines that post RDMA messages, or P2MP messages through the
 * scenario's delivery, when their dependencies finish, and record each operation. Workload
 * types are chosen by the name a scenario gives them (workloads[].type); the runner knows
 * only this base class.
 */
#ifndef MCAST4AI_WORKLOAD_H
#define MCAST4AI_WORKLOAD_H

#include "core/model/packed-bytes.h"
#include "fabric/model/rank-messenger.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "p2mp/model/p2mp-delivery.h"
#include "rdma/model/rdma-nic.h"
#include "topology/model/topology-config.h"
#include "workload/model/metrics.h"
#include "workload/model/straggler.h"
#include "workload/model/timeline-segment.h"
#include "workload/model/workload-config.h"
#include "workload/model/workload-type-registry.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Base class of every workload type.
 *
 * Lifecycle: the runner creates the workload by its type name and calls Install() once,
 * before the simulation starts; DoInstall() creates queue pairs or P2MP channels, registers
 * the operations with AddOp() and schedules their starts. While the run goes, the workload
 * calls StartOp() and CompleteOp() as operations begin and end (the OperationComplete trace
 * fires). After the run the runner asks Report() for the workload's own figures.
 */
class Workload : public Object
{
public:
    static TypeId GetTypeId();

    /// What a workload is installed into.
    struct Context
    {
        std::vector<Ptr<RdmaNic>> nics; ///< by host index
        Ptr<P2mpDelivery> delivery;     ///< the scenario's p2mp.mechanism
        Ptr<Metrics> metrics;
        uint32_t index{0}; ///< position in the scenario's workloads[]
        uint64_t seed{1};  ///< the scenario's seed
        /// Whose traffic its queue pairs' and channels' frames are (FrameInfo::owner): the
        /// scenario gives workload i owner i + 1; 0 leaves them unattributed.
        uint8_t owner{0};
        /// Whose traffic its P2MP channels' frames are: a second source, so that summary.json
        /// tells the workload's P2MP traffic from its unicast queue pairs' (a MoE layer's
        /// dispatch from its combine); owner itself when the one-byte range runs out.
        uint8_t p2mpOwner{0};
        /// The scenario's stragglers, in stragglers[] order (they may change compute times).
        std::vector<Ptr<Straggler>> stragglers;
        /// By host: whether this process simulates it (a distributed run); empty: every host.
        std::vector<bool> localHosts;
        /// A distributed run's messages between processes (null in one process): for what a
        /// process decides and another must know.
        Ptr<RankMessenger> messenger;
        /// A multi-plane fabric's planes: nics holds every XPU's port, plane by plane (nics[p
        /// * H + x] is XPU x's port on plane p); a workload addresses the H XPUs.
        uint32_t planes{1};
        /// How a transfer is spread over the planes (topology.spread).
        PlaneSpreadRule spread{PlaneSpreadRule::STRIPE};
    };

    void Install(const WorkloadConfig& config, const Context& context);
    /// Figures of this workload for its summary.json entry (beyond ops and durations).
    virtual void Report(std::map<std::string, double>& figures) const;
    /// Sample series (µs) whose percentiles its summary.json entry gives, as duration_us's:
    /// key -> values, e.g. a token latency per step. None by default.
    virtual void ReportSamples(std::map<std::string, std::vector<double>>& samples) const;

    const WorkloadConfig& GetConfig() const;
    /// The hosts it addresses: the XPUs of a multi-plane fabric.
    uint32_t GetHostCount() const;

    /// Why a workload entry does not run spread over processes (SpreadRefusal).
    struct Refusal
    {
        std::string key; ///< of the entry; empty: it runs spread
        std::string why; ///< empty: only that it has not been made to yet
    };

    /**
     * Whether w runs when its hosts are spread over the processes of a distributed run whose
     * messages take lookahead: every rank installs it whole (the same queue pairs and draws
     * everywhere) and acts only for the hosts it simulates (ActsFor); what passes between
     * hosts is frames, and what one process decides and another must know, messages
     * (Context::messenger). A key of w the runner refuses, with why; key "type" by default: a
     * type that has not been made so.
     */
    virtual Refusal SpreadRefusal(const WorkloadConfig& w, Time lookahead) const;
    /// A key of the entry that has no effect, and why.
    struct Warning
    {
        std::string key;
        std::string why;
    };
    /// Keys that have no effect given what the workload found at install (a trace's content,
    /// say), which the schema cannot know. None by default.
    virtual std::vector<Warning> GetWarnings() const;
    /**
     * Why this type does not run on a fabric of several planes (Context::planes > 1), which
     * the runner refuses it on; empty if it spreads its traffic over them. By default, that
     * the type has not been made to: its queue pairs would use plane 0 alone.
     */
    virtual std::string MultiPlaneRefusal() const;
    /// The hosts that may send a workload's P2MP messages, and its entry's key naming them.
    struct P2mpRoots
    {
        std::string key;
        std::vector<uint32_t> hosts;
    };

    /**
     * Hosts that may send P2MP messages of this workload, once installed: the new protocol's
     * controller installs groups from one process, so in a distributed run they must share
     * one. None by default.
     */
    virtual P2mpRoots GetP2mpRoots() const;
    /**
     * What this process counted of its own that Report gives (a distributed run): packed on
     * every process, merged by the one that writes the results (MergeFrom) before Report.
     * Nothing by default.
     */
    virtual void PackOwn(PackedBytes& out) const;
    virtual void MergeFrom(PackedBytes& in);

    /// Signature of the OperationComplete trace: workload index, operation handle.
    typedef void (*OperationTracedCallback)(uint32_t workload, uint64_t handle);
    /// A host's activity count of one kind changed by delta (+1 begins, -1 ends).
    typedef void (*ActivityTracedCallback)(uint32_t host, HostActivity kind, int32_t delta);
    typedef void (*SegmentTracedCallback)(const TimelineSegment& segment);

protected:
    void DoDispose() override;
    /// Create the workload's queue pairs and operations; schedule what starts it.
    virtual void DoInstall() = 0;

    /// XPU host's port on plane (a multi-plane fabric's node; host itself on plane 0).
    uint32_t PlanePort(uint32_t host, uint32_t plane) const
    {
        return plane * GetHostCount() + host;
    }
    /// Whether this process simulates host, so the workload acts for it (always, in one).
    bool ActsFor(uint32_t host) const
    {
        return m_context.localHosts.empty() || m_context.localHosts[host];
    }

    /// Register an operation (a row of ops.csv) before the run; returns its handle. In a
    /// distributed run it is another process's when its src host is.
    uint64_t AddOp(Metrics::OpRecord record);
    /// AddOp, recorded by the process that simulates host (not src's).
    uint64_t AddOp(Metrics::OpRecord record, uint32_t host);
    void StartOp(uint64_t handle);
    /// The tag to post an operation's messages with (QueuePair::Post, P2mpChannel::Send), so
    /// that ops.csv gets its network experience (Metrics::OpTag).
    static uint32_t OpTag(uint64_t handle)
    {
        return Metrics::OpTag(handle);
    }
    void CompleteOp(uint64_t handle);
    /// The operation ended at end, learnt now (from another process).
    void CompleteOpAt(uint64_t handle, Time end);
    /// An independent random seed for this workload: adding a workload reshuffles no other.
    uint64_t WorkloadSeed() const;
    /// Whether a timeline listens: the Activity and Segment traces are worth firing.
    bool IsTimed() const
    {
        return !m_activityTrace.IsEmpty() || !m_segmentTrace.IsEmpty();
    }
    void Activity(uint32_t host, HostActivity kind, int32_t delta)
    {
        m_activityTrace(host, kind, delta);
    }
    void Segment(const TimelineSegment& segment)
    {
        m_segmentTrace(segment);
    }
    /// A workload that runs another inside (a relayed broadcast) passes on what it fires.
    void ForwardTimeline(Ptr<Workload> inner);
    /// A RoCEv2 UDP source port (the entropy ECMP hashes) from a random draw: the dynamic
    /// range 49152 + [0, 16384).
    static uint16_t EntropyPort(uint64_t draw);
    /// This workload's first P2MP group QPN: group QPNs sit above every connected QPN,
    /// 0x800000 + 4096 per workload index.
    uint32_t GroupQpnBase() const;
    /**
     * \return the keys of this workload's type that are bound to S, a struct of the type's
     * own (its declare function calls BindStruct<S>() and binds its keys to S's members), read
     * from the entry as validated; its keys bound to WorkloadConfig are in m_config, and the
     * attributes its keys name are set before DoInstall.
     */
    template<class S>
    S ReadKeys() const
    {
        S keys;
        WorkloadTypeRegistry::ReadBound(m_config.type, m_config.spec, &keys, typeid(S));
        return keys;
    }

    WorkloadConfig m_config;
    Context m_context;

private:
    TracedCallback<uint32_t, uint64_t> m_completeTrace;
    TracedCallback<uint32_t, HostActivity, int32_t> m_activityTrace;
    TracedCallback<const TimelineSegment&> m_segmentTrace;
};

} // namespace ns3

#endif /* MCAST4AI_WORKLOAD_H */
