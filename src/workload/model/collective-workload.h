/*
 * A training collective over a set of ranks: the algorithm (a subclass) builds the dependency
 * graph of one iteration, and this class runs it over the fabric for every iteration. Each
 * transfer is posted the moment its source rank has started the iteration and has received
 * what the transfer waits for: unicast steps as RDMA WRITEs on per-pair queue pairs, P2MP
 * steps as messages on the rank's P2MP channel through p2mp.mechanism.
 */
#ifndef MCAST4AI_COLLECTIVE_WORKLOAD_H
#define MCAST4AI_COLLECTIVE_WORKLOAD_H

#include "ns3/nstime.h"
#include "p2mp/model/p2mp-channel.h"
#include "rdma/model/queue-pair.h"
#include "workload/model/collective-schedule.h"
#include "workload/model/workload.h"

#include <deque>
#include <map>
#include <memory>
#include <random>
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
    /// The graph of one iteration, once installed.
    const CollectiveSchedule& GetSchedule() const;
    /// Host of each rank, in ring order.
    const std::vector<uint32_t>& GetRanks() const;

protected:
    void DoInstall() override;
    void DoDispose() override;
    /// The algorithm: one iteration's transfers over ranks 0..N-1.
    /// Fill in what an algorithm knows of its operations beyond the engine's defaults (bytes,
    /// receivers = every rank): a one-to-many type names its source. Nothing by default.
    virtual void DescribeOp(Metrics::OpRecord& record) const;
    /// DescribeOp of a one-to-many type: the first rank sends (rank, src), the others receive.
    void DescribeFirstRankAsSource(Metrics::OpRecord& record) const;
    virtual CollectiveSchedule BuildSchedule(uint32_t ranks,
                                             uint64_t bytes,
                                             uint64_t chunkBytes) const = 0;
    /// Compute time of a rank before it starts an iteration (> 0 only): compute_us, as the
    /// scenario's stragglers change it.
    virtual Time ComputeTime(uint32_t rank, uint32_t iteration) const;

private:
    /// Progress of one iteration; at most a few are in flight at once.
    struct Iteration
    {
        uint64_t handle{0};
        bool started{false};
        std::vector<uint32_t> waiting;      ///< per transfer: awaited arrivals left
        std::vector<uint32_t> inboundLeft;  ///< per rank
        std::vector<uint32_t> outboundLeft; ///< per rank
        std::vector<bool> rankStarted;
        std::vector<bool> rankDone;               ///< has received and posted all of this iteration
        std::vector<std::vector<uint32_t>> ready; ///< unblocked before the rank started
        uint64_t arrivalsLeft{0};
        std::vector<Metrics::StepRecord> steps; ///< by step
    };

    Iteration& GetIteration(uint32_t i);
    void StartRank(uint32_t rank, uint32_t i);
    void Unblocked(uint32_t i, uint32_t t);
    void Post(uint32_t i, uint32_t t);
    void Arrived(uint32_t i, uint32_t t, uint32_t rank);
    void MaybeRankDone(uint32_t i, uint32_t rank);
    void UnicastReceived(
        uint32_t pair, Ptr<QueuePair> qp, uint64_t msn, uint64_t bytes, uint64_t psn);
    void MulticastDelivered(uint64_t tag, uint32_t host);
    uint16_t Entropy();

    std::vector<uint32_t> m_hosts;     ///< rank -> host
    std::vector<int64_t> m_rankOfHost; ///< host -> rank, -1 if none
    std::unique_ptr<CollectiveSchedule> m_schedule;
    std::vector<std::vector<uint32_t>> m_roots; ///< per rank: transfers that wait for nothing
    uint32_t m_iterations{1};
    Time m_compute;
    bool m_barrier{true}; ///< iterations start together, when the previous one completed
    uint64_t m_bytes{0};
    std::mt19937_64 m_rng;

    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_pairIndex;
    std::vector<uint32_t> m_pairOf;                                    ///< unicast transfer -> pair
    std::vector<Ptr<QueuePair>> m_pairQp;                              ///< sender side
    std::vector<Ptr<QueuePair>> m_pairRemote;                          ///< receiver side
    std::vector<std::deque<std::pair<uint32_t, uint32_t>>> m_inFlight; ///< (iteration, transfer)
    std::vector<Ptr<P2mpChannel>> m_channels; ///< per rank, if it sends P2MP transfers
    /// Receiver ranks of a P2MP transfer -> the same set as hosts, ascending.
    std::map<const std::vector<uint32_t>*, CollectiveSchedule::RankSet> m_hostSets;

    std::map<uint32_t, Iteration> m_active;
    std::vector<uint64_t> m_handles;
    std::vector<uint32_t> m_stepOf; ///< transfer -> its depth in the graph
    uint32_t m_steps{0};            ///< steps of one iteration: the graph's depth
    uint64_t m_transfersPosted{0};
};

} // namespace ns3

#endif /* MCAST4AI_COLLECTIVE_WORKLOAD_H */
