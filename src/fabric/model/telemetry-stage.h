/*
 * In-band telemetry at a switch (load_balancing.telemetry): the switch is an IOAM transit node
 * (RFC 9197) for the telemetry probes of endpoint path steering. As a probe leaves, it writes
 * its hop's data into the probe's pre-allocated trace: node and interface IDs, the time the
 * probe arrived and the time it spent inside, the depth of the egress queue it leaves behind,
 * and, as namespace-specific data, the egress link's recent utilisation and the ingress ports
 * sharing the egress queue.
 */
#ifndef MCAST4AI_TELEMETRY_STAGE_H
#define MCAST4AI_TELEMETRY_STAGE_H

#include "fabric/model/switch-stage.h"
#include "ns3/traced-callback.h"
#include "wire/model/ioam-trace-header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class FabricNetDevice;

/**
 * \brief Stamps telemetry probes at egress; measures every egress link's utilisation.
 *
 * Utilisation is a discounting rate estimator, as CONGA's (Alizadeh et al., SIGCOMM 2014):
 * per egress port, the wire bytes sent, each discounted by exp(-age / Window). A link sending
 * steadily at rate r holds r x Window, so the estimate over line rate x Window is the share of
 * the line in use over the last Window or so. It is kept for every frame that leaves, since a
 * probe must find it current; nothing else in the switch changes.
 *
 * Sharers: the ingress ports whose data frames left by the egress port within SharerWindow,
 * the probe's own counted whether or not its data did, and the probe's rank among them by port
 * number. Senders whose flows meet at a queue all read the same queue, utilisation and delay;
 * the rank is what a switch alone can give each of them that differs (the queue's ingress
 * ports are distinct at the hop where their paths join, their first switch when they share
 * one). The switch keeps, per ingress and egress port pair, until when the ingress counts.
 *
 * A claiming probe (RC_PROBE_CLAIM) counts its ingress among the egress queue's sharers for
 * ClaimWindow after it leaves, as if its sender's data already went that way. The switch
 * handles frames one at a time, so of claims on one egress queue only the first finds no other
 * sharer: senders that would move to the same free path learn of each other before they move.
 *
 * A probe is a RoCEv2 frame with BTH opcode RC_PROBE or RC_PROBE_CLAIM; its trace is stamped
 * only in this node's namespace (RFC 9197: a node acts on the namespaces it is configured
 * for). A unicast data packet with the BTH telemetry bit carries a trace in the same place,
 * for a telemetry-driven congestion control (HPCC); it is stamped the same way, with the
 * fields its trace type asks for: among them the egress port's transmitted bytes before the
 * packet and its line rate, as HPCC's switch writes them at dequeue.
 */
class TelemetryStage : public SwitchStage
{
public:
    static TypeId GetTypeId();

    void Attach(FabricSwitch* sw) override;
    bool Receive(uint32_t inPort, FabricFrame& frame) override;
    bool SeesDepartures() const override;
    void Departing(
        uint32_t inPort, uint32_t outPort, uint8_t prio, FabricFrame& frame, Time now) override;
    /// telemetry.stamps and telemetry.overflows.
    void AddCounters(CounterSet& counters) const override;

    /// The egress link's utilisation estimate on port at now (1 = line rate).
    double GetUtilisation(uint32_t port, Time now) const;
    /// Probes this node wrote its data into, and probes it found full (Overflow set).
    uint64_t GetStamps() const;
    uint64_t GetOverflows() const;

    /// Signature of the Stamp trace: egress port and the data written.
    typedef void (*StampTracedCallback)(uint32_t port, const IoamTraceHeader::NodeData& data);

private:
    /// Per egress port: the discounted bytes and when they were last discounted.
    struct LinkLoad
    {
        double bytes{0};
        Time at;
        const FabricNetDevice* port{nullptr}; ///< its rate is read when stamped (it may change)
        uint32_t framing{0};                  ///< wire bytes of a frame beyond the packet
        uint64_t txBytes{0};                  ///< wire bytes sent, for congestion control
    };

    /// Bring port's estimate to now (discount it).
    void Discount(LinkLoad& load, Time now) const;
    /// The sharers of outPort's queue at now and the rank of inPort among them (see above).
    void Sharers(
        uint32_t inPort, uint32_t outPort, Time now, uint8_t& sharers, uint8_t& rank) const;

    uint32_t m_nodeId{0};
    uint16_t m_namespaceId{1};
    Time m_window;
    Time m_sharerWindow;
    Time m_claimWindow;
    std::vector<LinkLoad> m_links;
    /// Until when ingress port i counts as a sharer of egress port e, [e x ports + i]: a data
    /// frame's departure plus SharerWindow, or a claim's plus ClaimWindow.
    std::vector<Time> m_sharesUntil;
    uint64_t m_stamps{0};
    uint64_t m_overflows{0};
    TracedCallback<uint32_t, const IoamTraceHeader::NodeData&> m_stampTrace;
};

} // namespace ns3

#endif /* MCAST4AI_TELEMETRY_STAGE_H */
