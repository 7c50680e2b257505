/*
 * Endpoint path steering (the inference-transport draft): a sending queue pair changes its UDP
 * source port, the fabric's ECMP entropy, between messages and never inside one, choosing from
 * what it has learnt about each value's path. The fabric stays plain ECMP. A NIC chooses its
 * model by TypeId name, as it chooses its congestion control.
 */
#ifndef MCAST4AI_PATH_STEERING_H
#define MCAST4AI_PATH_STEERING_H

#include "core/model/counter-set.h"
#include "core/model/named-type-registry.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "wire/model/ioam-trace-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief The entropy choice of one sending queue pair.
 *
 * The queue pair asks NextPort() when a message's first packet is first sent, and reports
 * every acknowledged message with MessageDone(). The load information is advisory: it
 * changes only the source port, never the rate (DCQCN is untouched).
 */
class PathSteering : public Object
{
public:
    static TypeId GetTypeId();
    /// The names of the steering models and their TypeIds.
    static NamedTypeRegistry& Registry();

    /**
     * Make the choices reproducible and scale the estimates: seed names the queue pair (the
     * scenario's seed mixed with its host and QPN), payloadRate is the bytes per second of
     * payload the NIC's port carries at line rate, cnpsSignal whether CNPs tell of congestion
     * (a congestion control that reacts to ECN runs, so the data is ECN-capable; otherwise,
     * under none or a telemetry model such as HPCC, no CNP comes and the delivered rate is
     * the signal).
     */
    void Setup(uint64_t seed, double payloadRate, bool cnpsSignal);

    /// The source port of the message about to start; current is the port of the last one.
    virtual uint16_t NextPort(uint16_t current) = 0;
    /// Whether NextPort(current) would change the port now (no side effect, no draw).
    virtual bool WantsRepath(uint16_t current) const = 0;
    /// Whether a queue pair about to change port first waits until everything it sent on
    /// the old one is acknowledged (the DrainBeforeRepath attribute; a model may know that
    /// the old path is quick enough for the receiver to take the reordering).
    virtual bool DrainsBeforeRepath() const
    {
        return m_drain;
    }
    /**
     * A message sent on port was fully acknowledged now: bytes of payload, its first packet
     * first sent at firstSent and its last at lastSent (now - lastSent is the message's RTT:
     * the path's delay and queueing, there and back); cnps arrived for the queue pair while
     * it was outstanding.
     */
    virtual void MessageDone(
        uint16_t port, uint64_t bytes, Time firstSent, Time lastSent, uint32_t cnps)
        = 0;

    /**
     * Telemetry (load_balancing.telemetry): how the model sends a probe on a source port,
     * numbered by the model, and whether it claims the path (the NIC wires it to
     * RdmaNic::SendProbe). Unset: no probes.
     */
    typedef Callback<void, uint16_t, uint32_t, bool> ProbeSender;
    void SetProbeSender(ProbeSender sender);
    /// The acknowledgement of probe probeId came back with the probe's trace, stamped by
    /// every switch on the way. This model ignores it.
    virtual void ProbeAnswered(uint32_t probeId, const IoamTraceHeader& trace);

    /// Signature of the Repath trace: the source port before and after.
    typedef void (*RepathTracedCallback)(uint16_t from, uint16_t to);

    /// Add this model's results to the run's counters: steering.repaths, steering.probes.
    virtual void AddCounters(CounterSet& counters) const;
    /// Whether the model probes with in-band telemetry: the switches then stamp its probes,
    /// and its NIC leaves room for a record per switch on the longest path.
    virtual bool UsesTelemetry() const;

    /// Changes of source port so far (a probe of a new value included).
    uint64_t GetRepaths() const;
    /// Of those, changes to a value never used before.
    uint64_t GetProbes() const;
    /// The size transfers are split into (0: as posted); see the MessageBytes attribute.
    uint64_t GetMessageBytes() const;
    /// Payload bytes per second at line rate (Setup).
    double GetPayloadRate() const
    {
        return m_payloadRate;
    }

protected:
    /// The next of this queue pair's uniform draws in [0, n) (seeded, counter-based).
    uint32_t DrawBelow(uint32_t n);
    /// Count a change of port (traced); probe: the port is new to this queue pair.
    void Repathed(uint16_t from, uint16_t to, bool probe);
    /// Whether probes can be sent (a ProbeSender is set).
    bool CanProbe() const;
    /// Send telemetry probe probeId on port; claim: one that claims the path.
    void SendProbe(uint16_t port, uint32_t probeId, bool claim);

    Time m_minRepathInterval;
    uint64_t m_messageBytes{262144};
    double m_payloadRate{0};
    bool m_congestionControl{false}; ///< CNPs are the signal (an ECN-driven rate control runs)
    Time m_lastRepath;
    bool m_repathed{false};
    bool m_drain{true};

private:
    uint64_t m_seed{0};
    uint64_t m_draws{0};
    uint64_t m_repaths{0};
    uint64_t m_probes{0};
    ProbeSender m_probeSender;
    TracedCallback<uint16_t, uint16_t> m_repathTrace; // from, to
};

} // namespace ns3

#endif /* MCAST4AI_PATH_STEERING_H */
