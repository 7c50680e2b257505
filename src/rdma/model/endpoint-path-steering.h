/*
 * Path steering from endpoint estimation alone (the inference-transport draft's first source
 * of path-load awareness): each source port's messages' round-trip times and delivery rates.
 */
#ifndef MCAST4AI_ENDPOINT_PATH_STEERING_H
#define MCAST4AI_ENDPOINT_PATH_STEERING_H

#include "rdma/model/path-steering.h"

#include <vector>

namespace ns3
{

/**
 * \brief Least-loaded known entropy, probing new ones when the current path queues.
 *
 * Per source port it keeps EWMAs of its messages' RTT (last packet sent to its ACK), delivery
 * rate (bytes over the time from the later of the message's first packet and the previous
 * message's acknowledgement to its own) and congestion (whether CNPs arrived while the
 * message was outstanding). A port is loaded when its congestion estimate is at least one
 * half with DCQCN on (a shared path keeps ECN-marking while DCQCN holds the rates down, a path
 * of its own stops, however slowly DCQCN then recovers), and without DCQCN when it delivers
 * below RateThreshold of the line's payload rate (a shared path halves it). At a message
 * boundary, at most once per MinRepathInterval and only once a message sent on the current
 * port since the last change was acknowledged:
 * - if the current port is not loaded, or its last LoadedMessages messages were not all loaded
 *   themselves, stay (the estimate remembers a collision that has already gone);
 * - else move to the known port that is not loaded and delivered fastest, if there is one;
 * - else probe a port never used (a draw from the ephemeral range 49152..65535).
 */
class EndpointPathSteering : public PathSteering
{
public:
    static TypeId GetTypeId();

    uint16_t NextPort(uint16_t current) override;
    bool WantsRepath(uint16_t current) const override;
    void MessageDone(
        uint16_t port, uint64_t bytes, Time firstSent, Time lastSent, uint32_t cnps) override;

protected:
    /// Whether a change of port is allowed now: something was learnt about the current port
    /// since it was chosen, and the last change is MinRepathInterval old.
    bool MayRepath(uint16_t current) const;
    /// Whether the current port's messages say its path is loaded (the rule above).
    bool CurrentLoaded(uint16_t current) const;
    /**
     * The port to move to from a loaded current one; probe: it was never used. This model:
     * the known port that is not loaded and delivered fastest, else a new one.
     */
    virtual uint16_t Choose(uint16_t current, bool& probe);
    /// A port drawn from the ephemeral range that this queue pair has no estimate for.
    uint16_t DrawNewPort(uint16_t current);
    /// Whether a message of this queue pair went on port (it has an estimate).
    bool HasEstimate(uint16_t port) const;
    /// The delivery-rate estimate of port (payload bytes per second), 0 if none.
    double CurrentRate(uint16_t port) const;
    /// The port the last message went on (0 before the first).
    uint16_t GetCurrent() const;
    /// Estimates are kept for at most this many ports.
    uint32_t GetMaxPorts() const;

private:
    struct Estimate
    {
        uint16_t port{0};
        uint32_t samples{0};
        double rttUs{0};  ///< EWMA
        double rate{0};   ///< payload bytes per second, EWMA
        double marked{0}; ///< EWMA of "CNPs arrived while a message was out"
    };

    Estimate* Find(uint16_t port);
    const Estimate* Find(uint16_t port) const;
    bool IsLoaded(const Estimate& e) const;

    double m_rateThreshold{0.9};
    double m_gain{0.5};
    uint32_t m_maxPorts{16};
    std::vector<Estimate> m_estimates;
    Time m_lastDone;
    uint32_t m_freshSamples{0}; ///< of the current port since the last change
    uint32_t m_loadedStreak{0}; ///< its latest messages that were loaded, in a row
    uint32_t m_loadedMessages{1};
    uint16_t m_current{0};
};

} // namespace ns3

#endif /* MCAST4AI_ENDPOINT_PATH_STEERING_H */
