/*
 * An event that can start loading what it will read while the event before it runs.
 */
#ifndef MCAST4AI_PREFETCHING_EVENT_H
#define MCAST4AI_PREFETCHING_EVENT_H

#include "ns3/event-impl.h"

namespace ns3
{

/**
 * \brief EventImpl with a hint: Prefetch() asks the memory system for the cache lines the
 * event's Notify() will read first.
 *
 * On a 1,024-host fabric every event touches a port, a queue and a cable that have gone cold
 * since their last turn, and the CPU waits on each load in turn. QuadHeapScheduler calls
 * Prefetch() on the next event as it hands out the current one (see
 * QuadHeapScheduler::SetNextPrefetching), so those loads overlap with the current event's
 * work. Prefetch() must only compute addresses from fields of the event object itself and
 * issue prefetches: it changes no state, and reading through a cold pointer would stall the
 * current event instead.
 */
class PrefetchingEvent : public EventImpl
{
public:
    /// Start loading the lines Notify() will read first. A hint: it changes nothing.
    virtual void Prefetch() const = 0;

protected:
    /**
     * Whether the event was cancelled. Prefetch() must check it before following a pointer:
     * the objects of a cancelled event may be gone (a device disposed while its event still
     * waits in the queue, as every event does while Simulator::Destroy drains it).
     */
    bool Cancelled() const
    {
        // EventImpl::IsCancelled only reads the flag, but is not declared const.
        return const_cast<PrefetchingEvent*>(this)->IsCancelled();
    }
};

} // namespace ns3

#endif /* MCAST4AI_PREFETCHING_EVENT_H */
