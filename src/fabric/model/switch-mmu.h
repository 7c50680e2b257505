/*
 * Shared-buffer memory management unit of a switch: per-ingress-queue reserve, a shared pool
 * with a dynamic threshold (a queue may hold alpha x the free shared buffer), PFC headroom per
 * ingress port and lossless priority, XOFF/XON decisions with hysteresis, egress accounting for
 * RED-style ECN marking, and drops when PFC is off.
 */
#ifndef MCAST4AI_SWITCH_MMU_H
#define MCAST4AI_SWITCH_MMU_H

#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <limits>
#include <vector>

namespace ns3
{

/**
 * \brief Buffer accounting and PFC/ECN thresholds for one switch.
 */
class SwitchMmu : public Object
{
public:
    static TypeId GetTypeId();
    SwitchMmu();

    /// Size the per-port state. Call once, after the attributes are set.
    void Setup(uint32_t nPorts);
    /// PFC headroom of one ingress port, per lossless priority (bytes).
    void SetHeadroom(uint32_t port, uint64_t bytes);
    /// RED marking thresholds of one egress port (bytes).
    void SetEcnThresholds(uint32_t port, uint64_t kminBytes, uint64_t kmaxBytes);
    /**
     * A port's headroom and ECN thresholds from its link (bytes), each where its attribute
     * (HeadroomBytes, EcnKminBytes, EcnKmaxBytes) is PER_PORT, its default; a fixed attribute
     * applies to every port instead.
     */
    void SetPortDefaults(uint32_t port,
                         uint64_t headroomBytes,
                         uint64_t kminBytes,
                         uint64_t kmaxBytes);

    /// The value of HeadroomBytes, EcnKminBytes and EcnKmaxBytes that leaves them per port.
    static constexpr uint64_t PER_PORT = std::numeric_limits<uint64_t>::max();

    /**
     * Account a frame arriving on (inPort, prio) bound for outPort.
     * \return false if it must be dropped (buffer or headroom exhausted).
     */
    bool Admit(uint32_t inPort, uint32_t outPort, uint8_t prio, uint32_t bytes);
    /// Release a frame's buffer when it leaves the egress queue.
    void Release(uint32_t inPort, uint32_t outPort, uint8_t prio, uint32_t bytes);

    /*
     * A replicated frame is stored once and queued many times: its ingress side is charged
     * once on arrival (and released with its last copy), each copy charges an egress queue.
     */
    bool AdmitIngress(uint32_t inPort, uint8_t prio, uint32_t bytes);
    bool AdmitEgress(uint32_t outPort, uint8_t prio, uint32_t bytes);
    void ReleaseIngress(uint32_t inPort, uint8_t prio, uint32_t bytes);
    void ReleaseEgress(uint32_t outPort, uint8_t prio, uint32_t bytes);

    /// True if (inPort, prio) crossed its XOFF threshold and is not yet paused.
    bool ShouldPause(uint32_t inPort, uint8_t prio) const;
    /// True if (inPort, prio) is paused and has drained below XON (threshold - hysteresis).
    bool ShouldResume(uint32_t inPort, uint8_t prio) const;
    void SetPaused(uint32_t inPort, uint8_t prio, bool paused);
    bool IsPaused(uint32_t inPort, uint8_t prio) const;

    /// RED marking probability for a frame leaving this egress queue now.
    double EcnMarkProbability(uint32_t outPort, uint8_t prio) const;
    /// Start loading the counters a frame from inPort to outPort will update: a switch's
    /// counters are cold when its turn comes, and loading them alongside the frame's other
    /// misses costs one wait instead of several.
    void Prefetch(uint32_t inPort, uint32_t outPort, uint8_t prio) const;

    bool IsPfcEnabled() const;
    uint64_t GetEgressBytes(uint32_t outPort, uint8_t prio) const;
    uint64_t GetIngressBytes(uint32_t inPort, uint8_t prio) const;
    uint64_t GetUsedBytes() const;
    uint64_t GetPeakUsedBytes() const;
    /// Bytes of the shared pool (buffer minus reserves and headroom).
    uint64_t GetSharedPoolBytes() const;
    /// Reserves plus headroom: more than the buffer means the configuration cannot work.
    uint64_t GetCarvedBytes() const;
    /// Current XOFF threshold of one ingress queue's shared part.
    uint64_t GetPfcThreshold() const;

private:
    struct IngressQueue
    {
        uint64_t bytes{0};    ///< everything this queue holds
        uint64_t headroom{0}; ///< part held in PFC headroom
        bool paused{false};
    };

    uint64_t SharedPart(const IngressQueue& q) const;
    bool IsLossless(uint8_t prio) const;
    bool EgressRoom(uint32_t outPort, uint8_t prio, uint32_t bytes) const;
    IngressQueue& Ingress(uint32_t port, uint8_t prio);
    const IngressQueue& Ingress(uint32_t port, uint8_t prio) const;

    uint64_t m_bufferBytes;
    uint64_t m_reserveBytes;
    double m_alpha;
    bool m_pfcEnabled;
    uint64_t m_hysteresisBytes;
    uint64_t m_headroomBytes; ///< PER_PORT: SetPortDefaults' value
    uint64_t m_kminBytes;     ///< PER_PORT: SetPortDefaults' value
    uint64_t m_kmaxBytes;     ///< PER_PORT: SetPortDefaults' value
    double m_pmax;
    uint8_t m_losslessMask;

    uint32_t m_nPorts{0};
    std::vector<IngressQueue> m_ingress; // [port * 8 + prio]
    std::vector<uint64_t> m_egress;      // [port * 8 + prio]
    std::vector<uint64_t> m_headroom;    // per port
    std::vector<uint64_t> m_kmin;        // per port
    std::vector<uint64_t> m_kmax;        // per port
    uint64_t m_sharedPool{0};
    uint64_t m_carved{0};
    uint64_t m_sharedUsed{0};
    TracedValue<uint64_t> m_used;
    uint64_t m_peakUsed{0};
};

} // namespace ns3

#endif /* MCAST4AI_SWITCH_MMU_H */
