/*
 * Path steering from both sources of path-load awareness the inference-transport draft names:
 * endpoint estimation (EndpointPathSteering) and on-path telemetry, IOAM traces that switches
 * stamp into the queue pair's probes (load_balancing.telemetry).
 */
#ifndef MCAST4AI_TELEMETRY_PATH_STEERING_H
#define MCAST4AI_TELEMETRY_PATH_STEERING_H

#include "rdma/model/endpoint-path-steering.h"

#include <array>
#include <vector>

namespace ns3
{

/**
 * \brief Steering that sees a source port's path before it moves there.
 *
 * A probe sent on a source port takes the path that port's data would (ECMP hashes both the
 * same), and comes back with every switch's data: the node and egress interface it left by,
 * the time it spent inside, the egress queue's depth, the egress link's utilisation and the
 * queue's sharers (its ingress ports lately) with the probe's rank among them. A reading of a
 * port is the path it showed (its nodes and egress interfaces), the sum of its transit delays
 * and, over every hop but the last (the destination's own link, which every path of the
 * connection shares), the highest utilisation, the deepest queue, and the most sharers with
 * the rank at that hop.
 *
 * - Every message start probes its own path and SurveyPorts others (the known path read
 *   longest ago, or a port never probed), so that readings of other paths are at hand.
 * - The current path is loaded when its queue pair does not get the line rate over its last
 *   messages and a fresh reading, taken since the port was chosen, shows a queue of
 *   LoadedQueueBytes. So a queue that PFC left standing behind a partner that has gone does
 *   not count, nor does a rate held down elsewhere (a PFC pause from another port's
 *   collision, or DCQCN still recovering from a cut).
 * - The decision is made when the current path's reading comes back and when a message is
 *   acknowledged.
 * - Senders that share a path learn of it together, from the same readings. At most once per
 *   DecisionInterval, one that may change port (MinRepathInterval) decides: when its reading
 *   names two sharers or more, all but rank 0 leave, so exactly one stays; when it does not
 *   (the senders enter the loaded hop by one port), it leaves with probability 1/k, k its line
 *   rate over its rate (one of the k is expected to go; the interval gives the others time to
 *   see their rate come back before they draw again). Draws alone keep k senders together for
 *   rounds on end: see CHANGES.md, "Telling sharers apart".
 * - It goes to a port whose fresh reading (probe sent within ProbeLifetime) shows a path other
 *   than the current one that is free (utilisation below FreeUtilisation, no queue of
 *   LoadedQueueBytes; any fresh free reading of the path counts), the one read last; with
 *   none, it probes the current port, one port of every known path and NewPorts new ones,
 *   and chooses from the answers.
 * - Before it moves, it claims the path: a claiming probe (RC_PROBE_CLAIM) that switches count
 *   as the sender's data for a while. It moves when the claim's reading is free and no hop
 *   names more sharers than the fewest any fresh reading of the path named there. Of senders
 *   that picked the same free path, the first claim through the switch where they meet finds
 *   no one new and moves; the others read it, pass the path over while it is contested
 *   (ProbeLifetime) and claim another. Without claims, m senders drawing among m free paths
 *   at once all land apart only with probability m!/m^m.
 * - It drains the old path first only when that path's reading shows more delay than
 *   ReorderBudget: below it the reorder-tolerant receiver takes the reordering.
 *
 * The readings are advisory only: DCQCN is untouched.
 */
class TelemetryPathSteering : public EndpointPathSteering
{
public:
    static TypeId GetTypeId();

    uint16_t NextPort(uint16_t current) override;
    bool WantsRepath(uint16_t current) const override;
    void MessageDone(
        uint16_t port, uint64_t bytes, Time firstSent, Time lastSent, uint32_t cnps) override;
    void ProbeAnswered(uint32_t probeId, const IoamTraceHeader& trace) override;
    bool DrainsBeforeRepath() const override;
    /// The base counters and telemetry.claims, telemetry.claims_lost.
    void AddCounters(CounterSet& counters) const override;
    bool UsesTelemetry() const override;

    /// Probes sent, and acknowledgements that came back for them.
    uint64_t GetProbesSent() const;
    uint64_t GetProbesAnswered() const;
    /// Claims sent (probes included above), and of them the ones that found another sender.
    uint64_t GetClaims() const;
    uint64_t GetClaimsLost() const;

    /// Signature of the Reading trace: source port, path key, utilisation, queue bytes.
    typedef void (*ReadingTracedCallback)(uint16_t port,
                                          uint64_t path,
                                          double utilisation,
                                          uint32_t queueBytes);
    /// Signature of the Claim trace: the port claimed, and whether the claim won.
    typedef void (*ClaimTracedCallback)(uint16_t port, bool won);

protected:
    uint16_t Choose(uint16_t current, bool& probe) override;

private:
    /// What a probe of a port showed.
    struct Reading
    {
        uint16_t port{0};
        uint64_t path{0}; ///< a hash of the nodes and egress interfaces it went through
        double utilisation{0};
        uint32_t queueBytes{0};
        uint32_t sharers{0}; ///< at the hop with the most (0: no hop said)
        uint32_t rank{0};    ///< of the probe's ingress there
        /// Every hop's sharers but the last's, in path order (what a claim is checked against)
        std::vector<uint8_t> hopSharers;
        Time delay; ///< the transit delays of every hop: its queueing, as the probe met it
        Time sent;  ///< when its probe went
        Time at;    ///< when its acknowledgement came back
    };

    struct Outstanding
    {
        uint32_t id{0};
        uint16_t port{0};
        Time sent;
    };

    /// A message acknowledged on the current port: when, and its bytes.
    struct Done
    {
        Time at;
        uint64_t bytes{0};
    };

    /// A path a claim found taken, and when.
    struct Contest
    {
        uint64_t path{0};
        Time at;
    };

    static constexpr uint32_t DONE_WINDOW = 4;

    const Reading* Find(uint16_t port) const;
    /// The current port's reading, if it was answered within ProbeLifetime and its probe
    /// went after the port was chosen (a probe sent before the port carried data shows an
    /// empty path).
    const Reading* CurrentReading(uint16_t current) const;
    bool IsFree(const Reading& r) const;
    /// The current port's payload rate over its last DONE_WINDOW messages (0: fewer so far).
    double WindowRate() const;
    /// Whether that rate is the line's (LineRateShare of the payload rate).
    bool AtLineRate() const;
    bool Loaded(uint16_t current) const;
    /**
     * The latest reading of every path other than the current port's, one per path;
     * freeOnly: the latest of those that are fresh (probe sent within ProbeLifetime) and
     * free, so a path counts as free while any fresh reading of it, through any of its ports,
     * found it so, even when a newer one through another port found it taken. Judging each
     * path on its newest reading alone did worse (CHANGES.md, the variants tried).
     */
    std::vector<const Reading*> LatestPerPath(uint16_t current, bool freeOnly) const;
    /// At a message's acknowledgement: whether to leave the current path (see above).
    void Decide(uint16_t current);
    /// Having decided to leave: a claim on a fresh free path, or a probing round for one.
    void PickTarget(uint16_t current);
    /// The claim's answer: move there if it is free and no hop has a sharer more than
    /// m_claimSharers (another sender's data or claim came since), else pick again.
    void ClaimAnswered(const Reading& r);
    /// Whether a claim found path taken within ProbeLifetime.
    bool Contested(uint64_t path) const;
    /// Send a probe (claim: a claiming one) on port; its number.
    uint32_t Probe(uint16_t port, bool claim = false);
    /// One probe of the survey a message start sends besides its own path's.
    void Survey(uint16_t current);
    /// The current port, one port of every known path and NewPorts new ports.
    void ProbeRound(uint16_t current);

    uint32_t m_newPorts{8};
    uint32_t m_surveyPorts{2};
    Time m_probeInterval;
    Time m_probeLifetime;
    Time m_decisionInterval;
    Time m_reorderBudget;
    double m_freeUtilisation{0.5};
    double m_lineRateShare{0.9};
    uint32_t m_loadedQueueBytes{16384};

    std::vector<Reading> m_readings;
    std::vector<Outstanding> m_outstanding;
    uint32_t m_nextProbeId{0};
    bool m_started{false};
    Time m_currentSince; ///< when the current port was chosen
    std::array<Done, DONE_WINDOW> m_done{};
    uint32_t m_doneCount{0}; ///< messages acknowledged on the current port
    bool m_drew{false};      ///< a leave-or-stay draw was made on this port ...
    Time m_lastDraw;         ///< ... at this time
    bool m_leaving{false};   ///< decided to leave, a probing round's answers awaited
    uint16_t m_target{0};    ///< the port to move to (0: none chosen)
    bool m_claiming{false};  ///< a claim is out, its answer awaited ...
    uint32_t m_claimId{0};   ///< ... this probe
    Time m_claimSent;
    /// The path claimed, and per hop the fewest sharers any fresh reading of it named before
    /// the claim
    uint64_t m_claimPath{0};
    std::vector<uint8_t> m_claimSharers;
    std::vector<Contest> m_contested;
    bool m_probedRound{false};
    Time m_lastRound;
    uint64_t m_probesSent{0};
    uint64_t m_probesAnswered{0};
    uint64_t m_claims{0};
    uint64_t m_claimsLost{0};
    TracedCallback<uint16_t, uint64_t, double, uint32_t> m_readingTrace;
    TracedCallback<uint16_t, bool> m_claimTrace;
};

} // namespace ns3

#endif /* MCAST4AI_TELEMETRY_PATH_STEERING_H */
