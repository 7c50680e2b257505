/*
 * HPCC (Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019) for one queue
 * pair: a window and a pacing rate computed from the in-band telemetry of every hop, echoed
 * back in the ACKs (queue length, transmitted bytes, timestamp, link rate).
 */
#ifndef MCAST4AI_HPCC_H
#define MCAST4AI_HPCC_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"
#include "rdma/model/rdma-congestion-control.h"

#include <vector>

namespace ns3
{

/**
 * \brief HPCC's sender algorithm (the paper's Algorithm 1, as HPCC's ns-3 code runs it).
 *
 * From two successive records of a hop (departure time ts, transmitted bytes txBytes, queue
 * length qLen, line rate B), the hop's normalised in-flight bytes are
 * u = txRate / B + min(qLen, qLen') / (B x T), txRate = (txBytes - txBytes') / (ts - ts'); the
 * most loaded hop's u enters an EWMA U over one base RTT T, weighted by its record interval.
 * With U over TargetUtilisation (eta), or after MaxStage additive steps, the reference rate is
 * cut multiplicatively: R = Rc / (U / eta) + R_AI; otherwise R = Rc + R_AI. The reference Rc
 * and the stage move once per round trip (an ACK beyond the PSN sent when they last moved);
 * every other ACK only sets the current rate from Rc (FastReact). The window is R x T: the
 * queue pair keeps at most that many bytes unacknowledged, and paces at R.
 *
 * HPCC works in windows, W = R x T; its code (and this model) keeps the rate and derives the
 * window, which is the same thing. Defaults are HPCC's released configuration (run.py
 * `--cc hp`, alibaba-edu/High-Precision-Congestion-Control 9f4be2a): eta 0.95, maxStage 0
 * (the paper's 5 was a typo for its simulations, hpcc-group.github.io/results.html), an
 * additive step of 10 Mb/s per 25 Gb/s of line rate, a 1 Gb/s floor, fast react and a
 * variable window on.
 */
class Hpcc final : public RdmaCongestionControl
{
public:
    static TypeId GetTypeId();
    Hpcc();

    /// Start at line rate, with U = 1 (as HPCC's queue pair starts).
    void SetLineRate(DataRate rate) override;
    /// HPCC does not react to CNPs (its NICs send data without ECN capability).
    void ReceiveCnp() override;
    void BytesSent(uint32_t wireBytes) override;
    Time PacingDelay(uint32_t wireBytes) const override;
    DataRate GetRate() const override;
    DataRate GetMinRate() const override;
    bool UsesTelemetry() const override;
    bool UsesEcn() const override;
    void ReceiveTelemetry(const IoamTraceHeader& trace,
                          uint64_t ackedPsn,
                          uint64_t nextPsn) override;
    uint64_t GetWindowBytes() const override;

    /// The EWMA of the most loaded hop's normalised in-flight bytes (U), for tests.
    double GetUtilisationEstimate() const;
    /// The reference rate Rc, bit/s.
    double GetReferenceRate() const;
    /// T, as configured (BaseRtt, or FabricRtt when BaseRtt is zero).
    Time GetBaseRtt() const;

    /// Signature of the Rate trace: old and new rate, bit/s.
    typedef void (*RateTracedCallback)(double oldBps, double newBps);

protected:
    /// Takes T from FabricRtt when BaseRtt is zero.
    void NotifyConstructionCompleted() override;

private:
    /// One hop's last record: departure time (ns, modulo one second), bytes sent, queue.
    struct Hop
    {
        int64_t departureNs{0};
        uint32_t txBytes{0};
        uint32_t queueBytes{0};
    };

    void SetRate(double bps);

    double m_eta{0.95};
    uint32_t m_maxStage{0};
    DataRate m_rateAi;
    DataRate m_stepReference;
    DataRate m_minRate;
    Time m_baseRtt;
    bool m_fastReact{true};
    bool m_window{true};

    double m_lineBps{0};
    double m_rateAiBps{0};
    double m_rateBps{0};
    double m_referenceBps{0};
    uint32_t m_incStage{0};
    double m_u{1.0};
    bool m_started{false};
    uint64_t m_lastUpdatePsn{0};
    std::vector<Hop> m_hops;
    TracedCallback<double, double> m_rateTrace;
};

} // namespace ns3

#endif /* MCAST4AI_HPCC_H */
