/*
 * DCQCN reaction point (Zhu et al., SIGCOMM 2015) for one queue pair: the rate limiter's
 * current and target rates, the congestion estimate alpha, and the timer- and byte-driven
 * rate increase (fast recovery, additive increase, hyper increase).
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
 * Alpha decays by (1 - g) every AlphaUpdatePeriod without a CNP. The decay is applied when
 * alpha is next needed (at a CNP or when read), which is exactly the periodic timer restarted
 * at every CNP, without an event per period per queue pair.
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

    /// Start at line rate.
    void SetLineRate(DataRate rate) override;

    /// A CNP arrived for this queue pair: cut the rate, raise alpha, restart the increase.
    void ReceiveCnp() override;
    /// Account bytes put on the wire; every ByteCounter bytes is one byte-counter stage.
    void BytesSent(uint32_t bytes) override;
    /// One rate-increase timer period elapsed (scheduled internally; public for tests).
    void RateIncreaseTimerExpired();

    DataRate GetRate() const override;
    DataRate GetTargetRate() const;
    DataRate GetLineRate() const;
    /// Alpha as of now (decay applied).
    double GetAlpha() const;
    uint32_t GetTimerStage() const;
    uint32_t GetByteStage() const;
    Phase GetLastPhase() const;
    uint64_t GetCnpsReceived() const;
    /// Time to put frameBytes on the wire at the current rate.
    Time PacingDelay(uint32_t wireBytes) const override;

    /// Signature of the rate traces: old and new rate in bit/s.
    typedef void (*RateTracedCallback)(double oldBps, double newBps);

protected:
    void DoDispose() override;

private:
    void RateIncrease();
    void SetRate(double bps);
    void SetTarget(double bps);
    void DecayAlpha() const;
    void ScheduleTimer();

    // Parameters (attributes)
    double m_g;
    Time m_alphaPeriod;
    Time m_increasePeriod;
    uint64_t m_byteCounter;
    uint32_t m_fastRecoverySteps;
    DataRate m_rateAi;
    DataRate m_rateHai;
    DataRate m_minRate;
    DataRate m_rateOnFirstCnp;
    double m_initialAlpha;
    bool m_clampTarget;

    // State
    double m_lineBps{0};
    double m_rateBps{0};
    double m_targetBps{0};
    mutable double m_alpha{1.0};
    mutable Time m_alphaUpdated; ///< alpha is exact as of this time
    uint32_t m_timerStage{0};
    uint32_t m_byteStage{0};
    uint64_t m_bytesInStage{0};
    bool m_cnpSeen{false};
    bool m_increasedSinceCnp{true}; ///< a rate increase happened since the last cut
    Phase m_lastPhase{NONE};
    uint64_t m_cnps{0};
    EventId m_timer;

    TracedCallback<double, double> m_rateTrace;
    TracedCallback<double, double> m_targetTrace;
    TracedCallback<double, double> m_alphaTrace;
    TracedCallback<> m_cnpTrace;
};

} // namespace ns3

#endif /* MCAST4AI_DCQCN_H */
