/*
 * DCQCN reaction point (Zhu et al., SIGCOMM 2015) for one queue pair: the rate limiter's
 * current and target rates, the congestion estimate alpha, the rate-decrease interval, and the
 * timer- and byte-driven rate increase (fast recovery, additive increase, hyper increase).
 */
#ifndef MCAST4AI_DCQCN_H
#define MCAST4AI_DCQCN_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"
#include "rdma/model/rdma-congestion-control.h"

namespace ns3
{

/**
 * \brief DCQCN rate control of one sending queue pair.
 *
 * Alpha keeps InitialAlpha until the queue pair's first CNP. From then on it follows
 * AlphaUpdate: PER_CNP (the paper) raises it at every CNP and decays it by (1 - g) every
 * AlphaUpdatePeriod without a CNP, the period restarting at each CNP; PER_PERIOD (ConnectX
 * firmware, as HPCC's ns-3 model has it) updates it once per AlphaUpdatePeriod on a grid that
 * starts at the first CNP, raising it if a CNP arrived in that period and decaying it
 * otherwise. Either way the update is applied when alpha is next needed (at a CNP, a cut or
 * when read), without an event per period per queue pair.
 *
 * With a RateDecreaseInterval, CNPs do not cut the rate themselves: a CNP marks the interval
 * it falls in (intervals on a grid that starts at the first CNP), and the rate is cut once at
 * the end of every marked interval, however many CNPs it saw (ConnectX
 * rate_reduce_monitor_period). Without one, every CNP cuts at once.
 */
class Dcqcn final : public RdmaCongestionControl
{
public:
    static TypeId GetTypeId();
    Dcqcn();

    /// Phase of the last rate increase, for traces and tests.
    enum Phase : uint8_t
    {
        NONE,
        FAST_RECOVERY,
        ADDITIVE_INCREASE,
        HYPER_INCREASE
    };

    /// How alpha is updated (attribute AlphaUpdate).
    enum AlphaUpdate : uint8_t
    {
        ALPHA_PER_CNP,   ///< at every CNP, and decayed after every period without one
        ALPHA_PER_PERIOD ///< once per period: raised if a CNP arrived in it, else decayed
    };

    /// Start at line rate.
    void SetLineRate(DataRate rate) override;

    /// A CNP arrived for this queue pair: cut the rate now or at the end of the current
    /// rate-decrease interval, and update alpha.
    void ReceiveCnp() override;
    /// Account bytes put on the wire; every ByteCounter bytes is one byte-counter stage
    /// (none with ByteCounter 0).
    void BytesSent(uint32_t bytes) override;
    /// One rate-increase timer period elapsed (scheduled internally; public for tests).
    void RateIncreaseTimerExpired();

    DataRate GetRate() const override;
    DataRate GetMinRate() const override;
    DataRate GetTargetRate() const;
    DataRate GetLineRate() const;
    /// The additive and hyper-increase steps in force: RateAi and RateHai, scaled by the line
    /// rate over StepReferenceRate when that is set.
    DataRate GetAdditiveStep() const;
    DataRate GetHyperStep() const;
    /// Alpha as of now (decay applied).
    double GetAlpha() const;
    uint32_t GetTimerStage() const;
    uint32_t GetByteStage() const;
    Phase GetLastPhase() const;
    uint64_t GetCnpsReceived() const;
    /// Rate cuts so far (at most one per RateDecreaseInterval).
    uint64_t GetCuts() const;
    /// Whether a cut is waiting for the end of the current rate-decrease interval.
    bool IsCutPending() const;
    /// Time to put frameBytes on the wire at the current rate.
    Time PacingDelay(uint32_t wireBytes) const override;
    /// Rate, target rate and alpha, now and after every change of the rate or the target.
    bool SetStateLog(StateLog log) override;

    /// Signature of the rate traces: old and new rate in bit/s.
    typedef void (*RateTracedCallback)(double oldBps, double newBps);

protected:
    void DoDispose() override;

private:
    void RateIncrease();
    double AdditiveStepBps() const;
    double HyperStepBps() const;
    void Cut();
    void SetRate(double bps);
    void SetTarget(double bps);
    /// Give the state log (if any) the current rate, target and alpha.
    void LogState();
    /// Apply the alpha updates of the periods that ended since alpha was last brought up to date.
    void AdvanceAlpha() const;
    void ScheduleTimer();

    // Parameters (attributes)
    double m_g;
    Time m_alphaPeriod;
    Time m_increasePeriod;
    uint64_t m_byteCounter;
    uint32_t m_fastRecoverySteps;
    DataRate m_rateAi;
    DataRate m_rateHai;
    DataRate m_stepReference;
    DataRate m_minRate;
    DataRate m_rateOnFirstCnp;
    double m_initialAlpha;
    bool m_clampTarget;
    Time m_decreaseInterval;
    AlphaUpdate m_alphaUpdate;

    // State
    double m_lineBps{0};
    double m_stepScale{1}; ///< line rate over StepReferenceRate (1 without one)
    double m_rateBps{0};
    double m_targetBps{0};
    mutable double m_alpha{1.0};
    mutable Time m_alphaUpdated;            ///< alpha is exact as of this time
    mutable bool m_cnpInAlphaPeriod{false}; ///< PER_PERIOD: a CNP arrived in the open period
    uint32_t m_timerStage{0};
    uint32_t m_byteStage{0};
    uint64_t m_bytesInStage{0};
    bool m_cnpSeen{false};
    bool m_increasedSinceCut{true}; ///< a rate increase happened since the last cut
    Phase m_lastPhase{NONE};
    uint64_t m_cnps{0};
    uint64_t m_cuts{0};
    Time m_firstCnp; ///< origin of the grid of rate-decrease intervals
    EventId m_timer;
    EventId m_cutEvent; ///< the cut at the end of the current rate-decrease interval

    TracedCallback<double, double> m_rateTrace;
    TracedCallback<double, double> m_targetTrace;
    StateLog m_stateLog; ///< SetStateLog's; null: none
    TracedCallback<double, double> m_alphaTrace;
    TracedCallback<> m_cnpTrace;
};

} // namespace ns3

#endif /* MCAST4AI_DCQCN_H */
