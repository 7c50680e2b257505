/*
 * A training collective over a set of ranks: the algorithm (a subclass) builds the dependency
 * graph of one iteration, and this class runs it over the fabric for every iteration. Each
 * transfer is posted the moment its source rank has started the iteration and has received
 * what the transfer waits for: unicast steps as RDMA WRITEs on per-pair queue pairs, P2MP
 * steps as messages on the rank's P2MP channel through p2mp.mechanism.
 */
#ifndef MCAST4AI_COLLECTIVE_WORKLOAD_H
#define MCAST4AI_COLLECTIVE_WORKLOAD_H

#include "core/model/ring-queue.h"
#include "ns3/nstime.h"
#include "p2mp/model/p2mp-channel.h"
#include "rdma/model/queue-pair.h"
#include "workload/model/collective-schedule.h"
#include "workload/model/collective-spread.h"
#include "workload/model/workload.h"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \brief Base class of the collective workloads (allreduce, allgather, reducescatter).
 *
 * Keys read from the workload entry: ranks (hosts, in ring order), bytes (the buffer S),
 * chunk_bytes, iterations, compute_us (between iterations, per rank) and start_us. One
 * operation (ops.csv row) per iteration: from the first rank starting it to the last byte of
 * it arriving. With barrier (the default), every rank starts iteration i+1 compute_us after
 * iteration i has completed on all ranks, as a training step synchronises them; without, a
 * rank does so as soon as it has received everything of iteration i and posted all its sends.
 */
class CollectiveWorkload : public Workload
{
public:
    static TypeId GetTypeId();

    void Report(std::map<std::string, double>& figures) const override;
    /**
     * Spread over processes, each acts for its ranks and tells the others, by message, which
     * transfer a queue pair to one of theirs carries and when its own ranks are done with an
     * iteration (CollectiveSpread). Refused: loss-tolerant data (its connections are made at
     * first use, on one process), and with barrier, a compute_us not above the lookahead
     * (ranks learn of another process's last arrival one lookahead late).
     */
    Refusal SpreadRefusal(const WorkloadConfig& w, Time lookahead) const override;
    /// None: the engine spreads any graph over planes (PlaneSpread).
    std::string MultiPlaneRefusal() const override;
    /// The ranks that send P2MP messages (any rank, when each iteration has its own graph).
    P2mpRoots GetP2mpRoots() const override;
    /// Bytes delivered by step, copies and P2MP messages sent by unicast.
    void PackOwn(PackedBytes& out) const override;
    void MergeFrom(PackedBytes& in) override;
    /// The graph of one iteration, once installed.
    const CollectiveSchedule& GetSchedule() const;
    /// Host of each rank, in ring order.
    const std::vector<uint32_t>& GetRanks() const;
    /// Bytes the receivers' queue pairs and group responders reported whole, by step (the
    /// graph's depth), summed over iterations: what the fabric delivered, not what was posted.
    const std::vector<uint64_t>& GetDeliveredBytesByStep() const;

protected:
    void DoInstall() override;
    void DoDispose() override;
    /// The entry's iterations; 1 where a config built in code left them at 0 (not given).
    uint32_t IterationCount() const
    {
        return std::max(1u, m_config.iterations);
    }
    /// The algorithm: one iteration's transfers over ranks 0..N-1.
    /// Fill in what an algorithm knows of its operations beyond the engine's defaults (bytes,
    /// receivers = every rank): a one-to-many type names its source. Nothing by default.
    virtual void DescribeOp(Metrics::OpRecord& record) const;
    /// DescribeOp of a one-to-many type: the first rank sends (rank, src), the others receive.
    void DescribeFirstRankAsSource(Metrics::OpRecord& record) const;
    virtual CollectiveSchedule BuildSchedule(uint32_t ranks,
                                             uint64_t bytes,
                                             uint64_t chunkBytes) const = 0;
    /// Whether each iteration has a graph of its own (drawn afresh, as an MoE layer's routing
    /// is); false: BuildSchedule's graph serves every iteration.
    virtual bool VariesByIteration() const;
    /// The graph of iteration i >= 1 when VariesByIteration: built when the iteration begins
    /// and freed when it completes, so memory holds the iterations in flight only.
    virtual CollectiveSchedule BuildIterationSchedule(uint32_t ranks, uint32_t iteration);
    /// Copies of their messages that left the P2MP senders, summed over the channels (per
    /// message: its receivers if sent by unicast, else the mechanism's copies per packet).
    double GetP2mpCopies() const;
    /// P2MP messages that went as unicast because no group could be installed.
    uint64_t GetP2mpMessagesViaUnicast() const;
    /// Compute time of a rank before it starts an iteration (> 0 only): compute_us, as the
    /// scenario's stragglers change it.
    virtual Time ComputeTime(uint32_t rank, uint32_t iteration) const;
    /**
     * Whether iteration i's data is loss-tolerant, with budget LayerMaxRetransmissions()
     * (differentiated reliability by model layer): its transfers then go on connections of
     * their own, set up for it at both ends (a second queue pair per pair, a second channel
     * per P2MP sender). None by default: a workload's `loss_tolerant` covers all of its data.
     */
    virtual bool IsLossTolerantIteration(uint32_t i) const;
    /// The budget of the loss-tolerant iterations (the workload's `max_retransmissions`).
    uint8_t LayerMaxRetransmissions() const;

private:
    /// One iteration's graph and what the engine derives from it once.
    struct Plan
    {
        explicit Plan(CollectiveSchedule s);
        CollectiveSchedule schedule;
        std::vector<std::vector<uint32_t>> roots; ///< per rank: transfers that wait for nothing
        std::vector<uint32_t> pairOf;             ///< unicast transfer -> pair
        std::vector<uint32_t> stepOf;             ///< transfer -> its depth in the graph
        uint32_t steps{0};                        ///< the graph's depth
        std::vector<uint64_t> phaseBytes;         ///< by schedule phase: its transfers' bytes
        std::vector<uint32_t> phaseReceivers;     ///< by schedule phase: ranks receiving data
        /// Receiver ranks of a P2MP transfer and its plane -> their ports on it, ascending.
        std::map<std::pair<const std::vector<uint32_t>*, uint16_t>, CollectiveSchedule::RankSet>
            hostSets;
    };

    /// Progress of one iteration; at most a few are in flight at once.
    struct Iteration
    {
        uint64_t handle{0};
        std::shared_ptr<const Plan> plan;
        bool started{false};
        std::vector<uint32_t> waiting;      ///< per transfer: awaited arrivals left
        std::vector<uint32_t> inboundLeft;  ///< per rank
        std::vector<uint32_t> outboundLeft; ///< per rank
        std::vector<bool> rankStarted;
        std::vector<bool> rankDone;               ///< has received and posted all of this iteration
        std::vector<std::vector<uint32_t>> ready; ///< unblocked before the rank started
        uint64_t arrivals{0};                     ///< at the ranks this process acts for
        uint64_t arrivalsLeft{0};
        uint32_t ranks{0}; ///< this process acts for
        uint32_t ranksStarted{0};
        bool partDone{false};
        Time firstStart{Time::Max()};
        Time lastStart;
        Time lastArrival;
        std::vector<Metrics::StepRecord> steps; ///< by step
        std::vector<bool> stepArrived;          ///< by step
        std::vector<uint64_t> phases;           ///< by schedule phase: Metrics' index
        std::vector<bool> phaseStarted;         ///< by schedule phase: posted here
        std::vector<Time> phaseStart;           ///< by schedule phase: its first post here
        std::vector<Time> phaseEnd;             ///< by schedule phase: its last arrival so far
    };
    /// The tag transfer t of iteration it is posted with: its phase's, else its operation's.
    uint32_t TagOf(const Iteration& it, uint32_t t) const;

    /// Derive a plan: queue pairs for its unicast pairs, channels for its P2MP senders.
    std::shared_ptr<const Plan> MakePlan(CollectiveSchedule schedule);
    /// Iteration i's progress, made when first needed: iterations are made in order (their
    /// graphs draw queue pairs' entropy in turn), the same on every process.
    Iteration& GetIteration(uint32_t i);
    Iteration& MakeIteration(uint32_t i);
    void StartRank(uint32_t rank, uint32_t i);
    void Unblocked(uint32_t i, uint32_t t);
    void Post(uint32_t i, uint32_t t);
    /// Transfer t of iteration i is whole at rank, which reported bytes of it (0: local work).
    void Arrived(uint32_t i, uint32_t t, uint32_t rank, uint64_t bytes);
    void MaybeRankDone(uint32_t i, uint32_t rank);
    /// Rank computes for `compute` before its next iteration (for a timeline: StartRank ends it).
    void ComputeBegins(uint32_t rank, Time compute);
    /// The ranks this process acts for are done with iteration i: what they saw of it.
    void PartDone(uint32_t i);
    /// Iteration i is done on every rank; all: what every process saw of it.
    void Complete(uint32_t i, const CollectiveSpread::Part& all);
    /// Another process posted (i, t) on pair to a rank this one acts for.
    void RemotePosted(uint32_t pair, uint32_t i, uint32_t t);
    /// The process that simulates host.
    uint32_t ProcessOf(uint32_t host) const;
    /// qp, the receiving end of pair, tells UnicastReceived what arrives.
    void Received(Ptr<QueuePair> qp, uint32_t pair);
    void UnicastReceived(Ptr<QueuePair> qp, uint64_t msn, uint64_t bytes, uint64_t psn);
    void MulticastDelivered(uint64_t tag, uint32_t host, uint64_t bytes);
    uint16_t Entropy();
    /// The loss-tolerant twin of pair (created at its first use), an index like pair's.
    uint32_t TolerantPair(uint32_t pair);
    /// A new pair from NIC src to NIC dst on a new connection (RdmaNic::CreateConnection).
    void AddPair(Ptr<RdmaNic> src, Ptr<RdmaNic> dst);
    /// A new pair on the connection whose sending end is a and receiving end b (null at a
    /// host another process simulates).
    void AddPair(Ptr<QueuePair> a, Ptr<QueuePair> b);
    /// The loss-tolerant twin of rank r's P2MP channel on plane (created at its first use).
    Ptr<P2mpChannel> TolerantChannel(uint32_t r, uint32_t plane);
    /// Rank r's channel on plane, in m_channels.
    std::size_t ChannelIndex(uint32_t r, uint32_t plane) const
    {
        return std::size_t{plane} * m_hosts.size() + r;
    }
    /// The ports on plane of every rank but r, ascending: a channel's possible receivers.
    std::vector<uint32_t> OtherPorts(uint32_t r, uint32_t plane) const;

    std::vector<uint32_t> m_hosts;       ///< rank -> host
    std::vector<int64_t> m_rankOfHost;   ///< host (a port on any plane) -> rank, -1 if none
    std::shared_ptr<const Plan> m_first; ///< iteration 0's (every iteration's, unless varying)
    uint32_t m_iterations{1};
    Time m_compute;
    bool m_barrier{true}; ///< iterations start together, when the previous one completed
    uint64_t m_bytes{0};
    std::mt19937_64 m_rng;

    std::map<std::tuple<uint32_t, uint32_t, uint16_t>, uint32_t> m_pairIndex; ///< (src, dst, plane)
    /// Sender and receiver side of each pair; null where another process simulates the host.
    std::vector<Ptr<QueuePair>> m_pairQp;
    std::vector<Ptr<QueuePair>> m_pairRemote;
    std::unordered_map<const QueuePair*, uint32_t> m_pairOfReceiver; ///< receiver side -> pair
    QueuePair::ReceiveCallback m_receive; ///< UnicastReceived, shared by the receivers
    std::vector<RingQueue<std::pair<uint32_t, uint32_t>>> m_inFlight; ///< (iteration, transfer)
    std::vector<Ptr<P2mpChannel>> m_channels;    ///< per plane and rank, once it sends P2MP there
    std::map<uint32_t, uint32_t> m_tolerantPair; ///< pair -> its loss-tolerant twin
    std::vector<Ptr<P2mpChannel>> m_tolerantChannels; ///< as m_channels, loss-tolerant iterations

    std::map<uint32_t, Iteration> m_active;
    uint32_t m_made{0};             ///< iterations made so far (GetIteration)
    Ptr<CollectiveSpread> m_spread; ///< in a distributed run
    double m_mergedCopies{0};       ///< other processes' channels' (MergeFrom)
    uint64_t m_mergedViaUnicast{0}; ///< other processes' channels' (MergeFrom)
    std::vector<uint64_t> m_handles;
    uint64_t m_transfersPosted{0};
    std::vector<uint64_t> m_deliveredByStep; ///< bytes receivers reported, by step
    std::vector<bool> m_computing; ///< per rank: computing before its next iteration (timeline)
};

} // namespace ns3

#endif /* MCAST4AI_COLLECTIVE_WORKLOAD_H */
