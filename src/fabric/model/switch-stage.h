/*
 * A stage of a switch's pipeline that sees arriving frames before unicast forwarding: P2MP
 * replication and ACK aggregation are stages, added by the P2MP delivery that needs them, so
 * the switch itself knows no mechanism. A stage may also see frames as they leave (in-band
 * telemetry stamps what only egress knows: the time spent inside, the queue left behind).
 */
#ifndef MCAST4AI_SWITCH_STAGE_H
#define MCAST4AI_SWITCH_STAGE_H

#include "core/model/counter-set.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "wire/model/fabric-frame.h"

#include <cstdint>

namespace ns3
{

class FabricSwitch;

/**
 * \brief One step of a FabricSwitch's ingress pipeline.
 */
class SwitchStage : public Object
{
public:
    static TypeId GetTypeId();

    /// Called once by FabricSwitch::AddStage, after every port was added.
    virtual void Attach(FabricSwitch* sw);
    /**
     * A frame arrived on inPort.
     * \return true if the stage took it (forwarded, replicated, consumed or dropped it through
     *         the switch); false lets it go on to the next stage and then to unicast forwarding
     */
    virtual bool Receive(uint32_t inPort, FabricFrame& frame) = 0;
    /**
     * Whether Departing() is to be called for every frame the switch sends. Asked once, by
     * AddStage: a switch whose stages all answer false pays nothing at egress.
     */
    virtual bool SeesDepartures() const;
    /**
     * A frame of priority prio that came in on inPort starts to leave on outPort at now,
     * taken off its queue; the stage may rewrite it (the MMU has already released it, so its
     * size must not change).
     */
    virtual void Departing(
        uint32_t inPort, uint32_t outPort, uint8_t prio, FabricFrame& frame, Time now);
    /// Add this stage's results to the run's counters (summary.json's "network"); none here.
    virtual void AddCounters(CounterSet& counters) const;

protected:
    void DoDispose() override;

    FabricSwitch* m_switch{nullptr}; ///< owner; not a Ptr, the switch owns its stages
};

} // namespace ns3

#endif /* MCAST4AI_SWITCH_STAGE_H */
