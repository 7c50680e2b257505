/*
 * How a switch port picks the priority class it sends next. Strict priority is the first
 * model and the default; deficit weighted round robin shares a port among classes by weight.
 * Chosen by name (switch.scheduling) as ns-3 chooses a QueueDisc.
 */
#ifndef MCAST4AI_EGRESS_SCHEDULER_H
#define MCAST4AI_EGRESS_SCHEDULER_H

#include "core/model/named-type-registry.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \brief Picks, per egress port, which of its non-empty, unpaused classes sends next.
 *
 * One instance per switch. Pick() and Sent() are on the per-frame path and must not
 * allocate.
 */
class EgressScheduler : public Object
{
public:
    static TypeId GetTypeId();
    /// The scenario names of the schedulers (switch.scheduling) and their TypeIds.
    static NamedTypeRegistry& Registry();
    /// Size per-port state; called once, when the switch starts.
    virtual void SetPorts(uint32_t ports);
    /**
     * \param port the egress port
     * \param eligible bit p set: class p has a frame and is not paused (never 0)
     * \return a class whose bit is set
     */
    virtual uint8_t Pick(uint32_t port, uint8_t eligible) = 0;
    /// A frame of bytes left port from class prio (the one Pick returned).
    virtual void Sent(uint32_t port, uint8_t prio, uint32_t bytes);
};

} // namespace ns3

#endif /* MCAST4AI_EGRESS_SCHEDULER_H */
