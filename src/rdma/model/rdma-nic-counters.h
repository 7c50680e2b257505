/*
 * What an RDMA NIC counts, in one plain structure: the NIC, its queue pairs and its responders
 * add to it directly (RdmaNic::GetCounters), and the NIC reports it to the run's summary
 * (RdmaNic::AddCounters). The events a user may want one by one are trace sources here too,
 * exposed as the NIC's (RdmaNic::EarlyArrival, DuplicateArrival, Lost, CnpSent, CnpReceived).
 */
#ifndef MCAST4AI_RDMA_NIC_COUNTERS_H
#define MCAST4AI_RDMA_NIC_COUNTERS_H

#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>

namespace ns3
{

class CounterSet;
class OpLedger;
class TrafficLedger;

/**
 * \brief Counters and per-event trace sources of one RDMA NIC.
 */
struct RdmaNicCounters
{
    /// Buckets of the displacement histogram: [0] = 1, [1] = 2-3, [b] = 2^b .. 2^(b+1) - 1.
    static constexpr uint32_t DISPLACEMENT_BUCKETS = 24;

    // Sending side.
    uint64_t dataPackets{0};  ///< data frames that left (every P2MP copy counted)
    uint64_t dataBytes{0};    ///< their payload bytes
    uint64_t headerBytes{0};  ///< their header bytes (P2MP headers included)
    uint64_t mcastPackets{0}; ///< P2MP packets that left ...
    uint64_t mcastCopies{0};  ///< ... and the copies they took
    uint64_t acksReceived{0};
    /// ACKs (or NAKs) for a PSN its queue pair never sent: ignored, and counted, since a
    /// correct fabric never makes one (RunInvariants).
    uint64_t acksBeyondSent{0};
    /// ACKs a P2MP requester refused: not from its aggregation point (QueuePair::SetAckSource).
    uint64_t acksRefused{0};
    uint64_t cnpsReceived{0};

    // Receiving side.
    uint64_t naksSent{0}; ///< a gap: go-back-N from the first missing PSN, or a selective NAK
    uint64_t cnpsSent{0};
    uint64_t spurious{0};     ///< data packets received twice
    uint64_t reorderDrops{0}; ///< packets past a tolerant responder's reorder window
    uint64_t lostPackets{0};  ///< loss-tolerant packets taken as skipped ...
    uint64_t lostBytes{0};    ///< ... and their payload bytes
    std::array<uint64_t, DISPLACEMENT_BUCKETS> displacement{}; ///< PSNs ahead of a hole

    // Telemetry probes (path steering).
    uint64_t probesSent{0}; ///< claims included
    uint64_t probeAcksSent{0};
    uint64_t probeAcksReceived{0};
    uint64_t probeBytes{0}; ///< wire bytes of the probes and acknowledgements sent

    /// Where a loss is also booked per owner and per operation (the device's), or null.
    TrafficLedger* ledger{nullptr};
    OpLedger* ops{nullptr};

    TracedCallback<uint64_t> earlyArrival; ///< displacement of a packet ahead of a hole
    TracedCallback<> duplicateArrival;     ///< a data packet received twice
    TracedCallback<uint32_t> lost;         ///< a PSN skip taken: payload bytes lost
    TracedCallback<uint32_t> cnpSent;      ///< QPN the CNP is sent to
    TracedCallback<uint32_t> cnpReceived;  ///< local QPN it arrived for

    /// A responder got a packet `ahead` PSNs past its expected one (tolerant NIC).
    void RecordDisplacement(uint64_t ahead);
    /// A responder got a data packet it already had.
    void RecordDuplicate();
    /// A responder completed without `bytes` payload bytes of operation op (a PSN skip it
    /// took, or a hole it gave up on), in owner's traffic.
    void RecordLost(uint8_t owner, uint32_t op, uint32_t bytes);
    /// Add them to the run's summary ("retransmissions" excepted: the queue pairs count
    /// those).
    void AddTo(CounterSet& counters) const;
};

} // namespace ns3

#endif /* MCAST4AI_RDMA_NIC_COUNTERS_H */
