/*
 * One iteration of a collective as data: the transfers between ranks and which of them must
 * have arrived before another may start. Algorithms (ring, multicast, ...) only build this
 * graph; CollectiveWorkload runs any such graph over the fabric, so a step starts exactly when
 * the data it needs has arrived, never on a timer.
 */
#ifndef MCAST4AI_COLLECTIVE_SCHEDULE_H
#define MCAST4AI_COLLECTIVE_SCHEDULE_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief The dependency graph of one iteration of a collective over ranks 0..N-1.
 *
 * A transfer goes from one rank to one rank (an RDMA WRITE), to a set of ranks (one P2MP
 * message through p2mp.mechanism) or nowhere (a rank's local work, which takes a set time). A
 * transfer may wait for others: it starts when each of them has arrived at the transfer's source
 * rank, and, if it waits for none, when its source rank starts the iteration.
 */
class CollectiveSchedule
{
public:
    using RankSet = std::shared_ptr<const std::vector<uint32_t>>;

    static constexpr uint16_t NO_PHASE = 0xFFFF;

    struct Transfer
    {
        uint32_t src{0};
        uint32_t dst{0};   ///< the receiving rank of a unicast transfer
        RankSet receivers; ///< the receiving ranks of a P2MP transfer (null for unicast)
        uint64_t bytes{0};
        uint32_t step{0};         ///< the algorithm's step, for reports
        uint32_t waitsFor{0};     ///< transfers that must arrive at src first
        bool local{false};        ///< no data: src's own work (dst == src), done after delayNs
        uint16_t phase{NO_PHASE}; ///< index into GetPhases(), or NO_PHASE
        uint64_t delayNs{0};
        uint16_t plane{0}; ///< the switch plane it crosses (a multi-plane fabric; PlaneSpread)
    };

    explicit CollectiveSchedule(uint32_t ranks);

    uint32_t GetRanks() const;
    /**
     * Unicast and P2MP transfers added from now on belong to the phase name (a new one, or one
     * named before); "" to none. Local work belongs to none: a phase is the data it moves. A
     * phase's data frames are counted apart from the rest of the operation's (ops.csv rows of kind
     * `phase`), so that no figure mixes, say, a dispatch with a combine.
     */
    void SetPhase(const std::string& name);
    /// The phases' names, by index.
    const std::vector<std::string>& GetPhases() const;
    /// Add a transfer; returns its index.
    uint32_t AddUnicast(uint32_t src, uint32_t dst, uint64_t bytes, uint32_t step);
    uint32_t AddMulticast(uint32_t src, RankSet receivers, uint64_t bytes, uint32_t step);
    /// Work a rank does itself (an expert's GEMM, a reduction): it "arrives" at the rank
    /// delayNs after the rank posts it, so one such transfer joins many arrivals to many sends
    /// with two edges per transfer instead of one per pair.
    uint32_t AddLocal(uint32_t rank, uint64_t delayNs, uint32_t step);
    /// Send transfer t over plane `plane` of a multi-plane fabric (0 by default).
    void SetPlane(uint32_t t, uint16_t plane);
    /// Transfer `later` starts only when transfer `first` has arrived at later's source,
    /// which must be one of first's receivers.
    void AddDependency(uint32_t later, uint32_t first);

    uint32_t GetTransferCount() const;
    const Transfer& GetTransfer(uint32_t t) const;
    /// The transfers that wait for t (to arrive at their source).
    const std::vector<uint32_t>& GetDependents(uint32_t t) const;
    /// Transfers arriving at each rank, counting each P2MP transfer once per receiver.
    const std::vector<uint32_t>& GetInbound() const;
    /// Transfers sent by each rank.
    const std::vector<uint32_t>& GetOutbound() const;
    /// Bytes each rank sends (a P2MP message counted once).
    uint64_t GetBytesSent(uint32_t rank) const;
    /// Steps of the longest chain of dependent transfers.
    uint32_t GetDepth() const;

private:
    uint32_t m_ranks;
    std::vector<std::string> m_phases;
    uint16_t m_phase{NO_PHASE}; ///< of the transfers added next
    std::vector<Transfer> m_transfers;
    std::vector<std::vector<uint32_t>> m_dependents;
    std::vector<uint32_t> m_inbound;
    std::vector<uint32_t> m_outbound;
    std::vector<uint64_t> m_sent;
};

} // namespace ns3

#endif /* MCAST4AI_COLLECTIVE_SCHEDULE_H */
