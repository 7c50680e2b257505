/*
 * Stops a run that makes no progress, and says what is stuck and why.
 */
#ifndef MCAST4AI_RUN_WATCHDOG_H
#define MCAST4AI_RUN_WATCHDOG_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class TopologyBuilder;
class Metrics;
class FabricNetDevice;

/**
 * \brief Notices a run whose operations have stopped progressing, as a PFC deadlock leaves
 * it, and explains the stall.
 *
 * Progress is any queue pair's acknowledged PSN moving on, or any operation completing. A run
 * with data outstanding on some queue pair and no progress anywhere for Timeout is stalled:
 * nothing waits on a timer that long in a healthy run (a loss is retransmitted after one
 * RTO). Retransmissions that are never acknowledged (a livelock) are no progress either. A
 * run with unfinished operations and no event left to run is stalled at once: nothing can
 * happen any more (a receiver waiting for data its sender considers delivered).
 *
 * The report names the queue pairs' stuck operations, every port whose transmitter its peer
 * holds paused by PFC, and a cycle of such ports if there is one: port A->B is held by B's
 * paused port B->C when B has paused A and has frames of that class queued for C. Such a
 * cycle is a cyclic buffer dependency; every port in it waits for the next, for ever.
 */
class RunWatchdog : public Object
{
public:
    static TypeId GetTypeId();
    RunWatchdog();

    /// What the watchdog found when it fired.
    struct Report
    {
        Time stalledSince; ///< the last progress seen
        Time detectedAt;   ///< when the stall was noticed
        /// Nothing was left to simulate while operations were unfinished.
        bool nothingScheduled{false};
        uint32_t stuckQueuePairs{0}; ///< queue pairs with data outstanding
        /// Their oldest messages' operations (Metrics handles); with no queue pair stuck, the
        /// unfinished foreground operations.
        std::vector<uint64_t> stuckOps;
        /// Paused transmitters: "from>to" links (ops.csv's names) and the paused class.
        std::vector<std::pair<std::string, uint8_t>> pausedPorts;
        std::vector<std::string> pauseCycle; ///< "from>to" links, each held by the next
    };

    /// Watch the queue pairs and ports of fabric, and the operations of metrics.
    void Attach(const TopologyBuilder& fabric, Ptr<Metrics> metrics);

    /**
     * Look at the run now: true (and a Report) if it has made no progress for Timeout while
     * data is outstanding, or if nothingScheduled (no model event is pending, so none will ever
     * run) while operations are unfinished. Call it every Timeout / 4 of simulated time.
     */
    bool Check(bool nothingScheduled);

    Time GetTimeout() const;
    const Report& GetReport() const;

    /**
     * A cycle in a directed graph (edges[v]: v's successors), as its vertices in order, or
     * empty. Deterministic: the first cycle a depth-first search from vertex 0 up meets.
     */
    static std::vector<uint32_t> FindCycle(const std::vector<std::vector<uint32_t>>& edges);

    /// Signature of the Stalled trace: the last progress, the number of stuck queue pairs.
    typedef void (*StalledTracedCallback)(Time since, uint32_t queuePairs);

private:
    /// A sum that moves whenever anything progresses.
    uint64_t ProgressSignature(bool& outstanding) const;
    void BuildReport(bool nothingScheduled);

    Time m_timeout;
    const TopologyBuilder* m_fabric{nullptr};
    Ptr<Metrics> m_metrics;
    uint64_t m_signature{0};
    Time m_lastProgress;
    bool m_started{false};
    Report m_report;
    TracedCallback<Time, uint32_t> m_stalledTrace;
};

} // namespace ns3

#endif /* MCAST4AI_RUN_WATCHDOG_H */
