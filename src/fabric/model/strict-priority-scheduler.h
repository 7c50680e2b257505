/*
 * Strict priority: the highest non-empty class always goes first, so control traffic on the
 * top classes never waits behind data.
 */
#ifndef MCAST4AI_STRICT_PRIORITY_SCHEDULER_H
#define MCAST4AI_STRICT_PRIORITY_SCHEDULER_H

#include "fabric/model/egress-scheduler.h"

namespace ns3
{

/**
 * \brief switch.scheduling "strict": the highest eligible class.
 */
class StrictPriorityScheduler : public EgressScheduler
{
public:
    static TypeId GetTypeId();
    uint8_t Pick(uint32_t port, uint8_t eligible) override;
};

} // namespace ns3

#endif /* MCAST4AI_STRICT_PRIORITY_SCHEDULER_H */
